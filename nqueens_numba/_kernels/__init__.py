"""Every compiled kernel of the package, by family; importing nothing else from the package.

=================  ================================================================
``_sizes``         the tail sizes and board flags, for the callers too (imports no numba)
``_common``        JIT options, the full mask, the variants' masks, the tail with allowed squares
``count``          the plain count (and with allowed squares, toroidal, superqueens)
``enumerate``      prefixes of a split, resumable enumeration of solutions
``symmetric``      the D4-symmetric count and its prefixes
``prefixes``       the symmetric count's prefixes on the plain board, in NumPy (no numba)
``local_search``   min-conflicts repair of one solution
``trace``          the search, event by event
``estimate``       nodes per depth of the search tree, exactly or by random probes
``gpu``            the CUDA kernels of a count (numba-cuda), loaded only for a GPU count
=================  ================================================================

Callers get every kernel from one table, :func:`entry`: ``entry(job, board, constrained)``
names the kernel of a job on a board (``board.flag``: 0, ``TORUS`` or ``KNIGHT``), with
per-row allowed squares or without. The kernels of one job take the same arguments on every
board; each board's kernel is compiled for that board alone (its flag a constant), on first
use. Importing this package does not import numba: the family of a kernel is imported when
:func:`entry` first names it. The first kernel numba compiles in a process says so on stderr
(one line naming the cache folder).

Kernels assume valid input (the callers validate), take only scalars and fixed-dtype arrays,
and never format strings. They are named underscore + verb + object (``_count_batch``) and
looked up here by name on each :func:`entry` call, so that a test can replace one
(``monkeypatch.setattr(_kernels, "_count_batch", ...)``).

Kernels are cached per source file (``cache=True``): numba does not notice when a helper of
``_common`` that a kernel of another file inlines has changed, so after editing ``_common.py``
remove the ``__pycache__`` folders (or set ``NUMBA_CACHE_DIR`` to a new folder). A cache
that cannot be written or read costs a compile, not the call (:func:`_tolerate_cache_errors`).
"""
import functools
import importlib
import os
import signal
import sys
import threading
import warnings
from contextlib import contextmanager, suppress

from ._sizes import KNIGHT, STEPS, TAIL_ROWS, TAIL_SOLUTIONS, TORUS

#: The family (module) of each kernel and constant, loaded on first use: importing the
#: package does not import numba, so a first call that needs no kernel (a small board,
#: :mod:`nqueens_numba._breadth`; a construction; a drawing) does not pay for it.
_FAMILY = {
    "JIT": "_common",
    "_steps_weight": "_common",
    **dict.fromkeys(["_count_allowed_batch", "_count_batch", "_count_knight_batch",
                     "_count_rows", "_count_torus_batch"], "count"),
    **dict.fromkeys(["_enumerate_knight_prefixes", "_enumerate_prefixes",
                     "_enumerate_steps_prefixes", "_enumerate_torus_prefixes",
                     "_fill_knight_rows", "_fill_rows", "_fill_solutions", "_fill_torus_rows",
                     "_mirror_rows", "_start_cursor"], "enumerate"),
    "_min_conflicts": "local_search",
    **dict.fromkeys(["_probe_knight_states", "_probe_states", "_probe_torus_states",
                     "_profile_knight_run", "_profile_run", "_profile_torus_run"], "estimate"),
    **dict.fromkeys([
        "_IMAGE_COMPLEMENT", "_IMAGE_INVERSE", "_IMAGE_REVERSE", "_count_symmetric_knight_run",
        "_count_symmetric_run", "_symmetric_allow", "_symmetric_knight_prefixes"],
        "symmetric"),
    "_count_symmetric_first": "symmetric_first",
    "_list_symmetric_prefixes": "prefixes",
    **dict.fromkeys(["cuda", "numpy_shim", "launch_shape", "_gpu_count", "_gpu_knight_count",
                     "_gpu_torus_count", "_gpu_symmetric", "_gpu_knight_symmetric"], "gpu"),
    **dict.fromkeys(["_trace_knight_search",
                     "_trace_search", "_trace_torus_search"], "trace"),
}

#: The kernel of each job on each board (its flag: 0 for plain queens, ``TORUS``, ``KNIGHT``)
#: and whether the rows have allowed squares of their own (``None``: no such kernel). The
#: arguments of a job are the same on every board:
#:
#: ================  ==================================================================
#: ``count``         ``(n, states, depth, allow, stack, level, partial, budget, signal)``:
#:                   the count of a batch of subproblems for a budget of steps, or fewer
#:                   once another thread sets ``signal`` (toroidal queens by least steps)
#: ``symmetric``     ``(n, states, depth, stack, level, partial, work, budget, signal)``:
#:                   the same by the D4-symmetric search
#: ``symmetric_first``  ``(n, states, depth, allows, stack, counts, work, budget,
#:                   signal)``: the same on plain queens in the kernel that compiles
#:                   fastest, each state whole, its results added to ``counts``; returns
#:                   the states done
#: ``count_rows``    ``(n, row, cols, diag, anti, allow, stack)``: the plainest count, no
#:                   budget
#: ``prefixes``      ``(n, depth, first_limit, allow, max_states)``: a split's prefixes
#:                   (``count_prefixes``: those of the count, by least steps on the torus)
#: ``symmetric_prefixes``  ``(n, low, high, target, max_states)``: the symmetric split's,
#:                   in one call
#: ``fill``          ``(n, base, stack, queens, level, out, budget, allow)``: enumeration
#: ``profile``       ``(n, states, depth, limit, weights, stack, level, below, out, budget)``
#: ``probe``         ``(n, states, depth, tail, first, n_probes, base, extra, rng, sums,
#:                   squares)``: random probes of an estimate
#: ``trace``         ``(n, allow, events, stack)``: the search event by event
#: ``gpu_count``     ``(levels, block, wide)``: the CUDA kernel of ``count`` (allowed
#:                   squares always given) for stacks of ``levels`` levels, blocks of
#:                   ``block`` threads, ``int64`` stack words if ``wide`` (``gpu``)
#: ``gpu_symmetric`` the same of ``symmetric``
#: ================  ==================================================================
_BY_BOARD = {  # job: kernels of (queens, queens with allowed squares, torus, superqueens)
    "count": ("_count_batch", "_count_allowed_batch", "_count_torus_batch",
              "_count_knight_batch"),
    "symmetric": ("_count_symmetric_run", None, None, "_count_symmetric_knight_run"),
    "symmetric_first": ("_count_symmetric_first", None, None, None),
    "count_rows": ("_count_rows", "_count_rows", None, None),
    "prefixes": ("_enumerate_prefixes", "_enumerate_prefixes", "_enumerate_torus_prefixes",
                 "_enumerate_knight_prefixes"),
    "count_prefixes": ("_enumerate_prefixes", "_enumerate_prefixes",
                       "_enumerate_steps_prefixes", "_enumerate_knight_prefixes"),
    "symmetric_prefixes": ("_list_symmetric_prefixes", None, None,
                           "_symmetric_knight_prefixes"),
    "fill": ("_fill_solutions", "_fill_rows", "_fill_torus_rows", "_fill_knight_rows"),
    "profile": ("_profile_run", None, "_profile_torus_run", "_profile_knight_run"),
    "probe": ("_probe_states", None, "_probe_torus_states", "_probe_knight_states"),
    "trace": ("_trace_search", "_trace_search", "_trace_torus_search", "_trace_knight_search"),
    "gpu_count": ("_gpu_count", "_gpu_count", "_gpu_torus_count", "_gpu_knight_count"),
    "gpu_symmetric": ("_gpu_symmetric", None, None, "_gpu_knight_symmetric"),
}
#: Jobs whose kernel does not depend on the board.
_ANY_BOARD = {"start_cursor": "_start_cursor", "mirror_rows": "_mirror_rows",
              "symmetric_allow": "_symmetric_allow", "steps_weight": "_steps_weight",
              "min_conflicts": "_min_conflicts"}
#: The same, by ``(job, board flag, constrained)``.
_ENTRIES = {
    **{(job, flag, constrained): name
       for job, names in _BY_BOARD.items()
       for (flag, constrained), name in zip([(0, False), (0, True), (TORUS, False),
                                             (KNIGHT, False)], names) if name is not None},
    **{(job, 0, False): name for job, name in _ANY_BOARD.items()},
}

__all__ = ["KNIGHT", "STEPS", "TAIL_ROWS", "TAIL_SOLUTIONS", "TORUS", "apart",
           "cache_directory", "cache_of", "compiling", "entry", "has", "images",
           "interrupts_deferred", "is_loaded", "is_ours", "is_ready", "loaded_counts",
           "mark_loaded", "not_the_cache_asked", "notice", "numba_module", "said_compiling",
           "say"]

#: The count kernels compiled or loaded in this process, as ``(method, board flag,
#: constrained)`` (method ``"small"``: the plainest count, ``count_rows``): added by the runs
#: that use them (:func:`mark_loaded`), read by the plan of a count (:func:`is_loaded`: a
#: small board is counted faster by a loaded kernel than by NumPy or by a kernel still to
#: load).
loaded_counts = set()


def is_loaded(method, flag, constrained):
    """Whether the count kernel of ``method`` (or ``"small"``) for the board of kernel flag
    ``flag``, with constraints or without, ran in this process."""
    return (method, flag, bool(constrained)) in loaded_counts


def mark_loaded(method, flag, constrained):
    """Record that the count kernel of :func:`is_loaded` ran in this process."""
    loaded_counts.add((method, flag, bool(constrained)))


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
def interrupts_deferred():
    """While inside (in the main thread), Ctrl-C waits: numba and the kernels' modules load
    whole, and the interruption is raised once they have. An import cut short leaves a
    module half made, after which every later call of the process fails (RecursionError,
    "module 'numba' has no attribute 'core'", "cannot load module more than once per
    process"). Nested uses defer once; a SIGINT handler that is not a Python function
    (ignored, default) is left alone."""
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
            raise KeyboardInterrupt("interrupted while the package loaded (it loaded whole: "
                                    "the next call works)")
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
    while not done.wait(0.05):  # (a Ctrl-C raises here; not in a join, which it can leave
        pass                    # marking the thread as ended while it runs)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


_running = set()  # the calls of :func:`apart` not ended


def compiling():
    """Whether a call :func:`apart` left is still running (compiling) in this process."""
    return bool(_running)


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
    return module.startswith(__name__.rsplit(".", 1)[0] + ".")


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


def has(job, board=None, constrained=False):
    """Whether :func:`entry` has a kernel of ``job`` on ``board`` (without loading it)."""
    return (job, 0 if board is None else board.flag, bool(constrained)) in _ENTRIES


def is_ready(job, board=None, constrained=False):
    """Whether the kernel of ``job`` (as :func:`entry`) needs no compile: compiled in this
    process, or in numba's cache for its source as it is now. ``True`` when that cannot be
    told (a cache numba lays out otherwise): the caller then does as if it were."""
    kernel = entry(job, board, constrained)
    if getattr(kernel, "signatures", None):
        return True
    try:
        return bool(kernel._cache._cache_file._load_index())  # (empty: none, or stale)
    except Exception:  # noqa: BLE001 - numba's private layout: assume ready
        return True


def entry(job, board=None, constrained=False):
    """The kernel of ``job`` on ``board`` (an object with a ``flag``, see
    :class:`nqueens_numba.board.Board`; ``None``: plain queens), for rows with allowed squares
    of their own when ``constrained``: a numba dispatcher (the table ``_ENTRIES`` lists the
    jobs and their arguments). Loads its family, and numba, on first use."""
    key = (job, 0 if board is None else board.flag, bool(constrained))
    name = _ENTRIES.get(key)
    if name is None:
        raise LookupError(f"no kernel for {key} (job, board flag, constrained)")
    value = globals().get(name)
    return value if value is not None else __getattr__(name)


def images():
    """How ``_kernels.symmetric`` writes the seven non-identity images of a placement:
    ``(inverse, reverse, complement)``, three ``(7,)`` int64 arrays (see there)."""
    return tuple(__getattr__(name) for name in ("_IMAGE_INVERSE", "_IMAGE_REVERSE",
                                                 "_IMAGE_COMPLEMENT"))


def __getattr__(name):
    family = _FAMILY.get(name)
    if family is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        with interrupts_deferred(), _import_lock:  # numba and the module load whole
            if not _first_compile["installed"]:  # before numba compiles anything of ours
                _install_first_compile_notice()
                _first_compile["installed"] = True
            module = importlib.import_module(f".{family}", __name__)
            _tolerate_cache_errors()
    except RuntimeError as exc:
        if "no locator available" not in str(exc):
            raise
        raise RuntimeError(f"numba cannot cache the kernels: neither the package folder nor "
                           f"the user's cache folder is writable ({exc}); set "
                           f"NUMBA_CACHE_DIR to a writable folder") from None
    value = getattr(module, name)
    globals()[name] = value
    return value


def _tolerate_cache_errors():
    """Make numba's cache of every kernel loaded so far tolerate what it cannot read or
    write: a damaged cache file is compiled again (and saved over), a cache that cannot be
    written (a full disk) leaves the kernel compiled for this process only; each says so once
    per process in a ``RuntimeWarning``. Without this, either made every later call fail with
    numba's own error (``UnpicklingError``, ``OSError``) until the cache was removed."""
    caching = numba_module("numba.core.caching")
    tolerant = _tolerant_cache_class(caching)
    for name, module in list(sys.modules.items()):
        if name.startswith(f"{__name__}.") and name not in _tolerant_modules:
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


def __dir__():
    return sorted(set(globals()) | set(_FAMILY))
