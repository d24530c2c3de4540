"""What to compute: the plan of a count, its method, its subproblem split, and how the results
add up.

:func:`plan_count` decides everything about a count once, from validated arguments, and
returns a :class:`CountPlan`: which engine answers it (a known answer, the breadth-first
search in NumPy, one small kernel call, an enumeration of the solutions, or a split run by an
executor: local threads, a Dask cluster) and, for a split, the :class:`Split` (the prefix
states, their weights, the method, how the results add up, the checkpoint id). The executors
run the split and never re-decide; :meth:`Split.total` adds the results up. The enumerations
take their subproblems from :func:`enumeration_split` and :func:`stream_split`. Nothing here
searches but the kernels that enumerate prefixes.
"""
from dataclasses import dataclass, replace
from functools import partial
from itertools import takewhile

import numpy as np

from . import _breadth, _device, _kernels, _validate, checkpoint, config
from ._kernels import _loading
from ._job import SYMMETRIC_RESULTS, CountJob
from .board import METHODS, QUEEN, Board
from .constraints import Constraints, no_constraints

__all__ = ["METHODS", "SYMMETRIC_RESULTS", "SYMMETRIC_KERNEL_MIN_N", "Split", "CountJob",
           "CountPlan", "plan_count", "check_method",
           "choose_method", "is_breadth", "is_small", "has_subproblems", "check_prefix_depth",
           "resumed_depth", "count_split", "prefixes", "orbits_to_count",
           "ENGINES"]

#: Smallest board the symmetric kernel searches: two prefix rows above its unrolled tail.
#: Smaller boards have no symmetric split; their orbits are found by enumeration.
SYMMETRIC_KERNEL_MIN_N = _kernels.TAIL_ROWS + 3


# --------------------------------------------------------------------------- the method


def check_method(method):
    """Validate ``method``: ``None`` (automatic) or one of :data:`METHODS`."""
    return _validate.choice(method, "method", METHODS, none=True)


def choose_method(n, method, fundamental, constraints, board=QUEEN):
    """The counting method of a count: ``"halving"`` or ``"symmetric"``.

    ``method`` is the validated user choice (``None``: automatic); ``constraints`` a
    :class:`~nqueens_numba.constraints.Constraints` or ``None``. The automatic choice is the
    symmetric search from ``config.SYMMETRIC_MIN_N`` on (and whenever ``fundamental``), and
    mirror halving on constrained boards, where symmetry does not apply, and on boards
    that have no symmetric search (the torus, :attr:`Board.methods`).

    Raises ``ValueError`` for combinations that cannot be counted.
    """
    if fundamental and method == "halving":
        if "symmetric" not in board.methods:  # (the torus: its solutions are classified)
            raise ValueError(f"fundamental=True with {board.keywords[2:]} needs method=None: "
                             f"its orbits come from its solutions, classified by D4")
        raise ValueError("fundamental=True needs method='symmetric' (or None): mirror halving "
                         "does not classify solutions by orbit")
    if constraints is not None:
        if fundamental:
            raise ValueError("fundamental=True cannot be combined with pre-placed queens or "
                             "blocked squares: symmetry classes are defined on the whole "
                             "board")
        if method == "symmetric":
            raise ValueError("method='symmetric' cannot be combined with pre-placed queens "
                             "or blocked squares (use method='halving' or None): the "
                             "symmetric search assumes the whole board")
        return "halving"
    if method is None:
        auto = "symmetric" if (fundamental or n >= config.SYMMETRIC_MIN_N) else "halving"
        return board.method_of[auto]
    return method


def is_breadth(n):
    """Whether a board is small enough for the breadth-first search in NumPy
    (:mod:`nqueens_numba._breadth`, ``n <= config.BREADTH_MAX_N``): nothing to compile."""
    return 0 <= n <= min(config.BREADTH_MAX_N, _breadth.MAX_N)


def is_small(n):
    """Whether a total count of ``n`` has at most ``config.DIRECT_SOLUTIONS`` solutions
    (OEIS A000170): milliseconds of search, where compile time dominates a first call."""
    total = QUEEN.known_total(n)
    return n >= 1 and total is not None and total <= config.DIRECT_SOLUTIONS


def has_subproblems(n, method):
    """Whether a count of ``n`` by ``method`` has a split (else it takes microseconds: the
    empty board, or a symmetric count of a board under ``SYMMETRIC_KERNEL_MIN_N``)."""
    return n > 0 and (method == "halving" or n >= SYMMETRIC_KERNEL_MIN_N)


# --------------------------------------------------------------------------- the depth


def _depth_range(n, method):
    """Allowed ``prefix_depth`` of a count: ``(low, high)``, empty when ``low > high``."""
    if method == "halving":
        return 1, max(1, n - 1)
    return 2, n - _kernels.TAIL_ROWS - 1  # two rows above the symmetric kernel's tail


def check_prefix_depth(prefix_depth, n, method):
    """Validate ``prefix_depth`` for a count of ``n`` by ``method``."""
    if prefix_depth is None:
        return None
    prefix_depth = _validate.integer(prefix_depth, "prefix_depth")
    low, high = _depth_range(n, method)
    if low > high:
        raise ValueError(f"prefix_depth cannot be set for n={n} with method={method!r}: the "
                         f"symmetric count of boards under {SYMMETRIC_KERNEL_MIN_N} "
                         f"enumerates their solutions")
    if not low <= prefix_depth <= high:
        raise ValueError(f"prefix_depth must be in the range {low}..{high} for n={n} with "
                         f"method={method!r} (and make at most "
                         f"{config.MAX_SUBPROBLEMS:,} subproblems), got {prefix_depth}")
    return prefix_depth


def resumed_depth(path, n, method, board=QUEEN):
    """The prefix depth the checkpoint at ``path`` was written with, if it is one of this
    count (so that a resumed count rebuilds the same split); else ``None``."""
    depth = checkpoint.recorded_depth(path, n, method, board.name)
    low, high = _depth_range(n, method)
    return depth if depth is not None and low <= depth <= high else None


def resumed_method(path, n, fundamental, constraints, board=QUEEN):
    """The method of the checkpoint at ``path`` if it is a count of ``n`` on this board that
    this count may take (:func:`choose_method`); else ``None`` (the automatic choice)."""
    method = checkpoint.recorded_method(path, n, board.name)
    try:
        return method if method in board.methods and choose_method(
            n, method, fundamental, constraints, board) else None
    except ValueError:
        return None


def split_target(n, n_threads, board=QUEEN):
    """Subproblems a count of ``n`` should have: enough per thread, small enough each (a
    variant's: as many per thread; they have far fewer solutions than the queens the sizes
    are measured on)."""
    total = board.known_total(n)
    per = config.SOLUTIONS_PER_SUBPROBLEM
    by_size = board.untabulated_subproblems() if total is None else -(-total // per)
    return min(max(config.TASKS_PER_THREAD * n_threads, by_size), config.MAX_SUBPROBLEMS)


# --------------------------------------------------------------------------- the prefixes


def _too_many(depth, n, low, fits):
    """The error of a ``prefix_depth`` that makes too many subproblems, naming the deepest
    one from ``low`` up that does not (``fits(d)``: whether ``d`` rows make at most
    ``config.MAX_SUBPROBLEMS``; tried up from ``low``: one bounded call of a depth too deep)."""
    deepest = max(takewhile(fits, range(low, depth)), default=None)
    return ValueError(f"prefix_depth={depth} makes more than {config.MAX_SUBPROBLEMS:,} "
                      f"subproblems for n={n} (config.MAX_SUBPROBLEMS); choose a smaller "
                      f"prefix_depth" + ("" if deepest is None else
                                         f" (at most {deepest} for this count)"))


def prefixes(n, first_limit, allow, target, prefix_depth=None, board=QUEEN, shallowest=1,
              job="prefixes"):
    """Prefix states of the search of ``board`` (kernel job ``job``: ``"prefixes"``, or
    ``"count_prefixes"``, by least steps on the torus), the first-row queen in columns
    ``0 .. first_limit - 1``: ``(states, depth)``.

    ``prefix_depth`` rows if given (``ValueError`` for more than ``config.MAX_SUBPROBLEMS``
    states), else at least ``shallowest`` rows and one row more at a time while there are
    fewer than ``target`` states, up to ``config.MAX_SPLIT_DEPTH`` rows or before a depth
    with too many states.
    """
    kernel = _kernels.entry(job, board, board.plain and allow is not None)
    allow = no_constraints(n) if allow is None else allow
    most = config.MAX_SUBPROBLEMS
    if prefix_depth is not None:
        states, found = _loading.first_call(kernel, n, prefix_depth, first_limit, allow, most)
        if found > most:
            raise _too_many(prefix_depth, n, _depth_range(n, "halving")[0],
                            lambda d: kernel(n, d, first_limit, allow, most)[1] <= most)
        return states, prefix_depth
    deepest = min(_depth_range(n, "halving")[1], config.MAX_SPLIT_DEPTH)
    depth = shallowest
    states, found = _loading.first_call(kernel, n, depth, first_limit, allow, most)
    if found > most:  # (no states came back: a count of them would be 0)
        raise _too_few(n, depth)
    while len(states) < target and depth < deepest:
        deeper, found = kernel(n, depth + 1, first_limit, allow, most)
        if found > most:
            break
        states, depth = deeper, depth + 1
    return states, depth


def _symmetric_prefixes(n, target, prefix_depth=None, board=QUEEN):
    """Prefix states of the symmetric search in one kernel call (job
    ``symmetric_prefixes``): ``(states, depth)``.

    At least two rows (the second row of a first-row queen in the middle column is
    restricted to its left half) and at most ``n - TAIL_ROWS - 1``, so that the kernel's
    unrolled tail fits below; ``prefix_depth`` rows if given.
    """
    low, high = _depth_range(n, "symmetric")
    high = max(low, min(high, config.MAX_SPLIT_DEPTH))
    if prefix_depth is not None:
        low = high = prefix_depth
    kernel, most = _kernels.entry("symmetric_prefixes", board), config.MAX_SUBPROBLEMS
    states, depth, found = _loading.first_call(kernel, n, low, high, target, most)
    if found > most and prefix_depth is None:
        raise _too_few(n, low)
    if found > most:
        raise _too_many(depth, n, _depth_range(n, "symmetric")[0],
                        lambda d: kernel(n, d, d, 0, most)[2] <= most)
    return states, depth


def _too_few(n, depth):
    """The error of a ``config.MAX_SUBPROBLEMS`` below the shallowest split (``depth`` rows)."""
    return ValueError(f"config.MAX_SUBPROBLEMS={config.MAX_SUBPROBLEMS:,} is fewer than the "
                      f"subproblems of the shallowest split of n={n} ({depth} row"
                      f"{'s' * (depth != 1)}): raise it")


# --------------------------------------------------------------------------- the split


@dataclass(frozen=True, eq=False)
class Split:
    """The subproblems of one count and how their results add up.

    Attributes
    ----------
    n : int
        Board order, ``1 <= n <= 63``.
    method : {"halving", "symmetric"}
    states : numpy.ndarray, shape (n_states, 3 + depth), dtype int64
        One subproblem per row (see :mod:`nqueens_numba._kernels`).
    depth : int
        Rows pre-placed by each subproblem.
    weights : numpy.ndarray, shape (n_states,), dtype int64
        Solutions each solution found stands for: 2 for a first-row queen in the left half
        when mirror halving applies (its mirror image is not searched), ``n`` on the torus
        (the first-row queen in column 0 stands for its ``n`` column shifts), else 1.
    constraints : Constraints or None
        The constraints of a constrained count.
    board : Board
        The board searched.
    direct : bool
        Small enough to run in one kernel call in the calling thread (at most
        ``config.DIRECT_SOLUTIONS`` solutions).
    job : CountJob
        The kernel that counts a batch of these states.
    width : int
        Results per subproblem, as ``job`` gives them: 6 for the symmetric search
        (:data:`SYMMETRIC_RESULTS`), else 1.
    """

    n: int
    method: str
    states: np.ndarray
    depth: int
    weights: np.ndarray
    constraints: Constraints = None
    board: Board = QUEEN
    direct: bool = False
    job: CountJob = None

    @property
    def width(self):
        return self.job.width

    @property
    def results(self):
        """Names of what each subproblem records, or ``None`` for a single count."""
        return SYMMETRIC_RESULTS if self.method == "symmetric" else None

    @property
    def checkpoint_id(self):
        """What identifies this split in a checkpoint file (JSON-serialisable dict)."""
        cons = self.constraints
        return checkpoint.split_record(self.n, self.method, self.depth, self.states,
                                       self.results, None if cons is None else cons.sha256,
                                       self.board.name, self.board.counted,
                                       None if cons is None else cons.record())

    def partial_count(self, results):
        """Solutions counted in ``results``, ``(n_states, width)``, so far: the total the
        finished subproblems and pieces stand for (with the symmetric search, an orbit of 8
        met by ``e`` of its images counts ``8 / e`` per image, rounded down overall)."""
        if self.method != "symmetric":
            return sum(int(w) * _exact_sums(results[self.weights == w])[0]
                       for w in np.unique(self.weights))
        sums = _exact_sums(results)
        return sum(sums[e - 1] * (192 // e) for e in range(1, 5)) // 24 + 4 * sums[4] \
            + 2 * sums[5]

    def orbits(self, results):
        """Orbits by size ``{1: a, 2: b, 4: c, 8: d}`` from the symmetric search's results.

        An orbit of 8 with ``e`` tied edges has ``e`` images among the leaves, so column
        ``e - 1``, summed, is a multiple of ``e``; anything else is an internal error.
        """
        if self.method != "symmetric":
            raise ValueError("orbits are counted by the symmetric search only")
        sums = _exact_sums(results)
        orbits8 = 0
        for e in range(1, 5):
            if sums[e - 1] % e:
                raise RuntimeError(f"internal error: {sums[e - 1]} leaves with {e} tied edges "
                                   f"is not a multiple of {e}")
            orbits8 += sums[e - 1] // e
        return {1: 0, 2: sums[5], 4: sums[4], 8: orbits8}

    def first_row(self, results):
        """Solutions by the column of the first-row queen, ``(n,)`` int64, from the
        per-subproblem ``results`` of a ``"halving"`` split: each subproblem's count in its
        column, and in the mirror column too where it stands for its mirror image (weight
        2); on the torus, counted by least steps, the column shifts give every column
        ``1 / n`` of the total."""
        out = np.zeros(self.n, dtype=np.int64)
        if self.board.counted:
            out[:] = self.total(results) // self.n
            return out
        cols, counts = self.states[:, 3], results[:, 0]
        mirrored = self.weights == 2
        np.add.at(out, cols, counts)
        np.add.at(out, self.n - 1 - cols[mirrored], counts[mirrored])
        return out

    def total(self, results, fundamental=False):
        """The count from the per-subproblem ``results``, ``(n_states, width)`` int64: the
        total (weighted sum, exact Python int), or with ``fundamental`` the orbits."""
        if self.method == "symmetric":
            return orbits_to_count(self.orbits(results), fundamental)
        return sum(int(w) * int(c) for w, c in zip(self.weights, results[:, 0]))


def _exact_sums(results):
    """Column sums of ``(k, width)`` int64 ``results`` as exact Python ints (NumPy's sums
    when int64 cannot overflow)."""
    if len(results) and int(results.max()) >= 2**62 // len(results):
        return [sum(int(c) for c in results[:, j]) for j in range(results.shape[1])]
    return [int(c) for c in results.sum(axis=0)]


def orbits_to_count(orbits, fundamental):
    """The fundamental count (orbits) or the total count (their sizes summed)."""
    if fundamental:
        return sum(orbits.values())
    return sum(size * count for size, count in orbits.items())


def count_split(n, method, n_threads, prefix_depth=None, constraints=None, halving=True,
                board=QUEEN):
    """The split of a count, from validated arguments.

    Parameters
    ----------
    n : int
        Board order with ``has_subproblems(n, method)``.
    method : {"halving", "symmetric"}
        From :func:`choose_method`.
    n_threads : int
        Threads (or Dask worker threads) that will run it: the default split makes many
        more subproblems than threads.
    prefix_depth : int, optional
        Validated by :func:`check_prefix_depth`; by default the prefix grows until the
        subproblems are many and small (``config.TASKS_PER_THREAD``,
        ``config.SOLUTIONS_PER_SUBPROBLEM``, at most ``config.MAX_SUBPROBLEMS``).
    constraints : Constraints, optional
        Counted by the kernel with allowed squares; mirror halving applies when they look
        the same in a left-right mirror (and ``halving``).
    halving : bool, optional
        ``False`` searches every first-row column even where mirror halving applies (the
        enumerations write the solutions of each subproblem in order).
    board : Board, optional
        Without constraints: superqueens by either method; toroidal queens by
        ``"halving"`` only, which counts them by least steps (:attr:`Board.counted`):
        the first-row queen stands in column 0 (weight ``n``: its column shifts), and
        from two rows on the second-row queen in a column ``m <= (n - 1) / 2`` and every
        later one at least ``m`` columns, either way round, from the one above; the
        kernel weights each solution found by the rotations and negations of its steps.
        A torus without solutions has no subproblems, whatever ``halving``.

    Returns
    -------
    Split
    """
    target = split_target(n, n_threads, board)
    if n in board.unsolvable:  # nothing to search, whatever runs the split
        depth = 1 if prefix_depth is None else prefix_depth
        states = np.zeros((0, 3 + depth), dtype=np.int64)
        weights = np.zeros(0, dtype=np.int64)
    elif method == "symmetric":
        states, depth = _symmetric_prefixes(n, target, prefix_depth, board)
        weights = np.ones(len(states), dtype=np.int64)
    elif board.counted:  # by least steps: the first-row queen in column 0
        states, depth = prefixes(n, board.first_columns(n), None, target, prefix_depth, board,
                                  min(2, n), "count_prefixes")
        weights = board.first_weights(n, states[:, 3])
    else:  # the left half and the middle column, or every column, each for itself
        halved = halving and (constraints is None or constraints.mirror_symmetric)
        allow = None if constraints is None else constraints.allow
        states, depth = prefixes(n, board.first_columns(n) if halved else n, allow, target,
                                 prefix_depth, board)
        weights = (board.first_weights(n, states[:, 3]) if halved
                   else np.ones(len(states), dtype=np.int64))
    direct = board.plain and is_small(n)
    allow = (constraints.allow if constraints is not None
             else None if method == "symmetric" else no_constraints(n))
    job = CountJob(n, depth, method, allow, board, constraints is not None)
    return Split(n, method, states, depth, weights, constraints, board, direct, job)


# --------------------------------------------------------------------------- the plan


#: The engines of :class:`CountPlan`.
ENGINES = ("answer", "breadth", "small", "orbits", "split")


@dataclass(frozen=True, eq=False)
class CountPlan:
    """Everything decided about a count before it runs.

    Attributes
    ----------
    n : int
    board : Board
    engine : {"answer", "breadth", "small", "orbits", "split"}
        What answers it: ``answer`` is known without a search (the empty board; a torus
        without solutions); ``breadth``: the breadth-first search in NumPy (small boards,
        nothing to compile; the fundamental count of n <= ``config.BREADTH_ORBITS_MAX_N``
        classifies its solutions); ``small``: one call of the kernel that compiles fastest
        (``config.DIRECT_SOLUTIONS`` solutions at most); ``orbits``: the solutions
        enumerated and classified by D4 (boards too small for the symmetric kernel, the
        torus's orbits); ``split``: :attr:`split`, run by an executor.
    result : {"total", "fundamental", "orbits", "first_row"}
        What the caller wants from it.
    method : {"halving", "symmetric"}
    constraints : Constraints or None
    split : Split or None
        With ``engine == "split"``.
    answer : int or None
        With ``engine == "answer"``.
    known : int or None
        The total count from OEIS A000170 (plain queens, ``n <= 27``), else ``None``.
    device : {"cpu", "cuda"}
        Where a split runs: this machine's threads, or GPUs (:mod:`nqueens_numba._gpu`).
    """

    n: int
    board: Board
    engine: str
    result: str
    method: str
    constraints: Constraints = None
    split: Split = None
    answer: int = None
    known: int = None
    device: str = "cpu"


def _queens_shortcut(n):
    """The engine that answers a plain count of a small board without a split (when the
    plan may take a shortcut): ``"breadth"`` (:func:`is_breadth`), ``"small"``
    (:func:`is_small`), else ``None``; by ``config`` as it is now."""
    return "breadth" if is_breadth(n) else "small" if is_small(n) else None


#: The shortcuts of :func:`_queens_shortcut`, by board (none for the variants).
_SHORTCUTS = {QUEEN: _queens_shortcut}


def _shortcut(n, board):
    """The shortcut of ``board`` for ``n`` (:data:`_SHORTCUTS`), or ``None``."""
    return _SHORTCUTS.get(board, lambda n: None)(n)


def _cold(n, board, method, constraints, most):
    """Whether a count of ``n`` by ``method`` is cheaper in a kernel that compiles fastest
    (seconds against a fraction of one): plain queens, no constraints, at most ``most``
    solutions, and the symmetric kernel it would run still to compile. With
    ``config.COLD_DIRECT_SOLUTIONS`` (totals only), the plainest count (engine ``"small"``);
    with ``config.COLD_SYMMETRIC_SOLUTIONS``, the symmetric search (``CountJob.first``)."""
    return (board is QUEEN and method == "symmetric" and constraints is None
            and (QUEEN.known_total(n) or 2**64) <= most and not _kernels.is_ready("symmetric"))


def plan_count(n, board=QUEEN, *, result="total", method=None, constraints=None,
               prefix_depth=None, n_threads=1, checkpoint=None, shortcuts=True, device="cpu",
               gpu_usable=None):
    """The plan of a count: the one place that decides its engine and method.

    Parameters
    ----------
    n : int
        Validated board order.
    board : Board
    result : {"total", "fundamental", "orbits", "first_row"}
        The total count, the fundamental count, the orbits by size, or the counts by
        first-row column.
    method : {None, "halving", "symmetric"}
        The user's choice (validated here: :func:`check_method`).
    constraints : Constraints, optional
    prefix_depth : int, optional
        Not yet validated (it depends on the method).
    n_threads : int
        Threads that will run the split (sizes it).
    checkpoint : str, optional
        A count to resume: its depth, and its method where none is asked, are the file's.
    shortcuts : bool
        Whether the count runs in this process without a progress bar: then it may be
        answered without a split, or by a kernel that compiles fastest (:func:`_cold`), with
        the automatic method, no checkpoint or prefix depth, on the CPU; and a small split
        (``direct``) runs in the calling thread, without a checkpoint, on the CPU.
    device : {"cpu", "cuda", "auto"}
        Validated; resolved here (:func:`nqueens_numba._device.decide`). On ``"cuda"`` a
        split is sized for ``config.GPU_SPLIT_THREADS`` threads, never run in the calling
        thread (``direct``), and no shortcut is taken; what has no split (the empty board,
        boards whose orbits are enumerated) is answered on the CPU.
    gpu_usable : bool, optional
        Whether ``"auto"`` may take a GPU (``None``: whether this machine has a usable one;
        a Dask count says whether its workers do).

    Raises
    ------
    ValueError
        For combinations that cannot be counted (:func:`choose_method`,
        :meth:`Board.check_combination`) and a checkpoint where there is nothing to
        record.
    """
    fundamental = result in ("fundamental", "orbits")
    auto = method is None
    in_caller = shortcuts and checkpoint is None  # (a small split may run in this thread)
    if method is not None:
        method = check_method(method)
    if board.restricted:
        board.check_combination(constraints, method, fundamental, prefix_depth)
    if method is None and checkpoint is not None:  # (resumed by the file's method)
        method = resumed_method(checkpoint, n, fundamental, constraints, board)
    method = choose_method(n, method, fundamental, constraints, board)
    device = _device.decide(device, n, board, method, constraints is not None, gpu_usable)
    plan = dict(n=n, board=board, result=result, method=method, constraints=constraints,
                known=board.known_total(n), device=device)
    shortcuts = (shortcuts and auto and prefix_depth is None and checkpoint is None
                 and device == "cpu")
    if device == "cuda":
        n_threads = config.GPU_SPLIT_THREADS
    if prefix_depth is not None:  # (checked even where the answer needs no search)
        prefix_depth = check_prefix_depth(prefix_depth, n, method)
    if n == 0 or (n in board.unsolvable and checkpoint is None):
        return CountPlan(engine="answer", answer=int(n == 0), **plan)
    if result == "first_row":  # mirror halving, then copied, on the plain board only
        plan.update(method="halving")
        if _shortcut(n, board) == "breadth":
            return CountPlan(engine="breadth", **plan)
        split = count_split(n, "halving", n_threads, halving=board.plain, board=board)
        return CountPlan(engine="split", split=replace(split, direct=split.direct and in_caller),
                         **plan)
    shortcut = _shortcut(n, board) if shortcuts else None
    constrained = constraints is not None
    cold = partial(_cold, n, board, method, constraints)  # (a first count's kernels)
    if (_kernels.is_loaded(method, board.flag, constrained)
            or _kernels.is_loaded("symmetric_first", 0, False)
            and shortcuts and cold(config.COLD_SYMMETRIC_SOLUTIONS)):
        shortcut = None  # loaded: faster than NumPy or the kernel that compiles fastest
    elif fundamental and board.plain and shortcuts and n <= config.BREADTH_ORBITS_MAX_N:
        shortcut = "breadth"  # the solutions by NumPy, classified by D4
    elif (shortcut == "breadth" and n >= config.SMALL_OVER_BREADTH_MIN_N
          and _kernels.is_loaded("small", board.flag, constrained)):
        shortcut = "small"
    elif (shortcut is None and shortcuts and result == "total"
          and cold(config.COLD_DIRECT_SOLUTIONS)
          and not _kernels.is_ready("symmetric_first")):  # (if cached, it counts on)
        shortcut = "small"
    elif (shortcut == "small" and shortcuts and not _kernels.is_ready("count_rows")
          and _kernels.is_ready("symmetric_first") and cold(config.COLD_SYMMETRIC_SOLUTIONS)):
        shortcut = None  # (the first count's symmetric kernel is cached, the plainest not)
    if shortcut == "breadth" or (shortcut == "small" and result == "total"):
        return CountPlan(engine=shortcut, **plan)
    if fundamental and not board.classified_by_search and has_subproblems(n, method):
        if checkpoint is not None:  # (enumerated in one call: it could not resume)
            raise ValueError(f"checkpoint is not used for n={n}{board.keywords} with "
                             f"fundamental=True: its solutions are enumerated and "
                             f"classified, not counted by subproblems (none to record)")
        return CountPlan(engine="orbits", **plan)
    if not has_subproblems(n, method):  # microseconds: a checkpoint is checked, not written
        return CountPlan(engine="orbits", **plan)
    if prefix_depth is None and checkpoint is not None:
        prefix_depth = resumed_depth(checkpoint, n, method, board)
    split = count_split(n, method, n_threads, prefix_depth, constraints, board=board)
    split = replace(split, direct=split.direct and in_caller and device == "cpu")
    if shortcuts and cold(config.COLD_SYMMETRIC_SOLUTIONS):
        split = replace(split, job=split.job.first_use())
    return CountPlan(engine="split", split=split, **plan)
