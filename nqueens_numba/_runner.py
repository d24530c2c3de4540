"""How to run a count's split locally, and the tracker every executor reports to.

* :class:`Tracker`: result slots, searches in progress, checkpoint, progress bar and the
  interruption message of one count; every executor (local threads, Dask, a GPU) reports
  to it.
* :class:`LocalThreads`: the executor of a split on this machine's threads. Threads take
  batches of subproblems as they finish the previous ones (dynamic scheduling, unlike
  ``prange``'s fixed blocks), which keeps every thread busy to the end and gives the calling
  thread the moments it needs between batches: to draw a progress bar, to save a
  checkpoint, and to stop promptly on Ctrl-C.
* :func:`run_split`: the results of a split, run by :class:`LocalThreads`.

An executor implements ``run(split, tracker)`` (and may implement ``load(split, progress)``,
which compiles its kernels before the count starts): it runs the subproblems the tracker has
pending (``tracker.pending``) and the searches in progress it resumed
(``tracker.resumed``), reports each kernel call to it (:meth:`Tracker.report`), calls
:meth:`Tracker.tick` now and then, and on Ctrl-C raises :meth:`Tracker.interrupted`. It
never re-decides the split: :func:`nqueens_numba._split.plan_count` made it.
"""
import itertools
import threading
import time
from collections import deque

import numpy as np

from . import _kernels, config
from ._pieces import pieces_overlap
from ._pool import Crew
from ._progress import COUNT_BAR_FORMAT, compile_first, progress_bar
from .checkpoint import Checkpoint, CheckpointError

__all__ = ["LOST", "Tracker", "LocalThreads", "run_split", "execute", "load_kernel"]

#: A local count's kernel call takes ``config.COUNT_BUDGET`` steps, or ends after this
#: fraction of them when another thread waits for part of its search (``_Work._signal``).
DRAINING = 16

#: What an interrupted count without a checkpoint says it lost, and how not to.
LOST = "the work done is lost: count with checkpoint=FILE to be able to resume"


# --------------------------------------------------------------------------- counting


class Tracker:
    """The results of a split's subproblems as they finish: slots, searches in progress,
    checkpoint, progress bar.

    Parameters
    ----------
    split : nqueens_numba._split.Split
    checkpoint : nqueens_numba.checkpoint.Checkpoint, optional
        Resume from this file, open and locked (the subproblems it records as finished are
        not run again, those in progress go on from their saved stacks), record progress to
        it and close it (see :mod:`nqueens_numba.checkpoint`).
    progress : bool
        Show a ``tqdm.auto`` progress bar of subproblems (finished ones, and the estimated
        share done of those in progress).
    save_every : float, optional
        Most seconds between two writes of the checkpoint (``config.CHECKPOINT_SECONDS`` by
        default).
    where : str
        Says where the count runs, in the progress bar and messages (``" on Dask"``).
    resumable : bool
        Whether the caller takes a checkpoint, which an interruption without one suggests.
    verify : callable, optional
        ``verify(results)`` once every subproblem is counted, before the checkpoint is saved
        complete (at the end, at a periodic save, or on an interruption): an exception it
        raises puts the checkpoint file back as it was when opened (counts that do not add
        up are never saved as a finished count), and is raised.

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

    def __init__(self, split, checkpoint=None, progress=False, save_every=None, where="",
                 resumable=True, verify=None):
        n_states = len(split.states)
        self.split = split
        self.job = split.job
        self.n = split.n
        self.where = where
        self.resumable = resumable
        self.verify = verify
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
            self.checkpoint = checkpoint
            try:
                self._resume(self.checkpoint)
                self.save()  # the file exists (for status) from the start
            except BaseException:
                self.checkpoint.close()
                raise
        order = np.random.default_rng(config.SHUFFLE_SEED).permutation(n_states)
        self.pending = order[~self.done[order] & (self.live[order] == 0)]
        self.bar = None
        self._shown = self.position() if progress or checkpoint is not None else 0
        if progress and n_states:  # (no subproblems, as for n = 2 and 3: nothing to show)
            self.bar = progress_bar(n_states, self._shown, f"count n={self.n}{where}",
                                    bar_format=COUNT_BAR_FORMAT)
        self._last_save = self._last_draw = time.monotonic()

    def _resume(self, checkpoint):
        job = self.job
        for index, counts in checkpoint.finished.items():
            self.results[index] = counts
            self.done[index] = True
        loaded = {}

        def check(index, settled, pieces):
            found = loaded[index] = []
            for level, partial, stack in pieces:
                saved = job.piece(index)
                if level > job.max_level:
                    return "a saved stack is no position of its search"
                saved.level[0] = level
                saved.partial[:] = partial
                saved.stack[:level + 1] = stack
                if not job.check_piece(self.split.states[index], saved):
                    return "a saved stack is no position of its search"
                found.append(saved)
            if pieces_overlap(found):
                return "its saved searches overlap"
            if any(sum(int(p.partial[k]) for p in found) + int(settled[k]) > 2**62
                   for k in range(len(settled))):
                return "counts too large"
            return None

        checkpoint.check_in_progress(check)
        for index, (settled, _) in checkpoint.in_progress.items():
            self.results[index] = settled
            for piece in loaded[index]:
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

    def report(self, indices, key, counts, done, search):
        """Record one kernel call (or Dask task) on subproblems ``indices`` in order: the
        first from search ``key`` (``None``: not started before), ``counts[:done]`` their
        results; when ``done < len(indices)``, ``search`` is the cursor on
        ``indices[done]``. Returns the key of the search in progress after it, or ``None``."""
        with self.lock:
            if done:
                first = 0
                if key is not None:  # the search being continued is finished
                    self.finish_piece(key, counts[0])
                    key, first = None, 1
                if done > first:
                    self.finish(indices[first:done], counts[first:done])
            if done < len(indices):
                search.index = int(indices[done])
                if search.started:
                    if key is None:
                        key = self.add(search)
                    else:
                        self.update(key, search)
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
                max(0.0, 1.0 - sum(self.job.remaining(self.split.states[p.index], p)
                                   for p in pieces))
                for pieces in going.values())

    def save(self):
        """Write the checkpoint now, with the searches in progress (a complete count once
        ``verify`` accepts its results: see the class's docstring)."""
        if self.checkpoint is None:
            return
        with self.lock:
            if self.verify is not None and self.done.all():
                try:
                    self.verify(self.results)
                except BaseException:
                    self.checkpoint.restore()
                    raise
                self.verify = None  # (accepted: the results of a finished count are final)
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
        done = int(self.done.sum())
        message = (f"count of n={self.n}{self.where} interrupted after {done} of "
                   f"{len(self.done)} subproblems" if done < len(self.done) else
                   f"count of n={self.n}{self.where} interrupted once all {done} subproblems "
                   f"were counted")
        if going:
            message += f" ({going} more in progress)"
        if self.checkpoint is not None:
            self.save()
            message += (f"; progress saved to {self.checkpoint.path!r}: call again with the "
                        f"same arguments to resume")
        elif done == len(self.done):  # (nothing lost but the answer)
            message += ", before its result was returned"
        elif self.resumable:
            message += "; " + LOST
        else:  # (symmetry_classes, first_row_counts: no checkpoint to suggest)
            message += "; nothing is returned"
        return KeyboardInterrupt(message)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close(exc[0] is None)

    def close(self, finished=True):
        """Save the checkpoint (with the searches in progress), release it, and close the
        bar, drawn once more to show where the count ended (``finished`` or not)."""
        try:
            if self.checkpoint is not None:
                self.save()
        finally:
            if self.checkpoint is not None:
                self.checkpoint.close()
            if self.bar is not None:
                self.draw()
                self.bar.close()


def execute(split, executor, *, progress=False, checkpoint=None, save_every=None,
            resumable=True, verify=None):
    """Results of every subproblem of ``split``, run by ``executor`` (see the module's
    docstring) and reported to a :class:`Tracker`.

    Parameters
    ----------
    split : nqueens_numba._split.Split
    executor : LocalThreads, or another executor
    progress, checkpoint, save_every
        As in :class:`Tracker`. A ``split.direct`` split without them runs in one kernel
        call in this thread.
    resumable : bool, optional
        Whether the caller takes a checkpoint, which an interruption then suggests.
    verify : callable, optional
        As in :class:`Tracker`.

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
    job = split.job
    kernel = (split.method, split.board.flag, job.constrained)
    if split.direct and not progress and checkpoint is None:
        if kernel in _kernels.loaded_counts:
            results = job(split.states)
        else:  # (it may compile the kernel)
            results = _kernels.apart(lambda: job(split.states))
        _kernels.loaded_counts.add(kernel)
        return results
    # A checkpoint of another count, or one that cannot be written, is refused before
    # anything compiles.
    opened = None if checkpoint is None else Checkpoint(checkpoint, split.checkpoint_id,
                                                        split.width)
    try:
        getattr(executor, "load", load_kernel)(split, progress)
    except BaseException as exc:
        if opened is not None:
            opened.close()
        if isinstance(exc, KeyboardInterrupt):
            raise KeyboardInterrupt(
                f"count of n={split.n}{executor.where} interrupted before it started, while "
                f"its kernels were compiled or loaded from the cache: nothing was counted or "
                f"saved (a compile goes on in the background of this process: the next count "
                f"finds it done; warmup() or nqueens warmup compiles every kernel once)"
            ) from None
        raise
    tracker = Tracker(split, opened, progress, save_every, executor.where, resumable, verify)
    finished = False
    try:
        executor.run(split, tracker)
        finished = True
    finally:
        tracker.close(finished)
    return tracker.results


def load_kernel(split, progress=False):
    """Compile (or load) the CPU kernel of ``split`` here, where Ctrl-C can stop it, and
    before any bar starts: once per kernel and process (a warm count does not ask again:
    ``_kernels.loaded_counts``). An executor with a ``load(split, progress)`` method loads
    its own kernels instead."""
    job = split.job
    kernel = (split.method, split.board.flag, job.constrained)
    if progress or kernel not in _kernels.loaded_counts:
        compile_first(lambda: job.run(split.states[:0], job.piece(0), 1), "count", progress)
        _kernels.loaded_counts.add(kernel)


def run_split(split, n_threads, *, progress=False, checkpoint=None, save_every=None):
    """:func:`execute` on this machine's threads (:class:`LocalThreads`)."""
    return execute(split, LocalThreads(n_threads), progress=progress, checkpoint=checkpoint,
                   save_every=save_every)


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
        self.signal = np.zeros(1, dtype=np.int64)  # see _signal
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
                self._signal()
                self.cond.wait(0.05)
                self.idle -= 1
                self._signal()
            return None, None

    def draining(self):
        """Whether every subproblem has been handed out and nothing waits in the queues
        (read without the lock: a hint)."""
        return not self.waiting and not self.returned and self.next >= len(self.pending)

    def _signal(self):
        """Set :attr:`signal` (under the lock): kernel calls end early when the count stops,
        or a thread waits for work nobody queued (after ``COUNT_BUDGET // DRAINING`` steps
        at least: a search too small to split is not stopped at every step)."""
        if self.stopped:
            self.signal[0] = 1
        elif self.idle > 0 and self.draining():
            self.signal[0] = max(config.COUNT_BUDGET // DRAINING, 1)
        else:
            self.signal[0] = 0

    def wanted(self):
        """How many threads wait for work that nobody queued (read without the lock: a
        hint)."""
        return self.idle if self.idle > 0 and self.draining() else 0

    def give(self, entry=None, fresh=()):
        """Queue a piece ``(key, piece)`` to continue, or subproblems to start first."""
        with self.cond:
            if entry is not None:
                self.waiting.append(entry)
            self.returned.extendleft(int(i) for i in reversed(fresh))
            self._signal()
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
            self._signal()
            self.cond.notify_all()
        self.ended.set()


def _count_worker(split, tracker, work, budget):
    """One thread of a local count: take work until there is none left or the count stops."""
    job = tracker.job
    try:
        while True:
            key, work_item = work.take()
            if work_item is None:
                return
            if key is None:  # subproblems to start
                indices, search = work_item, job.piece(work_item[0])
            else:  # a search to continue
                indices, search = np.array([work_item.index]), work_item
            _count_pieces(split, job, tracker, work, budget, indices, key, search)
    except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
        work.stop(exc)


def _count_pieces(split, job, tracker, work, budget, indices, key, search):
    """Run subproblems ``indices`` in order, the first one from ``search`` (of key ``key``,
    or not started), one kernel call of ``budget`` steps at a time; after each call report
    to the tracker, stop if the count stops, and share work with idle threads."""
    states = np.ascontiguousarray(split.states[indices])  # copied once; views below
    pos = 0
    while pos < len(indices) and not work.stopped:
        start = time.perf_counter()
        counts, done = job.run(states[pos:len(indices)], search, budget, work.signal)
        if done:
            work.measured(time.perf_counter() - start, done)
        key = tracker.report(indices[pos:], key, counts, done, search)
        pos += done
        if pos == len(indices):
            break
        idle = work.wanted()
        if idle:
            rest = indices[pos + 1:]
            if len(rest):  # subproblems not started: give them back
                indices = indices[:pos + 1]
                work.give(fresh=rest)
            elif search.started:  # split the search in progress, once per idle thread
                with tracker.lock:
                    given = []
                    for _ in range(idle):
                        new = search.split()
                        if new is None:
                            break
                        given.append((tracker.add(new), new))
                    if given:
                        tracker.update(key, search)
                for entry in given:
                    work.give(entry)


class LocalThreads:
    """The executor of a split on ``n_threads`` threads of this machine.

    Each thread takes subproblems not started (a batch sized to about
    ``config.TASK_SECONDS`` of work) or a piece in progress, and runs them one kernel call
    of ``budget`` steps (``config.COUNT_BUDGET``, about 0.1 s) at a time. After each call it
    reports finished subproblems and its search in progress to the tracker; when other
    threads are idle and nothing is queued, it gives back the subproblems it has not
    started, or splits its search (:meth:`~nqueens_numba._pieces.Piece.split`) once per idle
    thread, so that no thread idles while work is left, at any board size. An idle thread
    ends the others' calls early (the shared signal of ``_Work._signal``, which the kernels
    read every 1024 steps), so that it waits milliseconds for its share, not a call. The
    calling thread saves the checkpoint and redraws the bar meanwhile; on Ctrl-C it stops
    the threads (their calls end at once, by the same signal), saves the searches in
    progress and raises :meth:`Tracker.interrupted`. The threads are a
    :class:`~nqueens_numba._pool.Crew`.
    """

    where = ""

    def __init__(self, n_threads, budget=None):
        self.threads = n_threads
        self.budget = config.COUNT_BUDGET if budget is None else budget

    def run(self, split, tracker):
        work = _Work(tracker.pending, tracker.resumed, self.threads)
        crew = Crew(self.threads, lambda k, stop: _count_worker(split, tracker, work,
                                                                self.budget), "count")
        try:
            crew.start()
            while not work.ended.wait(0.25):
                tracker.tick()
        except KeyboardInterrupt:
            work.stop()
            crew.join()
            raise tracker.interrupted() from None
        finally:
            work.stop()
            crew.join()
        if isinstance(work.error, KeyboardInterrupt):
            raise tracker.interrupted() from None
        if work.error is not None:
            raise work.error
