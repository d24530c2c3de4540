"""Compiled kernels of the bitboard search.

Every ``@njit`` function of the package lives here and nothing else does. Kernels assume valid
input (the API layer validates) and take only scalars and fixed-dtype arrays.

Bitboards are ``int64``: bit ``c`` stands for column ``c``. A search state after the queens of
rows ``0 .. row - 1`` are placed is three masks, each already shifted for ``row``:

* ``cols``: attacked columns;
* ``diag``: attacked diagonals (shifted left by one per row);
* ``anti``: attacked anti-diagonals (shifted right by one per row).

The free squares of ``row`` are ``~(cols | diag | anti) & full_mask`` and the lowest free square
is ``free & -free``. Placing the lowest square first makes every search below visit solutions in
lexicographic order of ``queens``.

A *states* array holds one subproblem per row: ``states[i] = (cols, diag, anti, q_0, ...,
q_{depth-1})``, ``int64``, where ``q_r`` is the column of the queen pre-placed in row ``r``.
"""
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

# JIT options in one place: compile once per machine, release the GIL while searching (the
# API runs kernels on a pool of Python threads, one batch of subproblems per call).
_JIT = dict(cache=True, nogil=True)


@njit(**_JIT)
def _full_mask(n):
    """Bitboard with the ``n`` board columns set."""
    return (np.int64(1) << np.int64(n)) - np.int64(1)


#: Rows at the bottom of the board searched by unrolled nested loops (``_count_tail``): each
#: level gets its own branches, which the processor predicts better than one shared loop.
TAIL_ROWS = 4


@njit(cache=True, nogil=True, inline="always")
def _count_tail(full, cols, diag, anti):
    """Number of ways to complete the last ``TAIL_ROWS`` (4) rows from the given masks."""
    count = np.int64(0)
    f0 = ~(cols | diag | anti) & full
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0 = cols | b0
        d0 = (diag | b0) << 1
        a0 = (anti | b0) >> 1
        f1 = ~(c0 | d0 | a0) & full
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1 = c0 | b1
            d1 = (d0 | b1) << 1
            a1 = (a0 | b1) >> 1
            f2 = ~(c1 | d1 | a1) & full
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                c2 = c1 | b2
                d2 = (d1 | b2) << 1
                a2 = (a1 | b2) >> 1
                if (~(c2 | d2 | a2) & full) != 0:
                    count += 1
    return count


@njit(**_JIT)
def _count_state(n, row, cols, diag, anti):
    """Count the completions of one subproblem by explicit-stack depth-first search.

    ``row`` queens are placed; ``cols``, ``diag`` and ``anti`` are the masks for ``row``.
    Returns the number of solutions below this state (``int64``).
    """
    full = _full_mask(n)
    if row >= n:
        return np.int64(1)
    if n - row <= TAIL_ROWS:
        return _count_rows(n, row, cols, diag, anti, np.full(n, full, dtype=np.int64))
    free = ~(cols | diag | anti) & full
    # ``sp`` is the stack depth: the queen being tried sits in row ``row + sp``. The children
    # of level ``top`` start the tail, which nested loops finish.
    top = n - TAIL_ROWS - 1 - row
    stack = np.empty((n, 4), dtype=np.int64)
    sp = 0
    count = np.int64(0)
    while True:
        if free != 0:
            bit = free & -free
            free ^= bit
            next_cols = cols | bit
            next_diag = (diag | bit) << 1
            next_anti = (anti | bit) >> 1
            if sp == top:
                count += _count_tail(full, next_cols, next_diag, next_anti)
            else:
                next_free = ~(next_cols | next_diag | next_anti) & full
                if next_free != 0:
                    stack[sp, 0] = free
                    stack[sp, 1] = cols
                    stack[sp, 2] = diag
                    stack[sp, 3] = anti
                    sp += 1
                    cols = next_cols
                    diag = next_diag
                    anti = next_anti
                    free = next_free
        elif sp == 0:
            break
        else:
            sp -= 1
            free = stack[sp, 0]
            cols = stack[sp, 1]
            diag = stack[sp, 2]
            anti = stack[sp, 3]
    return count


@njit(**_JIT)
def _count_rows(n, row, cols, diag, anti, allow):
    """``_count_state`` without the unrolled tail, for the last few rows of small boards.

    The queen of row ``r`` may stand only on the squares of ``allow[r]``.
    """
    full = _full_mask(n)
    free = ~(cols | diag | anti) & full & allow[min(row, n - 1)]
    if row >= n - 1:
        if row >= n:
            return np.int64(1)
        return np.int64(1) if free != 0 else np.int64(0)
    top = n - 2 - row  # a child of level ``top`` is in the last row: counted, not pushed
    stack = np.empty((n, 4), dtype=np.int64)
    sp = 0
    count = np.int64(0)
    while True:
        if free != 0:
            bit = free & -free
            free ^= bit
            next_cols = cols | bit
            next_diag = (diag | bit) << 1
            next_anti = (anti | bit) >> 1
            next_free = ~(next_cols | next_diag | next_anti) & allow[row + sp + 1]
            if next_free != 0:
                if sp == top:
                    count += 1
                else:
                    stack[sp, 0] = free
                    stack[sp, 1] = cols
                    stack[sp, 2] = diag
                    stack[sp, 3] = anti
                    sp += 1
                    cols = next_cols
                    diag = next_diag
                    anti = next_anti
                    free = next_free
        elif sp == 0:
            break
        else:
            sp -= 1
            free = stack[sp, 0]
            cols = stack[sp, 1]
            diag = stack[sp, 2]
            anti = stack[sp, 3]
    return count


@njit(**_JIT)
def _count_states(n, states, depth):
    """Count the completions of a batch of subproblems, one result slot each.

    Returns ``counts``, shape ``(n_states,)``, dtype ``int64``.
    """
    n_states = states.shape[0]
    counts = np.zeros(n_states, dtype=np.int64)
    for i in range(n_states):
        counts[i] = _count_state(n, depth, states[i, 0], states[i, 1], states[i, 2])
    return counts


@njit(**_JIT)
def _count_masked_state(n, row, cols, diag, anti, allow):
    """``_count_state`` on a constrained board: row ``r`` may use only ``allow[r]``.

    ``allow`` (``(n,)`` int64 bitboards) encodes blocked squares, pre-placed queens (their row
    allows only their square) and the squares those attack.
    """
    if row >= n:
        return np.int64(1)
    if n - row <= TAIL_ROWS:
        return _count_rows(n, row, cols, diag, anti, allow)
    free = ~(cols | diag | anti) & allow[row]
    top = n - TAIL_ROWS - 1 - row
    tail = n - TAIL_ROWS
    stack = np.empty((n, 4), dtype=np.int64)
    sp = 0
    count = np.int64(0)
    while True:
        if free != 0:
            bit = free & -free
            free ^= bit
            next_cols = cols | bit
            next_diag = (diag | bit) << 1
            next_anti = (anti | bit) >> 1
            if sp == top:
                leaves, _, _ = _masked_tail(next_cols, next_diag, next_anti, allow[tail],
                                            allow[tail + 1], allow[tail + 2], allow[tail + 3],
                                            0, 0, 0, 0)
                count += leaves
            else:
                next_free = ~(next_cols | next_diag | next_anti) & allow[row + sp + 1]
                if next_free != 0:
                    stack[sp, 0] = free
                    stack[sp, 1] = cols
                    stack[sp, 2] = diag
                    stack[sp, 3] = anti
                    sp += 1
                    cols = next_cols
                    diag = next_diag
                    anti = next_anti
                    free = next_free
        elif sp == 0:
            break
        else:
            sp -= 1
            free = stack[sp, 0]
            cols = stack[sp, 1]
            diag = stack[sp, 2]
            anti = stack[sp, 3]
    return count


@njit(**_JIT)
def _count_masked_states(n, states, depth, allow):
    """``_count_states`` on a constrained board (see ``_count_masked_state``)."""
    n_states = states.shape[0]
    counts = np.zeros(n_states, dtype=np.int64)
    for i in range(n_states):
        counts[i] = _count_masked_state(n, depth, states[i, 0], states[i, 1], states[i, 2],
                                        allow)
    return counts


@njit(**_JIT)
def _enumerate_prefixes(n, depth, first_limit, allow, max_states):
    """All partial placements of the first ``depth`` rows, in lexicographic order.

    The queen of row ``r`` may stand only on the squares of ``allow[r]`` (``(n,)`` int64
    bitboards; all ones without constraints), and the queen of row 0 only in columns
    ``0 .. first_limit - 1`` (mirror-symmetry halving passes ``(n + 1) // 2``). Prefixes whose
    next row has no free square are dropped, except when ``depth == n`` (the prefix is then a
    solution). Requires ``1 <= depth <= n``.

    Returns ``(states, n_states)``: ``states`` of shape ``(n_states, 3 + depth)``, ``int64``;
    when there are more than ``max_states``, empty, with the count where it stopped.
    """
    full = _full_mask(n)
    stack = np.empty((depth + 1, 4), dtype=np.int64)  # free, cols, diag, anti per row
    queens = np.empty(depth, dtype=np.int64)
    out = np.empty((0, 3 + depth), dtype=np.int64)
    # Pass 0 counts the prefixes, pass 1 writes them.
    for write in range(2):
        n_found = 0
        stack[0, 0] = full & allow[0] & ((np.int64(1) << np.int64(first_limit)) - 1)
        stack[0, 1] = 0
        stack[0, 2] = 0
        stack[0, 3] = 0
        d = 0
        while d >= 0:
            free = stack[d, 0]
            if free == 0:
                d -= 1
                continue
            bit = free & -free
            stack[d, 0] = free ^ bit
            queens[d] = trailing_zeros(bit)
            cols = stack[d, 1] | bit
            diag = (stack[d, 2] | bit) << 1
            anti = (stack[d, 3] | bit) >> 1
            next_free = ~(cols | diag | anti) & full
            if d + 1 < n:
                next_free &= allow[d + 1]
            if d + 1 == depth:
                if next_free != 0 or depth == n:
                    if write:
                        out[n_found, 0] = cols
                        out[n_found, 1] = diag
                        out[n_found, 2] = anti
                        out[n_found, 3:] = queens
                    n_found += 1
                    if n_found > max_states:
                        return out, n_found  # too many: empty (see the docstring)
            else:
                d += 1
                stack[d, 0] = next_free
                stack[d, 1] = cols
                stack[d, 2] = diag
                stack[d, 3] = anti
        if not write:
            out = np.empty((n_found, 3 + depth), dtype=np.int64)
    return out, n_found


@njit(**_JIT)
def _start_cursor(n, state, depth, stack, queens, level):
    """Set a resumable search cursor to the root of the subproblem ``state``.

    ``stack``, shape ``(n, 4)``, ``int64``, holds ``(free, cols, diag, anti)`` per row;
    ``queens``, shape ``(n,)``, ``int8``, the current placement; ``level``, shape ``(1,)``,
    ``int64``, the row being searched. Requires ``depth < n``.
    """
    full = _full_mask(n)
    cols = state[0]
    diag = state[1]
    anti = state[2]
    for r in range(depth):
        queens[r] = state[3 + r]
    stack[depth, 0] = ~(cols | diag | anti) & full
    stack[depth, 1] = cols
    stack[depth, 2] = diag
    stack[depth, 3] = anti
    level[0] = depth


#: Most solutions one tail (``TAIL_ROWS`` rows) can hold: ``TAIL_ROWS!`` orders of its
#: free columns.
TAIL_SOLUTIONS = 24


@njit(cache=True, nogil=True, inline="always")
def _fill_tail(n, full, cols, diag, anti, queens, out, written):
    """Write every completion of the last ``TAIL_ROWS`` (4) rows as rows of ``out``.

    ``queens[:n - 4]`` holds the placement above the tail. Returns the new ``written``.
    """
    tail = n - TAIL_ROWS
    f0 = ~(cols | diag | anti) & full
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0 = cols | b0
        d0 = (diag | b0) << 1
        a0 = (anti | b0) >> 1
        f1 = ~(c0 | d0 | a0) & full
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1 = c0 | b1
            d1 = (d0 | b1) << 1
            a1 = (a0 | b1) >> 1
            f2 = ~(c1 | d1 | a1) & full
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                last = ~((c1 | b2) | ((d1 | b2) << 1) | ((a1 | b2) >> 1)) & full
                if last != 0:
                    for r in range(tail):
                        out[written, r] = queens[r]
                    out[written, tail] = trailing_zeros(b0)
                    out[written, tail + 1] = trailing_zeros(b1)
                    out[written, tail + 2] = trailing_zeros(b2)
                    out[written, tail + 3] = trailing_zeros(last)
                    written += 1
    return written


@njit(**_JIT)
def _fill_solutions(n, base, stack, queens, level, out, budget):
    """Continue a cursor's depth-first search, writing solutions into ``out`` in order.

    Writes at most ``out.shape[0]`` rows (``int8``, ``out[k, row] == column``) and returns how
    many it wrote. It also returns after about ``budget`` squares tried, so that callers can
    check for cancellation even where solutions are rare (counted as tails entered and
    rows backtracked). The cursor (``stack``, ``queens``,
    ``level``, see ``_start_cursor``) is updated in place so that the next call resumes where
    this one stopped; the search below row ``base`` is exhausted once ``level[0] < base``.
    The last ``TAIL_ROWS`` rows are written by ``_fill_tail`` a whole tail at a time, so a
    call may return with up to ``TAIL_SOLUTIONS - 1`` rows of ``out`` unused: give it more
    room than that (with less, it falls back to the slower ``_fill_rows``).
    """
    if n - base <= TAIL_ROWS or out.shape[0] < TAIL_SOLUTIONS:
        return _fill_rows(n, base, stack, queens, level, out, budget,
                          np.full(n, _full_mask(n), dtype=np.int64))
    full = _full_mask(n)
    cap = out.shape[0]
    written = 0
    d = level[0]
    if d < base or cap == 0:
        return 0
    free = stack[d, 0]
    cols = stack[d, 1]
    diag = stack[d, 2]
    anti = stack[d, 3]
    top = n - TAIL_ROWS - 1  # the children of row ``top`` start the tail
    steps = 0
    while True:
        if free != 0:
            if d == top:
                # Enough room for a whole tail, and budget left? (Checked here and on the
                # way back up, so that the descent pays nothing for it.)
                if cap - written < TAIL_SOLUTIONS or steps >= budget:
                    break
                steps += 1
                bit = free & -free
                free ^= bit
                queens[d] = trailing_zeros(bit)
                written = _fill_tail(n, full, cols | bit, (diag | bit) << 1, (anti | bit) >> 1,
                                     queens, out, written)
            else:
                bit = free & -free
                free ^= bit
                next_cols = cols | bit
                next_diag = (diag | bit) << 1
                next_anti = (anti | bit) >> 1
                queens[d] = trailing_zeros(bit)
                next_free = ~(next_cols | next_diag | next_anti) & full
                if next_free != 0:
                    stack[d, 0] = free
                    stack[d, 1] = cols
                    stack[d, 2] = diag
                    stack[d, 3] = anti
                    d += 1
                    cols = next_cols
                    diag = next_diag
                    anti = next_anti
                    free = next_free
        elif d == base:
            d = base - 1
            break
        else:
            if steps >= budget:
                break
            steps += 1
            d -= 1
            free = stack[d, 0]
            cols = stack[d, 1]
            diag = stack[d, 2]
            anti = stack[d, 3]
    if d >= base:
        stack[d, 0] = free
        stack[d, 1] = cols
        stack[d, 2] = diag
        stack[d, 3] = anti
    level[0] = d
    return written


@njit(**_JIT)
def _fill_rows(n, base, stack, queens, level, out, budget, allow):
    """``_fill_solutions`` without the unrolled tail, for subproblems of few rows and for
    constrained boards: the queen of row ``r`` may stand only on the squares of
    ``allow[r]`` (apply ``allow[base]`` to the cursor's first row yourself).

    Writes at most ``out.shape[0]`` rows (``int8``, ``out[k, row] == column``) and returns how
    many it wrote. It also returns after about ``budget`` squares tried, so that callers can
    check for cancellation even where solutions are rare. The cursor (``stack``, ``queens``,
    ``level``, see ``_start_cursor``) is updated in place so that the next call resumes where
    this one stopped; the search below row ``base`` is exhausted once ``level[0] < base``.
    """
    cap = out.shape[0]
    last = n - 1
    written = 0
    d = level[0]
    if d < base or cap == 0:
        return 0
    free = stack[d, 0]
    if base == last:
        # The subproblem leaves only the last row: each free square is one solution.
        while free != 0 and written < cap:
            bit = free & -free
            free ^= bit
            queens[last] = trailing_zeros(bit)
            for r in range(n):
                out[written, r] = queens[r]
            written += 1
        stack[d, 0] = free
        level[0] = d if free != 0 else base - 1
        return written
    cols = stack[d, 1]
    diag = stack[d, 2]
    anti = stack[d, 3]
    top = last - 1  # a child of row ``top`` completes a solution
    steps = 0
    while True:
        if free != 0:
            if steps >= budget:
                break
            steps += 1
            bit = free & -free
            free ^= bit
            next_cols = cols | bit
            next_diag = (diag | bit) << 1
            next_anti = (anti | bit) >> 1
            next_free = ~(next_cols | next_diag | next_anti) & allow[d + 1]
            if next_free != 0:
                queens[d] = trailing_zeros(bit)
                if d == top:
                    queens[last] = trailing_zeros(next_free)
                    out[written, :] = queens
                    written += 1
                    if written == cap:
                        break
                else:
                    stack[d, 0] = free
                    stack[d, 1] = cols
                    stack[d, 2] = diag
                    stack[d, 3] = anti
                    d += 1
                    cols = next_cols
                    diag = next_diag
                    anti = next_anti
                    free = next_free
        elif d == base:
            d = base - 1
            break
        else:
            d -= 1
            free = stack[d, 0]
            cols = stack[d, 1]
            diag = stack[d, 2]
            anti = stack[d, 3]
    if d >= base:
        stack[d, 0] = free
        stack[d, 1] = cols
        stack[d, 2] = diag
        stack[d, 3] = anti
    level[0] = d
    return written


# --------------------------------------------------------------------------- D4 symmetry
#
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


@njit(**_JIT)
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


@njit(**_JIT)
def _enumerate_symmetric_prefixes(n, depth, max_states):
    """Prefixes of the first ``depth`` rows allowed by the symmetric search, in order.

    Requires ``n >= 4`` and ``2 <= depth <= n - 2``. Returns ``(states, n_states)`` as
    ``_enumerate_prefixes`` does.
    """
    full = _full_mask(n)
    m = n - 1
    stack = np.empty((depth + 1, 4), dtype=np.int64)
    queens = np.zeros(depth, dtype=np.int64)
    out = np.empty((0, 3 + depth), dtype=np.int64)
    for write in range(2):
        n_found = 0
        # first-row columns 1 .. m // 2
        stack[0, 0] = full & ((np.int64(1) << np.int64(m // 2 + 1)) - 2)
        stack[0, 1] = 0
        stack[0, 2] = 0
        stack[0, 3] = 0
        d = 0
        while d >= 0:
            free = stack[d, 0]
            if free == 0:
                d -= 1
                continue
            bit = free & -free
            stack[d, 0] = free ^ bit
            queens[d] = trailing_zeros(bit)
            cols = stack[d, 1] | bit
            diag = (stack[d, 2] | bit) << 1
            anti = (stack[d, 3] | bit) >> 1
            row = d + 1
            next_free = ~(cols | diag | anti) & _row_allow(n, row, queens[0])
            if row == depth:
                if next_free != 0:
                    if write:
                        out[n_found, 0] = cols
                        out[n_found, 1] = diag
                        out[n_found, 2] = anti
                        out[n_found, 3:] = queens
                    n_found += 1
                    if n_found > max_states:
                        return out, n_found  # too many: empty (see the docstring)
            elif next_free != 0:
                d = row
                stack[d, 0] = next_free
                stack[d, 1] = cols
                stack[d, 2] = diag
                stack[d, 3] = anti
        if not write:
            out = np.empty((n_found, 3 + depth), dtype=np.int64)
    return out, n_found


@njit(**_JIT)
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


@njit(**_JIT)
def _count_symmetric_state(n, depth, state, acc, work):
    """Add the leaves below one symmetric state to ``acc`` (see ``_count_symmetric_states``).

    Requires ``n - TAIL_ROWS > depth >= 2``; ``acc`` is a zeroed ``int64`` array of length
    10: ``acc[e]`` gets the leaves with trivial stabilizer and ``e`` tied edges, ``acc[8]``
    and ``acc[9]`` the representatives of orbits of 4 and 2; ``work`` is ``(2, n)`` int64
    scratch for the leaves fixed by rot180. Level ``sp`` of the search
    places the queen of row ``depth + sp`` on the squares its row allows (``_row_allow``);
    the children of level ``tail_level`` start the last ``TAIL_ROWS`` rows, searched by
    ``_masked_tail``. Side queens in row ``b`` or ``n - 1 - b`` above the tail are read from
    the column masks on the stack when a tail has leaves.
    """
    m = n - 1
    b = state[3]
    b2 = m - b
    side = np.int64(1) | (np.int64(1) << np.int64(m))
    tail_row = n - TAIL_ROWS
    allow = np.zeros(n + 1, dtype=np.int64)  # by row; one spare entry past the last row
    for r in range(1, n):
        allow[r] = _row_allow(n, r, b)
    # Per-state constants of the tail: 0-3 allowed squares of the tail rows (3: the last
    # row), 4-6 tie squares of the tail rows above the last, 8 the last row's tie square.
    params = np.zeros(16, dtype=np.int64)
    for t in range(TAIL_ROWS):
        params[t] = allow[tail_row + t]
        if t < TAIL_ROWS - 1 and (tail_row + t == b or tail_row + t == b2):
            params[4 + t] = side
    params[8] = np.int64(1) << np.int64(b2)  # column b holds the first-row queen
    stack = np.zeros((n + 1, 4), dtype=np.int64)
    # Column masks on the stack around the rows b .. b2 below the prefix and above the tail:
    # the rows between keep the side columns empty, so a side queen placed in that range is
    # in row b or b2, a tie.
    tie_lo = max(b - depth, 0)
    tie_hi = min(b2, tail_row - 1) - depth + 1
    if b >= tail_row or b2 < depth:
        tie_hi = tie_lo
    e_prefix = 1  # the top edge, and the side ties of the prefix
    if b < depth and (state[3 + b] == 0 or state[3 + b] == m):
        e_prefix += 1
    if b2 != b and b2 < depth and (state[3 + b2] == 0 or state[3 + b2] == m):
        e_prefix += 1
    # The most central first-row column (b = (n - 1) // 2) masks no row below the prefix and
    # has no tie row in the tail: a version of the search without masks runs it.
    full = _full_mask(n)
    masked = False
    for r in range(depth, n):
        if allow[r] != full:
            masked = True
    if params[4] | params[5] | params[6]:
        masked = True
    if masked:
        _symmetric_search(n, depth, state, allow, params, stack, tie_lo, tie_hi, e_prefix,
                          acc, work, True)
    else:
        _symmetric_search(n, depth, state, allow, params, stack, tie_lo, tie_hi, e_prefix,
                          acc, work, False)


@njit(**_JIT)
def _symmetric_search(n, depth, state, allow, params, stack, tie_lo, tie_hi, e_prefix, acc,
                      work, masked):
    """The search loop of ``_count_symmetric_state``.

    ``masked`` is a literal: ``False`` compiles a version for states whose rows below the
    prefix are all unmasked and whose tail has no tie row (``allow`` and the tail masks are
    then full).
    """
    full = _full_mask(n)
    m = n - 1
    tail_level = n - TAIL_ROWS - depth - 1
    ends = params[8]
    allow0 = params[0]
    allow1 = params[1]
    allow2 = params[2]
    last_mask = params[3]
    tie0 = params[4]
    tie1 = params[5]
    tie2 = params[6]
    cols = state[0]
    diag = state[1]
    anti = state[2]
    free = ~(cols | diag | anti) & allow[depth]
    allow_next = allow[depth + 1]  # squares of the row below the current level
    sp = 0
    while True:
        if free != 0:
            bit = free & -free
            free ^= bit
            next_cols = cols | bit
            next_diag = (diag | bit) << 1
            next_anti = (anti | bit) >> 1
            if sp != tail_level:
                next_free = ~(next_cols | next_diag | next_anti) & (allow_next if masked
                                                                    else full)
                if next_free != 0:
                    stack[sp, 0] = free
                    stack[sp, 1] = cols
                    stack[sp, 2] = diag
                    stack[sp, 3] = anti
                    sp += 1
                    allow_next = allow[depth + sp + 1]
                    cols = next_cols
                    diag = next_diag
                    anti = next_anti
                    free = next_free
            else:
                if masked:
                    n_leaves, n_one, n_two = _masked_tail(
                        next_cols, next_diag, next_anti, allow0, allow1, allow2, last_mask,
                        tie0, tie1, tie2, ends)
                else:
                    n_leaves, n_one, n_two = _masked_tail(
                        next_cols, next_diag, next_anti, full, full, full, full, 0, 0, 0,
                        ends)
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
                                               next_diag, next_anti, params, acc, work)
        elif sp == 0:
            break
        else:
            sp -= 1
            allow_next = allow[depth + sp + 1]
            free = stack[sp, 0]
            cols = stack[sp, 1]
            diag = stack[sp, 2]
            anti = stack[sp, 3]


@njit(cache=True, nogil=True, inline="always")
def _masked_tail(cols, diag, anti, allow0, allow1, allow2, last_mask, tie0, tie1, tie2,
                 ends):
    """The last ``TAIL_ROWS`` (4) rows of a masked search, as nested loops.

    ``cols``, ``diag`` and ``anti`` are the masks of the first tail row; tail row ``t`` may
    use only the squares of ``allow<t>``, the last row those of ``last_mask``. In the
    symmetric search a tail row ``t`` holding a square of ``tie<t>`` is a tie, and so is a
    last queen on ``ends``.

    Returns ``(n_leaves, n_one, n_two)``: the leaves, and those with at least one and with
    two ties in the tail.
    """
    n_leaves = np.int64(0)
    n_one = np.int64(0)
    n_two = np.int64(0)
    f0 = ~(cols | diag | anti) & allow0
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0 = cols | b0
        d0 = (diag | b0) << 1
        a0 = (anti | b0) >> 1
        t0 = b0 & tie0
        f1 = ~(c0 | d0 | a0) & allow1
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1 = c0 | b1
            d1 = (d0 | b1) << 1
            a1 = (a0 | b1) >> 1
            t1 = t0 | (b1 & tie1)
            f2 = ~(c1 | d1 | a1) & allow2
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                last = ~((c1 | b2) | ((d1 | b2) << 1) | ((a1 | b2) >> 1)) & last_mask
                side_tie = (t1 | (b2 & tie2)) != 0
                # a leaf with a tie in the tail: its last queen on ``ends``, or any last
                # queen after a side tie
                tie_squares = last_mask if side_tie else ends
                n_leaves += last != 0
                n_one += (last & tie_squares) != 0
                n_two += side_tie & ((last & ends) != 0)
    return n_leaves, n_one, n_two


@njit(**_JIT)
def _classify_fixed_leaves(n, depth, state, stack, sp, bit_above, cols, diag, anti, params,
                           acc, work):
    """Search a tail again for its leaves fixed by rot180 and move them in ``acc``.

    Such a leaf leaves ``acc[e]`` (its tied edges) and, if it is the lexicographically
    smallest of its images that start with the same column, adds one to ``acc[8]`` (orbit of
    4) or ``acc[9]`` (orbit of 2). The placement is read back from the prefix (``state``),
    the column masks on the stack (levels ``0 .. sp + 1``), ``bit_above`` (row
    ``n - TAIL_ROWS - 1``) and the tail's own queens; ``work`` is ``(2, n)`` scratch.
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
    f0 = ~(cols | diag | anti) & params[0]
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0 = cols | b0
        d0 = (diag | b0) << 1
        a0 = (anti | b0) >> 1
        f1 = ~(c0 | d0 | a0) & params[1]
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1 = c0 | b1
            d1 = (d0 | b1) << 1
            a1 = (a0 | b1) >> 1
            f2 = ~(c1 | d1 | a1) & params[2]
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                last = ~((c1 | b2) | ((d1 | b2) << 1) | ((a1 | b2) >> 1)) & ends
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


@njit(**_JIT)
def _count_symmetric_states(n, states, depth):
    """Leaves of the symmetric search below each state, one slot each.

    Requires ``n - TAIL_ROWS > depth >= 2``. Returns ``counts``, shape ``(n_states, 6)``,
    dtype ``int64``: columns 0-3 count the leaves with a trivial stabilizer and 1, 2, 3 or 4
    tied edges (summed over all states, column ``e - 1`` is ``e`` times the number of orbits
    of 8 with ``e`` tied edges); columns 4 and 5 count the representatives of orbits of 4
    and 2 (the lexicographically smallest of their images in the search).
    """
    n_states = states.shape[0]
    counts = np.zeros((n_states, 6), dtype=np.int64)
    acc = np.zeros(10, dtype=np.int64)
    work = np.empty((2, n), dtype=np.int64)
    for i in range(n_states):
        acc[:] = 0
        _count_symmetric_state(n, depth, states[i], acc, work)
        for e in range(1, 5):
            counts[i, e - 1] = acc[e]
        counts[i, 4] = acc[8]
        counts[i, 5] = acc[9]
    return counts


@njit(**_JIT)
def _mirror_rows(src, dst):
    """``dst[k - 1 - i] = n - 1 - src[i]`` for rows ``i`` of ``(k, n)`` int8 arrays.

    The mirror images (column ``c`` to ``n - 1 - c``) of the rows of ``src``, in reverse order.
    """
    k, n = src.shape
    m = np.int8(n - 1)
    for i in range(k):
        row = k - 1 - i
        for j in range(n):
            dst[row, j] = m - src[i, j]


# --------------------------------------------------------------------------- local search
#
# Min-conflicts repair over permutations (Minton et al. 1992; Sosic and Gu 1994): queens
# stay in distinct rows and columns, and swaps of two rows' columns remove diagonal
# conflicts. ``dn[r + c]`` and ``up[r - c + n - 1]`` count the queens on each anti-diagonal
# and diagonal; a conflict is a pair of queens on one of them.


@njit(cache=True, nogil=True, inline="always")
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


@njit(cache=True, nogil=True, inline="always")
def _attacked(queens, dn, up, n, r):
    return dn[r + queens[r]] > 1 or up[r - queens[r] + n - 1] > 1


@njit(cache=True, nogil=True, inline="always")
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


@njit(**_JIT)
def _min_conflicts(queens, free_rows, seed, max_steps):
    """Repair ``queens`` (a permutation, int64) into a solution by min-conflicts swaps.

    Only rows listed in ``free_rows`` move. First a greedy pass puts each free row, in
    random order, on a free column that adds no conflict when a few random tries find one
    (Sosic and Gu's initial placement); then queens under attack swap columns with random
    free rows while that lowers the number of conflicting pairs. Deterministic for a given
    ``seed``. Returns the steps used (swap tries), or -1 when ``max_steps`` ran out.
    """
    np.random.seed(seed)
    n = queens.shape[0]
    m = free_rows.shape[0]
    dn = np.zeros(2 * n - 1, dtype=np.int64)
    up = np.zeros(2 * n - 1, dtype=np.int64)
    is_free = np.zeros(n, dtype=np.bool_)
    for k in range(m):
        is_free[free_rows[k]] = True
    for r in range(n):
        if not is_free[r]:
            _place(queens, dn, up, n, r, 1)
    # Greedy placement: row free_rows[k] takes a conflict-free column among those left.
    order = free_rows.copy()
    np.random.shuffle(order)
    pairs = np.int64(0)
    for k in range(m):
        r = order[k]
        best_row = r
        for _ in range(256):  # nearly always a few tries; many only near the end
            j = order[k + np.random.randint(0, m - k)]
            queens[r], queens[j] = queens[j], queens[r]
            if dn[r + queens[r]] == 0 and up[r - queens[r] + n - 1] == 0:
                best_row = j
                queens[r], queens[j] = queens[j], queens[r]
                break
            queens[r], queens[j] = queens[j], queens[r]
        queens[r], queens[best_row] = queens[best_row], queens[r]
        pairs += _place(queens, dn, up, n, r, 1)
    # Repair: each sweep lists the attacked queens, and each of them tries random rows to
    # swap with until a swap lowers the conflicts. Three sweeps in a row that lower nothing
    # (a local minimum, common on small boards) are followed by one random swap of an
    # attacked queen, kept whatever it does.
    attacked = np.empty(m, dtype=np.int64)
    steps = 0
    stalled = 0
    while pairs > 0:
        n_attacked = 0
        for k in range(m):
            if _attacked(queens, dn, up, n, free_rows[k]):
                attacked[n_attacked] = free_rows[k]
                n_attacked += 1
        improved = False
        for k in range(n_attacked):
            r = attacked[k]
            for _ in range(64):
                if not _attacked(queens, dn, up, n, r):
                    break
                if steps >= max_steps:
                    return -1
                steps += 1
                j = free_rows[np.random.randint(0, m)]
                if j != r:
                    change = _try_swap(queens, dn, up, n, r, j)
                    if change < 0:
                        pairs += change
                        improved = True
                        break
            if pairs == 0:
                break
        stalled = 0 if improved else stalled + 1
        if stalled >= 3 and m > 1 and n_attacked > 0:
            stalled = 0
            r = attacked[np.random.randint(0, n_attacked)]
            j = free_rows[np.random.randint(0, m)]
            pairs += _place(queens, dn, up, n, r, -1) + _place(queens, dn, up, n, j, -1)
            queens[r], queens[j] = queens[j], queens[r]
            pairs += _place(queens, dn, up, n, r, 1) + _place(queens, dn, up, n, j, 1)
    return steps


# --------------------------------------------------------------------------- search trace

TRACE_PLACE = 0
TRACE_REMOVE = 1
TRACE_SOLUTION = 2


@njit(**_JIT)
def _trace_search(n, allow, events):
    """Record the plain depth-first search as events: ``(kind, row, column)`` rows.

    The search of ``_fill_rows`` (lowest free square first, row ``r`` limited to
    ``allow[r]``), step by step: a queen placed (``TRACE_PLACE``), taken back when its row
    moves on or the search backtracks (``TRACE_REMOVE``), and each complete board
    (``TRACE_SOLUTION``, row and column -1). Writes at most ``events.shape[0]`` events
    (``int64``, shape ``(max_events, 3)``) and returns how many.
    """
    cap = events.shape[0]
    written = 0
    if n == 0:
        if cap > 0:
            events[0, 0] = TRACE_SOLUTION
            events[0, 1] = -1
            events[0, 2] = -1
            written = 1
        return written
    full = _full_mask(n)
    free = np.zeros(n, dtype=np.int64)
    cols = np.zeros(n, dtype=np.int64)
    diag = np.zeros(n, dtype=np.int64)
    anti = np.zeros(n, dtype=np.int64)
    queens = np.full(n, -1, dtype=np.int64)
    free[0] = full & allow[0]
    d = 0
    while d >= 0 and written < cap:
        if queens[d] >= 0:  # the queen of this row is taken back before the next try
            events[written, 0] = TRACE_REMOVE
            events[written, 1] = d
            events[written, 2] = queens[d]
            written += 1
            queens[d] = -1
            continue
        f = free[d]
        if f == 0:
            d -= 1
            continue
        bit = f & -f
        free[d] = f ^ bit
        queens[d] = trailing_zeros(bit)
        events[written, 0] = TRACE_PLACE
        events[written, 1] = d
        events[written, 2] = queens[d]
        written += 1
        if d == n - 1:
            if written < cap:
                events[written, 0] = TRACE_SOLUTION
                events[written, 1] = -1
                events[written, 2] = -1
                written += 1
            continue
        c = cols[d] | bit
        dg = (diag[d] | bit) << 1
        an = (anti[d] | bit) >> 1
        d += 1
        cols[d] = c
        diag[d] = dg
        anti[d] = an
        free[d] = ~(c | dg | an) & full & allow[d]
        queens[d] = -1
    return written
