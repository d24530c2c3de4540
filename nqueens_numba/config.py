"""Tunables of the search, as module constants.

Change them before calling into the package (for example in a benchmark); the API reads them
at call time. All but the tables of counts are checked when they are set (``TypeError`` for
another type, ``ValueError`` for a value out of range, such as 0 where 1 or more is needed).
"""
import numbers
import sys
from collections.abc import Mapping
from types import MappingProxyType

#: Largest board order of the bitboard search: an ``int64`` holds the masks of 63 columns.
MAX_N = 63

#: The prefix split aims at this many subproblems per thread (threads that finish early take
#: the next ones), ...
TASKS_PER_THREAD = 64

#: ... and at no more than this many solutions per subproblem (OEIS A000170 / subproblems),
#: so that one subproblem takes well under a second: the unit of progress, interruption and
#: checkpointing.
SOLUTIONS_PER_SUBPROBLEM = 2_000_000

#: An enumeration of many threads on a small board splits it into no more subproblems than
#: one per this many solutions: each subproblem costs its own Python work (a queue and
#: kernel calls, about 0.1 ms), which made ``solve(14)`` on 256 threads 15 times slower
#: than on 2 (27,034 subproblems of 7 solutions each). (A count's split is not bounded so:
#: the toroidal and superqueens' searches are large for their few solutions.)
MIN_SOLUTIONS_PER_SUBPROBLEM = 1024

#: Deepest prefix (number of pre-placed rows) the automatic split uses, and the most
#: subproblems it makes (each is a row of ``3 + depth`` int64).
MAX_SPLIT_DEPTH = 8
MAX_SUBPROBLEMS = 1_000_000

#: Subproblems run in this seeded shuffled order, so that progress (and its ETA) is even.
SHUFFLE_SEED = 20261129

#: Seconds of work a batch of subproblems handed to one thread aims at (the batch size
#: adapts to the measured time per subproblem).
TASK_SECONDS = 0.05

#: Counts of boards with at most this many solutions (OEIS A000170) run in one kernel call
#: in the calling thread, without a thread pool, and a first count of such a board (n <= 14)
#: in the kernel that compiles fastest: measured (benchmarks/bench_startup.py), a fresh
#: `nqueens count 14` took 2.4 s that way against 16.9 s with the split's kernels to
#: compile. Once both are cached, the two are within 0.02-0.06 s of each other in a new
#: process (0.38 s that way, 0.36 s by the symmetric split, best of 10 taking turns).
DIRECT_SOLUTIONS = 400_000

#: A first count of a board with at most this many solutions (n = 15), while the symmetric
#: kernel is neither loaded in the process nor in numba's cache, runs in the kernel of
#: :data:`DIRECT_SOLUTIONS` too: measured in fresh processes on 2 cores, `nqueens count 15`
#: took 0.92-0.96 s that way against 4.3 s with the symmetric kernel to compile, and 0.58 s
#: warm; once the kernel of :data:`COLD_SYMMETRIC_SOLUTIONS` or the symmetric kernel is
#: cached, it counts n = 15 (in one run, 0.39-0.42 s and 0.39-0.40 s, against 0.59 s).
COLD_DIRECT_SOLUTIONS = 2_300_000

#: A count of a board with at most this many solutions (n = 16), while the symmetric kernel
#: is neither loaded in the process nor in numba's cache, runs the symmetric search in the
#: symmetric kernel that compiles fastest (``_kernels.symmetric_first``).
COLD_SYMMETRIC_SOLUTIONS = 15_000_000

#: Boards up to this order are counted and enumerated by a breadth-first search in NumPy
#: (``_breadth``: nothing to compile, no numba to import) when no progress bar, checkpoint or
#: split is asked for: measured at n = 12, a count takes 35 ms and ``solve`` 38 ms there,
#: against 0.1 s to load the compiled kernels from their cache in a new process (and 0.5-6 s
#: to compile them); at n = 13 it takes 0.2 and 0.5 s, where the kernels take 10 ms once
#: loaded.
BREADTH_MAX_N = 12

#: From this order on, total counts in :data:`BREADTH_MAX_N`'s range run the kernel that
#: compiles fastest instead of NumPy once a count has loaded it in the process: measured on a
#: loaded 2-core machine, n = 12 in 16 ms against 179 ms in NumPy, n = 8 0.21 against 0.27 ms
#: (and NumPy faster below).
SMALL_OVER_BREADTH_MIN_N = 8

#: The fundamental count (and the orbits) of boards up to this order, while the symmetric
#: kernel is not loaded in the process, classify the solutions of the breadth-first search by
#: D4 in NumPy: at n = 13, 0.5 s, where compiling the symmetric kernel takes seconds (and
#: loading it from the cache about as long as the NumPy way).
BREADTH_ORBITS_MAX_N = 13

#: A count estimated at more than this many CPU seconds says so when it starts
#: (``LongCountWarning``): a day.
LONG_COUNT_SECONDS = 86_400

#: Growth of a count's time per solution from one board order to the next, for that
#: estimate: 1.09-1.10 measured from n = 14 to 17 (symmetric search, one thread: 74, 88 and
#: 97 ns per solution at n = 14, 16 and 17).
COST_GROWTH_PER_N = 1.10

#: Growth of the total count from one board order to the next past the tabulated ones, for
#: that estimate where it goes past them (constrained counts): A000170(27) / A000170(26) =
#: 10.5.
TOTAL_GROWTH_PAST_TABLE = 10.5

#: Most seconds between two writes of a checkpoint file.
CHECKPOINT_SECONDS = 2.0

#: Smallest board order counted by the symmetric (D4) search by default; smaller boards use
#: mirror halving. Measured with ``benchmarks/bench_symmetry.py`` (one thread, call included,
#: best of 50): the symmetric search is faster from n = 7 on, where its kernel applies
#: (0.012 ms against 0.033 ms at n = 7, 0.042 against 0.077 ms at n = 10, 0.10 against
#: 0.46 ms at n = 11); below n = 7 it enumerates the solutions.
SYMMETRIC_MIN_N = 7

#: Rows of the first block a subproblem's enumeration writes; later blocks double in size up
#: to ``MAX_BLOCK_ROWS``. A block is the unit between checks for cancellation.
FIRST_BLOCK_ROWS = 1 << 12
MAX_BLOCK_ROWS = 1 << 18

#: Rows of a streamed chunk when the number of solutions is not known beforehand (pre-placed
#: queens or blocked squares): the chunk doubles from here up to ``chunk_size`` as it fills.
FIRST_CHUNK_ROWS = 1 << 16

#: Steps of a count's search between two looks at the calling thread's stop flag: one
#: kernel call of a count, after which a thread reports its search in progress (to
#: checkpoints and the progress bar) and shares work with idle threads. A step is a return
#: to a row more than 2 rows above the unrolled tail (``_kernels.count._count_cursor``):
#: 10-110 ns on a 2-core machine, so 2^20 steps take 0.01-0.11 s (measured at n = 16-63).
COUNT_BUDGET = 1 << 20

#: Most seconds the package waits for its threads to end once told to stop (they check
#: between kernel calls, a tenth of a second each); one still running then is reported
#: (``RuntimeWarning``) and left to end by itself, rather than waited on forever.
JOIN_SECONDS = 10.0

#: Seconds a Dask task of a count runs before it returns its search in progress (which a new
#: task continues): the most work an interrupted Dask count loses per worker thread. About
#: 2 ms of scheduling per task make this negligible.
DASK_TASK_SECONDS = 5.0

#: Seconds a Dask count waits with no worker in its cluster before it says so (once, a
#: ``RuntimeWarning``): its tasks wait for a worker to join, which Dask does not say.
DASK_NO_WORKER_SECONDS = 10.0

#: Squares a subproblem's enumeration tries between checks for cancellation (about 0.1 s).
STEP_BUDGET = 1 << 24

#: Most units of work of one call of the min-conflicts search (``find_solution``): a loop's
#: turn or a swap tried, after which the call returns so that Ctrl-C stops it. A unit is a
#: random access to arrays of ``2 n`` ints: a nanosecond while they fit in the processor's
#: caches, 0.3 microseconds past them (n = 10^8), so calls are sized by their time too, for
#: a tenth of a second each, within this.
LOCAL_SEARCH_BUDGET = 1 << 19

#: Subproblems being enumerated ahead of the one whose rows are consumed, per thread, when
#: streaming (``iter_solutions``) and in ``solve``. Bounds the memory held for out-of-order
#: results; ``solve``'s subproblems are small beside its result, and a wider window keeps
#: threads busy while a large subproblem holds up the others.
WINDOW_PER_THREAD = 4
SOLVE_WINDOW_PER_THREAD = 32

#: Blocks a subproblem being streamed may hold ready before the consumer takes them (its
#: thread then waits). ``solve`` does not wait: its subproblems are small beside its result.
QUEUED_BLOCKS = 2

#: Estimates (``estimate_count``, ``search_profile(samples=...)``): each probe counts the
#: last rows of the board exactly below where it stops, this many by board order (``(max n,
#: rows)``, the first that applies). Chosen by the relative variance times the time per probe
#: (the cost of a given error bar), measured on one thread with 2 exact prefix rows: it is
#: lowest with 8 rows at n = 14-20, 9 at n = 24-27 and 10 at n = 32-40 (at n = 27: 9.5e-6,
#: 7.5e-6, 9.1e-6 s for 8, 9, 10 rows, against 8.3e-5 s for 3 rows and 1.8e-5 s for 11). At
#: least ``ESTIMATE_RANDOM_ROWS`` rows are always sampled, so that an estimate of a small
#: board is a real one (exact counts take milliseconds there).
ESTIMATE_TAIL_ROWS = ((22, 8), (28, 9), (63, 10))
ESTIMATE_RANDOM_ROWS = 3

#: Estimates sample below every placement of the first rows (the strata: mirror images
#: counted once), as many rows as leave at least this many probes per stratum, and at most
#: ``ESTIMATE_MAX_DEPTH`` rows. Deeper strata remove the variance of the rows they fix but
#: cost a tenth of a second per million strata to set up: at n = 27, 2 and 3 rows reach the
#: same error in the same time.
ESTIMATE_PROBES_PER_STRATUM = 256
ESTIMATE_MAX_DEPTH = 3

#: Probes per kernel call of an estimate (a chunk, with its own random stream): 10-60 ms at
#: n = 16-40, the unit of progress and interruption. Fixed, so that a seeded estimate is the
#: same for every thread count.
ESTIMATE_CHUNK = 1 << 15

#: Solutions (OEIS A000170) in the subproblems of one kernel call of an exact profile of the
#: search tree (``search_profile``), the unit of progress: the profile walks every node, about
#: 4 ns each on one thread, and there are 75-77 nodes per solution at n = 14-16 (290-320 ns
#: per solution), so a batch takes about 0.3 s.
PROFILE_BATCH_SOLUTIONS = 1_000_000

#: Steps of an exact profile per kernel call, between which it checks for Ctrl-C (a subproblem
#: of a large board is resumed where it stopped). A step is the search below a node 5 rows or
#: more from the last: 75 ns at n = 16, 17 ns at n = 25 on one thread, so a call takes
#: 0.03-0.16 s.
PROFILE_STEPS = 1 << 21

#: Rough cost of a count of a variant's board on one thread of the 2-core machine, for the
#: long-count warning: ``(n, seconds at that n, growth per board order)``, from
#: benchmarks/bench_variants.py (toroidal queens by least steps: 0.8 s at n = 19, 665 s at
#: n = 23, about 5.4 times more per order; superqueens by the symmetric search: 0.72 s at
#: n = 17, about 6.5 times more per order).
VARIANT_COST = MappingProxyType({"torus": (23, 665.0, 5.4), "superqueen": (17, 0.72, 6.5)})

#: Share of the available memory that ``solve`` may allocate for its result by default.
MEMORY_FRACTION = 0.8

#: ``solve`` without a progress bar warns (``UserWarning``) before filling a result of more
#: than this many bytes: 1 GiB. ``solve(16)`` (225 MiB) takes about 2 s, below it;
#: ``solve(17)`` (1.5 GiB) takes tens of seconds and ``solve(18)`` (11 GiB) minutes, which
#: would otherwise pass without a word while memory grows.
LARGE_RESULT_BYTES = 1 << 30

#: Total counts, OEIS A000170, n = 0 .. 27 (https://oeis.org/A000170), read through
#: ``Board.known_total``: they size the output of ``solve`` before the search (the search's
#: own count is checked against it) and the split of a count (``SOLUTIONS_PER_SUBPROBLEM``),
#: choose how a small count runs (``DIRECT_SOLUTIONS`` and after), and scale the long-count
#: warning.
A000170 = (
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
    24233937684440, 227514171973736, 2207893435808352, 22317699616364044,
    234907967154122528,
)

#: Fundamental counts (classes under the eight symmetries of the square), OEIS A002562,
#: n = 0 .. 27 (https://oeis.org/A002562). Used only to check the counts a checkpoint leads
#: to.
A002562 = (
    1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
    83263591, 621012754, 4878666808, 39333324973, 336376244042, 3029242658210,
    28439272956934, 275986683743434, 2789712466510289, 29363495934315694,
)

#: GPU counts (``device="cuda"``). ``device="auto"`` takes a usable GPU from this board order
#: on: below it a count takes milliseconds on the CPU, less than a GPU's context and first
#: launch.
GPU_MIN_N = 13

#: The split of a GPU count is sized as for this many CPU threads (``TASKS_PER_THREAD``
#: subproblems each, up to ``MAX_SUBPROBLEMS``): many more subproblems than a GPU has
#: resident threads, so that the atomic counter balances the uneven subtrees and every
#: launch is short. Not yet measured on a GPU.
GPU_SPLIT_THREADS = 1 << 14

#: Threads per block of the GPU kernels (fewer when the per-thread stacks would not fit in a
#: block's 48 KiB of shared memory), and blocks per multiprocessor of a launch. Not yet
#: measured on a GPU.
GPU_BLOCK = 128
GPU_BLOCKS_PER_SM = 4

#: The most registers a GPU thread takes (0: as many as the compiler chooses). Fewer
#: registers let more blocks share a multiprocessor: compiled for sm_90 at n = 20, the
#: symmetric search takes 76, so 6 blocks of 128 threads fit; capped at 64 it takes 62,
#: without spilling, and 8 fit (the count takes 25). 0 to 255. Not yet measured on a GPU.
GPU_MAX_REGISTERS = 0

#: Seconds of GPU work a launch aims at (the number of subproblems it takes adapts to the
#: measured time per subproblem): the most a Ctrl-C waits for, and the unit of progress and
#: checkpointing of a GPU count.
GPU_LAUNCH_SECONDS = 1.0


# --------------------------------------------------------------------------- checked changes

_INT64_MAX = 2**63 - 1  # (the kernels take their budgets and sizes as int64)

#: The tunables checked when they are changed, which are all but the tables of counts: a 0, a
#: negative value or another type made calls fail deep inside (``ZeroDivisionError``,
#: ``TypeError``), or never end. Integers with their least value (and most) ...
_INTEGERS = {
    **dict.fromkeys((  # (counts and sizes)
        "TASKS_PER_THREAD", "SOLUTIONS_PER_SUBPROBLEM", "MIN_SOLUTIONS_PER_SUBPROBLEM",
        "MAX_SPLIT_DEPTH", "MAX_SUBPROBLEMS", "FIRST_BLOCK_ROWS", "MAX_BLOCK_ROWS",
        "FIRST_CHUNK_ROWS", "COUNT_BUDGET", "STEP_BUDGET", "LOCAL_SEARCH_BUDGET",
        "WINDOW_PER_THREAD", "SOLVE_WINDOW_PER_THREAD", "QUEUED_BLOCKS",
        "ESTIMATE_PROBES_PER_STRATUM", "ESTIMATE_CHUNK", "PROFILE_BATCH_SOLUTIONS",
        "PROFILE_STEPS", "GPU_SPLIT_THREADS", "GPU_BLOCK", "GPU_BLOCKS_PER_SM"),
        (1, _INT64_MAX)),
    **dict.fromkeys((  # (thresholds, where 0 takes none or all; rows; a seed)
        "DIRECT_SOLUTIONS", "COLD_DIRECT_SOLUTIONS", "COLD_SYMMETRIC_SOLUTIONS",
        "LARGE_RESULT_BYTES", "ESTIMATE_RANDOM_ROWS", "ESTIMATE_MAX_DEPTH", "SHUFFLE_SEED"),
        (0, _INT64_MAX)),
    **dict.fromkeys((  # (board orders from or up to which: -1 takes no board, 64 all)
        "BREADTH_MAX_N", "SMALL_OVER_BREADTH_MIN_N", "BREADTH_ORBITS_MAX_N",
        "SYMMETRIC_MIN_N", "GPU_MIN_N"), (None, None)),
    "GPU_MAX_REGISTERS": (0, 255),  # (0: no cap; 255: ptxas's most registers a thread)
    "MAX_N": (MAX_N, MAX_N),  # (a fact of the kernels, not a tunable)
}
#: ... and numbers, with their least value and whether it is allowed (and most).
_NUMBERS = {
    **dict.fromkeys(("CHECKPOINT_SECONDS", "JOIN_SECONDS", "DASK_TASK_SECONDS",
                     "DASK_NO_WORKER_SECONDS", "LONG_COUNT_SECONDS"), (0, True, None)),
    **dict.fromkeys(("TASK_SECONDS", "GPU_LAUNCH_SECONDS", "COST_GROWTH_PER_N",
                     "TOTAL_GROWTH_PAST_TABLE"), (0, False, None)),
    "MEMORY_FRACTION": (0, False, 1),
}


def _integer(name, value):
    """``TypeError`` for a ``value`` that is not an integer (``bool`` is not one)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"config.{name} must be an integer, got {type(value).__name__}")


def _check(name, value):
    """``TypeError`` or ``ValueError`` for a value that ``name`` cannot take."""
    if name in _INTEGERS:
        _integer(name, value)
        low, high = _INTEGERS[name]
        if low is not None and low == high and value != low:  # (MAX_N)
            raise ValueError(f"config.{name} is {low}, the most columns an int64 mask holds, "
                             f"and cannot be changed; got {value}")
        if high == _INT64_MAX and value > high:
            raise ValueError(f"config.{name} must be at most 2**63 - 1 (an int64), got {value}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"config.{name} must be {low} or more"
                             + ("" if high in (None, _INT64_MAX) else f", at most {high}")
                             + f", got {value}")
    elif name in _NUMBERS:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"config.{name} must be a number, got {type(value).__name__}")
        low, allowed, high = _NUMBERS[name]
        seconds = name.endswith("_SECONDS")
        if allowed and not value >= low:
            raise ValueError(f"config.{name} must be {low} or more{' seconds' * seconds}, "
                             f"got {value}")
        if not allowed and not value > low:
            raise ValueError(f"config.{name} must be a number{' of seconds' * seconds} above "
                             f"{low}, got {value}")
        if high is not None and not value <= high:
            raise ValueError(f"config.{name} must be above {low} and at most {high}, "
                             f"got {value}")
    elif name == "ESTIMATE_TAIL_ROWS":
        _tail_rows(value)
    elif name == "VARIANT_COST":
        _variant_cost(value)


def _tail_rows(value):
    """``TypeError`` or ``ValueError`` for an ``ESTIMATE_TAIL_ROWS`` that is not pairs
    ``(most n, rows)`` of integers, ``most n`` rising and the last covering every board,
    ``0 <= rows <= MAX_N``."""
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in value):
        raise TypeError("config.ESTIMATE_TAIL_ROWS must be a tuple of pairs (most n, rows), "
                        f"got {value!r}")
    for most, rows in value:
        _integer("ESTIMATE_TAIL_ROWS", most)
        _integer("ESTIMATE_TAIL_ROWS", rows)
        if not 0 <= rows <= MAX_N:
            raise ValueError(f"config.ESTIMATE_TAIL_ROWS: rows must be 0 or more, at most "
                             f"{MAX_N}, got {rows}")
    if any(later[0] <= earlier[0] for earlier, later in zip(value, value[1:])):
        raise ValueError(f"config.ESTIMATE_TAIL_ROWS: the orders must rise, got {value!r}")
    if not value or value[-1][0] < MAX_N:
        raise ValueError(f"config.ESTIMATE_TAIL_ROWS must end with a pair for n = {MAX_N} "
                         f"or more (every board needs its rows), got {value!r}")


def _variant_cost(value):
    """``TypeError`` or ``ValueError`` for a ``VARIANT_COST`` that does not map each
    variant to ``(n, seconds, growth)``, numbers above 0 (``n`` an integer)."""
    if not isinstance(value, Mapping) or set(value) != set(VARIANT_COST):
        raise TypeError(f"config.VARIANT_COST must be a dict of {sorted(VARIANT_COST)}, "
                        f"got {value!r}")
    for name, cost in value.items():
        if not isinstance(cost, tuple) or len(cost) != 3 or not all(
                isinstance(x, numbers.Real) and not isinstance(x, bool) and x > 0
                for x in cost) or not isinstance(cost[0], numbers.Integral):
            raise ValueError(f"config.VARIANT_COST[{name!r}] must be (n, seconds, growth), "
                             f"numbers above 0 (n an integer), got {cost!r}")


class _Config(type(sys.modules[__name__])):
    """This module, whose tunables are checked when set (``config.STEP_BUDGET = 0`` raises
    ``ValueError`` at once, and a misspelt ``config.STEP_BUGDET = 10`` ``AttributeError``)."""

    def __setattr__(self, name, value):
        if not name.startswith("_") and name not in _TUNABLES:
            raise AttributeError(f"nqueens_numba.config has no tunable {name!r}")
        _check(name, value)
        super().__setattr__(name, _stored(name, value))


def _stored(name, value):
    """A checked ``value`` as it is kept: a Python ``int`` or ``float`` (a NumPy ``int8``
    or ``float16`` would overflow in the arithmetic done with it), a read-only mapping."""
    if name in _INTEGERS:
        return int(value)
    if name in _NUMBERS:
        return float(value)
    if name == "VARIANT_COST":
        return MappingProxyType({key: tuple(cost) for key, cost in value.items()})
    if name == "ESTIMATE_TAIL_ROWS":
        return tuple((int(most), int(rows)) for most, rows in value)
    return value


#: The names of the tunables: all the module's upper-case names, set again after a ``del``.
_TUNABLES = frozenset(name for name in dir(sys.modules[__name__])
                      if name.isupper() and not name.startswith("_"))


sys.modules[__name__].__class__ = _Config
