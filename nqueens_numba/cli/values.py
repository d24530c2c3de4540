"""The values of the command line's options: ``--samples`` and ``--preplace`` as argparse
types (``--preplace`` given several times adds up), and the ``--blocked`` array read from
its file."""
import argparse
import decimal

import numpy as np


def probes(text):
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


def preplace(text):
    """``--preplace``: ``"0:3,5:1"`` -> ``{0: 3, 5: 1}``."""
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


#: ``--output -``: standard output (text as without ``--output``; a ``.npy`` in binary).
STDOUT = "-"


class AddPreplaced(argparse.Action):
    """``--preplace`` given more than once: the queens of each, together (a row given twice
    is an error, as within one ``--preplace``)."""

    def __call__(self, parser, namespace, values, option_string=None):
        placed = dict(getattr(namespace, self.dest) or {})
        for row, col in values.items():
            if row in placed:  # (named as argparse names it: --preplace/-p)
                parser.error(f"argument {'/'.join(self.option_strings)}: row {row} is "
                             f"pre-placed twice")
            placed[row] = col
        setattr(namespace, self.dest, placed or None)  # (-p '': no queen, no constraint)


class Once(argparse.Action):
    """An option that may be given once only (a second ``--blocked`` would silently replace
    the first)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest) is not None:
            parser.error(f"argument {option_string}: given twice")
        setattr(namespace, self.dest, values)


class _NotAMask(ValueError):
    """A ``.npy`` file that reads, but holds no mask of the board (its words say what it
    holds)."""


def load_blocked(path, n):
    """The ``--blocked`` array read from ``path`` (``None`` for no ``--blocked``): an
    ``(n, n)`` array of booleans (``n``: the board order, at most 63). An array of integers 0
    and 1 is read as booleans.

    Only the header and the data it announces are read: a pipe is read once, and an endless
    stream (``/dev/zero``, or a header followed by one) is refused or cut at the data's end.

    Raises
    ------
    ValueError
        If ``path`` cannot be read as a ``.npy`` array, is not of shape ``(n, n)``, or holds
        neither booleans nor 0 and 1 only.
    """
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            blocked = _read_npy(file, n)
    except _NotAMask as exc:  # (read, but not a mask of this board)
        raise ValueError(f"--blocked {path!r} holds {exc}") from None
    except (OSError, ValueError, EOFError) as exc:  # (EOFError: a truncated .npy)
        raise ValueError(f"cannot read --blocked {path!r}: {exc}") from None
    if blocked.dtype.kind in "iu":  # (0 and 1, as numpy.save writes an integer mask)
        other = np.argwhere(~np.isin(blocked, (0, 1)))
        if len(other):
            row, column = other[0].tolist()
            raise ValueError(f"--blocked {path!r} holds {blocked[row, column]} at row {row}, "
                             f"column {column}: expected 0 and 1 only (or booleans), 1 where "
                             f"a square is blocked")
        return blocked.astype(bool)
    if blocked.dtype != bool:
        raise ValueError(f"--blocked {path!r} holds {blocked.dtype} values: expected "
                         f"booleans (or integers 0 and 1), True where a square is blocked")
    return blocked


def _read_npy(file, n):
    """The array of the ``.npy`` file ``file`` (open, binary), reading its header and then
    only the data it announces (NumPy's ``read_array`` would read the data of any shape the
    header claims); ``ValueError`` for another file, a shape other than ``(n, n)`` (checked
    before the data is read) or truncated data."""
    if file.read(6) != b"\x93NUMPY":  # (np.load would take it for a pickle; /dev/zero)
        raise ValueError("not a .npy file (write one with numpy.save: an (n, n) array of "
                         "booleans, True where a square is blocked)")
    version = tuple(file.read(2))
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(file)
    elif version in ((2, 0), (3, 0)):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(file)
    else:
        raise ValueError(f"a .npy file of format version {version} (numpy.save writes 1.0)")
    if dtype.hasobject:
        raise _NotAMask("Python objects, not booleans")
    if tuple(shape) != (n, n):
        raise _NotAMask(f"an array of shape {tuple(shape)}, not ({n}, {n}) for n = {n}")
    count = n * n
    data = file.read(count * dtype.itemsize)
    if len(data) != count * dtype.itemsize:
        raise ValueError(f"the data is cut short ({len(data)} of {count * dtype.itemsize} "
                         f"bytes)")
    return np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C").copy()
