"""nqueens_numba: the n-queens problem solved by a numba-compiled bitboard search.

Count, enumerate and print the solutions of the n-queens problem for ``0 <= n <= 63``.
This module only gathers the public names of the modules that do each job, importing each
module when one of its names is first used (``import nqueens_numba`` is quick, and the
``nqueens`` command can handle Ctrl-C from its first moment). A Ctrl-C while a module (and
numpy, numba, the kernels) loads waits for the loading to end, then interrupts: a first call
interrupted in a notebook leaves the package whole.
"""
from ._version import __version__

#: The module of each public name.
_HOME = {
    "is_solution": "checking",
    "CheckpointError": "checkpoint",
    **dict.fromkeys(["LongCountWarning", "count_solutions", "first_row_counts",
                     "symmetry_classes"], "counting"),
    **dict.fromkeys(["boards", "fundamental_solutions", "solve"], "enumeration"),
    **dict.fromkeys(["NoCompletionError", "construct", "find_solution"], "huge"),
    "warmup": "precompile",
    **dict.fromkeys(["BoardGrid", "TraceView", "format_board", "format_text", "plot_board",
                     "show", "to_boards", "to_svg"], "render"),
    **dict.fromkeys(["iter_solutions", "save_solutions"], "streaming"),
    **dict.fromkeys(["D4", "canonical_form", "compose", "images", "is_canonical", "orbit",
                     "orbit_size", "stabilizer_order", "transform"], "symmetry"),
    **dict.fromkeys(["TraceTruncatedWarning", "trace"], "tracing"),
    **dict.fromkeys(["occupancy", "plot_occupancy"], "structure"),
    **dict.fromkeys(["Estimate", "estimate_count", "search_profile"], "estimation"),
}

#: Modules reachable as attributes (``nqueens_numba.checkpoint.status``, ...).
_MODULES = {"api", "checkpoint", "checking", "config", "constraints", "counting",
            "distributed", "enumeration", "export", "huge", "precompile", "render",
            "streaming", "symmetry", "tracing", "structure", "estimation", "cli"}


def __getattr__(name):
    import importlib

    from ._kernels._loading import interrupts_deferred

    if name not in _HOME and name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with interrupts_deferred():  # Ctrl-C waits for the modules to load whole
        if name in _HOME:
            value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        else:
            value = importlib.import_module(f".{name}", __name__)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__) | _MODULES)


__all__ = [*_HOME, "__version__"]
