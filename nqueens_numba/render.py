"""Text rendering of solutions: LeetCode rows and plain-text boards.

Pure Python and NumPy; imports nothing else from the package and computes no solutions.
"""
import numpy as np

__all__ = ["format_board", "to_boards", "format_text"]


def _as_placements(solutions, ndim):
    """Return ``solutions`` as an ``int64`` array of ``ndim`` dimensions with valid columns."""
    arr = np.asarray(solutions)
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)  # ``[]`` and ``[[]]`` come in as float64
        if ndim == 2 and arr.ndim == 1:
            arr = arr.reshape(0, 0)  # ``[]``: no solutions
    if arr.dtype.kind in "fO" and _int_values(solutions):
        raise ValueError("columns too large for any board")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"queens must hold integers, got dtype {arr.dtype}")
    if arr.ndim != ndim:
        shape = "(n,)" if ndim == 1 else "(n_solutions, n)"
        raise ValueError(f"expected shape {shape}, got an array of shape {arr.shape}")
    n = arr.shape[-1]
    if arr.size and (arr.min() < 0 or arr.max() >= n):
        raise ValueError(f"columns must lie in 0..{n - 1} for a board of order {n}")
    return arr.astype(np.int64, copy=False)


def _int_values(values):
    """Whether ``values`` is a (nested) sequence of integers that NumPy did not store as such."""
    try:
        items = list(values)
    except TypeError:
        return isinstance(values, (int, np.integer)) and not isinstance(values, (bool, np.bool_))
    return bool(items) and all(_int_values(v) for v in items)


def _board_rows(arr):
    """Character rows of a ``(k, n)`` placement array: ``(k, n)`` array of ``str``."""
    k, n = arr.shape
    grid = np.full((k, n, n), ord("."), dtype=np.uint8)
    if k and n:
        grid[np.arange(k)[:, None], np.arange(n)[None, :], arr] = ord("Q")
    return grid.view(f"S{max(n, 1)}").reshape(k, n) if n else np.empty((k, 0), dtype="S1")


def format_board(queens):
    """One solution as rows of ``'Q'`` and ``'.'`` (the LeetCode 51 format).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``.

    Returns
    -------
    list of str
        ``n`` strings of length ``n``; row ``r`` has its ``'Q'`` at index ``queens[r]``.

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers.
    ValueError
        If ``queens`` is not one-dimensional or a column lies outside ``0..n-1``.

    See Also
    --------
    to_boards : the same for a set of solutions.

    Examples
    --------
    >>> format_board([1, 3, 0, 2])
    ['.Q..', '...Q', 'Q...', '..Q.']
    """
    arr = _as_placements(queens, 1)
    return [row.decode() for row in _board_rows(arr[None, :])[0]]


def to_boards(solutions):
    """A set of solutions as LeetCode 51 boards.

    Parameters
    ----------
    solutions : array_like of int, shape (n_solutions, n)
        One solution per row, ``solutions[k, row] == column``.

    Returns
    -------
    list of list of str
        ``n_solutions`` boards, each as returned by :func:`format_board`.

    Raises
    ------
    TypeError
        If ``solutions`` does not hold integers.
    ValueError
        If ``solutions`` is not two-dimensional or a column lies outside ``0..n-1``.

    See Also
    --------
    format_board, format_text

    Examples
    --------
    >>> to_boards([[1, 3, 0, 2], [2, 0, 3, 1]])
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    arr = _as_placements(solutions, 2)
    return [[row.decode() for row in board] for board in _board_rows(arr)]


def format_text(solutions):
    """A set of solutions as plain text: ``n`` lines per board, a blank line after each.

    Parameters
    ----------
    solutions : array_like of int, shape (n_solutions, n)

    Returns
    -------
    str
        Rows of ``'.'`` and ``'Q'`` without trailing spaces; empty when there are no solutions.

    Raises
    ------
    TypeError, ValueError
        As :func:`to_boards`.

    Examples
    --------
    >>> print(format_text([[1, 3, 0, 2]]), end="")
    .Q..
    ...Q
    Q...
    ..Q.
    <BLANKLINE>
    """
    arr = _as_placements(solutions, 2)
    rows = _board_rows(arr)
    return "".join(b"".join(row + b"\n" for row in board).decode() + "\n" for board in rows)
