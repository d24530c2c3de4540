"""How a count's split is run by an executor, and the tracker every executor reports to.

* :class:`Tracker`: result slots, searches in progress, checkpoint, progress bar and the
  interruption message of one count; every executor (local threads, Dask, a GPU) reports
  to it.
* :func:`execute`: the results of a split, run by an executor and reported to a tracker.
  The executors: :class:`nqueens_numba._threads.LocalThreads` (this machine's threads),
  ``nqueens_numba._gpu`` and ``nqueens_numba.distributed`` (Dask).

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

import numpy as np

from . import _enumerating, _kernels, config
from ._kernels import _loading
from ._pieces import pieces_overlap, row_allow
from ._progress import COUNT_BAR_FORMAT, compile_first, progress_bar
from .checkpoint import Checkpoint, CheckpointError

__all__ = ["LOST", "Tracker", "execute", "load_kernel"]

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
    resumed : list of (int, nqueens_numba._pieces.Piece)
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
        self.keywords = _enumerating.keywords(split.board, split.constraints)
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
        self._last_save = self._last_draw = time.monotonic()
        if progress and n_states:  # (no subproblems, as for n = 2 and 3: nothing to show)
            self.bar = progress_bar(n_states, self._shown, f"count n={self.n}{where}",
                                    bar_format=COUNT_BAR_FORMAT)

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
            return int(self.done.sum()) + sum(self._share_done(pieces)
                                              for pieces in going.values())

    def _share_done(self, pieces):
        """The estimated share done of a subproblem whose searches in progress are
        ``pieces``: summed directly for one (its digits kept where it is tiny), else one
        less their shares ahead (the pieces of a split search each see the others' part
        as done)."""
        state = self.split.states[pieces[0].index]
        if len(pieces) == 1:
            return self.job.done(state, pieces[0])
        return max(0.0, 1.0 - sum(self.job.remaining(state, p) for p in pieces))

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
            lost = ("the work since its last save lost" if self.checkpoint.saved
                    else "nothing saved: the file was never written")
            raise CheckpointError(f"checkpoint {self.checkpoint.path!r}: cannot write it "
                                  f"({exc.strerror or exc}); the count stops with "
                                  f"{lost}") from None

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

    def interrupted(self, why="interrupted"):
        """The ``KeyboardInterrupt`` to raise: how far the count got, and how to resume
        (``why``: how it ended, for another error's message)."""
        going = len(self._in_progress())
        done = int(self.done.sum())
        count = f"count of n={self.n}{self.keywords}{self.where} {why}"
        message = (f"{count} after {done:,} of {len(self.done):,} subproblems"
                   if done < len(self.done) else
                   f"{count} once all {done:,} subproblems were counted")
        if going:
            message += f" ({going:,} more in progress)"
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

    def _save_finished(self):
        """The last save of a finished count. A Ctrl-C that cuts it short (the file keeps
        the save before: it is written whole or not at all) saves it again, and then says
        that the count is done and saved (not "nothing is returned", as it said)."""
        try:
            self.save()
        except KeyboardInterrupt:
            self.save()  # (a second Ctrl-C meanwhile ends it, as the first would have)
            raise KeyboardInterrupt(
                f"count of n={self.n}{self.keywords}{self.where} interrupted as it ended: "
                f"it is finished and saved to {self.checkpoint.path!r}: call again with the "
                f"same arguments for the count") from None

    def close(self, finished=True):
        """Save the checkpoint (with the searches in progress), release it, and close the
        bar, drawn once more to show where the count ended (``finished`` or not)."""
        try:
            if self.checkpoint is not None and finished:
                self._save_finished()
            elif self.checkpoint is not None:
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
    executor : nqueens_numba._threads.LocalThreads, or another executor
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
    kernel = job.kernel
    if split.direct and not progress and checkpoint is None:
        if _kernels.is_loaded(*kernel):
            results = job(split.states)
        else:  # (it may compile the kernel)
            results = _loading.apart(lambda: job(split.states))
        _kernels.mark_loaded(*kernel)
        return results
    opened = tracker = None
    stage, finished = "open", False
    try:  # (one block: whatever stops it, a Ctrl-C anywhere too, releases the checkpoint)
        # A checkpoint of another count, or one that cannot be written, is refused before
        # anything compiles.
        if checkpoint is not None:
            opened = Checkpoint(checkpoint, split.checkpoint_id, split.width)
        stage = "load"
        getattr(executor, "load", load_kernel)(split, progress)
        stage = "track"
        tracker = Tracker(split, opened, progress, save_every, executor.where, resumable,
                          verify)
        stage = "run"
        executor.run(split, tracker)
        finished = True
    except KeyboardInterrupt:
        if stage != "load":
            raise
        raise KeyboardInterrupt(
            f"count of n={split.n}{_enumerating.keywords(split.board, split.constraints)}"
            f"{executor.where} interrupted "
            f"before it started, while its kernels were compiled or loaded from the "
            f"cache: nothing was counted or saved (a compile goes on in the background of "
            f"this process: the next count finds it done, or waits for what is left; "
            f"warmup() or nqueens warmup compiles every kernel once)"
        ) from None
    finally:
        if tracker is not None:
            tracker.close(finished)
        elif opened is not None:
            opened.close()
    return tracker.results


def load_kernel(split, progress=False):
    """Compile (or load) the CPU kernel of ``split`` here, where Ctrl-C can stop it, and
    before any bar starts: once per kernel and process (a warm count does not ask again:
    ``_kernels.is_loaded``). An executor with a ``load(split, progress)`` method loads
    its own kernels instead."""
    job = split.job
    kernel = job.kernel
    # (a search left in progress reads its rows: not by the kernel that searches states whole)
    symmetric = job.method == "symmetric" and not job.first and len(split.states)

    def first_calls():
        job.run(split.states[:0], job.piece(0), 1)
        if symmetric:  # its rows, which the shares done of the bar and checkpoint read
            row_allow(job, split.states[0])

    rows_ready = not symmetric or _kernels.is_ready("symmetric_allow")
    if progress or not _kernels.is_loaded(*kernel) or not rows_ready:
        compile_first(first_calls, "count", progress)
        _kernels.mark_loaded(*kernel)
