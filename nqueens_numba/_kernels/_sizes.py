"""The sizes the kernels are built around, for their callers too; importing this module does
not import numba."""

__all__ = ["TAIL_ROWS", "TAIL_SOLUTIONS", "TORUS", "KNIGHT"]

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
