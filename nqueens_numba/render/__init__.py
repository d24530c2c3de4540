"""Rendering of solutions: LeetCode rows, text boards, SVG boards, Jupyter displays, plots.

================  =================================================================
``text``          LeetCode 51 rows, plain-text boards (:func:`format_board`, :func:`to_boards`,
                  :func:`format_text`)
``svg``           SVG boards and the grids that display them (:func:`to_svg`,
                  :class:`SVGText`, :class:`BoardGrid`, :func:`show`)
``plot``          matplotlib figures (:func:`plot_board`, :func:`heatmap`)
``trace_view``    a search trace stepped through on a board (:class:`TraceView`)
``_common``       what they share: colours, placement checks, square sizes, labels
================  =================================================================

Pure Python and NumPy (matplotlib, imported lazily, for :func:`plot_board` and
:func:`heatmap`); imports nothing else from the package but its argument checks and the
boards' attack rules (:mod:`nqueens_numba.board`), and computes no solutions. Boards are
drawn as the arrays read: row 0 at the top, rows and columns labelled ``0 .. n-1``
(``coordinates="chess"``: files ``a, b, ...`` from the left and ranks ``n .. 1`` from the
top, as on a chessboard).
"""
from ._common import (ATTACKED, ATTACKS_MAX_N, DARK, LIGHT, MAX_CELL, MAX_CELL_PIXELS,
                      MAX_SVG_N, QUEEN)
from .plot import FIGURE_INCHES, heatmap, plot_board
from .svg import (BOARD_PIXELS, GRID_BOARD_PIXELS, GRID_MAX_N, SQUARES_MAX_N, BoardGrid,
                  SVGText, show, to_svg)
from .text import TEXT_MAX_N, format_board, format_text, to_boards
from .trace_view import TraceView

__all__ = ["format_board", "to_boards", "format_text", "to_svg", "SVGText", "show",
           "BoardGrid", "plot_board", "TraceView"]
