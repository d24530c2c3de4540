"""nqueens_numba: the n-queens problem solved by a numba-compiled bitboard search.

Count, enumerate and print the solutions of the n-queens problem for ``0 <= n <= 63``.
This module only gathers the public names of the modules that do each job.
"""
from . import api  # noqa: F401 - ``nqueens_numba.api`` after ``import nqueens_numba``
from . import checkpoint  # noqa: F401 - ``nqueens_numba.checkpoint.status``
from ._version import __version__
from .checking import is_solution
from .checkpoint import CheckpointError
from .counting import LongCountWarning, count_solutions, first_row_counts, symmetry_classes
from .enumeration import boards, fundamental_solutions, solve
from .huge import NoCompletionError, construct, find_solution
from .precompile import warmup
from .render import (
    BoardGrid,
    TraceView,
    format_board,
    format_text,
    plot_board,
    show,
    to_boards,
    to_svg,
)
from .streaming import iter_solutions, save_solutions
from .symmetry import (
    D4,
    canonical_form,
    compose,
    images,
    is_canonical,
    orbit,
    orbit_size,
    stabilizer_order,
    transform,
)
from .tracing import TraceTruncatedWarning, trace

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
    "D4",
    "transform",
    "compose",
    "images",
    "orbit",
    "orbit_size",
    "stabilizer_order",
    "canonical_form",
    "is_canonical",
    "CheckpointError",
    "LongCountWarning",
    "construct",
    "find_solution",
    "NoCompletionError",
    "trace",
    "TraceTruncatedWarning",
    "to_svg",
    "show",
    "BoardGrid",
    "plot_board",
    "TraceView",
    "format_board",
    "format_text",
    "to_boards",
    "warmup",
    "__version__",
]
