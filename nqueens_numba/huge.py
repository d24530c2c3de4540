"""One solution of a huge board: an explicit construction, and local search with constraints.

Counting and enumerating stop at n = 63 (int64 bitboards) and, in practice, far below; one
solution is easy for any n: :func:`construct` writes one down in O(n), and
:func:`find_solution` completes pre-placed queens by min-conflicts repair (kernel
``_min_conflicts``).
"""

import time

import numpy as np

from . import _kernels, _validate, config
from ._blocks import Cursor
from ._kernels import _loading
from ._progress import interruption_says
from .board import QUEEN, board_of
from .constraints import check_constraints, check_no_attacks, preplaced_array

__all__ = ["construct", "find_solution", "NoCompletionError"]


class NoCompletionError(ValueError):
    """The pre-placed queens have no completion: an exhaustive search found none."""

#: Swap tries of one min-conflicts run before it restarts from a new random placement (with
#: a seed drawn from ``seed`` and the run's number): ``RESTART_STEPS + RESTART_STEPS_PER_ROW
#: * n``. Runs that succeed take a few thousand tries at n = 8 .. 10^6 (measured: 2 - 5,000);
#: the rest are stuck in a local minimum (small boards with pre-placed queens), which a
#: restart leaves.
RESTART_STEPS = 10_000
RESTART_STEPS_PER_ROW = 10

#: When local search fails, boards of ``n <= 63`` are searched exhaustively (the bitboard
#: search, stopping at the first completion). With at most this many free rows it runs to
#: its end, which returns a completion or proves there is none, in about a second at most.
EXACT_MAX_FREE_ROWS = 16
#: With more free rows the exhaustive search stops after this many seconds: where local
#: search fails it often finds a completion at once (n = 63 with the first 30 rows of
#: ``construct(63)`` pre-placed: local search gave up after 0.04 s, the exhaustive search
#: found one in 0.002 s), but proving that none exists can take hours.
EXACT_SECONDS = 2.0

#: Largest board these functions accept (:func:`construct`'s result takes 4 GB there).
MAX_HUGE_N = 10**9

#: Bytes per row that :func:`find_solution` holds at its peak: its arrays of ``n`` int64
#: (the placements, the free rows and the search's copies) and its counters of ``2 (2n - 1)``
#: int64 (the diagonals), measured at n = 10^7 (82 bytes per row).
FIND_BYTES_PER_ROW = 85

#: Rows written at a time by the constructions: the result is their only large array.
_BLOCK = 1 << 20


def _check_huge_n(n, board=QUEEN):
    """``n`` validated, ``0 <= n <= MAX_HUGE_N``, for a board that has solutions there."""
    n = _validate.in_range(n, "n", 0, MAX_HUGE_N)
    board.require_solutions(n)  # (the torus says its own reason: none for n = 2, 3 either)
    return n


def construct(n, *, torus=False):
    """One solution for any ``n``, written down in O(n) time and memory.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 10**9``, not 2 or 3 (with ``torus``: ``gcd(n, 6) == 1``,
        or ``n <= 1``).
    torus : bool, optional
        A toroidal solution (the diagonals wrap around the board's edges), also a solution
        of the ordinary board: the linear one, ``queens[i] == 2 * i mod n``.

    Returns
    -------
    queens : numpy.ndarray, shape (n,), dtype int8, int16 or int32
        ``queens[row] == column``; a solution (:func:`~nqueens_numba.is_solution`). The
        smallest signed integer type that holds ``n - 1`` (the package's dtype for
        placements).

    Raises
    ------
    TypeError
        If ``n`` is not an integer.
    ValueError
        If ``n`` is 2 or 3 (no solution exists) or outside ``0..10**9``; with ``torus``, if
        ``gcd(n, 6) != 1`` and ``n > 1`` (Polya, 1921: no toroidal solution exists).
    MemoryError
        Before it starts, if the result (``n`` times its item size) does not fit in the
        memory available to the process.

    See Also
    --------
    find_solution : a solution that keeps pre-placed queens.

    Notes
    -----
    The classic explicit solution: the even numbers ``2, 4, ...`` then the odd numbers
    ``1, 3, ...`` (1-based), adjusted when ``n mod 6`` is 2 (swap 1 and 3, move 5 to the
    end of the odd numbers) or 3 (move 2 to the end of the even numbers and 1, 3 to the end
    of the odd numbers), read as the column of each row's queen.

    References
    ----------
    .. [1] E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the solution of
       the m queens problem", Mathematics Magazine 42 (2), 1969, 66-72.
    .. [2] B. Bernhardsson, "Explicit solutions to the N-queens problem for all N", ACM
       SIGART Bulletin 2 (2), 1991, 7.
    .. [3] G. Polya, "Uber die 'doppelt-periodischen' Losungen des n-Damen-Problems", in W.
       Ahrens, Mathematische Unterhaltungen und Spiele, vol. 2, Teubner, 1921, 364-374.

    Examples
    --------
    >>> construct(8)
    array([1, 3, 5, 7, 2, 0, 6, 4], dtype=int8)
    >>> from nqueens_numba import is_solution
    >>> all(is_solution(construct(n)) for n in [1, 4, 5, 100, 1001])
    True
    >>> construct(7, torus=True)
    array([0, 2, 4, 6, 1, 3, 5], dtype=int8)
    """
    board = board_of("queen", torus)
    n = _check_huge_n(n, board)
    dtype = _validate.placement_dtype(n)
    _validate.working_memory(n * np.dtype(dtype).itemsize + 3 * 8 * min(n, _BLOCK),
                             f"construct({n:,}{board.keywords})")
    return _CONSTRUCTIONS[board.name](n, dtype, board)


def _fill(out, first, step=2):
    """``out[i] = first + step * i``, a block of rows at a time (no temporary the size of
    ``out``)."""
    for start in range(0, len(out), _BLOCK):
        stop = min(start + _BLOCK, len(out))
        out[start:stop] = np.arange(first + step * start, first + step * stop, step,
                                    dtype=np.int64)


def _construct_torus(n, dtype, board):
    """The toroidal solution ``queens[r] = 2 r mod n`` (Polya, 1921), for the orders that
    have one (checked by :func:`construct`)."""
    queens = np.empty(n, dtype=dtype)
    for start in range(0, n, _BLOCK):
        rows = np.arange(start, min(start + _BLOCK, n), dtype=np.int64)
        queens[start:start + len(rows)] = 2 * rows % n
    return queens


def _construct_queens(n, dtype, board):
    """The explicit solution of the plain board (see :func:`construct`), written in place:
    the first ``n // 2`` rows take the even numbers, the others the odd ones (1-based)."""
    queens = np.empty(n, dtype=dtype)
    evens, odds = queens[:n // 2], queens[n // 2:]  # (0-based columns: odd, then even)
    if n % 6 == 2:  # 1 and 3 swap places, 5 goes last
        _fill(evens, 1)
        odds[:2] = 2, 0
        _fill(odds[2:-1], 6)
        odds[-1] = 4
    elif n % 6 == 3:  # 2 goes last; 1 and 3 go last
        _fill(evens[:-1], 3)
        evens[-1] = 1
        _fill(odds[:-2], 4)
        odds[-2:] = 0, 2
    else:
        _fill(evens, 1)
        _fill(odds, 0)
    return queens


#: The construction of each board :func:`construct` knows, by its name.
_CONSTRUCTIONS = {None: _construct_queens, "torus": _construct_torus}


def find_solution(n, *, preplaced=None, seed=None, max_steps=None):
    """One solution that keeps pre-placed queens, by min-conflicts local search.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 10**9``, not 2 or 3 (n = 0 gives the empty solution).
    preplaced : mapping of int to int, or array_like of int, shape (n,), optional
        ``{row: column}``, or ``queens[row] == column`` with -1 for free rows.
    seed : int, optional
        Seed of the search, ``0 .. 2**32 - 1``: the same seed gives the same solution.
        Drawn at random if None.
    max_steps : int, optional
        Swap tries of the local search in all, ``0 .. 2**63 - 1`` (default
        ``50 * n + 10**6``).

    Returns
    -------
    queens : numpy.ndarray, shape (n,), dtype int8, int16 or int32
        A solution with ``queens[row] == column`` for every pre-placed queen; the smallest
        signed integer type that holds ``n - 1``.

    Raises
    ------
    TypeError
        If ``n``, ``seed`` or ``max_steps`` is not an integer, or ``preplaced`` does not hold
        integers.
    ValueError
        If ``n`` is out of range, 2 or 3, or pre-placed queens are off the board or attack
        each other (named in the message).
    NoCompletionError
        (a ``ValueError``) If the pre-placed queens have no completion, proved by the
        exhaustive search (see Notes).
    RuntimeError
        If no solution was found: by the local search within ``max_steps``, on a board of
        ``n > 63`` or, with more than 16 free rows, by 2 s of exhaustive search too (see
        Notes); the message says what was tried.
    MemoryError
        Before it starts, if its arrays (about :data:`FIND_BYTES_PER_ROW` = 85 bytes per
        row) do not fit in the memory available to the process.

    See Also
    --------
    construct : one solution without constraints, in O(n).
    solve : every completion (``preplaced=``), for ``n <= 63``.

    Notes
    -----
    Queens are kept in distinct rows and columns (a permutation); a greedy random placement
    avoids most diagonal conflicts, then queens under attack swap columns with random rows
    while that lowers the number of attacking pairs (a compiled min-conflicts search).
    Pre-placed queens never move. A run that has not succeeded after
    ``RESTART_STEPS + RESTART_STEPS_PER_ROW * n`` tries (10,000 + 10 n) is stuck in a local
    minimum, and the search restarts from a new random placement, until ``max_steps`` tries
    in all. If that fails on a board of ``n <= 63``, the exhaustive bitboard search (that of
    :func:`solve` with ``limit=1``) looks for the first completion in lexicographic order:
    with at most ``EXACT_MAX_FREE_ROWS`` (16) free rows it decides (a completion, or none),
    with more it stops after ``EXACT_SECONDS`` (2 s) unless it finds one or ends first.

    References
    ----------
    .. [1] S. Minton, M. D. Johnston, A. B. Philips and P. Laird, "Minimizing conflicts: a
       heuristic repair method for constraint satisfaction and scheduling problems",
       Artificial Intelligence 58 (1992) 161-205.
    .. [2] R. Sosic and J. Gu, "Efficient local search with conflict minimization: a case
       study of the n-queens problem", IEEE Transactions on Knowledge and Data Engineering
       6 (5), 1994, 661-668.
    .. [3] I. P. Gent, C. Jefferson and P. Nightingale, "Complexity of n-Queens Completion",
       Journal of Artificial Intelligence Research 59 (2017) 815-848.

    Examples
    --------
    >>> from nqueens_numba import is_solution
    >>> q = find_solution(1000, preplaced={0: 5, 999: 17}, seed=1)
    >>> bool(is_solution(q)), int(q[0]), int(q[999])
    (True, 5, 17)
    """
    n = _check_huge_n(n)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**31)
    seed = _validate.in_range(seed, "seed", 0, 2**32 - 1)
    steps = (50 * n + 10**6 if max_steps is None
             else _validate.in_range(max_steps, "max_steps", 0, 2**63 - 1))
    _validate.working_memory(FIND_BYTES_PER_ROW * n, f"find_solution({n:,})")
    call = f"find_solution({n}{'' if preplaced is None else ', preplaced=...'})"
    with interruption_says(f"{call} interrupted: nothing is returned"):
        fixed, start, free_rows = _start(n, preplaced)
        dtype = _validate.placement_dtype(n)
        if len(free_rows) == 0 or n == 1:
            return start.astype(dtype)
        _check_completable(n, fixed, free_rows)
        return _search(n, fixed, start, free_rows, seed, steps, preplaced is None).astype(dtype)


def _start(n, preplaced):
    """Where :func:`find_solution` of ``n`` starts: ``(fixed, start, free_rows)``, the
    pre-placed queens (``(n,)`` int64, -1 for a free row), a permutation that keeps them
    (any: the search shuffles the free rows), and the free rows (int64). The arrays are made
    a part at a time (:func:`_parts`): a Ctrl-C stops the making between parts."""
    if preplaced is None:  # (every row free, and the identity to start: one array, read only)
        fixed, rows = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        _set(fixed, -1)
        for part in _parts(n):
            rows[part] = np.arange(part.start, min(part.stop, n))
        return fixed, rows, rows
    fixed = preplaced_array(preplaced, n)
    check_no_attacks(fixed)
    placed = fixed[fixed >= 0]
    used = np.zeros(n, dtype=bool)
    used[placed] = True
    free_rows = _where(n, n - len(placed), lambda part: fixed[part] < 0)
    open_columns = _where(n, n - len(placed), lambda part: ~used[part])
    start = np.empty_like(fixed)
    _set(start, fixed)
    for part in _parts(len(free_rows)):
        start[free_rows[part]] = open_columns[part]
    return fixed, start, free_rows


def _where(n, size, test):
    """``numpy.flatnonzero`` of the ``(n,)`` mask that ``test(part)`` gives a part at a time
    (:func:`_parts`), ``size`` True elements: ``(size,)`` int64."""
    found = np.empty(size, dtype=np.int64)
    done = 0
    for part in _parts(n):
        where = np.flatnonzero(test(part))
        found[done:done + len(where)] = where + part.start
        done += len(where)
    return found


def _search(n, fixed, start, free_rows, seed, steps, free):
    """:func:`find_solution` of validated arguments (``start``: a permutation keeping the
    pre-placed queens ``fixed``; ``free``: none were given): ``(n,)`` placement."""
    queens, runs = _local_search(n, start, free_rows, seed, steps)
    if queens is not None:
        return queens
    tried = (f"{runs} min-conflicts run{'s' if runs > 1 else ''} ({steps:,} swap tries in "
             f"all, max_steps={steps:,}; a run restarts after "
             f"{RESTART_STEPS + RESTART_STEPS_PER_ROW * n:,})" if steps else
             "no min-conflicts run (max_steps=0)")
    if n <= config.MAX_N:
        whole = len(free_rows) <= EXACT_MAX_FREE_ROWS
        found = _first_completion(n, fixed, None if whole else EXACT_SECONDS)
        if found is False:
            raise NoCompletionError(f"the pre-placed queens have no completion on a board of "
                                    f"n={n} (an exhaustive search found none)")
        if found is not None:
            return found
        tried += (f", then {EXACT_SECONDS:g} s of exhaustive search (it runs to its end with "
                  f"at most {EXACT_MAX_FREE_ROWS} free rows)")
    if free or len(free_rows) == n:
        why = "try another seed or a larger max_steps"
    else:
        why = ("the pre-placed queens may have no completion (n-queens completion is "
               "NP-complete); try another seed, a larger max_steps, or fewer pre-placed "
               "queens")
    raise RuntimeError(f"no solution of n={n} found after {tried}: {why}")


def _check_completable(n, fixed, free):
    """``NoCompletionError`` where the pre-placed queens ``fixed`` (``free``: the free rows)
    leave a free row without a square, or a free column that no free row can take: no
    search needed. A queen attacks at most 3 squares of another row and 2 of another column,
    so that needs a third of the rows pre-placed; boards of more than ``_CHECKED_SQUARES``
    free squares are not checked."""
    if 3 * (n - len(free)) < n or len(free) * n > _CHECKED_SQUARES:
        return
    rows = np.flatnonzero(fixed >= 0)
    allowed = np.ones((len(free), n), dtype=bool)
    allowed[:, fixed[rows]] = False
    for row, col in zip(rows.tolist(), fixed[rows].tolist()):
        for cols in (col + (free - row), col - (free - row)):
            on = (cols >= 0) & (cols < n)
            allowed[np.flatnonzero(on), cols[on]] = False
    empty = free[~allowed.any(axis=1)]
    if len(empty):
        raise NoCompletionError(f"the pre-placed queens have no completion on a board of "
                                f"n={n}: they attack every square of row {int(empty[0])}")
    open_cols = np.setdiff1d(np.arange(n), fixed[rows])
    lost = open_cols[~allowed[:, open_cols].any(axis=0)]
    if len(lost):
        raise NoCompletionError(f"the pre-placed queens have no completion on a board of "
                                f"n={n}: they attack every free row's square of column "
                                f"{int(lost[0])}")


#: The most free squares (free rows times n) that :func:`_check_completable` looks at.
_CHECKED_SQUARES = 1 << 24


def _first_completion(n, fixed, seconds):
    """The first completion of the pre-placed queens ``fixed`` (``(n,)`` int64, -1 for free
    rows; ``n <= 63``) in lexicographic order, by the exhaustive bitboard search: ``(n,)``
    int8; ``False`` when there is none (the search ended); ``None`` when ``seconds``
    (``None``: no limit) ran out first."""
    out = np.empty((_kernels.TAIL_SOLUTIONS, n), dtype=np.int8)

    def start():  # (compiles or loads its kernels: apart, so a Ctrl-C stops the wait at once)
        cursor = Cursor(n, np.zeros(3, dtype=np.int64), 0, check_constraints(n, fixed).allow)
        return cursor, cursor.fill(out)

    # then calls of ``config.STEP_BUDGET`` squares each, until found, ended or out of time
    cursor, found = _loading.apart(start)
    end = None if seconds is None else time.monotonic() + seconds
    while not found and not cursor.done and (end is None or time.monotonic() < end):
        found = cursor.fill(out)
    return out[0].copy() if found else False if cursor.done else None


#: Seconds a call of the min-conflicts kernel should take (the search is the same in calls of
#: any size): a Ctrl-C stops the search within them.
_CALL_SECONDS = 0.1


def _next_budget(budget, seconds):
    """The budget of the next call of the min-conflicts kernel, after one of ``budget`` units
    took ``seconds``: sized for :data:`_CALL_SECONDS`, from 1,024 units up to
    ``config.LOCAL_SEARCH_BUDGET`` (a machine slower than that assumes, or busy)."""
    fitting = int(budget * _CALL_SECONDS / max(seconds, 1e-9))
    return min(max(fitting, 1024), config.LOCAL_SEARCH_BUDGET)


#: Elements of a large array written at once (:func:`_set`): a few hundredths of a second.
_AT_ONCE = 1 << 22


def _parts(length):
    """Slices of :data:`_AT_ONCE` elements that cover ``0 .. length - 1``."""
    return [slice(begin, begin + _AT_ONCE) for begin in range(0, length, _AT_ONCE)]


def _set(array, source):
    """``array[:] = source`` (a scalar, or a 1-d array of the same length), a part of
    :data:`_AT_ONCE` elements at a time: a Ctrl-C stops it between parts (one write of arrays
    of 10^8 ints, their pages touched for the first time, took seconds out of its reach)."""
    for part in _parts(len(array)):
        array[part] = source if np.ndim(source) == 0 else source[part]


def _local_search(n, start, free_rows, seed, steps):
    """Min-conflicts runs from ``start`` with restarts, within ``steps`` swap tries in all:
    ``(queens, runs)``, ``queens`` None when every run failed."""
    per_run = RESTART_STEPS + RESTART_STEPS_PER_ROW * n
    # the work arrays of the kernel (see ``_min_conflicts``), reset for each run
    work = (np.empty(2 * n - 1, dtype=np.int64), np.empty(2 * n - 1, dtype=np.int64),
            np.empty(n, dtype=bool), np.empty_like(free_rows),
            np.empty(len(free_rows), dtype=np.int64), np.empty(8, dtype=np.int64))
    queens = np.empty_like(start)
    kernel = _kernels.entry("min_conflicts")
    per_call = config.LOCAL_SEARCH_BUDGET
    # compiled (or loaded) apart, on a call that does nothing: then every call of a run is
    # made in this thread, whose random state the run's seed sets
    _loading.apart(lambda: kernel(queens, free_rows, seed, 0, *work, 0))
    runs = 0
    while True:
        budget = min(steps, per_run)
        # the first run uses ``seed`` itself; restarts draw theirs from it
        run_seed = seed if runs == 0 else int(
            np.random.SeedSequence([seed, runs]).generate_state(1)[0])
        _set(queens, start)
        for array in work[:3] + work[5:]:
            _set(array, 0)
        _set(work[3], free_rows)
        runs += 1
        found = -2
        while found == -2:  # calls of about _CALL_SECONDS, so that Ctrl-C stops the search
            began = time.perf_counter()
            found = kernel(queens, free_rows, run_seed, budget, *work, per_call)
            per_call = _next_budget(per_call, time.perf_counter() - began)
        if found >= 0:
            return queens, runs
        steps -= budget
        if steps <= 0:
            return None, runs
