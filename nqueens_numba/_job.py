"""The counting kernel of a split, bound to everything but the states it counts
(:class:`CountJob`), and what each subproblem of the symmetric search records."""
import numpy as np

from . import _kernels, _pieces
from ._kernels.prefixes import row_allows
from .board import QUEEN

__all__ = ["CountJob", "SYMMETRIC_RESULTS"]

#: What each subproblem of the symmetric search records (kernel job ``symmetric``).
SYMMETRIC_RESULTS = ("leaves with 1 tied edge", "2 tied edges", "3 tied edges",
                     "4 tied edges", "orbits of 4", "orbits of 2")


class CountJob:
    """The counting kernel of a split, bound to everything but the states it counts.

    Small and picklable: a thread of the local pool and a Dask worker call it alike on a
    batch of states, shape ``(k, 3 + depth)`` int64, and get ``(k, width)`` int64 results
    (:meth:`__call__`), or run it for a budget of steps and keep the search in progress
    (:meth:`run`). The kernel comes from :func:`nqueens_numba._kernels.entry` (job
    ``"symmetric"`` or ``"count"`` on the board, constrained or not).

    Parameters
    ----------
    n, depth : int
    method : {"halving", "symmetric"}
    allow : numpy.ndarray, shape (n,), dtype int64, or None
        Per-row allowed squares (all ones without constraints; ``None`` for the symmetric
        search, which has its own; with ``first``, its rows below each first-row column,
        ``((n + 1) // 2, n)``: ``_kernels.prefixes.row_allows``).
    board : Board
    constrained : bool
        Whether ``allow`` comes from constraints.
    first : bool
        The symmetric search of plain queens in the kernel that compiles fastest (job
        ``"symmetric_first"``), for a first count of a small board: each state is searched
        whole (no search is left in progress).
    """

    def __init__(self, n, depth, method, allow=None, board=QUEEN, constrained=False,
                 first=False):
        self.n = n
        self.depth = depth
        self.method = method
        self.allow = allow
        self.board = board
        self.constrained = constrained
        self.first = first
        self.width = len(SYMMETRIC_RESULTS) if method == "symmetric" else 1

    def first_use(self):
        """This job of the symmetric search on plain queens in the kernel that compiles
        fastest (:attr:`first`)."""
        return CountJob(self.n, self.depth, self.method, row_allows(self.n), self.board,
                        self.constrained, first=True)

    @property
    def kernel(self):
        """What names the kernel in ``_kernels.is_loaded``: ``(method, board flag,
        constrained)``, the method ``"symmetric_first"`` with :attr:`first`."""
        return ("symmetric_first" if self.first else self.method, self.board.flag,
                self.constrained)

    def __call__(self, states):
        """The results of every state of a batch, in one kernel call (no budget)."""
        return self.run(states, self.piece(0), 1 << 62)[0]

    def remaining(self, state, piece):
        """:func:`nqueens_numba._pieces.remaining` of ``piece`` (below ``state``)."""
        return _pieces.remaining(self, state, piece)

    def done(self, state, piece):
        """:func:`nqueens_numba._pieces.done` of ``piece`` (below ``state``)."""
        return _pieces.done(self, state, piece)

    def check_piece(self, state, piece):
        """:func:`nqueens_numba._pieces.check_piece` of ``piece`` (below ``state``)."""
        return _pieces.check_piece(self, state, piece)

    @property
    def max_level(self):
        """Deepest level of a piece's stack; -1 when a subproblem has no stack (it leaves
        at most ``TAIL_ROWS`` rows and is counted at once)."""
        return self.n - _kernels.TAIL_ROWS - 1 - self.depth

    def piece(self, index):
        """A piece for subproblem ``index``, not started."""
        return _pieces.Piece(int(index), np.zeros((self.n + 1, 4), dtype=np.int64),
                     np.full(1, -1, dtype=np.int64), np.zeros(self.width, dtype=np.int64))

    def run(self, states, piece, budget, signal=None):
        """Count a batch of states in order for about ``budget`` steps of the search
        (``config.COUNT_BUDGET`` take about 0.1 s), or fewer: once ``signal[0]`` is not 0
        (``(1,)`` int64, which other threads may set during the call), after ``signal[0]``
        steps at least.

        ``piece`` is the cursor: if started, it is the search of ``states[0]`` in progress.
        Returns ``(counts, n_done)``: ``counts``, shape ``(k, width)``, int64, holds the
        results of the first ``n_done`` states, which are finished; the next one is then in
        ``piece`` (started, or not when the budget ran out between two states). A piece's
        ``partial`` and ``counts[0]`` of a resumed piece are this piece's results alone.
        """
        if signal is None:
            signal = np.zeros(1, dtype=np.int64)
        if self.first:
            counts = np.zeros((len(states), self.width), dtype=np.int64)
            done = _kernels.entry("symmetric_first")(
                self.n, states, self.depth, self.allow, piece.stack, counts,
                np.empty((3, self.n), dtype=np.int64), budget, signal)
        elif self.method == "symmetric":
            counts, done = _kernels.entry("symmetric", self.board)(
                self.n, states, self.depth, piece.stack, piece.level, piece.partial,
                np.empty((2, self.n), dtype=np.int64), budget, signal)
        else:
            counts, done = _kernels.entry("count", self.board, self.constrained)(
                self.n, states, self.depth, self.allow, piece.stack, piece.level,
                piece.partial, budget, signal)
        return np.asarray(counts, dtype=np.int64).reshape(len(states), self.width), int(done)
