"""Kernel of the min-conflicts local search: one solution of a huge board, pre-placed queens
kept.

Min-conflicts repair over permutations (Minton et al. 1992; Sosic and Gu 1994): queens stay in
distinct rows and columns, and swaps of two rows' columns remove diagonal conflicts.
``dn[r + c]`` and ``up[r - c + n - 1]`` count the queens on each anti-diagonal and diagonal; a
conflict is a pair of queens on one of them.
"""
import numpy as np
from numba import njit

from ._common import JIT, JIT_INLINE


@njit(**JIT_INLINE)
def _place(queens, dn, up, n, r, sign):
    """Add (``sign=1``) or remove (``-1``) the queen of row ``r``; return the change in pairs."""
    a = r + queens[r]
    b = r - queens[r] + n - 1
    if sign > 0:
        change = dn[a] + up[b]
        dn[a] += 1
        up[b] += 1
    else:
        dn[a] -= 1
        up[b] -= 1
        change = -(dn[a] + up[b])
    return change


@njit(**JIT_INLINE)
def _attacked(queens, dn, up, n, r):
    return dn[r + queens[r]] > 1 or up[r - queens[r] + n - 1] > 1


@njit(**JIT_INLINE)
def _try_swap(queens, dn, up, n, i, j):
    """Swap the columns of rows ``i`` and ``j`` if that lowers the conflicting pairs.

    Returns the change (negative when the swap was kept, else 0).
    """
    change = _place(queens, dn, up, n, i, -1) + _place(queens, dn, up, n, j, -1)
    queens[i], queens[j] = queens[j], queens[i]
    change += _place(queens, dn, up, n, i, 1) + _place(queens, dn, up, n, j, 1)
    if change < 0:
        return change
    _place(queens, dn, up, n, i, -1)
    _place(queens, dn, up, n, j, -1)
    queens[i], queens[j] = queens[j], queens[i]
    _place(queens, dn, up, n, i, 1)
    _place(queens, dn, up, n, j, 1)
    return np.int64(0)


#: The fields of a min-conflicts run's cursor (``(8,)`` int64, zeros at the start of a run):
#: where the run stands when a call returns with its budget spent.
_PHASE, _K, _PAIRS, _STEPS, _STALLED, _N_ATTACKED, _IMPROVED = range(7)


@njit(**JIT)
def _min_conflicts(queens, free_rows, seed, max_steps, dn, up, is_free, order, attacked,
                   cursor, budget):
    """Repair ``queens`` (a permutation, int64) into a solution by min-conflicts swaps, for
    about ``budget`` units of work per call (a loop's turn, or a swap tried).

    Only rows listed in ``free_rows`` move. First a greedy pass puts each free row, in
    random order, on a free column that adds no conflict when a few random tries find one
    (Sosic and Gu's initial placement); then queens under attack swap columns with random
    free rows while that lowers the number of conflicting pairs. Deterministic for a given
    ``seed`` when every call of a run is made in one thread (numba's random state is the
    thread's). Returns the steps used (swap tries) once ``queens`` is a solution, -1 when
    ``max_steps`` ran out, or -2 when ``budget`` did: call again with the same arrays to go
    on (a budget of 0 returns -2 at once, touching nothing: a call that only compiles).

    Work arrays come from the caller (allocating them here compiles NumPy's constructors:
    a third of this kernel's compile time): ``dn`` and ``up`` zeros, ``(2 n - 1,)`` int64;
    ``is_free`` False, ``(n,)`` bool; ``order`` a copy of ``free_rows``; ``attacked``
    ``(len(free_rows),)`` int64; ``cursor`` zeros, ``(8,)`` int64 (see ``_PHASE``).
    """
    n = queens.shape[0]
    m = free_rows.shape[0]
    left = budget
    phase = cursor[_PHASE]
    k = cursor[_K]
    pairs = cursor[_PAIRS]
    steps = cursor[_STEPS]
    stalled = cursor[_STALLED]
    n_attacked = cursor[_N_ATTACKED]
    improved = cursor[_IMPROVED] != 0
    result = -2
    while left > 0:
        if phase == 0:
            np.random.seed(seed)
            phase, k = 1, 0
        elif phase == 1:  # the free rows marked
            if k < m:
                is_free[free_rows[k]] = True
                k += 1
            else:
                phase, k = 2, 0
        elif phase == 2:  # the pre-placed queens counted on their diagonals
            if k < n:
                if not is_free[k]:
                    _place(queens, dn, up, n, k, 1)
                k += 1
            else:
                phase, k = 3, m - 1
        elif phase == 3:  # shuffle (Fisher-Yates; compiles faster than np's)
            if k > 0:
                j = np.random.randint(0, k + 1)
                order[k], order[j] = order[j], order[k]
                k -= 1
            else:
                phase, k, pairs = 4, 0, 0
        elif phase == 4:  # greedy: row order[k] takes a conflict-free column among those left
            if k < m:
                r = order[k]
                best_row = r
                for _ in range(256):  # nearly always a few tries; many only near the end
                    left -= 1
                    j = order[k + np.random.randint(0, m - k)]
                    queens[r], queens[j] = queens[j], queens[r]
                    if dn[r + queens[r]] == 0 and up[r - queens[r] + n - 1] == 0:
                        best_row = j
                        queens[r], queens[j] = queens[j], queens[r]
                        break
                    queens[r], queens[j] = queens[j], queens[r]
                queens[r], queens[best_row] = queens[best_row], queens[r]
                pairs += _place(queens, dn, up, n, r, 1)
                k += 1
            else:
                phase, k, n_attacked = 5, 0, 0
        elif phase == 5:  # a repair sweep lists the attacked queens
            if pairs == 0:
                result = steps
                break
            if k < m:
                if _attacked(queens, dn, up, n, free_rows[k]):
                    attacked[n_attacked] = free_rows[k]
                    n_attacked += 1
                k += 1
            else:
                phase, k, improved = 6, 0, False
        else:  # each of them tries random rows to swap with until a swap lowers the conflicts
            if k < n_attacked and pairs > 0:
                r = attacked[k]
                for _ in range(64):
                    if not _attacked(queens, dn, up, n, r):
                        break
                    if steps >= max_steps:
                        return -1
                    steps += 1
                    left -= 1
                    j = free_rows[np.random.randint(0, m)]
                    if j != r:
                        change = _try_swap(queens, dn, up, n, r, j)
                        if change < 0:
                            pairs += change
                            improved = True
                            break
                k += 1
            else:
                # Three sweeps in a row that lower nothing (a local minimum, common on small
                # boards) are followed by one random swap of an attacked queen, kept
                # whatever it does.
                stalled = 0 if improved else stalled + 1
                if stalled >= 3 and m > 1 and n_attacked > 0:
                    stalled = 0
                    r = attacked[np.random.randint(0, n_attacked)]
                    j = free_rows[np.random.randint(0, m)]
                    pairs += _place(queens, dn, up, n, r, -1) + _place(queens, dn, up, n, j, -1)
                    queens[r], queens[j] = queens[j], queens[r]
                    pairs += _place(queens, dn, up, n, r, 1) + _place(queens, dn, up, n, j, 1)
                phase, k, n_attacked = 5, 0, 0
        left -= 1
    cursor[_PHASE] = phase
    cursor[_K] = k
    cursor[_PAIRS] = pairs
    cursor[_STEPS] = steps
    cursor[_STALLED] = stalled
    cursor[_N_ATTACKED] = n_attacked
    cursor[_IMPROVED] = improved
    return result
