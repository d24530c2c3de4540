"""Which board a search runs on: plain queens, toroidal queens or superqueens.

A :class:`Board` is built once, from the validated ``piece=`` and ``torus=`` of a call
(:func:`board_of`), and carries every decision that depends on the board: the kernels'
flag, the names used in messages, checkpoints and cost tables, which boards have no
solution, what combines with what, and the attack rules in NumPy (:meth:`Board.attacked`,
:meth:`Board.is_solution`) and in Python integers (:meth:`Board.down`,
:meth:`Board.near`, for checking a saved search). The rest of the package asks the board
rather than which board it is, but for tables keyed by its name (the constructions of
``construct``, ``config.VARIANT_COST``) and the plain board's shortcuts; the layer tests
(``tests/test_layers.py``) bound the places that test it. :class:`Board` holds the plain
queen's rules; the toroidal board and the superqueens' override the rules that differ.
"""
import math
from dataclasses import dataclass, field

import numpy as np

from . import _kernels, _validate, config

__all__ = ["Board", "QUEEN", "TOROIDAL", "SUPERQUEEN", "board_of"]


#: The counting methods of ``method=``: mirror halving, and the D4-symmetric search.
METHODS = ("halving", "symmetric")


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
    plain : bool
        Whether this is the plain queens' board.
    answers_unsolvable : bool
        Whether a count of an order without solutions (:meth:`has_no_solutions`) is
        answered 0 without a split: toroidal queens (``gcd(n, 6) > 1``, any size); not
        superqueens (``2 <= n <= 9``: their splits take microseconds).
    unsolvable : frozenset of int
        The orders ``0 <= n <= config.MAX_N`` answered so.
    restricted : bool
        Whether some arguments do not combine with it (:meth:`check_combination`).
    method_of : dict of str to str
        The method it counts by for each method a count may choose (its only method when
        it has one).
    counted : str or None
        How its count weighs the solutions it finds, when not one by one: toroidal queens
        are counted ``"by least steps"`` (see ``count_solutions``), which checkpoints
        record.
    one_solution : str or None
        The function that gives one solution of any size in milliseconds, named in advice:
        ``"find_solution"`` (queens), ``"construct"`` (toroidal queens); ``None``: none.
    """

    piece: str
    torus: bool
    flag: int
    name: str = None
    keywords: str = ""
    methods: tuple = METHODS
    classified_by_search: bool = True
    counted: str = None
    one_solution: str = None
    plain: bool = False
    answers_unsolvable: bool = False
    unsolvable: frozenset = field(init=False)
    restricted: bool = True
    method_of: dict = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "unsolvable", frozenset(
            n for n in range(config.MAX_N + 1)
            if self.answers_unsolvable and self.has_no_solutions(n)))
        object.__setattr__(self, "method_of", {
            m: m if m in self.methods else self.methods[0] for m in METHODS})

    def __reduce__(self):  # one object per board, in every process
        return board_of, (self.piece, self.torus)

    def has_no_solutions(self, n):
        """Whether the board of order ``n`` (any size) is known to have no solution without
        a search."""
        return False

    def require_solutions(self, n):
        """Raise ``ValueError`` when the board of order ``n`` has no solution
        (:meth:`has_no_solutions`), saying why."""
        if self.has_no_solutions(n):
            raise ValueError(f"n={n}{self.keywords} has no solution")

    def known_total(self, n):
        """The total count when tabulated: OEIS A000170 for plain queens, ``n <= 27``
        (``config.A000170``, read at each call); else ``None``."""
        return None

    def untabulated_subproblems(self):
        """Subproblems a count's split aims at when its total is not tabulated: none beyond
        the per-thread share (the variants have far fewer solutions than the queens the
        sizes are measured on)."""
        return 0

    def check_combination(self, constraints=None, method=None, fundamental=False,
                          prefix_depth=None):
        """Refuse what does not combine with this board (``ValueError`` naming it): a
        variant takes no pre-placed queens or blocked squares (``constraints``, a
        :class:`~nqueens_numba.constraints.Constraints` or ``None``), nor a ``method`` it
        has no search for; the fundamental count of a board whose solutions are
        classified by enumeration takes no ``prefix_depth``."""
        what = self.keywords[2:]
        if constraints is not None:
            raise ValueError(f"{what} cannot be combined with pre-placed queens or blocked "
                             f"squares")
        if method is not None and method not in self.methods:
            raise ValueError(f"{what} cannot be combined with method={method!r} (use "
                             f"method={self.methods[0]!r} or None)")
        if fundamental and not self.classified_by_search and prefix_depth is not None:
            raise ValueError(f"prefix_depth does not apply to fundamental=True with {what}: "
                             f"the solutions are classified by enumeration")

    def first_columns(self, n):
        """How many first-row columns, from column 0, a search by symmetry starts from: the
        left half and the middle column (the mirror gives the right half)."""
        return (n + 1) // 2

    def first_weights(self, n, columns):
        """What a search from each first-row queen of :meth:`first_columns` stands for:
        ``(len(columns),)`` int64 for ``columns`` (array_like of int: the first-row queens'
        columns, ``states[:, 3]`` of prefix states), 2 for a column in the left half (its
        mirror image) and 1 for the middle column."""
        return np.where(2 * np.asarray(columns) < n - 1, 2, 1).astype(np.int64)

    def attacked(self, queens):
        """The squares attacked by the queens of a placement: ``(n, n)`` bool (one byte a
        square, and a few MB more while it is built).

        ``queens``: ``(n,)`` integers, ``queens[row] == column`` or -1 for an empty row.
        Attacked squares are those along the rows, columns and diagonals of a queen (the
        diagonals wrapping around the edges on the torus) and, for superqueens, a knight's
        move away; a queen's own square is attacked only by another queen (a conflict).
        """
        queens = np.asarray(queens)
        n = len(queens)
        rows = np.flatnonzero(queens >= 0)
        cols = queens[rows].astype(np.int64)
        wrap = self._wrap(n)
        down, up = (rows - cols) % wrap, (rows + cols) % wrap
        diagonals = np.zeros((2, wrap), dtype=bool)  # those holding a queen, by number
        diagonals[0, down] = True
        diagonals[1, up] = True
        hit = np.empty((n, n), dtype=bool)
        c = np.arange(n)
        step = max(1, (1 << 20) // max(n, 1))  # rows at a time: a few MB of indices
        for top in range(0, n, step):
            r = np.arange(top, min(top + step, n))[:, None]
            hit[top:top + step] = diagonals[0, (r - c) % wrap] | diagonals[1, (r + c) % wrap]
        hit[rows, :] = True
        hit[:, cols] = True
        self._mark_knights(hit, rows, cols)
        shared = [np.bincount(line, minlength=size)[line] > 1
                  for line, size in ((cols, n), (down, wrap), (up, wrap))]
        hit[rows, cols] = shared[0] | shared[1] | shared[2] | self._knights_meet_at(rows, cols, n)
        return hit

    def is_solution(self, cols):
        """Whether the permutation ``cols`` (``(n,)`` int32 or int64, values in
        ``0..n-1``) is a solution of this board: no two queens on a diagonal (wrapping on
        the torus) or, for superqueens, a knight's move apart. O(n)."""
        n = len(cols)
        rows = np.arange(n, dtype=cols.dtype)
        wrap = self._wrap(n)
        for line in (cols, (cols + rows) % wrap, (cols - rows) % wrap):
            seen = np.zeros(wrap, dtype=bool)
            seen[line] = True
            if np.count_nonzero(seen) != n:
                return False
        return not self._knights_meet(cols)

    def down(self, n, cols, diag, anti, bit):
        """``[cols, diag, anti]`` of the next row once a queen stands on ``bit`` (Python
        ints), as the kernels compute them (their shifts wrap to ``int64``)."""
        return [cols | bit, _int64((diag | bit) << 1), _int64((anti | bit) >> 1)]

    def steps_near(self, n, least, bit):
        """The squares of the next row that the count by least steps (:attr:`counted`)
        excludes near the queen on ``bit``: none but on the torus (Python ints)."""
        return 0

    def near(self, one, two):
        """The squares of a row that the queens on bitboards ``one`` (the row above) and
        ``two`` (two rows above) attack as knights: none but for superqueens (Python
        ints)."""
        return 0

    def _wrap(self, n):
        """The modulus of the diagonals' numbers: ``2 n``, which no difference of two
        squares' diagonals reaches (no wrapping)."""
        return 2 * max(n, 1)

    def _mark_knights(self, hit, rows, cols):
        """Mark in ``hit``, ``(n, n)`` bool, the squares that knights on ``(rows, cols)``
        attack: none but for superqueens."""

    def _knights_meet(self, cols):
        """Whether two queens of ``cols`` are a knight's move apart."""
        return False

    def _knights_meet_at(self, rows, cols, n):
        """Which queens on ``(rows, cols)`` of a board of ``n`` have another a knight's move
        away: ``(len(rows),)`` bool, all False but for superqueens."""
        return np.zeros(len(rows), dtype=bool)


@dataclass(frozen=True, eq=False)
class _PlainBoard(Board):
    """The plain queens' board: everything combines with it."""

    def known_total(self, n):
        return config.A000170[n] if 0 <= n < len(config.A000170) else None

    def has_no_solutions(self, n):
        """Queens have no solution for n = 2 and 3 (OEIS A000170)."""
        return n in (2, 3)

    def require_solutions(self, n):
        if self.has_no_solutions(n):
            raise ValueError(f"the {n}-queens problem has no solution (n = 2 and 3 have none)")

    def untabulated_subproblems(self):
        """As many as allowed (``config.MAX_SUBPROBLEMS``): plain queens past n = 27."""
        return config.MAX_SUBPROBLEMS

    def check_combination(self, constraints=None, method=None, fundamental=False,
                          prefix_depth=None):
        return None


@dataclass(frozen=True, eq=False)
class _Torus(Board):
    """Toroidal queens: the diagonals wrap around the board's edges."""

    def has_no_solutions(self, n):
        """Toroidal queens exist exactly when ``gcd(n, 6) == 1``, or ``n <= 1`` (Polya,
        1921)."""
        return n > 1 and math.gcd(n, 6) != 1

    def require_solutions(self, n):
        if self.has_no_solutions(n):
            raise ValueError(f"the toroidal {n}-queens problem has no solution: it has one "
                             f"exactly when gcd(n, 6) == 1 (n = 1, 5, 7, 11, 13, ...)")

    def first_columns(self, n):
        """Column 0 alone: the column shifts give the others."""
        return 1

    def first_weights(self, n, columns):
        """``n`` each: the column shifts of the first-row queen in column 0."""
        return np.full(len(columns), n, dtype=np.int64)

    def down(self, n, cols, diag, anti, bit):
        full = (1 << n) - 1
        d, a = diag | bit, anti | bit
        return [cols | bit, ((d << 1) | (d >> (n - 1))) & full,
                ((a >> 1) | (a << (n - 1))) & full]

    def steps_near(self, n, least, bit):
        """Those outside the columns ``least .. n - least`` turned round the torus to
        ``bit``'s column: closer than the least step ``least`` (the second-row queen's
        column)."""
        band = ((1 << (n - least + 1)) - 1) & ~((1 << least) - 1)
        t = bit.bit_length() - 1
        return ~((band << t) | (band >> (n - t))) & ((1 << n) - 1)

    def _wrap(self, n):
        return max(n, 1)


@dataclass(frozen=True, eq=False)
class _Superqueen(Board):
    """Superqueens: queens that also move as knights."""

    def has_no_solutions(self, n):
        """Superqueens have no solution for ``2 <= n <= 9`` (OEIS A051223)."""
        return 2 <= n <= 9

    def require_solutions(self, n):
        if self.has_no_solutions(n):
            raise ValueError(f"the {n}-superqueens problem has no solution (superqueens have "
                             f"none for n = 2 .. 9, OEIS A051223)")

    def near(self, one, two):
        return (one << 2) | (one >> 2) | (two << 1) | (two >> 1)

    def _mark_knights(self, hit, rows, cols):
        for r, c, _ in _knight_moves(rows, cols, len(hit)):
            hit[r, c] = True

    def _knights_meet_at(self, rows, cols, n):
        squares = rows * n + cols
        meet = np.zeros(len(rows), dtype=bool)
        for r, c, inside in _knight_moves(rows, cols, n):
            meet[inside] |= np.isin(r * n + c, squares)
        return meet

    def _knights_meet(self, cols):
        # two columns apart in the next row, one in the row after
        return bool(np.any(np.abs(np.diff(cols)) == 2) or np.any(np.abs(cols[2:] - cols[:-2]) == 1))


def _knight_moves(rows, cols, n):
    """For each of the eight knight's moves: the squares ``(r, c)`` it leads to from
    ``(rows, cols)`` inside a board of ``n``, and which of them are (``inside``)."""
    for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
        r, c = rows + dr, cols + dc
        inside = (r >= 0) & (r < n) & (c >= 0) & (c < n)
        yield r[inside], c[inside], inside


def _int64(value):
    """A Python int wrapped to int64, as the kernels' shifts wrap."""
    return (value + 2**63) % 2**64 - 2**63


#: The boards, by ``(piece, torus)``.
QUEEN = _PlainBoard("queen", False, 0, plain=True, one_solution="find_solution",
                    restricted=False)
TOROIDAL = _Torus("queen", True, _kernels.TORUS, "torus", ", torus=True", ("halving",),
                  classified_by_search=False, counted="by least steps",
                  one_solution="construct", answers_unsolvable=True)
SUPERQUEEN = _Superqueen("superqueen", False, _kernels.KNIGHT, "superqueen",
                         ", piece='superqueen'")
_BOARDS = {(b.piece, b.torus): b for b in (QUEEN, TOROIDAL, SUPERQUEEN)}
#: The same, by the exact types of the arguments too: the common calls need no checks.
_EXACT = {(str, b.piece, bool, b.torus): b for b in (QUEEN, TOROIDAL, SUPERQUEEN)}


def board_of(piece="queen", torus=False):
    """The :class:`Board` of ``piece=`` and ``torus=``.

    ``TypeError`` for a ``piece`` that is not a string or a ``torus`` that is not a bool;
    ``ValueError`` for another piece, or for toroidal superqueens (their knight moves would
    wrap across the first and last rows too, which the row-by-row search does not see).
    """
    try:
        return _EXACT.get((type(piece), piece, type(torus), torus)) or _checked(piece, torus)
    except TypeError:  # (unhashable: a list, an array)
        return _checked(piece, torus)


def _checked(piece, torus):
    key = (_validate.choice(piece, "piece", PIECES), _validate.flag(torus, "torus"))
    try:
        return _BOARDS[key]
    except KeyError:
        raise ValueError("piece='superqueen' cannot be combined with torus=True: toroidal "
                         "superqueens are not supported") from None


#: The pieces of ``piece=``: the queen, and the superqueen (a queen that also moves as a knight).
PIECES = ("queen", "superqueen")
