"""Small boards in NumPy: the search row by row, over every partial placement at once.

Nothing here is compiled, so a first count or enumeration of a small board
(``n <= config.BREADTH_MAX_N``) takes milliseconds in a fresh process, where the numba
kernels take a fraction of a second to seconds to compile or to load from their cache. Past
that size the kernels win: the work here grows with the number of partial placements, which
NumPy holds in memory row by row (about 10^5 at n = 12).

The states of one row are three ``int64`` bitboard arrays (as in :mod:`nqueens_numba._kernels`:
``cols``, ``diag`` shifted left per row, ``anti`` shifted right). Each state's free squares are
unpacked into a row of bits; ``np.nonzero`` lists them by state, then by column, so the states
of the next row stay in lexicographic order of their queens. Pure NumPy; imports nothing else
from the package.
"""
import numpy as np

__all__ = ["count", "solutions"]

#: Largest board order handled here: free squares are unpacked from two bytes.
MAX_N = 16


def _rows(n, allow, rows):
    """The search of the first ``rows`` rows: the masks of the states after them, and per row
    the ``(parent, column)`` arrays that built its states (parent: index of the state of the
    row above)."""
    if not 0 <= rows <= n <= MAX_N:
        raise ValueError(f"the breadth-first search handles 0 <= rows <= n <= {MAX_N}")
    full = np.int64((1 << n) - 1)
    cols = np.zeros(1, dtype=np.int64)
    diag = np.zeros(1, dtype=np.int64)
    anti = np.zeros(1, dtype=np.int64)
    steps = []
    for row in range(rows):
        free = ~(cols | diag | anti) & allow[row]
        bits = np.unpackbits(free.astype("<u2").view(np.uint8).reshape(-1, 2), axis=1,
                             bitorder="little")
        parent, column = np.nonzero(bits)
        bit = np.left_shift(np.int64(1), column.astype(np.int64))
        cols = cols[parent] | bit
        diag = ((diag[parent] | bit) << 1) & full
        anti = (anti[parent] | bit) >> 1
        steps.append((parent, column))
    return cols, diag, anti, steps


def _count(n, allow):
    if n == 0:
        return 1
    cols, diag, anti, _ = _rows(n, allow, n - 1)
    free = ~(cols | diag | anti) & allow[n - 1]
    return int(np.unpackbits(free.astype("<u2").view(np.uint8)).sum(dtype=np.int64))


def _solutions(n, allow):
    if n == 0:
        return np.empty((1, 0), dtype=np.int8)
    cols, _, _, steps = _rows(n, allow, n)
    out = np.empty((len(cols), n), dtype=np.int8)
    state = np.arange(len(cols))
    for row in range(n - 1, -1, -1):  # follow each solution's parents up to the first row
        parent, column = steps[row]
        out[:, row] = column[state]
        state = parent[state]
    return out


def _halves(n):
    """The allowed squares of the left half of the first row, and of its middle square (or
    ``None`` for even ``n``), the other rows free: the two searches of mirror halving."""
    left = np.full(n, (1 << n) - 1, dtype=np.int64)
    left[0] = (1 << (n // 2)) - 1
    if n % 2 == 0:
        return left, None
    middle = left.copy()
    middle[0] = 1 << (n // 2)
    return left, middle


def count(n, allow=None):
    """Number of solutions of an ``n``-board, each row limited to ``allow`` if given.

    Parameters
    ----------
    n : int
        ``0 <= n <= MAX_N``.
    allow : numpy.ndarray, shape (n,), dtype int64, optional
        Per row, the bitboard of the squares a queen may take. Without it, only the left half
        of the first row (and its middle square) is searched (mirror halving).

    Returns
    -------
    int
    """
    if allow is not None or n == 0:
        return _count(n, np.full(n, (1 << n) - 1, np.int64) if allow is None else allow)
    left, middle = _halves(n)
    return 2 * _count(n, left) + (0 if middle is None else _count(n, middle))


def solutions(n, allow=None):
    """Every solution of an ``n``-board in lexicographic order, each row limited to ``allow``
    if given.

    Parameters
    ----------
    n : int
        ``0 <= n <= MAX_N``.
    allow : numpy.ndarray, shape (n,), dtype int64, optional
        As in :func:`count`; without it the solutions whose first queen is in the right half
        are the mirror images of the left-half ones, in reverse order.

    Returns
    -------
    numpy.ndarray, shape (n_solutions, n), dtype int8
        C-contiguous; ``(1, 0)`` for ``n = 0`` (the empty board).
    """
    if allow is not None or n == 0:
        return _solutions(n, np.full(n, (1 << n) - 1, np.int64) if allow is None else allow)
    left, middle = _halves(n)
    left = _solutions(n, left)
    parts = [left] if middle is None else [left, _solutions(n, middle)]
    parts.append((n - 1 - left)[::-1])
    return np.ascontiguousarray(np.concatenate(parts))
