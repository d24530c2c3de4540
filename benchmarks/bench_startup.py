"""First contact: cold and warm start-up times, as ratios to ``python -c "import numba"``.

    python benchmarks/bench_startup.py [--rounds 3]

Each measurement is a fresh process. *Cold* runs get a new, empty ``NUMBA_CACHE_DIR`` (as
after an installation or an upgrade: every kernel compiles); *warm* runs reuse the cache the
cold run filled. Printed: the best time of each over ``--rounds`` runs, and its ratio to the
yardstick (``python -c "import numba"``, measured in the same rounds). Compare ratios, not
absolute times: the machine is shared.

Measured:

* ``nqueens count 12``;
* a first script that calls each main feature once (counts of n = 12 and 6, ``solve(8)``, a
  count with a pre-placed queen, the fundamental count and solutions of n = 8,
  ``find_solution(200)``, ``construct(1000)``, the first chunk of ``iter_solutions(10)``,
  ``trace(6)``, ``boards(4)``).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

FEATURES = """
import nqueens_numba as nq
nq.count_solutions(12)
nq.count_solutions(6)
nq.solve(8)
nq.count_solutions(8, preplaced={0: 0})
nq.count_solutions(8, fundamental=True)
nq.fundamental_solutions(8)
nq.find_solution(200, seed=0)
nq.construct(1000)
next(iter(nq.iter_solutions(10)))
nq.trace(6)
nq.boards(4)
"""

COMMANDS = {
    "import numba": [sys.executable, "-c", "import numba"],
    "nqueens count 12": [sys.executable, "-m", "nqueens_numba", "count", "12"],
    "every-feature script": [sys.executable, "-c", FEATURES],
}


def timed(cmd, cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best = {}
    for _ in range(args.rounds):
        for name, cmd in COMMANDS.items():
            with tempfile.TemporaryDirectory() as cache:
                cold = timed(cmd, cache)
                warm = timed(cmd, cache)
            old = best.get(name, (float("inf"), float("inf")))
            best[name] = (min(old[0], cold), min(old[1], warm))
    base = best["import numba"][1]
    print(f"{'':22} {'cold (s)':>9} {'/ numba':>8} {'warm (s)':>9} {'/ numba':>8}")
    for name, (cold, warm) in best.items():
        print(f"{name:22} {cold:9.2f} {cold / base:8.1f} {warm:9.2f} {warm / base:8.2f}")


if __name__ == "__main__":
    main()
