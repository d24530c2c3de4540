"""Which board a search runs on: plain queens, toroidal queens or superqueens.

A :class:`Board` is built once, from the validated ``piece=`` and ``torus=`` of a call
(:func:`board_of`), and carries every decision that depends on the board: the kernels'
flag, the names used in messages, checkpoints and cost tables, which boards have no
solution, what combines with what, and the attack rules in NumPy (:meth:`Board.attacked`,
:meth:`Board.is_solution`) and in Python integers (:meth:`Board.down`,
:meth:`Board.near`, for checking a saved search). Nothing else in the package asks which
board it is: it asks the board.
"""
import math
from dataclasses import dataclass

import numpy as np

from . import _kernels, _validate

__all__ = ["Board", "QUEEN", "TOROIDAL", "SUPERQUEEN", "board_of"]


@dataclass(frozen=True, eq=False)
class Board:
    """A board of the N-Queens family.

    Attributes
    ----------
    piece : {"queen", "superqueen"}
    torus : bool
    flag : int
        The kernels' flag of the board: 0, ``_kernels.TORUS`` or ``_kernels.KNIGHT``
        (the table :func:`nqueens_numba._kernels.entry` picks each board's kernels by it).
    name : str or None
        What checkpoints, cost tables and messages call it: ``None`` for plain queens,
        ``"torus"``, ``"superqueen"``.
    keywords : str
        The keywords that choose it as a caller writes them: ``""``, ``", torus=True"``,
        ``", piece='superqueen'"``.
    methods : tuple of str
        The counting methods that apply (toroidal queens: ``"halving"``, by least steps).
    classified_by_search : bool
        Whether the symmetric search classifies its solutions by orbit (else the
        fundamental count enumerates and classifies them).
    tabulated : bool
        Whether OEIS A000170 (``config.A000170``) gives its totals.
    plain : bool
        Whether this is the plain queens' board.
    unsolvable : frozenset of int
        The orders ``0 <= n <= 63`` known to have no solution without a search
        (:meth:`has_no_solutions`).
    counted : str or None
        How its count weighs the solutions it finds, when not one by one: toroidal queens
        are counted ``"by least steps"`` (see ``count_solutions``), which checkpoints
        record.
    """

    piece: str
    torus: bool
    flag: int
    name: str = None
    keywords: str = ""
    methods: tuple = ("halving", "symmetric")
    classified_by_search: bool = True
    tabulated: bool = True
    counted: str = None
    plain: bool = False
    unsolvable: frozenset = frozenset()

    def __reduce__(self):  # one object per board, in every process
        return board_of, (self.piece, self.torus)

    def has_no_solutions(self, n):
        """Whether the board of order ``n`` is known to have no solution without a search
        (``n in``:attr:`unsolvable`, or for larger ``n`` the same rule): toroidal queens
        exist exactly when ``gcd(n, 6) == 1``, or ``n <= 1`` (Polya, 1921)."""
        return self.torus and n > 1 and math.gcd(n, 6) != 1

    def check_combination(self, constraints=None, method=None, fundamental=False,
                          prefix_depth=None):
        """Refuse what does not combine with this board (``ValueError`` naming it): a
        variant takes no pre-placed queens or blocked squares (``constraints``, a
        :class:`~nqueens_numba.constraints.Constraints` or ``None``), nor a ``method`` it
        has no search for; the fundamental count of a board whose solutions are
        classified by enumeration takes no ``prefix_depth``."""
        if self.plain:
            return
        if constraints is not None:
            raise ValueError(f"{self.keywords[2:]} cannot be combined with pre-placed queens "
                             f"or blocked squares")
        if method is not None and method not in self.methods:
            raise ValueError(f"{self.keywords[2:]} cannot be combined with method={method!r} "
                             f"(use method={self.methods[0]!r} or None)")
        if fundamental and not self.classified_by_search and prefix_depth is not None:
            raise ValueError(f"prefix_depth does not apply to fundamental=True with "
                             f"{self.keywords[2:]}: the solutions are classified by "
                             f"enumeration")

    def first_columns(self, n):
        """How many first-row columns, from column 0, a search by symmetry starts from: 1
        on the torus (the column shifts give the others), else the left half and the
        middle column (the mirror gives the right half)."""
        return 1 if self.torus else (n + 1) // 2

    def first_weights(self, n, states):
        """What each prefix of :meth:`first_columns` stands for: ``(n_states,)`` int64,
        ``n`` on the torus (its column shifts), else 2 for a first-row queen in the left
        half (its mirror image) and 1 in the middle column."""
        if self.torus:
            return np.full(len(states), n, dtype=np.int64)
        return np.where(2 * states[:, 3] < n - 1, 2, 1).astype(np.int64)

    def attacked(self, queens):
        """The squares attacked by the queens of a placement: ``(n, n)`` bool.

        ``queens``: ``(n,)`` integers, ``queens[row] == column`` or -1 for an empty row.
        Attacked squares are those along the rows, columns and diagonals of a queen (the
        diagonals wrapping around the edges on the torus) and, for superqueens, a knight's
        move away; the queens' own squares are not.
        """
        queens = np.asarray(queens)
        n = len(queens)
        rows = np.flatnonzero(queens >= 0)
        cols = queens[rows]
        r = np.arange(n)[:, None]
        c = np.arange(n)[None, :]
        wrap = n if self.torus else 4 * n + 1  # (differences never reach 4n + 1)
        hit = np.zeros((n, n), dtype=bool)
        for qr, qc in zip(rows.tolist(), cols.tolist()):
            hit |= ((r == qr) | (c == qc) | ((r - c - qr + qc) % wrap == 0)
                    | ((r + c - qr - qc) % wrap == 0))
            if self.piece == "superqueen":
                dr, dc = np.abs(r - qr), np.abs(c - qc)
                hit |= ((dr == 1) & (dc == 2)) | ((dr == 2) & (dc == 1))
        hit[rows, cols] = False
        return hit

    def is_solution(self, cols):
        """Whether the permutation ``cols`` (``(n,)`` int32 or int64, values in
        ``0..n-1``) is a solution of this board: no two queens on a diagonal (wrapping on
        the torus) or, for superqueens, a knight's move apart. O(n)."""
        n = len(cols)
        rows = np.arange(n, dtype=cols.dtype)
        lines = (cols, cols + rows, cols - rows + (n - 1))
        if self.torus:
            lines = (cols, (cols + rows) % n, (cols - rows) % n)
        for line in lines:
            seen = np.zeros(2 * n - 1, dtype=bool)
            seen[line] = True
            if np.count_nonzero(seen) != n:
                return False
        if self.piece == "superqueen":  # knight moves: two columns apart in the next row,
            if np.any(np.abs(np.diff(cols)) == 2) or np.any(np.abs(cols[2:] - cols[:-2]) == 1):
                return False  # one in the row after
        return True

    def down(self, n, cols, diag, anti, bit):
        """``[cols, diag, anti]`` of the next row once a queen stands on ``bit`` (Python
        ints), as the kernels compute them (their shifts wrap to ``int64``; on the torus
        the diagonals rotate within ``n`` bits)."""
        d, a = diag | bit, anti | bit
        if self.torus:
            full = (1 << n) - 1
            return [cols | bit, ((d << 1) | (d >> (n - 1))) & full,
                    ((a >> 1) | (a << (n - 1))) & full]
        return [cols | bit, _int64(d << 1), _int64(a >> 1)]

    def steps_near(self, n, least, bit):
        """The squares of the next row closer than the least step ``least`` (the second-row
        queen's column) to the queen on ``bit``, in the count by least steps
        (:attr:`counted`): those outside the columns ``least .. n - least`` turned round
        the torus to ``bit``'s column; 0 on the other boards (Python ints)."""
        if not self.counted:
            return 0
        band = ((1 << (n - least + 1)) - 1) & ~((1 << least) - 1)
        t = bit.bit_length() - 1
        return ~((band << t) | (band >> (n - t))) & ((1 << n) - 1)

    def near(self, one, two):
        """The squares of a row that the queens on bitboards ``one`` (the row above) and
        ``two`` (two rows above) attack as knights: 0 but for superqueens (Python ints)."""
        if self.piece != "superqueen":
            return 0
        return (one << 2) | (one >> 2) | (two << 1) | (two >> 1)


def _int64(value):
    """A Python int wrapped to int64, as the kernels' shifts wrap."""
    return (value + 2**63) % 2**64 - 2**63


#: The boards, by ``(piece, torus)``.
QUEEN = Board("queen", False, 0, plain=True)
TOROIDAL = Board("queen", True, _kernels.TORUS, "torus", ", torus=True", ("halving",),
                 classified_by_search=False, tabulated=False, counted="by least steps",
                 unsolvable=frozenset(n for n in range(2, 64) if math.gcd(n, 6) != 1))
SUPERQUEEN = Board("superqueen", False, _kernels.KNIGHT, "superqueen",
                   ", piece='superqueen'", tabulated=False)
_BOARDS = {(b.piece, b.torus): b for b in (QUEEN, TOROIDAL, SUPERQUEEN)}


def board_of(piece="queen", torus=False):
    """The :class:`Board` of ``piece=`` and ``torus=`` (validated:
    :func:`nqueens_numba._validate.board`)."""
    if piece == "queen" and torus is False:  # the default, at no cost
        return QUEEN
    return _BOARDS[_validate.board(piece, torus)]
