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
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

# JIT options in one place: compile once per machine, release the GIL while searching.
_JIT = dict(cache=True, nogil=True)
_JIT_PARALLEL = dict(cache=True, nogil=True, parallel=True)


@njit(**_JIT)
def _full_mask(n):
    """Bitboard with the ``n`` board columns set."""
    return (np.int64(1) << np.int64(n)) - np.int64(1)


@njit(**_JIT)
def _count_state(n, row, cols, diag, anti):
    """Count the completions of one subproblem by explicit-stack depth-first search.

    ``row`` queens are placed; ``cols``, ``diag`` and ``anti`` are the masks for ``row``.
    Returns the number of solutions below this state (``int64``).
    """
    full = _full_mask(n)
    free = ~(cols | diag | anti) & full
    if row >= n - 1:
        if row >= n:
            return np.int64(1)
        return np.int64(1) if free != 0 else np.int64(0)
    # ``sp`` is the stack depth: the queen being tried sits in row ``row + sp``.
    # A child at ``sp == top`` is in the last row, so it is counted, never pushed.
    top = n - 2 - row
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
            next_free = ~(next_cols | next_diag | next_anti) & full
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


@njit(**_JIT_PARALLEL)
def _count_states(n, states, depth):
    """Count the completions of every subproblem, one ``prange`` task and slot each.

    Returns ``counts``, shape ``(n_states,)``, dtype ``int64``.
    """
    n_states = states.shape[0]
    counts = np.zeros(n_states, dtype=np.int64)
    for i in prange(n_states):
        counts[i] = _count_state(n, depth, states[i, 0], states[i, 1], states[i, 2])
    return counts


@njit(**_JIT)
def _enumerate_prefixes(n, depth, first_limit):
    """All partial placements of the first ``depth`` rows, in lexicographic order.

    The queen of row 0 is restricted to columns ``0 .. first_limit - 1`` (mirror-symmetry
    halving passes ``(n + 1) // 2``). Prefixes whose next row has no free square are dropped,
    except when ``depth == n`` (the prefix is then a solution). Requires ``1 <= depth <= n``.

    Returns ``states``, shape ``(n_states, 3 + depth)``, dtype ``int64``.
    """
    full = _full_mask(n)
    stack = np.empty((depth + 1, 4), dtype=np.int64)  # free, cols, diag, anti per row
    queens = np.empty(depth, dtype=np.int64)
    out = np.empty((0, 3 + depth), dtype=np.int64)
    # Pass 0 counts the prefixes, pass 1 writes them.
    for write in range(2):
        n_found = 0
        stack[0, 0] = full & ((np.int64(1) << np.int64(first_limit)) - 1)
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
            if d + 1 == depth:
                if next_free != 0 or depth == n:
                    if write:
                        out[n_found, 0] = cols
                        out[n_found, 1] = diag
                        out[n_found, 2] = anti
                        out[n_found, 3:] = queens
                    n_found += 1
            else:
                d += 1
                stack[d, 0] = next_free
                stack[d, 1] = cols
                stack[d, 2] = diag
                stack[d, 3] = anti
        if not write:
            out = np.empty((n_found, 3 + depth), dtype=np.int64)
    return out


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


@njit(**_JIT)
def _fill_solutions(n, base, stack, queens, level, out, budget):
    """Continue a cursor's depth-first search, writing solutions into ``out`` in order.

    Writes at most ``out.shape[0]`` rows (``int8``, ``out[k, row] == column``) and returns how
    many it wrote. It also returns after about ``budget`` squares tried, so that callers can
    check for cancellation even where solutions are rare. The cursor (``stack``, ``queens``, ``level``, see ``_start_cursor``) is
    updated in place so that the next call resumes where this one stopped; the search below
    row ``base`` is exhausted once ``level[0] < base``.
    """
    full = _full_mask(n)
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
            next_free = ~(next_cols | next_diag | next_anti) & full
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
