import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

# A suite started with signals ignored (under nohup, or as a script's background job) would
# leave the tests of Ctrl-C and of stopped processes waiting for a signal that never comes
# (the package keeps a signal its process was started to ignore ignored, and the processes
# the tests start inherit it): take the default handlers back, here and for them.
for _name, _handler in (("SIGINT", signal.default_int_handler), ("SIGTERM", signal.SIG_DFL),
                        ("SIGHUP", signal.SIG_DFL)):
    _signal = getattr(signal, _name, None)
    if _signal is not None and signal.getsignal(_signal) == signal.SIG_IGN:
        signal.signal(_signal, _handler)

# The thread tests compare 1 and 2 threads; give numba two even on a one-core machine.
# Must happen before numba is imported.
if (os.cpu_count() or 1) < 2:
    os.environ.setdefault("NUMBA_NUM_THREADS", "2")


# ``nqueens warmup`` with an empty cache compiles every kernel (minutes, on one core): the
# test of it starts it when the tests are collected, beside the other tests, and checks it
# at its turn (``tests/test_warmup.py``).
COLD_WARMUP_TEST = "test_after_warmup_first_calls_compile_nothing"
_cold_warmup = pytest.StashKey()


def pytest_collection_finish(session):
    if any(getattr(item, "originalname", item.name) == COLD_WARMUP_TEST
           for item in session.items):
        folder = tempfile.mkdtemp(prefix="nqueens-cold-warmup-")
        cache = os.path.join(folder, "cache")
        os.mkdir(cache)
        with open(os.path.join(folder, "out"), "w") as out, \
                open(os.path.join(folder, "err"), "w") as err:
            process = subprocess.Popen([sys.executable, "-m", "nqueens_numba", "warmup"],
                                       env={**os.environ, "NUMBA_CACHE_DIR": cache},
                                       stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        session.config.stash[_cold_warmup] = process, folder


def pytest_sessionfinish(session):
    process, folder = session.config.stash.get(_cold_warmup, (None, None))
    if process is not None:
        if process.poll() is None:
            process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def cold_warmup(request):
    """``(returncode, stdout, stderr, cache)`` of ``nqueens warmup`` run with an empty
    ``NUMBA_CACHE_DIR`` (``cache``), started when the tests were collected."""
    process, folder = request.config.stash[_cold_warmup]
    returncode = process.wait(timeout=900)
    with open(os.path.join(folder, "out")) as out, open(os.path.join(folder, "err")) as err:
        return returncode, out.read(), err.read(), os.path.join(folder, "cache")
