"""How to run locally: every thread pool of the package, and the tracker of a count's progress.

The kernels release the GIL, so Python threads run them in parallel. No numba threading
layer is involved, so the package is safe to use from several threads at once and in
processes forked after a count.

* :func:`run_split`: the results of every subproblem of a count's
  :class:`~nqueens_numba._split.Split`. Threads take batches of subproblems as they finish
  the previous ones (dynamic scheduling, unlike ``prange``'s fixed blocks), which keeps every
  thread busy to the end and gives the calling thread the moments it needs between batches:
  to draw a progress bar, to save a checkpoint, and to stop promptly on Ctrl-C.
* :class:`Tracker`: result slots, checkpoint, progress bar and the interruption message of
  one count; the Dask count uses it too.
* :class:`Cursor`, :func:`ordered_blocks`: the solutions of subproblems, enumerated in
  parallel and handed out in order (``solve``, ``iter_solutions``).
* :func:`progress_bar`, :func:`solutions_bar`, :func:`compile_first`,
  :func:`compiling_notice`: bars whose rate counts work only (the kernels are compiled or
  loaded before they start), and the line that says when numba compiles.
* :func:`run_threads`: independent calls spread over a pool.
"""
import queue
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from . import _kernels, config
from .checkpoint import Checkpoint

__all__ = ["run_split", "Tracker", "progress_bar", "compiling_notice", "compile_first", "Cursor",
           "ordered_blocks", "solutions_bar", "run_threads"]


def progress_bar(total, initial, desc, unit="subproblem", disable=False):
    """A ``tqdm.auto`` bar of finished subproblems, or of another ``unit`` (a widget in
    Jupyter, text on stderr); ``total=None`` when unknown (no ETA then). With ``disable``,
    a bar that shows nothing."""
    from tqdm.auto import tqdm

    class Bar(tqdm):
        monitor_interval = 0  # no monitor thread: the callers refresh the bar themselves

    return Bar(total=total, initial=initial, unit=unit, desc=desc, mininterval=0.2,
               disable=disable)


_notice = threading.local()  # whether this thread is inside compiling_notice


@contextmanager
def compiling_notice(enabled, what):
    """While inside (and ``enabled``), the first kernel numba really compiles (not one loaded
    from its cache) prints one line on stderr before the wait: ``compiling kernels for
    {what} (first use; cached afterwards)``. Nested uses print that line once."""
    if not enabled or getattr(_notice, "active", False):
        yield
        return
    from numba.core import event

    class Notice(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                print(f"nqueens_numba: compiling kernels for {what} (first use; cached "
                      f"afterwards)", file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    _notice.active = True
    try:
        with event.install_listener("numba:compile", Notice()):
            yield
    finally:
        _notice.active = False


def compile_first(call, what):
    """Run ``call()``, a kernel call on empty input, before a progress bar starts, so that
    its kernels are compiled (or loaded from numba's cache) now and the bar's rate and ETA
    measure work only; within :func:`compiling_notice`."""
    with compiling_notice(True, what):
        call()


def _pool(n_threads):
    return ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="nqueens")


# --------------------------------------------------------------------------- counting


class Tracker:
    """The results of a split's subproblems as they finish: slots, checkpoint, progress.

    Parameters
    ----------
    split : nqueens_numba._split.Split
    checkpoint : str or os.PathLike, optional
        Resume from this file (the subproblems it records are not run again) and record
        progress to it (see :mod:`nqueens_numba.checkpoint`).
    progress : bool
        Show a ``tqdm.auto`` progress bar of finished subproblems.
    save_every : float, optional
        Most seconds between two writes of the checkpoint (``config.CHECKPOINT_SECONDS`` by
        default).
    where : str
        Says where the count runs, in the progress bar and messages (``" on Dask"``).

    Attributes
    ----------
    results : numpy.ndarray, shape (n_states, split.width), dtype int64
        One slot per subproblem, filled as they finish.
    pending : numpy.ndarray, shape (n_pending,), dtype int64
        The subproblems still to run, in a fixed shuffled order (neighbouring subproblems
        cost alike, so that progress and its ETA are even).

    Use it as a context manager: leaving it saves the checkpoint and closes the bar.
    """

    def __init__(self, split, checkpoint=None, progress=False, save_every=None, where=""):
        n_states = len(split.states)
        self.n = split.n
        self.where = where
        self.save_every = config.CHECKPOINT_SECONDS if save_every is None else save_every
        self.results = np.zeros((n_states, split.width), dtype=np.int64)
        self.done = np.zeros(n_states, dtype=bool)
        self.checkpoint = None
        if checkpoint is not None:
            self.checkpoint = Checkpoint(checkpoint, split.checkpoint_id, split.width)
            for index, counts in self.checkpoint.finished.items():
                self.results[index] = counts
                self.done[index] = True
        order = np.random.default_rng(config.SHUFFLE_SEED).permutation(n_states)
        self.pending = order[~self.done[order]]
        self.bar = None
        if progress:
            self.bar = progress_bar(n_states, int(self.done.sum()), f"count n={self.n}{where}")
        self._last_save = self._last_draw = time.monotonic()

    def finish(self, index, out):
        """Record the results ``out``, ``(len(index), width)``, of subproblems ``index``."""
        self.results[index] = np.asarray(out).reshape(len(index), -1)
        self.done[index] = True
        if self.checkpoint is not None:
            for i in index:
                self.checkpoint.record(i, self.results[i])
        if self.bar is not None:
            self.bar.update(len(index))

    def tick(self):
        """Save the checkpoint and redraw the bar when they are due."""
        now = time.monotonic()
        if self.checkpoint is not None and now - self._last_save >= self.save_every:
            self.checkpoint.save()
            self._last_save = now
        if self.bar is not None and now - self._last_draw >= 0.5:
            self.bar.refresh()
            self._last_draw = now

    def interrupted(self):
        """The ``KeyboardInterrupt`` to raise: how far the count got, and how to resume."""
        message = (f"count of n={self.n}{self.where} interrupted after {int(self.done.sum())} "
                   f"of {len(self.done)} subproblems")
        if self.checkpoint is not None:
            self.checkpoint.save()
            message += (f"; progress saved to {self.checkpoint.path!r}: call again with it to "
                        f"resume")
        return KeyboardInterrupt(message)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            if self.checkpoint is not None:
                self.checkpoint.save()
        finally:
            if self.bar is not None:
                self.bar.close()


def _timed(job, batch):
    start = time.perf_counter()
    out = job(batch)
    return out, time.perf_counter() - start


def run_split(split, n_threads, *, progress=False, checkpoint=None, save_every=None):
    """Results of every subproblem of ``split``, run on a pool of ``n_threads`` threads.

    Parameters
    ----------
    split : nqueens_numba._split.Split
    n_threads : int
    progress, checkpoint, save_every
        As in :class:`Tracker`. A ``split.direct`` split without them runs in one kernel
        call in this thread.

    Returns
    -------
    numpy.ndarray, shape (n_states, split.width), dtype int64

    Raises
    ------
    KeyboardInterrupt
        When interrupted: the running batches finish (a fraction of a second while
        subproblems are small, up to n = 22), the checkpoint is saved, and the exception says
        how far the count got.
    nqueens_numba.checkpoint.CheckpointError
        If the checkpoint file is damaged or belongs to another count.
    """
    if split.direct and not progress and checkpoint is None:
        return split.job(split.states)
    if progress:
        compile_first(lambda: split.job(split.states[:0]), "count")
    with Tracker(split, checkpoint, progress, save_every) as tracker:
        _run_pool(split, n_threads, tracker)
    return tracker.results


def _run_pool(split, n_threads, tracker):
    """The scheduler of a local count: run ``tracker.pending`` on a pool of threads.

    Keeps ``2 * n_threads`` batches in flight, so that a thread that finishes one finds the
    next waiting. A batch is one subproblem at first; then as many as take about
    ``config.TASK_SECONDS`` at the mean time per subproblem measured so far (at most 4096),
    which keeps the calling thread's turns frequent while the kernel calls stay long beside
    their overhead. Between two finished batches (or every 0.25 s) the calling thread records
    results, saves the checkpoint when due and redraws the bar; on Ctrl-C it cancels the
    batches not yet started, waits for the running ones (the kernels cannot be stopped
    midway) and raises :meth:`Tracker.interrupted`.
    """
    job = split.job
    pending = tracker.pending
    next_pending = 0
    batch = 1
    work_seconds = 0.0
    work_states = 0
    inflight = {}
    pool = _pool(n_threads)

    def collect(future):
        nonlocal work_seconds, work_states
        index = inflight.pop(future)
        out, seconds = future.result()
        tracker.finish(index, out)
        work_seconds += seconds
        work_states += len(index)

    try:
        while inflight or next_pending < len(pending):
            while len(inflight) < 2 * n_threads and next_pending < len(pending):
                if work_states:
                    per_state = work_seconds / work_states
                    batch = int(min(max(1, config.TASK_SECONDS / max(per_state, 1e-9)), 4096))
                index = pending[next_pending:next_pending + batch]
                next_pending += len(index)
                future = pool.submit(_timed, job, np.ascontiguousarray(split.states[index]))
                inflight[future] = index
            finished, _ = wait(list(inflight), timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                collect(future)
            tracker.tick()
    except KeyboardInterrupt:
        for future in list(inflight):
            if future.cancel():
                del inflight[future]
        for future in wait(list(inflight)).done:  # the running batches end within moments
            try:
                collect(future)
            except BaseException:  # noqa: BLE001 - already stopping; keep the first error
                inflight.pop(future, None)
        raise tracker.interrupted() from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# --------------------------------------------------------------------------- enumeration


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
    """

    def __init__(self, n, state, depth, allow=None):
        self.n = n
        self.depth = depth
        self.allow = allow
        self.stack = np.empty((n, 4), dtype=np.int64)
        self.queens = np.empty(n, dtype=np.int8)
        self.level = np.empty(1, dtype=np.int64)
        _kernels._start_cursor(n, state, depth, self.stack, self.queens, self.level)
        if allow is not None:
            self.stack[depth, 0] &= allow[depth]

    @property
    def done(self):
        """Whether every solution of the subproblem has been written."""
        return self.level[0] < self.depth

    def fill(self, out):
        """Write the next solutions into ``out`` (``(k, n)`` int8, at least
        ``TAIL_SOLUTIONS`` rows for speed); return how many. One kernel call: it also returns
        after ``config.STEP_BUDGET`` squares tried, so that callers can stop in between."""
        if self.allow is None:
            return _kernels._fill_solutions(self.n, self.depth, self.stack, self.queens,
                                            self.level, out, config.STEP_BUDGET)
        return _kernels._fill_rows(self.n, self.depth, self.stack, self.queens, self.level,
                                   out, config.STEP_BUDGET, self.allow)


def solutions_bar(progress, what, n, total, state=None, depth=0, allow=None, unit="solution"):
    """The bar of an enumeration: ``total`` solutions (``None`` if unknown) of ``n``; a bar
    that shows nothing unless ``progress``.

    Before it starts, the enumeration kernels of subproblem ``state`` (``depth`` rows; the
    whole board by default) are compiled or loaded (:func:`compile_first`) by a call that
    writes nothing, so that the rate counts work only. ``unit="subproblem"`` counts
    subproblems instead.
    """
    if progress and depth < n:
        root = np.zeros(3, dtype=np.int64) if state is None else state
        compile_first(lambda: Cursor(n, root, depth, allow).fill(
            np.empty((0, n), dtype=np.int8)), what)
    return progress_bar(total, 0, f"{what} n={n}", unit=unit, disable=not progress)


def _state_blocks(n, state, depth, stop, first_rows, max_rows, allow=None):
    """The solutions of one subproblem, in order, as ``(k, n)`` int8 blocks (a generator).

    Blocks start at ``first_rows`` rows and double up to ``max_rows``; the search stops
    between two kernel calls once ``stop`` is set.
    """
    if depth == n:  # the prefix is a complete solution
        yield state[None, 3:].astype(np.int8)
        return
    cursor = Cursor(n, state, depth, allow)
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
                   first_rows=config.FIRST_BLOCK_ROWS, max_rows=config.MAX_BLOCK_ROWS,
                   queued_blocks=0, allow=None):
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
    first_rows, max_rows : int
        Rows of a subproblem's first block, and most rows of a block (they double).
    queued_blocks : int
        Blocks a subproblem may hold ready (0: unbounded). The one being consumed streams
        (however many solutions it has), the others wait when their queue is full, so that
        memory stays bounded.
    allow : numpy.ndarray, shape (n,), dtype int64, optional
        Per-row allowed squares of a constrained board.

    Yields
    ------
    (int, numpy.ndarray of shape (k, n), dtype int8)

    Closing the generator cancels what has not started and stops the running subproblems at
    their next block. The threads are daemon threads, so a generator left open does not keep
    the interpreter from exiting.
    """
    stop = threading.Event()
    window = window_per_thread * n_threads
    n_states = len(states)
    tasks = queue.SimpleQueue()  # (i, queue of blocks) in order: a free thread takes the next

    def produce(i, blocks):
        try:
            for block in _state_blocks(n, states[i], depth, stop, first_rows, max_rows,
                                       allow):
                if not _put(blocks, block, stop):
                    return
        except BaseException as exc:  # handed to the consumer, which raises it
            _put(blocks, exc, stop)
            return
        _put(blocks, _END, stop)

    def work():
        while not stop.is_set():
            try:
                i, blocks = tasks.get(timeout=0.05)
            except queue.Empty:
                continue
            produce(i, blocks)

    # Daemon threads, unlike a ThreadPoolExecutor's: the interpreter joins every other
    # thread before it exits, so a generator left open (neither exhausted nor closed: an
    # exception in the caller, sys.exit, a notebook kernel restart) would hang the exit.
    workers = [threading.Thread(target=work, name=f"nqueens-stream-{k}", daemon=True)
               for k in range(n_threads)]
    for worker in workers:
        worker.start()
    pending = deque()  # queues of blocks of the subproblems started, in order
    submitted = 0
    try:
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
        stop.set()  # the running subproblems end at their next kernel call
        if not sys.is_finalizing():  # (threads may be frozen then: joining would hang)
            for worker in workers:
                worker.join()


def run_threads(n_threads, fn, calls):
    """``fn(*args)`` for every ``args`` of ``calls``, on a pool of ``n_threads`` threads;
    returns their results in order (the first exception is raised)."""
    with _pool(n_threads) as pool:
        futures = [pool.submit(fn, *args) for args in calls]
        return [future.result() for future in futures]
