"""Counting: the total and fundamental counts, orbits by size, counts by first-row column.

Each function validates its arguments, has the count planned
(:func:`nqueens_numba._split.plan_count`) and runs the plan (:func:`run_plan`): the engine
the plan chose answers, and a split runs on an executor (local threads here, a Dask cluster
in :mod:`nqueens_numba.distributed`) and is added up by its :class:`~nqueens_numba._split.Split`.
"""
import os
import time
import warnings
from contextlib import nullcontext

import numpy as np

from . import (_breadth, _device, _docs, _enumerating, _kernels, _pool, _progress, _runner,
               _split, _threads, _validate, config, symmetry)
from .board import QUEEN, board_of
from .checkpoint import Checkpoint, CheckpointError, split_record
from .constraints import check_constraints, no_constraints
from .enumeration import solve

__all__ = ["count_solutions", "symmetry_classes", "first_row_counts", "LongCountWarning"]


class LongCountWarning(UserWarning):
    """A count estimated to take more than a day of CPU time on this machine."""


def count_solutions(n, *, n_threads=None, method=None, fundamental=False, prefix_depth=None,
                    progress=False, checkpoint=None, checkpoint_every=None, preplaced=None,
                    blocked=None, piece="queen", torus=False, device="cpu", devices=None):
    """Total number of solutions of the n-queens problem (OEIS A000170), or of fundamental ones.

    Parameters
    ----------
    n : int
        Board order, ``0 <= n <= 63``. Any Python or NumPy integer.
    n_threads : int, optional
        Threads for this call, ``1 .. numba.config.NUMBA_NUM_THREADS`` (set with the
        ``NUMBA_NUM_THREADS`` environment variable); all of them by default.
    method : {None, "halving", "symmetric"}, optional
        The search: mirror halving, or one solution per symmetry class. Both give the same
        totals; ``None`` picks ``"symmetric"`` from ``n = 7`` (``config.SYMMETRIC_MIN_N``).
    fundamental : bool, optional
        Count fundamental solutions (D4 orbits, OEIS A002562) instead of all solutions
        (the symmetric search; on the torus, by enumeration); ``n = 0`` gives 1.
    prefix_depth : int, optional
        Rows pre-placed to split the search: ``1 .. max(1, n - 1)`` (halving) or ``2 .. n - 5``
        (symmetric), at most ``config.MAX_SUBPROBLEMS`` subproblems. Every depth gives the
        same result; by default, many small subproblems.
    progress : bool, optional
        Show a progress bar with an ETA (``tqdm.auto``: a widget in Jupyter, text on
        stderr elsewhere).
    checkpoint : str or os.PathLike, optional
        A JSON file recording the count as it goes, resumed from when it exists: calling
        again with the same arguments continues where the count stopped, or was killed
        (:func:`nqueens_numba.checkpoint.status` tells how far). Counts with nothing to
        record (n = 0; symmetric or fundamental, n <= 6) check the file and write none.
    checkpoint_every : float, optional
        With ``checkpoint``: seconds between writes, 0 or more (default
        ``config.CHECKPOINT_SECONDS``; ``inf``: only when stopped and at the end).
    preplaced : mapping of int to int, or array_like of int, shape (n,), optional
        Queens placed beforehand, ``{row: column}`` or ``queens[row] == column`` with -1
        for free rows: only their completions are counted.
    blocked : array_like of bool, shape (n, n), optional
        True on the squares no queen may stand on. With ``preplaced`` or ``blocked``, the
        symmetric search and ``fundamental`` do not apply.
    piece : {"queen", "superqueen"}, optional
        ``"superqueen"``: queens that also move as knights (OEIS A051223; fundamental:
        A051224).
    torus : bool, optional
        Toroidal queens: the diagonals wrap around the edges (OEIS A051906; solutions exist
        iff ``gcd(n, 6) == 1`` or ``n <= 1``; ``"halving"`` only). The variants combine
        neither with each other nor with ``preplaced`` or ``blocked``.
    device : {"cpu", "cuda", "auto"}, optional
        This machine's threads, GPUs through numba-cuda (``pip install
        "nqueens_numba[cuda]"``), or a usable GPU from ``n = 13``, else the CPU. Same
        results and checkpoint files (a GPU count resumes on the CPU).
    devices : sequence of int, optional
        With ``device="cuda"`` or ``"auto"``: the GPUs to use; every visible one by default.

    Returns
    -------
    int
        The count. ``count_solutions(0) == 1`` (the empty board), as in OEIS.

    Raises
    ------
    TypeError
        For an argument of the wrong type: ``n``, ``n_threads``, ``prefix_depth`` or a
        queen not an integer (``bool`` and ``float`` included), a flag not a bool,
        ``blocked`` not boolean.
    ValueError
        For a value out of its range (named in the message), pre-placed queens off the
        board, on a blocked square or attacking each other, or arguments that do not
        combine.
    RuntimeError
        With ``device="cuda"`` and no usable GPU, saying what is missing.
    nqueens_numba.checkpoint.CheckpointError
        (a ``ValueError``) If ``checkpoint`` is damaged or of another count; the file is
        left unchanged.
    KeyboardInterrupt
        On Ctrl-C, within about a second at any ``n``, saying how far the count got (and
        saving ``checkpoint`` if given).

    Warns
    -----
    LongCountWarning
        When the count is estimated at more than a day of CPU time on this machine.

    See Also
    --------
    symmetry_classes : the fundamental solutions split by orbit size.
    first_row_counts : the total split by the column of the first-row queen.
    solve : the solutions themselves.

    Notes
    -----
    Explicit-stack depth-first searches over ``int64`` bitboards [3]_. Mirror halving
    searches the left half of the first row and doubles it. The symmetric search visits, of
    each D4 orbit, only the images whose first-row queen is at least as far from a corner
    as every other edge queen, and weighs each leaf by the images that qualify: one pass
    gives the orbits by size (the fundamental count) and the total, in about 38% of the
    halving search's time. Toroidal queens are counted by least steps (one solution per
    class of column shifts, row shifts and mirror, weighted by its size).

    The search is split into many more subproblems than threads (or GPU threads), summed
    as exact integers. Each kernel call (GPU launch) stops after a budget of work, so a
    count can be interrupted, checkpointed and resumed at any ``n``. Boards up to ``n = 12``
    are counted in NumPy until a count's kernel is loaded in the process, and up to
    ``n = 16`` by kernels that compile fastest while the count's own are to compile.

    References
    ----------
    .. [1] OEIS A000170, https://oeis.org/A000170
    .. [2] OEIS A002562, the same up to rotations and reflections, https://oeis.org/A002562
    .. [3] J. R. Bitner and E. M. Reingold, "Backtrack programming techniques",
       Communications of the ACM 18 (11), 1975.
    .. [4] I. P. Gent, C. Jefferson and P. Nightingale, "Complexity of n-Queens
       Completion", JAIR 59 (2017) 815-848: counting completions is #P-complete.

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
    >>> count_solutions(13, torus=True), count_solutions(12, piece="superqueen")
    (4524, 156)
    """
    n = _validate.board_order(n)
    n_threads = _validate.threads(n_threads)
    fundamental, progress = _validate.flags(fundamental=fundamental, progress=progress)
    checkpoint, checkpoint_every = _validate.checkpointing(checkpoint, checkpoint_every)
    cons = (None if preplaced is None and blocked is None
            else check_constraints(n, preplaced, blocked))
    board = board_of(piece, torus)
    device, devices = _devices(device, devices)
    # (words for a Ctrl-C while the plan's kernels load: the count's own say more)
    early = _progress.interruption_says(f"count of n={n}{_enumerating.keywords(board, cons)} "
                                        f"interrupted: nothing is returned")
    with early, _progress.compiling_notice(True, "count") if progress else nullcontext():
        plan = _split.plan_count(n, board, result="fundamental" if fundamental else "total",
                                 method=method, constraints=cons, prefix_depth=prefix_depth,
                                 n_threads=n_threads, checkpoint=checkpoint,
                                 shortcuts=not progress, device=device)
        return run_plan(plan, executor_of(plan, n_threads, devices), progress=progress,
                        checkpoint=checkpoint, save_every=checkpoint_every)


def _devices(device, devices):
    """Validated ``(device, devices)``."""
    device = _device.check_device(device)
    devices = _device.check_devices(devices)
    if devices is not None and device == "cpu":
        raise ValueError("devices applies only with device='cuda' or 'auto'")
    if devices is not None and device == "auto" and _device.usable():
        _device.require(devices)  # (a GPU that is not visible, whichever device counts)
    return device, devices


def executor_of(plan, n_threads, devices=None):
    """The executor of ``plan``'s split: this machine's ``n_threads`` threads, or the GPUs
    ``devices`` (every visible one by default) when the plan chose ``device="cuda"``
    (``RuntimeError`` when no GPU is usable, whatever the engine)."""
    if plan.device == "cuda":
        gpus = _device.require(devices)
        if plan.engine == "split":
            from ._gpu import CudaDevices

            return CudaDevices(gpus)
    return _threads.LocalThreads(n_threads)


def _lost(plan):
    """What an interruption of ``plan``'s engine without a split loses, as a count's
    interruption says it (:meth:`nqueens_numba._runner.Tracker.interrupted`)."""
    resumable = plan.result in ("total", "fundamental") and plan.engine in ("small", "breadth")
    return (f"count of n={plan.n}{_enumerating.keywords(plan.board, plan.constraints)} "
            f"interrupted; " +
            (_runner.LOST if resumable else "nothing is returned"))


def run_plan(plan, executor, *, progress=False, checkpoint=None, save_every=None):
    """What ``plan`` (a :class:`~nqueens_numba._split.CountPlan`) asks for, by the engine it
    chose; a split runs on ``executor`` (:class:`~nqueens_numba._threads.LocalThreads`, or the
    Dask executor), with the progress bar and checkpoint of :func:`count_solutions`.

    Returns the total or fundamental count (``int``), the orbits by size (``dict``), or the
    counts by first-row column (``(n,)`` int64), as ``plan.result`` says.
    """
    if plan.engine in ("answer", "orbits") and checkpoint is not None:
        # The empty board and the boards too small to split: nothing to record, but a file
        # given is checked as any count's (a directory, a damaged file, another count's
        # raise).
        Checkpoint(checkpoint, split_record(plan.n, plan.method, 0, np.zeros((0, 3))),
                   1).close()
    if plan.engine != "split":  # (in this process: on no more threads than it has)
        with _progress.interruption_says(_lost(plan)):
            return _ENGINES[plan.engine](plan, min(executor.threads, _validate.threads(None)),
                                         progress)
    if plan.device == "cpu":  # the estimate is of this machine's CPU time
        warn_if_long(plan, executor.threads, checkpoint is not None)
    results = _runner.execute(plan.split, executor, progress=progress, checkpoint=checkpoint,
                              save_every=save_every,
                              resumable=plan.result in ("total", "fundamental"),
                              verify=None if checkpoint is None else _verifier(plan, checkpoint))
    return _result(plan, results)


def _result(plan, results):
    """What ``plan`` asks for, from the results of its split's subproblems."""
    split = plan.split
    if plan.result == "orbits":
        return split.orbits(results)
    if plan.result == "first_row":
        return split.first_row(results)
    return split.total(results, plan.result == "fundamental")


def _verifier(plan, checkpoint):
    """The check of the results of a count resumed from ``checkpoint``, before the file is
    saved as complete: counts that do not add up (the file was altered: an edited file can
    carry a valid checksum) raise ``CheckpointError``, and the file is put back as it was.
    Where OEIS A000170 gives the total, the counts must sum to it, and their classes to
    A002562; the symmetric search's leaves must make whole orbits."""
    split = plan.split

    def verify(results):
        try:
            _result(plan, results)
            why = None
            if (plan.known is not None and plan.constraints is None
                    and plan.result != "first_row"):
                total = split.total(results)
                classes = split.total(results, True) if split.method == "symmetric" else None
                if total != plan.known:
                    why = (f"they sum to {total:,} solutions, not the {plan.known:,} of OEIS "
                           f"A000170")
                elif classes is not None and classes != config.A002562[plan.n]:
                    why = (f"they make {classes:,} classes, not the "
                           f"{config.A002562[plan.n]:,} of OEIS A002562")
        except RuntimeError as exc:  # leaves that make no whole orbits
            why = str(exc)
        if why is not None:
            raise CheckpointError(f"checkpoint {os.fspath(checkpoint)!r} holds counts that "
                                  f"do not add up ({why}): it was altered or damaged, and "
                                  f"is left as it was; move or delete it and count again")
    return verify


def _answer(plan, n_threads, progress=False):
    """The result of a count known without a search: the empty board, or a board without
    solutions."""
    n = plan.n
    return {"orbits": {1: 1} if n == 0 else {}, "first_row": np.zeros(n, dtype=np.int64)
            }.get(plan.result, plan.answer)


def _by_breadth(plan, n_threads, progress=False):
    """The total count, first-row counts, fundamental count or orbits of a small board by the
    breadth-first search in NumPy (the solutions classified by D4 in NumPy): nothing to
    compile."""
    if plan.result == "total":
        return _breadth.count(plan.n,
                              None if plan.constraints is None else plan.constraints.allow)
    sols = _breadth.solutions(plan.n)
    if plan.result == "first_row":
        return np.bincount(sols[:, 0], minlength=plan.n).astype(np.int64)
    return _classified(sols, plan.result)


def _by_orbits(plan, n_threads, progress=False):
    """The fundamental or total count, or the orbits, of a board whose solutions are
    enumerated (with ``solve``'s bar if ``progress``) and classified by D4
    (:mod:`nqueens_numba.symmetry`; D4 maps the solutions of every board of the family to
    solutions)."""
    board = plan.board
    with _progress.interruption_unsaid():  # (solve's words: run_plan says what is lost)
        sols = solve(plan.n, n_threads=n_threads, piece=board.piece, torus=board.torus,
                     progress=progress)
    return _classified(sols, plan.result)


#: Solutions classified by D4 at once: the images take about 30 times the solutions' own
#: bytes, so the classification is done in parts of this many.
_CLASSIFIED_AT_ONCE = 1 << 16


def _classified(sols, result):
    """The orbits by size of ``sols`` (every solution of a board), or their fundamental
    (``result == "fundamental"``) or total count."""
    orbits = dict.fromkeys((1, 2, 4, 8), 0)
    for start in range(0, len(sols), _CLASSIFIED_AT_ONCE):
        part = sols[start:start + _CLASSIFIED_AT_ONCE]
        canonical = part[symmetry.is_canonical(part)]
        if len(canonical):
            sizes = symmetry.orbit_size(canonical)
            for size in orbits:
                orbits[size] += int(np.count_nonzero(sizes == size))
    if result == "orbits":
        return orbits
    return _split.orbits_to_count(orbits, result == "fundamental")


def _small_count(plan, n_threads, progress=False):
    """The total count of a small board (:func:`nqueens_numba._split.is_small`) past the
    NumPy search, in the kernel that compiles fastest (a fraction of a second, against
    seconds for the split and the tuned kernels), one call per first-row column on
    ``n_threads`` threads: a tenth of a second of search or less."""
    n, constraints = plan.n, plan.constraints
    count_rows = _kernels.entry("count_rows", constrained=constraints is not None)
    allow = no_constraints(n) if constraints is None else constraints.allow
    if constraints is None:  # mirror halving: the left half and the middle column, weighted
        columns = range(plan.board.first_columns(n))
        weights = plan.board.first_weights(n, columns)
    else:
        columns, weights = range(n), [1] * n

    def count(column):
        rows = allow.copy()
        rows[0] = allow[0] & (1 << column)
        return int(count_rows(n, 0, 0, 0, 0, rows, np.empty((n, 4), dtype=np.int64)))

    counts = _pool.run_threads(n_threads, count, [(column,) for column in columns])
    _kernels.mark_loaded("small", plan.board.flag, constraints is not None)
    return sum(int(c) * int(w) for c, w in zip(counts, weights))


#: What answers each engine of a plan but the split.
_ENGINES = {"answer": _answer, "breadth": _by_breadth, "orbits": _by_orbits,
            "small": _small_count}


_seconds_per_solution = {}  # by method, measured once per process


def estimated_cpu_seconds(n, method, constrained=False):
    """Rough CPU seconds of an unconstrained count of ``n`` by ``method`` on this machine, or
    ``None`` past the tabulated totals (``n > 27``); with ``constrained``, of the same count
    by the kernel of constrained counts (its constraints allowing every square).

    The known total (OEIS A000170) times the time per solution of a count of n = 14 on one
    thread, measured once per process (best of two, a few hundredths of a second), grown by
    ``config.COST_GROWTH_PER_N`` per board order above 14.
    """
    total = QUEEN.known_total(n)
    if total is None:
        return None
    if (method, constrained) not in _seconds_per_solution:
        free = check_constraints(14, None, np.zeros((14, 14), dtype=bool)) if constrained else None
        split = _split.count_split(14, method, 1, constraints=free)
        job = split.job
        times = []
        for _ in range(2):  # the first call may load the kernel
            start = time.perf_counter()
            job(split.states)
            times.append(time.perf_counter() - start)
        _seconds_per_solution[method, constrained] = min(times) / QUEEN.known_total(14)
    per_solution = _seconds_per_solution[method, constrained]
    return total * per_solution * config.COST_GROWTH_PER_N ** (n - 14)


#: Totals below which a count is never long (n <= 20: hours on one core at most), and no time
#: per solution is measured for its warning.
_NEVER_LONG = 10**11


def warn_if_long(plan, n_threads, checkpointed):
    """Warn with :class:`LongCountWarning` (one line) when the count of ``plan`` is
    estimated at more than ``config.LONG_COUNT_SECONDS`` of CPU time: a variant's from
    ``config.VARIANT_COST``; a constrained count's from the share of the search the
    constraints leave (:meth:`~nqueens_numba.constraints.Constraints.search_share`), grown
    past the tabulated totals by ``config.TOTAL_GROWTH_PAST_TABLE`` an order."""
    n, split, constraints = plan.n, plan.split, plan.split.constraints
    cost = config.VARIANT_COST.get(plan.board.name)
    if not len(split.states) or (cost is None and plan.known is not None
                                           and plan.known < _NEVER_LONG):
        return
    advice = ("its checkpoint keeps the progress" if checkpointed else
              "pass checkpoint=FILE to stop and resume it")
    about = "roughly" if cost is not None or constraints is not None else "about"
    if cost is not None:
        size, base, growth = cost
        seconds = base * growth ** (n - size)
    elif constraints is not None:
        # The halving search's time (grown past the tabulated totals), in the share of the
        # tree the constraints leave; twice that where mirror halving does not apply to them
        # (both halves are searched)
        last = len(config.A000170) - 1
        past = max(n - last, 0)
        seconds = estimated_cpu_seconds(n - past, "halving", constrained=True) * (
            config.TOTAL_GROWTH_PAST_TABLE * config.COST_GROWTH_PER_N) ** past * (
            constraints.search_share() * (1 if constraints.mirror_symmetric else 2))
    else:
        seconds = estimated_cpu_seconds(n, split.method)
    if seconds is None:
        message = (f"n={n}: no count this large has been published (OEIS A000170 ends at "
                   f"n = {len(config.A000170) - 1}); it would take more than a thousand years "
                   f"of CPU time (each order past it about "
                   f"{config.TOTAL_GROWTH_PAST_TABLE * config.COST_GROWTH_PER_N:.0f} times as "
                   f"long)")
    elif seconds >= config.LONG_COUNT_SECONDS:
        hours = seconds / 3600
        wait = _progress.duration(seconds / n_threads, clock=False)
        message = (f"n={n}{_enumerating.keywords(plan.board, constraints)}: {about} "
                   f"{_progress.significant(hours)} "
                   f"CPU-hours on this machine ({wait} on {n_threads} "
                   f"thread{'s' if n_threads > 1 else ''}); {advice}")
    else:
        return
    warnings.warn(message, LongCountWarning, stacklevel=4)


@_docs.fill
def symmetry_classes(n, *, n_threads=None, piece="queen", torus=False, device="cpu",
                     devices=None):
    """Number of fundamental solutions by the size of their D4 orbit.

    %(count_parameters)s
        The board, as in :func:`count_solutions` (superqueens by the symmetric search,
        toroidal queens by enumeration).
    device : {"cpu", "cuda", "auto"}, optional
    devices : sequence of int, optional
        As in :func:`count_solutions`.

    Returns
    -------
    dict of int to int
        ``{orbit_size: number_of_orbits}`` for the orbit sizes that occur (1, 2, 4 or 8),
        largest first. The values sum to the fundamental count (OEIS A002562) and
        ``sum(size * count)`` is the total count (OEIS A000170). An orbit of size 8 has a
        trivial stabilizer; size 4 means symmetry under ``rot180`` only; size 2 under the
        quarter turns; size 1 only for ``n <= 1``.

    %(count_raises)s

    See Also
    --------
    count_solutions, fundamental_solutions

    Examples
    --------
    >>> symmetry_classes(8)
    {8: 11, 4: 1}
    >>> symmetry_classes(4)
    {2: 1}
    >>> symmetry_classes(12, piece="superqueen")
    {8: 18, 4: 2, 2: 2}
    """
    n = _validate.board_order(n)
    n_threads = _validate.threads(n_threads)
    board = board_of(piece, torus)
    device, devices = _devices(device, devices)
    plan = _split.plan_count(n, board, result="orbits", n_threads=n_threads, device=device)
    orbits = run_plan(plan, executor_of(plan, n_threads, devices))
    return {size: orbits[size] for size in (8, 4, 2, 1) if orbits.get(size)}


@_docs.fill
def first_row_counts(n, *, n_threads=None, piece="queen", torus=False):
    """Number of solutions with the queen of row 0 in each column.

    %(count_parameters)s
        The board, as in :func:`count_solutions` (on the torus every column has the same
        count, a column shift of the others: the total over ``n``).

    Returns
    -------
    counts : numpy.ndarray, shape (n,), dtype int64
        ``counts[c]`` solutions have ``queens[0] == c``; ``counts.sum()`` is the total count
        for ``n >= 1``, and ``counts`` reads the same backwards (mirror symmetry).

    %(count_raises)s

    See Also
    --------
    count_solutions

    Examples
    --------
    >>> first_row_counts(8)
    array([ 4,  8, 16, 18, 18, 16,  8,  4])
    >>> first_row_counts(7, torus=True)
    array([4, 4, 4, 4, 4, 4, 4])
    """
    n = _validate.board_order(n)
    n_threads = _validate.threads(n_threads)
    plan = _split.plan_count(n, board_of(piece, torus), result="first_row",
                             n_threads=n_threads)
    return run_plan(plan, _threads.LocalThreads(n_threads))
