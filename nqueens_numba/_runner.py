"""Run a batch kernel over many subproblems on a pool of Python threads.

The kernels release the GIL, so threads run them in parallel. Threads take batches of
subproblems from a shared queue as they finish the previous ones (dynamic scheduling, unlike
``prange``'s fixed blocks), which keeps every thread busy to the end and gives the calling
thread the moments it needs between batches: to draw a progress bar, to save a checkpoint,
and to stop promptly on Ctrl-C. No numba threading layer is involved, so the package is safe
to use from several threads at once and in processes forked after a count.
"""
import hashlib
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np

from . import config
from .checkpoint import Checkpoint

__all__ = ["run_subproblems", "split_id", "progress_bar"]


def progress_bar(total, initial, desc):
    """A ``tqdm.auto`` bar of finished subproblems (a widget in Jupyter, text on stderr)."""
    from tqdm.auto import tqdm

    class Bar(tqdm):
        monitor_interval = 0  # no monitor thread: the callers refresh the bar themselves

    return Bar(total=total, initial=initial, unit="subproblem", desc=desc, mininterval=0.2)


def split_id(n, method, depth, states, results=None):
    """What identifies a split in a checkpoint: JSON-serialisable, hashes the subproblems.

    ``results`` names what each subproblem records when it is more than one count.
    """
    split = {
        "n": int(n),
        "method": method,
        "prefix_depth": int(depth),
        "n_subproblems": int(len(states)),
        "subproblems_sha256": hashlib.sha256(np.ascontiguousarray(states).tobytes()).hexdigest(),
    }
    if results is not None:
        split["results"] = list(results)
    return split


def _timed(kernel, n, batch, depth):
    start = time.perf_counter()
    out = kernel(n, batch, depth)
    return out, time.perf_counter() - start


def resume(n_states, width, checkpoint, split):
    """Start a run of ``n_states`` subproblems, from ``checkpoint`` if given.

    Returns ``(results, done, ckpt, pending)``: the ``(n_states, width)`` int64 result slots
    (filled for the subproblems the checkpoint records), the ``(n_states,)`` bool mask of
    those, the :class:`~nqueens_numba.checkpoint.Checkpoint` (or ``None``) and the indices
    still to run, in a fixed shuffled order (neighbouring subproblems cost alike).
    """
    results = np.zeros((n_states, width), dtype=np.int64)
    done = np.zeros(n_states, dtype=bool)
    ckpt = None
    if checkpoint is not None:
        ckpt = Checkpoint(checkpoint, split, width)
        for index, counts in ckpt.finished.items():
            results[index] = counts
            done[index] = True
    order = np.random.default_rng(config.SHUFFLE_SEED).permutation(n_states)
    return results, done, ckpt, order[~done[order]]


def run_subproblems(kernel, n, states, depth, width, n_threads, *, progress=False,
                    checkpoint=None, split=None, direct=False, label="count"):
    """Results of ``kernel(n, states[batch], depth)`` for every subproblem, in order.

    Parameters
    ----------
    kernel : numba dispatcher
        A batch kernel: ``(n, states, depth) -> counts`` with one row (or value) per state.
    states : numpy.ndarray, shape (n_states, 3 + depth), dtype int64
    width : int
        Counts per subproblem.
    n_threads : int
        Threads of the pool.
    progress : bool
        Show a ``tqdm.auto`` progress bar of finished subproblems.
    checkpoint : str or os.PathLike, optional
        Resume from and record progress to this file (see :mod:`nqueens_numba.checkpoint`);
        ``split`` identifies the count in it.
    direct : bool
        Small work without progress or checkpoint: one kernel call in this thread.
    label : str
        Names the work in the progress bar and in messages.

    Returns
    -------
    numpy.ndarray, shape (n_states, width), dtype int64

    Raises
    ------
    KeyboardInterrupt
        When interrupted: the running batches finish (a fraction of a second while
        subproblems are small, up to n = 22), the checkpoint is saved, and the exception says
        how far the count got.
    nqueens_numba.checkpoint.CheckpointError
        If the checkpoint file is damaged or belongs to another count.
    """
    n_states = len(states)
    if direct and not progress and checkpoint is None:
        return np.asarray(kernel(n, states, depth), dtype=np.int64).reshape(n_states, width)
    results, done, ckpt, pending = resume(n_states, width, checkpoint, split)
    bar = progress_bar(n_states, int(done.sum()), f"{label} n={n}") if progress else None
    try:
        _run_pool(kernel, n, states, depth, width, n_threads, pending, results, done, ckpt,
                  bar, label)
    finally:
        if bar is not None:
            bar.close()
    return results


def _run_pool(kernel, n, states, depth, width, n_threads, pending, results, done, ckpt, bar,
              label):
    next_pending = 0
    batch = 1
    work_seconds = 0.0
    work_states = 0
    inflight = {}
    last_save = last_draw = time.monotonic()
    pool = ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="nqueens")

    def collect(future):
        nonlocal work_seconds, work_states
        index = inflight.pop(future)
        out, seconds = future.result()
        results[index] = np.asarray(out).reshape(len(index), width)
        done[index] = True
        work_seconds += seconds
        work_states += len(index)
        if ckpt is not None:
            for i in index:
                ckpt.record(i, results[i])
        if bar is not None:
            bar.update(len(index))

    try:
        while inflight or next_pending < len(pending):
            while len(inflight) < 2 * n_threads and next_pending < len(pending):
                if work_states:
                    per_state = work_seconds / work_states
                    batch = int(min(max(1, config.TASK_SECONDS / max(per_state, 1e-9)), 4096))
                index = pending[next_pending:next_pending + batch]
                next_pending += len(index)
                future = pool.submit(_timed, kernel, n, np.ascontiguousarray(states[index]),
                                     depth)
                inflight[future] = index
            finished, _ = wait(list(inflight), timeout=0.25, return_when=FIRST_COMPLETED)
            for future in finished:
                collect(future)
            now = time.monotonic()
            if ckpt is not None and now - last_save >= config.CHECKPOINT_SECONDS:
                ckpt.save()
                last_save = now
            if bar is not None and now - last_draw >= 0.5:
                bar.refresh()
                last_draw = now
    except KeyboardInterrupt:
        for future in list(inflight):
            if future.cancel():
                del inflight[future]
        for future in wait(list(inflight)).done:  # the running batches end within moments
            try:
                collect(future)
            except BaseException:  # noqa: BLE001 - already stopping; keep the first error
                inflight.pop(future, None)
        message = (f"{label} of n={n} interrupted after {int(done.sum())} of {len(done)} "
                   f"subproblems")
        if ckpt is not None:
            ckpt.save()
            message += f"; progress saved to {ckpt.path!r}: call again with it to resume"
        raise KeyboardInterrupt(message) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if ckpt is not None:
            ckpt.save()
