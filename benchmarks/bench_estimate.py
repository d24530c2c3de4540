"""Speed and precision of estimate_count.

    python benchmarks/bench_estimate.py [--seconds 60] [--bar-seconds 300] [--quick]

1. Probes per second per thread at n = 16, 27 and 40 (one thread).
2. The relative standard error reached in ``--seconds`` on all threads at n = 20, 27 and 28
   (the probes are sized from the measured rate, so the run takes about that long), and the
   error against OEIS A000170 where known.
3. The variance reduction against Knuth's plain estimator (no strata, no exact rows), as the
   ratio of the cost of a given error bar: relative variance times seconds, one thread.
4. The speed-up of the same estimate on 2 threads against 1.
5. The bar: n = 27 in at most ``--bar-seconds`` on all threads, its relative standard error
   (bar: 0.1%, aim 0.02%) and its distance to the true count in standard errors (bar: 4).
"""
import argparse
import time

import nqueens_numba as nq
from nqueens_numba import _validate, config

A000170 = {20: 39029188884, 27: 234907967154122528}


def timed(n, samples, seed, n_threads):
    start = time.perf_counter()
    est = nq.estimate_count(n, samples=samples, seed=seed, n_threads=n_threads)
    return time.perf_counter() - start, est


def rate(n, seconds=1.0, n_threads=1):
    """Probes per second (on ``n_threads``), from runs growing until one takes ``seconds``."""
    samples = 10_000
    while True:
        elapsed, _ = timed(n, samples, 1, n_threads)
        if elapsed >= seconds:
            return samples / elapsed
        samples = int(samples * min(10, max(2, 1.2 * seconds / max(elapsed, 1e-3))))


def describe(n, elapsed, est):
    truth = A000170.get(n)
    line = (f"n={n}: {est.samples:,} probes in {elapsed:.1f} s, estimate {est.value:.7g}, "
            f"relative standard error {est.relative_stderr:.4%}")
    if truth is not None:
        line += (f", error {est.value / truth - 1:+.4%} "
                 f"({(est.value - truth) / est.stderr:+.2f} standard errors)")
    return line


def plain_cost(n, samples, seed):
    """Relative variance times seconds of the plain estimator and of the default one."""
    saved = (config.ESTIMATE_MAX_DEPTH, config.ESTIMATE_TAIL_ROWS)
    costs = {}
    for name in ("plain", "default"):
        if name == "plain":
            config.ESTIMATE_MAX_DEPTH, config.ESTIMATE_TAIL_ROWS = 0, ((63, 0),)
        try:
            elapsed, est = timed(n, samples[name], seed, 1)
        finally:
            config.ESTIMATE_MAX_DEPTH, config.ESTIMATE_TAIL_ROWS = saved
        costs[name] = est.relative_stderr ** 2 * elapsed
        print(f"  {name:7s}: {describe(n, elapsed, est)}; cost {costs[name]:.3g} s")
    return costs["plain"] / costs["default"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--bar-seconds", type=float, default=300.0)
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    args = parser.parse_args()
    threads = _validate.max_threads()
    seconds = 3.0 if args.quick else args.seconds
    bar_seconds = 6.0 if args.quick else args.bar_seconds
    nq.estimate_count(16, samples=10, seed=0)  # kernels loaded (or compiled) first

    print("1. probes per second per thread (one thread)")
    rates = {}
    for n in (16, 27, 40):
        rates[n] = rate(n, 0.5 if args.quick else 2.0)
        print(f"  n={n}: {rates[n]:,.0f} probes/s ({1e9 / rates[n]:.0f} ns per probe)")

    print(f"\n2. relative standard error in about {seconds:g} s on {threads} threads")
    for n in (20, 27, 28):
        per_second = rates.get(n) or rate(n, 0.5)
        samples = int(per_second * threads * 0.95 * seconds)
        elapsed, est = timed(n, samples, 2026, threads)
        print("  " + describe(n, elapsed, est))

    print("\n3. against the plain estimator (one thread; cost = relative variance x seconds)")
    for n, plain, default in ((20, 2 * 10**7, 2 * 10**6), (27, 2 * 10**7, 2 * 10**6)):
        if args.quick:
            plain, default = plain // 20, default // 20
        ratio = plain_cost(n, {"plain": plain, "default": default}, 7)
        print(f"  n={n}: the same error costs {ratio:,.0f} times less time")

    print("\n4. speed-up with 2 threads")
    samples = 2 * 10**5 if args.quick else 4 * 10**6
    if threads >= 2:
        one, est1 = timed(27, samples, 3, 1)
        two, est2 = timed(27, samples, 3, 2)
        print(f"  n=27, {samples:,} probes: 1 thread {one:.2f} s, 2 threads {two:.2f} s, "
              f"speed-up {one / two:.2f} (same estimate: {est1 == est2})")
    else:
        print("  (one thread only)")

    print(f"\n5. the bar: n=27 in at most {bar_seconds:g} s on {threads} threads")
    samples = int(rates[27] * threads * 0.9 * bar_seconds)
    elapsed, est = timed(27, samples, 20261201, threads)
    print("  " + describe(27, elapsed, est))
    z = (est.value - A000170[27]) / est.stderr
    print(f"  relative standard error {est.relative_stderr:.4%} (bar 0.1%, aim 0.02%), "
          f"{abs(z):.2f} standard errors from the true count (bar 4), {elapsed:.0f} s "
          f"(bar {bar_seconds:g} s)")


if __name__ == "__main__":
    main()
