"""The size of the search tree: estimates of the total count for any board, and the nodes of
the backtrack tree at each depth, exactly or estimated."""
import math
import numbers
import statistics
from dataclasses import dataclass
from typing import NamedTuple, Union

import numpy as np

from . import _enumerating, _kernels, _validate, config
from ._kernels import _loading
from ._pool import run_chunks
from ._progress import compile_first, interruption_says, progress_bar
from .board import QUEEN, Board, board_of
from .constraints import no_constraints

__all__ = ["Estimate", "estimate_count", "search_profile"]


class Estimate(NamedTuple):
    """An unbiased Monte Carlo estimate and its standard error.

    Attributes
    ----------
    value : float or numpy.ndarray of float64
        The estimate (for :func:`search_profile`, one per depth: shape ``(n + 1,)``).
    stderr : float or numpy.ndarray of float64
        Its estimated standard error, same shape: 0 only where the value is exact (the
        depths counted rather than sampled, and boards known to have no solutions);
        ``nan`` where it cannot be estimated: a stratum with a single probe, probes that
        all agree (no spread is no proof: a few probes can agree by chance), or an estimate
        of 0 where every probe died on a board of 4 or more rows, unless the board is known
        to have no solutions (the torus of ``gcd(n, 6) > 1``, superqueens of ``n <= 9``).
    samples : int
        The random probes it is made of (0 on a board known to have no solutions: it needs
        none).
    """

    value: Union[float, np.ndarray]
    stderr: Union[float, np.ndarray]
    samples: int

    def interval(self, confidence=0.95):
        """The normal-approximation confidence interval ``(low, high)``: ``value -+ z *
        stderr`` with ``z`` the normal quantile of ``confidence`` (1.96 for 0.95), ``low``
        no less than 0 (the counts are not negative); ``nan`` where ``stderr`` is.

        Raises ``TypeError`` for a non-number and ``ValueError`` outside ``0 < confidence <
        1``.
        """
        if isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence,
                                                                      numbers.Real):
            raise TypeError(f"confidence must be a number, got {type(confidence).__name__}")
        if not 0 < confidence < 1:
            raise ValueError(f"confidence must be between 0 and 1 (exclusive), got "
                             f"{confidence}")
        z = -statistics.NormalDist().inv_cdf((1 - float(confidence)) / 2)
        low = np.maximum(self.value - z * self.stderr, 0.0)
        high = self.value + z * self.stderr
        return (float(low), float(high)) if np.ndim(low) == 0 else (low, high)

    @property
    def relative_stderr(self):
        """``stderr / value`` (``inf`` where the value is 0 with an error, ``nan`` for 0/0)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.divide(self.stderr, self.value)
        return float(ratio) if np.ndim(ratio) == 0 else ratio

    def __repr__(self):
        if np.ndim(self.value) == 0:
            rel = self.relative_stderr
            share = f" ({100 * rel:.2g}%)" if math.isfinite(rel) else ""
            return (f"Estimate(value={self.value:.7g}, stderr={self.stderr:.3g}{share}, "
                    f"samples={self.samples:,})")
        with np.printoptions(precision=4):
            return (f"Estimate(value={self.value!r}, stderr={self.stderr!r}, "
                    f"samples={self.samples:,})")


def _check(n, samples, seed, n_threads, progress, piece, torus):
    board = board_of(piece, torus)
    if _validate.integer(n, "n") == 0:
        raise ValueError(f"n must be in the range 1..{config.MAX_N}, got 0 (the empty board "
                         f"has exactly one solution: nothing to estimate)")
    n = _validate.in_range(n, "n", 1, config.MAX_N)
    if isinstance(samples, (float, np.floating)) and float(samples).is_integer():
        whole = int(samples)
        power = round(math.log10(whole)) if whole >= 1000 else None  # 10**6, not 10**0
        written = f"10**{power}" if power is not None and 10**power == whole else f"{whole}"
        raise TypeError(f"samples must be an integer, got float (write {written}, not "
                        f"{float(samples)!r})")
    samples = _validate.in_range(samples, "samples", 1, 2**62,
                                 what="a positive integer up to 2**62")
    if seed is not None:
        seed = _validate.in_range(seed, "seed", 0, what="an integer 0 or more")
    return (n, samples, np.random.SeedSequence(seed).entropy, _validate.threads(n_threads),
            _validate.flag(progress, "progress"), board)


@dataclass(eq=False)
class ProbePlan:
    """The random probes of an estimate (``estimate_count``, ``search_profile(samples=)``),
    decided from ``n`` and ``samples`` alone, so that a seeded estimate is the same for every
    thread count.

    The strata are the placements of the first ``depth`` rows with the first-row queen in
    the left half or the middle (``states``; the root alone when ``depth == 0``), each
    standing for its mirror image too where that is another placement (``weights`` 2, else
    1). Stratum ``s``
    has ``base + 1`` probes if ``s < extra``, else ``base``, one after the other: probe
    ``p`` of the whole estimate belongs to :meth:`stratum` ``(p)``. Each probe counts the
    last ``tail`` rows exactly. Chunk ``c`` holds probes ``c * chunk`` onwards, with a random
    stream of its own.
    """
    n: int
    samples: int
    states: np.ndarray
    depth: int
    weights: np.ndarray
    tail: int
    chunk: int
    board: Board = QUEEN

    @property
    def base(self):
        return self.samples // len(self.states)

    @property
    def extra(self):
        return self.samples % len(self.states)

    @property
    def n_chunks(self):
        return -(-self.samples // self.chunk)

    def stratum(self, probe):
        """The stratum of probe ``probe`` (``0 <= probe < samples``)."""
        base, extra = self.base, self.extra
        big = extra * (base + 1)
        return probe // (base + 1) if probe < big else extra + (probe - big) // base

    def probes(self):
        """Probes per stratum: ``(n_strata,)`` int64."""
        counts = np.full(len(self.states), self.base, dtype=np.int64)
        counts[:self.extra] += 1
        return counts

    def chunk_probes(self, c):
        """``(first, count, first_stratum, n_strata)`` of chunk ``c``."""
        first = c * self.chunk
        count = min(self.chunk, self.samples - first)
        s = self.stratum(first)
        return first, count, s, self.stratum(first + count - 1) - s + 1


def _estimate_tail(n):
    return next(rows for most, rows in config.ESTIMATE_TAIL_ROWS if n <= most)


def probe_plan(n, samples, board=QUEEN):
    """The :class:`ProbePlan` of an estimate of ``n`` (``1 <= n <= 63``) from ``samples``
    probes: strata of as many rows as leave ``config.ESTIMATE_PROBES_PER_STRATUM`` probes
    each (at most ``config.ESTIMATE_MAX_DEPTH``), exact tails of
    ``config.ESTIMATE_TAIL_ROWS``, and at least ``config.ESTIMATE_RANDOM_ROWS`` sampled rows
    between them (fewer on the smallest boards, whose probes are then exact). On the torus
    the first-row queen of a stratum stands in column 0, for its ``n`` column shifts.

    Strata deeper than one row never shorten the exact tail (on boards of 13 rows or fewer,
    where the rows run short): a row sampled in place of a row counted exactly cost more
    than the stratum row gained, so that more samples gave a worse estimate (n = 12, RMS
    error of 60 seeds: 0.73% at 10^4 samples, 0.70% at 10^5 with 3 stratum rows and 6
    exact, 0.25% with 1 and 8)."""
    full = no_constraints(n)
    states = np.zeros((1, 3), dtype=np.int64)  # the root
    weights = np.ones(1, dtype=np.int64)
    depth = 0
    first_limit = board.first_columns(n)
    prefixes = _kernels.entry("prefixes", board)
    most = min(config.ESTIMATE_MAX_DEPTH, n - config.ESTIMATE_RANDOM_ROWS - 1)
    for k in range(1, most + 1):
        if k > 1 and n - k - config.ESTIMATE_RANDOM_ROWS < _estimate_tail(n):
            break  # (a row from the exact tail: a worse estimate, see the docstring)
        room = samples // config.ESTIMATE_PROBES_PER_STRATUM
        deeper, found = _loading.first_call(prefixes, n, k, first_limit, full, room)
        if found == 0 or found * config.ESTIMATE_PROBES_PER_STRATUM > samples:
            break  # (none: no solutions, which the probes of the shallower strata find)
        states, depth = deeper, k
        weights = board.first_weights(n, states[:, 3])
    tail = max(0, min(_estimate_tail(n), n - depth - config.ESTIMATE_RANDOM_ROWS))
    return ProbePlan(n, samples, states, depth, weights, tail, config.ESTIMATE_CHUNK, board)


def _profile_states(n, states, depth, limit, weights, out, board=QUEEN):
    """Add ``weights[i]`` times the nodes of each depth ``depth + 1 .. limit`` below each
    subproblem ``states[i]`` to ``out``, ``(n + 1,)`` int64, in one kernel call (job
    ``profile`` of ``board``, no budget)."""
    _kernels.entry("profile", board)(
        n, states, depth, limit, weights, np.empty((n + 1, 4), dtype=np.int64),
        np.full(3, -1, dtype=np.int64), np.zeros(n + 1, dtype=np.int64), out, 1 << 62)


def _probe(plan, entropy, width, n_threads, progress, what):
    """Run the probes of ``plan``: per stratum, the sums of the probes' values and of their
    squares, ``(n_strata, width)`` float64 each (``width`` 1: solutions; ``n + 1``: every
    depth). Chunk ``c`` draws from ``SeedSequence(entropy, spawn_key=(c,))`` and the chunks
    are added in order, so the result does not depend on the threads."""
    n, states = plan.n, plan.states
    kernel = _kernels.entry("probe", plan.board)
    sums = np.zeros((len(states), width))
    squares = np.zeros((len(states), width))

    def run(c, stop):  # one kernel call: ``stop`` is checked between chunks
        first, count, s, k = plan.chunk_probes(c)
        stream = np.random.SeedSequence(entropy, spawn_key=(c,))
        rng = np.random.Generator(np.random.PCG64(stream))
        out = np.zeros((2, k, width))
        kernel(n, states, plan.depth, plan.tail, first, count, plan.base, plan.extra, rng,
               out[0], out[1])
        return s, out

    def empty():
        rng = np.random.default_rng(0)
        kernel(n, states, plan.depth, plan.tail, 0, 0, plan.base, plan.extra, rng,
               sums[:0], squares[:0])

    def fold(c, result):
        s, out = result
        sums[s:s + out.shape[1]] += out[0]
        squares[s:s + out.shape[1]] += out[1]

    compile_first(empty, what, progress)
    bar = progress_bar(plan.samples, 0, f"{what} n={n}", unit="probe") if progress else None
    try:
        run_chunks(n_threads, run, plan.n_chunks, fold, lambda c: plan.chunk_probes(c)[1],
                   bar)
    finally:
        if bar is not None:
            bar.close()
    return sums, squares


def _stratified(plan, sums, squares):
    """The stratified estimate ``sum_s weight_s * mean_s`` and its standard error, per
    column."""
    probes = plan.probes()[:, None].astype(np.float64)
    weights = plan.weights[:, None].astype(np.float64)
    means = sums / probes
    value = (weights * means).sum(axis=0)
    # Only the strata's own rows and the free squares just below each stratum are counted
    # rather than sampled (all of it when the exact tail starts at the strata): their
    # columns are exact, whatever the probes.
    depths = np.arange(plan.n + 1 - value.shape[0], plan.n + 1)  # the columns' depths
    sampled = depths > plan.depth + 1
    if plan.n - plan.tail <= plan.depth:  # no row is sampled at random
        sampled[:] = False
    # The solutions of a board known to have none (n = 2 and 3, OEIS; the torus of
    # gcd(n, 6) > 1; superqueens of n = 2 .. 9, OEIS A051223) are known to be 0.
    known_zero = np.zeros(value.shape, dtype=bool)
    known_zero[-1] = value[-1] == 0 and plan.board.has_no_solutions(plan.n)
    if probes.min() < 2:  # a stratum of one probe: no spread to measure
        stderr = np.full_like(value, np.nan)
    else:
        variances = np.maximum(squares - probes * means * means, 0.0) / (probes - 1)
        stderr = np.sqrt((weights * weights * variances / probes).sum(axis=0))
        # An estimate of 0 where every probe died is a fluke of too few probes, of
        # unknown spread. Inner depths are never known to be 0 (``search_profile(3,
        # samples=2, seed=3)`` missed the 2 nodes of depth 2).
        stderr[value == 0] = np.nan
        # Probes that agree by chance (no spread) prove nothing: a 0 where rows are
        # sampled is no error bar (``estimate_count(8, samples=2, seed=3)``: 120, every
        # probe alike; 92 in truth).
        stderr[(stderr == 0) & sampled] = np.nan
    stderr[~sampled | known_zero] = 0.0
    return value, stderr


def estimate_count(n, *, samples=10**7, seed=None, n_threads=None, progress=False,
                   piece="queen", torus=False):
    """An unbiased estimate of the total count, with its standard error, for any board.

    Parameters
    ----------
    n : int
        Board order, ``1 <= n <= 63`` (the empty board, ``n = 0``, has one solution, exactly:
        :func:`count_solutions`).
    samples : int, optional
        Random probes of the backtrack tree, 1 or more (about 1 µs each at n = 27 on one
        thread).
    seed : int, optional
        Seed of the random streams, 0 or more; the same ``seed`` and ``samples`` give the same
        estimate for every thread count. By default, fresh entropy.
    n_threads : int, optional
        Threads to probe with (default: all, ``NUMBA_NUM_THREADS``).
    progress : bool, optional
        Show a progress bar of probes (``tqdm.auto``).
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board, as in :func:`count_solutions` (OEIS A051223, A051906): the same
        estimator on that board's tree (on the torus, strata with the first-row queen in
        column 0, weighted ``n``).

    Returns
    -------
    Estimate
        ``(value, stderr, samples)``: the estimate of the number of solutions (OEIS
        A000170 for queens; A051223, A051906 for the variants), its standard error, and the
        probes; ``interval(0.95)`` gives a confidence interval. On the torus few probes
        reach a solution and the intervals are too narrow at larger ``n`` (81 of 100
        covered A051906(23) with 10^5 probes): take many more probes there.

    Raises
    ------
    TypeError
        If ``n``, ``samples``, ``seed`` or ``n_threads`` is not an integer (``bool`` and
        ``float`` included: write ``samples=10**6``, not ``1e6``), or ``progress`` is not a
        bool.
    ValueError
        If ``n`` is outside ``1..63``, ``samples`` below 1, ``seed`` negative, or
        ``n_threads`` out of range.
    KeyboardInterrupt
        On Ctrl-C, within a tenth of a second or so; nothing is returned.

    See Also
    --------
    count_solutions : the exact count (hours past n = 20).
    search_profile : the nodes of the tree at each depth.

    Notes
    -----
    Knuth's estimator (1975): a probe walks down the backtrack tree choosing one free square
    per row uniformly at random; the product of the numbers of free squares it met is an
    unbiased estimate of the number of nodes at the depth it reached (0 past a dead end).
    Four refinements, the first three measured by the relative variance times the time per
    probe (the cost of a given error bar), at n = 27 on one thread:

    * *Exact tails*: each probe counts the last rows exactly below the node it reached
      (``config.ESTIMATE_TAIL_ROWS``: 8-10 rows) and multiplies. Most probes die in the
      last rows, and most of the variance comes from there: with 9 exact rows a given
      error costs 11 times less time than with 3.
    * *Strata*: the placements of the first rows (up to 3, ``config.ESTIMATE_MAX_DEPTH``)
      are enumerated and each gets the same number of probes; the estimate adds the
      strata's means (stratified sampling), which removes the variance of those rows.
    * *Mirror symmetry*: the strata whose first-row queen is in the left half stand for
      their mirror images too (weight 2).
    * *Rows left to chance*: at least ``config.ESTIMATE_RANDOM_ROWS`` rows between the
      strata and the exact tail are always sampled, so that the tail is shorter on small
      boards: they are estimated like the large ones, not counted.

    Against the plain estimator (no strata, no exact rows), the same error costs 15 times
    less time at n = 20 and 17 times less at n = 27 (``benchmarks/bench_estimate.py``).
    Neyman allocation of the probes over the strata (in proportion to each stratum's
    spread) would have gained 10-25% at n = 16 and 27, computed from the strata's measured
    spreads; it needs a pilot run and is not used.

    The probes are cut into chunks of ``config.ESTIMATE_CHUNK``, each with its own random
    stream (PCG64, seeded from ``SeedSequence(seed)`` with the chunk's number as spawn
    key), run on a pool of threads and added in order.

    The standard error is estimated from the probes' spread in each stratum; the
    distribution of a probe is skewed, so a 95% interval of few probes (below some
    thousands) covers the true value less often than 95%: over 200 seeds, at n = 16 and 18,
    84% and 87% of the intervals of 20 samples, 90% and 93% of 100, 93-96% of 300 and of
    1,000. It is ``nan`` when it cannot be
    estimated: fewer than 2 probes in a stratum, or an estimate of 0 on a board of 4 or more
    rows (every probe died: a fluke of too few probes, not a certainty).

    References
    ----------
    .. [1] D. E. Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29
       (1975) 121-136.
    .. [2] OEIS A000170, https://oeis.org/A000170

    Examples
    --------
    >>> est = estimate_count(20, samples=10**6, seed=1)
    >>> low, high = est.interval(0.95)
    >>> bool(low < 39_029_188_884 < high)
    True
    """
    n, samples, entropy, n_threads, progress, board = _check(n, samples, seed, n_threads,
                                                             progress, piece, torus)
    known_none = board.has_no_solutions(n)  # (the board answers: no probe needs to die)
    if known_none:
        return Estimate(0.0, 0.0, 0)
    with interruption_says(f"estimate_count({n}{board.keywords}) interrupted: nothing is "
                           f"returned (fewer samples take less time)"):
        plan = probe_plan(n, samples, board)
        sums, squares = _probe(plan, entropy, 1, n_threads, progress, "estimate")
    value, stderr = _stratified(plan, sums, squares)
    return Estimate(float(value[0]), float(stderr[0]), samples)


def _root(n):
    return np.zeros((1, 3), dtype=np.int64)


def _exact_profile(n, n_threads, progress, board=QUEEN):
    out = np.zeros(n + 1, dtype=np.int64)
    out[0] = 1
    if n == 0:
        return out
    profile_run = _kernels.entry("profile", board)
    if n < 4:  # from the root (no split below 4 rows)
        _profile_states(n, _root(n), 0, n, np.ones(1, dtype=np.int64), out, board)
        return out
    compile_first(lambda: _profile_states(
        n, _root(n)[:0], 0, n, np.ones(0, dtype=np.int64), out, board), "profile", progress)
    states, depth, weights = _enumerating.profile_split(n, n_threads, board)
    _profile_states(n, _root(n), 0, depth, np.ones(1, dtype=np.int64), out, board)
    total = _enumerating.exact_total(n, board)
    per_state = 1 if total is None else max(1, total // max(len(states), 1))
    batch = max(1, min(len(states) // (4 * n_threads),
                       config.PROFILE_BATCH_SOLUTIONS // per_state))

    def run(c, stop):
        part = np.zeros(n + 1, dtype=np.int64)
        stack = np.empty((n + 1, 4), dtype=np.int64)
        level = np.full(3, -1, dtype=np.int64)
        below = np.zeros(n + 1, dtype=np.int64)
        i, end = c * batch, min((c + 1) * batch, len(states))
        while i < end and not stop.is_set():
            i += profile_run(n, states[i:end], depth, n, weights[i:end], stack, level, below,
                             part, config.PROFILE_STEPS)
        return part

    def fold(c, part):
        out[:] += part

    n_chunks = -(-len(states) // batch)
    bar = progress_bar(len(states), 0, f"profile n={n}") if progress else None
    try:
        run_chunks(n_threads, run, n_chunks, fold,
                   lambda c: min(batch, len(states) - c * batch), bar)
    finally:
        if bar is not None:
            bar.close()
    return out


def search_profile(n, *, samples=None, seed=None, n_threads=None, progress=False,
                   piece="queen", torus=False):
    """The nodes of the backtrack tree at each depth: exact, or estimated from random probes.

    A node of depth ``k`` is a placement of ``k`` non-attacking queens in the first ``k``
    rows, dead ends included (the tree the row-by-row search walks); depth ``n`` holds the
    solutions.

    Parameters
    ----------
    n : int
        Board order: ``0 <= n <= 63`` exact (in practice the sizes :func:`count_solutions`
        can count, and slower: the tree has 75-77 nodes per solution at n = 14-16, each
        visited), ``1 <= n <= 63`` with ``samples``.
    samples : int, optional
        Estimate from this many random probes (as :func:`estimate_count`) instead of
        counting exactly.
    seed : int, optional
        Seed of the probes (with ``samples`` only).
    n_threads : int, optional
        Threads (default: all, ``NUMBA_NUM_THREADS``).
    progress : bool, optional
        Show a progress bar (of subproblems, or of probes).
    piece : {"queen", "superqueen"}, optional
    torus : bool, optional
        The board, as in :func:`count_solutions`: the tree of its row-by-row search.

    Returns
    -------
    numpy.ndarray, shape (n + 1,), dtype int64
        Exact: ``profile[k]`` nodes at depth ``k``; ``profile[0] == 1`` and ``profile[n]``
        is the total count (OEIS A000170).
    Estimate
        With ``samples``: ``value`` and ``stderr`` of shape ``(n + 1,)``, float64 (exact,
        with error 0, for the depths of the strata).

    Raises
    ------
    TypeError, ValueError
        As :func:`estimate_count`; ``ValueError`` for a ``seed`` without ``samples``.
    KeyboardInterrupt
        On Ctrl-C, within a fifth of a second or so; nothing is returned.

    See Also
    --------
    estimate_count, count_solutions

    Notes
    -----
    The exact profile splits the tree as a count does (prefixes of the first rows, mirror
    halving, a pool of threads) and walks every node of each subproblem with an
    explicit-stack search, in steps (``config.PROFILE_STEPS``) between which a large
    subproblem can be stopped and resumed. The estimate is Knuth's (1975), stratified and with exact tails
    as in :func:`estimate_count`: a probe's product of free-square counts estimates the
    nodes of every depth it passes, and the exact tail adds its nodes per depth.

    References
    ----------
    .. [1] D. E. Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29
       (1975) 121-136.

    Examples
    --------
    >>> search_profile(6)
    array([ 1,  6, 20, 36, 46, 40,  4])
    """
    if samples is None:
        if seed is not None:
            raise ValueError("seed applies to estimates only: give samples too")
        board = board_of(piece, torus)
        n = _validate.board_order(n)
        n_threads = _validate.threads(n_threads)
        progress = _validate.flag(progress, "progress")
        with interruption_says(f"search_profile({n}{board.keywords}) interrupted: nothing "
                               f"is returned (an estimate, with samples=, takes less time)"):
            return _exact_profile(n, n_threads, progress, board)
    n, samples, entropy, n_threads, progress, board = _check(n, samples, seed, n_threads,
                                                             progress, piece, torus)
    with interruption_says(f"search_profile({n}{board.keywords}, samples={samples}) "
                           f"interrupted: nothing is returned (fewer samples take less time)"):
        plan = probe_plan(n, samples, board)
        sums, squares = _probe(plan, entropy, n + 1, n_threads, progress, "profile")
    value, stderr = _stratified(plan, sums, squares)
    exact = np.zeros(n + 1, dtype=np.int64)
    exact[0] = 1
    _profile_states(n, _root(n), 0, plan.depth, np.ones(1, dtype=np.int64), exact, board)
    value[:plan.depth + 1] = exact[:plan.depth + 1]
    stderr[:plan.depth + 1] = 0.0
    return Estimate(value, stderr, samples)
