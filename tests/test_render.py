import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_numba as nq


def test_format_board():
    assert nq.format_board([1, 3, 0, 2]) == [".Q..", "...Q", "Q...", "..Q."]
    assert nq.format_board(np.array([0], dtype=np.int8)) == ["Q"]
    assert nq.format_board([]) == []


def test_to_boards_matches_format_board():
    sols = nq.solve(6)
    assert nq.to_boards(sols) == [nq.format_board(row) for row in sols]
    assert nq.to_boards(np.empty((0, 5), dtype=np.int8)) == []


def test_format_text():
    text = nq.format_text(nq.solve(4))
    assert text == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"
    assert all(line == line.rstrip() for line in text.splitlines())
    assert nq.format_text(np.empty((0, 3), dtype=np.int8)) == ""


@settings(deadline=None, max_examples=100)
@given(st.integers(1, 12).flatmap(lambda n: st.permutations(list(range(n)))))
def test_board_round_trip(perm):
    rows = nq.format_board(perm)
    assert len(rows) == len(perm)
    assert all(len(r) == len(perm) and r.count("Q") == 1 for r in rows)
    assert [r.index("Q") for r in rows] == list(perm)


@pytest.mark.parametrize("func, bad, exc", [
    (nq.format_board, [0, 4, 1, 2], ValueError),
    (nq.format_board, [-1, 0], ValueError),
    (nq.format_board, [[0]], ValueError),
    (nq.format_board, [0.0, 1.0], TypeError),
    (nq.to_boards, [0, 1], ValueError),
    (nq.to_boards, [[0, 2]], ValueError),
    (nq.to_boards, [[True]], TypeError),
    (nq.format_text, [1, 0], ValueError),
])
def test_render_errors(func, bad, exc):
    with pytest.raises(exc):
        func(bad)


def test_empty_inputs():
    assert nq.to_boards([]) == []
    assert nq.format_text([]) == ""


def test_huge_columns_are_value_errors():
    with pytest.raises(ValueError):
        nq.format_board([0, 2**64])
