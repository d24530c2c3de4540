"""The solutions of subproblems, enumerated in parallel and handed out in order (``solve``,
``iter_solutions``, ``save_solutions``).

* :class:`Cursor`: a resumable depth-first enumeration of one subproblem, between kernel
  calls (kernel job ``fill`` of the board).
* :func:`ordered_blocks`: the solutions of many subproblems as blocks, in order, produced by
  a :class:`~nqueens_numba._pool.Crew` of threads.
* :func:`solutions_bar`: an enumeration's progress bar, its kernels loaded first.
"""
import queue
import sys
from collections import deque

import numpy as np

from . import _kernels, config
from ._pool import Crew
from ._progress import compile_first, progress_bar
from .board import QUEEN
from .constraints import no_constraints

__all__ = ["Cursor", "ordered_blocks", "solutions_bar"]


class Cursor:
    """A resumable depth-first enumeration of one subproblem, between kernel calls.

    Parameters
    ----------
    n : int
    state : numpy.ndarray, shape (3 + depth,), dtype int64
        The subproblem (``np.zeros(3)`` with ``depth=0`` for the whole board).
    depth : int
        Rows it pre-places, ``depth < n``.
    allow : numpy.ndarray, shape (n,), dtype int64, optional
        Per-row allowed squares of a constrained board.
    board : Board, optional
        The board, searched by its kernel of job ``fill`` (a variant without constraints).
    """

    def __init__(self, n, state, depth, allow=None, board=QUEEN):
        self.n = n
        self.depth = depth
        self.kernel = _kernels.entry("fill", board, allow is not None)
        self.allow = no_constraints(n) if allow is None else allow
        self.stack = np.empty((n, 4), dtype=np.int64)
        self.queens = np.empty(n, dtype=np.int8)
        self.level = np.empty(1, dtype=np.int64)
        _kernels.entry("start_cursor")(n, state, depth, self.stack, self.queens, self.level)
        above = 1 << int(state[3 + depth - 1]) if depth >= 1 else 0
        higher = 1 << int(state[3 + depth - 2]) if depth >= 2 else 0
        # the prefix's last rows: their knights, and the rows' own allowed squares
        self.stack[depth, 0] &= int(self.allow[depth]) & ~board.near(above, higher)

    @property
    def done(self):
        """Whether every solution of the subproblem has been written."""
        return self.level[0] < self.depth

    def fill(self, out):
        """Write the next solutions into ``out`` (``(k, n)`` int8, at least
        ``TAIL_SOLUTIONS`` rows for speed); return how many. One kernel call: it also returns
        after ``config.STEP_BUDGET`` squares tried, so that callers can stop in between."""
        return self.kernel(self.n, self.depth, self.stack, self.queens, self.level, out,
                           config.STEP_BUDGET, self.allow)


def solutions_bar(progress, what, n, total, state=None, depth=0, allow=None, unit="solution",
                  board=QUEEN):
    """The bar of an enumeration: ``total`` solutions (``None`` if unknown) of ``n``; a bar
    that shows nothing unless ``progress``.

    Before it starts, the enumeration kernels of subproblem ``state`` (``depth`` rows; the
    whole board by default) are compiled or loaded (:func:`compile_first`) by a call that
    writes nothing, in the calling thread: so that the rate counts work only, and that a
    Ctrl-C stops a compile at once (in a thread of the enumeration it ran to its end first).
    ``unit="subproblem"`` counts subproblems instead.
    """
    if depth < n and (state is not None or depth == 0):  # (else nothing to enumerate)
        root = np.zeros(3, dtype=np.int64) if state is None else state
        compile_first(lambda: Cursor(n, root, depth, allow, board).fill(
            np.empty((0, n), dtype=np.int8)), what, notice=progress)
    return progress_bar(total, 0, f"{what} n={n}", unit=unit, disable=not progress)


def _state_blocks(n, state, depth, stop, first_rows, max_rows, allow=None, board=QUEEN):
    """The solutions of one subproblem, in order, as ``(k, n)`` int8 blocks (a generator).

    Blocks start at ``first_rows`` rows and double up to ``max_rows``; the search stops
    between two kernel calls once ``stop`` is set.
    """
    if depth == n:  # the prefix is a complete solution
        yield state[None, 3:].astype(np.int8)
        return
    cursor = Cursor(n, state, depth, allow, board)
    rows = max(min(first_rows, max_rows), _kernels.TAIL_SOLUTIONS)
    block = np.empty((rows, n), dtype=np.int8)
    filled = 0
    while not cursor.done and not stop.is_set():
        if rows - filled < _kernels.TAIL_SOLUTIONS:  # room for a whole tail
            yield block[:filled]
            rows = max(min(2 * rows, max_rows), _kernels.TAIL_SOLUTIONS)
            block = np.empty((rows, n), dtype=np.int8)
            filled = 0
        filled += cursor.fill(block[filled:])
    if filled:
        yield block[:filled]


_END = object()  # closes a subproblem's queue of blocks


def _put(q, item, stop):
    """Put ``item`` on a bounded queue, giving up once ``stop`` is set; True if it went in."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False


def ordered_blocks(n, states, depth, n_threads, window_per_thread,
                   first_rows=None, max_rows=None, queued_blocks=0, allow=None, board=QUEEN):
    """Yield ``(i, block)`` for every subproblem ``i`` in order, enumerated in parallel.

    Parameters
    ----------
    n : int
    states : numpy.ndarray, shape (n_states, 3 + depth), dtype int64
    depth : int
    n_threads : int
        Threads enumerating subproblems (the kernels release the GIL).
    window_per_thread : int
        At most ``window_per_thread * n_threads`` subproblems are started ahead of the one
        being consumed.
    first_rows, max_rows : int, optional
        Rows of a subproblem's first block, and most rows of a block (they double); by
        default ``config.FIRST_BLOCK_ROWS`` and ``config.MAX_BLOCK_ROWS``.
    queued_blocks : int
        Blocks a subproblem may hold ready (0: unbounded). The one being consumed streams
        (however many solutions it has), the others wait when their queue is full, so that
        memory stays bounded.
    allow : numpy.ndarray, shape (n,), dtype int64, optional
        Per-row allowed squares of a constrained board.
    board : Board, optional
        The board (see :class:`Cursor`).

    Yields
    ------
    (int, numpy.ndarray of shape (k, n), dtype int8)

    Closing the generator cancels what has not started and stops the running subproblems at
    their next block. The threads are daemon threads, so a generator left open does not keep
    the interpreter from exiting.
    """
    n_threads = max(min(n_threads, len(states)), 1)  # (no thread without a subproblem)
    first_rows = config.FIRST_BLOCK_ROWS if first_rows is None else first_rows
    max_rows = config.MAX_BLOCK_ROWS if max_rows is None else max_rows
    window = window_per_thread * n_threads
    n_states = len(states)
    # (i, queue of blocks) in order: a free thread takes the next. A ``queue.Queue``: with
    # ``SimpleQueue`` a thread's ``get(timeout=...)`` sometimes never returned on a loaded
    # machine, so a closed stream's thread outlived it (2 of 5 runs of the stream and thread
    # tests under three busy processes; 0 of 6 with ``Queue``).
    tasks = queue.Queue()

    def produce(i, blocks, stop):
        try:
            for block in _state_blocks(n, states[i], depth, stop, first_rows, max_rows,
                                       allow, board):
                if not _put(blocks, block, stop):
                    return
        except BaseException as exc:  # handed to the consumer, which raises it
            _put(blocks, exc, stop)
            return
        _put(blocks, _END, stop)

    def work(k, stop):
        # (A thread without work sleeps in ``get`` until a task or its end comes: with
        # polling, hundreds of idle threads on a few cores took the GIL in turns and made
        # ``solve(14)`` 15 times slower.)
        while (task := tasks.get()) is not None and not stop.is_set():
            produce(*task, stop)

    crew = Crew(n_threads, work, "stream")
    pending = deque()  # queues of blocks of the subproblems started, in order
    submitted = 0
    try:
        crew.start()
        for i in range(n_states):
            while submitted < min(i + window, n_states):
                blocks = queue.Queue(maxsize=queued_blocks)
                tasks.put((submitted, blocks))
                pending.append(blocks)
                submitted += 1
            blocks = pending.popleft()
            while True:
                item = blocks.get()
                if item is _END:
                    break
                if isinstance(item, BaseException):
                    raise item
                yield i, item
    finally:
        crew.stop()  # the running subproblems end at their next kernel call
        for _ in range(n_threads):
            tasks.put(None)  # (one end for each thread: those waiting for a task wake)
        if not sys.is_finalizing():  # (threads may be frozen then: joining would hang)
            crew.join()
