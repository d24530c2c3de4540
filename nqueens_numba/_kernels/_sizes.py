"""The sizes the kernels are built around, for their callers too; importing this module does
not import numba."""

__all__ = ["TAIL_ROWS", "TAIL_SOLUTIONS"]

#: Rows at the bottom of the board searched by unrolled nested loops (``_count_tail`` and
#: friends): each level gets its own branches, which the processor predicts better than one
#: shared loop.
TAIL_ROWS = 4

#: Most solutions one tail (``TAIL_ROWS`` rows) can hold: ``TAIL_ROWS!`` orders of its
#: free columns.
TAIL_SOLUTIONS = 24
