"""Counting speed of two source trees of the package, taking turns in one run.

    git worktree add /tmp/old main            # the version to compare against
    python benchmarks/bench_compare.py /tmp/old . [--n 16 17] [--rounds 3] [--method halving]

For each ``n`` and each method (the symmetric search and mirror halving), runs
``count_solutions(n, n_threads=1, method=...)`` in a fresh process of each tree in turn,
``--rounds`` times, after one call of each that compiles or loads the kernels, and prints the
best time of each tree and the ratio new / old (above 1.00: the new tree is slower). Taking
turns spreads the machine's noise over both trees alike, and the trees swap places every
round (old first, then new first): on one shared machine the tree run first in every round
was about 10% faster at n = 17, whichever it was. Compare ratios, not absolute times.
"""
import argparse
import os
import subprocess
import sys

TIMED = """
import time, nqueens_numba as nq
n, method = {n}, {method!r}
nq.count_solutions(9, n_threads=1, method=method)
start = time.perf_counter()
total = nq.count_solutions(n, n_threads=1, method=method)
print(time.perf_counter() - start, total)
"""


def timed(tree, n, method):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", TIMED.format(n=n, method=method)], env=env,
                         check=True, capture_output=True, text=True, cwd=tree).stdout.split()
    return float(out[0]), int(out[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="source tree of the version to compare against")
    parser.add_argument("new", help="source tree of the new version")
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--method", nargs="+", choices=("symmetric", "halving"),
                        default=["symmetric", "halving"])
    args = parser.parse_args()
    trees = {"old": args.old, "new": args.new}
    for tree in trees.values():  # compile or load the kernels of each tree once
        timed(tree, 10, "symmetric")
        timed(tree, 10, "halving")
    print("n   method      old (s)  new (s)  new/old")
    for n in args.n:
        for method in args.method:
            times = {name: [] for name in trees}
            totals = set()
            for round_ in range(args.rounds):
                order = list(trees.items())
                for name, tree in order if round_ % 2 == 0 else order[::-1]:
                    seconds, total = timed(tree, n, method)
                    times[name].append(seconds)
                    totals.add(total)
            if len(totals) != 1:
                raise SystemExit(f"the trees disagree on n={n}: {sorted(totals)}")
            old, new = min(times["old"]), min(times["new"])
            print(f"{n:<3} {method:<10} {old:8.3f} {new:8.3f} {new / old:8.3f}", flush=True)


if __name__ == "__main__":
    main()
