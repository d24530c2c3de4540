"""``nqueens solve``: the solutions streamed to standard output or to a file, as text
boards, LeetCode JSON, CSV or NumPy ``.npy``."""

from .. import enumeration, export, streaming
from ..board import board_of
from .messages import cli_names, say
from .values import load_blocked

#: Solutions formatted per write when printing or saving them.
_PRINT_CHUNK = 10_000


def solve_command(args, out):
    """``nqueens solve``: stream the solutions to ``out`` or to ``--output``."""
    if args.format is None:
        args.format = (export.format_for(args.output) if args.output is not None else None
                       ) or "text"
    if args.format == "npy" and args.output is None:
        raise ValueError("--format npy writes a binary file: give it with --output FILE")
    blocked = load_blocked(args.blocked)
    if args.limit is None and args.output is not None:
        written = streaming.save_solutions(
            args.output, args.n, format=args.format, chunk_size=_PRINT_CHUNK,
            n_threads=args.threads, preplaced=args.preplace, blocked=blocked,
            progress=args.progress, piece=args.piece, torus=args.torus)
    else:
        chunks, total = _solution_chunks(args, blocked)  # npy comes here only with --limit
        written = export.write_solutions(out if args.output is None else args.output, chunks,
                                         args.n, args.format, total)
    _say_what_was_found(args, written)


def _say_what_was_found(args, written):
    """On stderr, the answers that print as nothing or as a blank board: no solution
    (``nqueens solve 3``), and the one empty board of n = 0."""
    if written == 0 and args.limit != 0:
        conditions = [board_of(args.piece, args.torus).keywords[2:]]  # ("torus=True")
        if args.preplace is not None or args.blocked is not None:
            conditions.append("these constraints")
        conditions = [c for c in conditions if c]
        said = f" with {' and '.join(conditions)}" if conditions else ""
        say(cli_names(f"no solutions for n={args.n}{said}"))
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
