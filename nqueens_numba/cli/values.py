"""The values of the command line's options: ``--samples`` and ``--preplace`` as argparse
types, and the ``--blocked`` array read from its file."""
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


def load_blocked(path):
    """The ``--blocked`` array read from ``path`` (``None`` for no ``--blocked``).

    Raises
    ------
    ValueError
        If ``path`` cannot be read as a ``.npy`` array.
    """
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            if file.read(6) != b"\x93NUMPY":  # (np.load would take it for a pickle)
                raise ValueError("not a .npy file (write one with numpy.save: an (n, n) "
                                 "array of booleans, True where a square is blocked)")
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:  # (EOFError: a truncated .npy)
        raise ValueError(f"cannot read --blocked {path!r}: {exc}") from None
