"""Compiling every kernel ahead of time: :func:`warmup`, ``nqueens warmup``.

The kernels compile on first use and are cached on disk (numba's ``cache=True``: beside the
package in ``__pycache__``, or in ``NUMBA_CACHE_DIR``). For container images, CI and shared
installations, :func:`warmup` runs each feature once on a tiny board, so that every kernel is
compiled (or loaded) now and later first calls only load them.
"""
import contextlib

import numpy as np

from . import _progress, _validate
from .counting import count_solutions, first_row_counts
from .enumeration import fundamental_solutions, solve
from .estimation import estimate_count, search_profile
from .huge import find_solution
from .streaming import iter_solutions
from .tracing import trace

__all__ = ["warmup"]


def _steps():
    """(what, call) for every kernel family: each call compiles (or loads) its kernels.

    Boards of n = 13: smaller ones are searched in NumPy (``config.BREADTH_MAX_N``) and need
    no kernel; 13 takes milliseconds.
    """
    blocked = np.zeros((14, 14), dtype=bool)
    blocked[0, 0] = True
    return [
        ("small counts", lambda: count_solutions(13)),
        ("small constrained counts", lambda: count_solutions(13, preplaced={0: 1})),
        ("counts by mirror halving", lambda: count_solutions(14, method="halving",
                                                             n_threads=1)),
        ("counts with constraints", lambda: count_solutions(14, blocked=blocked,
                                                            n_threads=1)),
        ("counts by symmetry", lambda: count_solutions(14, method="symmetric", n_threads=1)),
        ("fundamental counts", lambda: count_solutions(13, fundamental=True)),
        ("counts by first-row column", lambda: first_row_counts(8, n_threads=1)),
        ("solutions", lambda: solve(13, n_threads=1)),
        ("constrained solutions", lambda: solve(13, preplaced={0: 1}, n_threads=1)),
        ("fundamental solutions", lambda: fundamental_solutions(13, n_threads=1)),
        ("streams", lambda: sum(map(len, iter_solutions(13, n_threads=1)))),
        ("first solutions", lambda: solve(13, limit=10)),
        ("local search", lambda: find_solution(50, seed=0)),
        ("traces", lambda: trace(6)),
        ("estimates", lambda: estimate_count(13, samples=1000, seed=0, n_threads=1)),
        ("sampled profiles", lambda: search_profile(13, samples=1000, seed=0, n_threads=1)),
        ("profiles", lambda: search_profile(13, n_threads=1)),
        # the variants' boards: each board's kernels are compiled for it alone
        ("toroidal counts", lambda: count_solutions(13, torus=True, n_threads=1)),
        ("superqueen counts", lambda: count_solutions(13, piece="superqueen",
                                                      method="halving", n_threads=1)),
        ("superqueen counts by symmetry", lambda: count_solutions(13, piece="superqueen",
                                                                  n_threads=1)),
        ("toroidal solutions", lambda: solve(11, torus=True, n_threads=1)),
        ("superqueen solutions", lambda: solve(11, piece="superqueen", n_threads=1)),
        ("toroidal estimates", lambda: search_profile(
            13, torus=True, samples=1000, seed=0, n_threads=1)),
        ("superqueen estimates", lambda: search_profile(
            13, piece="superqueen", samples=1000, seed=0, n_threads=1)),
        ("toroidal profiles", lambda: search_profile(13, torus=True, n_threads=1)),
        ("superqueen profiles", lambda: search_profile(13, piece="superqueen", n_threads=1)),
        ("toroidal traces", lambda: trace(5, torus=True)),
        ("superqueen traces", lambda: trace(5, piece="superqueen")),
    ]


def warmup(*, progress=False):
    """Compile (or load from numba's cache) every kernel of the package now.

    Runs each feature once on a small board. With an empty cache this took 40-60 s on a
    2-core machine (numba compiles on one core); with a full one, about 1 s. For images, CI and
    shared installations: warm the cache once, and later first calls load the kernels instead of
    compiling them. Where the package directory is read-only, set ``NUMBA_CACHE_DIR`` to a
    writable directory (for the warm-up and for later use).

    Parameters
    ----------
    progress : bool, optional
        Show a progress bar of the features warmed (``tqdm.auto``), naming the one being
        compiled; no other line is printed then.

    Returns
    -------
    list of str
        The features warmed, in order.

    Examples
    --------
    >>> import nqueens_numba as nq
    >>> "counts by symmetry" in nq.warmup()
    True
    """
    progress = _validate.flag(progress, "progress")
    steps = _steps()
    bar = _progress.progress_bar(len(steps), 0, "warm-up", unit="feature", disable=not progress)
    done = 0
    try:
        # With the bar, the bar alone shows what compiles: no line per feature above it.
        with _progress.compiling_quietly() if progress else contextlib.nullcontext():
            for what, call in steps:
                bar.set_postfix_str(what, refresh=True)
                call()
                done += 1
                bar.update(1)
    except KeyboardInterrupt:  # (the feature's own message speaks of a call not made)
        at = f", at {steps[done][0]}" if done < len(steps) else ""
        raise KeyboardInterrupt(
            f"warm-up interrupted after {done} of {len(steps)} features{at}: the kernels "
            f"compiled so far are cached, and a compile in progress goes on in the "
            f"background of this process; warmup() again compiles the rest"
        ) from None
    finally:
        bar.close()
    return [what for what, _ in steps]
