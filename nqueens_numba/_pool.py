"""The package's threads: one daemon-pool primitive under every scheduler.

The kernels release the GIL, so Python threads run them in parallel. No numba threading
layer is involved, so the package is safe to use from several threads at once and in
processes forked after a count.

* :class:`Crew`: daemon threads running one function, told to stop through one event and
  joined within a bound (a thread that does not end in time is reported, not waited on
  forever). The local count (:mod:`nqueens_numba._threads`), the ordered enumeration
  (:mod:`nqueens_numba._blocks`), the GPUs' host threads (:mod:`nqueens_numba._gpu`) and
  :func:`run_chunks` all run on it.
* :func:`run_chunks`: independent kernel calls of a fixed work list (an estimate's chunks of
  probes, an exact profile's batches of subproblems), folded in order, stopped within one
  call on Ctrl-C.
* :func:`run_threads`: independent calls spread over a crew, results in order.
"""
import itertools
import threading
import time
import warnings

from . import config
from ._kernels._loading import wait

__all__ = ["Crew", "supervise", "run_chunks", "run_threads"]

_crews = itertools.count(1)  # numbers the crews in their threads' names


class Crew:
    """``n_threads`` daemon threads running ``target(k, stop)`` (``k``: the thread's number,
    ``stop``: a ``threading.Event`` it checks between kernel calls).

    Daemon threads, unlike a ``ThreadPoolExecutor``'s: the interpreter joins every other
    thread before it exits, so threads left running (an exception in the caller,
    ``sys.exit``, a notebook kernel restart) would hang the exit. Start them with
    :meth:`start` inside the ``try`` (or ``with`` block) whose end joins them
    (:meth:`join`; leaving the ``with`` block joins them): a Ctrl-C while they start then
    stops those already started.

    Parameters
    ----------
    n_threads : int
    target : callable
    name : str
        The threads are named ``nqueens-{name}{crew}-{k}``, ``crew`` numbering the crews
        of the process (a thread left running names the call that started it).
    """

    def __init__(self, n_threads, target, name):
        self.stop_event = threading.Event()
        crew = next(_crews)
        self.threads = [threading.Thread(target=target, args=(k, self.stop_event),
                                         name=f"nqueens-{name}{crew}-{k}", daemon=True)
                        for k in range(n_threads)]

    def start(self):
        """Start the threads (``RuntimeError`` naming ``n_threads`` where the system allows
        fewer: a process limit such as ``ulimit -u``)."""
        for thread in self.threads:
            try:
                thread.start()
            except RuntimeError as exc:
                raise RuntimeError(f"{exc} (the system allows no more threads: ask for fewer "
                                   f"with n_threads or NUMBA_NUM_THREADS, {len(self.threads)} "
                                   f"here)") from exc

    def stop(self):
        """Tell the threads to stop (they see it at their next check)."""
        self.stop_event.set()

    def join(self, timeout=None):
        """Stop the threads and wait for them to end, ``config.JOIN_SECONDS`` at most in all
        (``timeout``). A second Ctrl-C meanwhile does not cut the wait short, so that the
        searches in progress are saved and the message says how far the count got.

        A thread still running then is reported with a ``RuntimeWarning`` and left to end
        by itself (it stops at its next check). Returns the threads still alive.
        """
        self.stop_event.set()
        deadline = time.monotonic() + (config.JOIN_SECONDS if timeout is None else timeout)
        for thread in self.threads:
            while thread.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                try:
                    thread.join(min(left, 0.1))
                except KeyboardInterrupt:
                    continue
        alive = [t for t in self.threads if t.is_alive()]
        if alive:
            warnings.warn(f"{len(alive)} thread(s) of nqueens_numba still running "
                          f"{config.JOIN_SECONDS if timeout is None else timeout} s after "
                          f"they were told to stop ({alive[0].name}); they stop at their "
                          f"next check (a kernel call's end, or a GPU launch's)",
                          RuntimeWarning, stacklevel=2)
        return alive

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.join()


def supervise(crew, work, tick, interrupted):
    """Run ``crew`` to its end from the calling thread: start it, call ``tick()`` every
    quarter of a second until ``work.ended`` (a ``threading.Event``) is set, then (or on
    Ctrl-C, or on an error) call ``work.stop()`` and join the crew, once.

    Raises ``interrupted()`` (the ``KeyboardInterrupt`` to raise) on Ctrl-C or when a
    thread was interrupted (``work.error``), else a thread's error.
    """
    stopped = False
    try:
        crew.start()  # (in the try: a Ctrl-C meanwhile stops those started)
        while not wait(work.ended, 0.25):
            tick()
    except KeyboardInterrupt:
        stopped = True
    finally:
        work.stop()
        crew.join()
    if stopped or isinstance(work.error, KeyboardInterrupt):
        raise interrupted() from None
    if work.error is not None:
        raise work.error


def run_threads(n_threads, fn, calls):
    """``fn(*args)`` for every ``args`` of ``calls``, on ``n_threads`` daemon threads;
    returns their results in order (the first exception is raised)."""
    calls = list(calls)
    results = [None] * len(calls)
    run_chunks(n_threads, lambda c, stop: fn(*calls[c]), len(calls),
               results.__setitem__)
    return results


def run_chunks(n_threads, fn, n_chunks, fold, size=None, bar=None):
    """Run ``fn(c, stop)`` for ``c`` in ``range(n_chunks)`` on a :class:`Crew` of
    ``n_threads`` threads that take the next chunk as they finish one, and hand each result
    to ``fold(c, result)`` in chunk order, in the calling thread (so that sums of floats do
    not depend on the threads).

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
    state = {"next": 0, "error": None, "running": max(1, min(n_threads, n_chunks))}
    wake = threading.Event()

    def work(k, stop):
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
                state["running"] -= 1
            wake.set()

    folded = 0
    with Crew(state["running"], work, "chunks") as crew:
        crew.start()
        while folded < n_chunks and state["error"] is None:
            wait(wake, 0.1)
            wake.clear()
            while True:
                with lock:
                    found = folded in ready
                    result = ready.pop(folded, None)
                if not found:
                    break
                fold(folded, result)
                if bar is not None:
                    bar.update(1 if size is None else size(folded))
                folded += 1
            if state["running"] == 0 and folded < n_chunks and not ready:
                break  # (the threads ended early: an error)
    if state["error"] is not None:
        raise state["error"]
