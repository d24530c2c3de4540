"""Parallel scaling of count_solutions: measured here, and modelled for bigger machines.

    python benchmarks/bench_scaling.py [--n 15 16 17] [--model-n 18] [--model-threads 16 64]

1. Speed-up of ``count_solutions(n)`` from 1 thread to all of numba's threads (best of
   ``--repeat``), and the cost of ``progress=True``.
2. For ``--model-n``, the time of every subproblem of the split that a machine with
   ``max(--model-threads)`` threads would use, measured one by one on this machine (all
   threads busy, as in a real run). From them: the largest subproblem's share of the work,
   and the makespan of a greedy schedule on T threads (each thread takes the next
   subproblem, in the run's shuffled order, when it finishes the previous one; the threads
   run the same kernels with no shared state, so this is the pool's behaviour), as an
   efficiency: work / (T * makespan).
"""
import argparse
import heapq
import threading
import time

import numba
import numpy as np

import nqueens_numba as nq
from _timing import best
from nqueens_numba import _kernels, _split, config



def measure_subproblems(n, states, depth, n_threads):
    """Seconds of each subproblem, timed one by one on ``n_threads`` threads at once."""
    job = _split.CountJob(n, depth, "symmetric")
    times = np.zeros(len(states))
    order = np.random.default_rng(config.SHUFFLE_SEED).permutation(len(states))
    parts = np.array_split(order, n_threads)

    def work(part):
        for i in part:
            batch = np.ascontiguousarray(states[i:i + 1])
            start = time.perf_counter()
            job(batch)
            times[i] = time.perf_counter() - start

    threads = [threading.Thread(target=work, args=(p,)) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def greedy_makespan(times, n_threads):
    """Makespan of list scheduling in the given order on ``n_threads`` identical threads."""
    free_at = [0.0] * n_threads
    for t in times:
        heapq.heapreplace(free_at, free_at[0] + t)
    return max(free_at)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[15, 16, 17])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--model-n", type=int, default=18)
    parser.add_argument("--model-threads", type=int, nargs="+", default=[16, 64])
    args = parser.parse_args()

    most = numba.config.NUMBA_NUM_THREADS
    nq.count_solutions(12)  # compile
    print(f"1. measured on this machine ({most} threads)")
    print(f"{'n':>3} {'1 thread s':>11} {f'{most} threads s':>12} {'speed-up':>9} "
          f"{'with progress s':>16} {'progress cost':>14}")
    for n in args.n:
        t1, c1 = best(lambda: nq.count_solutions(n, n_threads=1), args.repeat)
        tn, cn = best(lambda: nq.count_solutions(n, n_threads=most), args.repeat)
        tp, cp = best(lambda: nq.count_solutions(n, n_threads=most, progress=True),
                      args.repeat)
        assert c1 == cn == cp
        print(f"{n:>3} {t1:>11.3f} {tn:>12.3f} {t1 / tn:>9.2f} {tp:>16.3f} "
              f"{(tp / tn - 1) * 100:>13.1f}%")

    n = args.model_n
    threads = max(args.model_threads)
    split = _split.count_split(n, "symmetric", threads)
    states, depth = split.states, split.depth
    print(f"\n2. model for n={n}: the split for {threads} threads has {len(states)} "
          f"subproblems (prefix depth {depth}); timing each on {most} threads here...")
    times = measure_subproblems(n, states, depth, most)
    work = times.sum()
    order = np.random.default_rng(config.SHUFFLE_SEED).permutation(len(states))
    print(f"   work {work:.1f} thread-seconds, largest subproblem {times.max() * 1e3:.1f} ms "
          f"= {times.max() / work:.2e} of the work, median {np.median(times) * 1e3:.2f} ms")
    print(f"{'threads':>10} {'makespan s':>11} {'efficiency':>11} {'bound':>7}")
    for t in sorted(set(args.model_threads) | {most}):
        makespan = greedy_makespan(times[order], t)
        bound = max(work / t, times.max())
        print(f"{t:>10} {makespan:>11.3f} {work / (t * makespan):>11.3f} "
              f"{work / (t * bound):>7.3f}")


if __name__ == "__main__":
    main()
