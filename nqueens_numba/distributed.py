"""Counting on a Dask cluster: the same subproblems and kernels, spread over many machines.

The subproblem array is built locally (as for a local count), shuffled and cut into balanced
batches; each batch is a Dask task that runs the compiled counting kernel on a worker
(``_count_batch``). Results come back as they finish, are recorded in the checkpoint if one
is given, and are summed as exact Python integers. If a worker dies, Dask runs its batches
again elsewhere: each batch is a pure function of its subproblems.

Dask is imported only when these functions run: install the ``dask`` extra
(``pip install "nqueens_numba[dask]"``).
"""
import time

import numpy as np

from . import _kernels, _runner, api, config

__all__ = ["count_solutions", "connect"]


def _count_batch(kernel_name, n, states, depth):
    """On a worker: the counts of a batch of subproblems, one row per subproblem.

    Runs the kernel in the worker's task thread: the kernels release the GIL, so a worker
    with several threads runs several batches at once, and nothing else starts threads.
    """
    kernel = getattr(_kernels, kernel_name)
    counts = np.asarray(kernel(n, states, depth), dtype=np.int64)
    return counts.reshape(len(states), -1)


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
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.integer,
                                                               np.floating)):
        raise TypeError(f"timeout must be a number of seconds, got {type(timeout).__name__}")
    if not 0 < timeout < float("inf"):
        raise ValueError(f"timeout must be a finite number of seconds above 0, got {timeout}")
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
                    tasks_per_worker=8, checkpoint=None, progress=False):
    """Total number of solutions (OEIS A000170), or fundamental ones, counted on a Dask cluster.

    The subproblems of the local count (see :func:`nqueens_numba.count_solutions`) are built
    here, shuffled, and cut into about ``tasks_per_worker`` batches per worker thread; each
    batch runs the compiled kernel (``_count_symmetric_states`` or ``_count_states``) as a
    Dask task. Give each worker as many threads as it has cores (``dask worker
    --nthreads``): every task is one thread.

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
        split) resumes from it.
    progress : bool, optional
        A progress bar of finished subproblems.

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
    n = api._check_n(n)
    method = api._check_method(method)
    fundamental = api._check_flag(fundamental, "fundamental")
    progress = api._check_flag(progress, "progress")
    tasks_per_worker = api._check_int(tasks_per_worker, "tasks_per_worker")
    if tasks_per_worker < 1:
        raise ValueError(f"tasks_per_worker must be a positive integer, got {tasks_per_worker}")
    if fundamental and method == "halving":
        raise ValueError("fundamental=True needs method='symmetric' (or None)")
    if method is None:
        method = "symmetric" if (fundamental or n >= config.SYMMETRIC_MIN_N) else "halving"
    prefix_depth = api._check_prefix_depth(prefix_depth, n, method)
    if n == 0 or (method == "symmetric" and n < 7):  # nothing to distribute
        if checkpoint is not None:
            raise ValueError(f"checkpoint is not used for n={n} with method={method!r}")
        return api.count_solutions(n, method=method, fundamental=fundamental, n_threads=1)
    if prefix_depth is None:
        prefix_depth = api._checkpoint_depth(checkpoint, n, method)
    threads = _total_threads(client)
    if method == "symmetric":
        states, depth = api._symmetric_split(n, threads, prefix_depth)
        kernel, width = "_count_symmetric_states", len(api.SYMMETRIC_RESULTS)
    else:
        states, depth = api._split(n, threads, prefix_depth)
        kernel, width = "_count_states", 1
    split = None
    if checkpoint is not None:
        results = api.SYMMETRIC_RESULTS if method == "symmetric" else None
        split = _runner.split_id(n, method, depth, states, results)
    counts = _run_batches(client, kernel, n, states, depth, width, threads * tasks_per_worker,
                          checkpoint, split, progress)
    if method == "symmetric":
        return api._count_from_orbits(api._orbits_from_leaves(counts), fundamental)
    weights = api._mirror_weights(n, states[:, 3])
    return sum(int(w) * int(c) for w, c in zip(weights, counts[:, 0]))


def _run_batches(client, kernel, n, states, depth, width, n_batches, checkpoint, split,
                 progress):
    """Counts of every subproblem, computed in batches on the cluster."""
    from distributed import as_completed

    results, done, ckpt, pending = _runner.resume(len(states), width, checkpoint, split)
    batches = [b for b in np.array_split(pending, max(1, min(n_batches, len(pending))))
               if len(b)]
    bar = None
    if progress:
        bar = _runner.progress_bar(len(states), int(done.sum()), f"count n={n} on Dask")
    futures = {client.submit(_count_batch, kernel, n, np.ascontiguousarray(states[b]), depth,
                             pure=False): b for b in batches}
    last_save = time.monotonic()
    try:
        for future, out in as_completed(futures, with_results=True):
            index = futures[future]
            results[index] = out
            done[index] = True
            if ckpt is not None:
                for i in index:
                    ckpt.record(i, results[i])
                if time.monotonic() - last_save >= config.CHECKPOINT_SECONDS:
                    ckpt.save()
                    last_save = time.monotonic()
            if bar is not None:
                bar.update(len(index))
    except KeyboardInterrupt:
        client.cancel(list(futures))
        message = (f"count of n={n} on Dask interrupted after {int(done.sum())} of "
                   f"{len(done)} subproblems")
        if ckpt is not None:
            message += f"; progress saved to {ckpt.path!r}: call again with it to resume"
        raise KeyboardInterrupt(message) from None
    finally:
        if ckpt is not None:
            ckpt.save()
        if bar is not None:
            bar.close()
    return results
