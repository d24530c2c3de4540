"""Every compiled kernel of the package, by family; importing nothing else from the package.

=================  ================================================================
``_common``        JIT options, the full mask, tail sizes, the tail with allowed squares
``bitboard``       counting (plain and with allowed squares), prefixes, resumable enumeration
``symmetric``      the D4-symmetric count and its prefixes
``local_search``   min-conflicts repair of one solution
``trace``          the search, event by event
=================  ================================================================

Kernels assume valid input (the callers validate), take only scalars and fixed-dtype arrays,
and never format strings. They are named underscore + verb + object (``_count_states``); the
callers reach them through this package (``_kernels._count_states``), so that a test can
replace one here.

Kernels are cached per source file (``cache=True``): numba does not notice when a helper of
``_common`` that a kernel of another file inlines has changed, so after editing ``_common.py``
remove the ``__pycache__`` folders (or set ``NUMBA_CACHE_DIR`` to a new folder).
"""
from ._common import JIT, TAIL_ROWS, TAIL_SOLUTIONS
from .bitboard import (
    _count_allowed_batch,
    _count_allowed_states,
    _count_batch,
    _count_rows,
    _count_states,
    _enumerate_prefixes,
    _fill_rows,
    _fill_solutions,
    _mirror_rows,
    _start_cursor,
)
from .local_search import _min_conflicts
from .symmetric import (
    _IMAGE_COMPLEMENT,
    _IMAGE_INVERSE,
    _IMAGE_REVERSE,
    _count_symmetric_run,
    _count_symmetric_states,
    _symmetric_allow,
)
from .trace import TRACE_PLACE, TRACE_REMOVE, TRACE_SOLUTION, _trace_search

__all__ = [
    "JIT", "TAIL_ROWS", "TAIL_SOLUTIONS", "TRACE_PLACE", "TRACE_REMOVE", "TRACE_SOLUTION",
    "_IMAGE_COMPLEMENT", "_IMAGE_INVERSE", "_IMAGE_REVERSE",
    "_count_allowed_batch", "_count_allowed_states", "_count_batch", "_count_rows",
    "_count_states", "_count_symmetric_run",
    "_count_symmetric_states",
    "_enumerate_prefixes", "_fill_rows", "_fill_solutions", "_min_conflicts", "_mirror_rows",
    "_start_cursor", "_symmetric_allow", "_trace_search",
]
