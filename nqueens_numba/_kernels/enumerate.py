"""Kernels that enumerate: the prefixes of a split, and the resumable enumeration of
solutions in lexicographic order (with the unrolled tail on the plain board).

Each board's entry point (``_enumerate_prefixes``, ``_enumerate_torus_prefixes``,
``_enumerate_steps_prefixes``, ``_enumerate_knight_prefixes``; ``_fill_solutions``,
``_fill_rows``, ``_fill_torus_rows``, ``_fill_knight_rows``) takes the same arguments and
compiles only its own board's search. See ``_common`` for the masks, the states and the
variants.
"""
import numpy as np
from numba import njit

from ._common import (
    JIT,
    JIT_INLINE,
    KNIGHT,
    STEPS,
    TAIL_ROWS,
    TAIL_SOLUTIONS,
    TORUS,
    _down,
    _full_mask,
    _knight,
    _lowest,
    _pop,
    _push,
    _registers,
    _steps_band,
    _steps_near,
    njit_for,
    trailing_zeros,
)


@njit(**JIT)
def _enumerate_prefixes(n, depth, first_limit, allow, max_states):
    """``_prefixes_of`` on the plain board."""
    return _prefixes_of(n, depth, first_limit, allow, max_states, 0)


@njit(**JIT)
def _enumerate_torus_prefixes(n, depth, first_limit, allow, max_states):
    """``_prefixes_of`` of toroidal queens (``TORUS``)."""
    return _prefixes_of(n, depth, first_limit, allow, max_states, TORUS)


@njit(**JIT)
def _enumerate_steps_prefixes(n, depth, first_limit, allow, max_states):
    """``_prefixes_of`` of toroidal queens by least steps (``TORUS | STEPS``)."""
    return _prefixes_of(n, depth, first_limit, allow, max_states, TORUS | STEPS)


@njit(**JIT)
def _enumerate_knight_prefixes(n, depth, first_limit, allow, max_states):
    """``_prefixes_of`` of superqueens (``KNIGHT``)."""
    return _prefixes_of(n, depth, first_limit, allow, max_states, KNIGHT)


@njit(**JIT)
def _prefixes_of(n, depth, first_limit, allow, max_states, variant):
    """All partial placements of the first ``depth`` rows, in lexicographic order, on the
    board of ``variant`` (a literal).

    The queen of row ``r`` may stand only on the squares of ``allow[r]`` (``(n,)`` int64
    bitboards; all ones without constraints), and the queen of row 0 only in columns
    ``0 .. first_limit - 1`` (mirror-symmetry halving passes ``(n + 1) // 2``). Prefixes whose
    next row has no free square are dropped, except when ``depth == n`` (the prefix is then a
    solution). With ``STEPS`` (and ``first_limit == 1``), the second-row queen stands in
    a column ``m <= (n - 1) / 2`` and every later one at least ``m`` columns from the one above
    (see ``_sizes.STEPS``). Requires ``1 <= depth <= n``.

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
        first = full & allow[0] & ((np.int64(1) << np.int64(first_limit)) - 1)
        _push(stack, 0, first, 0, 0, 0)
        d = 0
        while d >= 0:
            free = stack[d, 0]
            if free == 0:
                d -= 1
                continue
            bit = free & -free
            stack[d, 0] = free ^ bit
            queens[d] = trailing_zeros(bit)
            cols, diag, anti = _down(variant, n, stack[d, 1], stack[d, 2], stack[d, 3], bit)
            above = np.int64(1) << queens[d - 1] if d >= 1 else np.int64(0)
            next_free = ~(cols | diag | anti | _knight(variant, bit, above)) & full
            if d + 1 < n:
                next_free &= allow[d + 1]
            if variant & STEPS:
                if d == 0:  # the least step ``m``, up to the mirror
                    next_free &= _full_mask((n - 1) // 2 + 1)
                else:
                    band = _steps_band(n, queens[1])
                    next_free &= ~_steps_near(variant, n, band, bit)
                    if d + 1 == n - 1:
                        next_free &= band
            if d + 1 == depth:
                if next_free != 0 or depth == n:
                    if write:
                        out[n_found, 0] = cols
                        out[n_found, 1] = diag
                        out[n_found, 2] = anti
                        for r in range(depth):  # (loops: a slice assignment compiles
                            out[n_found, 3 + r] = queens[r]  # numba's error strings)
                    n_found += 1
                    if n_found > max_states:
                        return out, n_found  # too many: empty (see the docstring)
            else:
                d += 1
                _push(stack, d, next_free, cols, diag, anti)
        if not write:
            out = np.empty((n_found, 3 + depth), dtype=np.int64)
    return out, n_found



@njit(**JIT)
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
    _push(stack, depth, ~(cols | diag | anti) & full, cols, diag, anti)
    level[0] = depth




@njit(**JIT_INLINE)
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


@njit(**JIT)
def _fill_solutions(n, base, stack, queens, level, out, budget, allow):
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
        return _fill_rows(n, base, stack, queens, level, out, budget, allow)
    full = _full_mask(n)
    cap = out.shape[0]
    written = 0
    d = level[0]
    if d < base or cap == 0:
        return 0
    free, cols, diag, anti, _ = _registers(0, stack, d, 0)
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
                bit, free = _lowest(free)
                queens[d] = trailing_zeros(bit)
                written = _fill_tail(n, full, cols | bit, (diag | bit) << 1, (anti | bit) >> 1,
                                     queens, out, written)
            else:
                bit, free = _lowest(free)
                next_cols = cols | bit
                next_diag = (diag | bit) << 1
                next_anti = (anti | bit) >> 1
                queens[d] = trailing_zeros(bit)
                next_free = ~(next_cols | next_diag | next_anti) & full
                if next_free != 0:
                    d = _push(stack, d, free, cols, diag, anti)
                    free, cols, diag, anti = next_free, next_cols, next_diag, next_anti
        elif d == base:
            d = base - 1
            break
        else:
            if steps >= budget:
                break
            steps += 1
            d, free, cols, diag, anti, _ = _pop(0, stack, d, 0)
    if d >= base:
        _push(stack, d, free, cols, diag, anti)
    level[0] = d
    return written


def _fill_rows_for(variant):
    """The kernel of the enumeration without the unrolled tail on the board of ``variant``
    (0, ``TORUS`` or ``KNIGHT``), a constant of the kernel: each board's kernel compiles
    alone (see ``count._count_batch_for``)."""

    @njit_for(variant)
    def fill(n, base, stack, queens, level, out, budget, allow):
        """``_fill_solutions`` without the unrolled tail, for subproblems of few rows, for
        constrained boards and for the variants: the queen of row ``r`` may stand only on
        the squares of ``allow[r]`` (apply ``allow[base]``, and the knights' squares of row
        ``base``, to the cursor's first row yourself).

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
                bit, free = _lowest(free)
                queens[last] = trailing_zeros(bit)
                for r in range(n):
                    out[written, r] = queens[r]
                written += 1
            stack[d, 0] = free
            level[0] = d if free != 0 else base - 1
            return written
        _, cols, diag, anti, _ = _registers(0, stack, d, 0)
        top = last - 1  # a child of row ``top`` completes a solution
        steps = 0
        while True:
            if free != 0:
                if steps >= budget:
                    break
                steps += 1
                bit, free = _lowest(free)
                next_cols, next_diag, next_anti = _down(variant, n, cols, diag, anti, bit)
                above = np.int64(1) << np.int64(queens[d - 1]) if d >= 1 else np.int64(0)
                next_free = ~(next_cols | next_diag | next_anti | _knight(variant, bit, above)) \
                    & allow[d + 1]
                if next_free != 0:
                    queens[d] = trailing_zeros(bit)
                    if d == top:
                        queens[last] = trailing_zeros(next_free)
                        for r in range(n):
                            out[written, r] = queens[r]
                        written += 1
                        if written == cap:
                            break
                    else:
                        d = _push(stack, d, free, cols, diag, anti)
                        free, cols, diag, anti = next_free, next_cols, next_diag, next_anti
            elif d == base:
                d = base - 1
                break
            else:
                d, free, cols, diag, anti, _ = _pop(0, stack, d, 0)
        if d >= base:
            _push(stack, d, free, cols, diag, anti)
        level[0] = d
        return written

    return fill


_fill_rows = _fill_rows_for(0)
_fill_torus_rows = _fill_rows_for(TORUS)
_fill_knight_rows = _fill_rows_for(KNIGHT)




@njit(**JIT)
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

