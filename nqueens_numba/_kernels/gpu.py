"""The CUDA kernels of a count (numba-cuda), loaded only when a count runs on a GPU.

Importing this module imports ``numba.cuda``; nothing else of the package does until a GPU
is asked for. numba-cuda 0.30 calls ``numpy.row_stack``, which NumPy 2.5 removed (it was
an alias of ``numpy.vstack``): :func:`numpy_shim` puts the alias back, before
``numba.cuda`` is first imported, so that the pair works. It changes nothing on a NumPy
that still has ``row_stack``.

The kernels count the same subproblems as the CPU kernels (``count``, ``symmetric``), from
the same states, ``(n_states, 3 + depth)`` int64 (see ``_common``), and write each
subproblem's results in its own row, with the CPU kernel's width and meaning: one count
(mirror halving, and the count with allowed squares), or the six counts of the symmetric
search (``_split.SYMMETRIC_RESULTS``). So a checkpoint holds the same rows whichever
device counted them.

* One launch counts ``count`` subproblems, ``todo[first:first + count]``. Each GPU thread
  takes the next one from an atomic counter (``counter[0]``) and searches it whole, so the
  uneven subtrees keep every thread busy to the end; a launch is bounded by the subproblems
  it is given (the caller sizes it to about a second of work).
* The search is the explicit-stack depth-first search of the CPU kernels, without the
  unrolled tail: the levels of the stack (``free, cols, diag, anti`` of each row above the
  current one) are in shared memory, laid out as ``[level * blockDim + threadIdx]``, so
  that the 32 threads of a warp read 32 consecutive words (no bank conflicts). The stack
  holds ``int32`` words when the masks fit (``n <= 31``), else ``int64``, and so do the
  search's registers: numba types integer arithmetic as ``int64``, so each mask is cast
  back to the word type (``word(...)``) where it is computed, and the compiler keeps the
  arithmetic in 32 bits (64-bit logic and shifts take two instructions on a GPU).
* The plain count reads no allowed squares (they are all ones): only the count with
  constraints (``allowed``) reads ``allow`` at each step.
* No thread adds into a shared total: each subproblem's row is written once, by the thread
  that searched it, which is what checkpoints need (a sum per block would lose which
  subproblems are done). Its first column is written last, after a system-wide fence: the
  host, which reads the rows while the launch runs (``out`` may be mapped host memory, its
  first column -1 on entry), takes a row whose first column is set as finished.
* A launch stops early when ``stop[0]`` (device memory, which the host sets during the
  launch) is not 0: a thread looks (an atomic read) when it takes its first subproblem and
  every 16th after (numba's simulator makes atomics slow; on a GPU 16 subproblems of a
  board with at most ``STOP_ROWS`` rows left take milliseconds), and on its way back up to
  a level with at least ``STOP_ROWS`` rows below it (rare steps: a few times a second even
  on large boards); the subproblems it leaves are not written (and are counted again later,
  whole).

Kernels are built by factories, one per stack size, block size, word type, register cap and board
(``KNIGHT``: superqueens; ``TORUS``: toroidal queens, by least steps), each cached:
numba-cuda compiles a kernel on its first launch. The orbit check of the symmetric search
and the weight of a toroidal solution are the CPU kernels' own Python, compiled for the
device.
"""
import functools

import numpy as np


def numpy_shim():
    """Give NumPy back ``row_stack`` (an alias of ``vstack``, removed in NumPy 2.5) if it is
    missing: numba-cuda 0.30 still calls it. Returns whether it was added."""
    if hasattr(np, "row_stack"):
        return False
    np.row_stack = np.vstack
    return True


numpy_shim()

from numba import cuda  # noqa: E402  (after the shim)

from ._common import _weigh_steps  # noqa: E402
from ._sizes import KNIGHT, TORUS  # noqa: E402
from .symmetric import _orbit_size_if_representative  # noqa: E402

__all__ = ["cuda", "numpy_shim", "launch_shape", "STACK_BYTES"]

#: Shared memory a block's stacks may take (bytes): the 48 KiB every CUDA device gives a
#: block without opting in.
STACK_BYTES = 48 * 1024

#: A thread looks at the launch's stop flag on its way back up to a level with at least this
#: many rows below it (a subtree of 12 rows takes milliseconds to a tenth of a second).
STOP_ROWS = 12


def _stop_level(levels):
    """The levels (``sp``) below which a step back up looks at the stop flag (none when a
    whole subproblem has at most ``STOP_ROWS`` rows: its thread looks before the next)."""
    return levels - STOP_ROWS


def _python(kernel):
    """The Python function of a CPU kernel (itself when numba's JIT is disabled)."""
    return getattr(kernel, "py_func", kernel)


# Plain arithmetic on small arrays, compiled from the CPU kernels' own source: the orbit check
# of the symmetric search's rare leaves and the weight of a toroidal solution.
_gpu_orbit_size = cuda.jit(device=True)(_python(_orbit_size_if_representative))
_gpu_weigh_steps = cuda.jit(device=True)(_python(_weigh_steps))


@cuda.jit(device=True)
def _gpu_full(n):
    """The ``n`` board columns, ``1 <= n <= 63``, without overflowing ``int64`` on the way
    at ``n = 63`` (the simulator checks)."""
    return ((np.int64(1) << (n - 1)) - 1) * 2 + 1


@cuda.jit(device=True)
def _gpu_row_allow(n, row, b):
    """``symmetric._row_allow`` on the device: the columns the symmetric search allows in
    ``row`` below a first-row queen in column ``b``."""
    m = n - 1
    full = _gpu_full(n)
    side = np.int64(1) | (np.int64(1) << m)
    if row == m:
        near = (np.int64(1) << (b + 1)) - 1
        return near | (near << (m - b))
    if row == 1 and 2 * b == m:
        return (np.int64(1) << b) - 1
    if b < row and row < m - b:
        return full & ~side
    return full


@cuda.jit(device=True)
def _gpu_prefix_knight(states, i, depth, knight):
    """``(near, above)`` below subproblem ``i`` (``_common._prefix_knight``): the squares of
    row ``depth`` its knights attack and the queen of row ``depth - 1`` (0 unless
    ``knight``)."""
    if knight and depth >= 1:
        above = np.int64(1) << states[i, 3 + depth - 1]
        higher = np.int64(0)
        if depth >= 2:
            higher = np.int64(1) << states[i, 3 + depth - 2]
        return (above << 2) | (above >> 2) | (higher << 1) | (higher >> 1), above
    return np.int64(0), np.int64(0)


@cuda.jit(device=True)
def _gpu_column(bit):
    """The column of the single square of ``bit`` (the rare leaves only)."""
    c = 0
    while (bit >> c) != 1:
        c += 1
    return c


@cuda.jit(device=True)
def _gpu_steps_near(n, full, band, column):
    """``_common._steps_near`` on the device: the squares of the next row closer than the
    least step (``band``) to a queen in ``column``, round the torus."""
    return ~((band << column) | (band >> (n - column))) & full


@cuda.jit(device=True)
def _gpu_push(s_free, s_cols, s_diag, s_anti, k, free, cols, diag, anti):
    """Save the registers of a level in the shared stacks at ``k``
    (``level * blockDim + threadIdx``): one step down of both GPU searches."""
    s_free[k] = free
    s_cols[k] = cols
    s_diag[k] = diag
    s_anti[k] = anti


@cuda.jit(device=True)
def _gpu_pop(s_free, s_cols, s_diag, s_anti, k):
    """The registers ``(free, cols, diag, anti)`` saved at ``k`` by :func:`_gpu_push`, in
    the stack's word type: one step back up."""
    return s_free[k], s_cols[k], s_diag[k], s_anti[k]


def _block_fits(levels, block, wide):
    """The block size (threads) whose stacks fit in ``STACK_BYTES``: ``block`` or less."""
    per_thread = 4 * max(levels, 1) * (8 if wide else 4)
    while block > 1 and per_thread * block > STACK_BYTES:
        block //= 2
    return block


def launch_shape(n, depth, block):
    """``(levels, block, wide)`` of a count of ``n`` from subproblems of ``depth`` rows:
    the stack levels a thread needs, the block size (at most ``block``) whose stacks fit in
    shared memory, and whether the stack needs ``int64`` words (``n > 31``)."""
    levels = max(1, n - 2 - depth)
    wide = n > 31
    return levels, _block_fits(levels, block, wide), wide


def _jit(registers):
    """numba-cuda's ``cuda.jit`` for a kernel of at most ``registers`` registers a thread
    (0: as many as the compiler takes; numba's simulator has no registers)."""
    from numba import config as numba_config

    if registers and not numba_config.ENABLE_CUDASIM:
        return cuda.jit(max_registers=int(registers))  # (a NumPy integer: ctypes refuses)
    return cuda.jit


@functools.lru_cache(maxsize=None)
def _count_kernel(levels, block, wide, registers, variant, allowed):
    """The halving count for stacks of ``levels`` levels and blocks of ``block`` threads;
    ``wide``: ``int64`` words; ``registers``: the most a thread takes (0: the compiler's
    choice); ``variant``: the board (0, ``KNIGHT``: superqueens, ``TORUS``: toroidal queens
    by least steps, see ``count``); ``allowed``: rows with allowed squares of their own
    (constraints)."""
    size = levels * block
    words = 4 * size  # free, cols, diag, anti of each level and thread
    word = np.int64 if wide else np.int32
    looks = _stop_level(levels)
    knight = bool(variant & KNIGHT)  # (constants of the kernel: the others' code is dropped)
    torus = bool(variant & TORUS)

    @_jit(registers)
    def _count_states(n, states, depth, allow, todo, first, count, counter, stop, out):
        """Count subproblems ``todo[first:first + count]`` of ``states``, ``(k, 3 + depth)``
        int64, with per-row allowed squares ``allow``, ``(n,)`` int64: ``out[j]`` (int64)
        gets the completions of ``todo[first + j]`` (on the torus, weighted as
        ``_common._steps_weight`` says). ``counter``: ``(1,)`` int64, 0 on entry;
        ``stop``: ``(1,)`` int64, not 0 to stop (see the module's docstring)."""
        stack = cuda.shared.array(words, word)  # one array: one base address
        s_free = stack[:size]
        s_cols = stack[size:2 * size]
        s_diag = stack[2 * size:3 * size]
        s_anti = stack[3 * size:]
        queens = cuda.local.array(64, np.int64)  # the torus's placement, row by row
        steps = cuda.local.array(64, np.int64)
        t = cuda.threadIdx.x
        full = word(_gpu_full(n))
        m = n - 1
        taken = 0  # (this thread's subproblems: it looks at the flag on every 16th)
        while True:
            j = cuda.atomic.add(counter, 0, 1)
            if j >= count or (taken & 15 == 0 and cuda.atomic.add(stop, 0, 0) != 0):
                break
            taken += 1
            i = todo[first + j]
            cols = word(states[i, 0])
            diag = word(states[i, 1] & full)
            anti = word(states[i, 2])
            near_prefix, above_prefix = _gpu_prefix_knight(states, i, depth, knight)
            near = word(near_prefix)
            above = word(above_prefix)
            band = full  # on the torus: the columns a least step from column 0
            if torus:
                for r in range(depth):
                    queens[r] = states[i, 3 + r]
                if depth >= 2:
                    band = word(full & ~_gpu_full(states[i, 4])
                                & _gpu_full(n - states[i, 4] + 1))
                if depth >= 1:
                    near = word(near | _gpu_steps_near(n, full, band,
                                                       states[i, 3 + depth - 1]))
            first_above = above
            total = np.int64(0)
            free = word(0)
            if depth >= n:  # the prefix is a solution
                total = np.int64(1)
                if torus:
                    total = _gpu_weigh_steps(queens, n, steps)
            else:
                free = word(~(cols | diag | anti | near) & full)
                if allowed:
                    free = word(free & allow[depth])
            if depth == m:  # the prefix leaves one row
                if torus:
                    free = word(free & band)
                    if free != 0:
                        queens[m] = _gpu_column(free)
                        total = _gpu_weigh_steps(queens, n, steps)
                elif free != 0:
                    total = np.int64(1)
                free = word(0)
            sp = np.int32(0)  # the level: row depth + sp
            last = np.int32(m - 1 - depth)  # the level whose next row is the last
            stopped = False
            while True:
                if free != 0:
                    bit = word(free & -free)
                    free = word(free ^ bit)
                    next_cols = word(cols | bit)
                    if torus:
                        d = diag | bit
                        a = anti | bit
                        next_diag = word(((d << 1) | (d >> m)) & full)
                        next_anti = word(((a >> 1) | (a << m)) & full)
                    else:
                        next_diag = word(((diag | bit) << 1) & full)
                        next_anti = word((anti | bit) >> 1)
                    next_free = word(~(next_cols | next_diag | next_anti) & full)
                    if allowed:
                        next_free = word(next_free & allow[depth + sp + 1])
                    if knight:
                        next_free = word(next_free & ~((bit << 2) | (bit >> 2) | (above << 1)
                                                       | (above >> 1)))
                    if torus:
                        column = _gpu_column(bit)
                        queens[depth + sp] = column
                        next_free = word(next_free & ~_gpu_steps_near(n, full, band, column))
                    if sp == last:
                        if torus:
                            next_free = word(next_free & band)  # a least step from column 0
                            if next_free != 0:
                                queens[m] = _gpu_column(next_free)
                                total += _gpu_weigh_steps(queens, n, steps)
                        elif next_free != 0:
                            total += 1
                    elif next_free != 0:
                        _gpu_push(s_free, s_cols, s_diag, s_anti, np.uint32(sp * block + t),
                                  free, cols, diag, anti)
                        sp = np.int32(sp + 1)
                        free, cols, diag, anti = next_free, next_cols, next_diag, next_anti
                        above = bit
                elif sp == 0:
                    break
                else:
                    sp = np.int32(sp - 1)
                    if sp < looks and cuda.atomic.add(stop, 0, 0) != 0:
                        stopped = True
                        break
                    free, cols, diag, anti = _gpu_pop(s_free, s_cols, s_diag, s_anti,
                                                      np.uint32(sp * block + t))
                    if knight:  # the queen of the row above: two saved column masks apart
                        above = first_above
                        if sp > 0:
                            above = word(cols ^ s_cols[(sp - 1) * block + t])
            if stopped:
                break
            out[j, 0] = total

    return _count_states


@functools.lru_cache(maxsize=None)
def _symmetric_kernel(levels, block, wide, registers, knight):
    """The D4-symmetric count for stacks of ``levels`` levels and blocks of ``block``
    threads; ``wide``: ``int64`` stack words; ``registers``: as :func:`_count_kernel`;
    ``knight``: superqueens."""
    size = levels * block
    words = 4 * size  # free, cols, diag, anti of each level and thread
    word = np.int64 if wide else np.int32
    looks = _stop_level(levels)

    @_jit(registers)
    def _count_symmetric_states(n, states, depth, todo, first, count, counter, stop, out):
        """The symmetric search of subproblems ``todo[first:first + count]`` of ``states``,
        ``(k, 3 + depth)`` int64, ``depth >= 2``: ``out[j]``, ``(6,)`` int64, gets the
        results of ``todo[first + j]`` as the CPU kernel counts them (leaves with 1 .. 4
        tied edges and trivial stabilizer, representatives of orbits of 4 and of 2; see
        ``symmetric``). ``counter``: ``(1,)`` int64, 0 on entry; ``stop``: ``(1,)`` int64,
        not 0 to stop (see the module's docstring).

        A leaf's tied edges: the top edge, a side queen in row ``b`` or ``n - 1 - b``
        (``b``: the first-row column; the side columns are empty between those rows, so
        the side queens placed there are read from two column masks), and the last queen
        in column ``n - 1 - b``. A leaf with that last queen whose row ``n - 2`` mirrors
        row 1 may be fixed by rot180: its placement is read back from the stack and
        compared with its images.
        """
        stack = cuda.shared.array(words, word)  # one array: one base address
        s_free = stack[:size]
        s_cols = stack[size:2 * size]
        s_diag = stack[2 * size:3 * size]
        s_anti = stack[3 * size:]
        queens = cuda.local.array(64, np.int32)
        inverse = cuda.local.array(64, np.int32)
        t = cuda.threadIdx.x
        m = n - 1
        taken = 0  # (this thread's subproblems: it looks at the flag on every 16th)
        while True:
            j = cuda.atomic.add(counter, 0, 1)
            if j >= count or (taken & 15 == 0 and cuda.atomic.add(stop, 0, 0) != 0):
                break
            taken += 1
            i = todo[first + j]
            b = states[i, 3]
            b2 = m - b
            e_prefix = 1  # the top edge, and the side queens of the prefix in rows b, b2
            if b < depth and (states[i, 3 + b] == 0 or states[i, 3 + b] == m):
                e_prefix += 1
            if b2 != b and b2 < depth and (states[i, 3 + b2] == 0 or states[i, 3 + b2] == m):
                e_prefix += 1
            ranged = b2 >= depth  # rows b .. b2 below the prefix: levels lo .. hi - 1
            lo = max(b, depth) - depth
            hi = b2 + 1 - depth
            mirror = word(np.int64(1) << (m - states[i, 4]))  # row n - 2 of a rot180 leaf
            ends = word(np.int64(1) << b2)
            c1 = np.int64(0)
            c2 = np.int64(0)
            c3 = np.int64(0)
            c4 = np.int64(0)
            o4 = np.int64(0)
            o2 = np.int64(0)
            full = word(_gpu_full(n))
            cols = word(states[i, 0])
            diag = word(states[i, 1] & full)
            anti = word(states[i, 2])
            near_prefix, above_prefix = _gpu_prefix_knight(states, i, depth, knight)
            near = word(near_prefix)
            above = word(above_prefix)
            first_above = above
            free = word(~(cols | diag | anti | near) & _gpu_row_allow(n, depth, b))
            # the squares the rows below allow (``_gpu_row_allow``; rows > 1): the last row,
            # the rows strictly between rows b and n - 1 - b, the others
            last_allow = word(_gpu_row_allow(n, m, b))
            inner = word(full & ~(np.int64(1) | (np.int64(1) << m)))
            sp = np.int32(0)  # the level: row depth + sp
            last = np.int32(m - 1 - depth)  # the level whose next row is the last
            inner_lo = np.int32(b - depth)  # the levels whose next row is inner
            inner_hi = np.int32(m - b - 1 - depth)
            stopped = False
            while True:
                if free != 0:
                    bit = word(free & -free)
                    free = word(free ^ bit)
                    next_cols = word(cols | bit)
                    next_diag = word(((diag | bit) << 1) & full)
                    next_anti = word((anti | bit) >> 1)
                    next_free = word(~(next_cols | next_diag | next_anti))
                    if knight:
                        next_free = word(next_free & ~((bit << 2) | (bit >> 2) | (above << 1)
                                                       | (above >> 1)))
                    if sp == last:
                        next_free = word(next_free & last_allow)
                        if next_free != 0:  # a leaf
                            e = e_prefix
                            if ranged:
                                before = next_cols
                                if lo < sp:
                                    before = s_cols[lo * block + t]
                                elif lo == sp:
                                    before = cols
                                after = next_cols
                                if hi < sp:
                                    after = s_cols[hi * block + t]
                                elif hi == sp:
                                    after = cols
                                placed = after ^ before
                                e += (placed & 1) + ((placed >> m) & 1)
                            fixed = False
                            if next_free == ends:
                                e += 1
                                if bit == mirror:  # maybe fixed by rot180: read it back
                                    for r in range(depth):
                                        queens[r] = states[i, 3 + r]
                                    for level in range(sp):
                                        below = cols
                                        if level + 1 < sp:
                                            below = s_cols[(level + 1) * block + t]
                                        queens[depth + level] = _gpu_column(
                                            below ^ s_cols[level * block + t])
                                    queens[m - 1] = _gpu_column(bit)
                                    queens[m] = b2
                                    fixed = True
                                    for r in range(n // 2):
                                        if queens[r] + queens[m - r] != m:
                                            fixed = False
                                    if fixed:
                                        for r in range(n):
                                            inverse[queens[r]] = r
                                        orbit = _gpu_orbit_size(n, queens, inverse)
                                        if orbit == 4:
                                            o4 += 1
                                        elif orbit == 2:
                                            o2 += 1
                            if not fixed:
                                if e == 1:
                                    c1 += 1
                                elif e == 2:
                                    c2 += 1
                                elif e == 3:
                                    c3 += 1
                                else:
                                    c4 += 1
                    else:
                        if inner_lo <= sp and sp < inner_hi:
                            next_free = word(next_free & inner)
                        else:
                            next_free = word(next_free & full)
                        if next_free != 0:
                            _gpu_push(s_free, s_cols, s_diag, s_anti,
                                      np.uint32(sp * block + t), free, cols, diag, anti)
                            sp = np.int32(sp + 1)
                            free, cols, diag, anti = (next_free, next_cols, next_diag,
                                                      next_anti)
                            above = bit
                elif sp == 0:
                    break
                else:
                    sp = np.int32(sp - 1)
                    if sp < looks and cuda.atomic.add(stop, 0, 0) != 0:
                        stopped = True
                        break
                    free, cols, diag, anti = _gpu_pop(s_free, s_cols, s_diag, s_anti,
                                                      np.uint32(sp * block + t))
                    if knight:  # the queen of the row above: two saved column masks apart
                        above = first_above
                        if sp > 0:
                            above = word(cols ^ s_cols[(sp - 1) * block + t])
            if stopped:
                break
            out[j, 1] = c2
            out[j, 2] = c3
            out[j, 3] = c4
            out[j, 4] = o4
            out[j, 5] = o2
            cuda.threadfence_system()  # (the first column last: the row is finished)
            out[j, 0] = c1

    return _count_symmetric_states


def _gpu_count(levels, block, wide, registers=0):
    """The halving count kernel of plain queens."""
    return _count_kernel(levels, block, wide, registers, 0, False)


def _gpu_allowed_count(levels, block, wide, registers=0):
    """The halving count kernel of plain queens with per-row allowed squares."""
    return _count_kernel(levels, block, wide, registers, 0, True)


def _gpu_torus_count(levels, block, wide, registers=0):
    """The count kernel of toroidal queens, by least steps (``TORUS``)."""
    return _count_kernel(levels, block, wide, registers, TORUS, False)


def _gpu_knight_count(levels, block, wide, registers=0):
    """The halving count kernel of superqueens (``KNIGHT``)."""
    return _count_kernel(levels, block, wide, registers, KNIGHT, False)


def _gpu_symmetric(levels, block, wide, registers=0):
    """The symmetric count kernel of plain queens."""
    return _symmetric_kernel(levels, block, wide, registers, False)


def _gpu_knight_symmetric(levels, block, wide, registers=0):
    """The symmetric count kernel of superqueens (``KNIGHT``)."""
    return _symmetric_kernel(levels, block, wide, registers, True)

