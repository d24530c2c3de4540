"""Kernel of the search trace: the plain depth-first search, event by event."""
import numpy as np

from ._common import KNIGHT, TORUS, _down, _full_mask, _knight, njit_for, trailing_zeros


TRACE_PLACE = 0
TRACE_REMOVE = 1
TRACE_SOLUTION = 2


def _trace_search_for(variant):
    """The kernel of the search trace on the board of ``variant`` (0, ``TORUS`` or
    ``KNIGHT``), a constant of the kernel: each board's kernel compiles alone (see
    ``count._count_batch_for``)."""

    @njit_for(variant)
    def trace(n, allow, events, stack):
        """Record the plain depth-first search as events: ``(kind, row, column)`` rows.

        The search of ``_fill_rows`` (lowest free square first, row ``r`` limited to
        ``allow[r]``, on the board of ``variant``: see ``_common``), step by step: a queen
        placed (``TRACE_PLACE``), taken back when its row moves on or the search backtracks
        (``TRACE_REMOVE``), and each complete board
        (``TRACE_SOLUTION``, row and column -1). Writes at most ``events.shape[0]`` events
        (``int64``, shape ``(max_events, 3)``) and returns how many. ``stack``: work space,
        ``(5, max(n, 1))`` int64 from the caller (allocating here would compile NumPy's
        constructors too).
        """
        cap = events.shape[0]
        written = 0
        if n == 0:
            if cap > 0:
                events[0, 0] = TRACE_SOLUTION
                events[0, 1] = -1
                events[0, 2] = -1
                written = 1
            return written
        full = _full_mask(n)
        free = stack[0]
        cols = stack[1]
        diag = stack[2]
        anti = stack[3]
        queens = stack[4]
        cols[0] = 0
        diag[0] = 0
        anti[0] = 0
        queens[0] = -1
        free[0] = full & allow[0]
        d = 0
        while d >= 0 and written < cap:
            if queens[d] >= 0:  # the queen of this row is taken back before the next try
                events[written, 0] = TRACE_REMOVE
                events[written, 1] = d
                events[written, 2] = queens[d]
                written += 1
                queens[d] = -1
                continue
            f = free[d]
            if f == 0:
                d -= 1
                continue
            bit = f & -f
            free[d] = f ^ bit
            queens[d] = trailing_zeros(bit)
            events[written, 0] = TRACE_PLACE
            events[written, 1] = d
            events[written, 2] = queens[d]
            written += 1
            if d == n - 1:
                if written < cap:
                    events[written, 0] = TRACE_SOLUTION
                    events[written, 1] = -1
                    events[written, 2] = -1
                    written += 1
                continue
            c, dg, an = _down(variant, n, cols[d], diag[d], anti[d], bit)
            above = np.int64(1) << queens[d - 1] if d >= 1 else np.int64(0)
            near = _knight(variant, bit, above)
            d += 1
            cols[d] = c
            diag[d] = dg
            anti[d] = an
            free[d] = ~(c | dg | an | near) & full & allow[d]
            queens[d] = -1
        return written


    return trace


_trace_search = _trace_search_for(0)
_trace_torus_search = _trace_search_for(TORUS)
_trace_knight_search = _trace_search_for(KNIGHT)
