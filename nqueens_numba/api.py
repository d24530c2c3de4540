"""Public entry points: validate the arguments, run the kernels, build NumPy results."""
import json
import operator
import os
import queue
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from . import _kernels, _runner, config, export, symmetry
from ._files import check_target
from .constraints import check_constraints
from .render import exact_int_array, to_boards

__all__ = [
    "count_solutions",
    "first_row_counts",
    "solve",
    "boards",
    "is_solution",
    "fundamental_solutions",
    "symmetry_classes",
    "iter_solutions",
    "save_solutions",
    "trace",
]

#: Counting methods: mirror halving, and the D4-symmetric search.
METHODS = ("halving", "symmetric")
#: What each subproblem of the symmetric search records (``_count_symmetric_states``).
SYMMETRIC_RESULTS = ("leaves with 1 tied edge", "2 tied edges", "3 tied edges",
                     "4 tied edges", "orbits of 4", "orbits of 2")


# --------------------------------------------------------------------------- validation


def _check_int(value, name):
    """Return ``value`` as a Python int; ``TypeError`` unless it is an integer.

    Accepts ``int`` (and subclasses) and NumPy integer scalars; rejects ``bool``,
    ``numpy.bool_``, ``numpy.timedelta64`` and everything else.
    """
    if (isinstance(value, (bool, np.bool_, np.timedelta64))
            or not isinstance(value, (int, np.integer))):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    return operator.index(value)


def _check_n(n):
    """Validate a board order for the bitboard search: an integer in ``0..MAX_N``."""
    n = _check_int(n, "n")
    if not 0 <= n <= config.MAX_N:
        raise ValueError(
            f"n must be in the range 0..{config.MAX_N} (the int64 bitboard limit), got {n}"
        )
    return n


def _check_limit(limit):
    """Validate ``limit``: ``None`` or a non-negative integer."""
    if limit is None:
        return None
    limit = _check_int(limit, "limit")
    if limit < 0:
        raise ValueError(f"limit must be a non-negative integer (0 or more), got {limit}")
    return limit


def _check_threads(n_threads):
    """Validate ``n_threads``: ``None`` (all of numba's threads) or ``1..NUMBA_NUM_THREADS``."""
    most = numba.config.NUMBA_NUM_THREADS
    if n_threads is None:
        return most
    n_threads = _check_int(n_threads, "n_threads")
    if not 1 <= n_threads <= most:
        raise ValueError(
            f"n_threads must be in the range 1..{most} (numba.config.NUMBA_NUM_THREADS), "
            f"got {n_threads}"
        )
    return n_threads


def _check_method(method):
    """Validate ``method``: ``None`` (automatic) or one of :data:`METHODS`."""
    if method is None or (isinstance(method, str) and method in METHODS):
        return method
    raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))} or None, "
                     f"got {method!r}")


def _check_flag(value, name):
    """Validate a boolean flag (``bool`` or ``numpy.bool_``)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def _check_max_bytes(max_bytes):
    """Validate ``max_bytes``: ``None`` (a share of available memory) or an integer >= 0."""
    if max_bytes is None:
        available = _available_memory()
        return None if available is None else int(config.MEMORY_FRACTION * available)
    max_bytes = _check_int(max_bytes, "max_bytes")
    if max_bytes < 0:
        raise ValueError(f"max_bytes must be a non-negative integer, got {max_bytes}")
    return max_bytes


def _available_memory():
    """Bytes of memory available to this process now, or ``None`` if unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _check_result_size(n, rows, max_bytes):
    """``MemoryError`` before allocating ``rows`` solutions of ``n`` bytes beyond the limit."""
    size = rows * n
    if max_bytes is not None and size > max_bytes:
        raise MemoryError(
            f"the result would take {size:,} bytes ({rows:,} solutions of {n} bytes), more "
            f"than max_bytes={max_bytes:,} (by default {config.MEMORY_FRACTION:.0%} of the "
            f"available memory); stream them with iter_solutions({n}) or "
            f"save_solutions(path, {n}), count them with count_solutions({n}), or take the "
            f"first k with limit=k"
        )


# --------------------------------------------------------------------------- the split


def _split_target(n, n_threads):
    """Subproblems a count of ``n`` should have: enough per thread, small enough each."""
    total = _known_total(n)
    per = config.SOLUTIONS_PER_SUBPROBLEM
    by_size = config.MAX_SUBPROBLEMS if total is None else -(-total // per)
    return min(max(config.TASKS_PER_THREAD * n_threads, by_size), config.MAX_SUBPROBLEMS)


def _no_constraints(n):
    """Per-row allowed squares of an unconstrained board: ``(n,)`` int64, all ones."""
    return np.full(max(n, 1), (1 << n) - 1 if n < 64 else -1, dtype=np.int64)


def _prefix_states(enumerate_kernel, n, depth, *args):
    """The prefix states of ``depth`` rows; ``ValueError`` past ``config.MAX_SUBPROBLEMS``."""
    states, found = enumerate_kernel(n, depth, *args, config.MAX_SUBPROBLEMS)
    if found > config.MAX_SUBPROBLEMS:
        raise ValueError(
            f"prefix_depth={depth} makes more than {config.MAX_SUBPROBLEMS:,} subproblems for "
            f"n={n} (config.MAX_SUBPROBLEMS); choose a smaller prefix_depth")
    return states


def _grow_split(enumerate_depth, shallowest, deepest, target):
    """Prefix states of increasing depth until there are ``target`` of them.

    Stops at ``deepest``, or before a depth whose states would exceed
    ``config.MAX_SUBPROBLEMS``. Returns ``(states, depth)``.
    """
    depth = shallowest
    states = enumerate_depth(depth)
    while len(states) < target and depth < deepest:
        try:
            states = enumerate_depth(depth + 1)
        except ValueError:  # too many subproblems at the next depth
            break
        depth += 1
    return states, depth


def _depth_range(n, method):
    """Allowed ``prefix_depth`` of a count: ``(low, high)``, empty when ``low > high``."""
    if method == "halving":
        return 1, max(1, n - 1)
    return 2, n - _kernels.TAIL_ROWS - 1  # two rows above the symmetric kernel's tail


def _check_prefix_depth(prefix_depth, n, method):
    """Validate ``prefix_depth`` for a count of ``n`` by ``method``."""
    if prefix_depth is None:
        return None
    prefix_depth = _check_int(prefix_depth, "prefix_depth")
    low, high = _depth_range(n, method)
    if low > high:
        raise ValueError(f"prefix_depth cannot be set for n={n} with method={method!r}: the "
                         f"symmetric count of boards under 7 enumerates their solutions")
    if not low <= prefix_depth <= high:
        raise ValueError(f"prefix_depth must be in the range {low}..{high} for n={n} with "
                         f"method={method!r}, got {prefix_depth}")
    return prefix_depth


def _split(n, n_threads, prefix_depth=None):
    """Subproblems of the mirror-halved search of an ``n``-board, ``1 <= n <= MAX_N``.

    The queen of row 0 is placed in the left half of its row (and the middle column for odd
    ``n``); the prefix grows one row at a time (see :func:`_split_target`) unless
    ``prefix_depth`` fixes it. Returns ``(states, depth)``: see :mod:`nqueens_numba._kernels`.
    """
    low, high = _depth_range(n, "halving")

    def enumerate_depth(depth):
        return _prefix_states(_kernels._enumerate_prefixes, n, depth, (n + 1) // 2,
                              _no_constraints(n))

    if prefix_depth is not None:
        return enumerate_depth(prefix_depth), prefix_depth
    return _grow_split(enumerate_depth, low, min(high, config.MAX_SPLIT_DEPTH),
                       _split_target(n, n_threads))


def _symmetric_split(n, n_threads, prefix_depth=None):
    """Subproblems of the D4-symmetric search of an ``n``-board, ``n >= 7``.

    Prefixes of at least two rows (the second row of a first-row queen in the middle column
    is restricted to its left half) and at most ``n - TAIL_ROWS - 1``, so that the kernel's
    unrolled tail fits below; grown like :func:`_split`.
    """
    low, high = _depth_range(n, "symmetric")

    def enumerate_depth(depth):
        return _prefix_states(_kernels._enumerate_symmetric_prefixes, n, depth)

    if prefix_depth is not None:
        return enumerate_depth(prefix_depth), prefix_depth
    return _grow_split(enumerate_depth, low, max(low, min(high, config.MAX_SPLIT_DEPTH)),
                       _split_target(n, n_threads))


def _mirror_weights(n, first_columns):
    """2 for a first-row column in the left half (its mirror image is not searched), else 1."""
    return np.where(2 * first_columns < n - 1, 2, 1)


def _is_small(n):
    """Counts this small run in one kernel call in the calling thread."""
    total = _known_total(n)
    return total is not None and total <= config.DIRECT_SOLUTIONS


def _count_split(n, n_threads, prefix_depth=None, progress=False, checkpoint=None):
    """Per-subproblem counts of the mirror-halved search: ``(states, depth, counts)``."""
    states, depth = _split(n, n_threads, prefix_depth)
    split = _runner.split_id(n, "halving", depth, states) if checkpoint is not None else None
    counts = _runner.run_subproblems(
        _kernels._count_states, n, states, depth, 1, n_threads, progress=progress,
        checkpoint=checkpoint, split=split, direct=_is_small(n), label="count")
    return states, depth, counts[:, 0]


def _orbit_counts(n, n_threads, prefix_depth=None, progress=False, checkpoint=None):
    """Number of D4 orbits of solutions by orbit size: ``{1: a, 2: b, 4: c, 8: d}``.

    Kernel ``_count_symmetric_states`` for ``n >= 7``; for smaller boards the solutions are
    enumerated and classified with :mod:`nqueens_numba.symmetry`.
    """
    if n < _kernels.TAIL_ROWS + 3:  # the kernel needs two prefix rows above its tail
        sols = solve(n, n_threads=n_threads)
        canonical = sols[symmetry.is_canonical(sols)] if len(sols) else sols
        sizes = symmetry.orbit_size(canonical) if len(canonical) else np.zeros(0, np.int64)
        return {size: int(np.count_nonzero(sizes == size)) for size in (1, 2, 4, 8)}
    states, depth = _symmetric_split(n, n_threads, prefix_depth)
    split = None
    if checkpoint is not None:
        split = _runner.split_id(n, "symmetric", depth, states, SYMMETRIC_RESULTS)
    counts = _runner.run_subproblems(
        _kernels._count_symmetric_states, n, states, depth, len(SYMMETRIC_RESULTS), n_threads,
        progress=progress, checkpoint=checkpoint, split=split, direct=_is_small(n),
        label="count")
    return _orbits_from_leaves(counts)


def _orbits_from_leaves(counts):
    """Orbits by size from the per-subproblem rows of ``_count_symmetric_states``.

    An orbit of 8 with ``e`` tied edges has ``e`` images among the leaves, so column
    ``e - 1``, summed, is a multiple of ``e``; anything else is an internal error.
    """
    if len(counts) and int(counts.max()) >= 2**62 // len(counts):  # int64 could overflow
        sums = [sum(int(c) for c in counts[:, j]) for j in range(counts.shape[1])]
    else:
        sums = [int(c) for c in counts.sum(axis=0)]
    orbits8 = 0
    for e in range(1, 5):
        if sums[e - 1] % e:
            raise RuntimeError(f"internal error: {sums[e - 1]} leaves with {e} tied edges is "
                               f"not a multiple of {e}")
        orbits8 += sums[e - 1] // e
    return {1: 0, 2: sums[5], 4: sums[4], 8: orbits8}


def _count_from_orbits(orbits, fundamental):
    """The fundamental count (orbits) or the total count (their sizes summed)."""
    if fundamental:
        return sum(orbits.values())
    return sum(size * count for size, count in orbits.items())


def _checkpoint_depth(checkpoint, n, method):
    """The prefix depth a checkpoint file was written with, if it is one for this count."""
    if checkpoint is None or not os.path.isfile(checkpoint):
        return None  # none yet, or not a regular file (Checkpoint reports it)
    try:
        with open(checkpoint, encoding="utf-8") as file:
            split = json.load(file).get("split", {})
        if split.get("n") == n and split.get("method") == method:
            depth = split.get("prefix_depth")
            low, high = _depth_range(n, method)
            if type(depth) is int and low <= depth <= high:
                return depth
    except (OSError, ValueError, AttributeError, RecursionError):
        pass  # a damaged file: Checkpoint reports it
    return None


def _constrained_split(n, n_threads, cons, prefix_depth=None, halving=True):
    """Subproblems of a constrained board: ``(states, depth, halved)``.

    Mirror halving applies when the constraints look the same in a left-right mirror
    (``halving`` asks for it); otherwise every first-row column is searched.
    """
    halved = halving and cons.mirror_symmetric
    first_limit = (n + 1) // 2 if halved else n

    def enumerate_depth(depth):
        return _prefix_states(_kernels._enumerate_prefixes, n, depth, first_limit, cons.allow)

    if prefix_depth is not None:
        return enumerate_depth(prefix_depth), prefix_depth, halved
    low, high = _depth_range(n, "halving")
    states, depth = _grow_split(enumerate_depth, low, min(high, config.MAX_SPLIT_DEPTH),
                                _split_target(n, n_threads))
    return states, depth, halved


def _count_constrained(n, n_threads, cons, prefix_depth=None, progress=False,
                       checkpoint=None):
    """Total count of the solutions that satisfy ``cons`` (kernel ``_count_masked_states``)."""
    if n == 0:
        return 1
    states, depth, halved = _constrained_split(n, n_threads, cons, prefix_depth)
    split = None
    if checkpoint is not None:
        split = _runner.split_id(n, "halving", depth, states)
        split["constraints_sha256"] = cons.sha256

    def kernel(n_, batch, depth_):
        return _kernels._count_masked_states(n_, batch, depth_, cons.allow)

    counts = _runner.run_subproblems(kernel, n, states, depth, 1, n_threads, progress=progress,
                                     checkpoint=checkpoint, split=split, direct=_is_small(n),
                                     label="count")[:, 0]
    weights = _mirror_weights(n, states[:, 3]) if halved else np.ones(len(states), np.int64)
    return sum(int(w) * int(c) for w, c in zip(weights, counts))


# --------------------------------------------------------------------------- counting


def count_solutions(n, *, n_threads=None, method=None, fundamental=False, prefix_depth=None,
                    progress=False, checkpoint=None, preplaced=None, blocked=None):
    """Total number of solutions of the n-queens problem (OEIS A000170), or of fundamental ones.

    Two explicit-stack depth-first searches over ``int64`` bitboards:

    * ``"halving"`` (kernel ``_count_states``): only the left half of the first row is
      searched and its count doubled (mirror symmetry); for odd ``n`` the middle column is
      searched once.
    * ``"symmetric"`` (kernel ``_count_symmetric_states``): of each D4 orbit only the
      images whose first-row queen is at least as far from a corner as every other edge
      queen are searched (masks keep the side columns empty in the middle rows and the last
      queen near a corner, which cuts the other images early). An orbit of 8 has one such
      image per edge whose queen is that far from a corner, so each leaf counts for the
      inverse of that number; the rare leaves fixed by ``rot180`` (orbits of 4 and 2) are
      compared with their images. One pass gives the orbits by size, hence the fundamental
      count and the total. About 38% of the halving search's time.

    The search is split into subproblems by pre-placing the first ``prefix_depth`` rows:
    many more subproblems than threads, each small (see ``config.TASKS_PER_THREAD`` and
    ``config.SOLUTIONS_PER_SUBPROBLEM``). A pool of ``n_threads`` threads takes batches of
    them as it goes, so no thread idles while others work; each subproblem's count goes to
    its own slot and Python sums the slots as exact integers.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``. Any Python or NumPy integer.
    n_threads : int, optional
        Threads for this call, ``1 .. numba.config.NUMBA_NUM_THREADS`` (set that with the
        ``NUMBA_NUM_THREADS`` environment variable); all of them by default.
    method : {None, "halving", "symmetric"}, optional
        The search to use. ``None`` picks ``"symmetric"`` for ``n >= 7``
        (``config.SYMMETRIC_MIN_N``, from where it is faster) and ``"halving"`` below. Both
        give the same totals.
    fundamental : bool, optional
        Count fundamental solutions (D4 orbits, OEIS A002562) instead of all solutions.
        Needs the symmetric search; ``n = 0`` gives 1 (the empty board).
    prefix_depth : int, optional
        Rows pre-placed to split the search: ``1 .. n - 1`` for ``"halving"``,
        ``2 .. n - 5`` for ``"symmetric"`` (``n >= 7``), and at most
        ``config.MAX_SUBPROBLEMS`` (10^6) subproblems: a depth with more raises
        ``ValueError`` (for n = 14, halving depths 8 .. 11; deeper prefixes die out).
        Every depth gives the same result; the default grows the prefix until the
        subproblems are many and small (or takes the depth of ``checkpoint`` when resuming).
    progress : bool, optional
        Show a progress bar of finished subproblems with an ETA (``tqdm.auto``: a widget in
        Jupyter, text on stderr elsewhere).
    checkpoint : str or os.PathLike, optional
        Record the counts of finished subproblems in this JSON file (rewritten atomically
        every ``config.CHECKPOINT_SECONDS`` and at the end), and resume from it: calling
        again with the same file skips the recorded subproblems and returns the same result.
        One run per file at a time.
    preplaced : mapping of int to int, or array_like of int, shape (n,), optional
        Queens placed beforehand: ``{row: column}``, or ``queens[row] == column`` with -1 for
        free rows. Only completions are counted (the n-queens completion problem).
    blocked : array_like of bool, shape (n, n), optional
        True on the squares no queen may stand on.

        With ``preplaced`` or ``blocked`` the constrained kernel ``_count_masked_states``
        runs; mirror halving is used when the constraints look the same in a left-right
        mirror, and the symmetric method (and ``fundamental``) does not apply.

    Returns
    -------
    int
        The count. ``count_solutions(0) == 1`` (the empty board), as in OEIS.

    Raises
    ------
    TypeError
        If ``n``, ``n_threads`` or ``prefix_depth`` is not an integer (``bool`` and
        ``float`` included), or ``fundamental`` or ``progress`` is not a bool.
    ValueError
        If ``n`` is outside ``0..63``, ``n_threads`` outside ``1..NUMBA_NUM_THREADS``,
        ``method`` unknown, ``fundamental=True`` with ``method="halving"``, or
        ``prefix_depth`` outside its range; for pre-placed queens off the board, on a
        blocked square or attacking each other (named in the message), a ``blocked`` of the
        wrong shape, or constraints with ``method="symmetric"`` or ``fundamental=True``.
        ``TypeError`` for a ``blocked`` that is not boolean or non-integer queens.
    nqueens_numba.checkpoint.CheckpointError
        (a ``ValueError``) If ``checkpoint`` is damaged or was written for another count;
        the file is left unchanged.
    KeyboardInterrupt
        On Ctrl-C: the count stops when the running batches finish (a fraction of a second
        up to n = 22; seconds to hours from n = 23, where subproblems grow and the split
        reaches ``config.MAX_SUBPROBLEMS``), saves ``checkpoint`` if given, and says how far
        it got.

    See Also
    --------
    symmetry_classes : the fundamental solutions split by orbit size.
    first_row_counts : the total split by the column of the first-row queen.
    solve : the solutions themselves.

    References
    ----------
    .. [1] OEIS A000170, "Number of ways of placing n nonattacking queens on an n X n board",
       https://oeis.org/A000170
    .. [2] OEIS A002562, the same up to rotations and reflections,
       https://oeis.org/A002562
    .. [3] J. R. Bitner and E. M. Reingold, "Backtrack programming techniques",
       Communications of the ACM 18 (11), 1975.
    .. [4] I. P. Gent, C. Jefferson and P. Nightingale, "Complexity of n-Queens
       Completion", Journal of Artificial Intelligence Research 59 (2017) 815-848: counting
       completions is #P-complete.

    Examples
    --------
    >>> count_solutions(8)
    92
    >>> count_solutions(8, preplaced={0: 0})
    4
    >>> count_solutions(8, fundamental=True)
    12
    >>> [count_solutions(n) for n in range(7)]
    [1, 1, 0, 0, 2, 10, 4]
    >>> count_solutions(10, method="halving") == count_solutions(10, method="symmetric")
    True
    >>> count_solutions(12, prefix_depth=4)
    14200
    """
    n = _check_n(n)
    n_threads = _check_threads(n_threads)
    method = _check_method(method)
    fundamental = _check_flag(fundamental, "fundamental")
    progress = _check_flag(progress, "progress")
    if fundamental and method == "halving":
        raise ValueError("fundamental=True needs method='symmetric' (or None): mirror halving "
                         "does not classify solutions by orbit")
    if checkpoint is not None:
        checkpoint = os.fspath(checkpoint)
    cons = check_constraints(n, preplaced, blocked)
    if cons is not None:
        if fundamental:
            raise ValueError("fundamental=True cannot be combined with pre-placed queens or "
                             "blocked squares: symmetry classes are defined on the whole "
                             "board")
        if method == "symmetric":
            raise ValueError("method='symmetric' cannot be combined with pre-placed queens "
                             "or blocked squares (use method='halving' or None): the "
                             "symmetric search assumes the whole board")
        method = "halving"
    if method is None:
        method = "symmetric" if (fundamental or n >= config.SYMMETRIC_MIN_N) else "halving"
    prefix_depth = _check_prefix_depth(prefix_depth, n, method)
    if checkpoint is not None and (n == 0 or (method == "symmetric" and n < 7)):
        raise ValueError(f"checkpoint is not used for n={n} with method={method!r}: the count "
                         f"takes microseconds and has no subproblems to record")
    if n == 0:
        return 1
    if prefix_depth is None:
        prefix_depth = _checkpoint_depth(checkpoint, n, method)
    if cons is not None:
        return _count_constrained(n, n_threads, cons, prefix_depth, progress, checkpoint)
    if method == "symmetric":
        orbits = _orbit_counts(n, n_threads, prefix_depth, progress, checkpoint)
        return _count_from_orbits(orbits, fundamental)
    states, _, counts = _count_split(n, n_threads, prefix_depth, progress, checkpoint)
    weights = _mirror_weights(n, states[:, 3])
    return sum(int(w) * int(c) for w, c in zip(weights, counts))


def symmetry_classes(n, *, n_threads=None):
    """Number of fundamental solutions by the size of their D4 orbit.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    n_threads : int, optional
        As in :func:`count_solutions`.

    Returns
    -------
    dict of int to int
        ``{orbit_size: number_of_orbits}`` for the orbit sizes that occur (1, 2, 4 or 8),
        largest first. The values sum to the fundamental count (OEIS A002562) and
        ``sum(size * count)`` is the total count (OEIS A000170). An orbit of size 8 has a
        trivial stabilizer; size 4 means symmetry under ``rot180`` only; size 2 under the
        quarter turns; size 1 only for ``n <= 1``.

    Raises
    ------
    TypeError, ValueError
        As :func:`count_solutions`.

    See Also
    --------
    count_solutions, fundamental_solutions

    Examples
    --------
    >>> symmetry_classes(8)
    {8: 11, 4: 1}
    >>> symmetry_classes(4)
    {2: 1}
    """
    n = _check_n(n)
    n_threads = _check_threads(n_threads)
    if n == 0:
        return {1: 1}
    orbits = _orbit_counts(n, n_threads)
    return {size: orbits[size] for size in (8, 4, 2, 1) if orbits[size]}


def fundamental_solutions(n, *, n_threads=None):
    """One solution per D4 orbit, its canonical form, in lexicographic order.

    The canonical form is the lexicographically smallest image under the eight symmetries of
    the board (:func:`~nqueens_numba.symmetry.canonical_form`). Found by enumerating the
    solutions whose first-row queen is in the left half (with the middle column) and keeping
    the canonical ones, so it needs the memory of half of :func:`solve`.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    n_threads : int, optional
        As in :func:`solve`.

    Returns
    -------
    numpy.ndarray, shape (n_fundamental, n), dtype int8
        ``n_fundamental`` is OEIS A002562; ``fundamental_solutions(0)`` has shape ``(1, 0)``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve`.
    MemoryError
        If the solutions do not fit in memory.

    See Also
    --------
    count_solutions : ``fundamental=True`` counts them without enumerating.
    symmetry.orbit : the solutions equivalent to one of them.

    References
    ----------
    .. [1] OEIS A002562, https://oeis.org/A002562

    Examples
    --------
    >>> fundamental_solutions(6)
    array([[1, 3, 5, 0, 2, 4]], dtype=int8)
    >>> fundamental_solutions(8).shape
    (12, 8)
    """
    sols = solve(n, n_threads=n_threads)
    if n == 0:
        return sols
    # A canonical form has 2 * q[0] <= n - 1 (flip_h maps q[0] to n - 1 - q[0]); those rows
    # come first in lexicographic order.
    stop = int(np.searchsorted(sols[:, 0], (n - 1) // 2, side="right"))
    keep = [block[symmetry.is_canonical(block)]
            for block in np.array_split(sols[:stop], max(1, stop // 100_000))]
    return np.ascontiguousarray(np.concatenate(keep)) if keep else sols[:0]


def first_row_counts(n, *, n_threads=None):
    """Number of solutions with the queen of row 0 in each column.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    n_threads : int, optional
        As in :func:`count_solutions`.

    Returns
    -------
    counts : numpy.ndarray, shape (n,), dtype int64
        ``counts[c]`` solutions have ``queens[0] == c``; ``counts.sum()`` is the total count
        for ``n >= 1``, and ``counts`` reads the same backwards (mirror symmetry).

    Raises
    ------
    TypeError, ValueError
        As :func:`count_solutions`.

    See Also
    --------
    count_solutions

    Examples
    --------
    >>> first_row_counts(8)
    array([ 4,  8, 16, 18, 18, 16,  8,  4])
    """
    n = _check_n(n)
    n_threads = _check_threads(n_threads)
    out = np.zeros(n, dtype=np.int64)
    if n == 0:
        return out
    states, _, counts = _count_split(n, n_threads)
    np.add.at(out, states[:, 3], counts)
    out[n - 1 - np.arange(n // 2)] = out[: n // 2]
    return out


# --------------------------------------------------------------------------- enumeration


def _fill(n, base, stack, queens, level, out, allow):
    """One call of the enumeration kernel: constrained (``allow``) or not (``None``)."""
    if allow is None:
        return _kernels._fill_solutions(n, base, stack, queens, level, out, config.STEP_BUDGET)
    return _kernels._fill_rows(n, base, stack, queens, level, out, config.STEP_BUDGET, allow)


def _state_blocks(n, state, depth, stop, first_rows, max_rows, allow=None):
    """The solutions of one subproblem, in order, as ``(k, n)`` int8 blocks (a generator).

    Blocks start at ``first_rows`` rows and double up to ``max_rows``; the search stops
    between two kernel calls once ``stop`` is set. ``allow`` (optional) holds the squares each
    row may use.
    """
    if depth == n:  # the prefix is a complete solution
        yield state[None, 3:].astype(np.int8)
        return
    stack = np.empty((n, 4), dtype=np.int64)
    queens = np.empty(n, dtype=np.int8)
    level = np.empty(1, dtype=np.int64)
    _kernels._start_cursor(n, state, depth, stack, queens, level)
    if allow is not None:
        stack[depth, 0] &= allow[depth]
    rows = max(min(first_rows, max_rows), _kernels.TAIL_SOLUTIONS)
    block = np.empty((rows, n), dtype=np.int8)
    filled = 0
    while level[0] >= depth and not stop.is_set():
        if rows - filled < _kernels.TAIL_SOLUTIONS:  # room for a whole tail
            yield block[:filled]
            rows = max(min(2 * rows, max_rows), _kernels.TAIL_SOLUTIONS)
            block = np.empty((rows, n), dtype=np.int8)
            filled = 0
        filled += _fill(n, depth, stack, queens, level, block[filled:], allow)
    if filled:
        yield block[:filled]


_END = object()  # closes a subproblem's queue of blocks


def _put(q, item, stop):
    """Put ``item`` on a bounded queue, giving up once ``stop`` is set; True if it went in."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False


def _ordered_blocks(n, states, depth, n_threads, window_per_thread,
                    first_rows=config.FIRST_BLOCK_ROWS, max_rows=config.MAX_BLOCK_ROWS,
                    queued_blocks=0, allow=None):
    """Yield ``(i, block)`` for every subproblem ``i`` in order, enumerated in parallel.

    Subproblems run on ``n_threads`` Python threads (the kernels release the GIL); at most
    ``window_per_thread * n_threads`` are started ahead of the one being consumed, and each
    passes its blocks through a queue of ``queued_blocks`` (0: unbounded): the one being
    consumed streams (however many solutions it has), the others wait when their queue is
    full, so that memory stays bounded. Closing the generator cancels what has not started
    and stops the running ones at their next block. ``allow``: see :func:`_state_blocks`.
    """
    stop = threading.Event()
    window = window_per_thread * n_threads
    n_states = len(states)

    def produce(i, blocks):
        try:
            for block in _state_blocks(n, states[i], depth, stop, first_rows, max_rows,
                                       allow):
                if not _put(blocks, block, stop):
                    return
        except BaseException as exc:  # handed to the consumer, which raises it
            _put(blocks, exc, stop)
            return
        _put(blocks, _END, stop)

    with ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="nqueens") as pool:
        pending = deque()  # (future, queue of blocks) of the subproblems started, in order
        submitted = 0
        try:
            for i in range(n_states):
                while submitted < min(i + window, n_states):
                    blocks = queue.Queue(maxsize=queued_blocks)
                    pending.append((pool.submit(produce, submitted, blocks), blocks))
                    submitted += 1
                _, blocks = pending.popleft()
                while True:
                    item = blocks.get()
                    if item is _END:
                        break
                    if isinstance(item, BaseException):
                        raise item
                    yield i, item
        finally:
            stop.set()
            for future, _ in pending:
                future.cancel()


def _known_total(n):
    """The total count from OEIS A000170 when tabulated, else ``None``."""
    return config.A000170[n] if n < len(config.A000170) else None


def _solve_all(n, n_threads):
    """Every solution, in lexicographic order, by the mirror-halved parallel enumeration."""
    total = _known_total(n)
    if total is None:
        # Past the tabulated totals there are more than A000170(27) > 2e17 solutions.
        raise MemoryError(
            f"solve({n}) would hold more than {config.A000170[-1]:.3g} solutions "
            f"(over {config.A000170[-1] * n / 2**60:.0f} EiB); use count_solutions({n}) to "
            f"count them, iter_solutions({n}) to stream them or solve({n}, limit=k) for the "
            f"first k"
        )
    out = np.empty((total, n), dtype=np.int8)
    states, depth = _split(n, n_threads)
    mirrored = 2 * states[:, 3] < n - 1
    pos = 0
    left_end = None  # rows before it have their first queen in the left half
    for i, block in _ordered_blocks(n, states, depth, n_threads,
                                    config.SOLVE_WINDOW_PER_THREAD):
        if left_end is None and not mirrored[i]:
            left_end = pos
        if pos + len(block) > total:
            raise RuntimeError(f"the enumeration of n={n} found more than {total} solutions")
        out[pos : pos + len(block)] = block
        pos += len(block)
    if left_end is None:
        left_end = pos
    if pos + left_end != total:
        raise RuntimeError(f"the enumeration of n={n} found {pos + left_end} solutions, "
                           f"expected {total}")
    # Mirror images (column c -> n - 1 - c) of the left-half solutions, in reverse order, are
    # the solutions with the first queen in the right half, in lexicographic order. Done by
    # slices on the threads: the first ``left_end - cut`` rows go to the end, and so on.
    cuts = np.linspace(0, left_end, n_threads + 1).astype(np.int64)
    with ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="nqueens") as pool:
        futures = [pool.submit(_kernels._mirror_rows, out[a:b], out[total - b:total - a])
                   for a, b in zip(cuts[:-1], cuts[1:])]
        for future in futures:
            future.result()
    return out


def _solve_constrained(n, n_threads, cons, count):
    """The ``count`` solutions satisfying ``cons``, in lexicographic order."""
    out = np.empty((count, n), dtype=np.int8)
    states, depth, _ = _constrained_split(n, n_threads, cons, halving=False)
    pos = 0
    for _, block in _ordered_blocks(n, states, depth, n_threads,
                                    config.SOLVE_WINDOW_PER_THREAD, allow=cons.allow):
        if pos + len(block) > count:
            raise RuntimeError(f"the constrained enumeration found more than {count} "
                               f"solutions")
        out[pos:pos + len(block)] = block
        pos += len(block)
    if pos != count:
        raise RuntimeError(f"the constrained enumeration found {pos} solutions, counted "
                           f"{count}")
    return out


def _solve_first(n, limit, cons=None):
    """The first ``limit`` solutions in lexicographic order, by a serial search.

    Fills blocks of at most ``MAX_BLOCK_ROWS`` rows, so that memory grows with the solutions
    found rather than with ``limit``, and the search can be interrupted between blocks.
    ``cons``: the constraints, if any.
    """
    allow = None if cons is None else cons.allow
    total = _known_total(n)
    rows = limit if total is None else min(limit, total)
    if rows == 0 or n == 0:
        return np.empty((rows, n), dtype=np.int8)  # n == 0: the one (empty) solution
    stack = np.empty((n, 4), dtype=np.int64)
    queens = np.empty(n, dtype=np.int8)
    level = np.empty(1, dtype=np.int64)
    _kernels._start_cursor(n, np.zeros(3, dtype=np.int64), 0, stack, queens, level)
    if allow is not None:
        stack[0, 0] &= allow[0]
    blocks = []
    found = 0
    while found < rows and level[0] >= 0:
        want = min(rows - found, config.MAX_BLOCK_ROWS)
        block = np.empty((max(want, _kernels.TAIL_SOLUTIONS), n), dtype=np.int8)
        filled = 0
        while filled < want and level[0] >= 0:
            filled += _fill(n, 0, stack, queens, level, block[filled:], allow)
        filled = min(filled, want)
        blocks.append(block[:filled])
        found += filled
    if len(blocks) == 1:
        return blocks[0]  # leading rows of a C-contiguous block: C-contiguous
    return np.concatenate(blocks) if blocks else np.empty((0, n), dtype=np.int8)


def solve(n, *, limit=None, n_threads=None, max_bytes=None, preplaced=None, blocked=None):
    """All solutions of the n-queens problem, in lexicographic order.

    Subproblems of a prefix split (left half of the first row only) are enumerated in
    parallel by the explicit-stack kernel ``_fill_solutions`` and written in order; the
    solutions with the first queen in the right half are the mirror images of the left-half
    ones, in reverse order.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``. Any Python or NumPy integer.
    limit : int, optional
        Return only the first ``limit`` solutions of the same order, found by a serial search
        that stops there.
    n_threads : int, optional
        Threads for the enumeration, ``1 .. numba.config.NUMBA_NUM_THREADS``; all by default.
    max_bytes : int, optional
        Largest result (bytes) to allocate; by default 80 % of the memory available when
        called (``config.MEMORY_FRACTION``). Checked before any allocation, from the
        tabulated totals (OEIS A000170, n <= 27) and ``limit``.
    preplaced, blocked : optional
        Constraints, as in :func:`count_solutions`: only their completions are returned
        (counted first, to size the result), by the constrained kernel ``_fill_rows``.

    Returns
    -------
    solutions : numpy.ndarray, shape (n_solutions, n), dtype int8
        C-contiguous; ``solutions[k, row] == column`` of the queen in ``row``. Rows are in
        lexicographic order. ``solve(0)`` has shape ``(1, 0)`` (the empty board); no solution
        gives shape ``(0, n)``.

    Raises
    ------
    TypeError
        If ``n``, ``limit`` or ``n_threads`` is not an integer (``bool`` and ``float``
        included).
    ValueError
        If ``n`` is outside ``0..63``, ``limit`` or ``max_bytes`` is negative or
        ``n_threads`` is outside ``1..NUMBA_NUM_THREADS``.
    MemoryError
        If the result would be larger than ``max_bytes`` (raised before allocating).

    See Also
    --------
    count_solutions : the number of solutions without storing them.
    boards : the solutions as LeetCode boards.

    References
    ----------
    .. [1] OEIS A000170, https://oeis.org/A000170

    Examples
    --------
    >>> solve(4)
    array([[1, 3, 0, 2],
           [2, 0, 3, 1]], dtype=int8)
    >>> solve(8).shape
    (92, 8)
    >>> solve(8, limit=2)
    array([[0, 4, 7, 5, 2, 6, 1, 3],
           [0, 5, 7, 2, 6, 3, 1, 4]], dtype=int8)
    """
    n = _check_n(n)
    limit = _check_limit(limit)
    n_threads = _check_threads(n_threads)
    max_bytes = _check_max_bytes(max_bytes)
    cons = check_constraints(n, preplaced, blocked)
    total = _known_total(n)
    if cons is not None and n > 0:
        if limit is not None:
            _check_result_size(n, limit if total is None else min(limit, total), max_bytes)
            return _solve_first(n, limit, cons)
        count = _count_constrained(n, n_threads, cons)
        _check_result_size(n, count, max_bytes)
        return _solve_constrained(n, n_threads, cons, count)
    if limit is not None:
        _check_result_size(n, limit if total is None else min(limit, total), max_bytes)
        return _solve_first(n, limit)
    if n == 0:
        return np.empty((1, 0), dtype=np.int8)
    if total is not None:
        _check_result_size(n, total, max_bytes)
    return _solve_all(n, n_threads)


def boards(n, *, limit=None, n_threads=None, max_bytes=None, preplaced=None, blocked=None):
    """All solutions as boards of ``'Q'`` and ``'.'`` rows (LeetCode 51, "N-Queens").

    Parameters
    ----------
    n, limit, n_threads, max_bytes, preplaced, blocked
        As in :func:`solve` (``max_bytes`` bounds the solution array, not the strings).

    Returns
    -------
    list of list of str
        One board per solution, in the order of :func:`solve`; each board is ``n`` strings of
        length ``n``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve`.

    See Also
    --------
    solve, to_boards, format_board

    Examples
    --------
    >>> boards(4)
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    return to_boards(solve(n, limit=limit, n_threads=n_threads, max_bytes=max_bytes,
                           preplaced=preplaced, blocked=blocked))


# --------------------------------------------------------------------------- streaming


def _check_chunk_size(chunk_size):
    """Validate ``chunk_size``: a positive integer."""
    chunk_size = _check_int(chunk_size, "chunk_size")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer (1 or more), got {chunk_size}")
    return chunk_size


def _stream_split(n, n_threads, chunk_size, allow):
    """Subproblems of the full search (every first-row column), for streaming in order.

    Small enough that the subproblems buffered ahead of the one being consumed (about
    ``WINDOW_PER_THREAD`` per thread) hold a few chunks at most.
    """
    total = _known_total(n)
    per = max(chunk_size // (config.WINDOW_PER_THREAD * n_threads), 1000)
    target = config.TASKS_PER_THREAD * n_threads
    if total is not None:  # past the table the set is endless in practice: stream it
        target = min(max(target, -(-total // per)), config.MAX_SUBPROBLEMS)

    def enumerate_depth(depth):
        return _prefix_states(_kernels._enumerate_prefixes, n, depth, n, allow)

    return _grow_split(enumerate_depth, 1, max(1, min(n - 1, config.MAX_SPLIT_DEPTH)), target)


def iter_solutions(n, *, chunk_size=1_000_000, n_threads=None, preplaced=None, blocked=None):
    """Stream all solutions in lexicographic order, in chunks of at most ``chunk_size``.

    The search is split into subproblems by pre-placing the first rows; a pool of
    ``n_threads`` threads enumerates them (kernel ``_fill_solutions``) a few ahead of the one
    whose solutions are being handed out, and the chunks are assembled in order. Memory
    stays near a few chunks whatever ``n`` is. Closing the generator, or leaving a ``for``
    loop over it, stops the work within moments.

    Unlike :func:`solve`, every first-row column is searched (mirror images cannot be
    produced in order without holding half of the solutions), so enumerating everything
    takes about twice as long.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    chunk_size : int, optional
        Most rows per chunk (default one million: ``16 * 10**6`` bytes for ``n = 16``).
    n_threads : int, optional
        Threads, ``1 .. numba.config.NUMBA_NUM_THREADS``; all by default.
    preplaced, blocked : optional
        Constraints, as in :func:`count_solutions`: only their completions are streamed.

    Yields
    ------
    numpy.ndarray, shape (k, n), dtype int8
        ``1 <= k <= chunk_size``, C-contiguous, each a new array. Their concatenation equals
        ``solve(n)``. Nothing is yielded when there are no solutions (``n = 2, 3``);
        ``n = 0`` yields the empty board, shape ``(1, 0)``.

    Raises
    ------
    TypeError, ValueError
        As :func:`solve` for ``n`` and ``n_threads``; ``chunk_size`` must be a positive
        integer. Raised by the call, before iterating.

    See Also
    --------
    solve : everything in one array.
    save_solutions : stream to a file.

    Examples
    --------
    >>> [chunk.shape for chunk in iter_solutions(8, chunk_size=40)]
    [(40, 8), (40, 8), (12, 8)]
    >>> import numpy as np
    >>> np.array_equal(np.concatenate(list(iter_solutions(10, chunk_size=100))), solve(10))
    True
    """
    n = _check_n(n)
    chunk_size = _check_chunk_size(chunk_size)
    n_threads = _check_threads(n_threads)
    cons = check_constraints(n, preplaced, blocked)
    return _iter_solutions(n, chunk_size, n_threads, cons)


def _iter_solutions(n, chunk_size, n_threads, cons=None):
    if n == 0:
        yield np.empty((1, 0), dtype=np.int8)
        return
    allow = None if cons is None else cons.allow
    # Solutions still to come: exactly known without constraints (n <= 27), else unknown,
    # and the chunk then starts small and grows to ``chunk_size`` as solutions arrive.
    remaining = _known_total(n) if cons is None else None
    bound = _known_total(n) or chunk_size  # constrained solutions are among all solutions
    target = chunk_size  # rows of the chunk being filled, once complete

    def new_chunk():
        nonlocal target
        if remaining is not None:
            target = max(1, min(chunk_size, remaining))
            return np.empty((target, n), dtype=np.int8)
        target = max(1, min(chunk_size, bound))
        return np.empty((min(target, config.FIRST_CHUNK_ROWS), n), dtype=np.int8)

    chunk = new_chunk()
    filled = 0
    states, depth = _stream_split(n, n_threads, chunk_size,
                                  _no_constraints(n) if allow is None else allow)
    # Blocks of a quarter chunk (subproblems hold about that much): the subproblems started
    # ahead hold a few chunks in all.
    max_rows = min(config.MAX_BLOCK_ROWS,
                   max(chunk_size // config.WINDOW_PER_THREAD, _kernels.TAIL_SOLUTIONS))
    for _, block in _ordered_blocks(n, states, depth, n_threads, config.WINDOW_PER_THREAD,
                                    max_rows, max_rows, config.QUEUED_BLOCKS, allow):
        pos = 0
        while pos < len(block):
            if filled == len(chunk) < target:  # grow the chunk (constrained runs)
                grown = np.empty((min(2 * len(chunk), target), n), dtype=np.int8)
                grown[:filled] = chunk[:filled]
                chunk = grown
            take = min(len(block) - pos, len(chunk) - filled)
            chunk[filled:filled + take] = block[pos:pos + take]
            filled += take
            pos += take
            if filled == target:
                if remaining is not None:
                    remaining -= filled
                yield chunk
                chunk = new_chunk()
                filled = 0
    if filled:
        yield chunk[:filled].copy() if filled < len(chunk) // 2 else chunk[:filled]


def save_solutions(path_or_file, n, *, format=None, chunk_size=1_000_000, n_threads=None,
                   preplaced=None, blocked=None):
    """Write all solutions to a file, streaming them chunk by chunk.

    Parameters
    ----------
    path_or_file : str, os.PathLike or file object
        Where to write. A path is written atomically: a temporary file beside it is renamed
        over it when complete, and removed if writing fails or is interrupted (Ctrl-C), so
        the path never holds a partial file. An open file (binary for ``"npy"``, text
        otherwise) is written as is.
    n : int
        Board order, ``0 <= n <= 63`` (in practice ``n <= 17`` or so: the files grow like the
        total count, OEIS A000170).
    format : {"npy", "text", "json", "csv"}, optional
        ``"npy"``: an ``(n_solutions, n)`` int8 array for :func:`numpy.load`; ``"text"``: the
        boards of ``nqueens solve`` (``n`` lines of ``.``/``Q`` and a blank line each);
        ``"json"``: the LeetCode 51 list of boards; ``"csv"``: one solution per line, the
        columns of rows ``0 .. n-1`` separated by commas. By default, the format the file
        name's suffix stands for (``.npy``, ``.txt``, ``.json``, ``.csv``); for a name
        without one of these, or an open file without a name, ``"text"`` for a text stream
        and ``"npy"`` otherwise. An explicit ``format`` wins over the suffix.
    chunk_size, n_threads, preplaced, blocked
        As in :func:`iter_solutions`.

    Returns
    -------
    int
        The number of solutions written.

    Raises
    ------
    TypeError, ValueError
        As :func:`iter_solutions`, or for an unknown ``format``.
    OSError
        If the file cannot be written (for example ``FileNotFoundError`` for a missing
        directory); nothing is left at the path.
    MemoryError
        ``format="npy"`` for n > 27, whose number of solutions (needed for the header
        first) is not known; the other formats are streamed and never raise it.

    See Also
    --------
    iter_solutions

    Examples
    --------
    >>> import io, json
    >>> out = io.StringIO()
    >>> save_solutions(out, 4, format="json")
    2
    >>> json.loads(out.getvalue())
    [['.Q..', '...Q', 'Q...', '..Q.'], ['..Q.', 'Q...', '...Q', '.Q..']]
    """
    chunks = iter_solutions(n, chunk_size=chunk_size, n_threads=n_threads,
                            preplaced=preplaced, blocked=blocked)
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        check_target(path_or_file)  # a bad path fails now, not after the search
    if format is None:
        format = export.format_for(path_or_file)
        if format is None:
            format = "npy" if export.is_binary(path_or_file) is not False else "text"
    if format not in export.FORMATS:
        raise ValueError(f"format must be one of {', '.join(map(repr, export.FORMATS))}, "
                         f"got {format!r}")
    n = _check_n(n)
    total = _known_total(n)
    if format == "npy" and (preplaced is not None or blocked is not None):
        total = count_solutions(n, n_threads=n_threads, preplaced=preplaced, blocked=blocked)
    if format == "npy" and total is None:
        raise MemoryError(f"n={n} has more than {config.A000170[-1]:.3g} solutions: too many "
                          f"for a file")
    try:
        return export.write_solutions(path_or_file, chunks, n, format, total)
    finally:
        chunks.close()


# --------------------------------------------------------------------------- search trace

#: The fields of a search trace.
TRACE_DTYPE = np.dtype([("step", np.int64), ("kind", "U8"), ("row", np.int16),
                        ("column", np.int16)])


def trace(n, *, max_events=10_000, preplaced=None):
    """The depth-first search, event by event, to replay the backtracking.

    Runs the plain bitboard search (every first-row column, the lowest free square first;
    kernel ``_trace_search``) and records each step: a queen placed, a queen taken back
    (when its row tries the next square, or when the search backtracks past it), and each
    complete board.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``.
    max_events : int, optional
        Most events recorded; the trace stops there (the search of n = 8 takes 4,204).
    preplaced : mapping of int to int, or array_like of int, shape (n,), optional
        Pre-placed queens, as in :func:`count_solutions`: their rows have one square to try.

    Returns
    -------
    events : numpy.ndarray, shape (n_events,), structured
        Fields ``step`` (int64, the event's index), ``kind`` (``"place"``, ``"remove"`` or
        ``"solution"``), ``row`` and ``column`` (int16; -1 for ``"solution"``). Replaying
        ``place``/``remove`` gives the partial placement at every step; at each
        ``"solution"`` it is a solution, in lexicographic order. A complete trace ends with
        every queen removed.

    Raises
    ------
    TypeError, ValueError
        For ``n`` as in :func:`count_solutions`; ``max_events`` must be a positive integer;
        ``preplaced`` as in :func:`count_solutions`.

    See Also
    --------
    nqueens_numba.render.TraceView : steps through a trace on a drawn board.

    Examples
    --------
    >>> events = trace(4)
    >>> events[:3][["kind", "row", "column"]].tolist()
    [('place', 0, 0), ('place', 1, 2), ('remove', 1, 2)]
    >>> int((events["kind"] == "solution").sum())
    2
    """
    n = _check_n(n)
    max_events = _check_int(max_events, "max_events")
    if max_events < 1:
        raise ValueError(f"max_events must be a positive integer, got {max_events}")
    cons = check_constraints(n, preplaced, None)
    allow = _no_constraints(n) if cons is None else cons.allow
    raw = np.empty((max_events, 3), dtype=np.int64)
    count = _kernels._trace_search(n, allow, raw)
    events = np.empty(count, dtype=TRACE_DTYPE)
    events["step"] = np.arange(count)
    events["kind"] = np.array(["place", "remove", "solution"])[raw[:count, 0]]
    events["row"] = raw[:count, 1]
    events["column"] = raw[:count, 2]
    return events


# --------------------------------------------------------------------------- checking


def _all_python_ints(values):
    """Whether ``values`` is a sequence of Python/NumPy integers (not bools)."""
    try:
        return all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                   for v in values)
    except TypeError:
        return False


def is_solution(queens):
    """Whether a placement is a solution: a permutation with no two queens on a diagonal.

    Vectorised NumPy in O(n) time and memory; works for any ``n`` (not limited to 63).

    Parameters
    ----------
    queens : array_like of int, shape (n,)
        ``queens[row] == column``.

    Returns
    -------
    bool
        ``True`` if every column, diagonal and anti-diagonal holds at most one queen and
        every column lies in ``0..n-1``.

    Raises
    ------
    TypeError
        If ``queens`` does not hold integers (``bool`` and ``float`` arrays included).
    ValueError
        If ``queens`` is not one-dimensional.

    Examples
    --------
    >>> is_solution([1, 3, 0, 2])
    True
    >>> is_solution([0, 1, 2, 3])
    False
    """
    q = np.asarray(queens)
    if q.size == 0 and q.dtype.kind == "f":
        q = q.astype(np.int64)  # ``[]`` comes in as float64
    if q.dtype.kind in "fO" and q.ndim == 1 and _all_python_ints(queens):
        q = exact_int_array(queens)  # say a mix of NumPy integer types, or Python ints
        if q is None:
            return False  # integers too large for int64: off any board NumPy can hold
    if q.dtype.kind not in "iu":
        raise TypeError(f"queens must hold integers, got dtype {q.dtype}")
    if q.ndim != 1:
        raise ValueError(f"queens must have shape (n,), got shape {q.shape}")
    n = q.shape[0]
    if n == 0:
        return True
    if q.min() < 0 or q.max() >= n:
        return False
    index_dtype = np.int32 if n < 2**30 else np.int64
    cols = q.astype(index_dtype, copy=False)
    rows = np.arange(n, dtype=index_dtype)
    for line in (cols, cols + rows, cols - rows + (n - 1)):
        seen = np.zeros(2 * n - 1, dtype=bool)
        seen[line] = True
        if np.count_nonzero(seen) != n:
            return False
    return True
