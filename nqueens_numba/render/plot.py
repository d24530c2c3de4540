"""Boards and per-square counts drawn with matplotlib (imported when first drawn), for figures
in papers."""
import warnings

import numpy as np

from ..board import board_of
from ._common import (ATTACKED, DARK, LIGHT, MAX_SVG_N, QUEEN, as_placements, check_attacks,
                      coordinate_style, label_step, labels)

__all__ = ["plot_board", "heatmap", "pyplot_for"]

#: Default size of :func:`plot_board`'s figure: 0.4 inch per square, within these bounds.
FIGURE_INCHES = (2.0, 8.0)

#: Squares smaller than this many pixels in the axes are not drawn one by one: the board is
#: one colour between light and dark (a chequer finer than the pixels only makes moiré), and
#: its queens are square marks of at least this size (glyphs would vanish).
FINE_SQUARE_PIXELS = 3.0

#: Smallest row and column labels, in points: readable in print and on screen (labels that
#: would overlap at this size are thinned instead).
MIN_LABEL_POINTS = 8.0


def pyplot_for(caller):
    """``matplotlib.pyplot``, or an ``ImportError`` saying that ``caller`` needs it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(f"{caller} needs matplotlib: pip install "
                          "'nqueens_numba[notebook]' (or matplotlib)") from exc
    return plt


def _check_axes(ax):
    """``ax`` if it is a matplotlib ``Axes``, else a ``TypeError``."""
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    return ax


def _new_axes(plt, n, aspect=1.0):
    """The axes of a new figure 0.4 inch per square, between ``FIGURE_INCHES``, ``aspect``
    times as wide as high."""
    side = min(max(FIGURE_INCHES[0], 0.4 * n), FIGURE_INCHES[1])
    return plt.subplots(figsize=(side * aspect, side))[1]


def _queen_glyph():
    """The queen glyph as a matplotlib path, centred on 0 and 1 unit high, y pointing
    down (for axes whose row 0 is at the top)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path
    from matplotlib.textpath import TextPath

    glyph = TextPath((0, 0), QUEEN, size=1, prop=FontProperties(family="DejaVu Sans"))
    (x0, y0), (x1, y1) = glyph.get_extents().get_points()
    scale = 1 / max(x1 - x0, y1 - y0)
    vertices = (glyph.vertices - [(x0 + x1) / 2, (y0 + y1) / 2]) * [scale, -scale]
    return Path(vertices, glyph.codes)


def plot_board(queens, ax=None, *, attacks=False, coordinates=True, piece="queen",
               torus=False):
    """Draw one board with matplotlib (for figures in papers).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``; -1 leaves a row empty.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default the axes of a new figure 0.4 inch per square, between 2
        and 8 inches wide (``FIGURE_INCHES``).
    attacks : bool, optional
        Shade the attacked squares (a queen's own square where another queen attacks it),
        as in :func:`to_svg`.
    coordinates : bool or {"index", "chess"}, optional
        Label rows and columns as in :func:`to_svg` (thinned to fit the axes).
    piece, torus : optional
        The board whose attacks are shaded, as in :func:`to_svg`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install "nqueens_numba[notebook]"``).
    TypeError, ValueError
        As :func:`to_svg` (``ValueError`` for boards of more than ``MAX_SVG_N`` (100,000)
        rows); ``TypeError`` also for an ``ax`` that is not an ``Axes``.

    Notes
    -----
    Queens are one patch of glyph outlines in data coordinates, each 0.8 of a square: they
    stay inside their squares at any figure size, in subplot grids and when the figure is
    resized. Label sizes follow the size of a square in the axes when drawn. A board whose
    squares are smaller than ``FINE_SQUARE_PIXELS`` (3) in the axes when drawn is one
    colour, its queens square marks of that size at least.
    """
    plt = pyplot_for("plot_board")
    from matplotlib.colors import LinearSegmentedColormap, ListedColormap
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    q = as_placements(queens, 1, partial=True)
    style = coordinate_style(coordinates)
    rules = board_of(piece, torus)
    n = len(q)
    if n > MAX_SVG_N:
        raise ValueError(f"plot_board draws boards of n <= {MAX_SVG_N}, got n={n}: a drawing "
                         f"that large shows nothing; check it with is_solution")
    attacks = check_attacks(attacks, n)
    ax = _new_axes(plt, n) if ax is None else _check_axes(ax)
    extent = (-0.5, n - 0.5, n - 0.5, -0.5)
    bbox = ax.get_window_extent()
    square = min(bbox.width, bbox.height) / max(n, 1)  # pixels
    fine = square < FINE_SQUARE_PIXELS
    if n:  # (the empty board: no squares, and no zero-width image for matplotlib to warn of)
        pattern = (np.zeros((1, 1)) + 0.5 if fine
                   else (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(float))
        ax.imshow(pattern, cmap=LinearSegmentedColormap.from_list("board", [LIGHT, DARK]),
                  extent=extent, vmin=0, vmax=1, interpolation="nearest")
    if attacks and n:
        overlay = np.where(rules.attacked(q), 1.0, np.nan)
        ax.imshow(overlay, cmap=ListedColormap([ATTACKED]), alpha=0.35, extent=extent,
                  interpolation="nearest")
    rows = np.flatnonzero(q >= 0)
    if len(rows) and fine:  # marks of FINE_SQUARE_PIXELS at least, in points
        side = max(square * 0.8, FINE_SQUARE_PIXELS) * 72 / ax.figure.dpi
        ax.scatter(q[rows], rows, s=side ** 2, marker="s", c="#111", linewidths=0,
                   gid="queens")
    elif len(rows):
        glyph = _queen_glyph()
        paths = [Path(glyph.vertices * 0.8 + [q[r], r], glyph.codes) for r in rows]
        ax.add_patch(PathPatch(Path.make_compound_path(*paths), facecolor="#111",
                               edgecolor="none", gid="queens"))
    _label_axes(ax, n, style)
    return ax


def _label_axes(ax, n, style):
    """Limits, row 0 at the top, and thinned row and column labels of an ``n``-board drawn
    in data coordinates (square ``(r, c)`` centred on ``(c, r)``)."""
    ax.set_xlim(-0.5, max(n, 1) - 0.5)  # (an empty board: the square of n = 1, empty)
    ax.set_ylim(max(n, 1) - 0.5, -0.5)
    if style:
        cols_text, rows_text = labels(n, style)
        bbox = ax.get_window_extent()
        square = min(bbox.width, bbox.height) / max(n, 1) * 72 / ax.figure.dpi  # points
        font = min(max(square * 0.45, MIN_LABEL_POINTS), 10.0)
        widest = max(len(t) for t in cols_text + rows_text) if n else 1
        col_step = label_step(n, square, font * (0.6 * widest + 1.0))
        row_step = label_step(n, square, font * 1.6)
        ax.set_xticks(range(0, n, col_step), cols_text[::col_step], fontsize=font)
        ax.set_yticks(range(0, n, row_step), rows_text[::row_step], fontsize=font)
        if style == "index":
            ax.xaxis.tick_top()
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    ax.tick_params(length=0)


def heatmap(counts, ax=None, *, coordinates=True, label="solutions"):
    """Draw ``(n, n)`` counts per square as a heatmap on a board's axes, with a colour bar.

    Parameters
    ----------
    counts : array_like of int or float, shape (n, n)
        A value per square, ``counts[row, column]``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default the axes of a new figure sized as :func:`plot_board`'s.
    coordinates : bool or {"index", "chess"}, optional
        Row and column labels, as in :func:`to_svg`.
    label : str, optional
        The colour bar's label.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``, or the new axes, with the colour bar beside them.

    Raises
    ------
    ImportError
        As :func:`plot_board`.
    TypeError
        If ``ax`` is not a matplotlib ``Axes``.
    ValueError
        If ``counts`` is not square or holds non-finite or negative values.
    """
    plt = pyplot_for("heatmap")
    values = np.asarray(counts)
    if values.dtype.kind not in "iuf" or values.ndim != 2 or values.shape[0] != values.shape[1]:
        raise ValueError(f"counts must be a square array of numbers, got shape "
                         f"{values.shape} and dtype {values.dtype}")
    if values.size and (not np.isfinite(values).all() or values.min() < 0):
        raise ValueError("counts must be finite and non-negative")
    style = coordinate_style(coordinates)
    n = values.shape[0]
    if n == 0:
        warnings.warn("the empty board (n = 0) has no squares: the heatmap is empty",
                      UserWarning, stacklevel=3)
    ax = _new_axes(plt, n, aspect=1.2) if ax is None else _check_axes(ax)
    side = max(n, 1)  # (the empty board: the extent of one square, no image in it)
    image = ax.imshow(values if n else np.zeros((1, 1)), cmap="viridis",
                      extent=(-0.5, side - 0.5, side - 0.5, -0.5), interpolation="nearest",
                      alpha=None if n else 0.0)
    ax.figure.colorbar(image, ax=ax, label=label, shrink=0.8)
    _label_axes(ax, n, style)
    return ax
