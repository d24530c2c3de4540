"""Counting on a Dask cluster: the same split and kernels, spread over many machines.

The count is planned exactly as a local one (:func:`nqueens_numba._split.count_split`); its
pending subproblems are cut into balanced batches, and each batch is a Dask task that runs
the split's :class:`~nqueens_numba._split.CountJob` (the compiled counting kernel) on a
worker. Results come back as they finish and go to the same tracker as a local count's
(:class:`nqueens_numba._runner.Tracker`: checkpoint, progress bar); the split adds them up.
If a worker dies, Dask runs its batches again elsewhere: each batch is a pure function of its
subproblems. The searches in progress that a checkpoint saved (a local count stopped midway)
are continued from their saved stacks by the workers, one task each
(:meth:`~nqueens_numba._split.CountJob.complete`).

Dask is imported only when these functions run: install the ``dask`` extra
(``pip install "nqueens_numba[dask]"``).
"""
import numpy as np

from . import _runner, _split, _validate
from .constraints import check_constraints
from .counting import count_solutions as count_locally
from .counting import warn_if_long

__all__ = ["count_solutions", "connect"]


def _total_threads(client):
    threads = sum(client.nthreads().values())
    if threads < 1:
        raise RuntimeError("the Dask cluster has no workers")
    return threads


def connect(address, *, timeout=10):
    """A ``dask.distributed.Client`` for ``address``, or a clear error within ``timeout``.

    Parameters
    ----------
    address : str
        ``"tcp://HOST:PORT"`` of a running scheduler, or ``"local"`` to start a
        ``LocalCluster`` on this machine (one single-threaded worker process per core).
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
        If ``address`` is not a string or ``timeout`` is not a positive finite number.
    ConnectionError
        (an ``OSError``) If the scheduler cannot be reached within ``timeout`` seconds.
    """
    if not isinstance(address, str):
        raise TypeError(f"address must be a str such as 'tcp://HOST:PORT' or 'local', got "
                        f"{type(address).__name__}")
    _validate.positive_number(timeout, "timeout", "seconds")
    from distributed import Client, LocalCluster

    if address == "local":
        cluster = LocalCluster(threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        client._nqueens_cluster = cluster  # closed with the client by the caller
        return client
    try:
        return Client(address, timeout=f"{timeout}s")
    except (OSError, TimeoutError) as exc:
        raise ConnectionError(f"cannot reach the Dask scheduler at {address!r} within {timeout} s "
                              f"({type(exc).__name__}: {exc}); is it running (dask scheduler) "
                              f"and the address right?") from None


def count_solutions(client, n, *, fundamental=False, method=None, prefix_depth=None,
                    tasks_per_worker=8, checkpoint=None, checkpoint_every=None, progress=False,
                    preplaced=None, blocked=None):
    """Total number of solutions (OEIS A000170), or fundamental ones, counted on a Dask cluster.

    The split of the local count (see :func:`nqueens_numba.count_solutions`) is built here,
    its subproblems shuffled and cut into about ``tasks_per_worker`` batches per worker
    thread; each batch runs the compiled kernel (``_count_symmetric_states``,
    ``_count_states`` or, with constraints, ``_count_allowed_states``) as a Dask task. Give
    each worker as many threads as it has cores (``dask worker --nthreads``): every task is
    one thread.

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
        split) resumes from it. A local count's searches in progress are continued here
        from their saved stacks; when a Dask count is interrupted, its batches still
        running are not recorded (they run again on resume).
    checkpoint_every : float, optional
        Most seconds between two writes of ``checkpoint`` (default
        ``config.CHECKPOINT_SECONDS``).
    progress : bool, optional
        A progress bar of finished subproblems.
    preplaced, blocked : optional
        Constraints, as in :func:`nqueens_numba.count_solutions`: only their completions
        are counted.

    Returns
    -------
    int

    Raises
    ------
    TypeError, ValueError
        As :func:`nqueens_numba.count_solutions`; ``tasks_per_worker`` must be a positive
        integer.
    RuntimeError
        If the cluster has no workers.

    Examples
    --------
    >>> from nqueens_numba.distributed import connect, count_solutions  # doctest: +SKIP
    >>> with connect("tcp://scheduler:8786") as client:                   # doctest: +SKIP
    ...     count_solutions(client, 18)
    666090624
    """
    n = _validate.board_order(n)
    method = _split.check_method(method)
    fundamental = _validate.flag(fundamental, "fundamental")
    progress = _validate.flag(progress, "progress")
    tasks_per_worker = _validate.in_range(tasks_per_worker, "tasks_per_worker", 1,
                                          what="a positive integer")
    if checkpoint_every is not None:
        checkpoint_every = _validate.seconds(checkpoint_every, "checkpoint_every")
    cons = check_constraints(n, preplaced, blocked)
    method = _split.choose_method(n, method, fundamental, cons)
    prefix_depth = _split.check_prefix_depth(prefix_depth, n, method)
    if not _split.has_subproblems(n, method):  # nothing to distribute
        return count_locally(n, method=method, fundamental=fundamental, n_threads=1,
                             checkpoint=checkpoint, preplaced=preplaced, blocked=blocked)
    if prefix_depth is None:
        prefix_depth = _split.resumed_depth(checkpoint, n, method)
    threads = _total_threads(client)
    split = _split.count_split(n, method, threads, prefix_depth, cons)
    warn_if_long(split, threads, checkpoint is not None)
    results = _run_batches(client, split, threads * tasks_per_worker, checkpoint,
                           checkpoint_every, progress)
    return split.total(results, fundamental)


def _run_batches(client, split, n_batches, checkpoint, save_every, progress):
    """Results of every subproblem of ``split``, computed in batches on the cluster."""
    from distributed import as_completed

    with _runner.Tracker(split, checkpoint, progress, save_every, where=" on Dask") as tracker:
        pending = tracker.pending
        batches = [b for b in np.array_split(pending, max(1, min(n_batches, len(pending))))
                   if len(b)]
        job = split.job
        futures = {client.submit(job, np.ascontiguousarray(split.states[b]), pure=False): b
                   for b in batches}
        resumed = {client.submit(job.complete, split.states[piece.index], piece,
                                 pure=False): key
                   for key, piece in tracker.resumed}  # searches a checkpoint saved
        try:
            for future, out in as_completed([*futures, *resumed], with_results=True):
                if future in resumed:
                    tracker.finish_piece(resumed[future], out)
                else:
                    tracker.finish(futures[future], out)
                tracker.tick()
        except KeyboardInterrupt:
            client.cancel([*futures, *resumed])
            raise tracker.interrupted() from None
    return tracker.results
