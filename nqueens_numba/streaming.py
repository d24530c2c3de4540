"""Streaming: every solution in order, chunk by chunk in bounded memory, or into a file.

The subproblems of the full search (every first-row column) are enumerated a few ahead of
the one being handed out (:func:`nqueens_numba._blocks.ordered_blocks`) and assembled into
chunks in lexicographic order; :mod:`nqueens_numba.export` writes the chunks to a file.
"""
import os

import numpy as np

from . import (_blocks, _breadth, _enumerating, _kernels, _progress, _validate, config,
               counting, export)
from ._files import check_target
from .board import QUEEN, board_of
from .constraints import check_constraints, no_constraints

__all__ = ["iter_solutions", "save_solutions"]


def iter_solutions(n, *, chunk_size=1_000_000, n_threads=None, preplaced=None, blocked=None,
                   progress=False, piece="queen", torus=False):
    """Stream all solutions in lexicographic order, in chunks of at most ``chunk_size``.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    chunk_size : int, optional
        Most rows per chunk (default one million: ``16 * 10**6`` bytes for ``n = 16``).
    n_threads : int, optional
        Threads, ``1 .. numba.config.NUMBA_NUM_THREADS``; all by default.
    preplaced, blocked : optional
        Constraints, as in :func:`count_solutions`: only their completions are streamed.
    progress : bool, optional
        Show a progress bar (``tqdm.auto``) of the solutions handed out, with an ETA; with
        constraints, whose number of solutions is not known beforehand, of the subproblems
        done. The kernels are compiled (or loaded from the cache) before the bar starts.
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board, as in :func:`count_solutions` (not with constraints; the bar counts
        subproblems).

    Yields
    ------
    numpy.ndarray, shape (k, n), dtype int8
        ``1 <= k <= chunk_size``, C-contiguous, each a new array. Their concatenation equals
        ``solve(n)``. Nothing is yielded when there are no solutions (``n = 2, 3``);
        ``n = 0`` yields the empty board, shape ``(1, 0)``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve` for ``n``, ``n_threads`` and ``progress``; ``chunk_size`` must be a
        positive integer. Raised by the call, before iterating.
    MemoryError
        By the call, if three of the largest chunk (``chunk_size`` rows, or every solution
        where they are fewer: the stream holds up to three at once) would take more than
        80% of the available memory (:func:`solve`'s default ``max_bytes``).

    See Also
    --------
    solve : everything in one array.
    save_solutions : stream to a file.

    Notes
    -----
    The search is split into subproblems by pre-placing the first rows; a pool of
    ``n_threads`` threads enumerates them a few ahead of the one whose solutions are being
    handed out, and the chunks are assembled in order. Memory
    stays near a few chunks whatever ``n`` is. Closing the generator, or leaving a ``for``
    loop over it, stops the work within moments. Boards up to ``config.BREADTH_MAX_N`` (12)
    without ``progress`` are searched in NumPy (no kernel to compile) and handed out in
    chunks.

    Unlike :func:`solve`, every first-row column is searched (mirror images cannot be
    produced in order without holding half of the solutions), so enumerating everything
    takes about twice as long.

    Examples
    --------
    >>> [chunk.shape for chunk in iter_solutions(8, chunk_size=40)]
    [(40, 8), (40, 8), (12, 8)]
    >>> import numpy as np
    >>> from nqueens_numba import solve
    >>> np.array_equal(np.concatenate(list(iter_solutions(10, chunk_size=100))), solve(10))
    True
    """
    n, chunk_size, n_threads, cons, progress, board = _checked(
        n, chunk_size, n_threads, preplaced, blocked, progress, piece, torus)
    return _told(_chunks(n, chunk_size, n_threads, cons, progress, board),
                 f"{n}{_enumerating.keywords(board, cons)}")


#: Chunks a stream holds at its peak, at most: the one the caller's loop holds, the one being
#: filled, and the blocks of solutions in flight (measured with tracemalloc at n = 15: 2.7
#: times the chunk at most).
STREAM_CHUNKS_HELD = 3


def _checked(n, chunk_size, n_threads, preplaced, blocked, progress, piece, torus):
    """The validated arguments of a stream: ``(n, chunk_size, n_threads, constraints,
    progress, board)``."""
    n = _validate.board_order(n)
    chunk_size = _validate.in_range(chunk_size, "chunk_size", 1,
                                    what="a positive integer (1 or more)")
    n_threads = _validate.threads(n_threads)
    progress = _validate.flag(progress, "progress")
    cons = check_constraints(n, preplaced, blocked)
    board = board_of(piece, torus)
    board.check_combination(cons)
    # The largest chunk: at most every solution (a variant's and constrained ones are
    # among the queens' solutions). The stream holds up to STREAM_CHUNKS_HELD such at once
    total = QUEEN.known_total(n)
    rows = chunk_size if total is None else min(chunk_size, total)
    limit = _validate.max_bytes(None)
    if limit is not None and STREAM_CHUNKS_HELD * rows * n > limit:
        raise MemoryError(f"a chunk of chunk_size={chunk_size:,} would take up to "
                          f"{rows * n:,} bytes ({rows:,} solutions of {n} bytes), and the "
                          f"stream holds up to {STREAM_CHUNKS_HELD} at once: more than "
                          f"{config.MEMORY_FRACTION:.0%} of the available memory "
                          f"({limit:,} bytes); choose a smaller chunk_size")
    return n, chunk_size, n_threads, cons, progress, board


def _told(chunks, call):
    """``chunks``, whose ``KeyboardInterrupt`` (a Ctrl-C while the next chunk is made) says
    how far the stream got."""
    rows = 0
    try:
        for chunk in chunks:
            rows += len(chunk)
            yield chunk
    except KeyboardInterrupt as exc:
        if exc.args:
            raise
        raise KeyboardInterrupt(f"iter_solutions({call}) interrupted after {rows:,} "
                                f"solutions: the stream ends there") from None
    finally:
        chunks.close()


def _chunks(n, chunk_size, n_threads, cons=None, progress=False, board=QUEEN):
    """The generator of :func:`iter_solutions`, for validated arguments.

    Copies the ordered blocks of :func:`nqueens_numba._blocks.ordered_blocks` into chunks of
    exactly ``chunk_size`` rows (the last one shorter). Without constraints the number of
    solutions still to come is known (OEIS A000170), so each chunk is allocated at its final
    size; with constraints it is not, and a chunk starts at ``config.FIRST_CHUNK_ROWS`` rows
    and doubles as it fills. Closing the generator closes the block producer, which stops
    its threads, and the progress bar.
    """
    if n == 0:
        yield np.empty((1, 0), dtype=np.int8)
        return
    allow = None if cons is None else cons.allow
    how = _enumerating.how_to_solve(n, board, cons, None, progress)
    if how == "small":  # nothing to compile
        sols = _breadth.solutions(n, allow)
        for start in range(0, len(sols), chunk_size):
            yield sols[start:start + chunk_size].copy()
        return
    # Solutions still to come: exactly known without constraints (n <= 27), else unknown,
    # and the chunk then starts small and grows to ``chunk_size`` as solutions arrive.
    remaining = _enumerating.exact_total(n, board, cons)
    bound = QUEEN.known_total(n) or chunk_size  # constrained solutions are among all solutions
    target = chunk_size  # rows of the chunk being filled, once complete

    def new_chunk():
        nonlocal target
        if remaining is not None:
            target = max(1, min(chunk_size, remaining))
            return np.empty((target, n), dtype=np.int8)
        target = max(1, min(chunk_size, bound))
        return np.empty((min(target, config.FIRST_CHUNK_ROWS), n), dtype=np.int8)

    chunk = new_chunk()
    filled = 0
    known = remaining is not None  # the bar counts solutions, else subproblems
    with _progress.compiling_notice(progress, "stream"):  # (not around the yields)
        states, depth = _enumerating.stream_split(
            n, n_threads, chunk_size, no_constraints(n) if allow is None else allow,
            board)
        bar = _blocks.solutions_bar(progress, "stream", n,
                                    remaining if known else len(states),
                                    states[0] if len(states) else None, depth, allow,
                                    "solution" if known else "subproblem", board)
    # Blocks of a quarter chunk (subproblems hold about that much): the subproblems started
    # ahead hold a few chunks in all.
    max_rows = min(config.MAX_BLOCK_ROWS,
                   max(chunk_size // config.WINDOW_PER_THREAD, _kernels.TAIL_SOLUTIONS))
    with bar:
        for i, block in _blocks.ordered_blocks(n, states, depth, n_threads,
                                               config.WINDOW_PER_THREAD, max_rows, max_rows,
                                               config.QUEUED_BLOCKS, allow, board):
            bar.update(len(block) if known else i - bar.n)
            pos = 0
            while pos < len(block):
                if filled == len(chunk) < target:  # grow the chunk (constrained runs)
                    grown = np.empty((min(2 * len(chunk), target), n), dtype=np.int8)
                    grown[:filled] = chunk[:filled]
                    chunk = grown
                take = min(len(block) - pos, len(chunk) - filled)
                chunk[filled:filled + take] = block[pos:pos + take]
                filled += take
                pos += take
                if filled == target:
                    if remaining is not None:
                        remaining -= filled
                    yield chunk
                    chunk = new_chunk()
                    filled = 0
        if not known:
            bar.update(len(states) - bar.n)
        if filled:
            yield chunk[:filled].copy() if filled < len(chunk) // 2 else chunk[:filled]


def save_solutions(path_or_file, n, *, format=None, chunk_size=1_000_000, n_threads=None,
                   preplaced=None, blocked=None, progress=False, piece="queen", torus=False):
    """Write all solutions to a file, streaming them chunk by chunk.

    Parameters
    ----------
    path_or_file : str, os.PathLike or file object
        Where to write. A path is written atomically: a temporary file beside it is renamed
        over it when complete, and removed if writing fails or is interrupted (Ctrl-C), so
        the path never holds a partial file. An open file (binary for ``"npy"``, text
        otherwise) is written as is.
    n : int
        Board order, ``0 <= n <= 63`` (in practice ``n <= 17`` or so: the files grow like the
        total count, OEIS A000170).
    format : {"npy", "text", "json", "csv"}, optional
        ``"npy"``: an ``(n_solutions, n)`` int8 array for :func:`numpy.load`; ``"text"``: the
        boards of ``nqueens solve`` (``n`` lines of ``.``/``Q`` and a blank line each);
        ``"json"``: the LeetCode 51 list of boards; ``"csv"``: one solution per line, the
        columns of rows ``0 .. n-1`` separated by commas. By default, the format the file
        name's suffix stands for (``.npy``, ``.txt``, ``.json``, ``.csv``); for a name
        without one of these, or an open file without a name, ``"text"`` for a text stream
        and ``"npy"`` otherwise. An explicit ``format`` wins over the suffix.
    chunk_size, n_threads, preplaced, blocked, progress, piece, torus
        As in :func:`iter_solutions` (the bar counts the solutions written).

    Returns
    -------
    int
        The number of solutions written.

    Raises
    ------
    TypeError, ValueError
        As :func:`iter_solutions`, or for an unknown ``format``.
    OSError
        If the file cannot be written (for example ``FileNotFoundError`` for a missing
        directory); nothing is left at the path.
    MemoryError
        ``format="npy"`` for n > 27, whose number of solutions (needed for the header
        first) is not known; the other formats are streamed and never raise it.

    See Also
    --------
    iter_solutions

    Examples
    --------
    >>> import io, json
    >>> out = io.StringIO()
    >>> save_solutions(out, 4, format="json")
    2
    >>> json.loads(out.getvalue())
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    # (the stream without iter_solutions' words on a Ctrl-C: this call says what it kept)
    chunks = _chunks(*_checked(n, chunk_size, n_threads, preplaced, blocked, progress, piece,
                               torus))
    in_place = None  # (an open file)
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        _, in_place = check_target(path_or_file)  # a bad path fails now, not after the search
    elif not callable(getattr(path_or_file, "write", None)):
        raise TypeError(f"path_or_file must be a path or an open file, got "
                        f"{type(path_or_file).__name__}")
    if format is None:
        format = export.format_for(path_or_file)
        if format is None:
            format = "npy" if export.is_binary(path_or_file) is not False else "text"
    if not isinstance(format, str):
        raise TypeError(f"format must be a string, one of "
                        f"{', '.join(map(repr, export.FORMATS))}, got {type(format).__name__}")
    if format not in export.FORMATS:
        raise ValueError(f"format must be one of {', '.join(map(repr, export.FORMATS))}, "
                         f"got {format!r}")
    n = _validate.board_order(n)
    cons = check_constraints(n, preplaced, blocked)
    board = board_of(piece, torus)
    total = _enumerating.exact_total(n, board, cons)
    endless = _enumerating.is_endless(n, board, cons)
    if format == "npy" and total is None and not endless:
        unchanged = ("" if in_place is None else
                     f" ({os.fsdecode(path_or_file)!r} is as it was)")
        with _progress.interruption_says(
                f"interrupted while counting the solutions first (the .npy header holds "
                f"their number): nothing is written{unchanged}"), \
                _progress.interruption_unsaid(), _progress.compiling_notice(progress, "stream"):
            total = counting.count_solutions(n, n_threads=n_threads, preplaced=preplaced,
                                             blocked=blocked, piece=piece, torus=torus)
    if format == "npy" and total is None:
        raise MemoryError(f"n={n} has more than {config.A000170[-1]:.3g} solutions: too many "
                          f"for a file")
    kept = (f"nothing is written ({os.fsdecode(path_or_file)!r} is as it was)"
            if in_place is False else  # (a pipe, a device, /dev/stdout: written as it goes)
            "the solutions written so far stay in the file, which holds no whole result")
    try:
        with _progress.interruption_says(f"interrupted: {kept}"):
            return export.write_solutions(path_or_file, chunks, n, format, total)
    finally:
        chunks.close()
