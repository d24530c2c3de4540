"""What every drawing shares: colours, placement and argument checks, square sizes, labels.

Imported by the back-ends (:mod:`.text`, :mod:`.svg`, :mod:`.plot`, :mod:`.trace_view`),
never the reverse.
"""
import numpy as np

from .. import _validate

LIGHT = "#f0d9b5"
DARK = "#b58863"
ATTACKED = "#d9534f"
#: The background and the text of a drawing, set explicitly: a page's dark theme (JupyterLab,
#: VS Code) would otherwise show through, and black text would vanish on it.
PAPER = "#ffffff"
INK = "#222222"
QUEEN = "\u265b"  # black chess queen

#: Largest side of a square, in pixels.
MAX_CELL_PIXELS = 10_000

#: Largest side of a square, in pixels, of a board drawn at a default size.
MAX_CELL = 48

#: Largest board :func:`~nqueens_numba.render.to_svg` and
#: :func:`~nqueens_numba.render.plot_board` draw (a drawing that large shows nothing more).
MAX_SVG_N = 100_000

#: Largest board whose attacked squares are drawn: they are found as an ``(n, n)`` bool
#: array, 100 MB at n = 10,000 (0.2 s at n = 3,000).
ATTACKS_MAX_N = 10_000


def check_attacks(attacks, n):
    """``attacks`` as a flag, checked (``TypeError`` unless ``True`` or ``False``), and
    refused with ``ValueError`` above :data:`ATTACKS_MAX_N`."""
    attacks = _validate.flag(attacks, "attacks")
    if attacks and n > ATTACKS_MAX_N:
        raise ValueError(f"attacks=True draws the attacked squares of boards of n <= "
                         f"{ATTACKS_MAX_N:,}, got n={n:,} (an n x n array of squares); draw "
                         f"it with attacks=False")
    return attacks


def as_placements(solutions, ndim, partial=False, or_one=False):
    """Return ``solutions`` as an ``int64`` array of ``ndim`` dimensions with valid columns.

    With ``partial``, -1 marks a row without a queen; with ``or_one`` (and ``ndim == 2``) one
    placement ``(n,)`` is taken as a set of one.
    """
    arr = _validate.integer_array(solutions)
    if arr is None:
        raise ValueError("columns too large for any board")
    if ndim == 2 and arr.shape == (0,) and not isinstance(solutions, np.ndarray):
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


def check_cell(cell):
    """Validate the side of a square in pixels: a number above 0, at most
    ``MAX_CELL_PIXELS``."""
    cell = _validate.positive_number(cell, "cell", "pixels")
    if cell > MAX_CELL_PIXELS:
        raise ValueError(f"cell must be at most {MAX_CELL_PIXELS} pixels, got {cell}")
    return cell


def auto_cell(n, pixels):
    """The side of a square of an ``n``-board about ``pixels`` wide, at most ``MAX_CELL``."""
    return min(MAX_CELL, pixels / max(n, 1))


def coordinate_style(value):
    """Validate ``coordinates``: ``True``/``"index"`` (rows and columns numbered from 0, row 0
    at the top, as the arrays are), ``"chess"`` (files ``a, b, ...`` from the left, ranks
    ``n .. 1`` from the top) or ``False``; returns ``"index"``, ``"chess"`` or ``None``."""
    if isinstance(value, np.bool_):
        value = bool(value)
    if not isinstance(value, (bool, str, type(None))):
        raise TypeError(f"coordinates must be True, False, 'index' or 'chess', got "
                        f"{type(value).__name__}")
    if value is True or value == "index":
        return "index"
    if value is False or value is None:
        return None
    if value == "chess":
        return "chess"
    raise ValueError(f"coordinates must be True, False, 'index' or 'chess', got {value!r}")


def labels(n, style):
    """``(column labels, row labels)``: lists of ``n`` strings."""
    if style == "chess":
        files = [chr(ord("a") + c) if n <= 26 else str(c + 1) for c in range(n)]
        return files, [str(n - r) for r in range(n)]
    numbers = [str(i) for i in range(n)]
    return numbers, numbers


def label_step(n, cell, width):
    """Every how many squares a label fits without overlapping: 1, 2, 5, 10, 20, 50, ...
    ``cell`` and ``width`` (of the widest label) in the same unit."""
    step = 1
    while step * cell < width and step < n:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step
