"""The symmetric search's prefixes on the plain board, in NumPy: a first count compiles only
its search. Importing this module does not import numba.

The prefixes are the same arrays, in the same order, as those of the kernel
``symmetric._symmetric_prefixes_of`` (tested): the first-row columns ``b`` in order, and the
placements of each in lexicographic order, built row by row for all of them at once (the
breadth-first way of ``_breadth``, with 64-bit rows). A row holds the squares
``_row_allow(n, row, b)`` allows; a prefix is kept when its next row has a free square. Rows
of more than ``_MAX_ROWS_FACTOR`` times ``max_states`` placements are not built: above
``low`` the kernel, which counts them without keeping them, lists the prefixes instead;
past ``low`` the depth above stands.
"""
import numpy as np

__all__ = ["_list_symmetric_prefixes", "row_allow", "row_allows"]

#: Most placements of one row kept at once, in units of ``max_states``.
_MAX_ROWS_FACTOR = 4


def row_allow(n, row, b):
    """The squares the symmetric search allows in ``row`` below a first-row queen in column
    ``b`` (``symmetric._row_allow``, with Python integers): an ``int``."""
    full = (1 << n) - 1
    m = n - 1
    if row == 0:
        return 1 << b
    if row == m:  # the last queen within ``b`` of a corner
        near = (1 << (b + 1)) - 1
        return near | (near << (m - b))
    if row == 1 and 2 * b == m:  # middle first-row queen: the smaller of the mirror pair
        return (1 << b) - 1
    if b < row < m - b:
        return full & ~(1 | (1 << m))
    return full


def row_allows(n):
    """:func:`row_allow` of every row (columns) below each first-row column ``b`` (rows,
    ``0 .. (n - 1) // 2``): ``((n + 1) // 2, n)`` int64, for ``n <= 63``."""
    return np.array([[row_allow(n, row, b) for row in range(n)] for b in range((n + 1) // 2)],
                    dtype=np.int64).reshape((n + 1) // 2, n)


def _columns(free):
    """``(parent, column)`` of every set bit of the non-negative int64 bitboards ``free``,
    by parent, then column."""
    bits = np.unpackbits(np.ascontiguousarray(free, dtype="<i8").view(np.uint8).reshape(-1, 8),
                         axis=1, bitorder="little")
    return np.nonzero(bits)


class _Rows:
    """The placements of the first ``depth`` rows below a first-row column ``b``."""

    def __init__(self, n, b):
        self.n, self.b, self.depth = n, b, 0
        self.full = np.int64((1 << n) - 1)
        self.cols = self.diag = self.anti = np.zeros(1, dtype=np.int64)
        self.queens = np.zeros((1, 0), dtype=np.int64)

    def free(self, row):
        return ~(self.cols | self.diag | self.anti) & self.full & np.int64(
            row_allow(self.n, row, self.b))

    def children(self):
        """The placements one row down, before :meth:`down` keeps them."""
        free = self.free(self.depth)
        return int(np.unpackbits(free.astype("<i8").view(np.uint8)).sum(dtype=np.int64))

    def down(self):
        """One row more, keeping the placements whose next row has a free square (those
        without one have no placements below)."""
        parent, column = _columns(self.free(self.depth))
        bit = np.left_shift(np.int64(1), column.astype(np.int64))
        self.cols = self.cols[parent] | bit
        self.diag = (self.diag[parent] | bit) << np.int64(1)
        self.anti = (self.anti[parent] | bit) >> np.int64(1)
        self.queens = np.column_stack([self.queens[parent], column.astype(np.int64)])
        self.depth += 1
        keep = self.free(self.depth) != 0
        for name in ("cols", "diag", "anti", "queens"):
            setattr(self, name, getattr(self, name)[keep])

    def states(self):
        return np.column_stack([self.cols, self.diag, self.anti, self.queens])


def _list_symmetric_prefixes(n, low, high, target, max_states):
    """The prefix states of the symmetric search on the plain board: those of ``low`` rows,
    and of one row more at a time while they are fewer than ``target`` and the depth below
    ``high`` (see ``symmetric._symmetric_prefixes_of``, whose arguments and results these
    are: ``(states, depth, n_found)``, ``states`` of shape ``(n_states, 3 + depth)`` int64,
    and, when even ``low`` rows give more than ``max_states``, ``n_found > max_states`` and
    ``states`` empty)."""
    limit = _MAX_ROWS_FACTOR * max_states
    columns = [_Rows(n, b) for b in range(1, (n - 1) // 2 + 1)]
    depth = 0
    states, found = None, 0
    while depth < high and (states is None or len(states) < target):
        if sum(rows.children() for rows in columns) > limit:
            if states is not None:
                break  # too many to keep: the depth above stands
            from .symmetric import _symmetric_prefixes_of

            return _symmetric_prefixes_of(n, low, high, target, max_states, 0)
        for rows in columns:
            rows.down()
        depth += 1
        if depth < low:
            continue
        found = sum(len(rows.cols) for rows in columns)
        if found > max_states:
            if states is None:
                return np.empty((0, 3 + depth), dtype=np.int64), depth, found
            depth -= 1
            found = len(states)
            break
        states = np.concatenate([rows.states() for rows in columns]).astype(np.int64)
    return states, depth, found
