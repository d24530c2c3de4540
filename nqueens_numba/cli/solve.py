"""``nqueens solve``: the solutions streamed to standard output or to a file, as text
boards, LeetCode JSON, CSV or NumPy ``.npy``."""

from .. import enumeration, export, streaming
from ..board import board_of
from .messages import cli_names, say
from .values import STDOUT, load_blocked

#: Solutions formatted per write when printing or saving them.
_PRINT_CHUNK = 10_000


def solve_command(args, out):
    """``nqueens solve``: stream the solutions to ``out`` or to ``--output``."""
    if args.output == STDOUT and args.format == "npy":  # (in binary, to a file or a pipe)
        if out.isatty():
            raise ValueError("--format npy with --output - would write binary to the "
                             "terminal: send standard output to a file or a pipe")
        try:
            _solve(args, out.buffer, out)
        except KeyboardInterrupt:  # (the library's words speak of a file)
            raise KeyboardInterrupt(cli_names(
                f"solve of n={args.n}{_conditions(args)} interrupted: the .npy written to "
                f"standard output so far is cut short")) from None
        return
    if args.output == STDOUT:  # (text, as without --output)
        args.output = None
    _solve(args, args.output, out)


def _solve(args, output, out):
    """:func:`solve_command` with ``output`` the file, open file or ``None`` (``out``)."""
    args.output = output
    if args.format is None:
        args.format = (export.format_for(args.output) if args.output is not None else None
                       ) or "text"
    if args.format == "npy" and args.output is None:
        raise ValueError("--format npy writes a binary file: give it with --output FILE "
                         "(or --output - for standard output)")
    blocked = load_blocked(args.blocked, args.n)
    if args.limit is None and args.output is not None:
        written = streaming.save_solutions(
            args.output, args.n, format=args.format, chunk_size=_PRINT_CHUNK,
            n_threads=args.threads, preplaced=args.preplace, blocked=blocked,
            progress=args.progress, piece=args.piece, torus=args.torus)
    else:
        printed = {"whole": 0, "writing": 0}
        try:
            chunks, total = _solution_chunks(args, blocked)  # (npy: only with --limit)
        except KeyboardInterrupt as exc:  # (with --limit: while solve collects them)
            raise KeyboardInterrupt(_interrupted(args, printed, out, exc)) from None
        if args.output is not None:
            written = export.write_solutions(args.output, chunks, args.n, args.format, total)
        else:
            try:
                written = export.write_solutions(out, _printed(chunks, printed), args.n,
                                                 args.format, total, whole=True)
            except KeyboardInterrupt:
                raise KeyboardInterrupt(_interrupted(args, printed, out)) from None
    _say_what_was_found(args, written)


def _printed(chunks, printed):
    """``chunks``, counting in ``printed`` the solutions of the chunks written whole
    (``"whole"``) and of the one being written (``"writing"``)."""
    for chunk in chunks:
        printed["writing"] = len(chunk)
        yield chunk
        printed["whole"] += len(chunk)
        printed["writing"] = 0


def _interrupted(args, printed, out, said=None):
    """The message of a ``solve`` stopped by a signal before it wrote to ``--output``, or
    while it printed to ``out``, in place of the library's (``said``: which named
    ``solve(...)`` or ``iter_solutions``, calls the user did not make; where ``solve`` points
    to ``find_solution``, this points to ``nqueens find``)."""
    whole, writing = printed["whole"], printed["writing"]
    message = f"solve of n={args.n}{_conditions(args)} interrupted"
    if not whole and not writing:
        message += (f" before any solution was "
                    f"{'written' if args.output is not None else 'printed'}")
        said = str(said)
        if "find_solution(" in said or "construct(" in said:  # (solve says which applies)
            command = "find" if "find_solution(" in said else "construct"
            board = cli_names(board_of(args.piece, args.torus).keywords.replace(", ", " "))
            placed = ("" if not args.preplace else " --preplace " + ",".join(
                f"{row}:{col}" for row, col in sorted(args.preplace.items())))
            message += (f" (nqueens {command} {args.n}{board}{placed} finds one solution in "
                        f"milliseconds, not the first in order)")
        return cli_names(message)
    count = (f"{whole:,}" if not writing else
             f"{whole:,} to {whole + writing:,}" if whole else f"up to {writing:,}")
    message += f" after {count} solutions printed"
    if args.format == "json":
        return cli_names(message + ": the JSON printed is cut short (no closing bracket)")
    return cli_names(message + (", the last one whole" if export.ends_whole(out) else ""))


def _conditions(args):
    """`` with torus=True and these constraints`` (as the case may be) for a message."""
    conditions = [board_of(args.piece, args.torus).keywords[2:]]  # ("torus=True")
    if args.preplace is not None or args.blocked is not None:
        conditions.append("these constraints")
    conditions = [c for c in conditions if c]
    return f" with {' and '.join(conditions)}" if conditions else ""


def _say_what_was_found(args, written):
    """On stderr, the answers that print as nothing or as a blank board: no solution
    (``nqueens solve 3``), and the one empty board of n = 0."""
    if written == 0 and args.limit != 0:
        say(cli_names(f"no solutions for n={args.n}{_conditions(args)}"))
    elif args.n == 0 and written == 1:
        say("n=0: the empty board (no rows) is the one solution")


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
