"""Single-thread counts of toroidal queens and superqueens, the speed-up of each symmetry,
and a plain C bitboard search of the same boards, in one run.

    python benchmarks/bench_variants.py [--torus 13 17 19] [--superqueen 15 16 17 18]
                                        [--repeat 2]

For each board: ``count_solutions(n, n_threads=1, ...)`` (the torus by least steps: the
first-row queen in column 0, times n, the steps between rows the least of their rotations and
mirror images; superqueens by the symmetric search), the same search without its symmetry
(every first-row column, each solution checked and weighted as the count by least steps
does), on the torus the column shift alone (column 0, times n), and, where ``gcc`` is found,
``variants_reference.c`` compiled with ``-O3 -march=native``: a recursive bitboard counter,
the torus with the column shift and superqueens without symmetry. Prints the best of
``--repeat`` runs and the ratios (C time / ours: above 1, ours is faster). Compare ratios,
not absolute times, on a shared machine. Each toroidal order two above takes about 20 times
longer. ``--no-slow`` leaves out the searches without symmetry (and the column shift alone)
and C, for the largest boards: the search without symmetry of n = 23 takes about 12 hours
here, C's about an hour.
"""
import argparse
import os
import shutil
import subprocess
import tempfile

import numpy as np

import nqueens_numba as nq
from _timing import best
from nqueens_numba import _kernels, _split, _threads
from nqueens_numba.board import SUPERQUEEN, TOROIDAL

HERE = os.path.dirname(os.path.abspath(__file__))

#: Published counts, checked: OEIS A051906 (toroidal queens) and A051223 (superqueens).
KNOWN = {"torus": {13: 4524, 17: 140_692, 19: 820_496, 23: 128_850_048, 25: 1_957_725_000},
         "superqueen": {15: 32_516, 16: 202_900, 17: 1_330_622}}


def without_symmetry(n, board, first_limit=None):
    """The count of every first-row column, one thread (the search the symmetry saves); on
    the torus with ``first_limit=1``, of column 0 times ``n`` (the column shift alone)."""
    if not board.counted:
        split = _split.count_split(n, "halving", 1, halving=False, board=board)
        return split.total(_threads.run_split(split, 1))
    # The kernel of the count by least steps on one-row prefixes: nothing pruned, each
    # solution weighted (over every column, the weights add up to the count)
    first_limit = n if first_limit is None else first_limit
    states, _ = _split.prefixes(n, first_limit, None, 1, 1, board, job="count_prefixes")
    job = _split.CountJob(n, 1, "halving", _split.no_constraints(n), board)
    split = _split.Split(n, "halving", states, 1,
                         np.full(len(states), n // first_limit, dtype=np.int64),
                         board=board, job=job)
    return split.total(_threads.run_split(split, 1))


def c_reference(folder):
    """The compiled C reference, or ``None`` without gcc."""
    if shutil.which("gcc") is None:
        return None
    exe = os.path.join(folder, "variants_reference")
    subprocess.run(["gcc", "-O3", "-march=native", "-o", exe,
                    os.path.join(HERE, "variants_reference.c")], check=True)
    return exe


def c_time(exe, board, n, repeat):
    times = []
    for _ in range(repeat):
        out = subprocess.run([exe, board, str(n)], check=True, capture_output=True,
                             text=True).stdout.split()
        times.append(float(out[1]))
    return min(times), int(out[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, nargs="*", default=[13, 17, 19])
    parser.add_argument("--superqueen", type=int, nargs="*", default=[15, 16, 17, 18])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-slow", action="store_true",
                        help="only our counts (no search without symmetry, no C)")
    args = parser.parse_args()
    nq.count_solutions(11, torus=True, n_threads=1)  # compile or load the kernels first
    nq.count_solutions(11, piece="superqueen", n_threads=1)
    without_symmetry(11, _kernels.TORUS)
    without_symmetry(11, _kernels.KNIGHT)
    with tempfile.TemporaryDirectory() as folder:
        exe = None if args.no_slow else c_reference(folder)
        print(f"{'board':<11} {'n':>3} {'count':>14} {'ours s':>9} {'no symmetry s':>14} "
              f"{'symmetry x':>11} {'columns s':>10} {'C s':>9} {'C / ours':>9}")
        for board, sizes in (("torus", args.torus), ("superqueen", args.superqueen)):
            keywords = {"torus": True} if board == "torus" else {"piece": "superqueen"}
            variant = TOROIDAL if board == "torus" else SUPERQUEEN
            for n in sizes:
                ours, total = best(lambda: nq.count_solutions(n, n_threads=1, **keywords),
                                   args.repeat)
                assert total == KNOWN[board].get(n, total), (board, n, total)
                line = f"{board:<11} {n:>3} {total:>14,} {ours:>9.3f}"
                if args.no_slow:
                    print(line, flush=True)
                    continue
                plain, total_plain = best(lambda: without_symmetry(n, variant), 1)
                assert total == total_plain
                line += f" {plain:>14.3f} {plain / ours:>11.1f}"
                if board == "torus":
                    shift, total_shift = best(lambda: without_symmetry(n, variant, 1), 1)
                    assert total_shift == total
                    line += f" {shift:>10.3f}"
                else:
                    line += f" {'':>10}"
                if exe is not None:
                    c, total_c = c_time(exe, board, n, args.repeat)
                    assert total_c == total
                    line += f" {c:>9.3f} {c / ours:>9.2f}"
                print(line, flush=True)


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
