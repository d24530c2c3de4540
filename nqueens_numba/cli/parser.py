"""The ``nqueens`` argument parser: the commands, their options, help texts and exit
statuses."""
import argparse
import re

from .. import _device, _split, config, export, huge
from .._version import __version__
from ..board import PIECES
from . import values

#: The help of N for the commands that take any board order of the bitboard search.
ANY_ORDER = f"board order, 0..{config.MAX_N}"


class Parser(argparse.ArgumentParser):
    """An ``argparse`` parser whose errors are the message and a hint (not the usage)."""

    def error(self, message):
        """Exit with status 2 after ``PROG: error: MESSAGE`` and a line naming ``--help``
        on stderr (or, for an option whose value is missing, how to give one that starts
        with ``-``, which argparse reads as an option)."""
        hint = f"{self.prog} --help lists the options"
        missing = re.fullmatch(r"argument ([^/:]+)\S*: expected one argument", message)
        if missing:
            option = missing.group(1)
            hint = (f"{option} takes a value; one that starts with '-' goes after '=': "
                    f"{option}=VALUE; {hint}")
        if message.startswith("the environment variable"):  # (no option of the command's)
            self.exit(2, f"{self.prog}: error: {message}\n")
        self.exit(2, f"{self.prog}: error: {message}\n({hint})\n")


def build_parser():
    """The parser of the ``nqueens`` command line and the subparser of each command.

    Returns
    -------
    parser : argparse.ArgumentParser
        ``nqueens [--version] COMMAND ...``.
    commands : dict of str to argparse.ArgumentParser
        The subparser of each command by name, to report an error in the command's usage.
    """
    parser = Parser(
        prog="nqueens",
        description=(
            "Count and print the solutions of the n-queens problem: n queens on an n x n "
            f"board, no two attacking each other (0 <= N <= {config.MAX_N} for count, solve "
            f"and profile, 1 <= N <= {config.MAX_N} for estimate; up to "
            f"{huge.MAX_HUGE_N:,} for construct and find)."
        ),
        epilog="Exit status: 0 on success, 2 for bad arguments, 1 for other errors, "
        "130 when interrupted (Ctrl-C), 143 and 129 for SIGTERM and SIGHUP.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=Parser)

    threads = argparse.ArgumentParser(add_help=False)
    threads.add_argument(
        "--threads", "-t", type=int, default=None, metavar="T",
        help="threads to use, 1..NUMBA_NUM_THREADS (default: all)",
    )
    preplace = argparse.ArgumentParser(add_help=False)
    preplace.add_argument(
        "--preplace", "-p", type=values.preplace, default=None, metavar="R:C,...",
        action=values.AddPreplaced,
        help="queens placed beforehand, as row:column pairs (0-based), e.g. 0:3,5:1 "
        "(given several times: all of them)",
    )
    board = argparse.ArgumentParser(add_help=False)
    board.add_argument(
        "--piece", choices=PIECES, default="queen",
        help="the piece: queen, or superqueen (a queen that also moves as a knight; "
        "OEIS A051223) (default: queen)",
    )
    board.add_argument(
        "--torus", action="store_true",
        help="toroidal queens: the diagonals wrap around the board's edges (OEIS A051906)",
    )
    constraints = argparse.ArgumentParser(add_help=False, parents=[preplace])
    constraints.add_argument(
        "--blocked", metavar="FILE.npy", default=None, action=values.Once,
        help="an N x N boolean (or 0/1) .npy array, True on the squares no queen may "
        "stand on",
    )

    count = _command(
        sub, "count", [threads, constraints, board], ANY_ORDER,
        help="print the total number of solutions (OEIS A000170)",
        description="Print the total number of solutions of the N-queens problem "
        "(OEIS A000170).",
        epilog="Long counts: Ctrl-C (or SIGTERM, SIGHUP) stops any count within about a "
        "second (exit status 130, 143, 129), saving FILE with --checkpoint; run the same "
        "command again to resume exactly where it stopped. After a crash or kill -9 a "
        "resume loses at most the last --checkpoint-every seconds of each thread. One "
        "thread of a 2-core machine counts N = 16 in about 1.1 s, 17 in 8 s, 18 in about a "
        "minute and 20 in one to two hours; each N takes about 8 times the previous one, and a "
        "count estimated at more than a day says so when it starts. 'nqueens status FILE' "
        "shows how far a checkpointed count has come, even while it runs.",
    )
    count.add_argument(
        "--method", "-m", choices=_split.METHODS, default=None,
        help="search: mirror halving, or one solution per symmetry class (default: "
        f"symmetric from N = {config.SYMMETRIC_MIN_N}; halving with --torus)",
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
        "--device", choices=_device.DEVICES, default="cpu",
        help="where to count: this machine's threads (default), GPUs through numba-cuda "
        "(pip install 'nqueens_numba[cuda]'), or auto: a usable GPU from "
        f"N = {config.GPU_MIN_N}, else the CPU",
    )
    count.add_argument(
        "--gpus", type=int, nargs="+", default=None, metavar="I",
        help="with --device cuda or auto: the GPUs to use, by number (default: every visible "
        "one)",
    )
    count.add_argument(
        "--scheduler", metavar="ADDRESS", default=None,
        help="count on a Dask cluster: tcp://HOST:PORT of its scheduler, or 'local' for a "
        "LocalCluster on this machine (needs the dask extra)",
    )
    count.add_argument(
        "--scheduler-timeout", type=float, metavar="S",
        help="seconds to wait for the scheduler (default: 10)",
    )

    solve = _command(
        sub, "solve", [threads, constraints, board], ANY_ORDER,
        help="print the solutions as boards",
        description="Print the solutions in lexicographic order. Text: N lines of '.' and "
        "'Q' per board and a blank line after each. JSON: the LeetCode 51 list of boards, "
        "each a list of N strings.",
    )
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
        "/dev/stdout is written in place) instead of standard output (-: standard output, "
        "text or .npy)",
    )

    output = argparse.ArgumentParser(add_help=False)
    output.add_argument(
        "--output", "-o", metavar="FILE", default=None,
        help="save the solution to FILE instead of printing it: a NumPy array for a .npy "
        "name, else the printed line (-: print it)",
    )
    construct = _command(
        sub, "construct", [output], f"board order, 0..{huge.MAX_HUGE_N}",
        help="print one solution of any size, by an explicit construction",
        description="Print one solution for any N except 2 and 3, written down in O(N) by "
        "the classic explicit construction: the column of the queen of each row, space "
        "separated.",
    )
    construct.add_argument("--torus", action="store_true",
                           help="a toroidal solution (the diagonals wrap around the edges), "
                           "queens[i] = 2 i mod N, for N with gcd(N, 6) = 1")
    find = _command(
        sub, "find", [preplace, output], f"board order, 0..{huge.MAX_HUGE_N}, not 2 or 3",
        help="print one solution that keeps pre-placed queens (local search)",
        description="Find one solution keeping the --preplace queens by min-conflicts "
        "local search, and print the column of the queen of each row.",
    )
    find.add_argument("--seed", "-s", type=int, default=None, metavar="S",
                      help="seed of the search (the same seed gives the same solution)")
    find.add_argument("--max-steps", type=int, default=None, metavar="K",
                      help="swap tries of the local search (default: 50 N + 10^6); then, "
                           "for N <= 63, the exhaustive search decides (up to 2 s with more "
                           "than 16 free rows)")

    probes = argparse.ArgumentParser(add_help=False)
    probes.add_argument("--seed", "-s", type=int, default=None, metavar="K",
                        help="seed of the random probes (the same seed and samples give the "
                        "same result for any --threads; the seed drawn when none is given is "
                        "printed: estimate's on stdout, profile's on stderr)")
    probes.add_argument("--progress", action="store_true",
                        help="show a progress bar on stderr")
    estimate = _command(
        sub, "estimate", [threads, probes, board], f"board order, 1..{config.MAX_N}",
        help="estimate the number of solutions of any N, with its standard error",
        description="Estimate the number of solutions (OEIS A000170; of superqueens or "
        "toroidal queens with --piece or --torus) of any N from random "
        "probes of the backtrack tree (Knuth's estimator, with exact first and last rows), "
        "and print the estimate, its standard error and 95% interval.",
        epilog="One thread of a 2-core machine makes about a million probes a second at "
        "N = 27; the standard error shrinks as 1/sqrt(S): 10^8 probes give about 0.03% "
        "there.",
    )
    _add_samples(estimate, 10**7, "random probes, such as 1000000 or 1e6 (default: 1e7)")
    profile = _command(
        sub, "profile", [threads, probes, board],
        f"board order, 0..{config.MAX_N} (1..{config.MAX_N} with --samples)",
        help="print the nodes of the backtrack tree at each depth",
        description="Print the nodes of the row-by-row backtrack tree at each depth k "
        "(placements of k non-attacking queens in the first k rows; depth N holds the "
        "solutions): counted exactly, or estimated with --samples.",
    )
    _add_samples(profile, None, "estimate from S random probes (such as 1e6) instead of "
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
        "that later first calls only load them: 40-60 s with an empty cache on a 2-core "
        "machine, 1 s with a full one. The kernels "
        "are cached beside the package, or in NUMBA_CACHE_DIR (set it where the package "
        "directory is read-only).",
    )
    warmup.add_argument("--progress", action="store_true",
                        help="show a progress bar of the features warmed on stderr")
    return parser, {"count": count, "solve": solve, "construct": construct, "find": find,
                    "estimate": estimate, "profile": profile, "status": status,
                    "warmup": warmup}


def _command(sub, name, parents, n_help, **texts):
    """The subparser of a command on a board of order N: ``nqueens NAME N``, with the
    options of ``parents`` first; ``texts`` are its ``help``, ``description`` and
    ``epilog``."""
    command = sub.add_parser(name, parents=parents, **texts)
    command.add_argument("n", type=int, metavar="N", help=n_help)
    return command


def _add_samples(command, default, text):
    """``--samples S``: the random probes of an estimate, with its help ``text``."""
    command.add_argument("--samples", "-S", type=values.probes, default=default,
                         metavar="S", help=text)
