"""The first public functions of the package, gathered from the modules that do each job.

Kept for code that imports ``nqueens_numba.api``; ``import nqueens_numba`` gives these names
and the rest (see ``docs/design.md``, "How the code is organised", for where each one lives).
"""
from ._split import METHODS, SYMMETRIC_RESULTS
from .checking import is_solution
from .counting import count_solutions, first_row_counts, symmetry_classes
from .enumeration import boards, fundamental_solutions, solve
from .streaming import iter_solutions, save_solutions
from .tracing import TRACE_DTYPE, trace

__all__ = [
    "count_solutions",
    "first_row_counts",
    "solve",
    "boards",
    "is_solution",
    "fundamental_solutions",
    "symmetry_classes",
    "iter_solutions",
    "save_solutions",
    "trace",
    "TRACE_DTYPE",
    "METHODS",
    "SYMMETRIC_RESULTS",
]
