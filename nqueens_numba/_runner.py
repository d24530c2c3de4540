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
* :func:`run_chunks`: independent kernel calls of a fixed work list (an estimate's chunks of
  probes, an exact profile's batches of subproblems), stopped within one call on Ctrl-C.
"""
import itertools
import os
import queue
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import _kernels, _split, config
from .checkpoint import Checkpoint, CheckpointError

__all__ = ["run_split", "Tracker", "progress_bar", "compiling_notice", "compile_first", "Cursor",
           "ordered_blocks", "solutions_bar", "run_threads", "run_chunks"]


#: The text of a count's bar: its subproblems done are a fraction (the share done of those in
#: progress counts), shown with two decimals, and the percentage with one.
COUNT_BAR_FORMAT = ("{desc}: {percentage:5.1f}%|{bar}| {n:,.2f}/{total_fmt} "
                    "[{elapsed}<{remaining}, {rate_fmt}{postfix}]")


def progress_bar(total, initial, desc, unit="subproblem", disable=False, bar_format=None):
    """A ``tqdm.auto`` bar of finished subproblems, or of another ``unit`` (a widget in
    Jupyter, text on stderr); ``total=None`` when unknown (no ETA then). With ``disable``,
    a bar that shows nothing."""
    from tqdm.auto import tqdm

    class Bar(tqdm):
        monitor_interval = 0  # no monitor thread: the callers refresh the bar themselves

    return Bar(total=total, initial=initial, unit=unit, desc=desc, mininterval=0.2,
               disable=disable, bar_format=bar_format)


def cache_directory():
    """Where numba caches the kernels (:func:`nqueens_numba._kernels.cache_directory`)."""
    return _kernels.cache_directory()


@contextmanager
def compiling_notice(enabled, what):
    """While inside (and ``enabled``), the first kernel numba really compiles (not one loaded
    from its cache) prints one line on stderr before the wait: ``compiling kernels for
    {what} (first use; cached in DIR)``. Nested uses print that line once. (Outside, the
    first compile of the process says so without naming the feature: see
    :mod:`nqueens_numba._kernels`.)
    """
    if not enabled or getattr(_kernels.notice, "active", False):
        yield
        return
    from numba.core import event

    class Notice(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said and _kernels.is_ours(ev):
                self.said = True
                _kernels.said_compiling()
                from tqdm.auto import tqdm  # (a bar is on: print above it)

                tqdm.write(f"nqueens_numba: compiling kernels for {what} (first use; cached "
                           f"in {_kernels.cache_of(ev)})", file=sys.stderr)

        def on_end(self, ev):
            pass

    _kernels.notice.active = True
    try:
        with event.install_listener("numba:compile", Notice()):
            yield
    finally:
        _kernels.notice.active = False


def compile_first(call, what, notice=True):
    """Run ``call()``, a kernel call on empty input, before a progress bar starts, so that
    its kernels are compiled (or loaded from numba's cache) now and the bar's rate and ETA
    measure work only; within :func:`compiling_notice` (when ``notice``)."""
    with compiling_notice(notice, what):
        call()


def _pool(n_threads):
    return ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="nqueens")


# --------------------------------------------------------------------------- counting


class Tracker:
    """The results of a split's subproblems as they finish: slots, searches in progress,
    checkpoint, progress bar.

    Parameters
    ----------
    split : nqueens_numba._split.Split
    checkpoint : str or os.PathLike, optional
        Resume from this file (the subproblems it records as finished are not run again,
        those in progress go on from their saved stacks) and record progress to it (see
        :mod:`nqueens_numba.checkpoint`).
    progress : bool
        Show a ``tqdm.auto`` progress bar of subproblems (finished ones, and the estimated
        share done of those in progress).
    save_every : float, optional
        Most seconds between two writes of the checkpoint (``config.CHECKPOINT_SECONDS`` by
        default).
    where : str
        Says where the count runs, in the progress bar and messages (``" on Dask"``).

    Attributes
    ----------
    results : numpy.ndarray, shape (n_states, split.width), dtype int64
        One slot per subproblem: its results once finished; while its search is in
        progress, what its finished pieces counted.
    pending : numpy.ndarray, shape (n_pending,), dtype int64
        The subproblems not started, in a fixed shuffled order (neighbouring subproblems
        cost alike, so that progress and its ETA are even).
    resumed : list of (int, nqueens_numba._split.Piece)
        The pieces in progress read from the checkpoint, with their keys: run them first.

    Threads report to it under :attr:`lock`: :meth:`finish` for subproblems counted in one
    go, :meth:`add`, :meth:`update` and :meth:`finish_piece` for pieces in progress. Use it
    as a context manager: leaving it saves the checkpoint and closes the bar.
    """

    def __init__(self, split, checkpoint=None, progress=False, save_every=None, where=""):
        n_states = len(split.states)
        self.split = split
        self.n = split.n
        self.where = where
        self.save_every = config.CHECKPOINT_SECONDS if save_every is None else save_every
        self.results = np.zeros((n_states, split.width), dtype=np.int64)
        self.done = np.zeros(n_states, dtype=bool)
        self.live = np.zeros(n_states, dtype=np.int64)  # pieces in progress per subproblem
        self.pieces = {}  # key: snapshot of a piece in progress
        self.resumed = []
        self.lock = threading.RLock()
        self._keys = itertools.count()
        self.checkpoint = None
        if checkpoint is not None:
            self.checkpoint = Checkpoint(checkpoint, split.checkpoint_id, split.width)
            try:
                self._resume(self.checkpoint)
                self.save()  # the file exists (for status) from the start
            except BaseException:
                self.checkpoint.close()
                raise
        order = np.random.default_rng(config.SHUFFLE_SEED).permutation(n_states)
        self.pending = order[~self.done[order] & (self.live[order] == 0)]
        self.bar = None
        self._shown = self.position()
        if progress:
            self.bar = progress_bar(n_states, self._shown, f"count n={self.n}{where}",
                                    bar_format=COUNT_BAR_FORMAT)
        self._last_save = self._last_draw = time.monotonic()

    def _resume(self, checkpoint):
        job = self.split.job
        for index, counts in checkpoint.finished.items():
            self.results[index] = counts
            self.done[index] = True
        for index, (settled, pieces) in checkpoint.in_progress.items():
            self.results[index] = settled
            loaded = []
            for level, partial, stack in pieces:
                piece = job.piece(index)
                if level <= job.max_level:
                    piece.level[0] = level
                    piece.partial[:] = partial
                    piece.stack[:level + 1] = stack
                if level > job.max_level or not job.check_piece(self.split.states[index],
                                                                piece):
                    raise checkpoint._damaged(f"subproblem {index}: a saved stack is no "
                                              f"position of its search")
                loaded.append(piece)
            if _split.pieces_overlap(loaded):
                raise checkpoint._damaged(f"subproblem {index}: its saved searches overlap")
            if any(sum(int(p.partial[k]) for p in loaded) + int(settled[k]) > 2**62
                   for k in range(len(settled))):
                raise checkpoint._damaged(f"subproblem {index}: counts too large")
            for piece in loaded:
                self.resumed.append((self.add(piece), piece))

    def finish(self, index, out):
        """Record the results ``out``, ``(len(index), width)``, of subproblems ``index``
        counted in one go."""
        with self.lock:
            self.results[index] = np.asarray(out).reshape(len(index), -1)
            self.done[index] = True
            if self.checkpoint is not None:
                for i in index:
                    self.checkpoint.record(i, self.results[i])

    def add(self, piece):
        """Record a new piece in progress (a copy of it); returns its key."""
        with self.lock:
            key = next(self._keys)
            self.pieces[key] = piece.copy()
            self.live[piece.index] += 1
            return key

    def update(self, key, piece):
        """Record how far piece ``key`` has come (a copy of it)."""
        with self.lock:
            self.pieces[key] = piece.copy()

    def finish_piece(self, key, counts):
        """Record the results ``counts``, ``(width,)``, of piece ``key``, now finished; its
        subproblem is finished with its last piece."""
        with self.lock:
            index = self.pieces.pop(key).index
            self.results[index] += np.asarray(counts, dtype=np.int64).reshape(-1)
            self.live[index] -= 1
            if self.live[index] == 0:
                self.done[index] = True
                if self.checkpoint is not None:
                    self.checkpoint.record(index, self.results[index])

    def report(self, indices, key, counts, done, piece):
        """Record one kernel call (or Dask task) on subproblems ``indices`` in order: the
        first from piece ``key`` (``None``: not started before), ``counts[:done]`` their
        results; when ``done < len(indices)``, ``piece`` is the cursor on
        ``indices[done]``. Returns the key of the piece in progress after it, or ``None``."""
        with self.lock:
            if done:
                first = 0
                if key is not None:  # the piece being continued is finished
                    self.finish_piece(key, counts[0])
                    key, first = None, 1
                if done > first:
                    self.finish(indices[first:done], counts[first:done])
            if done < len(indices):
                piece.index = int(indices[done])
                if piece.started:
                    if key is None:
                        key = self.add(piece)
                    else:
                        self.update(key, piece)
            return key

    def _in_progress(self):
        """Subproblems in progress: ``{index: [piece, ...]}``; under the lock."""
        going = {}
        for piece in self.pieces.values():
            going.setdefault(piece.index, []).append(piece)
        return going

    def position(self):
        """Subproblems done: the finished ones, and the estimated share done of those in
        progress (float)."""
        with self.lock:
            going = self._in_progress()
            return int(self.done.sum()) + sum(
                max(0.0, 1.0 - sum(self.split.remaining(p) for p in pieces))
                for pieces in going.values())

    def save(self):
        """Write the checkpoint now, with the searches in progress."""
        if self.checkpoint is None:
            return
        with self.lock:
            going = self._in_progress()
            counted = self.results.copy()
            for pieces in going.values():
                for piece in pieces:
                    counted[piece.index] += piece.partial
            record = [(index, self.results[index],
                       [(int(p.level[0]), p.partial, p.stack[:int(p.level[0]) + 1])
                        for p in pieces])
                      for index, pieces in going.items()]
            total = len(self.done)
            self.checkpoint.progress(record, self.split.partial_count(counted),
                                     self.position() / total if total else 1.0)
            snapshot = self.checkpoint.snapshot()
        try:
            self.checkpoint.save(snapshot)  # the threads go on meanwhile
        except OSError as exc:
            raise CheckpointError(f"checkpoint {self.checkpoint.path!r}: cannot write it "
                                  f"({exc.strerror or exc}); the count stops with the work "
                                  f"since its last save lost") from None

    def tick(self):
        """Save the checkpoint and redraw the bar when they are due."""
        now = time.monotonic()
        if self.checkpoint is not None and now - self._last_save >= self.save_every:
            self.save()
            self._last_save = now
        if self.bar is not None and now - self._last_draw >= 0.5:
            self.draw()
            self._last_draw = now

    def draw(self):
        """Show the subproblems done on the bar: the finished ones and the estimated share
        done of those in progress (never less than shown before)."""
        shown = max(self._shown, self.position())
        if shown > self._shown:
            self.bar.update(shown - self._shown)
            self._shown = shown
        else:
            self.bar.refresh()

    def interrupted(self):
        """The ``KeyboardInterrupt`` to raise: how far the count got, and how to resume."""
        going = len(self._in_progress())
        message = (f"count of n={self.n}{self.where} interrupted after {int(self.done.sum())} "
                   f"of {len(self.done)} subproblems")
        if going:
            message += f" ({going} more in progress)"
        if self.checkpoint is not None:
            self.save()
            message += (f"; progress saved to {self.checkpoint.path!r}: call again with it to "
                        f"resume")
        return KeyboardInterrupt(message)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            self.save()
        finally:
            if self.checkpoint is not None:
                self.checkpoint.close()
            if self.bar is not None:
                if exc[0] is None:
                    self.draw()
                self.bar.close()


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
        When interrupted: the running kernels return at their next budget check (about
        ``config.COUNT_BUDGET`` steps, a tenth of a second), the searches in progress and
        the checkpoint are saved, and the exception says how far the count got.
    nqueens_numba.checkpoint.CheckpointError
        If the checkpoint file is damaged or belongs to another count.
    """
    if split.direct and not progress and checkpoint is None:
        return split.job(split.states)
    job = split.job
    # Compiled (or loaded) here, where Ctrl-C can stop it, and before any bar starts.
    compile_first(lambda: job.run(split.states[:0], job.piece(0), 1), "count", progress)
    with Tracker(split, checkpoint, progress, save_every) as tracker:
        _run_pool(split, n_threads, tracker)
    return tracker.results


class _Work:
    """What the threads of a local count share, under one condition: the subproblems not
    started (in the tracker's order, and those a thread gave back), the pieces waiting to be
    continued, and how many threads are busy or idle."""

    def __init__(self, pending, waiting, n_threads):
        self.cond = threading.Condition()
        self.pending = pending
        self.next = 0
        self.returned = deque()
        self.waiting = deque(waiting)
        self.busy = n_threads
        self.idle = 0
        self.batch = 1
        self.stopped = False
        self.error = None
        self.ended = threading.Event()

    def take(self):
        """The next work of a thread: ``(key, piece)`` of a piece to continue, or
        ``(None, indices)`` of subproblems to start; ``(None, None)`` when there is none
        left (or the count stops)."""
        with self.cond:
            self.busy -= 1
            while not self.stopped:
                if self.waiting:
                    self.busy += 1
                    return self.waiting.popleft()
                if self.returned:
                    self.busy += 1
                    k = min(self.batch, len(self.returned))
                    return None, np.array([self.returned.popleft() for _ in range(k)])
                if self.next < len(self.pending):
                    self.busy += 1
                    batch = self.pending[self.next:self.next + self.batch]
                    self.next += len(batch)
                    return None, batch
                if self.busy == 0:  # nothing left anywhere: the count is done
                    self.ended.set()
                    self.cond.notify_all()
                    break
                self.idle += 1
                self.cond.wait(0.05)
                self.idle -= 1
            return None, None

    def wanted(self):
        """Whether a thread waits for work that nobody queued (read without the lock: a
        hint)."""
        return (self.idle > 0 and not self.waiting and not self.returned
                and self.next >= len(self.pending))

    def give(self, entry=None, fresh=()):
        """Queue a piece ``(key, piece)`` to continue, or subproblems to start first."""
        with self.cond:
            if entry is not None:
                self.waiting.append(entry)
            self.returned.extendleft(int(i) for i in reversed(fresh))
            self.cond.notify_all()

    def measured(self, seconds, states):
        """Size the next batches from a kernel call that finished ``states`` subproblems:
        about ``config.TASK_SECONDS`` of work (at most 4096 subproblems)."""
        per_state = max(seconds / states, 1e-9)
        self.batch = int(min(max(1, config.TASK_SECONDS / per_state), 4096))

    def stop(self, error=None):
        with self.cond:
            if error is not None and self.error is None:
                self.error = error
            self.stopped = True
            self.cond.notify_all()
        self.ended.set()


def _count_worker(split, tracker, work, budget):
    """One thread of a local count: take work until there is none left or the count stops."""
    job = split.job
    try:
        while True:
            key, work_item = work.take()
            if work_item is None:
                return
            if key is None:  # subproblems to start
                indices, piece = work_item, job.piece(work_item[0])
            else:  # a piece to continue
                indices, piece = np.array([work_item.index]), work_item
            _count_pieces(split, job, tracker, work, budget, indices, key, piece)
    except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
        work.stop(exc)


def _count_pieces(split, job, tracker, work, budget, indices, key, piece):
    """Run subproblems ``indices`` in order, the first one from ``piece`` (of key ``key``,
    or not started), one kernel call of ``budget`` steps at a time; after each call report
    to the tracker, stop if the count stops, and share work with idle threads."""
    states = np.ascontiguousarray(split.states[indices])  # copied once; views below
    pos = 0
    while pos < len(indices) and not work.stopped:
        start = time.perf_counter()
        counts, done = job.run(states[pos:len(indices)], piece, budget)
        if done:
            work.measured(time.perf_counter() - start, done)
        key = tracker.report(indices[pos:], key, counts, done, piece)
        pos += done
        if pos == len(indices):
            break
        if work.wanted():
            rest = indices[pos + 1:]
            if len(rest):  # subproblems not started: give them back
                indices = indices[:pos + 1]
                work.give(fresh=rest)
            elif piece.started:  # split the search in progress
                with tracker.lock:
                    new = piece.split()
                    if new is not None:
                        tracker.update(key, piece)
                        entry = (tracker.add(new), new)
                if new is not None:
                    work.give(entry)


def _join(threads):
    """Wait for stopped threads (one kernel call, a tenth of a second at most); a second
    Ctrl-C meanwhile does not cut the stop short, so that the searches in progress are
    saved and the message says how far the count got."""
    for thread in threads:
        while thread.is_alive():
            try:
                thread.join()
            except KeyboardInterrupt:
                continue


def _run_pool(split, n_threads, tracker, budget=None):
    """The scheduler of a local count: run the tracker's work on ``n_threads`` threads.

    Each thread takes subproblems not started (a batch sized to about
    ``config.TASK_SECONDS`` of work) or a piece in progress, and runs them one kernel call
    of ``budget`` steps (``config.COUNT_BUDGET``, about 0.1 s) at a time. After each call it
    reports finished subproblems and its search in progress to the tracker; when another
    thread is idle and nothing is queued, it gives back the subproblems it has not started,
    or splits its search in two (:meth:`~nqueens_numba._split.Piece.split`), so that no
    thread idles while work is left, at any board size. The calling thread saves the
    checkpoint and redraws the bar meanwhile; on Ctrl-C it stops the threads (each within
    one kernel call), saves the searches in progress and raises
    :meth:`Tracker.interrupted`. The threads are daemon threads: nothing waits for them at
    interpreter exit.
    """
    budget = config.COUNT_BUDGET if budget is None else budget
    work = _Work(tracker.pending, tracker.resumed, n_threads)
    threads = [threading.Thread(target=_count_worker, args=(split, tracker, work, budget),
                                name=f"nqueens-count-{k}", daemon=True)
               for k in range(n_threads)]
    for thread in threads:
        thread.start()
    try:
        while not work.ended.wait(0.25):
            tracker.tick()
    except KeyboardInterrupt:
        work.stop()
        _join(threads)
        raise tracker.interrupted() from None
    finally:
        work.stop()
        _join(threads)
    if isinstance(work.error, KeyboardInterrupt):
        raise tracker.interrupted() from None
    if work.error is not None:
        raise work.error


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
    variant : int, optional
        The board (``_kernels.TORUS``, ``_kernels.KNIGHT``; 0: plain queens), searched by
        the kernel ``_fill_variant_rows`` (without constraints).
    """

    def __init__(self, n, state, depth, allow=None, variant=0):
        self.n = n
        self.depth = depth
        self.allow = allow
        self.variant = variant
        self.stack = np.empty((n, 4), dtype=np.int64)
        self.queens = np.empty(n, dtype=np.int8)
        self.level = np.empty(1, dtype=np.int64)
        _kernels._start_cursor(n, state, depth, self.stack, self.queens, self.level)
        if allow is not None:
            self.stack[depth, 0] &= allow[depth]
        if variant & _kernels.KNIGHT and depth >= 1:  # the knights of the prefix's last rows
            above = 1 << int(state[3 + depth - 1])
            higher = 1 << int(state[3 + depth - 2]) if depth >= 2 else 0
            self.stack[depth, 0] &= ~((above << 2) | (above >> 2) | (higher << 1)
                                      | (higher >> 1))

    @property
    def done(self):
        """Whether every solution of the subproblem has been written."""
        return self.level[0] < self.depth

    def fill(self, out):
        """Write the next solutions into ``out`` (``(k, n)`` int8, at least
        ``TAIL_SOLUTIONS`` rows for speed); return how many. One kernel call: it also returns
        after ``config.STEP_BUDGET`` squares tried, so that callers can stop in between."""
        if self.variant:
            return _kernels._fill_variant_rows(self.n, self.depth, self.stack, self.queens,
                                               self.level, out, config.STEP_BUDGET,
                                               self.variant)
        if self.allow is None:
            return _kernels._fill_solutions(self.n, self.depth, self.stack, self.queens,
                                            self.level, out, config.STEP_BUDGET)
        return _kernels._fill_rows(self.n, self.depth, self.stack, self.queens, self.level,
                                   out, config.STEP_BUDGET, self.allow)


def solutions_bar(progress, what, n, total, state=None, depth=0, allow=None, unit="solution",
                  variant=0):
    """The bar of an enumeration: ``total`` solutions (``None`` if unknown) of ``n``; a bar
    that shows nothing unless ``progress``.

    Before it starts, the enumeration kernels of subproblem ``state`` (``depth`` rows; the
    whole board by default) are compiled or loaded (:func:`compile_first`) by a call that
    writes nothing, so that the rate counts work only. ``unit="subproblem"`` counts
    subproblems instead.
    """
    if progress and depth < n:
        root = np.zeros(3, dtype=np.int64) if state is None else state
        compile_first(lambda: Cursor(n, root, depth, allow, variant).fill(
            np.empty((0, n), dtype=np.int8)), what)
    return progress_bar(total, 0, f"{what} n={n}", unit=unit, disable=not progress)


def _state_blocks(n, state, depth, stop, first_rows, max_rows, allow=None, variant=0):
    """The solutions of one subproblem, in order, as ``(k, n)`` int8 blocks (a generator).

    Blocks start at ``first_rows`` rows and double up to ``max_rows``; the search stops
    between two kernel calls once ``stop`` is set.
    """
    if depth == n:  # the prefix is a complete solution
        yield state[None, 3:].astype(np.int8)
        return
    cursor = Cursor(n, state, depth, allow, variant)
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
                   queued_blocks=0, allow=None, variant=0):
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
    variant : int, optional
        The board of a variant (see :class:`Cursor`).

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
                                       allow, variant):
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


def run_chunks(n_threads, fn, n_chunks, fold, size=None, bar=None):
    """Run ``fn(c)`` for ``c`` in ``range(n_chunks)`` on ``n_threads`` daemon threads that
    take the next chunk as they finish one, and hand each result to ``fold(c, result)`` in
    chunk order, in the calling thread (so that sums of floats do not depend on the
    threads).

    Parameters
    ----------
    n_threads : int
    fn : callable
        ``fn(c, stop)`` runs chunk ``c`` (kernel calls that release the GIL, a tenth of a
        second at most each) and returns its result; a chunk of several calls gives up,
        returning anything, once ``stop`` (a ``threading.Event``) is set between them.
    n_chunks : int
    fold : callable
        ``fold(c, result)``, called for ``c = 0, 1, ...`` in order; results that finish out
        of order wait for their turn (a few per thread).
    size : callable, optional
        ``size(c)``: the work of chunk ``c`` in the unit of ``bar`` (default 1).
    bar : tqdm.tqdm, optional
        Advanced by ``size(c)`` when chunk ``c`` is folded.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C: the threads stop after the kernel call they are running; no more results
        are folded.
    """
    lock = threading.Lock()
    ready = {}
    state = {"next": 0, "error": None}
    stop = threading.Event()
    wake = threading.Event()
    threads = [None] * max(1, min(n_threads, n_chunks))
    running = [len(threads)]

    def work():
        try:
            while not stop.is_set():
                with lock:
                    c = state["next"]
                    if c >= n_chunks:
                        break
                    state["next"] = c + 1
                result = fn(c, stop)
                with lock:
                    ready[c] = result
                wake.set()
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            with lock:
                state["error"] = state["error"] or exc
            stop.set()
        finally:
            with lock:
                running[0] -= 1
            wake.set()

    threads = [threading.Thread(target=work, name=f"nqueens-chunks-{k}", daemon=True)
               for k in range(len(threads))]
    for thread in threads:
        thread.start()
    folded = 0
    try:
        while folded < n_chunks and state["error"] is None:
            wake.wait(0.1)
            wake.clear()
            while True:
                with lock:
                    result = ready.pop(folded, None) if folded in ready else None
                    found = result is not None
                if not found:
                    break
                fold(folded, result)
                if bar is not None:
                    bar.update(1 if size is None else size(folded))
                folded += 1
            if running[0] == 0 and folded < n_chunks and not ready:
                break  # (the threads ended early: an error)
    except KeyboardInterrupt:
        stop.set()
        _join(threads)
        raise
    finally:
        stop.set()
        _join(threads)
    if state["error"] is not None:
        raise state["error"]
