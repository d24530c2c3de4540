"""A count's search in progress: the explicit stack of a subproblem's search, split for work
sharing, checked when read back, and how much of it is left.

The count's job (:class:`nqueens_numba._job.CountJob`) continues a :class:`Piece` where
its last kernel call stopped. Pieces read from a checkpoint are checked against the board's
move rules (:func:`check_piece`, :func:`pieces_overlap`) before any kernel trusts them;
:func:`remaining` estimates the share of a search still ahead, for progress bars.

The functions take the ``job`` (its ``n``, ``depth``, ``width``, ``allow`` and ``board``)
of the split the piece belongs to.
"""
from dataclasses import dataclass

import numpy as np

from . import _kernels

__all__ = ["Piece", "pieces_overlap", "row_allow", "check_piece", "open_squares",
           "remaining", "done"]


@dataclass(eq=False)
class Piece:
    """A subproblem's search in progress, or a part of it: the explicit stack of its
    depth-first search, to be continued by any thread, process or Dask worker.

    Attributes
    ----------
    index : int
        The subproblem (row of ``Split.states``).
    stack : numpy.ndarray, shape (n + 1, 4), dtype int64
        ``(free, cols, diag, anti)`` per level below the prefix (see
        ``_kernels.count._count_cursor``).
    level : numpy.ndarray, shape (1,), dtype int64
        The level being searched; -1 for a subproblem not started.
    partial : numpy.ndarray, shape (width,), dtype int64
        What this piece has counted so far.
    """

    index: int
    stack: np.ndarray
    level: np.ndarray
    partial: np.ndarray

    def copy(self):
        return Piece(self.index, self.stack.copy(), self.level.copy(), self.partial.copy())

    @property
    def started(self):
        return int(self.level[0]) >= 0

    def roots(self):
        """The subtrees this piece has still to search, each named by its path of placed
        queens below the prefix (a tuple of bitboards, one per row): the untried squares of
        each level, after the squares chosen above them."""
        level = int(self.level[0])
        roots = []
        path = ()
        for j in range(level + 1):
            free = int(self.stack[j, 0])
            roots.extend(path + (1 << bit,) for bit in range(64) if free >> bit & 1)
            if j < level:
                path += (int(self.stack[j + 1, 1]) & ~int(self.stack[j, 1]),)
        return roots

    def split(self):
        """Give away part of the search still ahead: a new piece of the same subproblem, or
        ``None`` when too little is left.

        The untried squares of the shallowest level that has any (the upper half of them
        when there are several; at the level being searched, only when there are several)
        go to the new piece, whose shallower levels have nothing left to try. The two pieces
        then search disjoint parts of what this one had ahead, in any order.
        """
        level = int(self.level[0])
        for j in range(level + 1):
            free = int(self.stack[j, 0])
            if free:
                break
        else:
            return None
        squares = [bit for bit in range(64) if free >> bit & 1]
        if j == level and len(squares) < 2:
            return None
        give = sum(1 << bit for bit in squares[len(squares) // 2:])
        stack = self.stack.copy()
        stack[:j, 0] = 0
        stack[j, 0] = give
        self.stack[j, 0] = free & ~give
        return Piece(self.index, stack, np.array([j], dtype=np.int64),
                     np.zeros_like(self.partial))


def pieces_overlap(pieces):
    """Whether pieces of one subproblem would search a subtree twice: one of their
    :meth:`Piece.roots` lies in (or is) another. (Pieces from :meth:`Piece.split` never do;
    checked when a checkpoint is read.)"""
    roots = sorted(root for piece in pieces for root in piece.roots())
    # a path sorts right before the paths that extend it
    return any(b[:len(a)] == a for a, b in zip(roots, roots[1:]))


def row_allow(job, state):
    """Per-row allowed squares below ``state``: ``(n,)`` int64 or longer."""
    if job.method == "symmetric":
        return _kernels.entry("symmetric_allow")(job.n, int(state[3]))
    return job.allow


def check_piece(job, state, piece):
    """Whether ``piece`` is a position of the search below ``state``: each level's masks
    follow from the one above by one queen, and its untried squares are free there.
    (Checked when a checkpoint is read: the kernels trust the stack they are given.)"""
    level = int(piece.level[0])
    if not 0 <= level <= job.max_level:
        return False
    allow = row_allow(job, state)
    stack = [[int(v) for v in row] for row in piece.stack[:level + 1]]
    if stack[0][1:] != [int(v) for v in state[:3]]:
        return False
    for j, (free, cols, diag, anti) in enumerate(stack):
        squares = open_squares(job, state, piece.stack, j) & int(allow[job.depth + j])
        if free & ~squares:
            return False
        if j < level:
            bit = stack[j + 1][1] & ~cols
            below = job.board.down(job.n, cols, diag, anti, bit)
            if (bit == 0 or bit & (bit - 1) or not bit & squares
                    or free & ((bit << 1) - 1)  # squares are tried in increasing order
                    or stack[j + 1][1:] != below):
                return False
    return True


def _queen(job, state, stack, k):
    """The bitboard of the queen of level ``k`` of ``stack`` (below the prefix; ``k < 0``:
    of the prefix's rows, 0 above the board)."""
    if k >= 0:
        return int(stack[k + 1, 1]) & ~int(stack[k, 1])
    row = job.depth + k
    return 1 << int(state[3 + row]) if row >= 0 else 0


def open_squares(job, state, stack, j):
    """The squares of level ``j`` of a piece's ``stack`` (below ``state``) that no queen
    above attacks (a Python int; constraints aside): by the board's rules, the
    knights of superqueens and the least step of the torus's count included."""
    free, cols, diag, anti = (int(v) for v in stack[j])
    attacked = cols | diag | anti
    above = _queen(job, state, stack, j - 1)
    attacked |= job.board.near(above, _queen(job, state, stack, j - 2))
    if job.depth >= 2:  # (the least step is the second-row queen's column)
        attacked |= job.board.steps_near(job.n, int(state[4]), above)
    return ~attacked & ((1 << job.n) - 1)


def remaining(job, state, piece):
    """Estimated share of its subproblem's search still ahead of ``piece`` (below
    ``state``), 0 to 1.

    As if every node of a level had as many children as the node on the piece's path:
    the untried squares of each level, each weighted by the share of the subtree it
    stands for.
    """
    return _shares(job, state, piece)[0]


def done(job, state, piece):
    """Estimated share of its subproblem's search behind ``piece``, 0 to 1: that of a piece
    never split, ``1 - remaining(...)`` summed as the squares tried of each level (each
    weighted as in :func:`remaining`), so that it keeps its digits on boards where it is
    far below the 1e-16 of ``1 - remaining``."""
    return _shares(job, state, piece)[1]


def _shares(job, state, piece):
    """``(ahead, behind)``: the shares of :func:`remaining` and :func:`done`."""
    level = int(piece.level[0])
    if level < 0:
        return 1.0, 0.0
    allow = row_allow(job, state)
    share = 1.0
    ahead = behind = 0.0
    for j in range(level + 1):
        free = int(piece.stack[j, 0]).bit_count()
        children = (open_squares(job, state, piece.stack, j)
                    & int(allow[job.depth + j])).bit_count()
        if children == 0:
            break
        ahead += share * free / children
        # the squares tried: all but the untried ones and, above the deepest level, the
        # one on the path (its subtree is shared out below)
        behind += share * (children - free - (j < level)) / children
        share /= children
    return min(ahead, 1.0), min(behind, 1.0)
