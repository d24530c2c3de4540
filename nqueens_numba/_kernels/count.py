"""Kernels of the plain bitboard count, resumable in budgeted steps.

Mirror halving is the callers' affair (they choose the first-row columns of the prefixes);
``allow`` restricts the squares of each row on constrained boards; ``variant`` (``TORUS``,
``KNIGHT``: a constant of each entry point) searches the toroidal and superqueen boards, and
counts the torus by least steps (``TORUS | STEPS``, see ``_sizes.STEPS``). Each entry point
(``_count_batch``, ``_count_allowed_batch``, ``_count_torus_batch``, ``_count_knight_batch``)
takes the same arguments and compiles only its own board's search.
See ``_common`` for the masks, the states and the variants.
"""
import numpy as np
from numba import njit

from ._common import (
    _SIGNAL_STEPS,
    _STEP_ROWS,
    JIT,
    JIT_INLINE,
    KNIGHT,
    STEPS,
    TAIL_ROWS,
    TORUS,
    _count_allowed_tail,
    _count_tail,
    _down,
    _full_mask,
    _lowest,
    _pop,
    _push,
    _registers,
    _save_cursor,
    _save_stack,
    _knight,
    _prefix_knight,
    _steps_band,
    _steps_near,
    _steps_weight,
    njit_for,
    trailing_zeros,
)


@njit(**JIT_INLINE)
def _count_steps_tail(n, full, cols, diag, anti, near, band, queens):
    """``_count_tail`` of the toroidal count by least steps (``TORUS | STEPS``): the
    solutions found weighted by ``_steps_weight``. ``near``: the squares of the first tail
    row closer than the least step to the queen above; ``band``: ``_steps_band`` of the
    least step; ``queens``, ``(n,)`` int64: the queens above the tail (the tail's are written
    into it)."""
    count = np.int64(0)
    tail = n - TAIL_ROWS
    f0 = ~(cols | diag | anti | near) & full
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0, d0, a0 = _down(TORUS, n, cols, diag, anti, b0)
        f1 = ~(c0 | d0 | a0 | _steps_near(STEPS, n, band, b0)) & full
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1, d1, a1 = _down(TORUS, n, c0, d0, a0, b1)
            f2 = ~(c1 | d1 | a1 | _steps_near(STEPS, n, band, b1)) & full
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                c2, d2, a2 = _down(TORUS, n, c1, d1, a1, b2)
                # the last queen: a least step from the one above, and from column 0 below
                last = ~(c2 | d2 | a2 | _steps_near(STEPS, n, band, b2)) & band
                if last != 0:
                    queens[tail] = trailing_zeros(b0)
                    queens[tail + 1] = trailing_zeros(b1)
                    queens[tail + 2] = trailing_zeros(b2)
                    queens[tail + 3] = trailing_zeros(last)
                    count += _steps_weight(queens, n)
    return count


@njit(**JIT)
def _steps_start(n, state, depth, queens):
    """The queens of the subproblem ``state`` (``depth`` rows) written into ``queens``,
    ``(n,)`` int64, and the ``_steps_band`` of its least step (``state``'s second-row queen;
    all columns when ``depth < 2``, which leaves the search to the solutions' check)."""
    for r in range(depth):
        queens[r] = state[3 + r]
    return _steps_band(n, state[4]) if depth >= 2 else _full_mask(n)



@njit(**JIT)
def _start_count(n, state, depth, stack, level, allow, near):
    """Set a count cursor to the root of the subproblem ``state`` (``depth`` rows placed).

    ``stack``, shape ``(n + 1, 4)``, ``int64``, gets ``(free, cols, diag, anti)`` of the
    subproblem's first free row in its row 0; ``level``, shape ``(1,)``, gets 0. The
    queen of row ``depth`` may stand only on ``allow[depth]``, and not on ``near``.
    """
    cols = state[0]
    diag = state[1]
    anti = state[2]
    _push(stack, 0, ~(cols | diag | anti | near) & _full_mask(n) & allow[depth], cols, diag,
          anti)
    level[0] = 0


@njit(**JIT)
def _count_cursor(n, row, stack, level, allow, constrained, variant, above, queens, band,
                  budget, signal, before):
    """Continue the count of one subproblem from its cursor, for about ``budget`` steps.

    The subproblem has ``row`` queens placed, ``row < n - TAIL_ROWS``. Its cursor is the
    explicit stack of the depth-first search: ``stack[sp]``, shape ``(n + 1, 4)``,
    ``int64``, holds ``(free, cols, diag, anti)`` of row ``row + sp`` (``free``: the squares
    of that row not tried yet; the masks: those of that row) for ``sp = 0 .. level[0]``,
    the deepest level being the one searched (see ``_start_count``). With ``constrained``
    (a literal: each value compiles its own version), the queen of row ``r`` may stand only
    on the squares of ``allow[r]`` (``(n,)`` int64); without, every square is allowed.
    ``variant`` (a literal too) is the board's (see ``_common``); with ``KNIGHT``, ``above``
    is the queen of row ``row - 1`` (0 on the first row). With ``STEPS``, ``queens``,
    ``(n,)`` int64, holds the queens of the first ``row`` rows (the search writes the others
    into it), and ``band`` the ``_steps_band`` of the least step (see ``_steps_start``).

    A *step* is one return to a row more than ``_STEP_ROWS`` rows above the tail (the last
    ``TAIL_ROWS`` rows, unrolled): between two steps the search covers at most a subtree of
    ``_STEP_ROWS`` rows and its tails, a few microseconds. The search stops after
    ``budget`` steps (or at the end) with the cursor saved in place, so that the next call
    goes on from there: ``level[0]`` is then the level to resume, or -1 once the subproblem
    is finished. It stops earlier once ``signal[0]`` (``(1,)`` int64, which other threads
    may set meanwhile) is not 0 and ``before`` (steps the caller took before) and its own
    steps make at least ``signal[0]``. Returns ``(count, steps)``: the solutions found by
    this call and the steps it took (``int64``).

    The search runs on a copy of the stack in a local array and counts only those rare
    returns: with the stack an argument, or every return counted, the halving count of
    n = 16 took 4-8% longer (benchmarks/bench_compare.py).
    """
    full = _full_mask(n)
    # The children of level ``top`` start the tail, which nested loops finish.
    top = n - TAIL_ROWS - 1 - row
    tail = n - TAIL_ROWS
    sp = level[0]
    saved = stack
    stack = np.empty((n + 1, 4), dtype=np.int64)
    _save_stack(stack, saved, sp)
    first_above = above  # the queen above level 0; deeper, the difference of two ``cols``
    free, cols, diag, anti, above = _registers(variant, stack, sp, first_above)
    count = np.int64(0)
    left = np.int64(budget)
    check = max(left - _SIGNAL_STEPS, 0)  # the next read of ``signal``
    shallow = top - _STEP_ROWS  # a return to a level above it is a step
    if variant & STEPS:  # the queens of the levels above, from the stack
        for j in range(sp):
            queens[row + j] = trailing_zeros(stack[j + 1, 1] & ~stack[j, 1])
    while True:
        if free != 0:
            bit, free = _lowest(free)
            next_cols, next_diag, next_anti = _down(variant, n, cols, diag, anti, bit)
            near = _knight(variant, bit, above) | _steps_near(variant, n, band, bit)
            if variant & STEPS:
                queens[row + sp] = trailing_zeros(bit)
            if sp == top:
                if variant & STEPS:
                    count += _count_steps_tail(n, full, next_cols, next_diag, next_anti, near,
                                               band, queens)
                elif constrained:
                    leaves, _, _ = _count_allowed_tail(
                        next_cols, next_diag, next_anti, allow[tail], allow[tail + 1],
                        allow[tail + 2], allow[tail + 3], 0, 0, 0, 0, variant, n, near, bit)
                    count += leaves
                else:
                    count += _count_tail(variant, n, full, next_cols, next_diag, next_anti,
                                         near, bit)
            else:
                next_free = ~(next_cols | next_diag | next_anti | near) & (
                    allow[row + sp + 1] if constrained else full)
                if next_free != 0:
                    sp = _push(stack, sp, free, cols, diag, anti)
                    free, cols, diag, anti, above = next_free, next_cols, next_diag, next_anti, bit
        elif sp == 0:
            sp = -1
            break
        else:
            sp, free, cols, diag, anti, above = _pop(variant, stack, sp, first_above)
            if sp < shallow:
                left -= 1
                if left <= check:  # ``stack[sp]`` holds the registers: resume there
                    if left == 0 or (signal[0] != 0 and before + budget - left >= signal[0]):
                        break
                    check = max(left - _SIGNAL_STEPS, 0)
    _save_cursor(saved, stack, sp, level)
    return count, budget - left


@njit(**JIT)
def _count_rows(n, row, cols, diag, anti, allow, stack):
    """``_count_rows_of`` on the plain board: the kernel of small counts from the root.

    The plainest loop, written for the plain board alone: it compiles in about a third of a
    second after numba's own start, half the time of ``_count_rows_of`` with the variants'
    code (``benchmarks/bench_startup.py --kernels``), and the first count of a board of
    n = 13 or 14 in a new process is mostly that compile. ``stack``: ``(n, 4)`` int64, work
    space (the caller's: an array made here loads numba's array module with a cached
    kernel, 0.01-0.02 s of a warm ``nqueens count 14``).
    """
    free = ~(cols | diag | anti) & _full_mask(n) & allow[min(row, n - 1)]
    if row >= n - 1:
        return np.int64(1) if row >= n or free != 0 else np.int64(0)
    top = n - 2 - row  # a child of level ``top`` is in the last row: counted, not pushed
    sp = 0
    count = np.int64(0)
    while True:
        if free != 0:
            bit, free = _lowest(free)
            next_cols, next_diag, next_anti = _down(0, n, cols, diag, anti, bit)
            next_free = ~(next_cols | next_diag | next_anti) & allow[row + sp + 1]
            if next_free != 0:
                if sp == top:
                    count += 1
                else:
                    sp = _push(stack, sp, free, cols, diag, anti)
                    free, cols, diag, anti = next_free, next_cols, next_diag, next_anti
        elif sp == 0:
            break
        else:
            sp, free, cols, diag, anti, _ = _pop(0, stack, sp, 0)
    return count


@njit(**JIT)
def _count_rows_of(n, row, cols, diag, anti, allow, variant, near, above, queens, band):
    """The completions of a subproblem by the plainest explicit-stack search, without the
    unrolled tail or a budget; the queen of row ``r`` may stand only on the squares of
    ``allow[r]``, and on no square of ``near`` in row ``row`` (knights; ``above``: the
    queen of row ``row - 1``, with ``KNIGHT``; ``queens`` and ``band`` with ``STEPS``, as
    in ``_count_cursor``). For subproblems of at most ``TAIL_ROWS``
    free rows (deep prefixes), and for whole small boards from the root (``row == 0``,
    counts of milliseconds), where it is the kernel that compiles fastest (a fraction of a
    second on first use).
    """
    full = _full_mask(n)
    free = ~(cols | diag | anti | near) & full & allow[min(row, n - 1)]
    if row >= n - 1:
        if variant & STEPS:
            if row == n - 1:
                free &= band
                if free == 0:
                    return np.int64(0)
                queens[n - 1] = trailing_zeros(free)
            return _steps_weight(queens, n)
        if row >= n:
            return np.int64(1)
        return np.int64(1) if free != 0 else np.int64(0)
    top = n - 2 - row  # a child of level ``top`` is in the last row: counted, not pushed
    stack = np.empty((n, 4), dtype=np.int64)
    sp = 0
    count = np.int64(0)
    first_above = above
    while True:
        if free != 0:
            bit, free = _lowest(free)
            next_cols, next_diag, next_anti = _down(variant, n, cols, diag, anti, bit)
            next_free = ~(next_cols | next_diag | next_anti | _knight(variant, bit, above)
                          | _steps_near(variant, n, band, bit)) & allow[row + sp + 1]
            if variant & STEPS:
                queens[row + sp] = trailing_zeros(bit)
                if sp == top:
                    next_free &= band  # the last queen a least step from column 0 too
            if next_free != 0:
                if sp == top:
                    if variant & STEPS:
                        queens[n - 1] = trailing_zeros(next_free)
                        count += _steps_weight(queens, n)
                    else:
                        count += 1
                else:
                    sp = _push(stack, sp, free, cols, diag, anti)
                    free, cols, diag, anti, above = next_free, next_cols, next_diag, next_anti, bit
        elif sp == 0:
            break
        else:
            sp, free, cols, diag, anti, above = _pop(variant, stack, sp, first_above)
    return count


def _count_batch_for(constrained, variant):
    """The kernel of the count of a batch of subproblems on the board of ``variant`` (see
    ``_common``), with per-row allowed squares if ``constrained``: both constants of the
    kernel, so that each board compiles its own search without the other cases' branches.

    (A wrapper that passed them as literals would be one more level of calls, and numba
    compiles the machine code of a kernel's callees again into each caller.)
    """

    @njit_for(constrained, variant)
    def batch(n, states, depth, allow, stack, level, partial, budget, signal):
        """Count the subproblems of a batch in order, for about ``budget`` steps in all.

        ``states``: ``(k, 3 + depth)`` int64; ``allow``: ``(n,)`` int64, the squares each
        row allows (all ones on a board without constraints). If ``level[0] >= 0`` on
        entry, ``states[0]`` is in progress: its cursor is ``stack``/``level`` and its
        count so far ``partial[0]`` (see ``_count_cursor``; ``partial``: ``(1,)`` int64).
        Returns ``(counts, n_done)``: ``counts``, shape ``(k,)``, int64, holds the totals of
        the first ``n_done`` states, which are finished. If ``n_done < k`` and
        ``level[0] >= 0``, ``states[n_done]`` is in progress, its cursor in
        ``stack``/``level`` and its count so far in ``partial[0]``; with ``level[0] == -1``
        it is not started.
        Every subproblem takes at least one step, so a call on many small ones returns too.
        The call ends early once ``signal[0]`` is not 0 and it has taken ``signal[0]``
        steps (see ``_count_cursor``).
        """
        k = states.shape[0]
        counts = np.empty(k, dtype=np.int64)  # (np.zeros compiles code of its own)
        for i in range(k):
            counts[i] = 0
        used = np.int64(0)
        queens = np.empty(n, dtype=np.int64)
        for i in range(k):
            near, above = _prefix_knight(variant, states[i], depth)
            band = np.int64(0)
            if variant & STEPS:
                band = _steps_start(n, states[i], depth, queens)
                if depth >= 1:
                    near |= _steps_near(variant, n, band,
                                        np.int64(1) << states[i, 3 + depth - 1])
            if n - depth <= TAIL_ROWS:
                counts[i] = _count_rows_of(n, depth, states[i, 0], states[i, 1],
                                           states[i, 2], allow, variant, near, above, queens,
                                           band)
                level[0] = -1
                used += 1
            else:
                if level[0] < 0:
                    _start_count(n, states[i], depth, stack, level, allow, near)
                    partial[0] = 0
                found, steps = _count_cursor(n, depth, stack, level, allow, constrained,
                                             variant, above, queens, band,
                                             max(budget - used, 1), signal, used)
                partial[0] += found
                used += steps + 1
                if level[0] >= 0:
                    return counts, i
                counts[i] = partial[0]
                partial[0] = 0
            if (used >= budget or (signal[0] != 0 and used >= signal[0])) and i + 1 < k:
                return counts, i + 1
        return counts, k

    return batch


#: The count on each board: without constraints, with allowed squares, toroidal queens by
#: least steps (``TORUS | STEPS``) and superqueens (``KNIGHT``).
_count_batch = _count_batch_for(False, 0)
_count_allowed_batch = _count_batch_for(True, 0)
_count_torus_batch = _count_batch_for(False, TORUS | STEPS)
_count_knight_batch = _count_batch_for(False, KNIGHT)
