"""GPU counts (``device="cuda"``) checked against OEIS A000170 and timed beside a CUDA C
reference counter, on a machine with a GPU.

    python benchmarks/bench_gpu.py [--n 16 21] [--methods symmetric halving] [--repeat 1]
                                   [--reference-depth 6] [--no-reference]
                                   [--interrupt N SECONDS] [--tune N]
                                   [--block 128] [--blocks-per-sm 4] [--split-threads 16384]
                                   [--max-registers 0] [--launch-seconds 1]

For each board order and method: the host split (``plan_count``: prefixes and weights),
the copies of the states to the GPU, the kernel launches (results copied back included),
and the total of a warm ``run_plan``; the kernels' compile time is printed once per kernel
shape (numba-cuda compiles on first launch; each stack size is a kernel of its own). Every
count is checked against OEIS A000170 (the script stops on a wrong one).

``benchmarks/gpu_reference.cu`` (mirror halving, 32-bit masks, per-thread stacks in shared
memory, an atomic work counter, one reduction per block) is built with ``nvcc -O3
-arch=native`` and run in the same process's session, on the same GPU, for the same n; the
ratio printed is this package's total time over the reference's kernel time (below 1: this
package is faster).

``--interrupt N SECONDS``: a checkpointed GPU count of ``N`` is stopped after about
``SECONDS`` (a KeyboardInterrupt after the first launch that ends past them: the stop that
follows is Ctrl-C's), then resumed from its checkpoint; prints how many subproblems the
checkpoint held, and checks the resumed count against OEIS.

``--block``, ``--blocks-per-sm``, ``--split-threads`` and ``--max-registers`` set the
tunables of ``config`` (``GPU_BLOCK``, ``GPU_BLOCKS_PER_SM``, ``GPU_SPLIT_THREADS``,
``GPU_MAX_REGISTERS``); given several values each,
``--tune N`` first times the counts of ``N`` by each method with every combination (one
table, the kernel seconds and the total), then runs the rest with the fastest combination
for the first of ``--methods``. Board orders from 7: smaller ones are counted at once on
the CPU, with no split to run on a GPU. ``--launch-seconds`` sets ``config.GPU_LAUNCH_SECONDS``.

Under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, small n, ``--block 8``) it runs
without a GPU: a check of the script itself, which the tests run.
"""
import argparse
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from _timing import best
from nqueens_numba import _device, _kernels, _runner, _split, config
from nqueens_numba import _gpu, checkpoint, counting
from nqueens_numba._gpu import CudaDevices
from nqueens_numba.board import QUEEN

HERE = os.path.dirname(os.path.abspath(__file__))


def build_reference(folder):
    """The path of the compiled reference, or ``None`` (with a line why) without nvcc."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        print("reference: nvcc not found, skipped")
        return None
    exe = os.path.join(folder, "gpu_reference")
    subprocess.run([nvcc, "-O3", "-arch=native", "-o", exe,
                    os.path.join(HERE, "gpu_reference.cu")], check=True)
    return exe


def run_reference(exe, n, depth, repeat):
    """``(count, host seconds, kernel seconds)`` of the reference for ``n``."""
    out = subprocess.run([exe, str(n), str(depth), str(max(repeat, 1))], check=True,
                         capture_output=True, text=True).stdout
    found = dict(re.findall(r"(\w+)=([\d.]+)", out))
    return int(found["count"]), float(found["host"]), float(found["kernel"])


def load(n, method, gpus, compiled):
    """Compile the kernel of the count of ``n`` by ``method`` if its shape is new (numba-cuda
    compiles a kernel per stack size on first launch); print how long it took."""
    split = _split.plan_count(n, QUEEN, method=method, device="cuda").split
    shape = ((method,) + _kernels.launch_shape(split.n, split.depth, config.GPU_BLOCK)
             + (config.GPU_MAX_REGISTERS,))
    if shape not in compiled:
        executor = CudaDevices(gpus)
        executor.load(split)
        compiled[shape] = executor.timings["compile"]
        print(f"  compile {method} kernel (n={n}, depth {split.depth}): "
              f"{compiled[shape]:.2f} s")


def count_on_gpu(n, method, gpus):
    """One warm GPU count: ``(count, timings)`` with the seconds of each part."""
    start = time.perf_counter()
    plan = _split.plan_count(n, QUEEN, method=method, device="cuda")
    host = time.perf_counter() - start
    split = plan.split
    executor = CudaDevices(gpus)
    start = time.perf_counter()
    results = _runner.execute(split, executor)
    total = split.total(results)
    run = time.perf_counter() - start
    timings = dict(executor.timings, host=host, run=run, total=host + run,
                   states=len(split.states), depth=split.depth)
    return total, timings


def interrupt_and_resume(n, seconds, folder):
    """Stop a checkpointed GPU count of ``n`` after about ``seconds``, resume it, check it."""
    path = os.path.join(folder, f"n{n}.json")
    start = time.perf_counter()

    def stop_late(device, n_done):
        if time.perf_counter() - start > seconds:
            raise KeyboardInterrupt

    _gpu.after_launch = stop_late
    try:
        counting.count_solutions(n, device="cuda", checkpoint=path)
        print(f"interrupt n={n}: finished before {seconds} s")
        return
    except KeyboardInterrupt as exc:
        print(f"interrupt n={n} after {time.perf_counter() - start:.1f} s: {exc}")
    finally:
        _gpu.after_launch = lambda device, n_done: None
    saved = checkpoint.status(path)
    print(f"  checkpoint: {saved['finished']} of {saved['total_subproblems']} subproblems, "
          f"{saved['partial_count']} solutions so far")
    start = time.perf_counter()
    total = counting.count_solutions(n, device="cuda", checkpoint=path)
    if total != config.A000170[n]:
        sys.exit(f"resumed n={n}: {total}, OEIS A000170 says {config.A000170[n]}")
    print(f"  resumed: {total} (exact) in {time.perf_counter() - start:.1f} s")


TUNABLES = (("block", "GPU_BLOCK"), ("blocks_per_sm", "GPU_BLOCKS_PER_SM"),
            ("split_threads", "GPU_SPLIT_THREADS"), ("max_registers", "GPU_MAX_REGISTERS"))


def tune(n, methods, gpus, compiled, args):
    """Time the counts of ``n`` by each method with every combination of the tunables given;
    print them; return the fastest combination of the first method, as ``{name: value}``."""
    combinations = list(itertools.product(*(getattr(args, key) for key, _ in TUNABLES)))
    print(f"tune n={n}: block, blocks per SM, split threads, most registers (0: any); "
          f"kernel and total seconds")
    best_total, chosen = None, None
    for values in combinations:
        for (_, name), value in zip(TUNABLES, values):
            setattr(config, name, value)
        row = []
        for method in methods:
            load(n, method, gpus, compiled)
            seconds, (total, t) = best(lambda: count_on_gpu(n, method, gpus), args.repeat)
            if total != config.A000170[n]:
                sys.exit(f"tune n={n} {method}: {total}, OEIS A000170 says "
                         f"{config.A000170[n]}")
            row.append(f"{method} {t['kernel']:.3f} {seconds:.3f}")
            if method == methods[0] and (best_total is None or seconds < best_total):
                best_total, chosen = seconds, values
        print(f"  {values[0]:4d} {values[1]:3d} {values[2]:7d} {values[3]:3d}: "
              + "; ".join(row), flush=True)
    return {name: value for (_, name), value in zip(TUNABLES, chosen)}


def at_least(low, kind=int):
    """An argparse type: a number of ``kind`` of at least ``low``."""
    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not value >= low:  # (NaN too)
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {text}")
        return value
    return convert


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--n", type=at_least(7), nargs=2, default=(16, 21),
                        metavar=("FROM", "TO"),
                        help="the board orders to count (default 16 21)")
    parser.add_argument("--methods", nargs="+", default=["symmetric", "halving"],
                        choices=_split.METHODS, help="the methods to time, in order")
    parser.add_argument("--repeat", type=int, default=1, help="the best of this many counts")
    parser.add_argument("--reference-depth", type=int, default=6,
                        help="rows the reference places on the host")
    parser.add_argument("--no-reference", action="store_true",
                        help="do not build and run gpu_reference.cu")
    parser.add_argument("--interrupt", type=float, nargs=2, default=None,
                        metavar=("N", "SECONDS"),
                        help="stop a checkpointed count of N after SECONDS, resume it")
    parser.add_argument("--tune", type=at_least(7), default=None, metavar="N",
                        help="time every combination of the tunables on N first")
    parser.add_argument("--block", type=at_least(1), nargs="+", default=[config.GPU_BLOCK],
                        help="threads per block (config.GPU_BLOCK)")
    parser.add_argument("--blocks-per-sm", type=at_least(1), nargs="+",
                        default=[config.GPU_BLOCKS_PER_SM],
                        help="blocks per multiprocessor (config.GPU_BLOCKS_PER_SM)")
    parser.add_argument("--split-threads", type=at_least(1), nargs="+",
                        default=[config.GPU_SPLIT_THREADS],
                        help="the split's size (config.GPU_SPLIT_THREADS)")
    parser.add_argument("--max-registers", type=at_least(0), nargs="+",
                        default=[config.GPU_MAX_REGISTERS],
                        help="the most registers a thread takes, 0: any "
                             "(config.GPU_MAX_REGISTERS)")
    parser.add_argument("--launch-seconds", type=at_least(1e-6, float),
                        default=config.GPU_LAUNCH_SECONDS,
                        help="GPU work per launch (config.GPU_LAUNCH_SECONDS)")
    args = parser.parse_args()
    several = [key for key, _ in TUNABLES if len(getattr(args, key)) > 1]
    if several and args.tune is None:
        parser.error(f"several values of {', '.join(several)} need --tune N")
    for key, name in TUNABLES:
        setattr(config, name, getattr(args, key)[0])
    config.GPU_LAUNCH_SECONDS = args.launch_seconds
    gpus = _device.require()  # RuntimeError, saying why, without a usable GPU
    cuda = _kernels.cuda
    start = time.perf_counter()
    cuda.current_context()
    name = getattr(cuda.current_context().device, "name", "numba's CUDA simulator")
    print(f"GPU: {name}; context {time.perf_counter() - start:.2f} s;"
          f" block {config.GPU_BLOCK}, {config.GPU_BLOCKS_PER_SM} blocks per SM, at most "
          f"{config.GPU_MAX_REGISTERS or 'any'} registers, launches of "
          f"{config.GPU_LAUNCH_SECONDS:g} s")
    compiled = {}
    if args.tune is not None:
        chosen = tune(args.tune, args.methods, gpus, compiled, args)
        for name, value in chosen.items():
            setattr(config, name, value)
        print("chosen: " + ", ".join(f"{name} = {value}" for name, value in chosen.items()))
    with tempfile.TemporaryDirectory() as folder:
        exe = None if args.no_reference else build_reference(folder)
        for n in range(args.n[0], args.n[1] + 1):
            expected = config.A000170[n]
            reference = None
            if exe is not None:
                count, ref_host, ref_kernel = run_reference(exe, n, args.reference_depth,
                                                            args.repeat)
                if count != expected:
                    sys.exit(f"reference n={n}: {count}, OEIS A000170 says {expected}")
                reference = ref_kernel
                print(f"n={n} reference: kernel {ref_kernel:.3f} s (host {ref_host:.3f} s)")
            for method in args.methods:
                load(n, method, gpus, compiled)
                seconds, (total, t) = best(lambda: count_on_gpu(n, method, gpus), args.repeat)
                if total != expected:
                    sys.exit(f"n={n} {method}: {total}, OEIS A000170 says {expected}")
                ratio = f", {seconds / reference:.3f}x the reference" if reference else ""
                print(f"n={n} {method}: {total} (exact); split {t['host']:.3f} s "
                      f"({t['states']} subproblems, depth {t['depth']}), copies "
                      f"{t['copy']:.3f} s, kernel {t['kernel']:.3f} s in {t['launches']} "
                      f"launches, total {t['total']:.3f} s{ratio}", flush=True)
        if args.interrupt is not None:
            interrupt_and_resume(int(args.interrupt[0]), args.interrupt[1], folder)


if __name__ == "__main__":
    main()
