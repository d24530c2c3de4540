"""The executor of a count on this machine's threads.

* :class:`LocalThreads`: threads take batches of subproblems as they finish the previous
  ones (dynamic scheduling, unlike ``prange``'s fixed blocks), which keeps every thread busy
  to the end and gives the calling thread the moments it needs between batches: to draw a
  progress bar, to save a checkpoint, and to stop promptly on Ctrl-C.
* :func:`run_split`: the results of a split, run by :class:`LocalThreads`.

It implements the executor's part described in :mod:`nqueens_numba._runner`, which owns the
tracker every executor reports to.
"""
import threading
import time
from collections import deque

import numpy as np

from . import config
from ._pool import Crew, supervise
from ._runner import execute

__all__ = ["LocalThreads", "run_split"]

#: A local count's kernel call takes ``config.COUNT_BUDGET`` steps, or ends after this
#: fraction of them when another thread waits for part of its search (``_Work._signal``).
DRAINING = 16


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
    of ``config.COUNT_BUDGET`` steps (about 0.1 s) at a time. After each call it
    reports finished subproblems and its search in progress to the tracker; when other
    threads are idle and nothing is queued, it gives back the subproblems it has not
    started, or splits its search (:meth:`~nqueens_numba._pieces.Piece.split`) once per idle
    thread, so that no thread idles while work is left, at any board size. An idle thread
    ends the others' calls early (the shared signal of ``_Work._signal``, which the kernels
    read every 1024 steps), so that it waits milliseconds for its share, not a call. The
    calling thread saves the checkpoint and redraws the bar meanwhile; on Ctrl-C it stops
    the threads (their calls end at once, by the same signal), saves the searches in
    progress and raises :meth:`~nqueens_numba._runner.Tracker.interrupted`. The threads are a
    :class:`~nqueens_numba._pool.Crew`.
    """

    where = ""

    def __init__(self, n_threads):
        self.threads = n_threads

    def run(self, split, tracker):
        work = _Work(tracker.pending, tracker.resumed, self.threads)
        budget = config.COUNT_BUDGET
        crew = Crew(self.threads, lambda k, stop: _count_worker(split, tracker, work, budget),
                    "count")
        supervise(crew, work, tracker.tick, tracker.interrupted)
