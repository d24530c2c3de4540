"""The values of the command line's options: ``--samples`` and ``--preplace`` as argparse
types (``--preplace`` given several times adds up), and the ``--blocked`` array read from
its file."""
import argparse
import decimal
import io

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


def output(text):
    """``--output``: a file's name, or :data:`STDOUT`."""
    return text


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
        setattr(namespace, self.dest, placed)


class Once(argparse.Action):
    """An option that may be given once only (a second ``--blocked`` would silently replace
    the first)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest) is not None:
            parser.error(f"argument {option_string}: given twice")
        setattr(namespace, self.dest, values)


def load_blocked(path):
    """The ``--blocked`` array read from ``path`` (``None`` for no ``--blocked``).

    An array of integers 0 and 1 is read as booleans.

    Raises
    ------
    ValueError
        If ``path`` cannot be read as a ``.npy`` array, or holds neither booleans nor 0 and
        1 only.
    """
    if path is None:
        return None
    try:
        with open(path, "rb") as file:  # (read once: a pipe, as <(...), cannot be read again)
            magic = file.read(6)
            if magic != b"\x93NUMPY":  # (np.load would take it for a pickle; /dev/zero)
                raise ValueError("not a .npy file (write one with numpy.save: an (n, n) "
                                 "array of booleans, True where a square is blocked)")
            data = magic + file.read()
        blocked = np.load(io.BytesIO(data), allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:  # (EOFError: a truncated .npy)
        raise ValueError(f"cannot read --blocked {path!r}: {exc}") from None
    if blocked.dtype.kind in "iu" and np.isin(blocked, (0, 1)).all():
        return blocked.astype(bool)  # (0 and 1, as numpy.save writes an integer mask)
    if blocked.dtype != bool:
        raise ValueError(f"--blocked {path!r} holds {blocked.dtype} values: expected "
                         f"booleans (or integers 0 and 1), True where a square is blocked")
    return blocked
