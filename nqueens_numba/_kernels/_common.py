"""What every kernel family shares: the JIT options, the full mask, the tail sizes, the tail
with per-row allowed squares.

Bitboards are ``int64``: bit ``c`` stands for column ``c`` (not ``uint64``: numba types
``uint64`` mixed with ``int64`` as ``float64``). A search state after the queens of rows
``0 .. row - 1`` are placed is three masks, each already shifted for ``row``:

* ``cols``: attacked columns;
* ``diag``: attacked diagonals (shifted left by one per row);
* ``anti``: attacked anti-diagonals (shifted right by one per row).

The free squares of ``row`` are ``~(cols | diag | anti) & full_mask`` and the lowest free square
is ``free & -free``. Placing the lowest square first makes every search below visit solutions in
lexicographic order of ``queens``. ``allow`` is always a bitboard of the squares a queen may take
(one per row: ``(n,)`` int64; all ones on a board without constraints).

A *states* array holds one subproblem per row: ``states[i] = (cols, diag, anti, q_0, ...,
q_{depth-1})``, ``int64``, where ``q_r`` is the column of the queen pre-placed in row ``r``.
"""
import numba
import numpy as np
from numba import njit

from ._sizes import KNIGHT, STEPS, TAIL_ROWS, TAIL_SOLUTIONS, TORUS

__all__ = ["JIT", "JIT_INLINE", "TAIL_ROWS", "TAIL_SOLUTIONS", "TORUS", "KNIGHT", "STEPS",
           "njit_for", "trailing_zeros"]

if numba.config.DISABLE_JIT:  # numba's debugging mode: the kernels run as Python

    def trailing_zeros(x):
        """The index of the lowest set bit of ``x`` (numba's intrinsic, in Python)."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:
    from numba.cpython.unsafe.numbers import trailing_zeros

#: JIT options of every kernel, in one place: compile once per machine (``cache``), release the
#: GIL while searching (the package runs kernels on a pool of Python threads, one batch of
#: subproblems per call). Integer work only: no fastmath.
JIT = dict(cache=True, nogil=True)

#: The same for the small helpers inlined into their callers in numba's IR: the unrolled tails
#: and the local-search moves, whose call overhead would show in the innermost loops.
JIT_INLINE = dict(JIT, inline="always")


def njit_for(*constants):
    """``njit(**JIT)`` for a kernel that a function makes per board (``_count_batch_for``),
    with the kernel's ``constants`` (its board's flag, whether it is constrained) appended to
    its qualified name (``_count_batch_for.<locals>.batch_1_0``).

    numba names a compiled function by its qualified name and a counter of the process that
    compiles it, and caches each board's kernel apart (by the closure's constants): two
    boards' kernels compiled first in two processes had the same symbol, and a process that
    loaded both from the cache ran one board's machine code with the other's environment
    ("returned a result with an exception set": ``'descr' is NULL``) or, where the two take
    the same arguments, could run the wrong board's search.
    """
    def decorate(func):
        func.__qualname__ += "_" + "_".join(str(int(c)) for c in constants)
        return njit(**JIT)(func)
    return decorate

#: Rows just above the tail whose returns a count's work budget leaves uncounted: a *step*
#: of the resumable counts is a return to a row above them (``count._count_cursor``).
_STEP_ROWS = 2

#: Steps between two reads of a count's ``signal`` (``count._count_cursor``): a read at
#: every step (10-110 ns each) slowed the symmetric count by a few per cent.
_SIGNAL_STEPS = 1024


@njit(**JIT_INLINE)
def _full_mask(n):
    """Bitboard with the ``n`` board columns set. (Inlined: a call in the torus's inner
    loops, where the diagonals rotate within it, made the count 25-35% slower.)"""
    return (np.int64(1) << np.int64(n)) - np.int64(1)


@njit(**JIT_INLINE)
def _down(variant, n, cols, diag, anti, bit):
    """The masks ``(cols, diag, anti)`` of the next row once a queen stands on ``bit``."""
    d = diag | bit
    a = anti | bit
    if variant & TORUS:
        full = _full_mask(n)
        return cols | bit, ((d << 1) | (d >> (n - 1))) & full, ((a >> 1) | (a << (n - 1))) & full
    return cols | bit, d << 1, a >> 1


@njit(**JIT_INLINE)
def _knight(variant, bit, above):
    """The squares of the next row a knight attacks from ``bit`` (this row) and ``above``
    (the row above; 0 if none): 0 unless ``variant`` has ``KNIGHT``."""
    if variant & KNIGHT:
        return (bit << 2) | (bit >> 2) | (above << 1) | (above >> 1)
    return np.int64(0)


@njit(**JIT_INLINE)
def _push(stack, sp, free, cols, diag, anti):
    """Save the registers of level ``sp`` (``free`` and the masks) in ``stack[sp]``, shape
    ``(4,)`` int64, and return ``sp + 1``: one step down of every explicit-stack search."""
    stack[sp, 0] = free
    stack[sp, 1] = cols
    stack[sp, 2] = diag
    stack[sp, 3] = anti
    return sp + 1


@njit(**JIT_INLINE)
def _registers(variant, stack, sp, first_above):
    """The registers of level ``sp`` saved by ``_push``: ``(free, cols, diag, anti, above)``,
    ``above`` being the queen of the row above level ``sp`` with ``KNIGHT`` (the difference of
    two ``cols``; ``first_above`` at level 0), else 0. One step back up of every search."""
    cols = stack[sp, 1]
    above = np.int64(0)
    if variant & KNIGHT:
        above = cols & ~stack[sp - 1, 1] if sp > 0 else first_above
    return stack[sp, 0], cols, stack[sp, 2], stack[sp, 3], above


@njit(**JIT_INLINE)
def _pop(variant, stack, sp, first_above):
    """One step back up: ``(sp - 1, free, cols, diag, anti, above)``, the level above ``sp``
    and its registers (``_registers``)."""
    free, cols, diag, anti, above = _registers(variant, stack, sp - 1, first_above)
    return sp - 1, free, cols, diag, anti, above


@njit(**JIT_INLINE)
def _lowest(free):
    """``(bit, rest)``: the lowest square of the bitboard ``free`` and the others, the order
    in which every search tries its squares."""
    bit = free & -free
    return bit, free ^ bit


@njit(**JIT)
def _save_stack(saved, stack, sp):
    """Copy levels ``0 .. sp`` of ``stack`` into ``saved``, both ``(n + 1, 4)`` int64: the
    resumable searches run on a copy of their cursor's stack in an array of their own, and
    write it back (searching the argument itself made the count 4-8% slower; loops: slice
    copies were slower)."""
    for j in range(sp + 1):
        for k in range(4):
            saved[j, k] = stack[j, k]


@njit(**JIT)
def _save_cursor(saved, stack, sp, level):
    """Write a resumable search's cursor back: levels ``0 .. sp`` of its ``stack`` into
    ``saved`` and ``sp`` into ``level[0]`` (-1: the search is over)."""
    _save_stack(saved, stack, sp)
    level[0] = sp


@njit(**JIT)
def _steps_band(n, m):
    """The columns ``m .. n - m``: those at least ``m`` columns, either way round the torus,
    from column 0 (``STEPS``)."""
    return _full_mask(n - m + 1) & ~_full_mask(m)


@njit(**JIT_INLINE)
def _steps_near(variant, n, band, bit):
    """The squares of the next row closer than the least step to the queen on ``bit``: those
    outside ``band`` (``_steps_band``) turned round the torus to ``bit``'s column. 0 unless
    ``variant`` has ``STEPS``."""
    if variant & STEPS:
        t = trailing_zeros(bit)
        full = _full_mask(n)
        return ~((band << t) | (band >> (n - t))) & full
    return np.int64(0)


@njit(**JIT)
def _steps_weight(queens, n):
    """What a toroidal solution found by the count by least steps stands for (``STEPS``).

    ``queens``: ``(n,)`` int64 (or longer), the solution, with ``queens[0] == 0``. Returns 0
    unless its steps ``d_i = queens[i + 1] - queens[i] mod n`` (cyclically) are the least,
    in lexicographic order, of their ``n`` rotations and ``n`` negations (``d -> n - d``):
    then ``2 n / s`` (``s``: how many of those leave them as they are), the solutions with
    column 0 in the first row whose steps are one of them.
    """
    return _weigh_steps(queens, n, np.empty(n, dtype=np.int64))


@njit(**JIT)
def _weigh_steps(queens, n, steps):
    """``_steps_weight``, with ``steps``, ``(n,)`` int64 or longer, as scratch: plain
    arithmetic that numba compiles here for the CPU and numba-cuda for the GPU (``gpu``)."""
    for i in range(n):
        steps[i] = (queens[(i + 1) % n] - queens[i] + n) % n
    m = steps[0]
    for i in range(n):
        if steps[i] < m or steps[i] > n - m:
            return np.int64(0)
    same = np.int64(0)
    for r in range(n):
        for flip in range(2):  # the rotation by ``r``, then its negation
            if (n - steps[r] if flip else steps[r]) % n != m:
                continue  # it does not start with ``m``
            order = 0
            for j in range(n):
                v = steps[(r + j) % n]
                if flip:
                    v = (n - v) % n
                if v != steps[j]:
                    order = -1 if v < steps[j] else 1
                    break
            if order < 0:
                return np.int64(0)
            same += order == 0
    return 2 * n // same


@njit(**JIT)
def _prefix_knight(variant, state, depth):
    """``(near, above)`` below the subproblem ``state`` (``depth`` rows placed): the squares
    of row ``depth`` its knights attack, and the bitboard of the queen of row ``depth - 1``
    (0 on the first row, and both 0 unless ``variant`` has ``KNIGHT``)."""
    if variant & KNIGHT and depth >= 1:
        above = np.int64(1) << state[3 + depth - 1]
        higher = np.int64(1) << state[3 + depth - 2] if depth >= 2 else np.int64(0)
        return _knight(variant, above, higher), above
    return np.int64(0), np.int64(0)


@njit(**JIT_INLINE)
def _count_allowed_tail(cols, diag, anti, allow0, allow1, allow2, allow3, tie0, tie1, tie2,
                        ends, variant, n, near, above):
    """The last ``TAIL_ROWS`` (4) rows of a search with allowed squares, as nested loops.

    ``cols``, ``diag`` and ``anti`` are the masks of the first tail row; tail row ``t`` may
    use only the squares of ``allow<t>`` (``allow3``: the last row). In the
    symmetric search a tail row ``t`` holding a square of ``tie<t>`` is a tie, and so is a
    last queen on ``ends``. On the board of ``variant`` (a literal), ``near`` holds the
    squares of the first tail row that knights attack and ``above`` the queen of the row
    above the tail (with ``KNIGHT``; else 0).

    Returns ``(n_leaves, n_one, n_two)``: the leaves, and those with at least one and with
    two ties in the tail.
    """
    n_leaves = np.int64(0)
    n_one = np.int64(0)
    n_two = np.int64(0)
    f0 = ~(cols | diag | anti | near) & allow0
    while f0 != 0:
        b0 = f0 & -f0
        f0 ^= b0
        c0, d0, a0 = _down(variant, n, cols, diag, anti, b0)
        t0 = b0 & tie0
        f1 = ~(c0 | d0 | a0 | _knight(variant, b0, above)) & allow1
        while f1 != 0:
            b1 = f1 & -f1
            f1 ^= b1
            c1, d1, a1 = _down(variant, n, c0, d0, a0, b1)
            t1 = t0 | (b1 & tie1)
            f2 = ~(c1 | d1 | a1 | _knight(variant, b1, b0)) & allow2
            while f2 != 0:
                b2 = f2 & -f2
                f2 ^= b2
                c2, d2, a2 = _down(variant, n, c1, d1, a1, b2)
                last = ~(c2 | d2 | a2 | _knight(variant, b2, b1)) & allow3
                side_tie = (t1 | (b2 & tie2)) != 0
                # a leaf with a tie in the tail: its last queen on ``ends``, or any last
                # queen after a side tie
                tie_squares = allow3 if side_tie else ends
                n_leaves += last != 0
                n_one += (last & tie_squares) != 0
                n_two += side_tie & ((last & ends) != 0)
    return n_leaves, n_one, n_two


@njit(**JIT_INLINE)
def _count_tail(variant, n, full, cols, diag, anti, near, above):
    """The leaves of ``_count_allowed_tail`` with every square allowed and no ties: the ways
    to complete the last ``TAIL_ROWS`` (4) rows from the given masks (``near``, ``above``: as
    there). The ties' sums are constants of the inlined loops, which the compiler drops."""
    n_leaves, _, _ = _count_allowed_tail(cols, diag, anti, full, full, full, full, 0, 0, 0, 0,
                                         variant, n, near, above)
    return n_leaves
