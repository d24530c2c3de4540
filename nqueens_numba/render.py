"""Rendering of solutions: LeetCode rows, text boards, SVG boards, Jupyter displays, plots.

Pure Python and NumPy (matplotlib, imported lazily, for :func:`plot_board`); imports
nothing else from the package but its argument checks, and computes no solutions. Boards are
drawn as the arrays read: row 0 at the top, rows and columns labelled ``0 .. n-1``
(``coordinates="chess"``: files ``a, b, ...`` from the left and ranks ``n .. 1`` from the
top, as on a chessboard).
"""
import html
import sys
from xml.sax.saxutils import escape

import numpy as np

from . import _validate

__all__ = ["format_board", "to_boards", "format_text", "to_svg", "SVGText", "show",
           "BoardGrid", "plot_board", "TraceView"]

LIGHT = "#f0d9b5"
DARK = "#b58863"
ATTACKED = "#d9534f"
QUEEN = "\u265b"  # black chess queen


def _as_placements(solutions, ndim, partial=False, or_one=False):
    """Return ``solutions`` as an ``int64`` array of ``ndim`` dimensions with valid columns.

    With ``partial``, -1 marks a row without a queen; with ``or_one`` (and ``ndim == 2``) one
    placement ``(n,)`` is taken as a set of one.
    """
    came_as_float = np.asarray(solutions).dtype.kind == "f"
    arr = _validate.integer_array(solutions)
    if arr is None:
        raise ValueError("columns too large for any board")
    if ndim == 2 and arr.shape == (0,) and came_as_float:
        arr = arr.reshape(0, 0)  # ``[]``: no solutions
    if or_one and ndim == 2 and arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != ndim:
        shape = "(n,)" if ndim == 1 else "(n_solutions, n)"
        raise ValueError(f"expected shape {shape}, got an array of shape {arr.shape}")
    n = arr.shape[-1]
    if arr.size and (arr.min() < (-1 if partial else 0) or arr.max() >= n):
        low = "-1 (no queen)" if partial else "0"
        raise ValueError(f"columns must lie in {low}..{n - 1} for a board of order {n}")
    return arr.astype(np.int64, copy=False)


#: Largest side of a square, in pixels.
MAX_CELL_PIXELS = 10_000


def _check_cell(cell):
    """Validate the side of a square in pixels: a number above 0, at most
    ``MAX_CELL_PIXELS``."""
    cell = _validate.positive_number(cell, "cell", "pixels")
    if cell > MAX_CELL_PIXELS:
        raise ValueError(f"cell must be at most {MAX_CELL_PIXELS} pixels, got {cell}")
    return cell


def _board_rows(arr):
    """Character rows of a ``(k, n)`` placement array: ``(k, n)`` array of ``str``."""
    k, n = arr.shape
    grid = np.full((k, n, n), ord("."), dtype=np.uint8)
    if k and n:
        grid[np.arange(k)[:, None], np.arange(n)[None, :], arr] = ord("Q")
    return grid.view(f"S{max(n, 1)}").reshape(k, n) if n else np.empty((k, 0), dtype="S1")


def format_board(queens):
    """One solution as rows of ``'Q'`` and ``'.'`` (the LeetCode 51 format).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``.

    Returns
    -------
    list of str
        ``n`` strings of length ``n``; row ``r`` has its ``'Q'`` at index ``queens[r]``.

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers.
    ValueError
        If ``queens`` is not one-dimensional or a column lies outside ``0..n-1``.

    See Also
    --------
    to_boards : the same for a set of solutions.

    Examples
    --------
    >>> format_board([1, 3, 0, 2])
    ['.Q..', '...Q', 'Q...', '..Q.']
    """
    arr = _as_placements(queens, 1)
    return [row.decode() for row in _board_rows(arr[None, :])[0]]


def to_boards(solutions):
    """A set of solutions as LeetCode 51 boards.

    Parameters
    ----------
    solutions : array_like of int, shape (n_solutions, n)
        One solution per row, ``solutions[k, row] == column``.

    Returns
    -------
    list of list of str
        ``n_solutions`` boards, each as returned by :func:`format_board`.

    Raises
    ------
    TypeError
        If ``solutions`` does not hold integers.
    ValueError
        If ``solutions`` is not two-dimensional or a column lies outside ``0..n-1``.

    See Also
    --------
    format_board, format_text

    Examples
    --------
    >>> to_boards([[1, 3, 0, 2], [2, 0, 3, 1]])
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    arr = _as_placements(solutions, 2)
    return [[row.decode() for row in board] for board in _board_rows(arr)]


def format_text(solutions):
    """A set of solutions as plain text: ``n`` lines per board, a blank line after each.

    Parameters
    ----------
    solutions : array_like of int, shape (n_solutions, n)

    Returns
    -------
    str
        Rows of ``'.'`` and ``'Q'`` without trailing spaces; empty when there are no solutions.

    Raises
    ------
    TypeError, ValueError
        As :func:`to_boards`.

    Examples
    --------
    >>> print(format_text([[1, 3, 0, 2]]), end="")
    .Q..
    ...Q
    Q...
    ..Q.
    <BLANKLINE>
    """
    arr = _as_placements(solutions, 2)
    rows = _board_rows(arr)
    return "".join(b"".join(row + b"\n" for row in board).decode() + "\n" for board in rows)


# --------------------------------------------------------------------------- labels

#: Width in pixels a board drawn by :func:`to_svg` aims at when ``cell`` is not given (its
#: squares are at most ``MAX_CELL`` pixels), and a board of :func:`show`'s grid.
BOARD_PIXELS = 480
GRID_BOARD_PIXELS = 160
MAX_CELL = 48

#: Boards up to this order are drawn square by square (``<rect class="square">`` elements
#: with ``data-row`` and ``data-col``, queens as glyphs); larger ones compactly: one pattern
#: for the dark squares, one path for the queens, so that n = 1000 stays near 50 kB.
SQUARES_MAX_N = 32

#: Largest board :func:`show`'s grid draws (a 160-pixel board of n = 1000 shows its queens
#: as dots already; larger ones only make the page heavy).
GRID_MAX_N = 1000

#: Largest board :func:`to_svg` draws (its queens are one path of ``n`` squares).
MAX_SVG_N = 100_000

#: Largest board printed as text (``n`` lines of ``n`` characters); larger ones print their
#: placement array.
TEXT_MAX_N = 64


def _coordinates(value):
    """Validate ``coordinates``: ``True``/``"index"`` (rows and columns numbered from 0, row 0
    at the top, as the arrays are), ``"chess"`` (files ``a, b, ...`` from the left, ranks
    ``n .. 1`` from the top) or ``False``; returns ``"index"``, ``"chess"`` or ``None``."""
    if value is True or value == "index":
        return "index"
    if value is False or value is None:
        return None
    if isinstance(value, str) and value == "chess":
        return "chess"
    raise ValueError(f"coordinates must be True, False, 'index' or 'chess', got {value!r}")


def _labels(n, style):
    """``(column labels, row labels)``: lists of ``n`` strings."""
    if style == "chess":
        files = [chr(ord("a") + c) if n <= 26 else str(c + 1) for c in range(n)]
        return files, [str(n - r) for r in range(n)]
    numbers = [str(i) for i in range(n)]
    return numbers, numbers


def _label_step(n, cell, width):
    """Every how many squares a label fits without overlapping: 1, 2, 5, 10, 20, 50, ...
    ``cell`` and ``width`` (of the widest label) in the same unit."""
    step = 1
    while step * cell < width and step < n:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def _attacked_squares(queens, piece="queen", torus=False):
    """``(n, n)`` bool: squares attacked by the queens (their own squares excluded): along
    rows, columns and diagonals (wrapping around the edges on the torus), and a knight's move
    away for superqueens."""
    n = len(queens)
    rows = np.flatnonzero(queens >= 0)
    cols = queens[rows]
    r = np.arange(n)[:, None]
    c = np.arange(n)[None, :]
    hit = np.zeros((n, n), dtype=bool)
    for qr, qc in zip(rows, cols):
        if torus:
            hit |= ((r == qr) | (c == qc) | ((r - c - qr + qc) % n == 0)
                    | ((r + c - qr - qc) % n == 0))
        else:
            hit |= (r == qr) | (c == qc) | (r - c == qr - qc) | (r + c == qr + qc)
        if piece == "superqueen":
            dr, dc = np.abs(r - qr), np.abs(c - qc)
            hit |= ((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))
    hit[rows, cols] = False
    return hit


# --------------------------------------------------------------------------- SVG


class SVGText(str):
    """An SVG document as a ``str`` that Jupyter draws (``_repr_svg_``) instead of printing."""

    __slots__ = ()

    def _repr_svg_(self):
        return str(self)

    def _repr_pretty_(self, printer, cycle):  # a notebook keeps this, not the SVG twice
        printer.text(f"<SVG image, {len(self):,} characters>")


def _auto_cell(n, pixels):
    return min(MAX_CELL, pixels / max(n, 1))


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


def to_svg(queens, *, cell=None, coordinates=True, attacks=False, title=None, piece="queen",
           torus=False):
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
    attacks : bool, optional
        Shade the squares the queens attack.
    title : str, optional
        A caption above the board.
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board whose attacks ``attacks`` shades: superqueens also attack a knight's move
        away; on the torus the diagonals wrap around the edges.

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
        ``<path class="attacked">``; n = 1000 takes about 50 kB.

    Raises
    ------
    TypeError, ValueError
        As :func:`format_board` (columns in ``-1 .. n-1``); ``ValueError`` for ``n`` above
        ``MAX_SVG_N`` or an unknown ``coordinates``.

    Examples
    --------
    >>> svg = to_svg([1, 3, 0, 2])
    >>> svg.startswith("<svg") and svg.count('class="queen"') == 4
    True
    """
    q = _as_placements(queens, 1, partial=True)
    n = len(q)
    if n > MAX_SVG_N:
        raise ValueError(f"to_svg draws boards of n <= {MAX_SVG_N}, got n={n}: a drawing "
                         f"that large shows nothing; check the placement with is_solution")
    cell = _auto_cell(n, BOARD_PIXELS) if cell is None else _check_cell(cell)
    style = _coordinates(coordinates)
    font = min(max(cell * 0.4, 9.0), 14.0)  # labels: readable, never larger than 14 px
    cols_text, rows_text = _labels(n, style) if style else ([], [])
    widest = max((len(t) for t in cols_text + rows_text), default=1)
    left = font * (0.6 * widest + 0.8) if style else 0.0
    band = font * 1.6 if style else 0.0  # the column labels' band (above, or below: chess)
    # room for labels that stick out of the board: the last column's (right), the last
    # row's (below) or the first row's (above, chess)
    right = font * 0.3 * widest if style else 0.0
    below = font * 0.6 if style == "index" else 0.0
    above = font * 0.6 if style == "chess" else 0.0
    title = None if title is None else str(title)
    title_font = min(max(cell * 0.45, 12.0), 18.0)
    top = (title_font * 1.6 if title is not None else above) + (
        band if style == "index" else 0.0)
    board = n * cell
    content = left + board + right
    width = max(content, 0.6 * title_font * len(title) + title_font if title else 0.0)
    left += (width - content) / 2  # the board centred under a wider caption
    height = top + board + (band if style == "chess" else below)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.10g}" height="{height:.10g}" '
           f'viewBox="0 0 {width:.10g} {height:.10g}" font-family="sans-serif">']
    if title is not None:
        out.append(f'<text x="{width / 2:.10g}" y="{title_font * 1.1:.10g}" text-anchor="middle" '
                   f'font-size="{title_font:.10g}">{escape(str(title))}</text>')
    rules = _validate.board(piece, torus)
    hit = _attacked_squares(q, *rules) if attacks else None
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
            d = "".join(f"M{left + c * cell + pad:.10g} {top + r * cell + pad:.10g}h{side:.10g}"
                        f"v{side:.10g}h{-side:.10g}z" for r, c in zip(rows, q[rows]))
            out.append(f'<path class="queens" d="{d}" fill="#111"/>')
    if style:
        step = _label_step(n, cell, font * 0.6 * widest + font * 0.4)
        y_cols = top - band * 0.35 if style == "index" else top + board + band * 0.65
        for c in range(0, n, step):
            out.append(f'<text class="label" x="{left + (c + 0.5) * cell:.10g}" '
                       f'y="{y_cols:.10g}" text-anchor="middle" '
                       f'font-size="{font:.10g}">{cols_text[c]}</text>')
        step = _label_step(n, cell, font * 1.2)
        for r in range(0, n, step):
            out.append(f'<text class="label" x="{left - font * 0.4:.10g}" '
                       f'y="{top + (r + 0.5) * cell:.10g}" text-anchor="end" '
                       f'dominant-baseline="central" font-size="{font:.10g}">{rows_text[r]}</text>')
    out.append("</svg>")
    return SVGText("".join(out))


# --------------------------------------------------------------------------- Jupyter


def _text_board(queens):
    """A placement as text: ``n`` rows of ``.``/``Q`` up to ``TEXT_MAX_N``, else a summary."""
    n = len(queens)
    if n > TEXT_MAX_N:
        return f"(n = {n}: too large to print as a board) queens = {np.array2string(queens, threshold=20)}"
    return "\n".join("".join("Q" if c == col else "." for c in range(n)) for col in queens)


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
        self.solutions = _as_placements(solutions, 2, partial=True, or_one=True)
        self.max_boards = _validate.in_range(max_boards, "max_boards", 0)
        self.columns = None if columns is None else _validate.in_range(columns, "columns", 1)
        n = self.solutions.shape[1]
        self.cell = _auto_cell(n, GRID_BOARD_PIXELS) if cell is None else _check_cell(cell)
        self.attacks = _validate.flag(attacks, "attacks")
        self.piece, self.torus = _validate.board(piece, torus)
        self.orbit_sizes = (None if orbit_sizes is None
                            else _validate.integer_array(orbit_sizes))
        if orbit_sizes is not None and self.orbit_sizes is None:
            raise ValueError("orbit_sizes must be 1, 2, 4 or 8")
        if self.orbit_sizes is not None and (self.orbit_sizes.ndim != 1 or len(
                self.orbit_sizes) != len(self.solutions)):
            raise ValueError(f"orbit_sizes must have shape ({len(self.solutions)},), one "
                             f"entry per board, got shape {self.orbit_sizes.shape}")

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
        if self.solutions.shape[1] > GRID_MAX_N:
            grid = (f"<div><em>{len(self.solutions)} board(s) of n = "
                    f"{self.solutions.shape[1]}: too large for a grid (n &lt;= {GRID_MAX_N}); "
                    f"draw one with to_svg or plot_board</em></div>")
            return grid
        note = self.note()
        if note:
            grid += f'<div style="font:12px sans-serif"><em>{html.escape(note)}</em></div>'
        return grid

    def __repr__(self):
        if not len(self.solutions):
            return "(no solutions)"
        parts = [self._caption(i) + "\n" + _text_board(self.solutions[i])
                 for i in range(self.shown)]
        text = "\n\n".join(parts)
        note = self.note()
        return text + (f"\n\n({note})" if note else "")

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


# --------------------------------------------------------------------------- matplotlib

#: Default size of :func:`plot_board`'s figure: 0.4 inch per square, within these bounds.
FIGURE_INCHES = (2.0, 8.0)


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
        Shade the attacked squares.
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
        As :func:`to_svg`.

    Notes
    -----
    Queens are one patch of glyph outlines in data coordinates, each 0.8 of a square: they
    stay inside their squares at any figure size, in subplot grids and when the figure is
    resized. Label sizes follow the size of a square in the axes when drawn.
    """
    try:
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap
        from matplotlib.patches import PathPatch
        from matplotlib.path import Path
    except ImportError as exc:
        raise ImportError("plot_board needs matplotlib: pip install "
                          "'nqueens_numba[notebook]' (or matplotlib)") from exc
    q = _as_placements(queens, 1, partial=True)
    style = _coordinates(coordinates)
    attacks = _validate.flag(attacks, "attacks")
    board = _validate.board(piece, torus)
    n = len(q)
    if ax is None:
        side = min(max(FIGURE_INCHES[0], 0.4 * n), FIGURE_INCHES[1])
        _, ax = plt.subplots(figsize=(side, side))
    extent = (-0.5, n - 0.5, n - 0.5, -0.5)
    pattern = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(float)
    ax.imshow(pattern, cmap=ListedColormap([LIGHT, DARK]), extent=extent, vmin=0, vmax=1,
              interpolation="nearest")
    if attacks:
        overlay = np.where(_attacked_squares(q, *board), 1.0, np.nan)
        ax.imshow(overlay, cmap=ListedColormap([ATTACKED]), alpha=0.35, extent=extent,
                  interpolation="nearest")
    rows = np.flatnonzero(q >= 0)
    if len(rows):
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
        cols_text, rows_text = _labels(n, style)
        bbox = ax.get_window_extent()
        square = min(bbox.width, bbox.height) / max(n, 1) * 72 / ax.figure.dpi  # points
        font = min(max(square * 0.45, 7.0), 10.0)
        widest = max(len(t) for t in cols_text + rows_text) if n else 1
        col_step = _label_step(n, square, font * (0.6 * widest + 1.0))
        row_step = _label_step(n, square, font * 1.6)
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

    Raises
    ------
    ImportError
        If matplotlib is not installed.
    ValueError
        If ``counts`` is not square or holds non-finite or negative values.
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError("heatmap needs matplotlib: pip install "
                          "'nqueens_numba[notebook]' (or matplotlib)") from exc
    values = np.asarray(counts)
    if values.dtype.kind not in "iuf" or values.ndim != 2 or values.shape[0] != values.shape[1]:
        raise ValueError(f"counts must be a square array of numbers, got shape "
                         f"{values.shape} and dtype {values.dtype}")
    if values.size and (not np.isfinite(values).all() or values.min() < 0):
        raise ValueError("counts must be finite and non-negative")
    style = _coordinates(coordinates)
    n = values.shape[0]
    if ax is None:
        side = min(max(FIGURE_INCHES[0], 0.4 * n), FIGURE_INCHES[1])
        _, ax = plt.subplots(figsize=(side * 1.2, side))
    image = ax.imshow(values, cmap="viridis", extent=(-0.5, n - 0.5, n - 0.5, -0.5),
                      interpolation="nearest")
    ax.figure.colorbar(image, ax=ax, label=label, shrink=0.8)
    _label_axes(ax, n, style)
    return ax


# --------------------------------------------------------------------------- search trace


class TraceView:
    """Step through a search trace (from :func:`~nqueens_numba.trace`) on a drawn board.

    Parameters
    ----------
    events : numpy.ndarray
        The structured array of :func:`~nqueens_numba.trace`: fields ``step``, ``kind``
        (``"place"``, ``"remove"`` or ``"solution"``), ``row`` and ``column``.
    n : int, optional
        Board order: by default the one :func:`~nqueens_numba.trace` recorded with the
        events; when given it must agree with it.
    step : int, optional
        The event shown first, ``0 .. len(events) - 1``.
    cell : int or float, optional
        Side of a square, in pixels; by default the board is about 360 pixels wide.

    Raises
    ------
    TypeError
        If ``events`` is not a trace, or ``n`` or ``step`` not an integer.
    ValueError
        If ``n`` disagrees with the events (or is missing for events that do not record
        it), or ``step`` is out of range.

    Notes
    -----
    ``view.placement(k)`` is the partial placement after event ``k`` (``-1`` for empty
    rows); ``view.svg(k)`` draws it with the attacked squares shaded. Captions number the
    events as the ``step`` field does, from 0: "step 5 of 0..33: place row 1, column 2",
    and label rows and columns the same way. In Jupyter the view renders its current
    ``step``, and ``view.widget()`` adds a slider (needs ipywidgets). In a terminal it
    prints the current step as a text board.

    Examples
    --------
    >>> from nqueens_numba import trace
    >>> view = TraceView(trace(4), step=1)
    >>> print(repr(view))
    step 1 of 0..33: place row 1, column 2
    Q...
    ..Q.
    ....
    ....
    """

    def __init__(self, events, n=None, *, step=0, cell=None):
        if not (isinstance(events, np.ndarray) and events.dtype.names is not None
                and {"kind", "row", "column"} <= set(events.dtype.names)):
            raise TypeError("events must be the structured array returned by trace()")
        recorded = (events.dtype.metadata or {}).get("n")
        if n is None:
            if recorded is None:
                raise ValueError("these events do not record their board order: pass n")
            n = recorded
        n = _validate.board_order(n)
        if recorded is not None and n != recorded:
            raise ValueError(f"n={n} does not match the trace, which is of n={recorded}")
        kinds = set(np.unique(events["kind"]).tolist()) if len(events) else set()
        if not kinds <= {"place", "remove", "solution"}:
            raise ValueError(f"unknown event kinds {sorted(kinds - {'place', 'remove', 'solution'})}"
                             f": expected 'place', 'remove' or 'solution'")
        moves = events[events["kind"] != "solution"]
        if len(moves) and (moves["row"].min() < 0 or moves["column"].min() < 0
                           or moves["row"].max() >= n or moves["column"].max() >= n):
            raise ValueError(f"the events place queens outside a board of n={n}")
        self.events = events
        self.n = n
        metadata = events.dtype.metadata or {}
        self.board = (metadata.get("piece", "queen"), metadata.get("torus", False))
        self.cell = _auto_cell(n, 360) if cell is None else _check_cell(cell)
        self._placements = np.full((len(events), n), -1, dtype=np.int64)
        current = np.full(n, -1, dtype=np.int64)
        for k, event in enumerate(events):  # the placement after each event, replayed once
            if event["kind"] == "place":
                current[event["row"]] = event["column"]
            elif event["kind"] == "remove":
                current[event["row"]] = -1
            self._placements[k] = current
        self.step = step

    @property
    def step(self):
        """The event shown: ``0 .. len(self) - 1``."""
        return self._step

    @step.setter
    def step(self, value):
        self._step = self._check_step(value)

    def _check_step(self, step):
        if not len(self):
            return _validate.in_range(step, "step", 0, 0)
        return _validate.in_range(step, "step", 0, len(self) - 1)

    def __len__(self):
        return len(self.events)

    def placement(self, step):
        """The placement after event ``step``: ``(n,)`` int64, -1 for rows without a queen."""
        return self._placements[self._check_step(step)].copy()

    def describe(self, step):
        """A one-line account of event ``step``."""
        event = self.events[self._check_step(step)]
        kind = str(event["kind"])
        where = ("" if kind == "solution"
                 else f" row {int(event['row'])}, column {int(event['column'])}")
        first, last = ((int(self.events["step"][0]), int(self.events["step"][-1]))
                       if "step" in self.events.dtype.names else (0, len(self) - 1))
        number = int(event["step"]) if "step" in self.events.dtype.names else step
        return f"step {number} of {first}..{last}: {kind}{where}"

    def svg(self, step=None):
        """The board after event ``step`` (default: the current one) as SVG."""
        step = self.step if step is None else step
        return to_svg(self.placement(step), cell=self.cell, attacks=True,
                      title=self.describe(step), piece=self.board[0], torus=self.board[1])

    def _repr_html_(self):
        return self.svg() if len(self) else "<em>empty trace</em>"

    def __repr__(self):
        if not len(self):
            return "(empty trace)"
        return self.describe(self.step) + "\n" + _text_board(self.placement(self.step))

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))

    def widget(self):
        """An ipywidgets slider over the events with the board below it."""
        try:
            import ipywidgets
        except ImportError as exc:
            raise ImportError("TraceView.widget needs ipywidgets: pip install "
                              "'nqueens_numba[notebook]'") from exc
        slider = ipywidgets.IntSlider(value=self.step, min=0, max=max(len(self) - 1, 0),
                                      description="step", continuous_update=True)
        board = ipywidgets.HTML(self._repr_html_())

        def update(change):
            self.step = change["new"]
            board.value = self._repr_html_()

        slider.observe(update, names="value")
        return ipywidgets.VBox([slider, board])
