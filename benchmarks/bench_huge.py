"""Huge boards: construct(n) with its verification, and find_solution with pre-placed queens.

    python benchmarks/bench_huge.py [--construct 1000000 10000000 100000000] [--find 1000000]

Prints the time of ``construct(n)`` and of ``is_solution`` on it, and of
``find_solution(n, preplaced=..., seed=s)`` with 10 pre-placed queens at random
non-attacking squares (seeded), for a few seeds (the first call includes no compilation: a
small call runs first).
"""
import argparse
import time

import numpy as np

import nqueens_numba as nq


def random_preplaced(n, k, rng):
    placed = {}
    while len(placed) < k:
        r, c = (int(v) for v in rng.integers(0, n, size=2))
        if r in placed or any(c == c2 or abs(r - r2) == abs(c - c2) for r2, c2 in placed.items()):
            continue
        placed[r] = c
    return placed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--construct", type=int, nargs="+", default=[10**6, 10**7, 10**8])
    parser.add_argument("--find", type=int, nargs="+", default=[10**5, 10**6])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()

    print(f"{'n':>11} {'construct s':>12} {'is_solution s':>14} {'total s':>8}")
    for n in args.construct:
        start = time.perf_counter()
        queens = nq.construct(n)
        built = time.perf_counter()
        ok = nq.is_solution(queens)
        checked = time.perf_counter()
        assert ok
        print(f"{n:>11} {built - start:>12.3f} {checked - built:>14.3f} {checked - start:>8.3f}")

    nq.find_solution(100, seed=0)  # compile
    rng = np.random.default_rng(2026)
    print(f"\n{'n':>11} {'seed':>5} {'find_solution s':>16}  (10 pre-placed queens)")
    for n in args.find:
        placed = random_preplaced(n, 10, rng)
        for seed in range(args.seeds):
            start = time.perf_counter()
            queens = nq.find_solution(n, preplaced=placed, seed=seed)
            elapsed = time.perf_counter() - start
            assert nq.is_solution(queens) and all(queens[r] == c for r, c in placed.items())
            print(f"{n:>11} {seed:>5} {elapsed:>16.3f}")


if __name__ == "__main__":
    main()
