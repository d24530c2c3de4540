"""``nqueens construct`` and ``nqueens find``: one solution of any N (explicit construction,
or local search keeping pre-placed queens), printed or saved."""
import numpy as np

from .. import export, huge
from .._files import atomic_file
from .stop import stop_if_signalled
from .values import STDOUT


def construct_command(args, out):
    """``nqueens construct``: one solution by the explicit construction."""
    _write_queens(huge.construct(args.n, torus=args.torus), args, out)


def find_command(args, out):
    """``nqueens find``: one solution keeping the ``--preplace`` queens."""
    queens = huge.find_solution(args.n, preplaced=args.preplace, seed=args.seed,
                                max_steps=args.max_steps)
    stop_if_signalled()
    _write_queens(queens, args, out)


#: Columns written as text at a time: a line of 10^9 columns is written in parts, never held
#: whole (about 10 GB as one string).
_COLUMNS_AT_ONCE = 1 << 20


def _write_line(queens, file):
    """Write the columns of ``queens`` as one line of numbers separated by spaces."""
    for start in range(0, len(queens), _COLUMNS_AT_ONCE):
        part = " ".join(map(str, queens[start:start + _COLUMNS_AT_ONCE].tolist()))
        file.write(part if start == 0 else " " + part)
    file.write("\n")


class _Writes:
    """A file that NumPy writes through its ``write`` (a part at a time), not its own
    ``tofile``: a full disk then says so (``No space left on device``), where a short write of
    ``tofile`` said "1000000 requested and 261088 written"."""

    def __init__(self, file):
        self.write = file.write


def _write_queens(queens, args, out):
    """Print the columns of one solution, or save them with ``--output``: a NumPy array
    for a ``.npy`` name, else the printed line."""
    if args.output in (None, STDOUT):
        _write_line(queens, out)
    elif export.format_for(args.output) == "npy":
        with atomic_file(args.output, binary=True) as file:
            np.save(_Writes(file), queens)
    else:
        with atomic_file(args.output) as file:
            _write_line(queens, file)
