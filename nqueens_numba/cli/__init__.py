"""Command line: ``nqueens count|solve|construct|find|estimate|profile N``, ``nqueens status
FILE`` and ``nqueens warmup``.

:func:`main` parses the arguments (:mod:`.parser`), runs the command (:mod:`.count`,
:mod:`.solve`, :mod:`.explore`, :mod:`.construct`), and turns errors and signals
(:mod:`.stop`) into messages and exit statuses.
"""
import os
import sys
import warnings

from .. import _progress, checkpoint, huge, precompile
from .._files import check_target
from . import construct, count, explore, messages, solve, stop, values
from .parser import build_parser


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
        scheduler, a search that gave up), 130 when interrupted by Ctrl-C, 143 and 129 for
        SIGTERM and SIGHUP (handled like Ctrl-C while ``main`` runs, so that partial files
        are removed; ignored once the answer is written). Bad arguments exit with status 2
        after ``nqueens COMMAND: error: MESSAGE`` (the option names in the message) and a
        line naming ``--help``.
    """
    parser, commands = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # (argparse reports them as the top command's: name the command's own usage)
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    out = sys.stdout
    restore = stop.handle_signals()
    try:
        with warnings.catch_warnings():
            warnings.showwarning = messages.show_warning
            return _main(args, commands, out)
    finally:
        restore()


def _main(args, commands, out):
    """Run the command of ``args``, writing to ``out``; return its exit status."""
    try:
        output = getattr(args, "output", None)
        to_stdout = output is None or output == values.STDOUT  # (--output -: no file)
        if out is None and (args.command == "count" or to_stdout):
            raise OSError("standard output is closed")
        if not to_stdout:
            check_target(output)  # a bad --output fails now, not after the search
        if args.command == "status":
            count.print_status(args.file, args.json, out)
        elif args.command == "warmup":
            features = precompile.warmup(progress=args.progress)
            out.write(f"kernels of {len(features)} features compiled or loaded; cached in "
                      f"{_progress.cache_directory()}\n")
        elif args.command == "count":
            count.count_command(args, out)
        elif args.command == "solve":
            solve.solve_command(args, out)
        elif args.command == "estimate":
            explore.print_estimate(args, out)
        elif args.command == "profile":
            explore.print_profile(args, out)
        elif args.command == "construct":
            construct.construct_command(args, out)
        else:
            construct.find_command(args, out)
        if out is not None:
            out.flush()
        stop.answered()  # a signal from now on changes nothing: the answer is out
    except (checkpoint.CheckpointError, huge.NoCompletionError) as exc:  # not the usage
        messages.say(exc)
        return 1
    except (TypeError, ValueError) as exc:
        commands[args.command].error(messages.cli_names(str(exc)))  # exits with status 2
    except KeyboardInterrupt as exc:
        return stop.interrupted(KeyboardInterrupt(messages.cli_names(str(exc))))
    except MemoryError as exc:
        messages.say(f"out of memory: {exc}")
        return 1
    except BrokenPipeError:  # (a ConnectionError: caught before those)
        # The reader closed the pipe (``nqueens solve 12 | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (RuntimeError, ConnectionError) as exc:  # gave up; no scheduler; no GPU
        messages.say(messages.cli_names(str(exc)))
        return 1
    except OSError as exc:
        messages.say(f"cannot write the output: {exc}")
        return 1
    return 0
