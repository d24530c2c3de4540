"""Rendering of solutions: LeetCode rows, text boards, SVG boards, Jupyter displays, plots.

Pure Python and NumPy (matplotlib, imported lazily, for :func:`plot_board`); imports
nothing else from the package but its argument checks, and computes no solutions. Boards are
drawn with row 0 at the top; files (columns) are labelled ``a, b, ...`` from the left and
ranks (rows) ``1 .. n`` from the bottom, as on a chessboard.
"""
import html
from xml.sax.saxutils import escape

import numpy as np

from . import _validate

__all__ = ["format_board", "to_boards", "format_text", "to_svg", "SVGText", "show",
           "BoardGrid", "plot_board", "TraceView"]

LIGHT = "#f0d9b5"
DARK = "#b58863"
ATTACKED = "#d9534f"
QUEEN = "\u265b"  # black chess queen


def _as_placements(solutions, ndim, partial=False):
    """Return ``solutions`` as an ``int64`` array of ``ndim`` dimensions with valid columns.

    With ``partial``, -1 marks a row without a queen.
    """
    came_as_float = np.asarray(solutions).dtype.kind == "f"
    arr = _validate.integer_array(solutions)
    if arr is None:
        raise ValueError("columns too large for any board")
    if ndim == 2 and arr.shape == (0,) and came_as_float:
        arr = arr.reshape(0, 0)  # ``[]``: no solutions
    if arr.ndim != ndim:
        shape = "(n,)" if ndim == 1 else "(n_solutions, n)"
        raise ValueError(f"expected shape {shape}, got an array of shape {arr.shape}")
    n = arr.shape[-1]
    if arr.size and (arr.min() < (-1 if partial else 0) or arr.max() >= n):
        low = "-1 (no queen)" if partial else "0"
        raise ValueError(f"columns must lie in {low}..{n - 1} for a board of order {n}")
    return arr.astype(np.int64, copy=False)


def _check_cell(cell):
    """Validate the side of a square in pixels: a finite number above 0."""
    return _validate.positive_number(cell, "cell", "pixels")


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


# --------------------------------------------------------------------------- SVG


def _file_label(col, n):
    if n <= 26:
        return chr(ord("a") + col)
    return str(col + 1)


def _attacked_squares(queens):
    """``(n, n)`` bool: squares attacked by the queens (their own squares excluded)."""
    n = len(queens)
    rows = np.flatnonzero(queens >= 0)
    cols = queens[rows]
    r = np.arange(n)[:, None]
    c = np.arange(n)[None, :]
    hit = np.zeros((n, n), dtype=bool)
    for qr, qc in zip(rows, cols):
        hit |= (r == qr) | (c == qc) | (r - c == qr - qc) | (r + c == qr + qc)
    hit[rows, cols] = False
    return hit


class SVGText(str):
    """An SVG document as a ``str`` that Jupyter draws (``_repr_svg_``) instead of printing."""

    __slots__ = ()

    def _repr_svg_(self):
        return str(self)


def to_svg(queens, *, cell=40, coordinates=True, attacks=False, title=None):
    """One board as an SVG image: light and dark squares, queens, labels.

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``; -1 leaves a row empty (a partial placement).
    cell : int or float, optional
        Side of a square, in pixels (SVG user units).
    coordinates : bool, optional
        Label files ``a, b, ...`` (numbers past 26 columns) below and ranks ``1 .. n`` on the
        left, rank 1 being the bottom row.
    attacks : bool, optional
        Shade the squares the queens attack.
    title : str, optional
        A caption above the board.

    Returns
    -------
    SVGText
        A ``str`` holding an ``<svg>`` element, which a notebook draws when it is the
        value of a cell (it has ``_repr_svg_``). Squares are ``<rect class="square">`` with
        ``data-row`` and ``data-col``; queens are ``<text class="queen">`` (the Unicode
        queen) with the same attributes; attacked squares get a ``<rect class="attacked">``
        overlay.

    Raises
    ------
    TypeError, ValueError
        As :func:`format_board` (columns in ``-1 .. n-1``).

    Examples
    --------
    >>> svg = to_svg([1, 3, 0, 2])
    >>> svg.startswith("<svg") and svg.count('class="queen"') == 4
    True
    """
    q = _as_placements(queens, 1, partial=True)
    n = len(q)
    cell = _check_cell(cell)
    margin = cell * 0.6 if coordinates else 0.0
    top = cell * 0.7 if title else 0.0
    width = margin + n * cell
    height = top + n * cell + margin
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{width / 2:g}" y="{top * 0.7:g}" text-anchor="middle" '
                   f'font-size="{cell * 0.4:g}">{escape(str(title))}</text>')
    hit = _attacked_squares(q) if attacks else None
    for r in range(n):
        for c in range(n):
            x, y = margin + c * cell, top + r * cell
            color = LIGHT if (r + c) % 2 == 0 else DARK
            out.append(f'<rect class="square" data-row="{r}" data-col="{c}" x="{x:g}" '
                       f'y="{y:g}" width="{cell:g}" height="{cell:g}" fill="{color}"/>')
            if hit is not None and hit[r, c]:
                out.append(f'<rect class="attacked" data-row="{r}" data-col="{c}" x="{x:g}" '
                           f'y="{y:g}" width="{cell:g}" height="{cell:g}" '
                           f'fill="{ATTACKED}" fill-opacity="0.35"/>')
    for r in range(n):
        c = q[r]
        if c >= 0:
            x, y = margin + (c + 0.5) * cell, top + (r + 0.5) * cell
            out.append(f'<text class="queen" data-row="{r}" data-col="{c}" x="{x:g}" '
                       f'y="{y:g}" text-anchor="middle" dominant-baseline="central" '
                       f'font-size="{cell * 0.8:g}" fill="#111">{QUEEN}</text>')
    if coordinates:
        size = cell * 0.35
        for c in range(n):
            out.append(f'<text x="{margin + (c + 0.5) * cell:g}" '
                       f'y="{top + n * cell + margin * 0.65:g}" text-anchor="middle" '
                       f'font-size="{size:g}">{_file_label(c, n)}</text>')
        for r in range(n):
            out.append(f'<text x="{margin * 0.5:g}" y="{top + (r + 0.5) * cell:g}" '
                       f'text-anchor="middle" dominant-baseline="central" '
                       f'font-size="{size:g}">{n - r}</text>')
    out.append("</svg>")
    return SVGText("".join(out))


# --------------------------------------------------------------------------- Jupyter


class BoardGrid:
    """Boards that display themselves: a grid of SVG boards in Jupyter, text elsewhere.

    Made by :func:`show`. In a notebook the grid renders as HTML (``_repr_html_``); in a
    terminal ``repr`` gives the text boards. Only the first ``max_boards`` are drawn, with a
    note such as "showing 24 of 14200".
    """

    def __init__(self, solutions, max_boards=24, columns=6, cell=24, orbit_sizes=None,
                 attacks=False):
        arr = np.asarray(solutions)
        if arr.ndim == 1 or (arr.size == 0 and arr.ndim == 1):
            arr = arr[None, :]
        self.solutions = _as_placements(arr, 2, partial=True)
        self.max_boards = _validate.in_range(max_boards, "max_boards", 0)
        self.columns = _validate.in_range(columns, "columns", 1)
        self.cell = _check_cell(cell)
        self.attacks = attacks
        self.orbit_sizes = None if orbit_sizes is None else np.asarray(orbit_sizes)
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
        cells = []
        for i in range(self.shown):
            svg = to_svg(self.solutions[i], cell=self.cell, coordinates=False,
                         attacks=self.attacks)
            cells.append(f'<figure style="margin:4px;text-align:center">{svg}'
                         f'<figcaption style="font:12px sans-serif">'
                         f'{html.escape(self._caption(i))}</figcaption></figure>')
        grid = (f'<div style="display:grid;grid-template-columns:repeat({self.columns}, '
                f'max-content);gap:4px">{"".join(cells)}</div>')
        note = self.note()
        if not len(self.solutions):
            grid = "<div><em>no solutions</em></div>"
        elif note:
            grid += f'<div style="font:12px sans-serif"><em>{html.escape(note)}</em></div>'
        return grid

    def __repr__(self):
        if not len(self.solutions):
            return "(no solutions)"
        parts = []
        for i in range(self.shown):
            rows = ["".join("Q" if c == col else "." for c in range(self.solutions.shape[1]))
                    for col in self.solutions[i]]
            parts.append(self._caption(i) + "\n" + "\n".join(rows))
        text = "\n\n".join(parts)
        note = self.note()
        return text + (f"\n\n({note})" if note else "")

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))


def show(solutions, *, max_boards=24, columns=6, cell=24, orbit_sizes=None, attacks=False):
    """Display boards: a grid of drawn boards in Jupyter, text boards in a terminal.

    Parameters
    ----------
    solutions : array_like of int, shape (n,) or (k, n)
        One placement or several (``-1`` for an empty row).
    max_boards : int, optional
        Boards drawn at most; the rest is summarised ("showing 24 of 14200").
    columns : int, optional
        Boards per row of the grid.
    cell : int, optional
        Side of a square, in pixels.
    orbit_sizes : array_like of int, shape (k,), optional
        Shown under each board with its index (for example
        :func:`~nqueens_numba.orbit_size` of the boards).
    attacks : bool, optional
        Shade attacked squares.

    Returns
    -------
    BoardGrid
        Renders itself (``_repr_html_``, ``_repr_pretty_``).

    Examples
    --------
    >>> grid = show([[1, 3, 0, 2], [2, 0, 3, 1]])
    >>> print(repr(grid).splitlines()[:3])
    ['#0', '.Q..', '...Q']
    """
    return BoardGrid(solutions, max_boards=max_boards, columns=columns, cell=cell,
                     orbit_sizes=orbit_sizes, attacks=attacks)


def plot_board(queens, ax=None, *, attacks=False, coordinates=True):
    """Draw one board with matplotlib (for figures in papers).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``; -1 leaves a row empty.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    attacks : bool, optional
        Shade the attacked squares.
    coordinates : bool, optional
        Label files and ranks as in :func:`to_svg`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install "nqueens_numba[notebook]"``).
    """
    try:
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap
    except ImportError as exc:
        raise ImportError("plot_board needs matplotlib: pip install "
                          "'nqueens_numba[notebook]' (or matplotlib)") from exc
    q = _as_placements(queens, 1, partial=True)
    n = len(q)
    if ax is None:
        _, ax = plt.subplots(figsize=(max(2.0, 0.4 * n), max(2.0, 0.4 * n)))
    pattern = (np.add.outer(np.arange(n), np.arange(n)) % 2).astype(float)
    ax.imshow(pattern, cmap=ListedColormap([LIGHT, DARK]), extent=(-0.5, n - 0.5, n - 0.5, -0.5))
    if attacks:
        hit = _attacked_squares(q)
        overlay = np.where(hit, 1.0, np.nan)
        ax.imshow(overlay, cmap=ListedColormap([ATTACKED]), alpha=0.35,
                  extent=(-0.5, n - 0.5, n - 0.5, -0.5))
    rows = np.flatnonzero(q >= 0)
    for r in rows:
        ax.text(q[r], r, QUEEN, ha="center", va="center", fontsize=max(6, 200 / max(n, 1)))
    if coordinates:
        ax.set_xticks(range(n), [_file_label(c, n) for c in range(n)])
        ax.set_yticks(range(n), [str(n - r) for r in range(n)])
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    ax.tick_params(length=0)
    return ax


# --------------------------------------------------------------------------- search trace


class TraceView:
    """Step through a search trace (from :func:`~nqueens_numba.trace`) on a drawn board.

    Parameters
    ----------
    events : numpy.ndarray
        The structured array of :func:`~nqueens_numba.trace`: fields ``step``, ``kind``
        (``"place"``, ``"remove"`` or ``"solution"``), ``row`` and ``column``.
    n : int
        Board order.
    step : int, optional
        The event shown first.
    cell : int, optional
        Side of a square, in pixels.

    Notes
    -----
    ``view.placement(k)`` is the partial placement after event ``k`` (``-1`` for empty
    rows); ``view.svg(k)`` draws it with the attacked squares shaded; in Jupyter the view
    renders its current ``step``, and ``view.widget()`` adds a slider (needs ipywidgets).
    In a terminal it prints the current step as a text board.

    Examples
    --------
    >>> from nqueens_numba import trace
    >>> view = TraceView(trace(4), 4, step=1)
    >>> print(repr(view))
    step 1 of 33: place (1, 2)
    Q...
    ..Q.
    ....
    ....
    """

    def __init__(self, events, n, *, step=0, cell=36):
        self.events = events
        self.n = int(n)
        self.cell = cell
        self.step = int(step)
        # Placement after each event, by replaying them once.
        self._placements = np.full((len(events), self.n), -1, dtype=np.int64)
        current = np.full(self.n, -1, dtype=np.int64)
        for k, event in enumerate(events):
            if event["kind"] == "place":
                current[event["row"]] = event["column"]
            elif event["kind"] == "remove":
                current[event["row"]] = -1
            self._placements[k] = current

    def __len__(self):
        return len(self.events)

    def placement(self, step):
        """The placement after event ``step``: ``(n,)`` int64, -1 for rows without a queen."""
        return self._placements[step].copy()

    def describe(self, step):
        """A one-line account of event ``step``."""
        event = self.events[step]
        where = "" if event["kind"] == "solution" else f" ({event['row']}, {event['column']})"
        return f"step {step} of {len(self) - 1}: {event['kind']}{where}"

    def svg(self, step=None):
        """The board after event ``step`` (default: the current one) as SVG."""
        step = self.step if step is None else step
        return to_svg(self.placement(step), cell=self.cell, attacks=True,
                      title=self.describe(step))

    def _repr_html_(self):
        return self.svg() if len(self) else "<em>empty trace</em>"

    def __repr__(self):
        if not len(self):
            return "(empty trace)"
        rows = ["".join("Q" if c == col else "." for c in range(self.n))
                for col in self.placement(self.step)]
        return "\n".join([self.describe(self.step)] + rows)

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
