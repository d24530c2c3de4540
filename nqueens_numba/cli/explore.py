"""``nqueens estimate`` and ``nqueens profile``: the size of the backtrack tree, estimated
from random probes or counted depth by depth."""
import math
import secrets

from .. import _enumerating, config, estimation
from ..board import board_of
from .messages import say
from .stop import stop_if_signalled


def print_estimate(args, out):
    """``nqueens estimate``: the estimated count, its standard error and 95% interval (and
    the exact count where it is known), and the seed, drawn here when none is given (so that
    the estimate can be repeated with ``--seed``)."""
    seed = secrets.randbits(32) if args.seed is None else args.seed
    est = estimation.estimate_count(args.n, samples=args.samples, seed=seed,
                                    n_threads=args.threads, progress=args.progress,
                                    piece=args.piece, torus=args.torus)
    stop_if_signalled()
    low, high = est.interval(0.95)
    if math.isfinite(est.relative_stderr):
        spread = [f"stderr        {est.stderr:.3g} ({est.relative_stderr:.4%})",
                  f"95% interval  {_interval(low, high, est.stderr)}"]
    elif est.value == 0 and est.stderr == 0:  # a board without solutions: exact
        spread = ["stderr        0 (this board has no solutions" +
                  (": no probe needed)" if not est.samples else ")")]
    elif est.value != 0 and est.samples >= 2 * config.ESTIMATE_PROBES_PER_STRATUM:
        # (every stratum has probes enough: they all agreed)
        spread = ["stderr        unknown (every probe gave the same value: no spread to "
                  "measure; the estimate may be exact, and more --samples rarely tell)"]
    elif est.value == 0:  # every probe died, on a board that may have solutions
        spread = ["stderr        unknown (every probe died before reaching a solution: "
                  "solutions may still exist; give more --samples)"]
    else:  # strata of a single probe
        spread = ["stderr        unknown (too few probes to measure their spread: give more "
                  "--samples)"]
    lines = [f"n             {args.n}",
             f"estimate      {est.value:.7g}",
             *spread,
             f"samples       {est.samples}"]
    if est.samples or args.seed is not None:
        lines.append(f"seed          {seed}" + ("" if args.seed is not None else
                                                f" (--seed {seed} repeats this estimate)"))
    exact = _enumerating.exact_total(args.n, board_of(args.piece, args.torus))
    if exact is not None:
        lines.append(f"exact         {exact} (OEIS A000170)")
    out.write("\n".join(lines) + "\n")


def _interval(low, high, stderr):
    """``low .. high`` to the same decimals, three significant digits of ``stderr`` (both
    ends in 7 significant digits past 10^7, trailing zeros kept)."""
    if high >= 1e7:
        return f"{low:.6e} .. {high:.6e}"
    if not stderr:
        return f"{low:.7g} .. {high:.7g}"
    decimals = max(0, 2 - math.floor(math.log10(stderr)))
    return f"{low:.{decimals}f} .. {high:.{decimals}f}"


def print_profile(args, out):
    """``nqueens profile``: the nodes of the backtrack tree at each depth, counted, or
    estimated with ``--samples`` (the seed drawn here when none is given, and said on stderr
    after the table, so that the estimate can be repeated with ``--seed``)."""
    drawn = args.samples is not None and args.seed is None
    seed = secrets.randbits(32) if drawn else args.seed
    result = estimation.search_profile(args.n, samples=args.samples, seed=seed,
                                       n_threads=args.threads, progress=args.progress,
                                       piece=args.piece, torus=args.torus)
    stop_if_signalled()
    if args.samples is None:
        out.write("depth nodes\n")
        out.write("".join(f"{k} {nodes}\n" for k, nodes in enumerate(result.tolist())))
        return
    out.write("depth estimate stderr\n")
    out.write("".join(f"{k} {value:.7g} {stderr:.3g}\n"
                      for k, (value, stderr) in enumerate(zip(result.value, result.stderr))))
    if drawn:  # (not in the table, which stays one row a depth)
        out.flush()
        say(f"seed {seed} (--seed {seed} repeats this profile)")
