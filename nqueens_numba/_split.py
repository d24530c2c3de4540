"""What to compute: the counting method, the subproblem split, and how its results add up.

A count is split into subproblems by pre-placing the queens of the first ``depth`` rows
(:data:`~nqueens_numba._kernels` states). :func:`count_split` decides everything about a count
once, from validated arguments, and returns a :class:`Split`: the local count runs it on a
pool of threads (:mod:`nqueens_numba._runner`), the Dask count on a cluster
(:mod:`nqueens_numba.distributed`), and both add the results up with :meth:`Split.total`.
The enumerations take their subproblems from :func:`enumeration_split` and
:func:`stream_split`. Nothing here runs a search but the prefix enumeration.
"""
import math
import time
from dataclasses import dataclass

import numpy as np

from . import _breadth, _kernels, _validate, checkpoint, config
from .constraints import Constraints

__all__ = ["METHODS", "SYMMETRIC_RESULTS", "Split", "CountJob", "Piece", "known_total", "check_method",
           "choose_method", "has_subproblems", "check_prefix_depth", "resumed_depth",
           "count_split", "enumeration_split", "stream_split", "orbits_to_count",
           "no_constraints", "pieces_overlap", "is_small", "is_breadth", "most_solutions",
           "profile_split", "ProbePlan", "probe_plan", "variant_of", "board_name"]

#: Counting methods: mirror halving, and the D4-symmetric search.
METHODS = ("halving", "symmetric")

#: What each subproblem of the symmetric search records (``_count_symmetric_states``).
SYMMETRIC_RESULTS = ("leaves with 1 tied edge", "2 tied edges", "3 tied edges",
                     "4 tied edges", "orbits of 4", "orbits of 2")

#: Smallest board the symmetric kernel searches: two prefix rows above its unrolled tail.
#: Smaller boards have no symmetric split; their orbits are found by enumeration.
SYMMETRIC_KERNEL_MIN_N = _kernels.TAIL_ROWS + 3


def variant_of(piece, torus):
    """The kernels' variant flags (``_kernels.TORUS``, ``_kernels.KNIGHT``; 0 for plain
    queens) of a board validated by :func:`nqueens_numba._validate.board`."""
    return (_kernels.TORUS if torus else 0) | (_kernels.KNIGHT if piece == "superqueen" else 0)


def board_name(variant):
    """What a checkpoint and a message call the board of ``variant``: ``None`` for plain
    queens, else ``"torus"`` or ``"superqueen"``."""
    if variant & _kernels.TORUS:
        return "torus"
    return "superqueen" if variant & _kernels.KNIGHT else None


def board_keywords(variant):
    """The keywords of the board of ``variant`` as a caller writes them (``""`` for queens),
    for messages: ``", torus=True"`` or ``", piece='superqueen'"``."""
    if variant & _kernels.TORUS:
        return ", torus=True"
    return ", piece='superqueen'" if variant & _kernels.KNIGHT else ""


def has_no_solutions(n, variant):
    """Whether the board of ``n`` and ``variant`` is known to have no solution without a
    search: toroidal queens exist exactly when ``gcd(n, 6) == 1`` (Polya, 1921), or
    ``n <= 1``."""
    return bool(variant & _kernels.TORUS) and n > 1 and math.gcd(n, 6) != 1


def known_total(n):
    """The total count from OEIS A000170 when tabulated (``n <= 27``), else ``None``."""
    return config.A000170[n] if n < len(config.A000170) else None


def most_solutions(n, constraints=None):
    """An upper bound on the solutions of ``n`` (with ``constraints``, a
    :class:`~nqueens_numba.constraints.Constraints` or ``None``): the tabulated total (OEIS
    A000170) when known, and at most the product of each row's allowed squares (a Python
    int: 1 for a board whose rows are all pre-placed but one with a single square)."""
    bound = known_total(n)
    if constraints is not None:
        product = 1
        for allowed in constraints.allow[:n].tolist():
            product *= bin(allowed & ((1 << n) - 1)).count("1")
        bound = product if bound is None else min(bound, product)
    return n ** n if bound is None else bound


def no_constraints(n):
    """Per-row allowed squares of an unconstrained board: ``(max(n, 1),)`` int64, all ones."""
    return np.full(max(n, 1), (1 << n) - 1 if n < 64 else -1, dtype=np.int64)


# --------------------------------------------------------------------------- the method


def check_method(method):
    """Validate ``method``: ``None`` (automatic) or one of :data:`METHODS`."""
    if method is None or (isinstance(method, str) and method in METHODS):
        return method
    raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))} or None, "
                     f"got {method!r}")


def choose_method(n, method, fundamental, constraints):
    """The counting method of a count: ``"halving"`` or ``"symmetric"``.

    ``method`` is the validated user choice (``None``: automatic); ``constraints`` a
    :class:`~nqueens_numba.constraints.Constraints` or ``None``. The automatic choice is the
    symmetric search from ``config.SYMMETRIC_MIN_N`` on (and whenever ``fundamental``), and
    mirror halving on constrained boards, where symmetry does not apply.

    Raises ``ValueError`` for combinations that cannot be counted.
    """
    if fundamental and method == "halving":
        raise ValueError("fundamental=True needs method='symmetric' (or None): mirror halving "
                         "does not classify solutions by orbit")
    if constraints is not None:
        if fundamental:
            raise ValueError("fundamental=True cannot be combined with pre-placed queens or "
                             "blocked squares: symmetry classes are defined on the whole "
                             "board")
        if method == "symmetric":
            raise ValueError("method='symmetric' cannot be combined with pre-placed queens "
                             "or blocked squares (use method='halving' or None): the "
                             "symmetric search assumes the whole board")
        return "halving"
    if method is None:
        return "symmetric" if (fundamental or n >= config.SYMMETRIC_MIN_N) else "halving"
    return method


def is_breadth(n):
    """Whether a board is small enough for the breadth-first search in NumPy
    (:mod:`nqueens_numba._breadth`, ``n <= config.BREADTH_MAX_N``): milliseconds, and
    nothing to compile or load."""
    return 0 <= n <= min(config.BREADTH_MAX_N, _breadth.MAX_N)


def is_small(n):
    """Whether a total count of ``n`` has at most ``config.DIRECT_SOLUTIONS`` solutions
    (OEIS A000170): milliseconds of search, where compile time dominates a first call."""
    total = known_total(n)
    return n >= 1 and total is not None and total <= config.DIRECT_SOLUTIONS


def has_subproblems(n, method):
    """Whether a count of ``n`` by ``method`` has a split (else it takes microseconds: the
    empty board, or a symmetric count of a board under ``SYMMETRIC_KERNEL_MIN_N``)."""
    return n > 0 and (method == "halving" or n >= SYMMETRIC_KERNEL_MIN_N)


# --------------------------------------------------------------------------- the depth


def _depth_range(n, method):
    """Allowed ``prefix_depth`` of a count: ``(low, high)``, empty when ``low > high``."""
    if method == "halving":
        return 1, max(1, n - 1)
    return 2, n - _kernels.TAIL_ROWS - 1  # two rows above the symmetric kernel's tail


def check_prefix_depth(prefix_depth, n, method):
    """Validate ``prefix_depth`` for a count of ``n`` by ``method``."""
    if prefix_depth is None:
        return None
    prefix_depth = _validate.integer(prefix_depth, "prefix_depth")
    low, high = _depth_range(n, method)
    if low > high:
        raise ValueError(f"prefix_depth cannot be set for n={n} with method={method!r}: the "
                         f"symmetric count of boards under {SYMMETRIC_KERNEL_MIN_N} "
                         f"enumerates their solutions")
    if not low <= prefix_depth <= high:
        raise ValueError(f"prefix_depth must be in the range {low}..{high} for n={n} with "
                         f"method={method!r}, got {prefix_depth}")
    return prefix_depth


def resumed_depth(path, n, method, variant=0):
    """The prefix depth the checkpoint at ``path`` was written with, if it is one of this
    count (so that a resumed count rebuilds the same split); else ``None``."""
    depth = checkpoint.recorded_depth(path, n, method, board_name(variant))
    low, high = _depth_range(n, method)
    return depth if depth is not None and low <= depth <= high else None


def _split_target(n, n_threads):
    """Subproblems a count of ``n`` should have: enough per thread, small enough each."""
    total = known_total(n)
    per = config.SOLUTIONS_PER_SUBPROBLEM
    by_size = config.MAX_SUBPROBLEMS if total is None else -(-total // per)
    return min(max(config.TASKS_PER_THREAD * n_threads, by_size), config.MAX_SUBPROBLEMS)


def _prefix_states(n, depth, first_limit, allow, before=0, variant=0):
    """The prefix states of ``depth`` rows (kernel ``_enumerate_prefixes``, or
    ``_enumerate_variant_prefixes`` on the board of ``variant``); ``ValueError`` when they
    and ``before`` others exceed ``config.MAX_SUBPROBLEMS``."""
    most = config.MAX_SUBPROBLEMS - before
    if variant:
        states, found = _kernels._enumerate_variant_prefixes(n, depth, first_limit, allow,
                                                             most, variant)
    else:
        states, found = _kernels._enumerate_prefixes(n, depth, first_limit, allow, most)
    if found > most:
        raise ValueError(
            f"prefix_depth={depth} makes more than {config.MAX_SUBPROBLEMS:,} subproblems for "
            f"n={n} (config.MAX_SUBPROBLEMS); choose a smaller prefix_depth")
    return states


def _grow(enumerate_depth, shallowest, deepest, target, prefix_depth=None):
    """Prefix states of ``prefix_depth`` rows if given, else of increasing depth until there
    are ``target`` of them: ``(states, depth)``.

    Stops at ``deepest``, or before a depth whose states would exceed
    ``config.MAX_SUBPROBLEMS``.
    """
    if prefix_depth is not None:
        return enumerate_depth(prefix_depth), prefix_depth
    depth = shallowest
    states = enumerate_depth(depth)
    while len(states) < target and depth < deepest:
        try:
            states = enumerate_depth(depth + 1)
        except ValueError:  # too many subproblems at the next depth
            break
        depth += 1
    return states, depth


def _prefixes(n, first_limit, allow, target, prefix_depth=None):
    """Prefix states of the plain search, the first-row queen in columns
    ``0 .. first_limit - 1``: ``(states, depth)``."""
    def enumerate_depth(depth):
        return _prefix_states(n, depth, first_limit, allow)

    low, high = _depth_range(n, "halving")
    return _grow(enumerate_depth, low, min(high, config.MAX_SPLIT_DEPTH), target, prefix_depth)


def _variant_prefixes(n, first_limit, variant, target, prefix_depth=None, shallowest=1):
    """Prefix states of the search of ``variant``'s board (toroidal queens, superqueens),
    the first-row queen in columns ``0 .. first_limit - 1``: ``(states, depth)``, at least
    ``shallowest`` rows unless ``prefix_depth`` is given."""
    def enumerate_depth(depth):
        return _prefix_states(n, depth, first_limit, no_constraints(n), 0, variant)

    high = _depth_range(n, "halving")[1]
    return _grow(enumerate_depth, shallowest, min(high, config.MAX_SPLIT_DEPTH), target,
                 prefix_depth)


def _symmetric_prefixes(n, target, prefix_depth=None, variant=0):
    """Prefix states of the symmetric search: ``(states, depth)``.

    At least two rows (the second row of a first-row queen in the middle column is
    restricted to its left half) and at most ``n - TAIL_ROWS - 1``, so that the kernel's
    unrolled tail fits below. The prefixes of each first-row column ``b`` (``1 .. (n - 1) //
    2``: never a corner) are those of the plain search with the rows limited as the
    symmetric search limits them below ``b`` (``_symmetric_allow``), in order (on the board
    of ``variant``: superqueens).
    """
    def enumerate_depth(depth):
        parts = []
        for b in range(1, (n - 1) // 2 + 1):
            allow = _kernels._symmetric_allow(n, b)
            parts.append(_prefix_states(n, depth, n, allow, sum(map(len, parts)), variant))
        return np.concatenate(parts)

    low, high = _depth_range(n, "symmetric")
    return _grow(enumerate_depth, low, max(low, min(high, config.MAX_SPLIT_DEPTH)), target,
                 prefix_depth)


# --------------------------------------------------------------------------- the split


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
        ``_kernels.bitboard._count_cursor``).
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


@dataclass(frozen=True, eq=False)
class CountJob:
    """The counting kernel of a split, bound to everything but the states it counts.

    Small and picklable: a thread of the local pool and a Dask worker call it alike on a
    batch of states, shape ``(k, 3 + depth)`` int64, and get ``(k, width)`` int64 results
    (:meth:`__call__`), or run it for a budget of steps and keep the search in progress
    (:meth:`run`). The kernels are looked up when called, in :mod:`nqueens_numba._kernels`.
    """

    n: int
    depth: int
    method: str
    allow: np.ndarray = None  # per-row allowed squares of a constrained board
    variant: int = 0  # the board: toroidal queens, superqueens (``_kernels.TORUS``, ``KNIGHT``)

    def __call__(self, states):
        """The results of every state of a batch, in one kernel call (no budget)."""
        if self.method == "symmetric":
            count = (_kernels._count_symmetric_variant_states if self.variant
                     else _kernels._count_symmetric_states)
            out = count(self.n, states, self.depth)
        elif self.variant:
            out = _kernels._count_variant_states(self.n, states, self.depth, self.variant)
        elif self.allow is not None:
            out = _kernels._count_allowed_states(self.n, states, self.depth, self.allow)
        else:
            out = _kernels._count_states(self.n, states, self.depth)
        return np.asarray(out, dtype=np.int64).reshape(len(states), self.width)

    @property
    def width(self):
        """Results per subproblem: 6 for the symmetric search, else 1."""
        return len(SYMMETRIC_RESULTS) if self.method == "symmetric" else 1

    @property
    def max_level(self):
        """Deepest level of a piece's stack; -1 when a subproblem has no stack (it leaves
        at most ``TAIL_ROWS`` rows and is counted at once)."""
        return self.n - _kernels.TAIL_ROWS - 1 - self.depth

    def piece(self, index):
        """A piece for subproblem ``index``, not started."""
        return Piece(int(index), np.zeros((self.n + 1, 4), dtype=np.int64),
                     np.full(1, -1, dtype=np.int64), np.zeros(self.width, dtype=np.int64))

    def run(self, states, piece, budget):
        """Count a batch of states in order for about ``budget`` steps of the search
        (``config.COUNT_BUDGET`` take about 0.1 s).

        ``piece`` is the cursor: if started, it is the search of ``states[0]`` in progress.
        Returns ``(counts, n_done)``: ``counts``, shape ``(k, width)``, int64, holds the
        results of the first ``n_done`` states, which are finished; the next one is then in
        ``piece`` (started, or not when the budget ran out between two states). A piece's
        ``partial`` and ``counts[0]`` of a resumed piece are this piece's results alone.
        """
        if self.method == "symmetric":
            run = (_kernels._count_symmetric_variant_run if self.variant
                   else _kernels._count_symmetric_run)
            counts, done = run(self.n, states, self.depth, piece.stack, piece.level,
                               piece.partial, np.empty((2, self.n), dtype=np.int64), budget)
        elif self.variant:
            counts, done = _kernels._count_variant_batch(self.n, states, self.depth,
                                                         self.variant, piece.stack, piece.level,
                                                         piece.partial, budget)
        elif self.allow is not None:
            counts, done = _kernels._count_allowed_batch(self.n, states, self.depth,
                                                         self.allow, piece.stack, piece.level,
                                                         piece.partial, budget)
        else:
            counts, done = _kernels._count_batch(self.n, states, self.depth, piece.stack,
                                                 piece.level, piece.partial, budget)
        return np.asarray(counts, dtype=np.int64).reshape(len(states), self.width), int(done)

    def advance(self, states, piece, seconds, budget=None):
        """:meth:`run` kernel calls of ``budget`` steps (``config.COUNT_BUDGET``) until the
        batch is finished or ``seconds`` have passed: one task of a Dask worker.

        Returns ``(counts, n_done, piece)``: the results of the first ``n_done`` states,
        ``(n_done, width)`` int64, and the cursor, in progress on ``states[n_done]`` (or not
        started there) when ``n_done < len(states)``.
        """
        budget = config.COUNT_BUDGET if budget is None else budget
        start = time.perf_counter()
        parts = []
        done = 0
        while done < len(states):
            counts, n_done = self.run(states[done:], piece, budget)
            parts.append(counts[:n_done])
            done += n_done
            if time.perf_counter() - start >= seconds:
                break
        counts = np.concatenate(parts) if parts else np.zeros((0, self.width), np.int64)
        return counts, done, piece

    def row_allow(self, state):
        """Per-row allowed squares below ``state``: ``(n,)`` int64 or longer."""
        if self.method == "symmetric":
            return _kernels._symmetric_allow(self.n, int(state[3]))
        return no_constraints(self.n) if self.allow is None else self.allow

    def check_piece(self, state, piece):
        """Whether ``piece`` is a position of the search below ``state``: each level's masks
        follow from the one above by one queen, and its untried squares are free there.
        (Checked when a checkpoint is read: the kernels trust the stack they are given.)"""
        level = int(piece.level[0])
        if not 0 <= level <= self.max_level:
            return False
        allow = self.row_allow(state)
        stack = [[int(v) for v in row] for row in piece.stack[:level + 1]]
        if stack[0][1:] != [int(v) for v in state[:3]]:
            return False
        for j, (free, cols, diag, anti) in enumerate(stack):
            open_squares = self.open_squares(state, piece.stack, j) & int(allow[self.depth + j])
            if free & ~open_squares:
                return False
            if j < level:
                bit = stack[j + 1][1] & ~cols
                if (bit == 0 or bit & (bit - 1) or not bit & open_squares
                        or free & ((bit << 1) - 1)  # squares are tried in increasing order
                        or stack[j + 1][1:] != _down(self.variant, self.n, cols, diag, anti,
                                                     bit)):
                    return False
        return True

    def open_squares(self, state, stack, j):
        """The squares of level ``j`` of a piece's ``stack`` (below ``state``) that no queen
        above attacks (a Python int; constraints aside)."""
        free, cols, diag, anti = (int(v) for v in stack[j])
        attacked = cols | diag | anti
        full = (1 << self.n) - 1
        if self.variant & _kernels.STEPS and self.depth >= 2:  # nearer than the least step
            n, m = self.n, int(state[4])
            band = ((1 << (n - m + 1)) - 1) & ~((1 << m) - 1)
            above = (int(stack[j, 1]) & ~int(stack[j - 1, 1]) if j
                     else 1 << int(state[3 + self.depth - 1]))
            t = above.bit_length() - 1
            attacked |= ~((band << t) | (band >> (n - t))) & full
        if self.variant & _kernels.KNIGHT:  # the queens of the two rows above, as knights
            def queen(k):  # the bitboard of the queen of level ``k`` (< 0: of the prefix)
                if k >= 0:
                    return int(stack[k + 1, 1]) & ~int(stack[k, 1])
                row = self.depth + k
                return 1 << int(state[3 + row]) if row >= 0 else 0
            one, two = queen(j - 1), queen(j - 2)
            attacked |= (one << 2) | (one >> 2) | (two << 1) | (two >> 1)
        return ~attacked & full


def pieces_overlap(pieces):
    """Whether pieces of one subproblem would search a subtree twice: one of their
    :meth:`Piece.roots` lies in (or is) another. (Pieces from :meth:`Piece.split` never do;
    checked when a checkpoint is read.)"""
    roots = sorted(root for piece in pieces for root in piece.roots())
    # a path sorts right before the paths that extend it
    return any(b[:len(a)] == a for a, b in zip(roots, roots[1:]))


def _int64(value):
    """A Python int wrapped to int64, as the kernels' shifts wrap."""
    return (value + 2**63) % 2**64 - 2**63


def _down(variant, n, cols, diag, anti, bit):
    """``[cols, diag, anti]`` of the next row once a queen stands on ``bit`` (Python ints), as
    the kernels compute them (``_kernels._common._down``)."""
    if variant & _kernels.TORUS:
        full = (1 << n) - 1
        d, a = diag | bit, anti | bit
        return [cols | bit, ((d << 1) | (d >> (n - 1))) & full,
                ((a >> 1) | (a << (n - 1))) & full]
    return [cols | bit, _int64((diag | bit) << 1), _int64((anti | bit) >> 1)]


@dataclass(frozen=True, eq=False)
class Split:
    """The subproblems of one count and how their results add up.

    Attributes
    ----------
    n : int
        Board order, ``1 <= n <= 63``.
    method : {"halving", "symmetric"}
    states : numpy.ndarray, shape (n_states, 3 + depth), dtype int64
        One subproblem per row (see :mod:`nqueens_numba._kernels`).
    depth : int
        Rows pre-placed by each subproblem.
    weights : numpy.ndarray, shape (n_states,), dtype int64
        Solutions each solution found stands for: 2 for a first-row queen in the left half
        when mirror halving applies (its mirror image is not searched), ``n`` on the torus
        (the first-row queen in column 0 stands for its ``n`` column shifts), else 1.
    constraints : Constraints or None
        The constraints of a constrained count.
    direct : bool
        Small enough to run in one kernel call in the calling thread.
    variant : int
        The board (``_kernels.TORUS``, ``_kernels.KNIGHT``; 0: plain queens).
    """

    n: int
    method: str
    states: np.ndarray
    depth: int
    weights: np.ndarray
    constraints: Constraints = None
    direct: bool = False
    variant: int = 0

    @property
    def results(self):
        """Names of what each subproblem records, or ``None`` for a single count."""
        return SYMMETRIC_RESULTS if self.method == "symmetric" else None

    @property
    def width(self):
        """Results per subproblem: 6 for the symmetric search, else 1."""
        return self.job.width

    @property
    def job(self):
        """The :class:`CountJob` that counts a batch of these states."""
        allow = None if self.constraints is None else self.constraints.allow
        return CountJob(self.n, self.depth, self.method, allow, self.variant)

    @property
    def checkpoint_id(self):
        """What identifies this split in a checkpoint file (JSON-serialisable dict)."""
        sha = None if self.constraints is None else self.constraints.sha256
        counted = "by least steps" if self.variant & _kernels.STEPS else None
        return checkpoint.split_record(self.n, self.method, self.depth, self.states,
                                       self.results, sha, board_name(self.variant), counted)

    def remaining(self, piece):
        """Estimated share of its subproblem's search still ahead of ``piece``, 0 to 1.

        As if every node of a level had as many children as the node on the piece's path:
        the untried squares of each level, each weighted by the share of the subtree it
        stands for.
        """
        level = int(piece.level[0])
        if level < 0:
            return 1.0
        job = self.job
        state = self.states[piece.index]
        allow = job.row_allow(state)
        share = 1.0
        ahead = 0.0
        for j in range(level + 1):
            free = int(piece.stack[j, 0])
            children = (job.open_squares(state, piece.stack, j)
                        & int(allow[self.depth + j])).bit_count()
            if children == 0:
                break
            ahead += share * free.bit_count() / children
            share /= children
        return min(ahead, 1.0)

    def partial_count(self, results):
        """Solutions counted in ``results``, ``(n_states, width)``, so far: the total the
        finished subproblems and pieces stand for (with the symmetric search, an orbit of 8
        met by ``e`` of its images counts ``8 / e`` per image, rounded down overall)."""
        if self.method != "symmetric":
            return sum(int(w) * _exact_sums(results[self.weights == w])[0]
                       for w in np.unique(self.weights))
        sums = _exact_sums(results)
        return sum(sums[e - 1] * (192 // e) for e in range(1, 5)) // 24 + 4 * sums[4] \
            + 2 * sums[5]

    def orbits(self, results):
        """Orbits by size ``{1: a, 2: b, 4: c, 8: d}`` from the symmetric search's results.

        An orbit of 8 with ``e`` tied edges has ``e`` images among the leaves, so column
        ``e - 1``, summed, is a multiple of ``e``; anything else is an internal error.
        """
        if self.method != "symmetric":
            raise ValueError("orbits are counted by the symmetric search only")
        sums = _exact_sums(results)
        orbits8 = 0
        for e in range(1, 5):
            if sums[e - 1] % e:
                raise RuntimeError(f"internal error: {sums[e - 1]} leaves with {e} tied edges "
                                   f"is not a multiple of {e}")
            orbits8 += sums[e - 1] // e
        return {1: 0, 2: sums[5], 4: sums[4], 8: orbits8}

    def total(self, results, fundamental=False):
        """The count from the per-subproblem ``results``, ``(n_states, width)`` int64: the
        total (weighted sum, exact Python int), or with ``fundamental`` the orbits."""
        if self.method == "symmetric":
            return orbits_to_count(self.orbits(results), fundamental)
        return sum(int(w) * int(c) for w, c in zip(self.weights, results[:, 0]))


def _exact_sums(results):
    """Column sums of ``(k, width)`` int64 ``results`` as exact Python ints (NumPy's sums
    when int64 cannot overflow)."""
    if len(results) and int(results.max()) >= 2**62 // len(results):
        return [sum(int(c) for c in results[:, j]) for j in range(results.shape[1])]
    return [int(c) for c in results.sum(axis=0)]


def orbits_to_count(orbits, fundamental):
    """The fundamental count (orbits) or the total count (their sizes summed)."""
    if fundamental:
        return sum(orbits.values())
    return sum(size * count for size, count in orbits.items())


def _mirror_weights(n, states, halved):
    """2 for a first-row column in the left half when halved, else 1: ``(n_states,)`` int64."""
    if not halved:
        return np.ones(len(states), dtype=np.int64)
    return np.where(2 * states[:, 3] < n - 1, 2, 1).astype(np.int64)


def count_split(n, method, n_threads, prefix_depth=None, constraints=None, halving=True,
                variant=0):
    """The split of a count, from validated arguments.

    Parameters
    ----------
    n : int
        Board order with ``has_subproblems(n, method)``.
    method : {"halving", "symmetric"}
        From :func:`choose_method`.
    n_threads : int
        Threads (or Dask worker threads) that will run it: the default split makes many
        more subproblems than threads.
    prefix_depth : int, optional
        Validated by :func:`check_prefix_depth`; by default the prefix grows until the
        subproblems are many and small (``config.TASKS_PER_THREAD``,
        ``config.SOLUTIONS_PER_SUBPROBLEM``, at most ``config.MAX_SUBPROBLEMS``).
    constraints : Constraints, optional
        Counted by the kernel with allowed squares; mirror halving applies when they look
        the same in a left-right mirror (and ``halving``).
    halving : bool, optional
        ``False`` searches every first-row column even where mirror halving applies (the
        enumerations write the solutions of each subproblem in order; on the torus, always
        counted by least steps, they enumerate :func:`whole_search`).
    variant : int, optional
        The board (:func:`variant_of`), without constraints: superqueens by either method
        (mirror halving, or the symmetric search with knights); toroidal queens by
        ``"halving"`` only, which counts them by least steps (:func:`_steps_split`; the
        split covers the whole board whatever ``halving``).

    Returns
    -------
    Split
    """
    if has_no_solutions(n, variant):  # no subproblems to search, whatever runs the split
        depth = 1 if prefix_depth is None else prefix_depth
        return Split(n, "halving", np.zeros((0, 3 + depth), dtype=np.int64), depth,
                     np.zeros(0, dtype=np.int64), variant=variant)
    if variant & _kernels.TORUS:
        return _steps_split(n, n_threads, prefix_depth)
    if variant and method != "symmetric":
        return _variant_split(n, variant, n_threads, prefix_depth, halving)
    target = _split_target(n, n_threads)
    if method == "symmetric":
        if variant:  # superqueens: far fewer solutions than the queens the target is sized on
            target = config.TASKS_PER_THREAD * n_threads
        states, depth = _symmetric_prefixes(n, target, prefix_depth, variant)
        halved = False
    else:
        halved = halving and (constraints is None or constraints.mirror_symmetric)
        allow = no_constraints(n) if constraints is None else constraints.allow
        first_limit = (n + 1) // 2 if halved else n
        states, depth = _prefixes(n, first_limit, allow, target, prefix_depth)
    total = known_total(n)
    direct = not variant and total is not None and total <= config.DIRECT_SOLUTIONS
    return Split(n, method, states, depth, _mirror_weights(n, states, halved), constraints,
                 direct, variant)


def _variant_split(n, variant, n_threads, prefix_depth, symmetric):
    """The split of the search of superqueens (mirror halving; with ``symmetric`` false, the
    whole search) or toroidal queens (the tree an exact profile walks: the first-row queen
    in column 0 stands for its ``n`` column shifts, and from two rows on, a second-row queen
    in column ``c <= n - c`` for its mirror image ``-c mod n`` too)."""
    target = config.TASKS_PER_THREAD * n_threads
    if not variant & _kernels.TORUS:
        first_limit = (n + 1) // 2 if symmetric else n
        states, depth = _variant_prefixes(n, first_limit, variant, target, prefix_depth)
        return Split(n, "halving", states, depth, _mirror_weights(n, states, symmetric),
                     variant=variant)
    states, depth = _variant_prefixes(n, 1, variant, target, prefix_depth,
                                      shallowest=2 if n >= 3 else 1)
    weights = np.full(len(states), n, dtype=np.int64)
    if depth >= 2:  # the mirror c -> -c mod n keeps column 0 and maps row 1 to n - q1
        second = states[:, 4]
        keep = 2 * second <= n
        states = states[keep]
        weights = np.where(2 * second[keep] < n, 2 * n, n).astype(np.int64)
    return Split(n, "halving", states, depth, weights, variant=variant)


def _steps_split(n, n_threads, prefix_depth):
    """The split of a count of toroidal queens by least steps (``_kernels.STEPS``).

    The first-row queen stands in column 0 (weight ``n``: its column shifts); from two rows
    on, the second-row queen stands in a column ``m <= (n - 1) / 2`` and every later one at
    least ``m`` columns, either way round, from the one above. The kernel weights each
    solution found by the rotations and negations of its steps (the row shifts and the
    mirror image), so that the weighted sum is the whole count.
    """
    variant = _kernels.TORUS | _kernels.STEPS
    states, depth = _variant_prefixes(n, 1, variant, config.TASKS_PER_THREAD * n_threads,
                                      prefix_depth, shallowest=min(2, n))
    return Split(n, "halving", states, depth, np.full(len(states), n, dtype=np.int64),
                 variant=variant)


def whole_search(n, n_threads, variant):
    """Prefix states of the whole search of a variant's board (every first-row column), in
    lexicographic order: ``(states, depth)``, many more than threads (none on a board
    without solutions)."""
    if has_no_solutions(n, variant):
        return np.zeros((0, 4), dtype=np.int64), 1
    return _variant_prefixes(n, n, variant, config.TASKS_PER_THREAD * n_threads)


def enumeration_split(n, n_threads):
    """Subproblems of ``solve``: the mirror-halved split of an unconstrained count."""
    return count_split(n, "halving", n_threads)


def stream_split(n, n_threads, chunk_size, allow, variant=0):
    """Subproblems of the full search (every first-row column), for streaming in order:
    ``(states, depth)`` (on the board of ``variant``, without constraints, if given).

    Small enough that the subproblems buffered ahead of the one being consumed (about
    ``WINDOW_PER_THREAD`` per thread) hold a few chunks at most.
    """
    total = known_total(n)
    per = max(chunk_size // (config.WINDOW_PER_THREAD * n_threads), 1000)
    target = config.TASKS_PER_THREAD * n_threads
    if variant:
        return whole_search(n, n_threads, variant)
    if total is not None:  # past the table the set is endless in practice: stream it
        target = min(max(target, -(-total // per)), config.MAX_SUBPROBLEMS)
    return _prefixes(n, n, allow, target)


# --------------------------------------------------------------------------- the tree's shape


def profile_split(n, n_threads, variant=0):
    """Subproblems of an exact profile of the search tree (``search_profile``): the
    mirror-halved prefixes of a count, ``(states, depth, weights)``, ``weights`` (``(n_states,)``
    int64) 2 for a first-row queen in the left half, else 1 (those of :func:`count_split` on
    a variant's board: the column shifts and mirror images of a node are nodes too).
    Requires ``n >= 2``."""
    if variant:
        split = _variant_split(n, variant, n_threads, None, True)
        return split.states, split.depth, split.weights
    states, depth = _prefixes(n, (n + 1) // 2, no_constraints(n), _split_target(n, n_threads))
    return states, depth, _mirror_weights(n, states, True)


@dataclass(eq=False)
class ProbePlan:
    """The random probes of an estimate (``estimate_count``, ``search_profile(samples=)``),
    decided from ``n`` and ``samples`` alone, so that a seeded estimate is the same for every
    thread count.

    The strata are the placements of the first ``depth`` rows with the first-row queen in
    the left half or the middle (``states``; the root alone when ``depth == 0``), each
    standing for its mirror image too where that is another placement (``weights`` 2, else
    1). Stratum ``s``
    has ``base + 1`` probes if ``s < extra``, else ``base``, one after the other: probe
    ``p`` of the whole estimate belongs to :meth:`stratum` ``(p)``. Each probe counts the
    last ``tail`` rows exactly. Chunk ``c`` holds probes ``c * chunk`` onwards, with a random
    stream of its own.
    """
    n: int
    samples: int
    states: np.ndarray
    depth: int
    weights: np.ndarray
    tail: int
    chunk: int
    variant: int = 0

    @property
    def base(self):
        return self.samples // len(self.states)

    @property
    def extra(self):
        return self.samples % len(self.states)

    @property
    def n_chunks(self):
        return -(-self.samples // self.chunk)

    def stratum(self, probe):
        """The stratum of probe ``probe`` (``0 <= probe < samples``)."""
        base, extra = self.base, self.extra
        big = extra * (base + 1)
        return probe // (base + 1) if probe < big else extra + (probe - big) // base

    def probes(self):
        """Probes per stratum: ``(n_strata,)`` int64."""
        counts = np.full(len(self.states), self.base, dtype=np.int64)
        counts[:self.extra] += 1
        return counts

    def chunk_probes(self, c):
        """``(first, count, first_stratum, n_strata)`` of chunk ``c``."""
        first = c * self.chunk
        count = min(self.chunk, self.samples - first)
        s = self.stratum(first)
        return first, count, s, self.stratum(first + count - 1) - s + 1


def _estimate_tail(n):
    return next(rows for most, rows in config.ESTIMATE_TAIL_ROWS if n <= most)


def probe_plan(n, samples, variant=0):
    """The :class:`ProbePlan` of an estimate of ``n`` (``1 <= n <= 63``) from ``samples``
    probes: strata of as many rows as leave ``config.ESTIMATE_PROBES_PER_STRATUM`` probes
    each (at most ``config.ESTIMATE_MAX_DEPTH``), exact tails of
    ``config.ESTIMATE_TAIL_ROWS``, and at least ``config.ESTIMATE_RANDOM_ROWS`` sampled rows
    between them (fewer on the smallest boards, whose probes are then exact). On the torus
    the first-row queen of a stratum stands in column 0, for its ``n`` column shifts."""
    full = no_constraints(n)
    states = np.zeros((1, 3), dtype=np.int64)  # the root
    weights = np.ones(1, dtype=np.int64)
    depth = 0
    torus = bool(variant & _kernels.TORUS)
    first_limit = 1 if torus else (n + 1) // 2
    most = min(config.ESTIMATE_MAX_DEPTH, n - config.ESTIMATE_RANDOM_ROWS - 1)
    for k in range(1, most + 1):
        room = samples // config.ESTIMATE_PROBES_PER_STRATUM
        if variant:
            deeper, found = _kernels._enumerate_variant_prefixes(n, k, first_limit, full,
                                                                 room, variant)
        else:
            deeper, found = _kernels._enumerate_prefixes(n, k, first_limit, full, room)
        if found == 0 or found * config.ESTIMATE_PROBES_PER_STRATUM > samples:
            break  # (none: no solutions, which the probes of the shallower strata find)
        states, depth = deeper, k
        weights = (np.full(len(states), n, dtype=np.int64) if torus
                   else _mirror_weights(n, states, True))
    tail = max(0, min(_estimate_tail(n), n - depth - config.ESTIMATE_RANDOM_ROWS))
    return ProbePlan(n, samples, states, depth, weights, tail, config.ESTIMATE_CHUNK, variant)
