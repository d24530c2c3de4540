"""The sizes the kernels are built around, for their callers too; importing this module does
not import numba."""

__all__ = ["TAIL_ROWS", "TAIL_SOLUTIONS", "TORUS", "KNIGHT", "STEPS"]

#: Rows at the bottom of the board searched by unrolled nested loops (``_count_tail`` and
#: friends): each level gets its own branches, which the processor predicts better than one
#: shared loop.
TAIL_ROWS = 4

#: Most solutions one tail (``TAIL_ROWS`` rows) can hold: ``TAIL_ROWS!`` orders of its
#: free columns.
TAIL_SOLUTIONS = 24

#: Variants of the search, bit flags of the kernels' ``variant`` argument: diagonals that wrap
#: around the board's edges (toroidal queens: ``diag`` and ``anti`` rotate within ``n`` bits
#: instead of shifting), and queens that also move as knights (superqueens: the squares a
#: knight attacks from the two rows above are not free). Each entry point passes a constant,
#: so that numba compiles a version of the search per variant (a literal argument) without
#: the others' branches; 0 is the plain queen.
TORUS = 1
KNIGHT = 2

#: With ``TORUS``, the count by least steps (``count``'s counts and prefixes only): the
#: *steps* of a toroidal solution are ``d_i = q_{i+1} - q_i mod n`` (``q_n = q_0``), which
#: the row shifts rotate and the mirror ``c -> -c`` negates. A subproblem has its first-row
#: queen in column 0 and its second-row queen in column ``m = d_0 <= (n - 1) / 2``; every
#: later queen stands at least ``m`` columns, either way round, from the one above (and the
#: last from column 0). A solution found counts only if its steps are the least of their
#: rotations and negations in lexicographic order, as ``2 n / s`` solutions with column 0
#: in the first row (``s``: the rotations and negations that leave the steps as they are).
STEPS = 4
