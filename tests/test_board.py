"""The boards of the family: one Board per (piece, torus), its rules against the oracles, and
the kernel table it selects from."""
import itertools
import math
import pickle

import numpy as np
import pytest

from nqueens_numba import _kernels
from nqueens_numba.board import QUEEN, SUPERQUEEN, TOROIDAL, board_of

from naive import attacks_naive, variant_solutions_naive

BOARDS = [QUEEN, TOROIDAL, SUPERQUEEN]


def test_one_board_per_choice_whatever_the_argument_types():
    assert board_of() is QUEEN
    assert board_of("queen", np.bool_(True)) is TOROIDAL
    assert board_of(np.str_("superqueen"), False) is SUPERQUEEN
    for board in BOARDS:  # a Dask worker gets the same object back
        assert pickle.loads(pickle.dumps(board)) is board


@pytest.mark.parametrize("piece, torus, error", [
    (1, False, TypeError), ("queen", 0, TypeError), ("queen", None, TypeError),
    ("rook", False, ValueError), ("superqueen", True, ValueError)])
def test_bad_boards_are_refused(piece, torus, error):
    with pytest.raises(error, match="piece|torus"):
        board_of(piece, torus)


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: str(b.name))
@pytest.mark.parametrize("n", [1, 4, 5, 7])
def test_attacked_squares_match_the_oracle(board, n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        queens = np.where(rng.random(n) < 0.5, rng.integers(0, n, n), -1)
        got = board.attacked(queens)
        for r, c in itertools.product(range(n), range(n)):
            expected = any(  # (a queen's own square: by another queen)
                attacks_naive(qr, int(queens[qr]), r, c, n, board.piece, board.torus)
                for qr in range(n) if queens[qr] >= 0 and (qr, queens[qr]) != (r, c))
            assert got[r, c] == expected


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: str(b.name))
@pytest.mark.parametrize("n", range(1, 8))
def test_solutions_are_recognised(board, n):
    solutions = set(variant_solutions_naive(n, board.piece, board.torus))
    for perm in itertools.permutations(range(n)):
        assert board.is_solution(np.array(perm, dtype=np.int32)) == (perm in solutions)


def test_boards_without_solutions():
    assert TOROIDAL.unsolvable == {n for n in range(64) if TOROIDAL.has_no_solutions(n)}
    assert all(TOROIDAL.has_no_solutions(n) == (n > 1 and math.gcd(n, 6) != 1)
               for n in range(200))
    assert not QUEEN.unsolvable and not SUPERQUEEN.unsolvable
    assert [n for n in range(64) if SUPERQUEEN.has_no_solutions(n)] == list(range(2, 10))
    for n in range(1, 10):  # the rules agree with the search
        assert (len(variant_solutions_naive(n, torus=True)) == 0) == (
            TOROIDAL.has_no_solutions(n))
        assert (len(variant_solutions_naive(n, "superqueen")) == 0) == (
            SUPERQUEEN.has_no_solutions(n))


def test_every_kernel_of_the_table_exists():
    """Every job of the kernel table names a kernel of its family."""
    for (job, flag, constrained), name in _kernels._ENTRIES.items():
        board = next(b for b in BOARDS if b.flag == flag)
        assert callable(_kernels.entry(job, board, constrained)), name
    with pytest.raises(LookupError):
        _kernels.entry("symmetric", TOROIDAL)


def test_every_variant_has_a_cost_for_the_long_count_warning():
    """(Without one, a variant's long count would be warned of by the plain queens' costs.)"""
    from nqueens_numba import board, config

    variants = [b for b in board._BOARDS.values() if not b.plain]
    assert variants and all(b.name in config.VARIANT_COST for b in variants)
    for size, seconds, growth in config.VARIANT_COST.values():
        assert size > 0 and seconds > 0 and growth > 1
