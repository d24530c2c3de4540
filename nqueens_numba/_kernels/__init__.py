"""Every compiled kernel of the package, by family; importing nothing else from the package.

=================  ================================================================
``_sizes``         the tail sizes, for the callers too (imports no numba)
``_common``        JIT options, the full mask, tail sizes, the tail with allowed squares
``bitboard``       counting (plain and with allowed squares), prefixes, resumable enumeration
``symmetric``      the D4-symmetric count and its prefixes
``local_search``   min-conflicts repair of one solution
``trace``          the search, event by event
``estimate``       nodes per depth of the search tree, exactly or by random probes
=================  ================================================================

Kernels are imported on first use (``_kernels._count_states`` imports ``bitboard``, and numba
with it); the tail sizes come from ``_sizes``, which imports no numba. The first kernel numba
compiles in a process says so on stderr (one line naming the cache folder).

Kernels assume valid input (the callers validate), take only scalars and fixed-dtype arrays,
and never format strings. They are named underscore + verb + object (``_count_states``); the
callers reach them through this package (``_kernels._count_states``), so that a test can
replace one here.

Kernels are cached per source file (``cache=True``): numba does not notice when a helper of
``_common`` that a kernel of another file inlines has changed, so after editing ``_common.py``
remove the ``__pycache__`` folders (or set ``NUMBA_CACHE_DIR`` to a new folder).
"""
import importlib
import os
import sys
import threading

from ._sizes import KNIGHT, STEPS, TAIL_ROWS, TAIL_SOLUTIONS, TORUS

#: The family (module) of each kernel and constant, loaded on first use: importing the
#: package does not import numba, so a first call that needs no kernel (a small board,
#: :mod:`nqueens_numba._breadth`; a construction; a drawing) does not pay for it.
_FAMILY = {
    "JIT": "_common",
    "_steps_weight": "_common",
    **dict.fromkeys([
        "_count_allowed_batch", "_count_allowed_states", "_count_batch", "_count_rows",
        "_count_states", "_count_variant_batch", "_count_variant_states",
        "_enumerate_prefixes", "_enumerate_variant_prefixes", "_fill_rows",
        "_fill_solutions", "_fill_variant_rows", "_mirror_rows", "_start_cursor"],
        "bitboard"),
    "_min_conflicts": "local_search",
    **dict.fromkeys(["_probe_states", "_probe_variant_states", "_profile_run",
                     "_profile_states", "_profile_variant_run", "_profile_variant_states"],
                    "estimate"),
    **dict.fromkeys([
        "_IMAGE_COMPLEMENT", "_IMAGE_INVERSE", "_IMAGE_REVERSE", "_count_symmetric_run",
        "_count_symmetric_states", "_count_symmetric_variant_run",
        "_count_symmetric_variant_states", "_symmetric_allow"], "symmetric"),
    **dict.fromkeys(["TRACE_PLACE", "TRACE_REMOVE", "TRACE_SOLUTION", "_trace_search",
                     "_trace_variant_search"], "trace"),
}

__all__ = ["KNIGHT", "STEPS", "TAIL_ROWS", "TAIL_SOLUTIONS", "TORUS", "cache_directory",
           "cache_of", "is_ours", "notice", "said_compiling", *sorted(_FAMILY)]

#: Per thread: ``active`` while a caller's own notice (``_runner.compiling_notice``), which
#: names the feature, is on; the process's first-compile line then stays quiet.
notice = threading.local()

_first_compile = {"said": False, "installed": False}
_install_lock = threading.Lock()


def cache_directory():
    """Where numba caches the kernels: ``NUMBA_CACHE_DIR`` if set, else the ``__pycache__``
    folder of this package (numba falls back to a user cache folder when that is not
    writable: :func:`cache_of` names the one it chose)."""
    from numba.core.config import CACHE_DIR

    return CACHE_DIR or os.path.join(os.path.dirname(__file__), "__pycache__")


def cache_of(ev):
    """The folder numba caches the kernel of compile event ``ev`` in: the one its locator
    chose, else :func:`cache_directory`."""
    cache = getattr(ev.data.get("dispatcher"), "_cache", None)
    return getattr(cache, "_cache_path", None) or cache_directory()


def is_ours(ev):
    """Whether compile event ``ev`` is of a kernel of this package."""
    func = getattr(ev.data.get("dispatcher"), "py_func", None)
    return getattr(func, "__module__", "").startswith(__name__.rsplit(".", 1)[0] + ".")


def said_compiling():
    """Record that a line about compiling was printed (the first-compile line is then not)."""
    _first_compile["said"] = True


def _install_first_compile_notice():
    """The first kernel of the package that numba compiles in this process (not one loaded
    from its cache) prints one line on stderr, so that a first call's seconds of compiling
    are not taken for a hang."""
    from numba.core import event

    class Listener(event.Listener):
        def on_start(self, ev):
            if (not _first_compile["said"] and not getattr(notice, "active", False)
                    and is_ours(ev)):
                _first_compile["said"] = True
                print(f"nqueens_numba: compiling kernels (first use, seconds; cached in "
                      f"{cache_of(ev)})", file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())


def __getattr__(name):
    family = _FAMILY.get(name)
    if family is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _install_lock:  # before numba compiles anything of ours
        if not _first_compile["installed"]:
            _install_first_compile_notice()
            _first_compile["installed"] = True
    try:
        module = importlib.import_module(f".{family}", __name__)
    except RuntimeError as exc:
        if "no locator available" not in str(exc):
            raise
        raise RuntimeError(f"numba cannot cache the kernels: neither the package folder nor "
                           f"the user's cache folder is writable ({exc}); set "
                           f"NUMBA_CACHE_DIR to a writable folder") from None
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_FAMILY))
