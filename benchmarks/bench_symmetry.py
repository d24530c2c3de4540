"""Single-thread time of the two counting methods: mirror halving against the D4-symmetric search.

    python benchmarks/bench_symmetry.py [--n 14 15 16 17] [--small 7 8 9 10 11 12 13]
                                        [--by-column 16 17] [--first 15 16] [--repeat 3]

For each n of ``--n`` prints the best of ``--repeat`` runs of
``count_solutions(n, method=..., n_threads=1)`` for both methods, taking turns (compile time
excluded), and the ratio, with the number of orbits by size; for the small n of ``--small``,
the best of many runs, which is how ``config.SYMMETRIC_MIN_N`` was chosen. ``--by-column``
splits one board's single-thread time by the column of the first-row queen: the symmetric
search's subtree of that column against the mirror-halved search's. ``--first`` times the
symmetric kernel that a first count runs while the symmetric kernel is still to compile
(``CountJob.first``) against that kernel, on the same split, one thread. Compare ratios
within one run: absolute times are noisy on shared machines.
"""
import argparse

import numpy as np

import nqueens_numba as nq
from _timing import best
from nqueens_numba import _split

# Published reference on the 2-core machine these figures were first taken on: a C counter
# using 8-fold symmetry, one thread, gcc -O3.
C_SYMMETRIC = {16: 1.4, 17: 9.6}


def by_column(n, repeat):
    """Single-thread seconds of each first-row column's subtree, both searches."""
    depth = 3
    halving_split = _split.count_split(n, "halving", 1, prefix_depth=depth)
    symmetric_split = _split.count_split(n, "symmetric", 1, prefix_depth=depth)
    halving, symmetric = halving_split.states, symmetric_split.states
    print(f"\nn = {n}, one thread, best of {repeat} (s), by first-row column:")
    print(f"{'column':>6} {'halving':>9} {'symmetric':>10} {'sym/halving':>12}")
    total_h = total_s = 0.0
    for column in range((n + 1) // 2):
        h = np.ascontiguousarray(halving[halving[:, 3] == column])
        s = np.ascontiguousarray(symmetric[symmetric[:, 3] == column])
        th, _ = best(lambda: halving_split.job(h), repeat)
        ts = 0.0  # no first-row queen in a corner: column 0 has no subproblem
        if len(s):
            ts, _ = best(lambda: symmetric_split.job(s), repeat)
        total_h += th
        total_s += ts
        print(f"{column:>6} {th:>9.3f} {ts:>10.3f} {ts / th:>12.2f}")
    print(f"{'all':>6} {total_h:>9.3f} {total_s:>10.3f} {total_s / total_h:>12.2f}")


def first_kernel(n, repeat):
    """Single-thread seconds of the first count's symmetric kernel and of the symmetric
    kernel, on the same split, taking turns."""
    split = _split.count_split(n, "symmetric", 1)
    full, first = split.job, split.job.first_use()
    assert np.array_equal(first(split.states), full(split.states))  # (and both compiled)
    t_full = t_first = float("inf")
    for _ in range(repeat):
        t_first = min(t_first, best(lambda: first(split.states), 1)[0])
        t_full = min(t_full, best(lambda: full(split.states), 1)[0])
    print(f"{n:>3} {t_first:>9.3f} {t_full:>10.3f} {t_first / t_full:>6.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="*", default=[14, 15, 16, 17])
    parser.add_argument("--small", type=int, nargs="*", default=[7, 8, 9, 10, 11, 12, 13])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--by-column", type=int, nargs="*", default=[])
    parser.add_argument("--first", type=int, nargs="*", default=[])
    args = parser.parse_args()

    for method in ("halving", "symmetric"):  # compile outside the timings
        nq.count_solutions(8, method=method, n_threads=1)

    print("small boards (best of 50, ms):")
    print(f"{'n':>3} {'halving':>10} {'symmetric':>10}")
    for n in args.small:
        th, _ = best(lambda: nq.count_solutions(n, method="halving", n_threads=1), 50)
        ts, _ = best(lambda: nq.count_solutions(n, method="symmetric", n_threads=1), 50)
        print(f"{n:>3} {th * 1e3:>10.3f} {ts * 1e3:>10.3f}")

    print(f"\none thread, best of {args.repeat} (s):")
    print(f"{'n':>3} {'total':>12} {'fundamental':>12} {'halving':>9} {'symmetric':>10} "
          f"{'ratio':>6}  orbits by size")
    for n in args.n:
        # The two methods take turns, so that a change in the machine's load touches both.
        th = ts = float("inf")
        for _ in range(args.repeat):
            t, total_h = best(lambda: nq.count_solutions(n, method="halving", n_threads=1), 1)
            th = min(th, t)
            t, total_s = best(lambda: nq.count_solutions(n, method="symmetric", n_threads=1), 1)
            ts = min(ts, t)
        assert total_h == total_s
        classes = nq.symmetry_classes(n)
        fundamental = sum(classes.values())
        print(f"{n:>3} {total_s:>12} {fundamental:>12} {th:>9.3f} {ts:>10.3f} {th / ts:>6.2f}"
              f"  {classes}")
        if n in C_SYMMETRIC:
            print(f"    symmetric {ts:.2f} s against {C_SYMMETRIC[n]} s for the published C "
                  f"counter (C time / ours = {C_SYMMETRIC[n] / ts:.2f})")
    for n in args.by_column:
        by_column(n, args.repeat)
    if args.first:
        print(f"\nthe first count's symmetric kernel, one thread, best of {args.repeat} (s):")
        print(f"{'n':>3} {'first':>9} {'symmetric':>10} {'ratio':>6}")
    for n in args.first:
        first_kernel(n, args.repeat)


if __name__ == "__main__":
    main()
