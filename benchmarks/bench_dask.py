"""Counting on a Dask LocalCluster against counting locally, and Dask's overhead per task.

    python benchmarks/bench_dask.py [--n 16] [--repeat 3] [--workers 2]

Starts a LocalCluster of ``--workers`` single-threaded worker processes, warms it up (the
workers import the package and load the compiled kernels), then times
``distributed.count_solutions(client, n)`` against ``count_solutions(n)`` with as many local
threads, best of ``--repeat``, interleaved. The overhead per task is measured with batches
that hold one tiny subproblem each.
"""
import argparse

from distributed import Client, LocalCluster

import nqueens_numba as nq
from _timing import best
from nqueens_numba import _split
from nqueens_numba import distributed as dist



def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        dist.count_solutions(client, 12)  # warm-up: import and load kernels on the workers
        nq.count_solutions(12)
        local_times, dask_times = [], []
        for _ in range(args.repeat):
            t, local = best(lambda: nq.count_solutions(args.n, n_threads=args.workers), 1)
            local_times.append(t)
            t, remote = best(lambda: dist.count_solutions(client, args.n), 1)
            dask_times.append(t)
            assert local == remote
        local_t, dask_t = min(local_times), min(dask_times)
        print(f"n={args.n}: local {args.workers} threads {local_t:.3f} s, LocalCluster "
              f"{args.workers} workers x 1 thread {dask_t:.3f} s, ratio {dask_t / local_t:.3f}")
        # Overhead: many batches of almost no work (n = 11, one subproblem per batch).
        tasks = len(_split.count_split(11, "symmetric", 1, 5).states)
        t, _ = best(lambda: dist.count_solutions(client, 11, prefix_depth=5,
                                                 tasks_per_worker=tasks), args.repeat)
        work, _ = best(lambda: nq.count_solutions(11, prefix_depth=5, n_threads=1),
                       args.repeat)
        print(f"overhead: {tasks} tasks in {t:.3f} s against {work:.4f} s of work on one "
              f"thread: about {(t - work / args.workers) / tasks * 1e3:.2f} ms per task")


if __name__ == "__main__":
    main()
