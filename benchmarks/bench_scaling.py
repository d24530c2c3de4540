"""Parallel scaling of count_solutions: measured here, and modelled for bigger machines.

    python benchmarks/bench_scaling.py [--n 15 16 17] [--threads 1 2 4 8 16] [--model-n 18]
                                       [--model-threads 16 64]  (--model-n 0: no model)
    python benchmarks/bench_scaling.py --breakdown 17 [--threads 1 8 16] [--method halving]
                                       [--kind queens|torus|superqueen|blocked]
    python benchmarks/bench_scaling.py --emulate 17 [--threads 16 64] [--times /tmp/t]
    python benchmarks/bench_scaling.py --cores 17 [--threads 1 8 16] [--seconds 2]
    python benchmarks/bench_scaling.py --estimate 20 [--threads 1 8 16] [--samples 10000000]

1. Speed-up of ``count_solutions(n)`` on each of ``--threads`` (default 1, 2, 4, ... up to
   all of numba's threads) over the first (best of ``--repeat``), its efficiency (speed-up
   over threads), and the cost of ``progress=True`` on the most threads.
2. For ``--model-n``, the time of every subproblem of the split that a machine with
   ``max(--model-threads)`` threads would use, measured one by one on this machine (all
   threads busy, as in a real run). From them: the largest subproblem's share of the work,
   and the makespan of a greedy schedule on T threads (each thread takes the next
   subproblem, in the run's shuffled order, when it finishes the previous one; the threads
   run the same kernels with no shared state, so this is the pool's behaviour), as an
   efficiency: work / (T * makespan).

``--breakdown N`` instead counts ``N`` on each of ``--threads`` (default: 1, 2, 4, ... up
to all) and prints where each thread's time went, as shares of the count's wall time: in
kernel calls, waiting for work (the scheduler's lock and condition), reporting results
(the tracker's lock, the bookkeeping of finished subproblems and searches in progress),
the rest of the Python between kernel calls (the GIL, the copies), and idle before its
first work and after its last until the count ends (start-up and tail); with the number of
kernel calls and of subproblems finished, and the speed-up over one thread. A loss at many
threads shows as a column that grows with them. ``kernel x`` is the threads' seconds in kernel calls over those
of the one-thread count: above 1, the same searches ran slower on more threads, which is the
machine's (the cores' shared clock, caches or memory), not the scheduler's.

``--emulate N`` runs the package's own scheduler (``LocalThreads``, its work sharing, the
tracker, the GIL and locks between calls) on ``--threads`` threads (default 16 and 64) over
the subproblems of the split those threads would get for ``N``, with each kernel call
replaced by a sleep of the time it would take: each subproblem's time measured here, and one
call's budget as measured here. A sleeping thread, like a kernel, holds no GIL and no core,
so a 2-core machine shows how the scheduler keeps 16 or 64 cores busy (the efficiency: work /
(threads * wall)) and where its threads wait. Splitting a search in progress gives away a
share of what is left, drawn between 20% and 60% (the real split gives the upper half of
the untried squares of its shallowest level).

``--cores N`` measures what the cores themselves give this count's kernel, without the
package's scheduler: a sample of ``N``'s subproblems (those, in the run's shuffled order, that
one thread counts in about ``--seconds``) counted whole by each of ``--threads`` threads at
once, each with arrays of its own, started together. Every thread does one thread's work, so
the cores' efficiency is the one-thread time over the wall time. A count's efficiency at
``k`` threads (its speed-up over ``k``) divided by the cores' efficiency at ``k`` is the
package's share of it; what the cores lose, a better scheduler cannot win back.

``--kind`` picks the count of ``--breakdown``, ``--cores`` and ``--emulate`` (and the board of
``--estimate``): plain queens
(default), toroidal queens (``torus=True``), superqueens (``piece="superqueen"``), or plain
queens with two blocked squares (a constrained count, without mirror halving). ``--method``
defaults to the count's own choice. ``--estimate N`` times ``estimate_count(N)`` on each of
``--threads``, with its speed-up over the first.
"""
import argparse
import heapq
import os
import threading
import time
from dataclasses import replace

import numba
import numpy as np

import nqueens_numba as nq
from _timing import best
from nqueens_numba import _runner, _split, config
from nqueens_numba.board import board_of
from nqueens_numba.constraints import check_constraints

try:
    from nqueens_numba import _threads
except ImportError:  # (an older tree, run with --times to compare: one module then)
    _threads = _runner


def measure_subproblems(split, n_threads):
    """Seconds of each subproblem of ``split``, timed one by one on ``n_threads`` threads at
    once."""
    job, states = split.job, split.states
    times = np.zeros(len(states))
    order = np.random.default_rng(config.SHUFFLE_SEED).permutation(len(states))
    parts = np.array_split(order, n_threads)

    def work(part):
        for i in part:
            batch = np.ascontiguousarray(states[i:i + 1])
            start = time.perf_counter()
            job(batch)
            times[i] = time.perf_counter() - start

    threads = [threading.Thread(target=work, args=(p,)) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


class Breakdown:
    """Seconds per thread in each part of a local count, recorded by wrapping the kernel
    calls (``split.job.run``), the scheduler (``_Work.take``) and the tracker
    (``Tracker.report``) for the length of a ``with`` block."""

    PARTS = ("kernel", "wait", "report")

    def __init__(self, job):
        self.targets = [(type(job), "run", "kernel"), (_threads._Work, "take", "wait"),
                        (_runner.Tracker, "report", "report")]
        self.lock = threading.Lock()
        self.threads = {}  # ident: {part: seconds, "calls", "first", "last"}

    def _wrap(self, func, part):
        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                end = time.perf_counter()
                with self.lock:
                    row = self.threads.setdefault(threading.get_ident(), dict.fromkeys(
                        self.PARTS + ("calls",), 0) | {"first": start})
                    row[part] += end - start
                    row["calls"] += part == "kernel"
                    row["last"] = end
        return timed

    def shares(self, n_threads, wall):
        """The worker threads' time, as shares of ``n_threads * wall``: ``{part: share}``,
        with ``"python"`` (alive, in none of the parts) and ``"idle"`` (before a thread's
        first call and after its last), and the number of kernel calls."""
        workers = [row for ident, row in self.threads.items()
                   if ident != threading.get_ident()]
        total = n_threads * wall
        share = {part: sum(w[part] for w in workers) / total for part in self.PARTS}
        lived = sum(w["last"] - w["first"] for w in workers) / total
        share["python"] = lived - sum(share.values())
        share["idle"] = 1 - lived
        return share, sum(w["calls"] for w in workers)

    def __enter__(self):
        self.saved = [(cls, name, cls.__dict__[name]) for cls, name, _ in self.targets]
        for (cls, name, part), (_, _, func) in zip(self.targets, self.saved):
            setattr(cls, name, self._wrap(func, part))
        return self

    def __exit__(self, *exc):
        for cls, name, func in self.saved:
            setattr(cls, name, func)


def kind_split(n, method, n_threads, kind):
    """``(split, keywords)``: the split of ``count_solutions(n, method=method, **keywords)``
    for ``n_threads`` threads, the count ``kind`` names (see the module's docstring)."""
    keywords = dict(queens={}, torus=dict(torus=True), superqueen=dict(piece="superqueen"),
                    blocked={})[kind]
    if kind == "blocked":  # (not mirror-symmetric: every first-row column is searched)
        blocked = np.zeros((n, n), dtype=bool)
        blocked[0, 0] = blocked[n - 1, 1] = True
        keywords = dict(blocked=blocked)
    plan = _split.plan_count(
        n, board_of(**{k: v for k, v in keywords.items() if k != "blocked"}), method=method,
        constraints=check_constraints(n, blocked=keywords.get("blocked")), n_threads=n_threads,
        shortcuts=False)
    if plan.split is None or not len(plan.split.states):
        raise SystemExit(f"{describe(n, keywords)} has no subproblems to run (engine "
                         f"{plan.engine!r}): choose another n")
    # (a small board's split runs in the calling thread, unseen by the breakdown: not here)
    return replace(plan.split, direct=False), dict(keywords, method=plan.method)


def describe(n, keywords):
    """``count_solutions(n, ...)`` as a call with ``keywords``."""
    shown = ", ".join(f"{k}={'...' if k == 'blocked' else repr(v)}" for k, v in keywords.items())
    return f"count_solutions({n}, {shown})"


def breakdown(n, method, thread_counts, repeat, kind="queens"):
    """Print where the threads of a count of ``n`` spend the count's wall time."""
    keywords = kind_split(n, method, 1, kind)[1]
    expected = nq.count_solutions(n, **keywords)
    print(f"{describe(n, keywords)}: each thread's share of the wall time")
    print(f"{'threads':>7} {'wall s':>8} {'speed-up':>8} {'kernel':>7} {'wait':>6} "
          f"{'report':>7} {'python':>7} {'idle':>6} {'kernel x':>8} {'calls':>7} "
          f"{'subproblems':>11}")
    base = base_kernel = None
    for t in thread_counts:
        runs = []
        for _ in range(repeat):
            split = kind_split(n, method, t, kind)[0]
            with Breakdown(split.job) as record:
                start = time.perf_counter()
                results = _threads.run_split(split, t)
                wall = time.perf_counter() - start
            assert split.total(results) == expected
            runs.append((wall, record, len(split.states)))
        wall, record, n_states = min(runs, key=lambda run: run[0])
        base = wall if base is None else base
        share, calls = record.shares(t, wall)
        kernel = share["kernel"] * t * wall  # the threads' seconds in kernel calls
        base_kernel = kernel if base_kernel is None else base_kernel
        print(f"{t:>7} {wall:>8.3f} {base / wall:>8.2f} {share['kernel']:>7.1%} "
              f"{share['wait']:>6.1%} {share['report']:>7.1%} {share['python']:>7.1%} "
              f"{share['idle']:>6.1%} {kernel / base_kernel:>8.3f} {calls:>7} "
              f"{n_states:>11}")


_SPLITS = np.random.default_rng(1)  # the shares the emulation's splits give away


class _Sleeper:
    """A count's search in progress in the emulation: seconds of work left."""

    def __init__(self, index, left=None):
        self.index = index
        self.left = left
        self.level = np.array([-1 if left is None else 0])
        self.partial = np.zeros(1, dtype=np.int64)
        self.stack = np.zeros((1, 4), dtype=np.int64)

    @property
    def started(self):
        return self.left is not None

    def copy(self):
        return _Sleeper(self.index, self.left)

    def split(self):
        if self.left is None or self.left < 1e-3:
            return None
        give = self.left * _SPLITS.uniform(0.2, 0.6)
        self.left -= give
        return _Sleeper(self.index, give)


class _SleepingJob:
    """Stands in for a split's job: each call sleeps for the work it does."""

    width = 1

    def __init__(self, times, budget_seconds):
        self.times = times
        self.per_step = budget_seconds / config.COUNT_BUDGET
        self.raised = threading.Event()

    def piece(self, index):
        return _Sleeper(int(index))

    def remaining(self, state, piece):
        return 1.0

    def run(self, states, piece, budget, signal=np.zeros(1, dtype=np.int64)):
        """Sleep through ``states`` for ``budget`` steps, ending early on ``signal`` as the
        kernels do (woken by :attr:`raised`, which the emulation sets with the signal)."""
        allowed = budget * self.per_step
        used, done = 0.0, 0
        for state in states[:, 0]:
            if piece.left is None:
                piece.left = self.times[state]
            while piece.left > 0 and used < allowed:
                due = min(piece.left, allowed - used)
                if signal[0]:  # end once the signal's least steps are taken
                    due = min(due, max(signal[0] * self.per_step - used, 0.0))
                    if due == 0:
                        allowed = used
                        break
                    time.sleep(due)
                else:
                    start = time.perf_counter()
                    self.raised.wait(due)
                    due = min(due, time.perf_counter() - start)
                used += due
                piece.left -= due
            if piece.left > 0:
                break
            piece.left, piece.level[0] = None, -1
            done += 1
        return np.zeros((len(states), 1), dtype=np.int64), done


def emulate(n, method, thread_counts, repeat, times_file=None, kind="queens"):
    """Print how the scheduler keeps ``thread_counts`` threads busy on a count of ``n``
    (see the module's docstring): the run of median wall time of ``repeat``, with the
    shares of :func:`breakdown` (``work``: the sleeps' due time; ``late``: what they
    overslept, this machine's and not the scheduler's). With ``times_file``, the
    subproblems' times are kept in ``{times_file}-{n}-{method}-{threads}.npy`` and read from
    there when it exists (to compare two versions of the scheduler on the same work)."""
    most = numba.config.NUMBA_NUM_THREADS
    keywords = kind_split(n, method, 1, kind)[1]
    print(f"emulated {describe(n, keywords)}: the scheduler's threads with "
          f"kernel calls replaced by sleeps (median of {repeat} runs)")
    print(f"{'threads':>7} {'subproblems':>11} {'work s':>7} {'largest s':>9} "
          f"{'wall s':>7} {'ideal s':>7} {'work':>6} {'late':>5} {'wait':>5} "
          f"{'report':>6} {'python':>6} {'idle':>5} {'calls':>6}")
    for t in thread_counts:
        split = kind_split(n, method, t, kind)[0]
        saved = times_file and f"{times_file}-{n}-{kind}-{split.method}-{t}.npy"
        if saved and os.path.exists(saved):
            times = np.load(saved)
        else:  # the least of two timings: the machine's other work only adds
            times = np.minimum(measure_subproblems(split, most),
                               measure_subproblems(split, most))
            big = int(np.argmax(times))
            piece = split.job.piece(big)
            start = time.perf_counter()
            split.job.run(split.states[big:big + 1], piece, config.COUNT_BUDGET)
            budget = time.perf_counter() - start if piece.started else times.max()
            times = np.append(times, budget)  # (the last entry: one call's budget)
            if saved:
                np.save(saved, times)
        times, budget = times[:-1], times[-1]
        work = times.sum()
        runs = []
        for _ in range(repeat):
            fake = _SleepingJob(times, budget)
            states = np.arange(len(times), dtype=np.int64).reshape(-1, 1)
            standin = type("Split", (), dict(states=states, width=1, n=n, job=fake,
                                             board=split.board, constraints=None))()
            tracker = _runner.Tracker(standin)
            signal = getattr(_threads._Work, "_signal", lambda work: None)

            def raise_signal(work, fake=fake):
                signal(work)
                if hasattr(work, "signal"):
                    (fake.raised.set if work.signal[0] else fake.raised.clear)()

            _threads._Work._signal = raise_signal
            try:
                with Breakdown(fake) as record:
                    start = time.perf_counter()
                    _threads.LocalThreads(t).run(standin, tracker)
                    wall = time.perf_counter() - start
            finally:
                _threads._Work._signal = signal
            assert tracker.done.all()
            runs.append((wall, record))
        wall, record = sorted(runs, key=lambda run: run[0])[len(runs) // 2]  # median
        share, calls = record.shares(t, wall)
        late = share["kernel"] - work / (t * wall)
        print(f"{t:>7} {len(times):>11} {work:>7.2f} {times.max():>9.3f} {wall:>7.3f} "
              f"{work / t:>7.3f} {work / (t * wall):>6.1%} {late:>5.1%} "
              f"{share['wait']:>5.1%} {share['report']:>6.1%} {share['python']:>6.1%} "
              f"{share['idle']:>5.1%} {calls:>6}")


def cores(n, method, thread_counts, seconds, repeat, kind="queens"):
    """Print the cores' own efficiency on the kernel of a count of ``n`` (see the module's
    docstring): the best of ``repeat`` runs per thread count."""
    split, keywords = kind_split(n, method, max(thread_counts), kind)
    job, states = split.job, split.states
    order = np.random.default_rng(config.SHUFFLE_SEED).permutation(len(states))
    job(np.ascontiguousarray(states[:1]))  # (loads the kernel)
    sample, start = [], time.perf_counter()
    for i in order:  # the subproblems one thread counts in about ``seconds``
        job(np.ascontiguousarray(states[i:i + 1]))
        sample.append(i)
        if time.perf_counter() - start >= seconds:
            break
    if len(sample) == len(states):
        print(f"(every subproblem: one thread counts them in less than --seconds={seconds})")
    sample = np.ascontiguousarray(states[np.array(sample)])
    expected = job(sample)

    def count(barrier, results, slot):
        own = sample.copy()  # (and the job's arrays: made per call, in this thread)
        barrier.wait()
        results[slot] = job(own)

    print(f"the cores on {describe(n, keywords)}'s kernel: each thread counts "
          f"the same {len(sample)} subproblems (best of {repeat} runs)")
    print(f"{'threads':>7} {'wall s':>8} {'speed-up':>8} {'efficiency':>10}")
    base = None
    for t in thread_counts:
        walls = []
        for _ in range(repeat):
            barrier, results = threading.Barrier(t + 1), [None] * t
            threads = [threading.Thread(target=count, args=(barrier, results, k))
                       for k in range(t)]
            for thread in threads:
                thread.start()
            barrier.wait()
            start = time.perf_counter()
            for thread in threads:
                thread.join()
            walls.append(time.perf_counter() - start)
            assert all(np.array_equal(r, expected) for r in results)
        wall = min(walls)
        base = wall if base is None else base
        print(f"{t:>7} {wall:>8.3f} {t * base / wall:>8.2f} {base / wall:>10.1%}")


def estimate(n, thread_counts, samples, repeat, kind="queens"):
    """Print the wall time of ``estimate_count(n, samples=samples, seed=1)`` (of the board of
    ``kind``: not ``"blocked"``) on each of ``thread_counts`` threads (best of ``repeat``),
    and the speed-up over the first."""
    if kind == "blocked":
        raise SystemExit("--estimate: estimates take no constraints (--kind blocked)")
    board = dict(queens={}, torus=dict(torus=True), superqueen=dict(piece="superqueen"))[kind]
    print(f"estimate_count({n}, samples={samples:,}"
          + "".join(f", {k}={v!r}" for k, v in board.items()) + f"): best of {repeat} runs")
    print(f"{'threads':>7} {'wall s':>8} {'speed-up':>8}")
    nq.estimate_count(n, samples=1000, seed=1, **board)  # (loads the kernels)
    base, value = None, None
    for t in thread_counts:
        wall, result = best(lambda: nq.estimate_count(n, samples=samples, seed=1, n_threads=t,
                                                      **board), repeat)
        value = result if value is None else value
        assert result.value == value.value  # (the same samples, whatever the threads)
        base = wall if base is None else base
        print(f"{t:>7} {wall:>8.3f} {base / wall:>8.2f}")


def greedy_makespan(times, n_threads):
    """Makespan of list scheduling in the given order on ``n_threads`` identical threads."""
    free_at = [0.0] * n_threads
    for t in times:
        heapq.heapreplace(free_at, free_at[0] + t)
    return max(free_at)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[15, 16, 17],
                        help="board orders of the speed-ups (default 15 16 17)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs of each measurement, the best (or median) kept (default 2)")
    parser.add_argument("--model-n", type=int, default=18,
                        help="board order of the model (default 18; 0: no model)")
    parser.add_argument("--model-threads", type=int, nargs="+", default=[16, 64],
                        help="thread counts of the model (default 16 64)")
    parser.add_argument("--breakdown", type=int, metavar="N",
                        help="print where the threads' time goes in a count of N")
    parser.add_argument("--threads", type=int, nargs="+",
                        help="thread counts of the speed-ups, --breakdown, --cores and "
                             "--estimate (default 1, 2, 4, ... all)")
    parser.add_argument("--method", choices=_split.METHODS,
                        help="the count's method (default: the count's own choice)")
    parser.add_argument("--kind", choices=("queens", "torus", "superqueen", "blocked"),
                        default="queens", help="the count of --breakdown, --cores and "
                                               "--emulate, the board of --estimate (default: "
                                               "plain queens)")
    parser.add_argument("--estimate", type=int, metavar="N",
                        help="time estimate_count(N) on --threads threads")
    parser.add_argument("--samples", type=int, default=10**7,
                        help="--estimate: samples (default 10,000,000)")
    parser.add_argument("--emulate", type=int, metavar="N",
                        help="run the scheduler on --threads threads (default 16 64) with "
                             "sleeps for kernel calls, over the split of N")
    parser.add_argument("--cores", type=int, metavar="N",
                        help="the cores' own speed-up on --threads threads (default 1, 2, "
                             "4, ... all), each counting the same sample of N's subproblems")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="--cores: one thread's time on the sample (default 2)")
    parser.add_argument("--times", metavar="PREFIX",
                        help="--emulate: keep the subproblems' times in PREFIX-*.npy files "
                             "and reuse them")
    args = parser.parse_args()

    most = numba.config.NUMBA_NUM_THREADS
    nq.count_solutions(12)  # compile
    if args.emulate is not None:
        return emulate(args.emulate, args.method, args.threads or [16, 64], args.repeat,
                       args.times, args.kind)
    counts = args.threads or sorted({min(2**k, most) for k in range(most.bit_length() + 1)})
    if args.cores is not None:
        return cores(args.cores, args.method, counts, args.seconds, args.repeat, args.kind)
    if args.breakdown is not None:
        return breakdown(args.breakdown, args.method, counts, args.repeat, args.kind)
    if args.estimate is not None:
        return estimate(args.estimate, counts, args.samples, args.repeat, args.kind)
    print(f"1. measured on this machine ({most} threads; best of {args.repeat})")
    print(f"{'n':>3} {'threads':>7} {'wall s':>8} {'speed-up':>8} {'efficiency':>10} "
          f"{'with progress s':>16} {'progress cost':>14}")
    for n in args.n:
        base = expected = None
        for t in counts:
            wall, count = best(lambda: nq.count_solutions(n, n_threads=t), args.repeat)
            if base is None:
                base, expected = wall, count
            assert count == expected
            line = f"{n:>3} {t:>7} {wall:>8.3f} {base / wall:>8.2f} {base / (t * wall):>10.1%}"
            if t == counts[-1]:
                shown, count = best(lambda: nq.count_solutions(n, n_threads=t, progress=True),
                                    args.repeat)
                assert count == expected
                line += f" {shown:>16.3f} {(shown / wall - 1) * 100:>13.1f}%"
            print(line)
    if not args.model_n:
        return

    n = args.model_n
    threads = max(args.model_threads)
    split = _split.count_split(n, "symmetric", threads)
    states, depth = split.states, split.depth
    print(f"\n2. model for n={n}: the split for {threads} threads has {len(states)} "
          f"subproblems (prefix depth {depth}); timing each on {most} threads here...")
    times = measure_subproblems(split, most)
    work = times.sum()
    order = np.random.default_rng(config.SHUFFLE_SEED).permutation(len(states))
    print(f"   work {work:.1f} thread-seconds, largest subproblem {times.max() * 1e3:.1f} ms "
          f"= {times.max() / work:.2e} of the work, median {np.median(times) * 1e3:.2f} ms")
    print(f"{'threads':>10} {'makespan s':>11} {'efficiency':>11} {'bound':>7}")
    for t in sorted(set(args.model_threads) | {most}):
        makespan = greedy_makespan(times[order], t)
        bound = max(work / t, times.max())
        print(f"{t:>10} {makespan:>11.3f} {work / (t * makespan):>11.3f} "
              f"{work / (t * bound):>7.3f}")


if __name__ == "__main__":
    main()
