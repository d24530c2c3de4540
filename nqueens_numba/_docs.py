"""The docstring sections that many public functions share, written once.

A public function whose docstring has a line ``%(name)s`` (alone on its line) is decorated
with :func:`fill`; the line is replaced by the section of that name, indented as the line is.
The filled docstring is what ``help()``, the documentation and the doctests see.
"""
import textwrap

from . import config

__all__ = ["fill"]


def _order_threads_board(threads_as):
    """The first parameters of a function that takes ``n``, ``n_threads`` and the board."""
    return f"""\
Parameters
----------
n : int
    Board order, ``0 <= n <= {config.MAX_N}``.
n_threads : int, optional
    As in :func:`{threads_as}`.
piece : {{"queen", "superqueen"}}, optional
torus : bool, optional"""


SECTIONS = {
    # A count or an enumeration of the whole board, on the boards of ``board_of``; the
    # docstring goes on with what ``piece`` and ``torus`` mean to the function.
    "count_parameters": _order_threads_board("count_solutions"),
    "solve_parameters": _order_threads_board("solve"),
    "count_raises": """\
Raises
------
TypeError, ValueError
    As :func:`count_solutions`.""",
    # One placement or a batch, as the functions of ``symmetry`` take them.
    "placements": """\
Parameters
----------
queens : array_like of int, shape (n,) or (k, n)
    Placements, ``queens[..., row] == column``; each a permutation of ``0..n-1``.""",
    "placements_raise": """\
Raises
------
TypeError, ValueError
    As :func:`transform`.""",
}


def fill(function):
    """Replace each line ``%(name)s`` of ``function.__doc__`` by the shared section ``name``.

    Raises
    ------
    KeyError
        If the docstring names a section that :data:`SECTIONS` does not hold.

    Notes
    -----
    Under ``python -OO`` docstrings are ``None``: the function is returned as it is.
    """
    if function.__doc__ is None:
        return function
    lines = []
    for line in function.__doc__.splitlines():
        name = line.strip()
        if name.startswith("%(") and name.endswith(")s"):
            indent = line[:len(line) - len(line.lstrip())]
            lines.append(textwrap.indent(SECTIONS[name[2:-2]], indent))
        else:
            lines.append(line)
    function.__doc__ = "\n".join(lines)
    return function
