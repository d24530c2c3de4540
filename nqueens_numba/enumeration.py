"""Enumeration: every solution (or the first ones, or the fundamental ones) in one array.

The subproblems of a split are enumerated in parallel and written in lexicographic order
(:func:`nqueens_numba._blocks.ordered_blocks`); without constraints only the left half of the
first row is searched and the rest are mirror images.
"""
import os
import sys
import warnings

import numpy as np

from . import (_blocks, _breadth, _docs, _enumerating, _kernels, _pool, _progress,
               _threads, _validate, config, symmetry)
from .board import QUEEN, board_of
from .constraints import check_constraints
from .render import to_boards
from .render.text import check_text_memory

__all__ = ["solve", "boards", "fundamental_solutions"]


def _solve_all(n, n_threads, max_bytes, progress=False):
    """Every solution, in lexicographic order, by the mirror-halved parallel enumeration."""
    total = QUEEN.known_total(n)
    if total is None:
        # Past the tabulated totals there are more than A000170(27) > 2e17 solutions.
        what = (f"more than {config.A000170[-1]:.3g} solutions "
                f"(over {config.A000170[-1] * n / 2**60:.0f} EiB)")
        raise _validate.ResultTooLarge(
            f"solve({n}) would hold {what}; use count_solutions({n}) to count them, "
            f"iter_solutions({n}) to stream them or solve({n}, limit=k) for the first k", what)
    _validate.result_size(n, total, max_bytes)
    _warn_if_large(n, total, progress, QUEEN)
    out = np.empty((total, n), dtype=np.int8)
    split = _enumerating.enumeration_split(n, n_threads)
    mirrored = split.weights == 2
    with _blocks.solutions_bar(progress, "solve", n, total) as bar:
        blocks = _blocks.ordered_blocks(n, split.states, split.depth, n_threads,
                                        config.SOLVE_WINDOW_PER_THREAD)
        pos, starts = _write_blocks(out, blocks, bar, f"the enumeration of n={n}")
        # Rows before ``left_end`` have their first queen in the left half.
        left_end = next((start for i, start in starts.items() if not mirrored[i]), pos)
        if pos + left_end != total:
            raise RuntimeError(f"the enumeration of n={n} found {pos + left_end} solutions, "
                               f"expected {total}")
        # Mirror images (column c -> n - 1 - c) of the left-half solutions, in reverse order,
        # are the solutions with the first queen in the right half, in lexicographic order.
        # Done by slices on the threads: the first ``left_end - cut`` rows go to the end, and
        # so on.
        cuts = np.linspace(0, left_end, n_threads + 1).astype(np.int64)
        slices = [(out[a:b], out[total - b:total - a]) for a, b in zip(cuts[:-1], cuts[1:])]
        _pool.run_threads(n_threads, _kernels.entry("mirror_rows"), slices)
        bar.update(left_end)
    return out


def _warn_if_large(n, rows, progress, board):
    """Warn (``UserWarning``, once per call) before filling ``rows`` solutions of ``n``
    bytes beyond ``config.LARGE_RESULT_BYTES`` without a progress bar: what would take
    minutes and gigabytes says so first."""
    size = rows * n
    if progress or size <= config.LARGE_RESULT_BYTES:
        return
    warnings.warn(
        f"solve({n}{board.keywords}) fills {rows:,} solutions ({size / 2**30:.2g} GiB), which "
        f"takes a while: progress=True shows how far it has come; iter_solutions and "
        f"save_solutions stream them, count_solutions counts them", UserWarning,
        stacklevel=_outside_level())


def _outside_level():
    """The ``stacklevel`` at which a warning of its caller names the first frame outside the
    package (the user's call, through however many of the package's functions)."""
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _write_blocks(out, blocks, bar, what):
    """Write the ``(index, block)`` pairs of ``blocks`` one after another into ``out``.

    Returns the rows written and the row each subproblem starts at (its first block), by
    index, in the order of ``blocks``. More rows than ``out`` holds is a ``RuntimeError``
    naming ``what``.
    """
    pos = 0
    starts = {}
    for i, block in blocks:
        if pos + len(block) > len(out):
            raise RuntimeError(f"{what} found more than {len(out)} solutions")
        starts.setdefault(i, pos)
        out[pos : pos + len(block)] = block
        pos += len(block)
        bar.update(len(block))
    return pos, starts


def _solve_counted(n, n_threads, cons, max_bytes, progress=False, board=QUEEN):
    """The solutions satisfying ``cons`` (or of a variant's board), in lexicographic order:
    counted subproblem by subproblem first (to size the result), then enumerated in order
    (:func:`nqueens_numba._enumerating.solve_split`)."""
    split, states, depth = _enumerating.solve_split(n, n_threads, cons, board)
    with _progress.interruption_unsaid():  # (the caller says what it returns)
        count = split.total(_threads.run_split(split, n_threads))
    _validate.result_size(n, count, max_bytes, _enumerating.keywords(board, cons))
    _warn_if_large(n, count, progress, board)
    out = np.empty((count, n), dtype=np.int8)
    state = states[0] if len(states) else None
    allow = None if cons is None else cons.allow
    with _blocks.solutions_bar(progress, "solve", n, count, state, depth, allow,
                               board=board) as bar:
        blocks = _blocks.ordered_blocks(n, states, depth, n_threads,
                                        config.SOLVE_WINDOW_PER_THREAD, allow=allow, board=board)
        what = f"the enumeration of n={n}{_enumerating.keywords(board, cons)}"
        pos, _ = _write_blocks(out, blocks, bar, what)
    if pos != count:
        raise RuntimeError(f"{what} found {pos} solutions, counted {count}")
    return out


def _solve_first(n, limit, cons=None, progress=False, board=QUEEN):
    """The first ``limit`` solutions in lexicographic order, by a serial search.

    Fills blocks of at most ``MAX_BLOCK_ROWS`` rows, so that memory grows with the solutions
    found rather than with ``limit``, and the search can be interrupted between blocks.
    ``cons``: the constraints, if any; ``board``: the board.
    """
    rows = min(limit, _enumerating.most_solutions(n))  # (a bound for every board of the family)
    if rows == 0:
        return np.empty((rows, n), dtype=np.int8)
    allow = None if cons is None else cons.allow
    cursor = _blocks.Cursor(n, np.zeros(3, dtype=np.int64), 0, allow, board)
    blocks = []
    found = 0
    with _blocks.solutions_bar(progress, "solve", n, rows, allow=allow, board=board) as bar:
        while found < rows and not cursor.done:
            want = min(rows - found, config.MAX_BLOCK_ROWS)
            block = np.empty((max(want, _kernels.TAIL_SOLUTIONS), n), dtype=np.int8)
            filled = 0
            while filled < want and not cursor.done:
                filled += cursor.fill(block[filled:])
            filled = min(filled, want)
            blocks.append(block[:filled])
            found += filled
            bar.update(filled)
        if found < rows:  # fewer solutions than asked for: the bar ends at what was found
            bar.total = found
            bar.refresh()
    if len(blocks) == 1:
        return blocks[0]  # leading rows of a C-contiguous block: C-contiguous
    return np.concatenate(blocks) if blocks else np.empty((0, n), dtype=np.int8)


def _solve_small(n, limit, cons, max_bytes):
    """The solutions of a small board (:func:`nqueens_numba._split.is_breadth`), or the
    first ``limit``, by the breadth-first search in NumPy."""
    allow = None if cons is None else cons.allow
    total = QUEEN.known_total(n) if allow is None else _breadth.count(n, allow)
    if limit is None:  # (a limit was checked by the caller)
        _validate.result_size(n, total, max_bytes, _enumerating.keywords(QUEEN, cons))
    sols = _breadth.solutions(n, allow)
    if len(sols) != total:
        raise RuntimeError(f"the enumeration of n={n} found {len(sols)} solutions, expected "
                           f"{total}")
    return sols if limit is None or limit >= len(sols) else sols[:limit].copy()


def solve(n, *, limit=None, n_threads=None, max_bytes=None, preplaced=None, blocked=None,
          progress=False, piece="queen", torus=False):
    """All solutions of the n-queens problem, in lexicographic order.

    Each row of the result is one solution, ``queens[row] == column``; with constraints or a
    variant's board, the solutions of that problem.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``. Any Python or NumPy integer.
    limit : int, optional
        Return only the first ``limit`` solutions of the same order, found by a serial search
        that stops there.
    n_threads : int, optional
        Threads for the enumeration, ``1 .. numba.config.NUMBA_NUM_THREADS``; all by default.
    max_bytes : int, optional
        Largest result (bytes) to allocate; by default 80 % of the memory available when
        called (``config.MEMORY_FRACTION``; within a memory cgroup's limit, such as a
        container's, what it still allows). Checked before any allocation, from the
        tabulated totals (OEIS A000170, n <= 27) and ``limit``.
    preplaced, blocked : optional
        Constraints, as in :func:`count_solutions`: only their completions are returned
        (counted first, to size the result), each row limited to its allowed squares.
    progress : bool, optional
        Show a progress bar of the solutions written, with an ETA (``tqdm.auto``: a widget
        in Jupyter, text on stderr). The kernels are compiled (or loaded from the cache)
        before the bar starts, with a line on stderr when they compile.
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board, as in :func:`count_solutions`: superqueens or toroidal queens (counted
        first, to size the result, then enumerated by the board's own kernel).
        Not with ``preplaced`` or ``blocked``.

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
        included), or ``progress`` is not a bool.
    ValueError
        If ``n`` is outside ``0..63``, ``limit`` or ``max_bytes`` is negative or
        ``n_threads`` is outside ``1..NUMBA_NUM_THREADS``; for an unknown ``piece`` or a
        variant combined with constraints or with another variant.
    MemoryError
        If the result would be larger than ``max_bytes`` (raised before allocating).

    Warns
    -----
    UserWarning
        Without ``progress``, before filling a result of more than
        ``config.LARGE_RESULT_BYTES`` (1 GiB: ``solve(17)`` and beyond).

    See Also
    --------
    count_solutions : the number of solutions without storing them.
    boards : the solutions as LeetCode boards.

    Notes
    -----
    Subproblems of a prefix split (left half of the first row only) are enumerated in
    parallel by an explicit-stack search and written in order; the
    solutions with the first queen in the right half are the mirror images of the left-half
    ones, in reverse order. Boards up to ``config.BREADTH_MAX_N`` (12) without ``progress``
    are searched row by row in NumPy instead: milliseconds, and no kernel to compile.

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
    >>> solve(5, torus=True)[:2]
    array([[0, 2, 4, 1, 3],
           [0, 3, 1, 4, 2]], dtype=int8)
    """
    return _solved("solve", n, limit, n_threads, max_bytes, preplaced, blocked, progress,
                   piece, torus)


def _solved(name, n, limit, n_threads, max_bytes, preplaced, blocked, progress, piece, torus,
            text=False):
    """:func:`solve`, or the solutions of :func:`boards` (``name``, for the messages) with
    the memory of their ``text`` checked too: before the search where the number of boards
    is known, and after it."""
    n = _validate.board_order(n)
    limit = _validate.limit(limit)
    progress = _validate.flag(progress, "progress")
    n_threads = _validate.threads(n_threads)
    max_bytes = _validate.max_bytes(max_bytes)
    cons = check_constraints(n, preplaced, blocked)
    board = board_of(piece, torus)
    board.check_combination(cons)
    keywords = _enumerating.keywords(board, cons)
    call = f"{n}{keywords}"
    known = board.known_total(n) if cons is None else None
    most = known if known is not None else _enumerating.most_solutions(n, cons)
    if text and (limit is not None or known is not None):  # (78 times the array at n = 14)
        check_text_memory(most if limit is None else min(limit, most), n, max_bytes, call)
    text_bytes, max_bytes = max_bytes, _validate.max_bytes(None) if text else max_bytes
    if limit is not None:  # (the strings bound the boards: their array, memory alone)
        _validate.result_size(n, min(limit, most), max_bytes, keywords)
    instead = (f"iter_solutions({call}) streams the solutions, and save_solutions(path, "
               f"{call}) writes them, as they come")
    finder = board.one_solution  # (find_solution, construct; their own pre-placed queens)
    if limit is not None and finder and (cons is None or not cons.blocked.any()):
        # (the first solutions of a large board can take long to reach in order)
        instead = (f"{finder}({call}) finds one solution in milliseconds, not the first "
                   f"in order; " + instead)
    with _progress.interruption_says(
            f"{name}({call}{'' if limit is None else f', limit={limit}'}) interrupted: nothing "
            f"is returned ({instead})"):
        sols = _solve(n, limit, n_threads, max_bytes, cons, board, progress)
    if text:
        check_text_memory(len(sols), n, text_bytes, call)
    return sols


def _solve(n, limit, n_threads, max_bytes, cons, board, progress):
    """:func:`solve` of validated arguments (``cons``: the constraints, ``board``: the
    board)."""
    how = _enumerating.how_to_solve(n, board, cons, limit, progress)
    if how in _SOLVED_AT_ONCE:
        return _SOLVED_AT_ONCE[how](n, limit, cons, max_bytes)
    with _progress.compiling_notice(progress, "solve"):
        if how == "first":
            return _solve_first(n, limit, cons, progress, board)
        if how == "all":
            return _solve_all(n, n_threads, max_bytes, progress)
        return _solve_counted(n, n_threads, cons, max_bytes, progress, board)


def _solve_none(n, limit, cons, max_bytes):
    """The solutions of a board without any: ``(0, n)``; of the empty board: its one
    solution (or none with ``limit=0``)."""
    rows = 0 if n else (1 if limit is None else min(limit, 1))
    return np.empty((rows, n), dtype=np.int8)


#: What answers ``solve`` without kernels: boards without solutions, the empty board, and
#: small boards in NumPy (:func:`nqueens_numba._enumerating.how_to_solve`).
_SOLVED_AT_ONCE = {"none": _solve_none, "small": _solve_small}


def boards(n, *, limit=None, n_threads=None, max_bytes=None, preplaced=None, blocked=None,
           piece="queen", torus=False):
    """All solutions as boards of ``'Q'`` and ``'.'`` rows (LeetCode 51, "N-Queens").

    Parameters
    ----------
    n, limit, n_threads, max_bytes, preplaced, blocked, piece, torus
        As in :func:`solve`; ``max_bytes`` bounds the boards' strings too (about
        ``n**2 + 58 * n + 80`` bytes a board: 1,088 at n = 14, 78 times its row of
        :func:`solve`).

    Returns
    -------
    list of list of str
        One board per solution, in the order of :func:`solve`; each board is ``n`` strings of
        length ``n``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve`.
    MemoryError
        As :func:`solve`, or if the strings would not fit in ``max_bytes`` or the memory
        available: before the search where the number of boards is known (a limit, or a
        board without constraints), else once the solutions are found.

    See Also
    --------
    solve, to_boards, format_board

    Examples
    --------
    >>> boards(4)
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    return to_boards(_solved("boards", n, limit, n_threads, max_bytes, preplaced, blocked,
                             False, piece, torus, text=True))


@_docs.fill
def fundamental_solutions(n, *, n_threads=None, piece="queen", torus=False):
    """One solution per D4 orbit, its canonical form, in lexicographic order.

    %(solve_parameters)s
        The board, as in :func:`count_solutions` (D4 maps the solutions of each to
        solutions).

    Returns
    -------
    numpy.ndarray, shape (n_fundamental, n), dtype int8
        ``n_fundamental`` is OEIS A002562 (superqueens: A051224); ``fundamental_solutions(0)``
        has shape ``(1, 0)``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve`.
    MemoryError
        If every solution, which it enumerates first, does not fit in memory (n = 17
        takes 1.6 GB, n = 18 12 GB, n = 19 94 GB).

    Warns
    -----
    UserWarning
        Before enumerating more than ``config.LARGE_RESULT_BYTES`` of solutions.

    See Also
    --------
    count_solutions : ``fundamental=True`` counts them without enumerating.
    symmetry.orbit : the solutions equivalent to one of them.

    Notes
    -----
    The canonical form is the lexicographically smallest image under the eight symmetries of
    the board (:func:`~nqueens_numba.symmetry.canonical_form`). Found by enumerating every
    solution (:func:`solve`, whose memory it needs, and whose warning of a large result it
    gives) and keeping the canonical ones among those whose first-row queen is in the left
    half (with the middle column).

    References
    ----------
    .. [1] OEIS A002562, https://oeis.org/A002562
    .. [2] OEIS A051224 (superqueens), https://oeis.org/A051224

    Examples
    --------
    >>> fundamental_solutions(6)
    array([[1, 3, 5, 0, 2, 4]], dtype=int8)
    >>> fundamental_solutions(8).shape
    (12, 8)
    >>> fundamental_solutions(10, piece="superqueen")
    array([[2, 5, 8, 0, 3, 6, 9, 1, 4, 7]], dtype=int8)
    """
    n = _validate.board_order(n)
    n_threads = _validate.threads(n_threads)
    board = board_of(piece, torus)
    call = f"{n}{board.keywords}"
    first = (f"fundamental_solutions({call}) enumerates every solution first (solve({call}), "
             f"about 8 times as many)")
    instead = (f"count_solutions({call}, fundamental=True) counts them, symmetry_classes("
               f"{call}) counts them by orbit size, and iter_solutions({call}) streams every "
               f"solution (symmetry.is_canonical keeps the fundamental ones)")
    total = board.known_total(n)
    if total is not None:
        size, most = total * n, _validate.max_bytes(None)
        if size > most:
            raise MemoryError(f"{first}: {total:,} solutions of {n} bytes ({size:,} bytes) do "
                              f"not fit in memory (at most {most:,} bytes); {instead}")
        if size > config.LARGE_RESULT_BYTES:
            warnings.warn(f"{first}: it fills {total:,} solutions ({size / 2**30:.2g} GiB), "
                          f"which takes a while; {instead}", UserWarning,
                          stacklevel=_outside_level())
    with _progress.interruption_says(f"fundamental_solutions({call}) interrupted: nothing is "
                                     f"returned"), warnings.catch_warnings():
        if total is not None:  # (said above; else solve's warning says it, named solve)
            warnings.filterwarnings("ignore", r"solve\(", UserWarning)
        try:
            sols = _solve(n, None, n_threads, _validate.max_bytes(None), None, board, False)
        except _validate.ResultTooLarge as exc:  # (no tabulated total: solve's numbers)
            raise MemoryError(f"{first}: {exc.what} do not fit in memory; {instead}") from None
        return _canonical(sols)


def _canonical(sols):
    """The canonical forms among ``sols``, every solution of a board in lexicographic
    order."""
    n = sols.shape[1]
    if n == 0:
        return sols
    # A canonical form has 2 * q[0] <= n - 1 (flip_h maps q[0] to n - 1 - q[0]); those rows
    # come first in lexicographic order.
    stop = int(np.searchsorted(sols[:, 0], (n - 1) // 2, side="right"))
    keep = [block[symmetry.is_canonical(block)]
            for block in np.array_split(sols[:stop], max(1, stop // 100_000))]
    return np.ascontiguousarray(np.concatenate(keep)) if keep else sols[:0]
