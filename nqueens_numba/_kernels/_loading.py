"""How the kernels come into a process: numba imported whole, compiles kept from Ctrl-C,
the first compile said on stderr, and numba's cache of the kernels made tolerant.

* :func:`load`: a kernel family's module, imported with numba in one thread at a time and
  with Ctrl-C deferred (:func:`interrupts_deferred`), the first-compile line installed
  before numba compiles anything of the package's, and the caches of its kernels made
  tolerant (:func:`_tolerate_cache_errors`).
* :func:`numba_module`: a module of numba, imported the same way.
* :func:`apart`: a kernel call that may compile, run in a thread of its own so that a Ctrl-C
  stops the wait at once and leaves numba whole.
* :class:`Kernel`: a compiled kernel called from Python, whose Ctrl-C comes out as itself;
  :func:`wait`: an event's wait whose Ctrl-C does too.
* The notices: :data:`notice` (a caller's own notice is on), :func:`say`, :func:`cache_of`.

It imports nothing from the package; :mod:`nqueens_numba._kernels` (the table of kernels)
and the callers that speak of compiling use it.
"""
import functools
import importlib
import os
import signal
import sys
import threading
import warnings
from contextlib import contextmanager, suppress

__all__ = ["Kernel", "apart", "cache_directory", "cache_of", "compiling", "first_call",
           "interrupts_deferred", "is_ours", "load", "not_the_cache_asked", "notice",
           "numba_module", "said_compiling", "say", "wait"]

#: The package whose modules are "ours" (:func:`is_ours`), and the one that holds the
#: kernels (their caches are made tolerant).
_PACKAGE = __name__.split(".", 1)[0]
_KERNELS = __name__.rsplit(".", 1)[0]


#: Per thread: ``active`` while a caller's own notice (``_progress.compiling_notice``), which
#: names the feature, is on; the process's first-compile line then stays quiet.
notice = threading.local()

_first_compile = {"said": False, "installed": False}
#: Every import of numba by the package, one thread at a time: two threads importing it at
#: once (two first calls, one with a progress bar) got it half made, and hung in llvmlite's
#: lock ("partially initialized module 'numba.core.event'").
_import_lock = threading.RLock()


_deferring = {"active": False}


@contextmanager
def interrupts_deferred(said="interrupted while the package loaded (it loaded whole: the "
                                "next call works)"):
    """While inside (in the main thread), Ctrl-C waits: numba and the kernels' modules load
    whole, and the interruption is raised once they have (``KeyboardInterrupt(said)`` where
    the handler is Python's own). An import cut short leaves a module half made, after
    which every later call of the process fails (RecursionError, "module 'numba' has no
    attribute 'core'", "cannot load module more than once per process"). Other uses: a
    record that must change whole. Nested uses defer once; a SIGINT handler that is not a
    Python function (ignored, default) is left alone."""
    if (_deferring["active"] or threading.current_thread() is not threading.main_thread()
            or not callable(signal.getsignal(signal.SIGINT))):
        yield
        return
    came = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    _deferring["active"] = True
    try:
        yield
    finally:
        _deferring["active"] = False
        signal.signal(signal.SIGINT, previous)
    if came:  # (not when the loading failed: its error is raised instead)
        if previous is signal.default_int_handler:
            raise KeyboardInterrupt(said)
        previous(came[0], None)


def numba_module(name):
    """The numba module ``name`` (``"numba.core.event"``), imported whole: in one thread at a
    time (see ``_import_lock``) and with Ctrl-C deferred (:func:`interrupts_deferred`). One
    imported already is returned without the lock (a compile's listener asks while numba
    holds its compiler lock: no lock of ours is taken under numba's)."""
    module = sys.modules.get(name)
    if module is not None and not getattr(getattr(module, "__spec__", None),
                                          "_initializing", False):
        return module
    with interrupts_deferred(), _import_lock:
        try:
            return importlib.import_module(name)
        except OSError as exc:  # (LLVM's library not loaded: a memory limit, a bad install)
            raise RuntimeError(f"numba could not be loaded: {exc}") from exc


def apart(call):
    """``call()``, a kernel call that may compile its kernels, run in a thread of its own
    that the calling thread waits for (in the main thread; elsewhere it runs in place).

    A Ctrl-C stops the wait at once, and the compile goes on to its end in that thread:
    numba's state stays whole (a compile cut short by an interruption could leave every
    later compile of the process failing: "AssertionError: eref[...]", "no compiled object
    yet"), and the kernels are cached for the next call. Returns what ``call`` returns, or
    raises what it raised.
    """
    if threading.current_thread() is not threading.main_thread():
        return call()
    active = getattr(notice, "active", False)
    outcome = {}
    done = threading.Event()

    def run():
        notice.active = active  # (the caller's notice of compiling, if any)
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - raised in the calling thread
            outcome["error"] = exc
        finally:
            _running.discard(done)
            done.set()

    _running.add(done)
    threading.Thread(target=run, name="nqueens-compile", daemon=True).start()
    while not wait(done, 0.05):  # (a Ctrl-C raises here; not in a join, which it can leave
        pass                     # marking the thread as ended while it runs)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


_running = set()  # the calls of :func:`apart` not ended


def wait(event, timeout):
    """``event.wait(timeout)`` (a ``threading.Event``) whose Ctrl-C comes out as
    ``KeyboardInterrupt``, and an exception a signal's handler raised (an alarm's) as
    itself: Python's ``Event.wait``, interrupted as it takes back its condition's lock,
    raises ``RuntimeError: release unlocked lock`` with the interruption as its context
    (one Ctrl-C in a hundred of a profile's waits did). An event so interrupted is not
    waited on again."""
    try:
        return event.wait(timeout)
    except RuntimeError as exc:
        if exc.__context__ is None or str(exc) != "release unlocked lock":
            raise
        raise exc.__context__ from None


def compiling():
    """Whether a call :func:`apart` left is still running (compiling) in this process."""
    return bool(_running)


class Kernel:
    """A numba dispatcher, called as itself, but whose call lets an exception that a signal's
    handler raised as the call ended (Ctrl-C's ``KeyboardInterrupt``, an alarm's) come out
    as itself. numba runs Python code as a compiled call returns its result
    (``numba.core.serialize._numba_unpickle``); a handler run there leaves its exception
    pending while the call returns, which Python reports as ``SystemError: ... returned a
    result with an exception set`` caused by it (every Ctrl-C of a count of n = 14 run in
    the calling thread did). Every other attribute is the dispatcher's."""

    __slots__ = ("dispatcher",)

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher

    def __call__(self, *args):
        try:
            return self.dispatcher(*args)
        except SystemError as exc:
            cause = exc.__cause__
            if cause is None or "returned a result with an exception set" not in str(exc):
                raise
            raise cause from None

    def __getattr__(self, name):
        if name == "dispatcher":  # (not set yet: a copy being made)
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self):
        return f"Kernel({self.dispatcher!r})"


def first_call(kernel, *args):
    """``kernel(*args)``: :func:`apart` while numba has not compiled ``kernel`` for any
    argument types in this process (the call may compile it, or load it from the cache), in
    place after (a kernel whose arguments' types never change compiles once)."""
    if getattr(kernel, "signatures", None):
        return kernel(*args)
    return apart(lambda: kernel(*args))


def cache_directory():
    """Where numba caches the kernels: ``NUMBA_CACHE_DIR`` if set, else the ``__pycache__``
    folder of this package (numba falls back to a user cache folder when that is not
    writable: :func:`cache_of` names the one it chose)."""
    return (numba_module("numba.core.config").CACHE_DIR
            or os.path.join(os.path.dirname(__file__), "__pycache__"))


def cache_of(ev):
    """The folder numba caches the kernel of compile event ``ev`` in: the one its locator
    chose, else :func:`cache_directory`; with what :func:`not_the_cache_asked` says."""
    cache = getattr(ev.data.get("dispatcher"), "_cache", None)
    path = getattr(cache, "_cache_path", None) or cache_directory()
    return path + not_the_cache_asked(path)


def not_the_cache_asked(path):
    """``" (NUMBA_CACHE_DIR=... could not be used)"`` when that variable is set and numba
    caches in ``path``, outside it (numba falls back to another folder without a word when
    the one asked for cannot be made or written), else ``""``."""
    asked = numba_module("numba.core.config").CACHE_DIR
    if not asked or os.path.abspath(path).startswith(os.path.abspath(asked) + os.sep):
        return ""
    return f" (NUMBA_CACHE_DIR={asked} could not be used)"


def is_ours(ev):
    """Whether compile event ``ev`` is of a kernel of this package."""
    func = getattr(ev.data.get("dispatcher"), "py_func", None)
    module = getattr(func, "__module__", None) or ""  # (None: a jitclass's constructor)
    return module.startswith(_PACKAGE + ".")


def said_compiling():
    """Record that a line about compiling was printed (the first-compile line is then not)."""
    _first_compile["said"] = True


def say(line):
    """Print ``line`` on stderr. A notice that cannot be written (stderr closed, full or
    missing) is dropped: it never stops the call it speaks of."""
    if sys.stderr is None:
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # (ValueError: a closed stream)
        pass


def _install_first_compile_notice():
    """The first kernel of the package that numba compiles in this process (not one loaded
    from its cache) prints one line on stderr, so that a first call's seconds of compiling
    are not taken for a hang."""
    event = numba_module("numba.core.event")

    class Listener(event.Listener):
        def on_start(self, ev):
            if (not _first_compile["said"] and not getattr(notice, "active", False)
                    and is_ours(ev)):
                _first_compile["said"] = True
                say(f"nqueens_numba: compiling kernels (first use, seconds; cached in "
                    f"{cache_of(ev)})")

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())


def load(module_name):
    """The kernel module ``module_name``, imported whole (see the module's docstring).

    Raises ``RuntimeError`` when numba cannot be loaded, or can cache the kernels nowhere
    (naming ``NUMBA_CACHE_DIR``)."""
    try:
        with interrupts_deferred(), _import_lock:  # numba and the module load whole
            if not _first_compile["installed"]:  # before numba compiles anything of ours
                _install_first_compile_notice()
                _first_compile["installed"] = True
            module = importlib.import_module(module_name)
            _tolerate_cache_errors()
    except RuntimeError as exc:
        if "no locator available" not in str(exc):
            raise
        raise RuntimeError(f"numba cannot cache the kernels: neither the package folder nor "
                           f"the user's cache folder is writable ({exc}); set "
                           f"NUMBA_CACHE_DIR to a writable folder") from None
    return module


def _tolerate_cache_errors():
    """Make numba's cache of every kernel loaded so far tolerate what it cannot read or
    write: a damaged cache file is compiled again (and saved over), a cache that cannot be
    written (a full disk) leaves the kernel compiled for this process only; each says so once
    per process in a ``RuntimeWarning``. Without this, either made every later call fail with
    numba's own error (``UnpicklingError``, ``OSError``) until the cache was removed."""
    caching = numba_module("numba.core.caching")
    tolerant = _tolerant_cache_class(caching)
    for name, module in list(sys.modules.items()):
        if name.startswith(f"{_KERNELS}.") and name not in _tolerant_modules:
            for value in list(vars(module).values()):
                if type(getattr(value, "_cache", None)) is caching.FunctionCache:
                    value._cache.__class__ = tolerant  # (same state, two methods changed)
            _tolerant_modules.add(name)


@functools.cache
def _tolerant_cache_class(caching):
    """The subclass of numba's ``FunctionCache`` that :func:`_tolerate_cache_errors` uses."""

    class TolerantCache(caching.FunctionCache):
        def load_overload(self, sig, target_context):
            try:
                return self._load_whole(sig, target_context)
            except Exception as exc:  # noqa: BLE001 - damaged: compiled as if not cached
                _warn_cache_once("read", self._cache_path, exc)
                try:  # a damaged index: removed, or no save could read it to add to it
                    self._cache_file._load_index()
                except Exception:  # noqa: BLE001
                    with suppress(OSError):
                        os.unlink(self._cache_file._index_path)
                return None

        def _load_whole(self, sig, target_context):
            """numba's ``load_overload`` without its refresh of the typing and lowering
            registries, which imports a hundred modules of numba (0.15-0.2 s of every warm
            process's first kernel call, measured by ``benchmarks/bench_startup.py``) that a
            kernel loaded whole from the cache does not use: what it does use is numba's
            runtime (the reference counts of its array arguments), started here. A compile
            refreshes the registries itself (numba's compiler does, each time). A numba
            without the parts this uses loads its own way."""
            nrt = sys.modules.get("numba.core.runtime.nrt")  # (imported with numba)
            start = getattr(getattr(nrt, "rtsys", None), "initialize", None)
            if not (start and hasattr(self, "_load_overload")
                    and hasattr(self, "_guard_against_spurious_io_errors")):
                return super().load_overload(sig, target_context)
            start(target_context)
            with self._guard_against_spurious_io_errors():  # (Windows: EACCES -> None)
                return self._load_overload(sig, target_context)

        def save_overload(self, sig, data):
            try:
                super().save_overload(sig, data)
            except Exception as exc:  # noqa: BLE001 - kept for this process only
                _warn_cache_once("written", self._cache_path, exc)

    return TolerantCache


def _warn_cache_once(failed, path, exc):
    """Warn, once per process for reads and once for writes, that numba's cache in ``path``
    could not be ``failed`` ("read", "written")."""
    if _cache_warned.get(failed):
        return
    _cache_warned[failed] = True
    then = ("the kernels are compiled again and saved over it" if failed == "read" else
            "the kernels compiled now last for this process only; free space there or set "
            "NUMBA_CACHE_DIR to another folder")
    warnings.warn(f"numba's cache of the kernels in {path} could not be "
                  f"{failed} ({type(exc).__name__}: {exc}): {then}", RuntimeWarning,
                  stacklevel=2)


_cache_warned = {}  # the failures said ("read", "written")
_tolerant_modules = set()  # the kernel modules whose kernels' caches tolerate failures
