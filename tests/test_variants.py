"""Toroidal queens and superqueens: counts against OEIS and the naive oracles, enumeration in
order, the checks, and the combinations that do not apply."""
import math

import numpy as np
import pytest

import nqueens_numba as nq
from naive import attacks_naive, variant_solutions_naive

# OEIS A051906: toroidal (modular) n-queens, n = 0..17 (n = 0: the empty board), and beyond
A051906 = [1, 1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692]
A051906_MORE = {19: 820_496, 23: 128_850_048, 25: 1_957_725_000}
# OEIS A051223: superqueens, n = 0..17; A051224: their fundamental solutions, n = 0..14
A051223 = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876, 5180, 32516, 202900, 1330622]
A051224 = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 6, 22, 239, 653]

BOARDS = [{"torus": True}, {"piece": "superqueen"}]


@pytest.mark.parametrize("n", range(0, 16))
def test_torus_against_oeis(n):
    total = nq.count_solutions(n, torus=True)
    assert total == A051906[n]
    assert total % max(n, 1) == 0  # the column shifts of a solution are solutions
    assert (total > 0) == (n <= 1 or math.gcd(n, 6) == 1)  # Polya (1921)


@pytest.mark.parametrize("n", range(0, 16))
def test_superqueens_against_oeis(n):
    assert nq.count_solutions(n, piece="superqueen") == A051223[n]


@pytest.mark.slow
@pytest.mark.parametrize("n, total", [(17, A051906[17]), *A051906_MORE.items()][:3])
def test_torus_against_oeis_slow(n, total):
    assert nq.count_solutions(n, torus=True) == total


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17])
def test_superqueens_against_oeis_slow(n):
    assert nq.count_solutions(n, piece="superqueen") == A051223[n]


@pytest.mark.parametrize("n", range(0, 15))
def test_fundamental_superqueens(n):
    assert nq.count_solutions(n, piece="superqueen", fundamental=True) == A051224[n]


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
@pytest.mark.parametrize("n", range(1, 10))
def test_counts_and_solutions_against_the_oracle(n, board):
    expected = variant_solutions_naive(n, **board)
    assert nq.count_solutions(n, **board) == len(expected)
    sols = nq.solve(n, **board)
    assert sols.dtype == np.int8 and sols.shape == (len(expected), n)
    assert [tuple(row) for row in sols.tolist()] == expected  # in lexicographic order
    assert all(nq.is_solution(row, **board) for row in sols)
    assert nq.solve(n, limit=3, **board).tolist() == [list(p) for p in expected[:3]]


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_larger_solutions_pass_the_check(board):
    for n in (11, 12, 13):
        sols = nq.solve(n, **board)
        assert len(sols) == nq.count_solutions(n, **board)
        assert all(nq.is_solution(row, **board) for row in sols)
        assert np.array_equal(np.unique(sols, axis=0), sols)  # sorted, no repeats


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_same_count_for_every_split_and_thread_count(board):
    n = 13
    expected = nq.count_solutions(n, **board)
    for depth in (1, 2, 3, 5, 8):
        assert nq.count_solutions(n, prefix_depth=depth, n_threads=1, **board) == expected
    assert nq.count_solutions(n, n_threads=2, method="halving", **board) == expected


def test_is_solution_against_the_oracle():
    rng = np.random.default_rng(5)
    for n in range(1, 10):
        for _ in range(200):
            q = rng.permutation(n)
            for board in ({}, *BOARDS):
                piece = board.get("piece", "queen")
                torus = board.get("torus", False)
                expected = not any(attacks_naive(r1, q[r1], r2, q[r2], n, piece, torus)
                                   for r1 in range(n) for r2 in range(r1 + 1, n))
                assert nq.is_solution(q, **board) == expected, (q, board)


def test_checkpoints_know_their_board(tmp_path):
    path = tmp_path / "torus.json"
    assert nq.count_solutions(13, torus=True, checkpoint=path) == 4524
    assert nq.count_solutions(13, torus=True, checkpoint=path) == 4524  # resumed: all done
    with pytest.raises(nq.checkpoint.CheckpointError):
        nq.count_solutions(13, checkpoint=path, method="halving")
    with pytest.raises(nq.checkpoint.CheckpointError):
        nq.count_solutions(13, piece="superqueen", checkpoint=path)


@pytest.mark.parametrize("call", [nq.count_solutions, nq.solve,
                                  lambda n, **kw: nq.is_solution(list(range(n)), **kw)])
def test_bad_boards(call):
    with pytest.raises(ValueError, match="piece must be one of 'queen', 'superqueen'"):
        call(8, piece="king")
    with pytest.raises(TypeError, match="piece must be a string"):
        call(8, piece=None)
    with pytest.raises(TypeError, match="torus must be True or False"):
        call(8, torus=1)
    with pytest.raises(ValueError, match="piece='superqueen' cannot be combined with torus"):
        call(8, piece="superqueen", torus=True)


def test_combinations_that_do_not_apply():
    for board, name in ((BOARDS[0], "torus=True"), (BOARDS[1], "piece='superqueen'")):
        with pytest.raises(ValueError, match=f"{name} cannot be combined with pre-placed"):
            nq.count_solutions(8, preplaced={0: 1}, **board)
        with pytest.raises(ValueError, match=f"{name} cannot be combined with pre-placed"):
            nq.solve(8, blocked=np.eye(8, dtype=bool), **board)
        with pytest.raises(ValueError, match=f"{name} cannot be combined with method"):
            nq.count_solutions(8, method="symmetric", **board)
