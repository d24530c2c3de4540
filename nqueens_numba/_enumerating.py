"""What to enumerate: how ``solve`` answers, the subproblems of the enumerations and streams
in lexicographic order, and the tree an exact profile walks (from the builders of
:mod:`nqueens_numba._split`)."""
import numpy as np

from . import _split, config
from .board import QUEEN

__all__ = ["most_solutions", "exact_total", "is_endless", "how_to_solve", "solve_split",
           "enumeration_split", "whole_search", "stream_split", "profile_split", "keywords"]


def keywords(board, cons, most=6):
    """The keywords of a board and its constraints for a message, as a caller writes them:
    ``", torus=True"``, ``", preplaced={0: 5, 3: 7}, blocked=<2 squares>"`` (the first
    ``most`` queens)."""
    given = []
    if cons is not None and (cons.queens >= 0).any():
        queens = [(row, column) for row, column in enumerate(cons.queens.tolist())
                  if column >= 0]
        shown = ", ".join(f"{row}: {column}" for row, column in queens[:most])
        given.append(f", preplaced={{{shown}{', ...' * (len(queens) > most)}}}")
    if cons is not None and cons.blocked.any():
        squares = int(cons.blocked.sum())
        given.append(f", blocked=<{squares} square{'s' * (squares != 1)}>")
    return board.keywords + "".join(given)


def most_solutions(n, constraints=None):
    """An upper bound on the solutions of ``n`` (with ``constraints``, a
    :class:`~nqueens_numba.constraints.Constraints` or ``None``): the tabulated total (OEIS
    A000170) when known, and at most the product of each row's allowed squares (a Python
    int: 1 for a board whose rows are all pre-placed but one with a single square)."""
    bound = QUEEN.known_total(n)
    if constraints is not None:
        product = 1
        for allowed in constraints.allow[:n].tolist():
            product *= bin(allowed & ((1 << n) - 1)).count("1")
        bound = product if bound is None else min(bound, product)
    return n ** n if bound is None else bound


def exact_total(n, board=QUEEN, constraints=None):
    """The total count known without a search: OEIS A000170 for plain queens without
    constraints (``n <= 27``); else ``None``."""
    return board.known_total(n) if constraints is None else None


def is_endless(n, board=QUEEN, constraints=None):
    """Whether the solutions are too many to hold or count in practice: plain queens
    without constraints past the tabulated totals (more than A000170(27) > 2e17)."""
    return board.plain and constraints is None and QUEEN.known_total(n) is None


def how_to_solve(n, board, constraints, limit, progress):
    """How ``solve`` answers: ``"none"`` (a board without solutions, or the empty board),
    ``"small"`` (the breadth-first search in NumPy: small plain boards without a progress
    bar), ``"first"`` (the first ``limit`` solutions by a serial search), ``"all"`` (the
    mirror-halved parallel enumeration of the plain board) or ``"counted"`` (counted first,
    then enumerated in order: :func:`solve_split`)."""
    if n == 0 or board.has_no_solutions(n):
        return "none"
    if board.plain and not progress and _split.is_breadth(n):
        return "small"
    if limit is not None:
        return "first"
    return "all" if board.plain and constraints is None else "counted"


def solve_split(n, n_threads, constraints=None, board=QUEEN):
    """What ``solve`` counts and enumerates on a constrained or variant board: ``(split,
    states, depth)``, the split that counts the solutions (every first-row column) and the
    prefixes that enumerate them in lexicographic order (the split's own, but on the
    torus, whose count is by least steps: :func:`whole_search`)."""
    split = _split.count_split(n, "halving", n_threads, constraints=constraints, halving=False,
                        board=board)
    if board.counted:
        return (split, *whole_search(n, n_threads, board))
    return split, split.states, split.depth


def enumeration_split(n, n_threads):
    """Subproblems of ``solve``: the mirror-halved split of an unconstrained count, sized
    for no more threads than its solutions make worth it (:func:`_most_subproblems`)."""
    most = _most_subproblems(QUEEN.known_total(n))
    return _split.count_split(n, "halving", max(min(n_threads, most // config.TASKS_PER_THREAD),
                                                1))


def _most_subproblems(total):
    """The most subproblems worth making to enumerate ``total`` solutions: one per
    ``config.MIN_SOLUTIONS_PER_SUBPROBLEM`` (each costs its own queue and kernel calls);
    ``config.MAX_SUBPROBLEMS`` past the tabulated totals (``None``)."""
    if total is None:
        return config.MAX_SUBPROBLEMS
    return max(total // config.MIN_SOLUTIONS_PER_SUBPROBLEM, 1)


def whole_search(n, n_threads, board):
    """Prefix states of the whole search of a board (every first-row column), in
    lexicographic order: ``(states, depth)``, many more than threads (none on a board
    without solutions)."""
    if board.has_no_solutions(n):
        return np.zeros((0, 4), dtype=np.int64), 1
    return _split.prefixes(n, n, None, config.TASKS_PER_THREAD * n_threads, board=board)


def stream_split(n, n_threads, chunk_size, allow, board=QUEEN):
    """Subproblems of the full search (every first-row column), for streaming in order:
    ``(states, depth)`` (on ``board``, without constraints: :func:`whole_search`).

    Small enough that the subproblems buffered ahead of the one being consumed (about
    ``WINDOW_PER_THREAD`` per thread) hold a few chunks at most.
    """
    if not board.plain:
        return whole_search(n, n_threads, board)
    total = QUEEN.known_total(n)
    per = max(chunk_size // (config.WINDOW_PER_THREAD * n_threads), 1000)
    target = config.TASKS_PER_THREAD * n_threads
    if total is not None:  # past the table the set is endless in practice: stream it
        target = min(max(target, -(-total // per)), config.MAX_SUBPROBLEMS,
                     _most_subproblems(total))
    return _split.prefixes(n, n, allow, target)


def profile_split(n, n_threads, board=QUEEN):
    """Subproblems of an exact profile of the search tree (``search_profile``):
    ``(states, depth, weights)``, ``weights`` (``(n_states,)`` int64) what each stands for.

    The mirror-halved prefixes (weight 2 for a first-row queen in the left half, else 1);
    on the torus, the tree of the column shift and the mirror: the first-row queen in
    column 0 stands for its ``n`` column shifts and, from two rows on, a second-row queen
    in column ``c <= n - c`` for its mirror image ``-c mod n`` too. Requires ``n >= 2``.
    """
    target = _split.split_target(n, n_threads, board)
    if not board.torus:
        states, depth = _split.prefixes(n, board.first_columns(n), None, target, board=board)
        return states, depth, board.first_weights(n, states[:, 3])
    states, depth = _split.prefixes(n, 1, None, target, board=board, shallowest=min(2, n))
    weights = np.full(len(states), n, dtype=np.int64)
    if depth >= 2:  # the mirror c -> -c mod n keeps column 0 and maps row 1 to n - q1
        second = states[:, 4]
        keep = 2 * second <= n
        states = states[keep]
        weights = np.where(2 * second[keep] < n, 2 * n, n).astype(np.int64)
    return states, depth, weights
