"""Counting on GPUs: the executor of a count's split on CUDA devices (numba-cuda).

:class:`CudaDevices` runs the same split as the CPU count (the same prefix states, weights
and method, planned once by :func:`nqueens_numba._split.plan_count`) with the kernels of
:mod:`nqueens_numba._kernels.gpu`, and reports to the same
:class:`~nqueens_numba._runner.Tracker`: so the progress bar, the checkpoint (one file
format: a GPU checkpoint resumes on the CPU and the reverse) and Ctrl-C work as on the CPU.

One host thread per GPU copies the states to its device once, then launches the kernel on
batches of the subproblems not started (``tracker.pending``, taken in order from a shared
cursor), each sized to about ``config.GPU_LAUNCH_SECONDS`` of work from the time per
subproblem measured on the launches before. The kernel writes each subproblem's row into
mapped host memory as it finishes it; the host thread reports the finished rows every
:data:`POLL_SECONDS` while the launch runs, and the rest when it ends (so the bar moves
and the checkpoint records them even when one launch takes long). The calling thread saves
the checkpoint and draws the bar meanwhile; on Ctrl-C it sets each running launch's stop
flag (the kernel's threads leave their subproblems, which are counted again on resume),
and raises :meth:`~nqueens_numba._runner.Tracker.interrupted`. The searches in progress that a
CPU count saved in a checkpoint (stacks) go on on the CPU first: the GPU kernels count whole
subproblems.
"""
import threading
import time
from contextlib import nullcontext

import numpy as np

from . import _kernels, config
from ._device import gpu_job
from ._pool import Crew, supervise
from ._progress import compile_first

__all__ = ["CudaDevices", "after_launch", "count_states", "resume_on_cpu"]

#: How often a host thread reports the rows a running launch has finished (seconds).
POLL_SECONDS = 0.1

#: The most subproblems in one launch: its rows of results, in mapped host memory, take
#: up to 48 MB (six ``int64`` columns of the symmetric search).
MAX_LAUNCH = 1 << 20

#: numba's CUDA simulator runs one kernel at a time in a process: its launches take turns.
_SIMULATOR_TURNS = threading.Lock()

#: The tasks of a process (Dask worker threads, :func:`count_states`) take turns on each GPU,
#: by its number: a launch fills its GPU, so nothing is lost, and no task's copies on the
#: default stream wait behind another's running kernel, holding back the writes that end
#: that kernel early (the streams of numba-cuda wait for the default stream).
_GPU_TURNS = {}


def after_launch(device, n_done):
    """Called by a GPU's host thread after each launch (reported), with the GPU's number and
    the subproblems that launch finished: nothing; a test replaces it to stop a count between
    two launches."""


class _Work:
    """What the host threads of a GPU count share: the subproblems not started (a cursor
    into the tracker's order), the stop flag and the first error."""

    def __init__(self, pending, n_threads):
        self.lock = threading.Lock()
        self.todo = np.ascontiguousarray(pending, dtype=np.int64)
        self.next = 0
        self.stopped = False
        self.error = None
        self.on_stop = []  # what stops the running launches: called by stop()
        self.running = n_threads
        self.ended = threading.Event()
        if n_threads == 0:
            self.ended.set()

    def take(self, size):
        """``(first, count)`` of the next ``size`` subproblems of :attr:`todo` (count 0:
        none left, or the count stops)."""
        with self.lock:
            if self.stopped:
                return self.next, 0
            first = self.next
            self.next = min(first + size, len(self.todo))
            return first, self.next - first

    def stop(self, error=None):
        with self.lock:
            if error is not None and self.error is None:
                self.error = error
            self.stopped = True
            calls, self.on_stop = self.on_stop, []
        for call in calls:
            call()

    def leave(self):
        with self.lock:
            self.running -= 1
            if self.running == 0:
                self.ended.set()


class CudaDevices:
    """The executor of a split on GPUs (see :mod:`nqueens_numba._runner` for the interface).

    Parameters
    ----------
    devices : sequence of int
        The GPUs' numbers (``numba.cuda.gpus``), validated
        (:func:`nqueens_numba._device.require`).

    Attributes
    ----------
    timings : dict
        Of the last :meth:`run`, summed over the GPUs' host threads: ``copy`` (seconds to
        copy the states to the devices), ``kernel`` (launches, results copied back
        included), ``launches`` (their number), ``compile`` (seconds of :meth:`load`).
    """

    def __init__(self, devices):
        self.devices = tuple(devices)
        self.threads = len(self.devices)
        self.where = " on the GPU" if self.threads == 1 else f" on {self.threads} GPUs"
        self.timings = {"copy": 0.0, "kernel": 0.0, "launches": 0, "compile": 0.0}
        self._lock = threading.Lock()
        self._turns = _turns()

    def load(self, split, progress=False):
        """Compile the GPU kernel of ``split`` (a launch on no subproblems on each GPU)
        before the count starts. (Searches in progress that a CPU checkpoint holds go on
        on the CPU, whose kernel loads when they run.)"""
        cuda = _kernels.cuda
        job = split.job
        kernel, block = _kernel(job)
        empty = np.zeros((0, split.states.shape[1]), dtype=np.int64)
        allow = _allow(job)

        def compile_all():
            for device in self.devices:
                with cuda.gpus[device], self._turns:
                    on = [cuda.to_device(a) for a in (
                        empty, np.zeros(1, np.int64), allow, np.zeros(1, np.int64),
                        np.zeros(1, np.int64), np.zeros((1, split.width), np.int64))]
                    kernel[_grid(cuda, 0, block), block](
                        *_args(job, on[0], on[1], on[2]), 0, 0, on[3], on[4], on[5])
                    cuda.synchronize()

        start = time.perf_counter()
        compile_first(compile_all, "count", progress)
        self.timings["compile"] = time.perf_counter() - start

    # ------------------------------------------------------------------ running

    def run(self, split, tracker):
        self.timings.update(copy=0.0, kernel=0.0, launches=0)
        resume_on_cpu(split, tracker)
        work = _Work(tracker.pending, self.threads if len(tracker.pending) else 0)
        devices = list(self.devices) if work.running else []
        crew = Crew(len(devices), lambda k, stop: self._host(devices[k], split, tracker, work),
                    "gpu")
        supervise(crew, work, tracker.tick, tracker.interrupted)

    def _host(self, device, split, tracker, work):
        """The host thread of GPU ``device``: copy the states, then launch on batches until
        none is left or the count stops."""
        cuda = _kernels.cuda
        try:
            with cuda.gpus[device]:
                self._launches(cuda, device, split, tracker, work)
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            work.stop(exc)
        finally:
            work.leave()

    def _launches(self, cuda, device, split, tracker, work):
        job = split.job
        kernel, block = _kernel(job)
        start = time.perf_counter()
        states = cuda.to_device(np.ascontiguousarray(split.states))
        todo = cuda.to_device(work.todo)
        allow = cuda.to_device(_allow(job))
        counter = cuda.device_array(1, dtype=np.int64)
        stop = cuda.to_device(np.zeros(1, dtype=np.int64))
        zero, one = np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)
        launched, aside = cuda.stream(), cuda.stream()  # (the stop flag's copy overlaps)
        size = min(_grid(cuda, 1 << 40, block) * block, MAX_LAUNCH)  # first: one a thread
        out = cuda.mapped_array((min(size, len(work.todo)), split.width), dtype=np.int64)
        cuda.synchronize()
        copied = time.perf_counter() - start

        def stop_launch():  # (called by the thread that stops the count)
            with cuda.gpus[device]:
                stop.copy_to_device(one, stream=aside)

        with work.lock:
            work.on_stop.append(stop_launch)
        spent = 0.0
        launches = 0
        args = _args(job, states, todo, allow)
        while True:
            first, count = work.take(size)
            if count == 0:
                break
            if count > len(out):
                out = cuda.mapped_array((count, split.width), dtype=np.int64)
            start = time.perf_counter()
            with self._turns:
                rows = _Rows(out, count)
                counter.copy_to_device(zero, stream=launched)
                kernel[_grid(cuda, count, block), block, launched](
                    *args, first, count, counter, stop, out)
                ended = cuda.event()
                ended.record(stream=launched)
                while not getattr(ended, "query", lambda: True)():  # (simulator: ended)
                    rows.report(tracker, work.todo[first:first + count])
                    time.sleep(POLL_SECONDS)
                launched.synchronize()
                rows.report(tracker, work.todo[first:first + count])
            seconds = time.perf_counter() - start
            spent += seconds
            launches += 1
            if rows.reported < count:  # (stopped: the launch left some)
                break
            after_launch(device, count)
            per_state = max(seconds / count, 1e-9)
            size = int(min(max(1, config.GPU_LAUNCH_SECONDS / per_state), MAX_LAUNCH))
        with self._lock:
            self.timings["copy"] += copied
            self.timings["kernel"] += spent
            self.timings["launches"] += launches


class _Rows:
    """The rows a launch writes into mapped host memory ``out``, the first ``count``: their
    first columns set to -1 before the launch; a row whose first column is set again is
    finished (:func:`_kernels.gpu` writes it last)."""

    def __init__(self, out, count):
        self.view = np.asarray(out)[:count]
        self.view[:, 0] = -1
        self.seen = np.zeros(count, dtype=bool)
        self.reported = 0

    def report(self, tracker, indices):
        """Report to ``tracker`` the rows finished since the last call (``indices``: the
        launch's subproblems)."""
        new = np.flatnonzero((self.view[:, 0] >= 0) & ~self.seen)
        if len(new):
            self.seen[new] = True
            self.reported += len(new)
            tracker.finish(indices[new], self.view[new])


def _turns():
    """What a launch holds while it runs: under numba's CUDA simulator, which runs one kernel
    at a time in a process, a lock of the process; on GPUs nothing."""
    from numba import config as numba_config

    return _SIMULATOR_TURNS if numba_config.ENABLE_CUDASIM else nullcontext()


def _grid(cuda, count, block):
    """The blocks of a launch on ``count`` subproblems: ``config.GPU_BLOCKS_PER_SM`` per
    multiprocessor of the current GPU, and at least 128 (numba-cuda warns of low occupancy
    below; threads left without a subproblem end at once). Under numba's simulator, which
    runs each block's threads as Python threads, no more than the subproblems need."""
    from numba import config as numba_config

    sms = getattr(cuda.current_context().device, "MULTIPROCESSOR_COUNT", 1)
    most = max(1, sms * config.GPU_BLOCKS_PER_SM)
    if numba_config.ENABLE_CUDASIM:
        return max(1, min(most, -(-count // block)))
    return max(most, 128)


def _kernel(job):
    """``(kernel, block)``: the GPU kernel of a split's
    :class:`~nqueens_numba._job.CountJob` and its block size."""
    levels, block, wide = _kernels.launch_shape(job.n, job.depth, config.GPU_BLOCK)
    factory = _kernels.entry(gpu_job(job.method), job.board, job.constrained)
    with _turns():  # (the simulator swaps the kernels' module's cuda while one runs)
        return factory(levels, block, wide, config.GPU_MAX_REGISTERS), block


def _args(job, states, todo, allow):
    """The kernel's arguments before ``(first, count, counter, out)``."""
    if job.method == "symmetric":
        return (job.n, states, job.depth, todo)
    return (job.n, states, job.depth, allow, todo)


def _allow(job):
    """The per-row allowed squares of a halving split's kernel, ``(n,)`` int64 (unused by
    the symmetric kernel: a placeholder)."""
    allow = job.allow
    return np.zeros(1, np.int64) if allow is None else np.ascontiguousarray(allow, np.int64)


def count_states(job, states, device=0, seconds=None, stopped=None):
    """The results of the subproblems of ``states``, ``(k, 3 + depth)`` int64, counted on
    GPU ``device`` in one launch: ``(k, job.width)`` int64, as the CPU kernel of ``job``
    (a :class:`~nqueens_numba._job.CountJob`) counts them. A task of a Dask worker with a
    GPU (:mod:`nqueens_numba.distributed`).

    With ``seconds``, the launch takes no subproblem after about that many seconds (it
    finishes those under way); once ``stopped()`` is true (looked at every
    :data:`POLL_SECONDS`), its threads leave theirs. The rows of the subproblems left have
    -1 in their first column (a count is never negative): they are counted again later,
    whole. Without either, every subproblem is counted. The calls of a process take turns
    on a GPU (:data:`_GPU_TURNS`).
    """
    cuda = _kernels.cuda
    states = np.ascontiguousarray(states, dtype=np.int64)
    if not len(states):
        return np.zeros((0, job.width), dtype=np.int64)
    kernel, block = _kernel(job)
    rows = np.zeros((len(states), job.width), dtype=np.int64)
    rows[:, 0] = -1
    with cuda.gpus[device], _GPU_TURNS.setdefault(device, threading.Lock()), _turns():
        on = [cuda.to_device(a) for a in (states, np.arange(len(states), dtype=np.int64),
                                          _allow(job), np.zeros(1, np.int64),
                                          np.zeros(1, np.int64), rows)]
        counter, stop, out = on[3], on[4], on[5]
        launched, aside = cuda.stream(), cuda.stream()
        ended, watcher = threading.Event(), None
        if seconds is not None or stopped is not None:
            args = (*_args(job, on[0], on[1], on[2]), 0, 0, counter, stop, out)
            kernel[_grid(cuda, 0, block), block](*args)  # (compiled first: not timed)
            counter.copy_to_device(np.zeros(1, np.int64))
            watcher = threading.Thread(target=_watch, daemon=True, name="nqueens-gpu-watch",
                                       args=(cuda, device, ended, seconds, stopped, counter,
                                             stop, aside))
            watcher.start()
        try:
            kernel[_grid(cuda, len(states), block), block, launched](
                *_args(job, on[0], on[1], on[2]), 0, len(states), counter, stop, out)
            launched.synchronize()
        finally:
            ended.set()
            if watcher is not None:
                watcher.join()
        return out.copy_to_host()


#: Written into a running launch's work counter to end it softly: its threads take no
#: subproblem after (each takes the counter's value, now beyond every subproblem).
_NO_MORE = np.array([1 << 62], dtype=np.int64)


def _watch(cuda, device, ended, seconds, stopped, counter, stop, aside):
    """Until the launch has ``ended``: after ``seconds``, let it take no more subproblems;
    once ``stopped()``, set its stop flag (:func:`count_states`)."""
    start = time.monotonic()
    soft = seconds is None
    while not ended.wait(POLL_SECONDS):
        if stopped is not None and stopped():
            with cuda.gpus[device]:
                stop.copy_to_device(np.ones(1, dtype=np.int64), stream=aside)
            return
        if not soft and time.monotonic() - start >= seconds:
            soft = True
            with cuda.gpus[device]:
                counter.copy_to_device(_NO_MORE, stream=aside)


def resume_on_cpu(split, tracker):
    """Finish on the CPU, in this thread, the searches in progress that a checkpoint saved
    (``tracker.resumed``: stacks of the CPU kernels), one budget of
    ``config.COUNT_BUDGET`` steps at a time, saving the checkpoint between."""
    job = split.job
    try:
        for key, piece in tracker.resumed:
            index = np.array([piece.index])
            states = np.ascontiguousarray(split.states[index])
            done = 0
            while not done:
                counts, done = job.run(states, piece, config.COUNT_BUDGET)
                key = tracker.report(index, key, counts, done, piece)
                tracker.tick()
    except KeyboardInterrupt:
        raise tracker.interrupted() from None
    tracker.resumed = []
