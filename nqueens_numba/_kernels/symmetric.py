"""Kernels of the D4-symmetric count: one image per orbit searched, leaves counted by tied
edges. The same search counts superqueens (``variant`` ``KNIGHT``: their attacks are D4-
invariant too, and their solutions are queen solutions).
"""
import numpy as np
from numba import njit

from .enumerate import _prefixes_of
from ._common import (_SIGNAL_STEPS, _STEP_ROWS, JIT, KNIGHT, TAIL_ROWS, _count_allowed_tail,
                      _down, _full_mask, _knight, _lowest, _pop, _prefix_knight, _push,
                      _registers, _save_cursor, _save_stack, njit_for, trailing_zeros)

# The symmetric search visits the placements of a set ``X`` that meets every D4 orbit of
# solutions. The distance of an edge queen from the nearest corner along its edge is
# ``min(p, n - 1 - p)`` for its position ``p`` on that edge; the four distances of a placement
# (top row, bottom row, left and right columns) are the same multiset for every image in its
# orbit, and their maximum ``b`` is at least 1 (two corner queens always attack each other).
# ``X`` holds the images whose first-row queen is in column ``b`` (``2 * b <= n - 1``: the
# left half or the middle column of the first row). So below a first row at column ``b``:
#
# * the side columns 0 and n - 1 stay empty in rows ``b + 1 .. n - 2 - b`` (a side queen
#   there would be farther than ``b`` from a corner) and the last row's queen keeps within
#   ``b`` of a corner: plain per-row masks that cut most other images early, in the middle
#   rows where the search tree is widest;
# * a first-row queen in the middle column (odd ``n``) has its own mirror image in the same
#   subtree: the second-row queen stays left of the middle (each image of the pair has the
#   other's second-row queen mirrored, and the middle column is the first row's).
#
# An orbit meets ``X`` in ``e`` images divided by the order of its stabilizer, where ``e``
# is its number of *tied edges*: edges whose queen is ``b`` from a corner, the top edge
# included. (For each tied edge exactly one element of D4 brings it to the top row with the
# image in ``X``: queen in column ``b`` and, for a middle column, the second-row queen left
# of it.) No solution of ``n >= 2`` is fixed by a reflection (two of its queens would share a
# row, a column or a diagonal), so a nontrivial stabilizer holds ``rot180``. A leaf not fixed
# by ``rot180`` therefore stands for ``1 / e`` of an orbit of 8, and the search counts those
# leaves by ``e``; a tie is a side queen in row ``b`` or ``n - 1 - b`` or the last queen in
# column ``n - 1 - b``. A leaf fixed by ``rot180`` has its last queen in column
# ``n - 1 - b`` and its row ``n - 1 - TAIL_ROWS`` mirroring row ``TAIL_ROWS``, which is
# checked only for a tail with such a last queen; these rare leaves are compared with their
# images one by one, and the smallest image counts its orbit of 4 or 2.
#
# No first-row queen lies in a corner (``b == 0`` is impossible), and the subtrees of large
# ``b``, where most solutions are, lose few nodes to the masks, but those of small ``b`` are
# cut to a few per cent of the mirror-halved search (benchmarks/bench_symmetry.py).
#
# Symmetric states are prefix states (see above) with ``depth >= 2``.

# Images of q under the seven non-identity elements of D4, as (use inverse, reverse index,
# complement values), in the order rot90, rot180, rot270, flip_h, flip_v, transpose,
# anti_transpose: p[i] = (m - v if complement else v), v = (inv if use inverse else q)[m - i
# if reverse else i], with m = n - 1.
_IMAGE_INVERSE = np.array([1, 0, 1, 0, 0, 1, 1], dtype=np.int64)
_IMAGE_REVERSE = np.array([0, 1, 1, 0, 1, 0, 1], dtype=np.int64)
_IMAGE_COMPLEMENT = np.array([1, 1, 0, 1, 0, 0, 1], dtype=np.int64)


@njit(**JIT)
def _row_allow(n, row, b):
    """Columns the symmetric search allows in ``row`` below a first-row queen in column ``b``.

    Requires ``1 <= row <= n - 1`` and ``1 <= 2 * b <= n - 1``.
    """
    full = _full_mask(n)
    m = n - 1
    side = np.int64(1) | (np.int64(1) << np.int64(m))
    if row == m:  # the last queen within ``b`` of a corner
        near = (np.int64(1) << np.int64(b + 1)) - 1
        return near | (near << np.int64(m - b))
    if row == 1 and 2 * b == m:  # middle first-row queen: the smaller of the mirror pair
        return (np.int64(1) << np.int64(b)) - 1
    if b < row < m - b:
        return full & ~side
    return full


@njit(**JIT)
def _symmetric_allow(n, b):
    """Per-row allowed squares of the symmetric search below a first-row queen in column ``b``.

    Returns ``(n + 1,)`` int64: ``allow[0]`` holds column ``b`` alone, ``allow[r]`` is
    ``_row_allow(n, r, b)`` and the spare last entry is empty. With ``_enumerate_prefixes``
    (``first_limit = n``) it gives the symmetric search's prefixes of that column.
    """
    allow = np.zeros(n + 1, dtype=np.int64)
    allow[0] = np.int64(1) << np.int64(b)
    for r in range(1, n):
        allow[r] = _row_allow(n, r, b)
    return allow


@njit(**JIT)
def _orbit_size_if_representative(n, queens, inverse):
    """Orbit size of a placement if it is the representative of its orbit, else 0.

    ``queens`` and its ``inverse`` permutation are ``int64`` arrays of length ``n``, and no
    image starts with a column farther from the corners than ``queens[0]`` (the search masks
    ensure it). Images that start with a column nearer a corner are not candidates; the
    others are compared with ``queens`` lexicographically, stopping at the first difference.
    """
    m = n - 1
    stabilizer = 1
    for g in range(7):
        use_inverse = _IMAGE_INVERSE[g]
        reverse = _IMAGE_REVERSE[g]
        complement = _IMAGE_COMPLEMENT[g]
        order = 0
        for i in range(n):
            j = m - i if reverse else i
            v = inverse[j] if use_inverse else queens[j]
            if complement:
                v = m - v
            if v != queens[i]:
                # a smaller first column is nearer a corner: that image is no candidate
                order = -1 if (v < queens[i] and i > 0) else 1
                break
        if order < 0:
            return 0
        if order == 0:
            stabilizer += 1
    return 8 // stabilizer


@njit(**JIT)
def _symmetric_search(n, depth, state, allow, params, stack, level, budget, tie_lo, tie_hi,
                      e_prefix, acc, work, masked, variant, signal, before):
    """Add the leaves below one symmetric state to ``acc`` from its cursor
    ``stack``/``level`` (set up by the kernel of ``_symmetric_run_for``), for about ``budget``
    steps; returns the steps taken.

    Requires ``n - TAIL_ROWS > depth >= 2``. ``allow`` holds the squares each row allows,
    ``params`` the tail's (see ``_symmetric_run_for``), ``tie_lo`` and ``tie_hi`` the
    levels whose column masks tell a side queen in row ``b`` or ``n - 1 - b`` (a tie) above
    the tail, read when a tail has leaves, and ``e_prefix`` the ties of the prefix and the
    top edge. The children of level ``n - TAIL_ROWS - depth - 1`` start the last
    ``TAIL_ROWS`` rows, searched by ``_count_allowed_tail``. ``work`` is ``(2, n)`` int64
    scratch for the leaves fixed by rot180. A step is one return to a row more than
    ``_STEP_ROWS`` rows above the tail; ``signal`` and ``before`` end the call early as in
    ``_count_cursor``.

    ``masked`` is ``False`` for states whose rows below the prefix are all unmasked and
    whose tail has no tie row (``allow`` and the tail masks are then full): a flag, not a
    literal, so that one version compiles (two took a third longer to compile, and were not
    faster: bench_compare.py, n = 16 and 17, 0.95 and 0.94 of their time with one).
    ``variant`` is a literal (0, or ``KNIGHT``).
    """
    full = _full_mask(n)
    m = n - 1
    tail_level = n - TAIL_ROWS - depth - 1
    ends = params[8]
    allow0 = params[0]
    allow1 = params[1]
    allow2 = params[2]
    allow3 = params[3]
    tie0 = params[4]
    tie1 = params[5]
    tie2 = params[6]
    sp = level[0]
    saved = stack  # searched on a local copy, as in ``_count_cursor``
    stack = np.empty((n + 1, 4), dtype=np.int64)
    _save_stack(stack, saved, sp)
    _, first_above = _prefix_knight(variant, state, depth)  # the queen above level 0
    free, cols, diag, anti, above = _registers(variant, stack, sp, first_above)
    allow_next = allow[depth + sp + 1]  # squares of the row below the current level
    left = np.int64(budget)
    check = max(left - _SIGNAL_STEPS, 0)  # the next read of ``signal``
    shallow = tail_level - _STEP_ROWS  # a return to a level above it is a step
    while True:
        if free != 0:
            bit, free = _lowest(free)
            next_cols, next_diag, next_anti = _down(variant, n, cols, diag, anti, bit)
            near = _knight(variant, bit, above)
            if sp != tail_level:
                next_free = ~(next_cols | next_diag | next_anti | near) & (
                    allow_next if masked else full)
                if next_free != 0:
                    sp = _push(stack, sp, free, cols, diag, anti)
                    allow_next = allow[depth + sp + 1]
                    free, cols, diag, anti, above = next_free, next_cols, next_diag, next_anti, bit
            else:
                if masked:
                    n_leaves, n_one, n_two = _count_allowed_tail(
                        next_cols, next_diag, next_anti, allow0, allow1, allow2, allow3,
                        tie0, tie1, tie2, ends, variant, n, near, bit)
                else:
                    n_leaves, n_one, n_two = _count_allowed_tail(
                        next_cols, next_diag, next_anti, full, full, full, full, 0, 0, 0,
                        ends, variant, n, near, bit)
                if n_leaves != 0:
                    stack[sp, 1] = cols
                    stack[sp + 1, 1] = next_cols
                    placed = stack[tie_hi, 1] ^ stack[tie_lo, 1]
                    # unsigned: no check for negative indices
                    e = np.uint64(e_prefix + (placed & 1) + ((placed >> m) & 1))
                    acc[e] += n_leaves - n_one
                    acc[e + np.uint64(1)] += n_one - n_two
                    acc[e + np.uint64(2)] += n_two
                    # A leaf fixed by rot180 has its last queen on ``ends`` and the queen
                    # of row ``tail_row - 1`` (``bit``) mirrors that of row ``TAIL_ROWS``.
                    # (n >= 2 * TAIL_ROWS + 1 puts row TAIL_ROWS above the tail).
                    fixed = n_one != 0
                    if fixed and n > 2 * TAIL_ROWS:
                        if depth > TAIL_ROWS:
                            mirrored = state[3 + TAIL_ROWS]
                        else:
                            mirrored = trailing_zeros(stack[TAIL_ROWS - depth + 1, 1]
                                                      ^ stack[TAIL_ROWS - depth, 1])
                        fixed = bit == np.int64(1) << (m - mirrored)
                    if fixed:
                        _classify_fixed_leaves(n, depth, state, stack, sp, bit, next_cols,
                                               next_diag, next_anti, params, acc, work,
                                               variant, near)
        elif sp == 0:
            sp = -1
            break
        else:
            sp, free, cols, diag, anti, above = _pop(variant, stack, sp, first_above)
            allow_next = allow[depth + sp + 1]
            if sp < shallow:
                left -= 1
                if left <= check:  # ``stack[sp]`` holds the registers: resume there
                    if left == 0 or (signal[0] != 0 and before + budget - left >= signal[0]):
                        break
                    check = max(left - _SIGNAL_STEPS, 0)
    _save_cursor(saved, stack, sp, level)
    return budget - left



@njit(**JIT)
def _classify_fixed_leaves(n, depth, state, stack, sp, bit_above, cols, diag, anti, params,
                           acc, work, variant, near):
    """Search a tail again for its leaves fixed by rot180 and move them in ``acc``.

    Such a leaf leaves ``acc[e]`` (its tied edges) and, if it is the lexicographically
    smallest of its images that start with the same column, adds one to ``acc[8]`` (orbit of
    4) or ``acc[9]`` (orbit of 2). The placement is read back from the prefix (``state``),
    the column masks on the stack (levels ``0 .. sp + 1``), ``bit_above`` (row
    ``n - TAIL_ROWS - 1``) and the tail's own queens; ``work`` is ``(2, n)`` scratch. On a
    ``variant`` board, ``near``: the squares of the first tail row its knights attack.
    """
    m = n - 1
    b = state[3]
    tail_row = n - TAIL_ROWS
    ends = params[8]
    queens = work[0]
    inverse = work[1]
    for r in range(depth):
        queens[r] = state[3 + r]
    for j in range(sp):
        queens[depth + j] = trailing_zeros(stack[j + 1, 1] ^ stack[j, 1])
    queens[tail_row - 1] = trailing_zeros(bit_above)
    f0 = ~(cols | diag | anti | near) & params[0]
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0, d0, a0 = _down(variant, n, cols, diag, anti, b0)
        f1 = ~(c0 | d0 | a0 | _knight(variant, b0, bit_above)) & params[1]
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1, d1, a1 = _down(variant, n, c0, d0, a0, b1)
            f2 = ~(c1 | d1 | a1 | _knight(variant, b1, b0)) & params[2]
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                c2, d2, a2 = _down(variant, n, c1, d1, a1, b2)
                last = ~(c2 | d2 | a2 | _knight(variant, b2, b1)) & ends
                if last == 0:
                    continue
                queens[tail_row] = trailing_zeros(b0)
                queens[tail_row + 1] = trailing_zeros(b1)
                queens[tail_row + 2] = trailing_zeros(b2)
                queens[m] = trailing_zeros(last)
                fixed = True
                for r in range(n // 2):
                    if queens[r] + queens[m - r] != m:
                        fixed = False
                        break
                if not fixed:
                    continue
                for r in range(n):
                    inverse[queens[r]] = r
                e = 2  # the top and bottom edges; the side queens are a mirror pair
                if inverse[0] == b or inverse[0] == m - b:
                    e = 4
                acc[e] -= 1
                size = _orbit_size_if_representative(n, queens, inverse)
                if size == 4:
                    acc[8] += 1
                elif size == 2:
                    acc[9] += 1


def _symmetric_run_for(variant):
    """The kernel of the symmetric count of a batch of states on the board of ``variant``
    (0, or ``KNIGHT``), a constant of the kernel: each board's kernel compiles alone.

    (A wrapper that passed ``variant`` as a literal would be one more level of calls, and
    numba compiles the machine code of a kernel's callees again into each caller: with it and
    with the state's set-up in a function of its own, the kernel took about 8.6 s to compile,
    against 5.4 s: ``benchmarks/bench_startup.py --kernels``.)
    """

    @njit_for(variant)
    def run(n, states, depth, stack, level, partial, work, budget, signal):
        """The symmetric search of a batch of states in order, for about ``budget`` steps in
        all.

        Requires ``n - TAIL_ROWS > depth >= 2``; ``states``: ``(k, 3 + depth)`` int64.
        Each state's results are 6 counts (see ``_split.SYMMETRIC_RESULTS``). If
        ``level[0] >= 0`` on entry, ``states[0]`` is in progress: its cursor is
        ``stack``/``level`` and its results so far ``partial``, ``(6,)`` int64. Returns
        ``(counts, n_done)``: ``counts``, shape ``(k, 6)``, int64, holds the results of the
        first ``n_done`` states, which are finished. If ``n_done < k`` and
        ``level[0] >= 0``, ``states[n_done]`` is in progress, its cursor in
        ``stack``/``level`` and its results so far in ``partial``; with ``level[0] == -1``
        it is not started. ``work``: ``(2, n)`` int64 scratch for the leaves fixed by
        rot180. ``signal`` ends the call early as in the count's (``_count_batch_for``).

        ``stack``, shape ``(n + 1, 4)``, ``int64``, and ``level``, shape ``(1,)``, are the
        resumable cursor, as in the plain search (``_count_cursor``): ``level[0] == -1``
        starts a state. Level ``sp`` of the search places the queen of row ``depth + sp``
        on the squares its row allows (``_row_allow``). The leaves are added up in ``acc``:
        ``acc[e]`` gets those with trivial stabilizer and ``e`` tied edges, ``acc[8]`` and
        ``acc[9]`` the representatives of orbits of 4 and 2 (``_symmetric_search``).
        """
        k = states.shape[0]
        m = n - 1
        full = _full_mask(n)
        side = np.int64(1) | (np.int64(1) << np.int64(m))
        tail_row = n - TAIL_ROWS
        # (np.empty and loops: np.zeros compiles code of its own for each shape)
        counts = np.empty((k, 6), dtype=np.int64)
        for i in range(k):
            for j in range(6):
                counts[i, j] = 0
        acc = np.empty(10, dtype=np.int64)
        allow = np.empty(n + 1, dtype=np.int64)  # by row; one spare entry past the last row
        allow[0] = 0
        allow[n] = 0
        # Per-state constants of the tail: 0-3 allowed squares of the tail rows (3: the last
        # row), 4-6 tie squares of the tail rows above the last, 8 the last row's tie square.
        params = np.empty(16, dtype=np.int64)
        used = np.int64(0)
        for i in range(k):
            state = states[i]
            for e in range(10):  # (loops: a slice assignment compiles numba's error strings)
                acc[e] = 0
            if level[0] >= 0:  # resume: acc from the results so far
                for e in range(1, 5):
                    acc[e] = partial[e - 1]
                acc[8] = partial[4]
                acc[9] = partial[5]
            b = state[3]
            b2 = m - b
            for r in range(1, n):
                allow[r] = _row_allow(n, r, b)
            for t in range(16):
                params[t] = 0
            for t in range(TAIL_ROWS):
                params[t] = allow[tail_row + t]
                if t < TAIL_ROWS - 1 and (tail_row + t == b or tail_row + t == b2):
                    params[4 + t] = side
            params[8] = np.int64(1) << np.int64(b2)  # column b holds the first-row queen
            # Column masks on the stack around the rows b .. b2 below the prefix and above
            # the tail: the rows between keep the side columns empty, so a side queen placed
            # in that range is in row b or b2, a tie.
            tie_lo = max(b - depth, 0)
            tie_hi = min(b2, tail_row - 1) - depth + 1
            if b >= tail_row or b2 < depth:
                tie_hi = tie_lo
            e_prefix = 1  # the top edge, and the side ties of the prefix
            if b < depth and (state[3 + b] == 0 or state[3 + b] == m):
                e_prefix += 1
            if b2 != b and b2 < depth and (state[3 + b2] == 0 or state[3 + b2] == m):
                e_prefix += 1
            # The most central first-row column (b = (n - 1) // 2) masks no row below the
            # prefix and has no tie row in the tail: the search skips the masks there.
            masked = (params[4] | params[5] | params[6]) != 0
            for r in range(depth, n):
                if allow[r] != full:
                    masked = True
            if level[0] < 0:
                cols = state[0]
                diag = state[1]
                anti = state[2]
                near, _ = _prefix_knight(variant, state, depth)
                stack[0, 0] = ~(cols | diag | anti | near) & allow[depth]
                stack[0, 1] = cols
                stack[0, 2] = diag
                stack[0, 3] = anti
                level[0] = 0
            used += _symmetric_search(n, depth, state, allow, params, stack, level,
                                      max(budget - used, 1), tie_lo, tie_hi, e_prefix, acc,
                                      work, masked, variant, signal, used) + 1
            for e in range(1, 5):
                partial[e - 1] = acc[e]
            partial[4] = acc[8]
            partial[5] = acc[9]
            if level[0] >= 0:
                return counts, i
            for j in range(6):
                counts[i, j] = partial[j]
                partial[j] = 0
            if (used >= budget or (signal[0] != 0 and used >= signal[0])) and i + 1 < k:
                return counts, i + 1
        return counts, k

    return run


_count_symmetric_run = _symmetric_run_for(0)
_count_symmetric_knight_run = _symmetric_run_for(KNIGHT)


@njit(**JIT)
def _symmetric_knight_prefixes(n, low, high, target, max_states):
    """``_symmetric_prefixes_of`` of superqueens (``KNIGHT``); those of the plain board
    are listed in NumPy (``prefixes._list_symmetric_prefixes``, the same arrays)."""
    return _symmetric_prefixes_of(n, low, high, target, max_states, KNIGHT)


@njit(**JIT)
def _symmetric_prefixes_of(n, low, high, target, max_states, variant):
    """The prefix states of the symmetric search, in one call: those of ``low`` rows, and of
    one row more at a time while they are fewer than ``target`` and the depth below
    ``high`` (``low == high``: that depth alone).

    The prefixes of each first-row column ``b`` (``1 .. (n - 1) // 2``: never a corner) are
    those of the plain search with the rows limited as the symmetric search limits them
    below ``b`` (``_symmetric_allow``), in order of ``b`` (on the board of ``variant``, a
    literal). A depth with more than ``max_states`` states is not taken.

    Returns ``(states, depth, n_found)``: ``states``, ``(n_states, 3 + depth)`` int64; when
    even ``low`` rows give more than ``max_states``, ``n_found > max_states`` and
    ``states`` is empty.
    """
    states, found = _symmetric_depth(n, low, max_states, variant)
    depth = low
    if found > max_states:
        return states, depth, found
    while states.shape[0] < target and depth < high:
        deeper, more = _symmetric_depth(n, depth + 1, max_states, variant)
        if more > max_states:
            break
        states = deeper
        found = more
        depth += 1
    return states, depth, found


@njit(**JIT)
def _symmetric_depth(n, depth, max_states, variant):
    """The symmetric prefixes of ``depth`` rows (see ``_symmetric_prefixes_of``):
    ``(states, n_found)``, empty with ``n_found > max_states`` when too many."""
    total = 0
    for b in range(1, (n - 1) // 2 + 1):
        part, found = _prefixes_of(n, depth, n, _symmetric_allow(n, b), max_states - total,
                                   variant)
        total += found
        if total > max_states:
            return np.empty((0, 3 + depth), dtype=np.int64), total
    out = np.empty((total, 3 + depth), dtype=np.int64)
    row = 0
    for b in range(1, (n - 1) // 2 + 1):
        part, found = _prefixes_of(n, depth, n, _symmetric_allow(n, b), max_states, variant)
        for i in range(found):  # (loops: a slice assignment compiles numba's error strings)
            for j in range(3 + depth):
                out[row + i, j] = part[i, j]
        row += found
    return out, total
