"""First contact: cold and warm start-up times, as ratios to ``python -c "import numba"``.

    python benchmarks/bench_startup.py [--rounds 3] [--only NAME ...]
    python benchmarks/bench_startup.py --kernels "nq.count_solutions(14)"

Each measurement is a fresh process. *Cold* runs get a new, empty ``NUMBA_CACHE_DIR`` (as
after an installation or an upgrade: every kernel compiles); *warm* runs reuse the cache the
cold run filled. Printed: the best time of each over ``--rounds`` runs, and its ratio to the
yardstick (``python -c "import numba"``, measured in the same rounds). Compare ratios, not
absolute times: the machine is shared. The package's modules are byte-compiled first, as
``pip install`` does and as a first run does (unless ``PYTHONDONTWRITEBYTECODE`` is set: then
every run would compile the package's sources again, about 0.1 s, which no user pays twice).

Measured:

* a cached numba kernel: ``import numba`` and the first call of a one-line kernel, loaded by
  numba itself (which refreshes its typing and lowering registries first: the package's
  kernels skip that, see ``_kernels._loading._tolerant_cache_class``);
* ``nqueens count 12``, ``13``, ``14``, ``15`` and ``16``, ``nqueens count 13 --fundamental``;
* ``solve(13)`` and ``estimate_count(20, samples=10**5)``;
* a first script that calls each main feature once (counts of n = 12 and 6, ``solve(8)``, a
  count with a pre-placed queen, the fundamental count and solutions of n = 8,
  ``find_solution(200)``, ``construct(1000)``, the first chunk of ``iter_solutions(10)``,
  ``trace(6)``, ``boards(4)``).

``--kernels CODE`` runs ``CODE`` (with ``nq`` imported) once in a fresh process with an
empty cache and prints the compile time of each kernel numba compiled for it, slowest
first (a kernel's time includes the helpers compiled for it), and the total.
"""
import argparse
import compileall
import importlib.util
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

#: numba's own cost of a first call from its cache: importing numba and the first call of a
#: cached one-line kernel (for which numba refreshes its typing and lowering registries and
#: starts its runtime, whatever the kernel; the package's kernels skip the refresh).
FLOOR = """import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def total(a):
    return a.sum()


total(np.zeros(4, dtype=np.int64))
"""

CLI = [sys.executable, "-m", "nqueens_numba"]

COMMANDS = {
    "import numba": [sys.executable, "-c", "import numba"],
    "a cached numba kernel": [sys.executable, "floor.py"],  # FLOOR, in a folder of its own
    "nqueens count 12": CLI + ["count", "12"],
    "nqueens count 13": CLI + ["count", "13"],
    "nqueens count 14": CLI + ["count", "14"],
    "nqueens count 15": CLI + ["count", "15"],
    "nqueens count 16": CLI + ["count", "16"],
    "count 13 --fundamental": CLI + ["count", "13", "--fundamental"],
    "solve(13)": [sys.executable, "-c", "import nqueens_numba as nq; nq.solve(13)"],
    "estimate_count(20)": [sys.executable, "-c", "import nqueens_numba as nq; "
                           "nq.estimate_count(20, samples=10**5, seed=1)"],
    "every-feature script": [sys.executable, "-c", FEATURES],
}

KERNELS = """
import sys, time
from numba.core import event
import nqueens_numba as nq
start = time.perf_counter()
with event.install_recorder("numba:compile") as recorder:
    exec(sys.argv[1])
total = time.perf_counter() - start
began, rows = {}, []
for when, ev in recorder.buffer:
    key = id(ev.data["dispatcher"]), str(ev.data["args"])
    if ev.is_start:
        began[key] = when
    else:
        func = ev.data["dispatcher"].py_func
        rows.append((when - began.pop(key), f"{func.__module__}.{func.__qualname__}"))
for seconds, name in sorted(rows, reverse=True):
    print(f"{seconds:7.2f}  {name}")
print(f"{total:7.2f}  in all (the call, compiling included)")
"""


def kernels(code):
    """Print the compile time of each kernel that ``code`` compiles with an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        subprocess.run([sys.executable, "-c", KERNELS, code], env=env, check=True)


def timed(cmd, cache, folder):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    cmd = [os.path.join(folder, part) if part == "floor.py" else part for part in cmd]
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=list(COMMANDS), metavar="NAME",
                        help="measure these commands (and the yardstick) only")
    parser.add_argument("--kernels", metavar="CODE",
                        help="print the compile time of each kernel CODE compiles")
    args = parser.parse_args()
    if args.kernels:
        return kernels(args.kernels)
    chosen = {name: cmd for name, cmd in COMMANDS.items()
              if args.only is None or name in args.only or name == "import numba"}
    package = importlib.util.find_spec("nqueens_numba").submodule_search_locations[0]
    compileall.compile_dir(package, quiet=1)
    best = {}
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "floor.py"), "w") as f:
            f.write(FLOOR)
        for _ in range(args.rounds):
            for name, cmd in chosen.items():
                with tempfile.TemporaryDirectory() as cache:
                    cold = timed(cmd, cache, folder)
                    warm = timed(cmd, cache, folder)
                old = best.get(name, (float("inf"), float("inf")))
                best[name] = (min(old[0], cold), min(old[1], warm))
    base = best["import numba"][1]
    print(f"{'':22} {'cold (s)':>9} {'/ numba':>8} {'warm (s)':>9} {'/ numba':>8}")
    for name, (cold, warm) in best.items():
        print(f"{name:22} {cold:9.2f} {cold / base:8.1f} {warm:9.2f} {warm / base:8.2f}")


if __name__ == "__main__":
    main()
