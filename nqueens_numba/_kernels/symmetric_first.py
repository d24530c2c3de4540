"""The symmetric count of a first count: the D4-symmetric search of ``symmetric.py`` on plain
queens in the kernel that compiles fastest, run while that search's own kernel is still to
compile (``CountJob.first``).
"""
import numpy as np
from numba import njit

from ._common import _STEP_ROWS, JIT, TAIL_ROWS, trailing_zeros


@njit(**JIT)
def _count_symmetric_first(n, states, depth, allows, stack, counts, work, budget, signal):
    """The symmetric search of a batch of states of plain queens in order, in the kernel
    that compiles fastest, for a first count (``benchmarks/bench_startup.py --kernels``:
    0.7 s, against 3.5-4 s for ``symmetric._count_symmetric_run``), an eighth slower.

    Requires ``n - TAIL_ROWS > depth >= 2``; ``states``: ``(k, 3 + depth)`` int64. Adds
    the results of each state (6 counts, as ``symmetric._count_symmetric_run``'s) to its
    row of ``counts``, ``(k, 6)`` int64, zero on entry. Each state is searched whole: the
    call returns between two states, once about ``budget`` steps are taken in all or another
    thread sets ``signal`` as in the count's (``count._count_batch_for``), so the states
    must be small (boards of n = 16 at most). Returns the number of states done.
    ``allows[b]`` holds the squares each row allows below a first-row queen in column ``b``
    (``symmetric._row_allow``), ``((n + 1) // 2, n)`` int64; ``stack``: ``(n + 1, 4)``
    int64, and ``work``: ``(3, n)`` int64, work space.

    The search of ``symmetric._symmetric_search``, written plainly: rows ``depth .. n - 3``
    on the explicit stack, the last two in nested loops, the queens of the rows kept as bits
    (``placed``), and the searches' one-line helpers (``_lowest``, ``_down``, ``_push``,
    ``_pop``) written out (inlined, they made a first count's compile 0.1 s longer). A
    leaf's tied edges below the top are its side queens in rows ``b`` and ``n - 1 - b`` and
    its last queen in column ``n - 1 - b``; a leaf fixed by rot180 ends there too, and is
    classified on the spot by the three images it has besides itself (the other four of
    ``symmetric._orbit_size_if_representative``'s seven repeat them: a call of that
    function, compiled on its own, made a first count 0.13 s longer).
    """
    k = states.shape[0]
    m = n - 1
    side = np.int64(1) | (np.int64(1) << np.int64(m))
    queens = work[0]
    inverse = work[1]
    placed = work[2]
    top = m - depth - 2  # a child of level ``top`` is in row ``m - 1``
    shallow = n - TAIL_ROWS - depth - 1 - _STEP_ROWS  # a return above it is a step (as there)
    used = np.int64(0)
    for i in range(k):
        state = states[i]
        b = state[3]
        b2 = m - b
        allow = allows[b]
        ends = np.int64(1) << np.int64(b2)
        tie_high = side if b2 == m - 1 else np.int64(0)  # side squares that tie in row m - 1
        for r in range(depth):
            placed[r] = np.int64(1) << state[3 + r]
        n_leaves = n_one = n_two = n_three = np.int64(0)  # by ties below the top edge
        cols = state[0]
        diag = state[1]
        anti = state[2]
        free = ~(cols | diag | anti) & allow[depth]
        sp = 0
        while True:
            if free != 0:
                bit = free & -free
                free ^= bit
                next_cols = cols | bit
                next_diag = (diag | bit) << 1
                next_anti = (anti | bit) >> 1
                next_free = ~(next_cols | next_diag | next_anti) & allow[depth + sp + 1]
                if sp != top:
                    if next_free != 0:
                        placed[depth + sp] = bit
                        stack[sp, 0] = free
                        stack[sp, 1] = cols
                        stack[sp, 2] = diag
                        stack[sp, 3] = anti
                        sp += 1
                        free, cols, diag, anti = next_free, next_cols, next_diag, next_anti
                    continue
                if next_free == 0:
                    continue
                placed[m - 2] = bit
                ties = np.int64(placed[b] & side != 0)  # (integers: NumPy's booleans add
                if b2 != b and b2 < m - 1 and placed[b2] & side != 0:  # as "or", in Python)
                    ties += 1
                while next_free != 0:  # the queen of row ``m - 1``, then the last one
                    high = next_free & -next_free
                    next_free ^= high
                    last = ~((next_cols | high) | ((next_diag | high) << 1)
                             | ((next_anti | high) >> 1)) & allow[m]
                    if last == ends:  # a leaf fixed by rot180 ends there
                        placed[m - 1] = high
                        fixed = True
                        for r in range(1, n // 2):
                            if trailing_zeros(placed[r]) + trailing_zeros(placed[m - r]) != m:
                                fixed = False
                                break
                        if fixed:
                            for r in range(m):
                                queens[r] = trailing_zeros(placed[r])
                            queens[m] = b2
                            for r in range(n):
                                inverse[queens[r]] = r
                            # Its images are those by rot90, flip_h and transpose (and the
                            # same by rot180): it counts its orbit if none that starts with
                            # column b is smaller; of 2 if rot90 keeps it, else of 4.
                            size = 4
                            for g in range(3):
                                order = 0
                                for j in range(n):
                                    v = queens[j] if g == 1 else inverse[j]
                                    v = v if g == 2 else m - v
                                    if v != queens[j]:
                                        order = -1 if v < queens[j] and j > 0 else 1
                                        break
                                if order < 0:
                                    size = 0
                                    break
                                if order == 0:
                                    size = 2
                            counts[i, 4] += size == 4
                            counts[i, 5] += size == 2
                            continue
                    leaf = last != 0
                    tied = ties + (high & tie_high != 0) + (last == ends)
                    n_leaves += leaf
                    n_one += leaf & (tied >= 1)
                    n_two += leaf & (tied >= 2)
                    n_three += leaf & (tied >= 3)
            elif sp == 0:
                break
            else:
                sp -= 1
                free = stack[sp, 0]
                cols = stack[sp, 1]
                diag = stack[sp, 2]
                anti = stack[sp, 3]
                used += sp < shallow
        counts[i, 0] += n_leaves - n_one
        counts[i, 1] += n_one - n_two
        counts[i, 2] += n_two - n_three
        counts[i, 3] += n_three
        used += 1
        if (used >= budget or (signal[0] != 0 and used >= signal[0])) and i + 1 < k:
            return i + 1
    return k
