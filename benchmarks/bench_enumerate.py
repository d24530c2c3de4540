"""Time and peak memory of enumerating all solutions: solve, iter_solutions, save_solutions.

    python benchmarks/bench_enumerate.py [--n 16] [--repeat 3]

``save_solutions`` is timed writing a ``.npy`` file, and the text formats (``text``,
``csv``, ``json``) to ``os.devnull`` (their formatting; their files are 2.4, 17 and 20 times
larger than the ``.npy`` at n = 16).

Against the time of ``count_solutions(n, method="halving")`` on the same threads (the
search that ``solve`` extends with writing), best of ``--repeat`` runs each, interleaved so
that a noisy machine affects them alike. Peak memory is measured with ``tracemalloc`` (which
sees NumPy's allocations) in a fresh process per case, and compared with the result array.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numba

import nqueens_numba as nq

CASES = {
    "solve": "result = nq.solve(N)",
    "iter_solutions": "result = sum(len(c) for c in nq.iter_solutions(N))",
    "save_solutions npy": "result = nq.save_solutions(PATH, N, format='npy')",
}

PEAK = """
import sys, tracemalloc
import nqueens_numba as nq
N, PATH = int(sys.argv[1]), sys.argv[2]
# load the kernels before measuring (numba's loading takes 36 MiB of its own); boards up to
# config.BREADTH_MAX_N are enumerated in NumPy, without them
nq.solve(13); list(nq.iter_solutions(13))
tracemalloc.start()
{case}
print(tracemalloc.get_traced_memory()[1])
"""


def peak_bytes(case, n, path):
    code = PEAK.format(case=CASES[case])
    out = subprocess.run([sys.executable, "-c", code, str(n), path], check=True,
                         capture_output=True, text=True).stdout
    return int(out.split()[-1])


def _to_null(n, fmt):
    """``save_solutions`` in a text format to ``os.devnull``: the formatting, not the disk."""
    with open(os.devnull, "w") as null:
        return nq.save_solutions(null, n, format=fmt)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.n
    threads = numba.config.NUMBA_NUM_THREADS
    nq.solve(13)  # (the kernels: boards up to config.BREADTH_MAX_N are done in NumPy)
    list(nq.iter_solutions(13))
    nq.count_solutions(13, method="halving")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "solutions.npy")
        runs = {
            "count (halving)": lambda: nq.count_solutions(n, method="halving"),
            "solve": lambda: len(nq.solve(n)),
            "iter_solutions": lambda: sum(len(c) for c in nq.iter_solutions(n)),
            "save_solutions npy": lambda: nq.save_solutions(path, n, format="npy"),
            **{f"save_solutions {fmt}": lambda fmt=fmt: _to_null(n, fmt)
               for fmt in ("text", "csv", "json")},
        }
        best = {name: float("inf") for name in runs}
        for _ in range(args.repeat):
            for name, func in runs.items():
                start = time.perf_counter()
                func()
                best[name] = min(best[name], time.perf_counter() - start)
        result_bytes = nq.count_solutions(n) * n
        print(f"n={n}, {threads} threads, result {result_bytes / 2**20:.0f} MiB "
              f"(best of {args.repeat})")
        print(f"{'':>20} {'time s':>8} {'/ count':>8} {'peak MiB':>9} {'/ result':>9}")
        for name in runs:
            line = f"{name:>20} {best[name]:>8.3f} {best[name] / best['count (halving)']:>8.2f}"
            if name in CASES:
                peak = peak_bytes(name, n, path)
                line += f" {peak / 2**20:>9.1f} {peak / result_bytes:>9.3f}"
            print(line)


if __name__ == "__main__":
    main()
