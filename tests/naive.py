"""Slow pure-Python oracles the fast paths are compared with. Small n only."""
from itertools import permutations

import numpy as np


def is_solution_naive(queens):
    """Pairwise check of a placement: distinct columns, no two queens on a diagonal."""
    q = [int(c) for c in queens]
    n = len(q)
    if any(not 0 <= c < n for c in q):
        return False
    return all(
        q[i] != q[j] and abs(q[i] - q[j]) != j - i for i in range(n) for j in range(i + 1, n)
    )


def solutions_by_permutations(n):
    """Every solution, by testing all n! permutations (n <= 8), in lexicographic order."""
    if n > 8:
        raise ValueError("permutation oracle is for n <= 8")
    return [p for p in permutations(range(n)) if is_solution_naive(p)]


def solutions_by_backtracking(n, prefix=()):
    """Every solution extending ``prefix``, by plain recursive backtracking (n <= 10)."""
    if n > 10:
        raise ValueError("backtracking oracle is for n <= 10")
    out = []

    def extend(placed):
        row = len(placed)
        if row == n:
            out.append(tuple(placed))
            return
        for col in range(n):
            if all(col != c and abs(col - c) != row - r for r, c in enumerate(placed)):
                extend(placed + [col])

    placed = []
    for col in prefix:
        row = len(placed)
        if any(col == c or abs(col - c) == row - r for r, c in enumerate(placed)):
            return out  # the prefix itself has two attacking queens
        placed.append(col)
    extend(placed)
    return out


def as_array(solutions, n):
    """A list of tuples as an ``(k, n)`` int8 array."""
    return np.array(solutions, dtype=np.int8).reshape(len(solutions), n)


def board_matrix(queens):
    """The 0/1 board of a placement: ``board[row, queens[row]] = 1``."""
    n = len(queens)
    board = np.zeros((n, n), dtype=np.int8)
    board[np.arange(n), np.asarray(queens, dtype=np.int64)] = 1
    return board


def placement(board):
    """The placement of a 0/1 board with one queen per row."""
    return tuple(int(c) for c in np.argmax(board, axis=1))


def all_images_naive(queens):
    """The eight images of a placement, by rotating and flipping its board matrix."""
    if len(queens) == 0:
        return [()] * 8
    board = board_matrix(queens)
    out = []
    for k in range(4):
        rotated = np.rot90(board, k)
        out.append(placement(rotated))
        out.append(placement(np.fliplr(rotated)))
    return out


def canonical_naive(queens):
    """The lexicographically smallest image of a placement."""
    return min(all_images_naive(queens))


def edge_distances_naive(queens):
    """Distances of the four edge queens (top row, bottom row, left and right columns) from
    the nearest corner along their edge."""
    n = len(queens)
    m = n - 1
    left = queens.index(0)
    right = queens.index(m)
    return [min(p, m - p) for p in (queens[0], queens[m], left, right)]


def in_symmetric_search_naive(queens):
    """Whether the symmetric search visits a solution: its first-row queen in the left half
    (or the middle column) and as far from a corner as any edge queen; with a middle
    first-row queen, the second-row queen left of it."""
    n = len(queens)
    b = queens[0]
    if 2 * b > n - 1 or max(edge_distances_naive(queens)) != b:
        return False
    return not (2 * b == n - 1 and queens[1] > b)


def tied_edges_naive(queens):
    """Number of edges whose queen is as far from a corner as the farthest one."""
    distances = edge_distances_naive(queens)
    return distances.count(max(distances))


def representative_naive(queens):
    """The image the symmetric search counts for an orbit fixed by a rotation: first-row
    queen as far from a corner as any edge queen, in the left half; the smallest such image."""
    n = len(queens)
    images = all_images_naive(queens)
    far = max(min(image[0], n - 1 - image[0]) for image in images)
    return min(image for image in images if image[0] == far)


def orbit_size_naive(queens):
    """Number of distinct images of a placement."""
    return len(set(all_images_naive(queens)))


def solutions_with_constraints(n, preplaced=None, blocked=None):
    """Solutions that keep ``preplaced`` ({row: col}) and avoid ``blocked`` (n <= 8)."""
    preplaced = preplaced or {}
    out = []
    for q in solutions_by_permutations(n):
        if any(q[r] != c for r, c in preplaced.items()):
            continue
        if blocked is not None and any(blocked[r][q[r]] for r in range(n)):
            continue
        out.append(q)
    return out


def count_with_constraints(n, preplaced=None, blocked=None):
    """Number of solutions that keep ``preplaced`` and avoid ``blocked``, by filtering the
    backtracking solutions (n <= 10)."""
    preplaced = preplaced or {}
    return sum(1 for q in solutions_by_backtracking(n)
               if all(q[r] == c for r, c in preplaced.items())
               and (blocked is None or not any(blocked[r][q[r]] for r in range(n))))


def profile_naive(n):
    """Nodes of the row-by-row backtrack tree at each depth: the placements of ``k``
    non-attacking queens in the first ``k`` rows, dead ends included, ``k = 0 .. n``."""
    profile = [0] * (n + 1)

    def extend(placed):
        profile[len(placed)] += 1
        if len(placed) == n:
            return
        row = len(placed)
        for col in range(n):
            if all(col != c and abs(col - c) != row - r for r, c in enumerate(placed)):
                extend(placed + (col,))

    extend(())
    return profile


def attacks_naive(r1, c1, r2, c2, n, piece="queen", torus=False):
    """Whether pieces on ``(r1, c1)`` and ``(r2, c2)`` attack each other: same row or
    column, a diagonal (wrapping around the edges on the torus), or, for superqueens, a
    knight's move."""
    dr, dc = r2 - r1, c2 - c1
    if dr == 0 or dc == 0:
        return True
    if torus:
        if (dr - dc) % n == 0 or (dr + dc) % n == 0:
            return True
    elif abs(dr) == abs(dc):
        return True
    return piece == "superqueen" and {abs(dr), abs(dc)} == {1, 2}


def variant_solutions_naive(n, piece="queen", torus=False):
    """The solutions of a variant's board by brute force over permutations (n <= 9), in
    lexicographic order."""
    return [p for p in permutations(range(n))
            if not any(attacks_naive(r1, p[r1], r2, p[r2], n, piece, torus)
                       for r1 in range(n) for r2 in range(r1 + 1, n))]


def tree_nodes_naive(n, allow=None):
    """Nodes of the row-by-row backtrack tree, the root included, whose queen of row ``r``
    may stand only on the squares of the bitboard ``allow[r]`` (every square without it)."""
    def extend(placed):
        row = len(placed)
        if row == n:
            return 1
        return 1 + sum(extend(placed + (col,)) for col in range(n)
                       if (allow is None or allow[row] >> col & 1)
                       and all(col != c and abs(col - c) != row - r
                               for r, c in enumerate(placed)))

    return extend(())
