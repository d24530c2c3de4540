"""The package's threads end with the calls that start them, on an oversubscribed CPU too.

Each test runs while busy processes keep every core of the machine occupied (as another
program would), with as many of the package's threads as cores beside them, and checks that no thread
named ``nqueens-*`` is alive a bounded time after the call ended, was interrupted, or its
generator was closed, dropped, broken out of or collected in a reference cycle.
"""
import _thread
import gc
import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import nqueens_numba as nq

pytestmark = pytest.mark.slow

#: Seconds the threads of a call may take to end once it has returned (they see their stop
#: within a kernel call, a tenth of a second of work, slower on a loaded machine).
BOUND = 5.0

THREADS = None  # every thread the package may use: as many as cores, beside the busy ones


def _ours():
    return [t.name for t in threading.enumerate() if t.name.startswith("nqueens-")]


def _assert_gone(what):
    start = time.monotonic()
    while _ours() and time.monotonic() - start < BOUND:
        time.sleep(0.02)
    assert not _ours(), f"{what}: {_ours()} alive {BOUND} s later"


@pytest.fixture(scope="module", autouse=True)
def busy():
    """One busy process per core (two at least) for the tests of this module."""
    nq.count_solutions(14, method="symmetric", n_threads=2)  # kernels loaded before the load
    nq.solve(13)
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
             for _ in range(max(2, os.cpu_count() or 1))]
    yield
    for proc in procs:
        proc.kill()
        proc.wait()


def _interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def _drop(g):
    next(g)
    next(g)


def _close(g):
    next(g)
    g.close()


def _break(g):
    for _ in g:
        break


def _cycle(g):
    class Holder:
        pass

    holder = Holder()
    holder.g, holder.me = g, holder
    next(holder.g)
    del holder


@pytest.mark.parametrize("leave", [_drop, _close, _break, _cycle], ids=lambda f: f.__name__)
def test_a_stream_left_early_ends_its_threads(leave):
    leave(nq.iter_solutions(16, chunk_size=1000, n_threads=THREADS))
    gc.collect()
    _assert_gone(leave.__name__)


@pytest.mark.parametrize("board, n, total", [({}, 17, 95815104),
                                             ({"torus": True}, 19, 820_496)])
def test_an_interrupted_count_ends_its_threads_and_resumes(tmp_path, board, n, total):
    path = tmp_path / "count.json"
    timer = _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        nq.count_solutions(n, n_threads=THREADS, checkpoint=path, **board)
        time.sleep(10)  # (finished before the interruption: it lands here)
    timer.join()
    _assert_gone("interrupted")
    assert nq.count_solutions(n, n_threads=THREADS, checkpoint=path, **board) == total
    _assert_gone("resumed")


def test_interrupted_variant_streams_end_their_threads():
    """An interrupted enumeration of superqueens and of the torus (their streams)."""
    for board in ({"piece": "superqueen"}, {"torus": True}):
        timer = _interrupt_after(0.3)
        with pytest.raises(KeyboardInterrupt):
            for _ in nq.iter_solutions(19, chunk_size=1000, n_threads=THREADS, **board):
                pass
            time.sleep(10)
        timer.join()
        _assert_gone(str(board))


@pytest.mark.parametrize("call", [
    lambda: nq.estimate_count(24, samples=2**62, n_threads=THREADS),
    lambda: nq.search_profile(20, n_threads=THREADS),
], ids=["estimate", "profile"])
def test_an_interrupted_estimate_ends_its_threads(call):
    timer = _interrupt_after(0.5)
    with pytest.raises(KeyboardInterrupt):
        call()
        time.sleep(10)
    timer.join()
    _assert_gone("interrupted")


def test_calls_from_several_threads_end_their_threads():
    """Estimates, profiles, variant counts and streams, four calls at a time."""
    def first_chunk():
        return next(iter(nq.iter_solutions(15, chunk_size=500, n_threads=THREADS)))

    calls = [lambda: nq.estimate_count(16, samples=20_000, seed=1, n_threads=THREADS),
             lambda: nq.search_profile(12, n_threads=THREADS),
             lambda: nq.count_solutions(17, torus=True, n_threads=THREADS),
             lambda: nq.count_solutions(14, piece="superqueen", n_threads=THREADS),
             lambda: nq.count_solutions(15, n_threads=THREADS), first_chunk] * 2
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda call: call(), calls))
    assert results[2] == 140692 and results[4] == 2279184
    _assert_gone("concurrent calls")


@pytest.mark.parametrize("call", [
    lambda: nq.count_solutions(18, n_threads=THREADS),
    lambda: [len(c) for c in nq.iter_solutions(16, chunk_size=10**5, n_threads=THREADS)],
    lambda: nq.estimate_count(25, samples=10**8, seed=1, n_threads=THREADS),
], ids=["count", "stream", "estimate"])
def test_a_ctrl_c_while_the_threads_start_stops_those_started(monkeypatch, call):
    """A Ctrl-C that lands just after a call's first thread started, before the others: the
    threads started are stopped (they were left running the whole call)."""
    start = threading.Thread.start
    armed = [True]

    def start_then_interrupt(thread):
        start(thread)
        if re.fullmatch(r"nqueens-(count|stream|chunks)\d+-0", thread.name) and armed[0]:
            armed[0] = False
            _thread.interrupt_main()

    monkeypatch.setattr(threading.Thread, "start", start_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        call()
        time.sleep(10)
    assert not armed[0]
    _assert_gone("interrupted while starting")
