"""Boards as SVG: one board (:func:`to_svg`), and grids of boards that display themselves in
Jupyter (:class:`BoardGrid`, :func:`show`), as text elsewhere."""
import functools
import html
import sys
import textwrap

import numpy as np

from .. import _validate
from ..board import board_of
from ._common import (ATTACKED, DARK, INK, LIGHT, MAX_SVG_N, PAPER, QUEEN, as_placements,
                      auto_cell, check_attacks, check_cell, coordinate_style, label_step,
                      labels)
from .text import text_board

__all__ = ["to_svg", "SVGText", "show", "BoardGrid"]

#: Width in pixels a board drawn by :func:`to_svg` aims at when ``cell`` is not given (its
#: squares are at most ``MAX_CELL`` pixels), and a board of :func:`show`'s grid.
BOARD_PIXELS = 480
GRID_BOARD_PIXELS = 160

#: Boards up to this order are drawn square by square (``<rect class="square">`` elements
#: with ``data-row`` and ``data-col``, queens as glyphs); larger ones compactly: one pattern
#: for the dark squares, one path for the queens, so that n = 1000 takes 32 kB.
SQUARES_MAX_N = 32

#: Largest board :func:`show`'s grid draws (a 160-pixel board of n = 1000 shows its queens
#: as dots already; larger ones only make the page heavy).
GRID_MAX_N = 1000



class SVGText(str):
    """An SVG document as a ``str`` that Jupyter draws (``_repr_svg_``) instead of printing."""

    __slots__ = ()

    def _repr_svg_(self):
        return str(self)

    def _repr_pretty_(self, printer, cycle):  # a notebook keeps this, not the SVG twice
        printer.text(f"<SVG image, {len(self):,} characters>")


def _runs_path(mask, x0, y0, cell):
    """SVG path data covering the True squares of ``mask`` ``(n, n)``, one rectangle per run
    of adjacent squares in a row."""
    parts = []
    for r in np.flatnonzero(mask.any(axis=1)):
        row = np.concatenate(([False], mask[r], [False]))
        edges = np.flatnonzero(row[1:] != row[:-1])
        for a, b in zip(edges[::2], edges[1::2]):
            parts.append(f"M{x0 + a * cell:g} {y0 + r * cell:g}h{(b - a) * cell:g}"
                         f"v{cell:g}h{-(b - a) * cell:g}z")
    return "".join(parts)


def _printable(text):
    """``text`` with the characters XML cannot hold, and other control characters but line
    breaks, shown as U+FFFD."""
    return "".join(c if c.isprintable() or c == "\n" else "\ufffd" for c in text)


def _wrap(text, width, font):
    """``text`` in lines no wider than ``width`` (0.6 ``font`` per character), broken
    after a colon first, then between words (a word longer than a line is cut), each part
    in lines of even length (no last word alone on a line)."""
    most = max(1, int(width / (0.6 * font)))
    if len(text) <= most:
        return [text]
    wrap = functools.partial(textwrap.wrap, break_long_words=False, break_on_hyphens=False)
    lines = []
    for part in text.replace(": ", ":\n").split("\n"):
        fewest = len(wrap(part, most))
        narrowest = most  # the narrowest width that needs no more lines than ``most``
        while narrowest > 1 and len(wrap(part, narrowest - 1)) == fewest:
            narrowest -= 1
        for line in wrap(part, narrowest):
            lines += [line[i:i + most] for i in range(0, len(line), most)]
    return lines


def _squares(marked, n):
    """``marked`` (``to_svg``) as a list of ``(row, column)``, checked: ``TypeError``
    unless a sequence of pairs, ``ValueError`` for squares off the board."""
    def refuse(what):
        raise TypeError(f"marked must be a sequence of (row, column) pairs, got {what}")

    if marked is None:
        return []
    if isinstance(marked, (str, bytes)) or not hasattr(marked, "__iter__") or (
            isinstance(marked, np.ndarray) and marked.ndim == 0):  # (no items)
        refuse(type(marked).__name__)
    squares = []
    for square in marked:
        if isinstance(square, (str, bytes)) or not hasattr(square, "__len__") or len(
                square) != 2:
            refuse(f"{square!r} among them")
        r, c = square
        squares.append((_validate.in_range(r, "row", 0, n - 1),
                        _validate.in_range(c, "column", 0, n - 1)))
    return squares


def to_svg(queens, *, cell=None, coordinates=True, attacks=False, title=None, piece="queen",
           torus=False, marked=None):
    """One board as an SVG image: light and dark squares, queens, labels.

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``; -1 leaves a row empty (a partial placement).
        ``n <= MAX_SVG_N`` (100,000).
    cell : int or float, optional
        Side of a square, in pixels (SVG user units). By default the board is about
        ``BOARD_PIXELS`` (480) pixels wide, with squares of at most ``MAX_CELL`` (48).
    coordinates : bool or {"index", "chess"}, optional
        Label the rows and columns. ``True`` or ``"index"``: as the arrays index them, rows
        ``0 .. n-1`` from the top on the left and columns ``0 .. n-1`` from the left above;
        ``"chess"``: files ``a, b, ...`` (numbers past 26 columns) below and ranks ``n .. 1``
        from the top. Labels that would overlap are thinned (every 2nd, 5th, 10th, ...).
        ``False`` (or ``None``): no labels.
    attacks : bool, optional
        Shade the squares the queens attack, a queen's own square where another queen
        attacks it (a conflict: none in a solution); boards of ``n <= ATTACKS_MAX_N``
        (10,000).
    title : str, optional
        A caption above the board, in lines no wider than the board and its labels.
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board whose attacks ``attacks`` shades: superqueens also attack a knight's move
        away; on the torus the diagonals wrap around the edges.
    marked : sequence of (int, int), optional
        Squares ``(row, column)`` to outline (dashed, with a faint queen on boards drawn
        square by square), such as the square a step of a search has just emptied
        (``TypeError`` unless pairs of integers, ``ValueError`` off the board).

    Returns
    -------
    SVGText
        A ``str`` holding an ``<svg>`` element, which a notebook draws when it is the
        value of a cell (it has ``_repr_svg_``). Boards up to ``SQUARES_MAX_N`` (32) are
        drawn square by square: ``<rect class="square">`` with ``data-row`` and
        ``data-col``, queens as ``<text class="queen">`` (the Unicode queen) with the same
        attributes, attacked squares as ``<rect class="attacked">`` overlays. Larger boards
        are drawn compactly: a pattern for the dark squares, one ``<path class="queens">``
        (a square per queen: glyphs would be too small to see) and one
        ``<path class="attacked">``; n = 1000 takes 32 kB. The background (white)
        and the text (dark grey) have colours of their own, so that the drawing reads the
        same on a dark page.

    Raises
    ------
    TypeError, ValueError
        As :func:`format_board` (columns in ``-1 .. n-1``); ``TypeError`` for an
        ``attacks`` that is not ``True`` or ``False`` or a ``title`` that is not a string;
        ``ValueError`` for ``n`` above ``MAX_SVG_N`` (above ``ATTACKS_MAX_N`` with
        ``attacks``) or an unknown ``coordinates``.

    Examples
    --------
    >>> svg = to_svg([1, 3, 0, 2])
    >>> svg.startswith("<svg") and svg.count('class="queen"') == 4
    True
    """
    q = as_placements(queens, 1, partial=True)
    n = len(q)
    if n > MAX_SVG_N:
        raise ValueError(f"to_svg draws boards of n <= {MAX_SVG_N}, got n={n}: a drawing "
                         f"that large shows nothing; check the placement with is_solution")
    attacks = check_attacks(attacks, n)
    marked = _squares(marked, n)
    cell = auto_cell(n, BOARD_PIXELS) if cell is None else check_cell(cell)
    style = coordinate_style(coordinates)
    font = min(max(cell * 0.4, 9.0), 14.0)  # labels: readable, never larger than 14 px
    cols_text, rows_text = labels(n, style) if style else ([], [])
    widest = max((len(t) for t in cols_text + rows_text), default=1)
    left = font * (0.6 * widest + 0.8) if style else 0.0
    band = font * 1.6 if style else 0.0  # the column labels' band (above, or below: chess)
    # room for labels that stick out of the board: the last column's (right), the last
    # row's (below) or the first row's (above, chess)
    right = font * 0.3 * widest if style else 0.0
    below = font * 0.6 if style == "index" else 0.0
    above = font * 0.6 if style == "chess" else 0.0
    board = n * cell
    content = left + board + right
    title_font = min(max(cell * 0.45, 9.0), 18.0)  # captions scale with small boards
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a string or None, got {type(title).__name__}")
    lines = [] if title is None else _wrap(_printable(str(title)), max(content, 8 * title_font),
                                           title_font)
    top = (title_font * (0.4 + 1.2 * len(lines)) if lines else above) + (
        band if style == "index" else 0.0)
    width = max([content] + [0.6 * title_font * len(line) + title_font for line in lines])
    left += (width - content) / 2  # the board centred under a wider caption
    height = top + board + (band if style == "chess" else below)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.10g}" height="{height:.10g}" '
           f'viewBox="0 0 {width:.10g} {height:.10g}" font-family="sans-serif">',
           f'<rect class="background" width="{width:.10g}" height="{height:.10g}" '
           f'fill="{PAPER}"/>']
    for i, line in enumerate(lines):
        y = title_font * (1.1 + 1.2 * i)
        out.append(f'<text class="title" x="{width / 2:.10g}" y="{y:.10g}" text-anchor="middle" '
                   f'font-size="{title_font:.10g}" fill="{INK}">'
                   f'{html.escape(line, quote=False)}</text>')
    rules = board_of(piece, torus)  # (validated whether or not attacks are drawn)
    hit = rules.attacked(q) if attacks else None
    if n <= SQUARES_MAX_N:
        for r in range(n):
            for c in range(n):
                x, y = left + c * cell, top + r * cell
                color = LIGHT if (r + c) % 2 == 0 else DARK
                out.append(f'<rect class="square" data-row="{r}" data-col="{c}" x="{x:.10g}" '
                           f'y="{y:.10g}" width="{cell:.10g}" height="{cell:.10g}" fill="{color}"/>')
                if hit is not None and hit[r, c]:
                    out.append(f'<rect class="attacked" data-row="{r}" data-col="{c}" '
                               f'x="{x:.10g}" y="{y:.10g}" width="{cell:.10g}" height="{cell:.10g}" '
                               f'fill="{ATTACKED}" fill-opacity="0.35"/>')
        for r in np.flatnonzero(q >= 0):
            c = q[r]
            x, y = left + (c + 0.5) * cell, top + (r + 0.5) * cell
            out.append(f'<text class="queen" data-row="{r}" data-col="{c}" x="{x:.10g}" '
                       f'y="{y:.10g}" text-anchor="middle" dominant-baseline="central" '
                       f'font-size="{cell * 0.8:.10g}" fill="#111">{QUEEN}</text>')
    else:
        out.append(f'<rect class="board" x="{left:.10g}" y="{top:.10g}" width="{board:.10g}" '
                   f'height="{board:.10g}" fill="{LIGHT}"/>')
        if cell >= 2:  # smaller squares would blur into one colour: a plain board instead
            # an id of its own geometry: boards on one page never use another's squares
            pattern = f"dark-{n}-{cell:.10g}-{left:.10g}-{top:.10g}".replace(".", "_")
            out.append(f'<pattern id="{pattern}" x="{left:.10g}" y="{top:.10g}" width="{2 * cell:.10g}" '
                       f'height="{2 * cell:.10g}" patternUnits="userSpaceOnUse">'
                       f'<rect x="{cell:.10g}" width="{cell:.10g}" height="{cell:.10g}" fill="{DARK}"/>'
                       f'<rect y="{cell:.10g}" width="{cell:.10g}" height="{cell:.10g}" fill="{DARK}"/>'
                       f'</pattern><rect class="dark" x="{left:.10g}" y="{top:.10g}" '
                       f'width="{board:.10g}" height="{board:.10g}" fill="url(#{pattern})"/>')
        if hit is not None and hit.any():
            out.append(f'<path class="attacked" d="{_runs_path(hit, left, top, cell)}" '
                       f'fill="{ATTACKED}" fill-opacity="0.35"/>')
        rows = np.flatnonzero(q >= 0)
        if len(rows):
            side = max(cell * 0.7, 1.5)  # at least 1.5 px, so that every queen shows
            pad = (cell - side) / 2
            # (a mark wider than its square is kept within the board's edges)
            xs = np.clip(left + q[rows] * cell + pad, left, left + board - side)
            ys = np.clip(top + rows * cell + pad, top, top + board - side)
            d = "".join(f"M{x:.10g} {y:.10g}h{side:.10g}v{side:.10g}h{-side:.10g}z"
                        for x, y in zip(xs.tolist(), ys.tolist()))
            out.append(f'<path class="queens" d="{d}" fill="#111"/>')
    for r, c in marked:
        x, y, line = left + c * cell, top + r * cell, max(cell * 0.08, 1.0)
        if n <= SQUARES_MAX_N:
            out.append(f'<text class="emptied" x="{x + cell / 2:.10g}" y="{y + cell / 2:.10g}" '
                       f'text-anchor="middle" dominant-baseline="central" '
                       f'font-size="{cell * 0.8:.10g}" fill="#111" fill-opacity="0.3">'
                       f'{QUEEN}</text>')
        out.append(f'<rect class="marked" data-row="{r}" data-col="{c}" '
                   f'x="{x + line / 2:.10g}" y="{y + line / 2:.10g}" width="{cell - line:.10g}" '
                   f'height="{cell - line:.10g}" fill="none" stroke="{ATTACKED}" '
                   f'stroke-width="{line:.10g}" stroke-dasharray="{2 * line:.10g}"/>')
    if style:
        step = label_step(n, cell, font * 0.65 * widest * 1.5)  # (half a label between)
        y_cols = top - band * 0.35 if style == "index" else top + board + band * 0.65
        for c in range(0, n, step):
            out.append(f'<text class="label" x="{left + (c + 0.5) * cell:.10g}" '
                       f'y="{y_cols:.10g}" text-anchor="middle" '
                       f'font-size="{font:.10g}" fill="{INK}">{cols_text[c]}</text>')
        step = label_step(n, cell, font * 1.2)
        for r in range(0, n, step):
            out.append(f'<text class="label" x="{left - font * 0.4:.10g}" '
                       f'y="{top + (r + 0.5) * cell:.10g}" text-anchor="end" '
                       f'dominant-baseline="central" font-size="{font:.10g}" fill="{INK}">'
                       f'{rows_text[r]}</text>')
    out.append("</svg>")
    return SVGText("".join(out))


# --------------------------------------------------------------------------- Jupyter


def _in_ipython():
    """Whether an IPython shell (a notebook kernel or the terminal shell) is running."""
    ipython = sys.modules.get("IPython")
    return ipython is not None and ipython.get_ipython() is not None


class BoardGrid:
    """Boards that display themselves: a wrapping grid of SVG boards in Jupyter, text
    elsewhere.

    :func:`show` displays one at once; make one yourself to keep it, or to display it as
    the value of a cell. Only the first ``max_boards`` are drawn, with a note such as
    "showing 24 of 14200". Parameters as in :func:`show`.
    """

    def __init__(self, solutions, max_boards=24, columns=None, cell=None, orbit_sizes=None,
                 attacks=False, piece="queen", torus=False):
        self.solutions = as_placements(solutions, 2, partial=True, or_one=True)
        self.max_boards = _validate.in_range(max_boards, "max_boards", 0)
        self.columns = None if columns is None else _validate.in_range(columns, "columns", 1)
        n = self.solutions.shape[1]
        self.cell = auto_cell(n, GRID_BOARD_PIXELS) if cell is None else check_cell(cell)
        self.attacks = _validate.flag(attacks, "attacks")
        board = board_of(piece, torus)
        self.piece, self.torus = board.piece, board.torus
        self.orbit_sizes = (None if orbit_sizes is None
                            else _validate.integer_array(orbit_sizes, name="orbit_sizes"))
        if orbit_sizes is not None and self.orbit_sizes is None:
            raise ValueError("orbit_sizes must be 1, 2, 4 or 8")
        if self.orbit_sizes is not None and (self.orbit_sizes.ndim != 1 or len(
                self.orbit_sizes) != len(self.solutions)):
            raise ValueError(f"orbit_sizes must have shape ({len(self.solutions)},), one "
                             f"entry per board, got shape {self.orbit_sizes.shape}")
        if self.orbit_sizes is not None and not np.isin(self.orbit_sizes, (1, 2, 4, 8)).all():
            raise ValueError(f"orbit_sizes must be 1, 2, 4 or 8, got "
                             f"{sorted(set(self.orbit_sizes.tolist()) - {1, 2, 4, 8})[:5]}")

    @property
    def shown(self):
        """How many boards are drawn."""
        return min(len(self.solutions), self.max_boards)

    def note(self):
        """The truncation note, or an empty string."""
        total = len(self.solutions)
        if total > self.shown:
            return f"showing {self.shown} of {total}"
        return ""

    def _caption(self, i):
        text = f"#{i}"
        if self.orbit_sizes is not None:
            text += f" \u00b7 orbit {int(self.orbit_sizes[i])}"
        return text

    def _repr_html_(self):
        if not len(self.solutions):
            return "<div><em>no solutions</em></div>"
        n = self.solutions.shape[1]
        if n > GRID_MAX_N:  # (said before any board is drawn)
            how = ("draw one with to_svg or plot_board" if n <= MAX_SVG_N else
                   f"too large to draw (n &lt;= {MAX_SVG_N}): check them with is_solution")
            return (f"<div><em>{len(self.solutions)} board(s) of n = {n}: too large for a "
                    f"grid (n &lt;= {GRID_MAX_N}); {how}</em></div>")
        cells = []
        for i in range(self.shown):
            svg = to_svg(self.solutions[i], cell=self.cell, coordinates=False,
                         attacks=self.attacks, piece=self.piece, torus=self.torus)
            cells.append(f'<figure style="margin:0;text-align:center">{svg}'
                         f'<figcaption style="font:12px sans-serif">'
                         f'{html.escape(self._caption(i))}</figcaption></figure>')
        if self.columns is None:  # wraps to the page's width
            layout = "display:flex;flex-wrap:wrap"
        else:  # exactly ``columns`` boards per line
            layout = f"display:grid;grid-template-columns:repeat({self.columns}, max-content)"
        grid = f'<div style="{layout};gap:8px">{"".join(cells)}</div>'
        note = self.note()
        if note:
            grid += f'<div style="font:12px sans-serif"><em>{html.escape(note)}</em></div>'
        return grid

    def __repr__(self):
        if not len(self.solutions):
            return "(no solutions)"
        parts = [self._caption(i) + "\n" + text_board(self.solutions[i])
                 for i in range(self.shown)]
        note = self.note()
        return "\n\n".join(parts + ([f"({note})"] if note else []))

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))


def show(solutions, *, max_boards=24, columns=None, cell=None, orbit_sizes=None,
         attacks=False, piece="queen", torus=False):
    """Display boards now: a grid of drawn boards in Jupyter, text boards elsewhere.

    In IPython (a notebook, or the terminal shell) the boards go to
    ``IPython.display.display``, so that ``show`` in a loop shows every call; elsewhere
    (a script) their text is printed. For an object that draws itself when it is the
    value of a cell, use :class:`BoardGrid`.

    Parameters
    ----------
    solutions : array_like of int, shape (n,) or (k, n)
        One placement or several (``-1`` for an empty row).
    max_boards : int, optional
        Boards drawn at most; the rest is summarised ("showing 24 of 14200").
    columns : int, optional
        Most boards per line. By default the grid wraps to the width of the page.
    cell : int or float, optional
        Side of a square, in pixels; by default each board is about ``GRID_BOARD_PIXELS``
        (160) pixels wide.
    orbit_sizes : array_like of int, shape (k,), optional
        Shown under each board with its index (for example
        :func:`~nqueens_numba.orbit_size` of the boards).
    attacks : bool, optional
        Shade attacked squares.
    piece, torus : optional
        The board whose attacks are shaded, as in :func:`to_svg`.

    Returns
    -------
    None

    Raises
    ------
    TypeError, ValueError
        As :func:`to_svg`, for ``max_boards``, ``columns`` and ``cell`` out of range, or
        ``orbit_sizes`` not of shape ``(k,)``.

    See Also
    --------
    BoardGrid, to_svg, format_text

    Examples
    --------
    >>> show([[1, 3, 0, 2], [2, 0, 3, 1]])
    #0
    .Q..
    ...Q
    Q...
    ..Q.
    <BLANKLINE>
    #1
    ..Q.
    Q...
    ...Q
    .Q..
    """
    grid = BoardGrid(solutions, max_boards=max_boards, columns=columns, cell=cell,
                     orbit_sizes=orbit_sizes, attacks=attacks, piece=piece, torus=torus)
    if _in_ipython():
        from IPython.display import display

        display(grid)
    else:
        print(repr(grid))
