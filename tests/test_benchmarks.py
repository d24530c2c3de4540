"""The benchmarks that reach into the package's internals still run (the scaling
benchmark's emulation failed once the tracker read an attribute its stand-in lacked)."""
import os
import pathlib
import subprocess
import sys

import pytest

BENCHMARKS = pathlib.Path(__file__).parent.parent / "benchmarks"


@pytest.mark.slow
@pytest.mark.parametrize("mode", [["--emulate", "13", "--threads", "3"],
                                  ["--breakdown", "13", "--threads", "1", "3"],
                                  ["--breakdown", "13", "--threads", "1", "2", "--kind", "torus"],
                                  ["--cores", "13", "--threads", "1", "3", "--seconds", "0.05",
                                   "--kind", "blocked"],
                                  ["--estimate", "13", "--threads", "1", "2", "--samples",
                                   "1000"],
                                  ["--n", "13", "--threads", "1", "2", "--model-n", "0"]])
def test_the_scaling_benchmarks_modes_run(mode):
    run = subprocess.run([sys.executable, str(BENCHMARKS / "bench_scaling.py"), *mode,
                          "--repeat", "1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = [line.split() for line in run.stdout.splitlines()]
    column = 1 if mode[0] == "--n" else 0  # (the speed-ups' rows start with n)
    threads = [int(row[column]) for row in rows if row and row[0].isdigit()]
    given = mode[mode.index("--threads") + 1:]
    assert threads == [int(t) for t in given[:next(
        (i for i, t in enumerate(given) if not t.isdigit()), len(given))]], run.stdout


@pytest.mark.slow
def test_the_gpu_benchmark_runs_under_the_simulator(tmp_path):
    """The GPU benchmark runs on a GPU machine only when one is lent: under numba's CUDA
    simulator, its tuning, counts and interruption run here first."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    run = subprocess.run([sys.executable, str(BENCHMARKS / "bench_gpu.py"), "--n", "8", "9",
                          "--no-reference", "--tune", "8", "--block", "8", "16",
                          "--launch-seconds", "0.01", "--interrupt", "10", "0.3"],
                         capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    counts = [line for line in out.splitlines() if line.startswith("n=")]
    assert "chosen: GPU_BLOCK = " in out and len(counts) == 4, out
    assert all("(exact)" in line for line in counts), out
    assert "resumed: 724 (exact)" in out or "finished before" in out, out


def test_the_gpu_compile_benchmark_documents_itself():
    """It needs numba-cuda's NVVM (not in the tests' environment) once it compiles; its help
    runs without, and names what it needs."""
    run = subprocess.run([sys.executable, str(BENCHMARKS / "gpu_compile.py"), "--help"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "numba-cuda with NVVM" in run.stdout and "--arch" in run.stdout
