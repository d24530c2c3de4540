"""Command line: ``nqueens count|solve|construct|find|estimate|profile N``, ``nqueens status
FILE`` and ``nqueens warmup``.

:func:`main` parses the arguments (argparse), calls the public API, prints or writes the
result, and turns errors and signals into messages and exit statuses.
"""
import argparse
import decimal
import json
import math
import os
import re
import signal
import sys
import threading
import warnings

import numpy as np

from . import (_runner, _split, _validate, checkpoint, config, counting, enumeration,
               estimation, export, huge, precompile, streaming)
from ._files import atomic_file, check_target, remove_pending_temporaries, stop_writing
from ._version import __version__

#: Solutions formatted per write when printing or saving them.
_PRINT_CHUNK = 10_000


def _probes(text):
    """``--samples``: a whole number, written plainly (``1000000``, ``1_000_000``) or in
    scientific notation (``1e6``)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = decimal.Decimal(text)
    except decimal.InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"expected a whole number such as 1000000 or 1e6, "
                                         f"got {text!r}")
    if abs(value) > 2**62:
        raise argparse.ArgumentTypeError(f"at most 2**62 probes, got {text!r}")
    return int(value)


def _parser():
    parser = argparse.ArgumentParser(
        prog="nqueens",
        description=(
            "Count and print the solutions of the n-queens problem: n queens on an n x n "
            f"board, no two attacking each other (0 <= N <= {config.MAX_N} for count and "
            f"solve; up to {huge.MAX_HUGE_N:,} for construct and find)."
        ),
        epilog="Exit status: 0 on success, 2 for bad arguments, 1 for other errors, "
        "130 when interrupted (Ctrl-C), 143 and 129 for SIGTERM and SIGHUP.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    threads = argparse.ArgumentParser(add_help=False)
    threads.add_argument(
        "--threads", "-t", type=int, default=None, metavar="T",
        help="threads to use, 1..NUMBA_NUM_THREADS (default: all)",
    )
    preplace = argparse.ArgumentParser(add_help=False)
    preplace.add_argument(
        "--preplace", "-p", type=_parse_preplace, default=None, metavar="R:C,...",
        help="queens placed beforehand, as row:column pairs (0-based), e.g. 0:3,5:1",
    )
    board = argparse.ArgumentParser(add_help=False)
    board.add_argument(
        "--piece", choices=_validate.PIECES, default="queen",
        help="the piece: queen, or superqueen (a queen that also moves as a knight; "
        "OEIS A051223) (default: queen)",
    )
    board.add_argument(
        "--torus", action="store_true",
        help="toroidal queens: the diagonals wrap around the board's edges (OEIS A051906)",
    )
    constraints = argparse.ArgumentParser(add_help=False, parents=[preplace])
    constraints.add_argument(
        "--blocked", metavar="FILE.npy", default=None,
        help="an N x N boolean .npy array, True on the squares no queen may stand on",
    )

    count = sub.add_parser(
        "count", parents=[threads, constraints, board],
        help="print the total number of solutions (OEIS A000170)",
        description="Print the total number of solutions of the N-queens problem "
        "(OEIS A000170).",
        epilog="Long counts: Ctrl-C (or SIGTERM, SIGHUP) stops any count within about a "
        "second (exit status 130, 143, 129), saving FILE with --checkpoint; run the same "
        "command again to resume exactly where it stopped. After a crash or kill -9 a "
        "resume loses at most the last --checkpoint-every seconds of each thread. One "
        "thread of a 2-core machine counts N = 16 in about 1.4 s, 17 in 10 s, 18 in 75 s "
        "and 20 in about 1.5 hours; each N takes about 8 times the previous one, and a "
        "count estimated at more than a day says so when it starts. 'nqueens status FILE' "
        "shows how far a checkpointed count has come, even while it runs.",
    )
    count.add_argument("n", type=int, metavar="N", help=f"board order, 0..{config.MAX_N}")
    count.add_argument(
        "--method", "-m", choices=_split.METHODS, default=None,
        help="search: mirror halving, or one solution per symmetry class (default: "
        f"symmetric from N = {config.SYMMETRIC_MIN_N})",
    )
    count.add_argument(
        "--fundamental", action="store_true",
        help="count fundamental solutions, one per class under the 8 symmetries of the "
        "board (OEIS A002562)",
    )
    count.add_argument(
        "--prefix-depth", type=int, default=None, metavar="D",
        help="rows pre-placed to split the search into subproblems (default: automatic)",
    )
    count.add_argument(
        "--progress", action="store_true",
        help="show a progress bar on stderr: subproblems done (with the share done of "
        "those in progress) and an ETA",
    )
    count.add_argument(
        "--checkpoint", metavar="FILE", default=None,
        help="record the count's progress in FILE as it goes (finished subproblems and the "
        "searches in progress), and resume from FILE if it exists; see 'nqueens status "
        "FILE'",
    )
    count.add_argument(
        "--checkpoint-every", type=float, default=None, metavar="S",
        help=f"with --checkpoint: write FILE about every S seconds (default: "
        f"{config.CHECKPOINT_SECONDS:g}; 0: after every kernel call, a few times a second "
        f"per thread; inf: only when stopped and at the end)",
    )
    count.add_argument(
        "--scheduler", metavar="ADDRESS", default=None,
        help="count on a Dask cluster: tcp://HOST:PORT of its scheduler, or 'local' for a "
        "LocalCluster on this machine (needs the dask extra)",
    )
    count.add_argument(
        "--scheduler-timeout", type=float, default=10.0, metavar="S",
        help="seconds to wait for the scheduler (default: 10)",
    )

    solve = sub.add_parser(
        "solve", parents=[threads, constraints, board],
        help="print the solutions as boards",
        description="Print the solutions in lexicographic order. Text: N lines of '.' and "
        "'Q' per board and a blank line after each. JSON: the LeetCode 51 list of boards, "
        "each a list of N strings.",
    )
    solve.add_argument("n", type=int, metavar="N", help=f"board order, 0..{config.MAX_N}")
    solve.add_argument(
        "--limit", "-k", type=int, default=None, metavar="K",
        help="print only the first K solutions (default: all)",
    )
    solve.add_argument(
        "--format", "-f", choices=tuple(export.FORMATS), default=None,
        help="output format: text boards, LeetCode JSON, CSV (one solution per line, the "
        "column of each row) or NumPy .npy (with --output only) (default: from the suffix "
        "of --output, .npy, .txt, .json or .csv; otherwise text)",
    )
    solve.add_argument(
        "--progress", action="store_true",
        help="show a progress bar of the solutions written on stderr (of the subproblems "
        "done with --preplace or --blocked)",
    )
    solve.add_argument(
        "--output", "-o", metavar="FILE", default=None,
        help="write to FILE (atomically: FILE appears only when complete; a pipe or "
        "/dev/stdout is written in place) instead of standard output",
    )
    output = argparse.ArgumentParser(add_help=False)
    output.add_argument(
        "--output", "-o", metavar="FILE", default=None,
        help="save the solution to FILE instead of printing it: a NumPy array for a .npy "
        "name, else the printed line",
    )
    construct = sub.add_parser(
        "construct", parents=[output],
        help="print one solution of any size, by an explicit construction",
        description="Print one solution for any N except 2 and 3, written down in O(N) by "
        "the classic explicit construction: the column of the queen of each row, space "
        "separated.",
    )
    construct.add_argument("n", type=int, metavar="N", help=f"board order, 0..{huge.MAX_HUGE_N}")
    construct.add_argument("--torus", action="store_true",
                           help="a toroidal solution (the diagonals wrap around the edges), "
                           "queens[i] = 2 i mod N, for N with gcd(N, 6) = 1")
    find = sub.add_parser(
        "find", parents=[preplace, output],
        help="print one solution that keeps pre-placed queens (local search)",
        description="Find one solution keeping the --preplace queens by min-conflicts "
        "local search, and print the column of the queen of each row.",
    )
    find.add_argument("n", type=int, metavar="N",
                      help=f"board order, 0..{huge.MAX_HUGE_N}, not 2 or 3")
    find.add_argument("--seed", "-s", type=int, default=None, metavar="S",
                      help="seed of the search (the same seed gives the same solution)")
    find.add_argument("--max-steps", type=int, default=None, metavar="K",
                      help="swap tries before giving up (default: 50 N + 10^6)")
    probes = argparse.ArgumentParser(add_help=False)
    probes.add_argument("--seed", "-s", type=int, default=None, metavar="K",
                        help="seed of the random probes (the same seed and samples give the "
                        "same result for any --threads)")
    probes.add_argument("--progress", action="store_true",
                        help="show a progress bar on stderr")
    estimate = sub.add_parser(
        "estimate", parents=[threads, probes, board],
        help="estimate the number of solutions of any N, with its standard error",
        description="Estimate the number of solutions (OEIS A000170) of any N from random "
        "probes of the backtrack tree (Knuth's estimator, with exact first and last rows), "
        "and print the estimate, its standard error and 95% interval.",
        epilog="One thread of a 2-core machine makes about a million probes a second at "
        "N = 27; the standard error shrinks as 1/sqrt(S): 10^8 probes give about 0.03% "
        "there.",
    )
    estimate.add_argument("n", type=int, metavar="N", help=f"board order, 1..{config.MAX_N}")
    estimate.add_argument("--samples", "-S", type=_probes, default=10**7, metavar="S",
                          help="random probes, such as 1000000 or 1e6 (default: 1e7)")
    profile = sub.add_parser(
        "profile", parents=[threads, probes, board],
        help="print the nodes of the backtrack tree at each depth",
        description="Print the nodes of the row-by-row backtrack tree at each depth k "
        "(placements of k non-attacking queens in the first k rows; depth N holds the "
        "solutions): counted exactly, or estimated with --samples.",
    )
    profile.add_argument("n", type=int, metavar="N", help=f"board order, 0..{config.MAX_N} "
                         f"(1..{config.MAX_N} with --samples)")
    profile.add_argument("--samples", "-S", type=_probes, default=None, metavar="S",
                         help="estimate from S random probes (such as 1e6) instead of "
                         "counting")
    status = sub.add_parser(
        "status", help="show how far the count recorded in a checkpoint file has come",
        description="Show how far the count recorded in a checkpoint file (written by "
        "'nqueens count --checkpoint FILE') has come: its subproblems finished and in "
        "progress, the solutions counted so far and the estimated share done. The file "
        "may belong to a count still running or one that was stopped or killed.",
    )
    status.add_argument("file", metavar="FILE", help="the checkpoint file")
    status.add_argument("--json", action="store_true",
                        help="print the status as one JSON object")
    warmup = sub.add_parser(
        "warmup", help="compile every kernel now (for images, CI and shared installs)",
        description="Compile (or load from the cache) every kernel of the package now, so "
        "that later first calls only load them: about 15 s with an empty cache. The kernels "
        "are cached beside the package, or in NUMBA_CACHE_DIR (set it where the package "
        "directory is read-only).",
    )
    warmup.add_argument("--progress", action="store_true",
                        help="show a progress bar of the features warmed on stderr")
    return parser, {"count": count, "solve": solve, "construct": construct, "find": find,
                    "estimate": estimate, "profile": profile, "status": status,
                    "warmup": warmup}


def _print_estimate(args, out):
    est = estimation.estimate_count(args.n, samples=args.samples, seed=args.seed,
                                    n_threads=args.threads, progress=args.progress,
                                    piece=args.piece, torus=args.torus)
    _stop_if_signalled()
    low, high = est.interval(0.95)
    if math.isfinite(est.relative_stderr):
        spread = [f"stderr        {est.stderr:.3g} ({est.relative_stderr:.4%})",
                  f"95% interval  {low:.7g} .. {high:.7g}"]
    elif est.value == 0 and est.stderr == 0:  # a board without solutions: exact
        spread = ["stderr        0 (every probe died: this board has no solutions)"]
    else:  # every probe died, or strata of a single probe
        spread = ["stderr        unknown (too few probes: give more --samples)"]
    lines = [f"n             {args.n}",
             f"estimate      {est.value:.7g}",
             *spread,
             f"samples       {est.samples}"]
    if args.seed is not None:
        lines.append(f"seed          {args.seed}")
    exact = _split.known_total(args.n) if args.piece == "queen" and not args.torus else None
    if exact is not None:
        lines.append(f"exact         {exact} (OEIS A000170)")
    out.write("\n".join(lines) + "\n")


def _print_profile(args, out):
    result = estimation.search_profile(args.n, samples=args.samples, seed=args.seed,
                                       n_threads=args.threads, progress=args.progress,
                                       piece=args.piece, torus=args.torus)
    _stop_if_signalled()
    if args.samples is None:
        out.write("depth nodes\n")
        out.write("".join(f"{k} {nodes}\n" for k, nodes in enumerate(result.tolist())))
        return
    out.write("depth estimate stderr\n")
    out.write("".join(f"{k} {value:.7g} {stderr:.3g}\n"
                      for k, (value, stderr) in enumerate(zip(result.value, result.stderr))))


def _print_status(path, as_json, out):
    """``nqueens status FILE``."""
    try:
        info = checkpoint.status(path)
    except OSError as exc:  # no such file: not an output error
        raise checkpoint.CheckpointError(f"checkpoint {path!r}: {exc.strerror}") from None
    if as_json:
        out.write(json.dumps(info) + "\n")
        return
    depth = info["prefix_depth"]
    what = f"n={info['n']}, method {info['method']}, prefix depth {depth}"
    if info["board"] is not None:
        what += f", {info['board']} board"
    if info["constrained"]:
        what += ", with pre-placed queens or blocked squares"
    partial = info["partial_count"]
    lines = [
        f"checkpoint:  {path}",
        f"count:       {what}",
        f"subproblems: {info['finished']:,} of {info['total_subproblems']:,} finished, "
        f"{info['in_progress']:,} in progress",
        f"solutions:   {'not recorded' if partial is None else f'{partial:,}'}"
        f"{'' if info['complete'] or partial is None else ' so far'}",
        ("done:        100% (complete)" if info["complete"] else
         f"done:        {min(100 * info['fraction_done'], 99.9999):.6g}% (estimated)"),
        f"updated:     {info['updated']}",
    ]
    out.write("\n".join(lines) + "\n")


def _count_on_dask(args):
    """``nqueens count --scheduler``: the count on a Dask cluster."""
    if args.threads is not None:
        raise ValueError("--threads does not apply with --scheduler (give the workers their "
                         "threads with dask worker --nthreads)")
    try:
        from . import distributed
    except ImportError as exc:  # pragma: no cover - the import is lazy inside
        raise ValueError(f"--scheduler needs Dask: {exc}") from None
    try:
        client = distributed.connect(args.scheduler, timeout=args.scheduler_timeout)
    except ImportError as exc:
        raise ValueError(f"--scheduler needs Dask: pip install 'nqueens_numba[dask]' "
                         f"({exc})") from None
    try:
        return distributed.count_solutions(
            client, args.n, fundamental=args.fundamental, method=args.method,
            prefix_depth=args.prefix_depth, checkpoint=args.checkpoint,
            checkpoint_every=args.checkpoint_every, progress=args.progress,
            preplaced=args.preplace, blocked=_load_blocked(args.blocked), piece=args.piece,
            torus=args.torus)
    finally:
        cluster = getattr(client, "_nqueens_cluster", None)
        client.close()
        if cluster is not None:
            cluster.close()


def _parse_preplace(text):
    """``"0:3,5:1"`` -> ``{0: 3, 5: 1}``."""
    placed = {}
    for item in filter(None, text.split(",")):
        try:
            row, col = (int(v) for v in item.split(":"))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected row:column pairs such as 0:3,5:1, got {item!r}") from None
        if row in placed:
            raise argparse.ArgumentTypeError(f"row {row} is pre-placed twice")
        placed[row] = col
    return placed


def _load_blocked(path):
    if path is None:
        return None
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read --blocked {path!r}: {exc}") from None


def _write_queens(queens, args, out):
    """Print the columns of one solution, or save them with ``--output``: a NumPy array
    for a ``.npy`` name, else the printed line."""
    line = " ".join(map(str, queens.tolist())) + "\n"
    if args.output is None:
        out.write(line)
    elif export.format_for(args.output) == "npy":
        with atomic_file(args.output, binary=True) as file:
            np.save(file, queens)
    else:
        with atomic_file(args.output) as file:
            file.write(line)


def _solution_chunks(args, blocked):
    """The solutions to print or save: ``(chunks of at most _PRINT_CHUNK rows, total)``.

    ``total`` is the number of solutions when it is known without searching them all
    (with ``--limit``), else ``None``.
    """
    if args.limit is None:
        return streaming.iter_solutions(
            args.n, chunk_size=_PRINT_CHUNK, n_threads=args.threads, preplaced=args.preplace,
            blocked=blocked, progress=args.progress, piece=args.piece,
            torus=args.torus), None
    solutions = enumeration.solve(args.n, limit=args.limit, n_threads=args.threads,
                                  preplaced=args.preplace, blocked=blocked,
                                  progress=args.progress, piece=args.piece, torus=args.torus)
    return (solutions[i:i + _PRINT_CHUNK] for i in range(0, len(solutions), _PRINT_CHUNK)
            ), len(solutions)


def _solve_command(args, out):
    """``nqueens solve``: stream the solutions to ``out`` or to ``--output``."""
    if args.format is None:
        args.format = (export.format_for(args.output) if args.output is not None else None
                       ) or "text"
    if args.format == "npy" and args.output is None:
        raise ValueError("--format npy writes a binary file: give it with --output FILE")
    blocked = _load_blocked(args.blocked)
    if args.limit is None and args.output is not None:
        streaming.save_solutions(
            args.output, args.n, format=args.format, chunk_size=_PRINT_CHUNK,
            n_threads=args.threads, preplaced=args.preplace, blocked=blocked,
            progress=args.progress, piece=args.piece, torus=args.torus)
        return
    chunks, total = _solution_chunks(args, blocked)  # npy comes here only with --limit
    export.write_solutions(out if args.output is None else args.output, chunks, args.n,
                           args.format, total)


#: Keyword arguments of the API and the options that set them, for error messages.
_OPTIONS = {"n_threads": "--threads", "prefix_depth": "--prefix-depth",
            "checkpoint_every": "--checkpoint-every", "checkpoint=FILE": "--checkpoint FILE",
            "checkpoint=": "--checkpoint ",
            "max_steps": "--max-steps", "method=": "--method ", "limit must": "--limit must",
            "seed must": "--seed must", "larger max_steps": "larger --max-steps",
            "fundamental=True": "--fundamental", "timeout must": "--scheduler-timeout must",
            "method='halving' or None": "--method halving or no --method",
            "samples must": "--samples must", "seed applies": "--seed applies",
            "give samples": "give --samples", "torus=True": "--torus",
            "piece='superqueen'": "--piece superqueen"}


def _cli_names(message):
    """``message`` with the API's keyword names replaced by the options that set them."""
    pattern = "|".join(re.escape(name) for name in sorted(_OPTIONS, key=len, reverse=True))
    return re.sub(r"\b(" + pattern + ")", lambda m: _OPTIONS[m.group(1)], message)


def main(argv=None):
    """Run the ``nqueens`` command line and return its exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name (``sys.argv[1:]`` by default).

    Returns
    -------
    int
        0 on success, 1 for an error reported on stderr (out of memory, an unwritable
        output, a checkpoint file that is damaged or of another count, an unreachable
        scheduler, a search that gave up), 130 when interrupted by
        Ctrl-C, 143 and 129 for SIGTERM and SIGHUP (handled like Ctrl-C while ``main``
        runs, so that partial files are removed). Bad arguments exit through argparse with
        status 2 and the option names in the message.
    """
    parser, commands = _parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    # SIGTERM and SIGHUP end the program like Ctrl-C does, so that files being written are
    # cleaned up; a second signal ends it at once (the handlers are restored on return, for
    # callers of ``main``).
    handlers = {}
    _ended_by.clear()
    stop_writing(False)
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):
            # A signal the process was started to ignore (``nohup``, ``&`` in a script)
            # stays ignored.
            if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) \
                    is not signal.SIG_IGN:
                handlers[name] = signal.signal(getattr(signal, name), _terminate)
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_stop(unraisable)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return _main(args, commands, out)
    finally:
        for name, handler in handlers.items():
            signal.signal(getattr(signal, name), handler)
        sys.unraisablehook = unraisable
        stop_writing(False)


def _quiet_stop(hook):
    """``sys.unraisablehook`` that says nothing of the interruption a signal's handler raised
    where Python cannot pass it on (a finaliser, a weak reference's callback): the run stops
    all the same (``stop_writing``, ``_stop_if_signalled``). Anything else goes to ``hook``."""
    def quiet(unraisable):
        if not (issubclass(unraisable.exc_type, KeyboardInterrupt) and "signal" in _ended_by):
            hook(unraisable)
    return quiet


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """Warnings of the package as one line on stderr (``nqueens: ...``), with the options'
    names."""
    print(f"nqueens: {_cli_names(str(message))}", file=sys.stderr if file is None else file,
          flush=True)


#: The signal that ended the run, for the exit status (128 + its number; 130 for Ctrl-C).
_ended_by = {}


def _stop_if_signalled():
    """Raise ``KeyboardInterrupt`` if a signal came that did not stop the work (numba or
    llvmlite can swallow the exception the handler raises, inside a finaliser): the
    interrupted run then ends as interrupted rather than with its result."""
    if "signal" in _ended_by:
        raise KeyboardInterrupt


def _terminate(signum, frame):
    """Stop on a signal as on Ctrl-C: a ``KeyboardInterrupt``, whose handling removes the
    files being written and saves a checkpoint. A second signal while stopping (a count
    waits for its running subproblems) ends the process at once, with the temporary files
    being written removed and the last saved checkpoint kept."""
    if "signal" in _ended_by:
        remove_pending_temporaries()
        os._exit(128 + signum)
    _ended_by["signal"] = signum
    stop_writing()  # no output file put in place, should the interruption be swallowed
    raise KeyboardInterrupt  # ``_main`` names the signal


def _main(args, commands, out):
    try:
        output = getattr(args, "output", None)
        if out is None and (args.command == "count" or output is None):
            raise OSError("standard output is closed")
        if output is not None:
            check_target(output)  # a bad --output fails now, not after the search
        if args.command == "status":
            _print_status(args.file, args.json, out)
        elif args.command == "warmup":
            features = precompile.warmup(progress=args.progress)
            out.write(f"kernels of {len(features)} features compiled or loaded; cached in "
                      f"{_runner.cache_directory()}\n")
        elif args.command == "count":
            if args.checkpoint_every is not None:  # checked first, as the other options
                _validate.seconds(args.checkpoint_every, "checkpoint_every")
            if args.scheduler is not None:
                total = _count_on_dask(args)
            else:
                total = counting.count_solutions(
                    args.n, n_threads=args.threads, method=args.method,
                    fundamental=args.fundamental, prefix_depth=args.prefix_depth,
                    progress=args.progress, checkpoint=args.checkpoint,
                    checkpoint_every=args.checkpoint_every, preplaced=args.preplace,
                    blocked=_load_blocked(args.blocked), piece=args.piece, torus=args.torus)
            _stop_if_signalled()
            out.write(f"{total}\n")
        elif args.command == "solve":
            _solve_command(args, out)
        elif args.command == "estimate":
            _print_estimate(args, out)
        elif args.command == "profile":
            _print_profile(args, out)
        elif args.command == "construct":
            _write_queens(huge.construct(args.n, torus=args.torus), args, out)
        else:
            queens = huge.find_solution(args.n, preplaced=args.preplace, seed=args.seed,
                                        max_steps=args.max_steps)
            _stop_if_signalled()
            _write_queens(queens, args, out)
        if out is not None:
            out.flush()
    except (checkpoint.CheckpointError, huge.NoCompletionError) as exc:  # not the usage
        print(f"nqueens: {exc}", file=sys.stderr)
        return 1
    except (TypeError, ValueError) as exc:
        commands[args.command].error(_cli_names(str(exc)))  # exits with status 2
    except KeyboardInterrupt as exc:
        # (the signal is kept: a later one ends the process at once)
        signum = _ended_by.get("signal", signal.SIGINT)
        said = "interrupted" if signum == signal.SIGINT else \
            f"terminated by {signal.Signals(signum).name}"
        print(f"nqueens: {str(exc) or said}", file=sys.stderr)
        return 128 + signum
    except MemoryError as exc:
        print(f"nqueens: out of memory: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # (a ConnectionError: caught before those)
        # The reader closed the pipe (``nqueens solve 12 | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (RuntimeError, ConnectionError) as exc:  # gave up; no scheduler
        print(f"nqueens: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"nqueens: cannot write the output: {exc}", file=sys.stderr)
        return 1
    return 0
