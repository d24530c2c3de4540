"""Boards as text: LeetCode 51 rows of ``'Q'`` and ``'.'``, plain-text files, printed boards."""
import numpy as np

from .. import _validate
from ._common import as_placements

__all__ = ["format_board", "to_boards", "format_text"]

#: Largest board printed as text (``n`` lines of ``n`` characters); larger ones print their
#: placement array.
TEXT_MAX_N = 64


#: Bytes of memory that the text of boards takes while it is made, at most: per square (the
#: grid of characters, and the text or strings made from it) and per row (a Python string's
#: own size and its place in a list), measured with tracemalloc on the solutions of n = 8-14
#: and on boards of n = 20,000.
TEXT_BYTES_PER_SQUARE = 3
TEXT_BYTES_PER_ROW = 64


def board_strings_bytes(n):
    """Bytes that one board of ``n`` rows takes as a list of strings (``boards``), once made,
    about: ``n`` strings of ``n`` ASCII characters (49 + n bytes each in CPython), a list of
    them (56 + 8 n, and room for a few more) and its place in the list of boards: 1,088
    bytes at n = 14, 78 times the board's row of ``solve`` (measured with ``sys.getsizeof``
    on CPython 3.11: within 5% of the boards of n = 4 .. 3,000, 1,074 bytes at n = 14)."""
    return n * n + 58 * n + 80


def check_text_memory(k, n, max_bytes=None, call=None):
    """``MemoryError`` before the text of ``k`` boards of ``n`` rows is made, where it would
    not fit in the memory available while it is made (a board of n = 10^5 is 10^10
    characters), or its strings (:func:`board_strings_bytes`) would take more than
    ``max_bytes`` (``None``: no limit; ``call``: the arguments of the boards, such as
    ``"13, torus=True"``, for the hint)."""
    need = k * n * (TEXT_BYTES_PER_SQUARE * n + TEXT_BYTES_PER_ROW)
    what = f"the text of {k:,} board{'s' * (k != 1)} of n={n:,}"
    per_board = board_strings_bytes(n)
    if max_bytes is not None and k * per_board > max_bytes:
        fits = max_bytes // per_board
        raise MemoryError(f"{what} would take about {k * per_board:,} bytes as strings, more "
                          f"than "
                          f"max_bytes={max_bytes:,}; take the first k with limit=k ("
                          + (f"limit={fits:,} fits" if fits else "not one board fits")
                          + f"), or stream the solutions with iter_solutions({call or n})")
    _validate.working_memory(need, what)


def board_rows(arr, checked=False):
    """Character rows of a ``(k, n)`` placement array (-1: a row without a queen):
    ``(k, n)`` array of ``bytes``; :func:`check_text_memory` first, unless the caller has
    ``checked``."""
    k, n = arr.shape
    if not checked:
        check_text_memory(k, n)
    grid = np.full((k, n, n), ord("."), dtype=np.uint8)
    if k and n:
        boards, rows = np.nonzero(arr >= 0)
        grid[boards, rows, arr[boards, rows]] = ord("Q")
    return grid.view(f"S{max(n, 1)}").reshape(k, n) if n else np.empty((k, 0), dtype="S1")


def _as_strings(arr):
    """The boards of a ``(k, n)`` placement array as ``k`` lists of ``n`` strings."""
    return [[row.decode() for row in board] for board in board_rows(arr)]


def format_board(queens):
    """One solution, or a partial placement, as rows of ``'Q'`` and ``'.'`` (the LeetCode 51
    format).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``, or -1 for a row without a queen.

    Returns
    -------
    list of str
        ``n`` strings of length ``n``; row ``r`` has its ``'Q'`` at index ``queens[r]``
        (none for -1).

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers.
    ValueError
        If ``queens`` is not one-dimensional or a column lies outside ``-1..n-1``.
    MemoryError
        Before it starts, if the ``n * n`` characters would not fit in the memory available
        (a board of n = 10^5 takes 10^10).

    See Also
    --------
    to_boards : the same for a set of solutions.

    Examples
    --------
    >>> format_board([1, 3, 0, 2])
    ['.Q..', '...Q', 'Q...', '..Q.']
    >>> format_board([1, 3, -1, -1])
    ['.Q..', '...Q', '....', '....']
    """
    return _as_strings(as_placements(queens, 1, partial=True)[None, :])[0]


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
    TypeError, ValueError, MemoryError
        As :func:`format_board`, for a two-dimensional ``solutions``.

    See Also
    --------
    format_board, format_text

    Examples
    --------
    >>> to_boards([[1, 3, 0, 2], [2, 0, 3, 1]])
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    return _as_strings(as_placements(solutions, 2))


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
    TypeError, ValueError, MemoryError
        As :func:`to_boards`, whose boards it joins line by line.

    See Also
    --------
    to_boards : the same boards as lists of strings.

    Examples
    --------
    >>> print(format_text([[1, 3, 0, 2]]), end="")
    .Q..
    ...Q
    Q...
    ..Q.
    <BLANKLINE>
    """
    arr = as_placements(solutions, 2)
    k, n = arr.shape
    check_text_memory(k, n)
    lines = np.full((k, n * (n + 1) + 1), ord("\n"), dtype=np.uint8)  # + the blank line
    squares = lines[:, :n * (n + 1)].reshape(k, n, n + 1)[:, :, :n]  # (a view)
    squares[...] = board_rows(arr, checked=True).view(np.uint8).reshape(k, n, n) if n else 0
    return lines.tobytes().decode("ascii")


def text_board(queens):
    """A placement (``(n,)`` int64, -1 for an empty row) as text: ``n`` rows of ``.``/``Q``
    up to ``TEXT_MAX_N``, else a summary."""
    n = len(queens)
    if n > TEXT_MAX_N:
        return f"(n = {n}: too large to print as a board) queens = {np.array2string(queens, threshold=20)}"
    rows = board_rows(queens[None, :])[0]
    return "\n".join(row.decode() for row in rows)
