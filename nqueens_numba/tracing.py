"""The search trace: the depth-first search recorded event by event, to replay it."""
import warnings

import numpy as np

from . import _kernels, _validate
from .board import board_of
from .constraints import check_constraints, no_constraints

__all__ = ["trace", "TRACE_DTYPE", "TraceTruncatedWarning"]

#: Events the first buffer of :func:`trace` holds; it doubles while the search goes on, up
#: to ``max_events``.
FIRST_EVENTS = 4096


class TraceTruncatedWarning(UserWarning):
    """A trace stopped at ``max_events`` before the search ended."""


#: The fields of a search trace.
TRACE_DTYPE = np.dtype([("step", np.int64), ("kind", "U8"), ("row", np.int16),
                        ("column", np.int16)])


def trace(n, *, max_events=10_000, preplaced=None, piece="queen", torus=False):
    """The depth-first search, event by event, to replay the backtracking.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    max_events : int, optional
        Most events recorded (a cap: memory grows with the events found). When the search
        has more, the trace stops there and warns (:class:`TraceTruncatedWarning`); the
        search of n = 8 takes 4,204.
    preplaced : mapping of int to int, or array_like of int, shape (n,), optional
        Pre-placed queens, as in :func:`count_solutions`: their rows have one square to try.
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board, as in :func:`count_solutions` (not with ``preplaced``).

    Returns
    -------
    events : numpy.ndarray, shape (n_events,), structured
        Fields ``step`` (int64, the event's index), ``kind`` (``"place"``, ``"remove"`` or
        ``"solution"``), ``row`` and ``column`` (int16; -1 for ``"solution"``). Replaying
        ``place``/``remove`` gives the partial placement at every step; at each
        ``"solution"`` it is a solution, in lexicographic order. A complete trace ends with
        every queen removed. The dtype's metadata records ``n`` and whether the trace is
        complete, and its ``piece`` and ``torus`` (``events.dtype.metadata``), for
        :class:`~nqueens_numba.TraceView`, which shades the attacks of that board.
        ``numpy.save`` does not keep a dtype's metadata: a trace read back from a file
        needs ``TraceView(events, n)``, and is shaded as a plain queen's board.

    Raises
    ------
    TypeError, ValueError
        For ``n`` as in :func:`count_solutions`; ``max_events`` must be a positive integer;
        ``preplaced`` as in :func:`count_solutions`.

    See Also
    --------
    nqueens_numba.render.TraceView : steps through a trace on a drawn board.

    Notes
    -----
    Runs the plain bitboard search (every first-row column, the lowest free square first)
    and records each step: a queen placed, a queen taken back
    (when its row tries the next square, or when the search backtracks past it), and each
    complete board.

    Examples
    --------
    >>> events = trace(4)
    >>> events[:3][["kind", "row", "column"]].tolist()
    [('place', 0, 0), ('place', 1, 2), ('remove', 1, 2)]
    >>> int((events["kind"] == "solution").sum())
    2
    """
    n = _validate.board_order(n)
    max_events = _validate.in_range(max_events, "max_events", 1, what="a positive integer")
    cons = check_constraints(n, preplaced, None)
    board = board_of(piece, torus)
    board.check_combination(cons)
    kernel = _kernels.entry("trace", board, cons is not None)
    allow = no_constraints(n) if cons is None else cons.allow
    stack = np.empty((5, max(n, 1)), dtype=np.int64)
    rows = min(max_events, FIRST_EVENTS)
    while True:  # the search again with twice the room, until it ends or reaches the cap
        raw = np.empty((rows + 1, 3), dtype=np.int64)  # + 1: whether more events follow
        count = kernel(n, allow, raw, stack)
        if count <= rows or rows == max_events:
            break
        rows = min(2 * rows, max_events)
    complete = count <= max_events
    if not complete:
        count = max_events
        warnings.warn(f"trace({n}) stopped at max_events={max_events} before the search "
                      f"ended; pass a larger max_events for the whole search",
                      TraceTruncatedWarning, stacklevel=2)
    dtype = np.dtype(TRACE_DTYPE, metadata={"n": n, "complete": complete,
                                            "piece": board.piece, "torus": board.torus})
    events = np.empty(count, dtype=dtype)
    events["step"] = np.arange(count)
    events["kind"] = np.array(["place", "remove", "solution"])[raw[:count, 0]]
    events["row"] = raw[:count, 1]
    events["column"] = raw[:count, 2]
    return events
