"""Kernels of the search tree's shape: nodes per depth, exactly or by random probes.

A *node* at depth ``k`` is a placement of ``k`` non-attacking queens in the first ``k`` rows
(dead ends included); the nodes at depth ``n`` are the solutions. ``_profile_states`` counts
the nodes of each depth below a set of subproblems. ``_probe_states`` estimates them by
random probes (D. E. Knuth, Math. Comp. 29 (1975) 121-136): a probe walks down from a
subproblem, choosing one free square per row uniformly at random, and the product of the
numbers of free squares it met estimates the nodes of each depth it reached, without bias;
its last ``tail`` rows are counted exactly below the node it reached and weighted by that
product. See ``_common`` for the masks, the states and the variants (``variant``: a constant
of each entry point; the ``_variant`` entry points search the toroidal and superqueen boards).
"""
import numpy as np
from numba import njit

from ._common import (JIT, JIT_INLINE, KNIGHT, TAIL_ROWS, TORUS, _down, _full_mask, _knight,
                      _count_tail, _lowest, _pop, _prefix_knight, _push,
                      _registers, njit_for)


@njit(**JIT_INLINE)
def _popcount(x):
    """Number of set bits of the bitboard ``x``."""
    count = np.int64(0)
    while x != 0:
        x &= x - 1
        count += 1
    return count


#: Rows below a node of a profile that make it a *step* of the budget: the search below a
#: node of this many rows left is a few microseconds at most.
_PROFILE_STEP_ROWS = 6


@njit(**JIT)
def _profile_start(full, row, cols, diag, anti, near, above, stack, level):
    """Set a profile cursor to the node of depth ``row`` whose masks are given (``near``,
    ``above``: its knights, see ``_common._prefix_knight``): ``stack``, ``(n + 1, 4)`` int64,
    holds the registers ``(free, cols, diag, anti)`` of each level of the search below it;
    ``level``, ``(3,)`` int64, the level to resume (``level[0]``, -1 once the search is
    over), the node's depth (``level[1]``) and ``above`` (``level[2]``)."""
    _push(stack, 0, ~(cols | diag | anti | near) & full, cols, diag, anti)
    level[0] = 0
    level[1] = row
    level[2] = above


@njit(**JIT)
def _profile_cursor(n, limit, stack, level, out, budget, variant):
    """Continue a profile cursor (``_profile_start``) for about ``budget`` steps: add to
    ``out[k]`` the nodes of depth ``k`` (``k <= limit``) it visits below its node. A step is
    a return from a node of ``_PROFILE_STEP_ROWS - 1`` rows or more above ``limit``, with the
    search below it.
    Returns the steps taken; ``level[0]`` is -1 once the search is over, else the cursor is
    saved in place for the next call."""
    full = _full_mask(n)
    sp = level[0]
    row = level[1]
    if sp < 0:
        return np.int64(0)
    if row >= limit:
        level[0] = -1
        return np.int64(0)
    first_above = level[2]  # the queen above level 0; deeper, the difference of two ``cols``
    free, cols, diag, anti, above = _registers(variant, stack, sp, first_above)
    left = np.int64(budget)
    last = limit - row - 1  # the level whose children are the last depth
    shallow = limit - row - _PROFILE_STEP_ROWS  # a child of a level below it is a step
    while True:
        if free != 0:
            child = row + sp + 1
            if sp == last:  # the children are the last depth: counted, not visited
                out[limit] += _popcount(free)
                free = np.int64(0)
                continue
            bit, free = _lowest(free)
            out[child] += 1
            sp = _push(stack, sp, free, cols, diag, anti)
            near = _knight(variant, bit, above)
            cols, diag, anti = _down(variant, n, cols, diag, anti, bit)
            free = ~(cols | diag | anti | near) & full
            above = bit
        elif sp == 0:
            break
        else:
            sp -= 1
            if sp < shallow:  # back from a step: a child far enough from the end
                left -= 1
                if left == 0:  # budget spent: ``stack[sp]`` holds the registers of level sp
                    level[0] = sp
                    return np.int64(budget)
            free, cols, diag, anti, above = _registers(variant, stack, sp, first_above)
    level[0] = -1
    return budget - left


@njit(**JIT)
def _profile_below(n, row, limit, cols, diag, anti, near, above, stack, out, variant):
    """Add to ``out[k]`` the nodes of depth ``k`` (``row < k <= limit``) below the node of
    depth ``row`` whose masks are given (the whole search, no budget); ``stack``, ``(limit +
    1, 4)`` int64, is work space."""
    level = np.empty(3, dtype=np.int64)
    _profile_start(_full_mask(n), row, cols, diag, anti, near, above, stack, level)
    _profile_cursor(n, limit, stack, level, out, np.int64(1) << 62, variant)


def _profile_run_for(variant):
    """The kernel of the exact profile on the board of ``variant`` (0, ``TORUS`` or
    ``KNIGHT``), a constant of the kernel: each board's kernel compiles alone (see
    ``count._count_batch_for``)."""

    @njit_for(variant)
    def run(n, states, depth, limit, weights, stack, level, below, out, budget):
        """Profile the subproblems ``states`` (``depth`` rows placed) in order, for about
        ``budget`` steps in all: add ``weights[i]`` times the nodes of each depth ``depth + 1 ..
        limit`` below each finished ``states[i]`` to ``out``, shape ``(n + 1,)``, int64.

        ``budget`` counts steps (see ``_profile_cursor``). A subproblem may be left in
        progress: its cursor is ``stack``/``level`` (see ``_profile_start``; ``level[0] >= 0``)
        and its nodes so far are in ``below``, ``(n + 1,)`` int64;
        the next call, given the states from that one on, goes on with it. With
        ``level[0] == -1`` the call starts ``states[0]``. Returns the subproblems finished.
        ``level``: ``(3,)`` int64 (see ``_profile_start``).
        """
        full = _full_mask(n)
        used = np.int64(0)
        done = 0
        while done < states.shape[0]:
            if level[0] < 0:
                for k in range(n + 1):
                    below[k] = 0
                near, above = _prefix_knight(variant, states[done], depth)
                _profile_start(full, depth, states[done, 0], states[done, 1], states[done, 2],
                               near, above, stack, level)
            used += _profile_cursor(n, limit, stack, level, below, max(budget - used, 1),
                                    variant)
            if level[0] >= 0:
                break
            for k in range(depth + 1, limit + 1):
                out[k] += weights[done] * below[k]
            done += 1
            if used >= budget:
                break
        return done

    return run


_profile_run = _profile_run_for(0)
_profile_torus_run = _profile_run_for(TORUS)
_profile_knight_run = _profile_run_for(KNIGHT)



@njit(**JIT)
def _count_below(n, full, row, cols, diag, anti, near, above, stack, variant):
    """The completions of the node of depth ``row`` whose masks are given (``near``,
    ``above``: its knights, see ``_common._prefix_knight``): an explicit-stack search down
    to the unrolled tail of ``TAIL_ROWS`` rows (or to the last row, for fewer rows).
    ``stack``, ``(n + 1, 4)`` int64, is work space."""
    rows = n - row
    if rows == 0:
        return np.int64(1)
    stop = TAIL_ROWS if rows >= TAIL_ROWS else 1  # rows left where the search ends
    if rows == stop:
        if stop == TAIL_ROWS:
            return _count_tail(variant, n, full, cols, diag, anti, near, above)
        return np.int64(1) if (~(cols | diag | anti | near) & full) != 0 else np.int64(0)
    count = np.int64(0)
    free = ~(cols | diag | anti | near) & full
    first_above = above
    sp = 0
    while True:
        if free != 0:
            bit, free = _lowest(free)
            next_cols, next_diag, next_anti = _down(variant, n, cols, diag, anti, bit)
            next_near = _knight(variant, bit, above)
            if rows - sp - 1 == stop:  # the child has ``stop`` rows left: count them
                if stop == TAIL_ROWS:
                    count += _count_tail(variant, n, full, next_cols, next_diag, next_anti,
                                         next_near, bit)
                elif (~(next_cols | next_diag | next_anti | next_near) & full) != 0:
                    count += 1
            else:
                sp = _push(stack, sp, free, cols, diag, anti)
                free = ~(next_cols | next_diag | next_anti | next_near) & full
                cols, diag, anti, above = next_cols, next_diag, next_anti, bit
        elif sp == 0:
            break
        else:
            sp, free, cols, diag, anti, above = _pop(variant, stack, sp, first_above)
    return count


def _probe_states_for(variant):
    """The kernel of an estimate's random probes on the board of ``variant`` (0, ``TORUS``
    or ``KNIGHT``), a constant of the kernel: each board's kernel compiles alone (see
    ``count._count_batch_for``)."""

    @njit_for(variant)
    def probe(n, states, depth, tail, first, n_probes, base, extra, rng, sums, squares):
        """Random probes ``first .. first + n_probes - 1`` of an estimate, below the subproblems
        ``states`` (``depth`` rows placed).

        Subproblem ``s`` has probes of its own, one after the other: ``base + 1`` for ``s <
        extra``, ``base`` after (``base >= 1``). A probe chooses one free square per row at
        random (``rng``, a ``numpy.random.Generator``) down to the last ``tail`` rows, which it
        counts exactly. Its value for depth ``k`` is the product of the numbers of free squares
        of the rows it chose in, times the exact nodes of depth ``k`` below where it stopped (0
        past a dead end).

        With ``sums`` and ``squares`` of shape ``(n_strata, 1)``, float64, a probe adds its value
        for depth ``n`` (the solutions) and its square to row ``s - s_first`` (``s_first``: the
        subproblem of probe ``first``); of shape ``(n_strata, n + 1)``, its value for every depth
        ``k`` to column ``k`` (those of depths ``<= depth`` stay 0).
        """
        full = _full_mask(n)
        levels = sums.shape[1] > 1
        stack = np.empty((n + 1, 4), dtype=np.int64)
        below = np.zeros(n + 1, dtype=np.int64)
        value = np.zeros(n + 1, dtype=np.float64)
        big = extra * (base + 1)  # the probes of the subproblems that have one more
        if first < big:
            s = first // (base + 1)
            left = base + 1 - first % (base + 1)
        else:
            s = extra + (first - big) // base
            left = base - (first - big) % base
        s_first = s
        for _ in range(n_probes):
            if left == 0:
                s += 1
                left = base + 1 if s < extra else base
            left -= 1
            cols = states[s, 0]
            diag = states[s, 1]
            anti = states[s, 2]
            near, above = _prefix_knight(variant, states[s], depth)
            weight = 1.0
            row = depth
            if levels:
                for k in range(n + 1):
                    value[k] = 0.0
            while n - row > tail:
                free = ~(cols | diag | anti | near) & full
                choices = _popcount(free)
                if choices == 0:
                    weight = 0.0
                    break
                for _ in range(np.int64(rng.random() * choices)):
                    free &= free - 1  # drop the lowest free squares before the chosen one
                bit = free & -free
                weight *= choices
                near = _knight(variant, bit, above)
                if variant & KNIGHT:
                    above = bit
                cols, diag, anti = _down(variant, n, cols, diag, anti, bit)
                row += 1
                if levels:
                    value[row] = weight
            i = s - s_first
            if levels:
                if weight != 0.0:
                    for k in range(n + 1):
                        below[k] = 0
                    _profile_below(n, row, n, cols, diag, anti, near, above, stack, below, variant)
                    for k in range(row + 1, n + 1):
                        value[k] = weight * below[k]
                for k in range(depth + 1, n + 1):
                    sums[i, k] += value[k]
                    squares[i, k] += value[k] * value[k]
            else:
                if weight != 0.0:
                    weight *= _count_below(n, full, row, cols, diag, anti, near, above, stack,
                                           variant)
                sums[i, 0] += weight
                squares[i, 0] += weight * weight


    return probe


_probe_states = _probe_states_for(0)
_probe_torus_states = _probe_states_for(TORUS)
_probe_knight_states = _probe_states_for(KNIGHT)
