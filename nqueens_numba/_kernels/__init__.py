"""Every compiled kernel of the package, by family; importing nothing else from the package.

=================  ================================================================
``_sizes``         the tail sizes, for the callers too (imports no numba)
``_common``        JIT options, the full mask, tail sizes, the tail with allowed squares
``bitboard``       counting (plain and with allowed squares), prefixes, resumable enumeration
``symmetric``      the D4-symmetric count and its prefixes
``local_search``   min-conflicts repair of one solution
``trace``          the search, event by event
=================  ================================================================

Kernels are imported on first use (``_kernels._count_states`` imports ``bitboard``, and numba
with it); the tail sizes come from ``_sizes``, which imports no numba.

Kernels assume valid input (the callers validate), take only scalars and fixed-dtype arrays,
and never format strings. They are named underscore + verb + object (``_count_states``); the
callers reach them through this package (``_kernels._count_states``), so that a test can
replace one here.

Kernels are cached per source file (``cache=True``): numba does not notice when a helper of
``_common`` that a kernel of another file inlines has changed, so after editing ``_common.py``
remove the ``__pycache__`` folders (or set ``NUMBA_CACHE_DIR`` to a new folder).
"""
import importlib
import threading

from ._sizes import TAIL_ROWS, TAIL_SOLUTIONS

#: The family (module) of each kernel and constant, loaded on first use: importing the
#: package does not import numba, so a first call that needs no kernel (a small board,
#: :mod:`nqueens_numba._breadth`; a construction; a drawing) does not pay for it.
_FAMILY = {
    "JIT": "_common",
    **dict.fromkeys([
        "_count_allowed_batch", "_count_allowed_states", "_count_batch", "_count_rows",
        "_count_states", "_enumerate_prefixes", "_fill_rows", "_fill_solutions",
        "_mirror_rows", "_start_cursor"], "bitboard"),
    "_min_conflicts": "local_search",
    **dict.fromkeys([
        "_IMAGE_COMPLEMENT", "_IMAGE_INVERSE", "_IMAGE_REVERSE", "_count_symmetric_run",
        "_count_symmetric_states", "_symmetric_allow"], "symmetric"),
    **dict.fromkeys(["TRACE_PLACE", "TRACE_REMOVE", "TRACE_SOLUTION", "_trace_search"],
                    "trace"),
}

__all__ = ["TAIL_ROWS", "TAIL_SOLUTIONS", *sorted(_FAMILY)]

_on_load = []  # called once, after the first family is imported (numba with it)
_on_load_lock = threading.Lock()


def when_loaded(callback):
    """Call ``callback()`` once, right after the first kernel family is imported (and numba
    with it), before any kernel compiles: at once if that has happened."""
    with _on_load_lock:
        if _on_load is not None:
            _on_load.append(callback)
            return
    callback()


def __getattr__(name):
    global _on_load
    family = _FAMILY.get(name)
    if family is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{family}", __name__), name)
    globals()[name] = value
    with _on_load_lock:
        callbacks, _on_load = _on_load or [], None
    for callback in callbacks:
        callback()
    return value


def __dir__():
    return sorted(set(globals()) | set(_FAMILY))
