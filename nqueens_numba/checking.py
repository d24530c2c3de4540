"""Checking a placement: is it a solution? Vectorised NumPy, any board order."""
import numpy as np

from . import _validate
from .board import board_of

__all__ = ["is_solution"]


def is_solution(queens, *, piece="queen", torus=False):
    """Whether a placement is a solution: a permutation with no two queens on a diagonal.

    Vectorised NumPy in O(n) time and memory; works for any ``n`` (not limited to 63).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``.
    piece : {"queen", "superqueen"}, optional
        ``"superqueen"``: no two queens a knight's move apart either.
    torus : bool, optional
        The diagonals wrap around the board's edges (toroidal queens).

    Returns
    -------
    bool
        ``True`` if every column, diagonal and anti-diagonal (wrapped, on the torus) holds
        at most one queen, no two superqueens are a knight's move apart, and every column
        lies in ``0..n-1``.

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers (``bool`` and ``float`` arrays included).
    ValueError
        If ``queens`` is not one-dimensional, for an unknown ``piece``, or for
        ``piece="superqueen"`` with ``torus=True``.

    Examples
    --------
    >>> is_solution([1, 3, 0, 2])
    True
    >>> is_solution([0, 1, 2, 3])
    False
    >>> is_solution([0, 2, 4, 1, 3], torus=True), is_solution([1, 3, 0, 2], torus=True)
    (True, False)
    """
    board = board_of(piece, torus)
    q = _validate.integer_array(queens)
    if q is None:
        if np.ndim(queens) != 1:
            raise ValueError(f"queens must have shape (n,), got shape {np.shape(queens)}")
        return False  # integers too large for int64: off any board NumPy can hold
    if q.ndim != 1:
        raise ValueError(f"queens must have shape (n,), got shape {q.shape}")
    n = q.shape[0]
    if n == 0:
        return True
    if q.min() < 0 or q.max() >= n:
        return False
    return board.is_solution(q.astype(np.int32 if n < 2**30 else np.int64, copy=False))
