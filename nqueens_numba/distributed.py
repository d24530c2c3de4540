"""Counting on a Dask cluster: the same split and kernels, spread over many machines.

The count is planned exactly as a local one (:func:`nqueens_numba._split.plan_count`) and
run by :func:`nqueens_numba.counting.run_plan` with :class:`DaskBatches` as the executor:
the split's pending subproblems are cut into balanced batches, and each batch is a Dask task
that runs the split's :class:`~nqueens_numba._job.CountJob` (the compiled counting
kernel) on a worker. What needs no split (small boards, enumerated orbits) runs here. Results come back as they finish and go to the same tracker as a local count's
(:class:`nqueens_numba._runner.Tracker`: checkpoint, progress bar); the split adds them up.
A task runs its batch for at most about ``config.DASK_TASK_SECONDS`` and returns the search
in progress with its stack (:func:`_advance`); the client
records it (a checkpoint keeps it) and submits the rest as a new task, which any worker may
run. So an interrupted or killed Dask count loses at most that much work per worker thread,
searches in progress that a local checkpoint saved go on on the workers (and back), and near
the end a batch is cut in two when threads idle. If a worker dies, Dask runs its task again
elsewhere: each task is a pure function of its subproblems and stack.

Dask is imported only when these functions run: install the ``dask`` extra
(``pip install "nqueens_numba[dask]"``).
"""
import secrets
import sys
import time
import warnings
from functools import partial

import numpy as np

from . import _device, _runner, _split, _validate, config
from ._enumerating import keywords
from ._kernels._loading import interrupts_deferred
from .board import board_of
from .constraints import check_constraints
from .counting import run_plan

__all__ = ["count_solutions", "connect", "gpu_workers"]


def _check_running(client):
    """``RuntimeError`` unless ``client`` is running (not closed)."""
    if client.status != "running":
        raise RuntimeError(f"the client is {client.status}, not running: connect again "
                           f"(see connect)")


def _threads_when_one_joins(client, what):
    """The threads of the cluster's workers. While it has none (a cluster just started, its
    workers not yet joined), the calling thread waits for one, looking twice a second, and
    says so after ``config.DASK_NO_WORKER_SECONDS`` (:func:`_say_no_worker`). ``what``: the
    count, as its messages name it (``"count of n=17"``)."""
    since = time.monotonic()
    said = False
    try:
        while True:
            _check_running(client)
            threads = sum(client.nthreads().values())
            if threads:
                return threads
            if not said and time.monotonic() - since >= config.DASK_NO_WORKER_SECONDS:
                said = True
                _say_no_worker(what, "")
            time.sleep(0.5)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"{what} on Dask interrupted before it started, while the "
                                f"cluster had no worker: nothing was counted") from None


def _say_no_worker(what, kept):
    """Warn (``RuntimeWarning``) that the count ``what`` waits for a worker to join, the
    cluster having had none for ``config.DASK_NO_WORKER_SECONDS``; ``kept``: what keeps the
    work done (``"; a checkpoint keeps what is done"``), if any. The warning has a registry
    of its own: it is said for every count, where Python's default says a warning once per
    place and words, so once a process."""
    warnings.warn_explicit(
        f"{what} on Dask: the cluster has had no worker for "
        f"{config.DASK_NO_WORKER_SECONDS:g} s; the count waits for one to join (Ctrl-C "
        f"stops it{kept})", RuntimeWarning, __file__, sys._getframe().f_lineno,
        module=__name__, registry={})


def connect(address, *, timeout=10):
    """A ``dask.distributed.Client`` for ``address``, or a clear error within ``timeout``.

    Parameters
    ----------
    address : str
        ``"tcp://HOST:PORT"`` of a running scheduler, or ``"local"`` to start a
        ``LocalCluster`` in this process (one single-threaded worker per core: the kernels
        release the GIL, and a Ctrl-C reaches no worker process).
    timeout : float, optional
        Seconds to wait for the scheduler: a finite number above 0.

    Returns
    -------
    distributed.Client

    Raises
    ------
    ImportError
        If Dask is not installed.
    TypeError, ValueError
        If ``address`` is not a string or not an address (``"foo:bar"``), or ``timeout`` is
        not a positive finite number.
    ConnectionError
        (an ``OSError``) If the scheduler cannot be reached within ``timeout`` seconds.
    """
    if not isinstance(address, str):
        raise TypeError(f"address must be a str such as 'tcp://HOST:PORT' or 'local', got "
                        f"{type(address).__name__}")
    _validate.positive_number(timeout, "timeout", "seconds")
    from distributed import Client, LocalCluster

    if address == "local":
        # (a port of its own for the scheduler's web server, which takes 8787 by default
        # even without a dashboard, and logs when another cluster runs there)
        # (workers in this process: Dask makes one unless told how many)
        cluster = LocalCluster(n_workers=_validate.threads(None), threads_per_worker=1,
                               processes=False, dashboard_address="127.0.0.1:0")
        client = Client(cluster)
        client.nqueens_cluster = cluster  # closed with the client by the caller
        return client
    try:
        return Client(address, timeout=f"{timeout}s")
    except ValueError as exc:  # Dask's own parse of the address
        raise ValueError(f"{address!r} is not a scheduler address: give 'tcp://HOST:PORT' "
                         f"(or 'local'); Dask says: {exc}") from None
    except (OSError, TimeoutError) as exc:
        raise ConnectionError(f"cannot reach the Dask scheduler at {address!r} within {timeout} s "
                              f"({type(exc).__name__}: {exc}); is it running (dask scheduler) "
                              f"and the address right?") from None


def count_solutions(client, n, *, fundamental=False, method=None, prefix_depth=None,
                    tasks_per_worker=8, checkpoint=None, checkpoint_every=None, progress=False,
                    preplaced=None, blocked=None, piece="queen", torus=False, device="cpu"):
    """Total number of solutions (OEIS A000170), or fundamental ones, counted on a Dask cluster.

    The split of the local count (see :func:`nqueens_numba.count_solutions`) is built here,
    its subproblems shuffled and cut into about ``tasks_per_worker`` batches per worker
    thread; each batch runs the split's compiled counting kernel (the symmetric search,
    mirror halving, or the count with allowed squares) as a Dask task. Give
    each worker as many threads as it has cores (``dask worker --nthreads``): every task is
    one thread. A cluster without workers (just started) is waited for, as a count left
    without them is: a ``RuntimeWarning`` after ``config.DASK_NO_WORKER_SECONDS`` says so.

    Parameters
    ----------
    client : distributed.Client
        A client of the cluster (see :func:`connect`).
    n : int
        Board order, ``0 <= n <= 63``.
    fundamental : bool, optional
        Count fundamental solutions (OEIS A002562).
    method : {None, "halving", "symmetric"}, optional
        As in :func:`nqueens_numba.count_solutions`.
    prefix_depth : int, optional
        Rows pre-placed to split the search; by default enough for many more subproblems
        than the cluster has threads (or the depth of ``checkpoint`` when resuming).
    tasks_per_worker : int, optional
        Batches per worker thread (more: better balance, more scheduling overhead).
    checkpoint : str or os.PathLike, optional
        As in :func:`nqueens_numba.count_solutions`: finished batches are recorded
        subproblem by subproblem, and a later run (distributed or local, with the same
        split) resumes from it, searches in progress included.
    checkpoint_every : float, optional
        Most seconds between two writes of ``checkpoint`` (default
        ``config.CHECKPOINT_SECONDS``).
    progress : bool, optional
        A progress bar of finished subproblems.
    preplaced, blocked : optional
        Constraints, as in :func:`nqueens_numba.count_solutions`: only their completions
        are counted.
    piece, torus : optional
        The board, as in :func:`nqueens_numba.count_solutions`: superqueens or toroidal
        queens (each board's own counting kernels; the
        toroidal fundamental count runs locally).
    device : {"cpu", "cuda", "auto"}, optional
        ``"cuda"``: the batches run on the workers that have a usable GPU
        (:func:`nqueens_numba.count_solutions`'s GPU kernels, each task one launch on the
        worker's first GPU that takes no subproblem after about
        ``config.DASK_TASK_SECONDS``: run one worker per GPU, as
        ``dask_cuda.LocalCUDACluster`` does); ``"auto"``: so when a worker has one and
        ``n >= config.GPU_MIN_N``, else the workers' threads.

    Returns
    -------
    int

    Raises
    ------
    TypeError, ValueError
        As :func:`nqueens_numba.count_solutions`; ``client`` must be a
        ``distributed.Client`` and ``tasks_per_worker`` a positive integer.
    RuntimeError
        If the client is closed, or with ``device="cuda"`` no worker with a usable GPU
        (the message gives each worker's reason).

    Examples
    --------
    >>> from nqueens_numba.distributed import connect, count_solutions  # doctest: +SKIP
    >>> with connect("tcp://scheduler:8786") as client:                   # doctest: +SKIP
    ...     count_solutions(client, 18)
    666090624
    """
    from distributed import Client

    if not isinstance(client, Client):
        raise TypeError(f"client must be a distributed.Client (see connect), got "
                        f"{type(client).__name__}")
    _check_running(client)
    n = _validate.board_order(n)
    fundamental, progress = _validate.flags(fundamental=fundamental, progress=progress)
    tasks_per_worker = _validate.in_range(tasks_per_worker, "tasks_per_worker", 1,
                                          what="a positive integer")
    checkpoint, checkpoint_every = _validate.checkpointing(checkpoint, checkpoint_every)
    cons = check_constraints(n, preplaced, blocked)
    device = _device.check_device(device)
    board = board_of(piece, torus)
    plan_for = partial(_split.plan_count, n, board,
                       result="fundamental" if fundamental else "total", method=method,
                       constraints=cons, prefix_depth=prefix_depth, checkpoint=checkpoint,
                       shortcuts=False)
    threads = sum(client.nthreads().values())
    if not threads:  # (the arguments checked, and a count that needs no worker run, first;
        early = plan_for(n_threads=1)  # with device="cuda", the workers' GPUs are asked for)
        if early.engine != "split" and device != "cuda":
            return run_plan(early, DaskBatches(client, tasks_per_worker, None, 1),
                            progress=progress, checkpoint=checkpoint)
        threads = _threads_when_one_joins(client, f"count of n={n}{keywords(board, cons)}")
    gpus = gpu_workers(client, required=device == "cuda") if device != "cpu" else []
    executor = DaskBatches(client, tasks_per_worker, gpus, threads)
    plan = plan_for(n_threads=executor.threads, device=device, gpu_usable=bool(gpus))
    if plan.device != "cuda":
        executor.gpus = None
    return run_plan(plan, executor, progress=progress, checkpoint=checkpoint,
                    save_every=checkpoint_every)


def _gpu_problem():
    """On a worker: why it has no usable GPU, or ``None``."""
    return _device.problem()


def gpu_workers(client, required=True):
    """The addresses of the workers with a usable GPU (``[]`` when none and not
    ``required``).

    Raises
    ------
    RuntimeError
        When ``required`` and no worker has one: the message gives each worker's reason.
    """
    problems = client.run(_gpu_problem)
    found = sorted(address for address, why in problems.items() if why is None)
    if required and not found:
        reasons = "; ".join(f"{address}: {why}" for address, why in sorted(problems.items()))
        raise RuntimeError(f"device='cuda': no Dask worker has a usable GPU "
                           f"({reasons or 'no workers'})")
    return found


class DaskBatches:
    """The executor of a split on a Dask cluster (see :mod:`nqueens_numba._runner` for
    the interface): about ``tasks_per_worker`` batches per worker thread, or per GPU worker.

    Parameters
    ----------
    client : distributed.Client
    tasks_per_worker : int
    gpus : list of str or None
        The addresses of workers with a GPU: the batches run there, on the GPU kernels
        (:func:`nqueens_numba._gpu.count_states`); ``None``: on the workers' threads.
    threads : int
        The threads of the cluster's workers (the split is sized for them).
    """

    def __init__(self, client, tasks_per_worker, gpus, threads):
        self.client = client
        self.tasks_per_worker = tasks_per_worker
        self.threads = threads
        self.gpus = gpus

    @property
    def where(self):
        return " on Dask GPUs" if self.gpus else " on Dask"

    def load(self, split, progress=False):
        """Compile the CPU kernel here when the batches run on the workers' threads (as a
        local count does); a GPU count compiles on its workers."""
        if not self.gpus:
            _runner.load_kernel(split, progress)

    def run(self, split, tracker):
        if self.gpus:
            _run_gpu_batches(self.client, split, tracker,
                             len(self.gpus) * self.tasks_per_worker, self.gpus)
        else:
            _run_batches(self.client, split, tracker, self.threads * self.tasks_per_worker,
                         self.threads)


def _as_they_finish(client, running, tracker):
    """The futures of ``running`` (a ``distributed.as_completed``, which may grow meanwhile)
    as they finish, each with its result: ``(future, result)``. While none does, or a result
    is fetched again (its worker lost with it), the calling thread looks at the cluster twice
    a second (and lets ``tracker`` save and draw): a cluster that has had no worker for
    ``config.DASK_NO_WORKER_SECONDS`` says so (``RuntimeWarning``, once a count), where its
    tasks would wait for one to join without a word (its only worker lost, scaled to none)."""
    state = {"since": None, "looked": None, "said": False}

    def look():
        now = time.monotonic()
        if state["looked"] is not None and now - state["looked"] < 0.5:
            return
        state["looked"] = now
        tracker.tick()
        if state["said"] or client.scheduler_info().get("workers"):
            state["since"] = None
        elif state["since"] is None:
            state["since"] = now
        elif now - state["since"] >= config.DASK_NO_WORKER_SECONDS:
            state["said"] = True
            _say_no_worker(f"count of n={tracker.n}{tracker.keywords}",
                           "; a checkpoint keeps what is done")

    while not running.is_empty():
        ready = running.next_batch(block=False)
        for future in ready:
            while True:
                try:
                    result = future.result(timeout=0.5)
                    break
                except TimeoutError:  # (computed, then lost with its worker: run again)
                    look()
            yield future, result
        if not ready:
            time.sleep(0.02)
            look()


def _batches(pending, n_batches):
    """The subproblems ``pending`` cut into about ``n_batches`` batches in order, none
    empty: the first tasks of a Dask count."""
    return [batch for batch in np.array_split(pending, max(1, min(n_batches, len(pending))))
            if len(batch)]


def _run_gpu_batches(client, split, tracker, n_batches, workers):
    """Every subproblem of ``split`` counted whole on the GPUs of ``workers``, in about
    ``n_batches`` batches to begin with, reported to ``tracker`` as they finish.

    Each task is one launch (:func:`_count_on_gpu`) that takes no subproblem after about
    ``config.DASK_TASK_SECONDS``: the subproblems it left go into a new task (cut in two
    while GPUs idle), so that a checkpoint keeps what is done every few seconds. Searches in
    progress that a CPU count saved go on here first, on the CPU.
    """
    from distributed import as_completed

    from ._gpu import resume_on_cpu

    resume_on_cpu(split, tracker)
    seconds = config.DASK_TASK_SECONDS
    token = secrets.token_hex(8)
    tasks = {}  # future: indices
    running = as_completed()

    def submit(indices):
        future = client.submit(_count_on_gpu, split.job,
                               np.ascontiguousarray(split.states[indices]), seconds, token,
                               workers=workers, allow_other_workers=False, pure=False)
        tasks[future] = indices
        running.add(future)

    try:
        for batch in _batches(tracker.pending, n_batches):
            submit(batch)
        for future, rows in _as_they_finish(client, running, tracker):
            with interrupts_deferred(_DEFERRED):  # (recorded whole)
                indices = tasks.pop(future)
                done = rows[:, 0] >= 0
                if done.any():
                    tracker.finish(indices[done], rows[done])
                rest = indices[~done]
                if len(rest) > 1 and len(tasks) + 1 < len(workers):  # idle GPUs
                    submit(rest[len(rest) // 2:])
                    rest = rest[:len(rest) // 2]
                if len(rest):
                    submit(rest)
            tracker.tick()
    except BaseException as exc:  # (nothing runs on: a Ctrl-C, a task's error, a warning)
        _stopped.add(token)
        client.cancel(list(tasks))
        raise _stopped_by(exc, tracker) from None


def _count_on_gpu(job, states, seconds, token=None):
    """:func:`nqueens_numba._gpu.count_states` on the worker's first GPU, taking no
    subproblem after about ``seconds``, and leaving them all once the count of ``token``
    is stopped (:data:`_stopped`): one task of a Dask worker with a GPU. The rows of the
    subproblems left have -1 in their first column."""
    from ._gpu import count_states

    return count_states(job, states, seconds=seconds, stopped=lambda: token in _stopped)


#: What a Ctrl-C deferred while a result is recorded raises (the count says the rest).
_DEFERRED = "interrupted"


def _stopped_by(exc, tracker):
    """The error that ends a Dask count stopped by ``exc``: the tracker's interruption for a
    Ctrl-C; a ``RuntimeError`` saying how far it got for tasks that the cluster cancelled
    (a restart, a scheduler lost, a closed client: Dask's own error named none of that);
    else ``exc``."""
    from concurrent.futures import CancelledError

    if isinstance(exc, KeyboardInterrupt):
        return tracker.interrupted()
    if isinstance(exc, CancelledError):
        why = str(exc).rpartition("reason: ")[2].rstrip(".") if "reason: " in str(exc) else ""
        stopped = tracker.interrupted("stopped: the Dask cluster cancelled its tasks"
                                      + (f" ({why})" if why else ""))
        return RuntimeError(str(stopped))
    return exc


#: The counts stopped by their client (a token each): the tasks that workers in the client's
#: own process run (a ``LocalCluster(processes=False)``, as ``connect("local")`` makes) see
#: it and return after their kernel call, so that closing the cluster does not wait for
#: them. Workers in other processes have a set of their own and run their tasks out.
_stopped = set()


def _advance(job, states, piece, seconds, budget=None, token=None):
    """``job.run`` kernel calls (:class:`~nqueens_numba._job.CountJob`) of ``budget``
    steps (``config.COUNT_BUDGET``) until the batch is finished, ``seconds`` have passed or
    the count of ``token`` is stopped (:data:`_stopped`): one task of a Dask worker.

    Returns ``(counts, n_done, piece)``: the results of the first ``n_done`` states,
    ``(n_done, width)`` int64, and the cursor, in progress on ``states[n_done]`` (or not
    started there) when ``n_done < len(states)``.
    """
    budget = config.COUNT_BUDGET if budget is None else budget
    # A copy to advance: a worker in the client's process gets the client's own object, which
    # a task run again elsewhere (its worker lost while the task ran on) would advance too.
    piece = piece.copy()
    start = time.perf_counter()
    parts = []
    done = 0
    while done < len(states):
        counts, n_done = job.run(states[done:], piece, budget)
        parts.append(counts[:n_done])
        done += n_done
        if time.perf_counter() - start >= seconds or token in _stopped:
            break
    counts = np.concatenate(parts) if parts else np.zeros((0, job.width), np.int64)
    return counts, done, piece


def _run_batches(client, split, tracker, n_batches, threads):
    """Every subproblem of ``split``, computed in batches on the cluster and reported to
    ``tracker``.

    Each task runs for at most about ``config.DASK_TASK_SECONDS`` (:func:`_advance`) and returns what it finished and its search in
    progress, which the tracker records (so a checkpoint keeps it) and a new task continues.
    When fewer tasks than worker threads are left, a continued batch is cut in two: its
    subproblems not started, or its search in progress
    (:meth:`~nqueens_numba._pieces.Piece.split`).
    """
    from distributed import as_completed

    job = split.job
    seconds = config.DASK_TASK_SECONDS
    token = secrets.token_hex(8)
    tasks = {}  # future: (indices, key of the search in progress on indices[0])
    running = as_completed()

    def submit(indices, search, key):
        future = client.submit(_advance, job, np.ascontiguousarray(split.states[indices]),
                               search, seconds, None, token, pure=False)
        tasks[future] = (indices, key)
        running.add(future)

    try:
        for batch in _batches(tracker.pending, n_batches):
            submit(batch, job.piece(batch[0]), None)
        for key, search in tracker.resumed:  # searches in progress that a checkpoint saved
            submit(np.array([search.index]), search, key)
        for future, (counts, done, search) in _as_they_finish(client, running, tracker):
            # A result is recorded whole: a Ctrl-C between a search's two halves (the one
            # kept, the one given away) saved the first alone, and a resume lost the other.
            with interrupts_deferred(_DEFERRED):
                indices, key = tasks.pop(future)
                key = tracker.report(indices, key, counts, done, search)
                rest = indices[done:]
                if len(rest):
                    if len(tasks) + 1 < threads:  # idle threads: cut this batch in two
                        if len(rest) > 1:
                            submit(rest[1:], job.piece(rest[1]), None)
                            rest = rest[:1]
                        elif search.started:
                            with tracker.lock:
                                new = search.split()
                                if new is not None:
                                    tracker.update(key, search)
                                    submit(rest, new, tracker.add(new))
                    submit(rest, search, key)
            tracker.tick()
    except BaseException as exc:  # (nothing runs on: a Ctrl-C, a task's error, a warning)
        _stopped.add(token)
        client.cancel(list(tasks))
        raise _stopped_by(exc, tracker) from None
