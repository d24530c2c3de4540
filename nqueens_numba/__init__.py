"""nqueens_numba: the n-queens problem solved by a numba-compiled bitboard search.

Count, enumerate and print the solutions of the n-queens problem for ``0 <= n <= 63``.
"""
from .api import boards, count_solutions, first_row_counts, is_solution, solve
from .render import format_board, format_text, to_boards

__version__ = "0.1.0"

__all__ = [
    "count_solutions",
    "first_row_counts",
    "solve",
    "boards",
    "is_solution",
    "format_board",
    "format_text",
    "to_boards",
    "__version__",
]
