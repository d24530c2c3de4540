"""Where the queens of all solutions stand: the number of solutions with a queen on each
square, and its heatmap."""
import numpy as np

from . import _breadth, _split, _validate
from .counting import count_solutions
from .render import heatmap
from .render.plot import pyplot_for

__all__ = ["occupancy", "plot_occupancy"]


def _square_orbits(n):
    """One representative ``(row, column)`` per D4 orbit of the squares of an ``n``-board,
    with the orbit's squares: ``[((r, c), rows, cols), ...]``."""
    m = n - 1
    seen = np.zeros((n, n), dtype=bool)
    orbits = []
    for r in range(n):
        for c in range(n):
            if seen[r, c]:
                continue
            images = {(r, c), (c, m - r), (m - r, m - c), (m - c, r), (r, m - c), (m - r, c),
                      (c, r), (m - c, m - r)}
            rows, cols = (np.array(v) for v in zip(*sorted(images)))
            seen[rows, cols] = True
            orbits.append(((r, c), rows, cols))
    return orbits


def occupancy(n, *, n_threads=None):
    """Number of solutions with a queen on each square.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63`` (in practice the sizes :func:`count_solutions` can
        count: each square costs a count with one pre-placed queen).
    n_threads : int, optional
        As in :func:`count_solutions`.

    Returns
    -------
    numpy.ndarray, shape (n, n), dtype int64
        ``counts[row, column]``; every row and every column sums to the total count
        (OEIS A000170), and the array is invariant under the eight symmetries of the board.

    Raises
    ------
    TypeError, ValueError
        As :func:`count_solutions` for ``n`` and ``n_threads``.
    KeyboardInterrupt
        On Ctrl-C, within about a second (each count stops as usual); nothing is returned.

    See Also
    --------
    plot_occupancy, first_row_counts, count_solutions

    Notes
    -----
    Small boards (``config.BREADTH_MAX_N``) tally their solutions, found in NumPy. Larger
    ones count the completions of one queen on one square of each D4 orbit of squares
    (``count_solutions(n, preplaced={r: c})``, about ``n**2 / 8`` counts) and copy the
    count to the orbit: the solution set is invariant under D4, so are its counts.

    Examples
    --------
    >>> occupancy(4)
    array([[0, 1, 1, 0],
           [1, 0, 0, 1],
           [1, 0, 0, 1],
           [0, 1, 1, 0]])
    >>> int(occupancy(8)[0].sum())
    92
    """
    n = _validate.board_order(n)
    n_threads = _validate.threads(n_threads)
    out = np.zeros((n, n), dtype=np.int64)
    if n == 0:
        return out
    if _split.is_breadth(n):
        sols = _breadth.solutions(n)
        for row in range(n):
            out[row] = np.bincount(sols[:, row], minlength=n)
        return out
    orbits = _square_orbits(n)
    for done, ((r, c), rows, cols) in enumerate(orbits):
        try:
            out[rows, cols] = count_solutions(n, preplaced={r: c}, n_threads=n_threads)
        except KeyboardInterrupt:  # (a count's message would suggest a checkpoint)
            raise KeyboardInterrupt(f"occupancy of n={n} interrupted after {done} of "
                                    f"{len(orbits)} counts; nothing is returned") from None
    return out


def plot_occupancy(n_or_counts, ax=None, *, coordinates=True, n_threads=None):
    """Draw the occupancy of a board as a heatmap (matplotlib), labelled like the boards.

    Parameters
    ----------
    n_or_counts : int or array_like, shape (n, n)
        A board order (its :func:`occupancy` is computed) or counts already computed.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    coordinates : bool or {"index", "chess"}, optional
        Row and column labels, as in :func:`~nqueens_numba.to_svg`.
    n_threads : int, optional
        For :func:`occupancy`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError, ValueError
        As :func:`occupancy`, or for counts that are not a square array.
    ImportError
        If matplotlib is not installed.
    """
    pyplot_for("plot_occupancy")  # checked before the count: nothing is counted in vain
    if isinstance(n_or_counts, (int, np.integer)) and not isinstance(n_or_counts, bool):
        n_or_counts = occupancy(n_or_counts, n_threads=n_threads)
    elif np.ndim(n_or_counts) == 0:  # (bool, float, str, None: neither)
        raise TypeError(f"n_or_counts must be an integer or an (n, n) array, got "
                        f"{type(n_or_counts).__name__}")
    return heatmap(n_or_counts, ax, coordinates=coordinates, label="solutions with a queen")
