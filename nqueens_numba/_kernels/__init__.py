"""Every compiled kernel of the package, by family, and the table that names them; importing
nothing else from the package.

=================  ================================================================
``_sizes``         the tail sizes and board flags, for the callers too (imports no numba)
``_common``        JIT options, the full mask, the variants' masks, the tail with allowed squares
``count``          the plain count (and with allowed squares, toroidal, superqueens)
``enumerate``      prefixes of a split, resumable enumeration of solutions
``symmetric``      the D4-symmetric count and its prefixes
``prefixes``       the symmetric count's prefixes on the plain board, in NumPy (no numba)
``local_search``   min-conflicts repair of one solution
``trace``          the search, event by event
``estimate``       nodes per depth of the search tree, exactly or by random probes
``gpu``            the CUDA kernels of a count (numba-cuda), loaded only for a GPU count
``_loading``       how they come into a process: numba imported whole, compiles apart
                   from Ctrl-C, the first compile said, a tolerant cache (no kernels)
=================  ================================================================

Callers get every kernel from one table, :func:`entry`: ``entry(job, board, constrained)``
names the kernel of a job on a board (``board.flag``: 0, ``TORUS`` or ``KNIGHT``), with
per-row allowed squares or without. The kernels of one job take the same arguments on every
board; each board's kernel is compiled for that board alone (its flag a constant), on first
use. Importing this package does not import numba: the family of a kernel is imported when
:func:`entry` first names it. The first kernel numba compiles in a process says so on stderr
(one line naming the cache folder).

Kernels assume valid input (the callers validate), take only scalars and fixed-dtype arrays,
and never format strings. They are named underscore + verb + object (``_count_batch``) and
looked up here by name on each :func:`entry` call, so that a test can replace one
(``monkeypatch.setattr(_kernels, "_count_batch", ...)``).

Kernels are cached per source file (``cache=True``): numba does not notice when a helper of
``_common`` that a kernel of another file inlines has changed, so after editing ``_common.py``
remove the ``__pycache__`` folders (or set ``NUMBA_CACHE_DIR`` to a new folder). A cache
that cannot be written or read costs a compile, not the call
(:func:`nqueens_numba._kernels._loading.load`).
"""
from . import _loading
from ._sizes import KNIGHT, STEPS, TAIL_ROWS, TAIL_SOLUTIONS, TORUS

#: The family (module) of each kernel and constant, loaded on first use: importing the
#: package does not import numba, so a first call that needs no kernel (a small board,
#: :mod:`nqueens_numba._breadth`; a construction; a drawing) does not pay for it.
_FAMILY = {
    "JIT": "_common",
    "_steps_weight": "_common",
    **dict.fromkeys(["_count_allowed_batch", "_count_batch", "_count_knight_batch",
                     "_count_rows", "_count_torus_batch"], "count"),
    **dict.fromkeys(["_enumerate_knight_prefixes", "_enumerate_prefixes",
                     "_enumerate_steps_prefixes", "_enumerate_torus_prefixes",
                     "_fill_knight_rows", "_fill_rows", "_fill_solutions", "_fill_torus_rows",
                     "_mirror_rows", "_start_cursor"], "enumerate"),
    "_min_conflicts": "local_search",
    **dict.fromkeys(["_probe_knight_states", "_probe_states", "_probe_torus_states",
                     "_profile_knight_run", "_profile_run", "_profile_torus_run"], "estimate"),
    **dict.fromkeys([
        "_IMAGE_COMPLEMENT", "_IMAGE_INVERSE", "_IMAGE_REVERSE", "_count_symmetric_knight_run",
        "_count_symmetric_run", "_symmetric_allow", "_symmetric_knight_prefixes"],
        "symmetric"),
    "_count_symmetric_first": "symmetric_first",
    "_list_symmetric_prefixes": "prefixes",
    **dict.fromkeys(["cuda", "numpy_shim", "launch_shape", "_gpu_count", "_gpu_allowed_count",
                     "_gpu_knight_count", "_gpu_torus_count", "_gpu_symmetric",
                     "_gpu_knight_symmetric"], "gpu"),
    **dict.fromkeys(["_trace_knight_search",
                     "_trace_search", "_trace_torus_search"], "trace"),
}

#: The kernel of each job on each board (its flag: 0 for plain queens, ``TORUS``, ``KNIGHT``)
#: and whether the rows have allowed squares of their own (``None``: no such kernel). The
#: arguments of a job are the same on every board:
#:
#: ================  ==================================================================
#: ``count``         ``(n, states, depth, allow, stack, level, partial, budget, signal)``:
#:                   the count of a batch of subproblems for a budget of steps, or fewer
#:                   once another thread sets ``signal`` (toroidal queens by least steps)
#: ``symmetric``     ``(n, states, depth, stack, level, partial, work, budget, signal)``:
#:                   the same by the D4-symmetric search
#: ``symmetric_first``  ``(n, states, depth, allows, stack, counts, work, budget,
#:                   signal)``: the same on plain queens in the kernel that compiles
#:                   fastest, each state whole, its results added to ``counts``; returns
#:                   the states done
#: ``count_rows``    ``(n, row, cols, diag, anti, allow, stack)``: the plainest count, no
#:                   budget
#: ``prefixes``      ``(n, depth, first_limit, allow, max_states)``: a split's prefixes
#:                   (``count_prefixes``: those of the count, by least steps on the torus)
#: ``symmetric_prefixes``  ``(n, low, high, target, max_states)``: the symmetric split's,
#:                   in one call
#: ``fill``          ``(n, base, stack, queens, level, out, budget, allow)``: enumeration
#: ``profile``       ``(n, states, depth, limit, weights, stack, level, below, out, budget)``
#: ``probe``         ``(n, states, depth, tail, first, n_probes, base, extra, rng, sums,
#:                   squares)``: random probes of an estimate
#: ``trace``         ``(n, allow, events, stack)``: the search event by event
#: ``gpu_count``     ``(levels, block, wide, registers=0)``: the CUDA kernel of ``count``
#:                   (allowed squares always given, read with constraints only) for
#:                   stacks of ``levels`` levels, blocks of ``block`` threads, ``int64``
#:                   words if ``wide``, at most ``registers`` registers a thread (0: the
#:                   compiler's choice) (``gpu``)
#: ``gpu_symmetric`` the same of ``symmetric``
#: ================  ==================================================================
_BY_BOARD = {  # job: kernels of (queens, queens with allowed squares, torus, superqueens)
    "count": ("_count_batch", "_count_allowed_batch", "_count_torus_batch",
              "_count_knight_batch"),
    "symmetric": ("_count_symmetric_run", None, None, "_count_symmetric_knight_run"),
    "symmetric_first": ("_count_symmetric_first", None, None, None),
    "count_rows": ("_count_rows", "_count_rows", None, None),
    "prefixes": ("_enumerate_prefixes", "_enumerate_prefixes", "_enumerate_torus_prefixes",
                 "_enumerate_knight_prefixes"),
    "count_prefixes": ("_enumerate_prefixes", "_enumerate_prefixes",
                       "_enumerate_steps_prefixes", "_enumerate_knight_prefixes"),
    "symmetric_prefixes": ("_list_symmetric_prefixes", None, None,
                           "_symmetric_knight_prefixes"),
    "fill": ("_fill_solutions", "_fill_rows", "_fill_torus_rows", "_fill_knight_rows"),
    "profile": ("_profile_run", None, "_profile_torus_run", "_profile_knight_run"),
    "probe": ("_probe_states", None, "_probe_torus_states", "_probe_knight_states"),
    "trace": ("_trace_search", "_trace_search", "_trace_torus_search", "_trace_knight_search"),
    "gpu_count": ("_gpu_count", "_gpu_allowed_count", "_gpu_torus_count",
                  "_gpu_knight_count"),
    "gpu_symmetric": ("_gpu_symmetric", None, None, "_gpu_knight_symmetric"),
}
#: Jobs whose kernel does not depend on the board.
_ANY_BOARD = {"start_cursor": "_start_cursor", "mirror_rows": "_mirror_rows",
              "symmetric_allow": "_symmetric_allow", "steps_weight": "_steps_weight",
              "min_conflicts": "_min_conflicts"}
#: The same, by ``(job, board flag, constrained)``.
_ENTRIES = {
    **{(job, flag, constrained): name
       for job, names in _BY_BOARD.items()
       for (flag, constrained), name in zip([(0, False), (0, True), (TORUS, False),
                                             (KNIGHT, False)], names) if name is not None},
    **{(job, 0, False): name for job, name in _ANY_BOARD.items()},
}

__all__ = ["KNIGHT", "STEPS", "TAIL_ROWS", "TAIL_SOLUTIONS", "TORUS", "entry", "has",
           "images", "is_loaded", "is_ready", "loaded_counts", "mark_loaded"]

#: The count kernels compiled or loaded in this process, as ``(method, board flag,
#: constrained)`` (method ``"small"``: the plainest count, ``count_rows``): added by the runs
#: that use them (:func:`mark_loaded`), read by the plan of a count (:func:`is_loaded`: a
#: small board is counted faster by a loaded kernel than by NumPy or by a kernel still to
#: load).
loaded_counts = set()


def is_loaded(method, flag, constrained):
    """Whether the count kernel of ``method`` (or ``"small"``) for the board of kernel flag
    ``flag``, with constraints or without, ran in this process."""
    return (method, flag, bool(constrained)) in loaded_counts


def mark_loaded(method, flag, constrained):
    """Record that the count kernel of :func:`is_loaded` ran in this process."""
    loaded_counts.add((method, flag, bool(constrained)))


def has(job, board=None, constrained=False):
    """Whether :func:`entry` has a kernel of ``job`` on ``board`` (without loading it)."""
    return (job, 0 if board is None else board.flag, bool(constrained)) in _ENTRIES


def is_ready(job, board=None, constrained=False):
    """Whether the kernel of ``job`` (as :func:`entry`) needs no compile: compiled in this
    process, or in numba's cache for its source as it is now. ``True`` when that cannot be
    told (a cache numba lays out otherwise): the caller then does as if it were."""
    kernel = entry(job, board, constrained)
    if getattr(kernel, "signatures", None):
        return True
    try:
        return bool(kernel._cache._cache_file._load_index())  # (empty: none, or stale)
    except Exception:  # noqa: BLE001 - numba's private layout: assume ready
        return True


def entry(job, board=None, constrained=False):
    """The kernel of ``job`` on ``board`` (an object with a ``flag``, see
    :class:`nqueens_numba.board.Board`; ``None``: plain queens), for rows with allowed squares
    of their own when ``constrained``: a numba dispatcher, as a :class:`_loading.Kernel`
    (the table ``_ENTRIES`` lists the jobs and their arguments), or the Python function
    that calls the kernels. Loads its family, and numba, on first use."""
    key = (job, 0 if board is None else board.flag, bool(constrained))
    name = _ENTRIES.get(key)
    if name is None:
        raise LookupError(f"no kernel for {key} (job, board flag, constrained)")
    value = globals().get(name)
    value = value if value is not None else __getattr__(name)
    if not hasattr(value, "py_func"):
        return value
    called = _CALLED.get(name)
    if called is None or called.dispatcher is not value:
        called = _CALLED[name] = _loading.Kernel(value)
    return called


#: The values of :func:`entry`, by name.
_CALLED = {}


def images():
    """How ``_kernels.symmetric`` writes the seven non-identity images of a placement:
    ``(inverse, reverse, complement)``, three ``(7,)`` int64 arrays (see there)."""
    return tuple(__getattr__(name) for name in ("_IMAGE_INVERSE", "_IMAGE_REVERSE",
                                                 "_IMAGE_COMPLEMENT"))


def __getattr__(name):
    family = _FAMILY.get(name)
    if family is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_loading.load(f"{__name__}.{family}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_FAMILY))
