"""Timings of count_solutions: 1 thread against all threads, and first-call (compile) cost.

    python benchmarks/bench_count.py [--n 12 13 14 15 16] [--repeat 3]

Prints, for each n, the best of ``--repeat`` runs with 1 thread and with all of numba's
threads (after a warm-up call, so compile time is excluded), the speed-up and solutions per
second; then the time of the first call in a fresh process with the compile cache cold
(empty cache directory) and warm. Absolute times are noisy on shared machines: compare the
ratios within one run.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numba

import nqueens_numba as nq
from _timing import best

# Reference: a C bitboard counter with mirror halving, gcc -O3, one thread, n = 16, on the
# 2-core machine these figures were first taken on.
C_REFERENCE_16 = 3.5



FIRST_CALL = """
import time
start = time.perf_counter()
import nqueens_numba
imported = time.perf_counter()
nqueens_numba.count_solutions(8)
counted = time.perf_counter()
nqueens_numba.solve(8)
solved = time.perf_counter()
print(f"{imported - start:.3f} {counted - imported:.3f} {solved - counted:.3f}")
"""


def first_call(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return [float(x) for x in out]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[12, 13, 14, 15, 16])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    threads = numba.config.NUMBA_NUM_THREADS
    # The counts run on a pool of Python threads (GIL-free kernels), not on a numba
    # threading layer, so there is no layer to report.
    print(f"numba {numba.__version__}, {threads} threads")
    # Compile (or load the cached kernels of) both methods before timing.
    nq.count_solutions(8, n_threads=1)
    nq.count_solutions(12, n_threads=1)
    print(f"{'n':>3} {'total':>12} {'1 thread s':>11} {f'{threads} threads s':>12} "
          f"{'speed-up':>9} {'solutions/s':>13}")
    for n in args.n:
        t1, total = best(lambda: nq.count_solutions(n, n_threads=1), args.repeat)
        tn, total_n = best(lambda: nq.count_solutions(n, n_threads=threads), args.repeat)
        assert total == total_n
        print(f"{n:>3} {total:>12} {t1:>11.3f} {tn:>12.3f} {t1 / tn:>9.2f} {total / tn:>13.3g}")
        if n == 16:
            print(f"    n=16, 1 thread: {t1:.2f} s against {C_REFERENCE_16} s for the C "
                  f"reference (ratio {C_REFERENCE_16 / t1:.2f}x)")

    with tempfile.TemporaryDirectory() as cache:
        cold = first_call(cache)
        warm = first_call(cache)
    print("first call in a fresh process (s):   import  count_solutions(8)  solve(8)")
    print(f"  compile cache cold               {cold[0]:>7.3f} {cold[1]:>19.3f} {cold[2]:>9.3f}")
    print(f"  compile cache warm               {warm[0]:>7.3f} {warm[1]:>19.3f} {warm[2]:>9.3f}")


if __name__ == "__main__":
    main()
