"""Public entry points: validate the arguments, run the kernels, build NumPy results."""
import operator
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numba
import numpy as np

from . import _kernels, config
from .render import to_boards

__all__ = ["count_solutions", "first_row_counts", "solve", "boards", "is_solution"]


# --------------------------------------------------------------------------- validation


def _check_int(value, name):
    """Return ``value`` as a Python int; ``TypeError`` unless it is an integer (not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    return operator.index(value)


def _check_n(n):
    """Validate a board order for the bitboard search: an integer in ``0..MAX_N``."""
    n = _check_int(n, "n")
    if not 0 <= n <= config.MAX_N:
        raise ValueError(
            f"n must be in the range 0..{config.MAX_N} (the int64 bitboard limit), got {n}"
        )
    return n


def _check_limit(limit):
    """Validate ``limit``: ``None`` or a non-negative integer."""
    if limit is None:
        return None
    limit = _check_int(limit, "limit")
    if limit < 0:
        raise ValueError(f"limit must be a non-negative integer (0 or more), got {limit}")
    return limit


def _check_threads(n_threads):
    """Validate ``n_threads``: ``None`` (all of numba's threads) or ``1..NUMBA_NUM_THREADS``."""
    most = numba.config.NUMBA_NUM_THREADS
    if n_threads is None:
        return most
    n_threads = _check_int(n_threads, "n_threads")
    if not 1 <= n_threads <= most:
        raise ValueError(
            f"n_threads must be in the range 1..{most} (numba.config.NUMBA_NUM_THREADS), "
            f"got {n_threads}"
        )
    return n_threads


# --------------------------------------------------------------------------- the split


@contextmanager
def _numba_threads(n_threads):
    """Run a parallel kernel on ``n_threads`` threads with dynamic scheduling.

    The caller's thread count and chunk size are restored afterwards, also on error.
    """
    previous_threads = numba.get_num_threads()
    numba.set_num_threads(n_threads)
    previous_chunk = numba.set_parallel_chunksize(1)
    try:
        yield
    finally:
        numba.set_parallel_chunksize(previous_chunk)
        numba.set_num_threads(previous_threads)


def _split(n, n_threads):
    """Subproblems of the mirror-halved search of an ``n``-board, ``1 <= n <= MAX_N``.

    The queen of row 0 is placed in the left half of its row (and the middle column for odd
    ``n``); the prefix grows one row at a time until there are at least
    ``config.TASKS_PER_THREAD * n_threads`` subproblems, ``config.MAX_SPLIT_DEPTH`` rows are
    pre-placed, or only the last row is left.

    Returns ``(states, depth)``: see :mod:`nqueens_numba._kernels` for the layout.
    """
    target = config.TASKS_PER_THREAD * n_threads
    deepest = max(1, min(config.MAX_SPLIT_DEPTH, n - 1))
    depth = 1
    while True:
        states = _kernels._enumerate_prefixes(n, depth, (n + 1) // 2)
        if len(states) >= target or depth >= deepest:
            return states, depth
        depth += 1


def _mirror_weights(n, first_columns):
    """2 for a first-row column in the left half (its mirror image is not searched), else 1."""
    return np.where(2 * first_columns < n - 1, 2, 1)


def _count_split(n, n_threads):
    """Per-subproblem counts of the mirror-halved search: ``(states, depth, counts)``."""
    states, depth = _split(n, n_threads)
    with _numba_threads(n_threads):
        counts = _kernels._count_states(n, states, depth)
    return states, depth, counts


# --------------------------------------------------------------------------- counting


def count_solutions(n, *, n_threads=None):
    """Total number of solutions of the n-queens problem (OEIS A000170).

    Runs an explicit-stack depth-first search over ``int64`` bitboards (kernel
    ``_count_states``) on the subproblems of a prefix split, in parallel over numba threads.
    Only the left half of the first row is searched and its count doubled (mirror symmetry);
    for odd ``n`` the middle column is searched once.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``. Any Python or NumPy integer.
    n_threads : int, optional
        Numba threads for this call, ``1 .. numba.config.NUMBA_NUM_THREADS``; all of them by
        default. The caller's setting is restored afterwards.

    Returns
    -------
    int
        The total count. ``count_solutions(0) == 1`` (the empty board), as in OEIS.

    Raises
    ------
    TypeError
        If ``n`` or ``n_threads`` is not an integer (``bool`` and ``float`` included).
    ValueError
        If ``n`` is outside ``0..63`` or ``n_threads`` outside ``1..NUMBA_NUM_THREADS``.

    See Also
    --------
    first_row_counts : the same count split by the column of the first-row queen.
    solve : the solutions themselves.

    References
    ----------
    .. [1] OEIS A000170, "Number of ways of placing n nonattacking queens on an n X n board",
       https://oeis.org/A000170
    .. [2] J. R. Bitner and E. M. Reingold, "Backtrack programming techniques",
       Communications of the ACM 18 (11), 1975.

    Examples
    --------
    >>> count_solutions(8)
    92
    >>> [count_solutions(n) for n in range(7)]
    [1, 1, 0, 0, 2, 10, 4]
    """
    n = _check_n(n)
    n_threads = _check_threads(n_threads)
    if n == 0:
        return 1
    states, _, counts = _count_split(n, n_threads)
    weights = _mirror_weights(n, states[:, 3])
    return sum(int(w) * int(c) for w, c in zip(weights, counts))


def first_row_counts(n, *, n_threads=None):
    """Number of solutions with the queen of row 0 in each column.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    n_threads : int, optional
        As in :func:`count_solutions`.

    Returns
    -------
    counts : numpy.ndarray, shape (n,), dtype int64
        ``counts[c]`` solutions have ``queens[0] == c``; ``counts.sum()`` is the total count
        for ``n >= 1``, and ``counts`` reads the same backwards (mirror symmetry).

    Raises
    ------
    TypeError, ValueError
        As :func:`count_solutions`.

    See Also
    --------
    count_solutions

    Examples
    --------
    >>> first_row_counts(8)
    array([ 4,  8, 16, 18, 18, 16,  8,  4])
    """
    n = _check_n(n)
    n_threads = _check_threads(n_threads)
    out = np.zeros(n, dtype=np.int64)
    if n == 0:
        return out
    states, _, counts = _count_split(n, n_threads)
    np.add.at(out, states[:, 3], counts)
    out[n - 1 - np.arange(n // 2)] = out[: n // 2]
    return out


# --------------------------------------------------------------------------- enumeration


def _state_blocks(n, states, depth, stop):
    """Enumerate one subproblem's solutions: a list of ``(k, n)`` int8 blocks, in order."""

    def enumerate_state(i):
        if depth == n:  # the prefix is a complete solution
            return [states[i : i + 1, 3:].astype(np.int8)]
        stack = np.empty((n, 4), dtype=np.int64)
        queens = np.empty(n, dtype=np.int8)
        level = np.empty(1, dtype=np.int64)
        _kernels._start_cursor(n, states[i], depth, stack, queens, level)
        blocks = []
        rows = config.FIRST_BLOCK_ROWS
        block = np.empty((rows, n), dtype=np.int8)
        filled = 0
        while level[0] >= depth and not stop.is_set():
            if filled == rows:
                blocks.append(block)
                rows = min(2 * rows, config.MAX_BLOCK_ROWS)
                block = np.empty((rows, n), dtype=np.int8)
                filled = 0
            filled += _kernels._fill_solutions(n, depth, stack, queens, level, block[filled:],
                                               config.STEP_BUDGET)
        if filled:
            blocks.append(block[:filled])
        return blocks

    return enumerate_state


def _ordered_blocks(n, states, depth, n_threads):
    """Yield ``(i, blocks)`` for every subproblem ``i`` in order, enumerated in parallel.

    Subproblems run on ``n_threads`` Python threads (the kernels release the GIL); at most
    ``config.WINDOW_PER_THREAD * n_threads`` are in flight ahead of the one being consumed.
    Closing the generator cancels what has not started and stops the running ones at their
    next block.
    """
    stop = threading.Event()
    work = _state_blocks(n, states, depth, stop)
    window = config.WINDOW_PER_THREAD * n_threads
    n_states = len(states)
    with ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="nqueens") as pool:
        pending = deque()
        submitted = 0
        try:
            while submitted < min(window, n_states):
                pending.append(pool.submit(work, submitted))
                submitted += 1
            for i in range(n_states):
                blocks = pending.popleft().result()
                if submitted < n_states:
                    pending.append(pool.submit(work, submitted))
                    submitted += 1
                yield i, blocks
        finally:
            stop.set()
            for future in pending:
                future.cancel()


def _known_total(n):
    """The total count from OEIS A000170 when tabulated, else ``None``."""
    return config.A000170[n] if n < len(config.A000170) else None


def _solve_all(n, n_threads):
    """Every solution, in lexicographic order, by the mirror-halved parallel enumeration."""
    total = _known_total(n)
    if total is None:
        total = count_solutions(n, n_threads=n_threads)
    out = np.empty((total, n), dtype=np.int8)
    states, depth = _split(n, n_threads)
    mirrored = 2 * states[:, 3] < n - 1
    pos = 0
    left_end = None  # rows before it have their first queen in the left half
    for i, blocks in _ordered_blocks(n, states, depth, n_threads):
        if left_end is None and not mirrored[i]:
            left_end = pos
        for block in blocks:
            if pos + len(block) > total:
                raise RuntimeError(f"the enumeration of n={n} found more than {total} solutions")
            out[pos : pos + len(block)] = block
            pos += len(block)
    if left_end is None:
        left_end = pos
    if pos + left_end != total:
        raise RuntimeError(f"the enumeration of n={n} found {pos + left_end} solutions, "
                           f"expected {total}")
    # Mirror images (column c -> n - 1 - c) of the left-half solutions, in reverse order, are
    # the solutions with the first queen in the right half, in lexicographic order.
    np.subtract(np.int8(n - 1), out[:left_end][::-1], out=out[pos:], dtype=np.int8)
    return out


def _solve_first(n, limit):
    """The first ``limit`` solutions in lexicographic order, by a serial search."""
    total = _known_total(n)
    rows = limit if total is None else min(limit, total)
    out = np.empty((rows, n), dtype=np.int8)
    if rows == 0:
        return out
    if n == 0:
        return out  # the one (empty) solution, already in place
    stack = np.empty((n, 4), dtype=np.int64)
    queens = np.empty(n, dtype=np.int8)
    level = np.empty(1, dtype=np.int64)
    _kernels._start_cursor(n, np.zeros(3, dtype=np.int64), 0, stack, queens, level)
    pos = 0
    while pos < rows and level[0] >= 0:
        block = out[pos : pos + config.MAX_BLOCK_ROWS]
        pos += _kernels._fill_solutions(n, 0, stack, queens, level, block, config.STEP_BUDGET)
    return out[:pos] if pos < rows else out


def solve(n, *, limit=None, n_threads=None):
    """All solutions of the n-queens problem, in lexicographic order.

    Subproblems of a prefix split (left half of the first row only) are enumerated in
    parallel by the explicit-stack kernel ``_fill_solutions`` and written in order; the
    solutions with the first queen in the right half are the mirror images of the left-half
    ones, in reverse order.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``. Any Python or NumPy integer.
    limit : int, optional
        Return only the first ``limit`` solutions of the same order, found by a serial search
        that stops there.
    n_threads : int, optional
        Threads for the enumeration, ``1 .. numba.config.NUMBA_NUM_THREADS``; all by default.

    Returns
    -------
    solutions : numpy.ndarray, shape (n_solutions, n), dtype int8
        C-contiguous; ``solutions[k, row] == column`` of the queen in ``row``. Rows are in
        lexicographic order. ``solve(0)`` has shape ``(1, 0)`` (the empty board); no solution
        gives shape ``(0, n)``.

    Raises
    ------
    TypeError
        If ``n``, ``limit`` or ``n_threads`` is not an integer (``bool`` and ``float``
        included).
    ValueError
        If ``n`` is outside ``0..63``, ``limit`` is negative or ``n_threads`` is outside
        ``1..NUMBA_NUM_THREADS``.
    MemoryError
        If the result does not fit in memory.

    See Also
    --------
    count_solutions : the number of solutions without storing them.
    boards : the solutions as LeetCode boards.

    References
    ----------
    .. [1] OEIS A000170, https://oeis.org/A000170

    Examples
    --------
    >>> solve(4)
    array([[1, 3, 0, 2],
           [2, 0, 3, 1]], dtype=int8)
    >>> solve(8).shape
    (92, 8)
    >>> solve(8, limit=2)
    array([[0, 4, 7, 5, 2, 6, 1, 3],
           [0, 5, 7, 2, 6, 3, 1, 4]], dtype=int8)
    """
    n = _check_n(n)
    limit = _check_limit(limit)
    n_threads = _check_threads(n_threads)
    if limit is not None:
        return _solve_first(n, limit)
    if n == 0:
        return np.empty((1, 0), dtype=np.int8)
    return _solve_all(n, n_threads)


def boards(n, *, limit=None, n_threads=None):
    """All solutions as boards of ``'Q'`` and ``'.'`` rows (LeetCode 51, "N-Queens").

    Parameters
    ----------
    n, limit, n_threads
        As in :func:`solve`.

    Returns
    -------
    list of list of str
        One board per solution, in the order of :func:`solve`; each board is ``n`` strings of
        length ``n``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve`.

    See Also
    --------
    solve, to_boards, format_board

    Examples
    --------
    >>> boards(4)
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    return to_boards(solve(n, limit=limit, n_threads=n_threads))


# --------------------------------------------------------------------------- checking


def is_solution(queens):
    """Whether a placement is a solution: a permutation with no two queens on a diagonal.

    Vectorised NumPy in O(n) time and memory; works for any ``n`` (not limited to 63).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``.

    Returns
    -------
    bool
        ``True`` if every column, diagonal and anti-diagonal holds at most one queen and
        every column lies in ``0..n-1``.

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers (``bool`` and ``float`` arrays included).
    ValueError
        If ``queens`` is not one-dimensional.

    Examples
    --------
    >>> is_solution([1, 3, 0, 2])
    True
    >>> is_solution([0, 1, 2, 3])
    False
    """
    q = np.asarray(queens)
    if q.size == 0 and q.dtype.kind == "f":
        q = q.astype(np.int64)  # ``[]`` comes in as float64
    if q.dtype.kind not in "iu":
        raise TypeError(f"queens must hold integers, got dtype {q.dtype}")
    if q.ndim != 1:
        raise ValueError(f"queens must have shape (n,), got shape {q.shape}")
    n = q.shape[0]
    if n == 0:
        return True
    if q.min() < 0 or q.max() >= n:
        return False
    index_dtype = np.int32 if n < 2**30 else np.int64
    cols = q.astype(index_dtype, copy=False)
    rows = np.arange(n, dtype=index_dtype)
    for line in (cols, cols + rows, cols - rows + (n - 1)):
        seen = np.zeros(2 * n - 1, dtype=bool)
        seen[line] = True
        if np.count_nonzero(seen) != n:
            return False
    return True
