"""Every argument check of the package: integers, flags, board orders, threads, placements.

Each entry point validates its arguments through these helpers, so that one kind of argument
gets one error everywhere: ``TypeError`` for a value of the wrong type (``bool`` and
``float`` are not integers), ``ValueError`` naming the allowed range. Imports nothing else
from the package but ``config``.
"""
import collections.abc
import math
import operator
import os
from contextlib import suppress

import numpy as np

from . import config

__all__ = ["integer", "flag", "flags", "choice", "in_range", "seconds", "path", "checkpointing",
           "positive_number", "board_order", "threads", "limit", "max_bytes", "result_size",
           "integer_array", "holds_bool", "placement_dtype", "max_threads"]


def integer(value, name):
    """Return ``value`` as a Python int; ``TypeError`` unless it is an integer.

    Accepts ``int`` (and subclasses) and NumPy integer scalars; rejects ``bool``,
    ``numpy.bool_``, ``numpy.timedelta64`` and everything else.
    """
    if (isinstance(value, (bool, np.bool_, np.timedelta64))
            or not isinstance(value, (int, np.integer))):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    return operator.index(value)


def flags(**values):
    """Validate boolean flags given by name (``bool`` or ``numpy.bool_``); return them as
    ``bool``, in order."""
    checked = []
    for name, value in values.items():
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
        checked.append(bool(value))
    return checked


def flag(value, name):
    """Validate a boolean flag (``bool`` or ``numpy.bool_``); return it as a ``bool``."""
    return flags(**{name: value})[0]


def choice(value, name, allowed, none=False):
    """Validate a string option: one of ``allowed`` (or ``None`` where ``none``). ``TypeError``
    for a value that is not a string, ``ValueError`` naming the choices for another one."""
    if none and value is None:
        return None
    choices = ", ".join(map(repr, allowed)) + (" or None" if none else "")
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, one of {choices}; got "
                        f"{type(value).__name__}")
    if value not in allowed:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return str(value)


def in_range(value, name, low, high=None, what=None):
    """An integer in ``low..high`` (``high=None``: no upper bound).

    ``what`` replaces the range in the message (for example "a positive integer").
    """
    value = integer(value, name)
    if value < low or (high is not None and value > high):
        if what is None:
            what = f"in the range {low}..{high}" if high is not None else f"{low} or more"
        raise ValueError(f"{name} must be {what}, got {value}")
    return value


def seconds(value, name):
    """A number of seconds, 0 or more (``inf`` included), as a ``float``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}")
    if not value >= 0:
        raise ValueError(f"{name} must be 0 or more seconds, got {value}")
    try:
        return float(value)
    except OverflowError:  # (an int past float's range: longer than any run)
        return math.inf


def path(value, name):
    """A file's path: ``str``, ``bytes`` or ``os.PathLike``, returned as a ``str``;
    ``TypeError`` for anything else."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be a file's path (str, bytes or os.PathLike), got "
                        f"{type(value).__name__}")
    return os.fsdecode(os.fspath(value))


def checkpointing(checkpoint, checkpoint_every):
    """A count's ``checkpoint`` (a path, or ``None``) and ``checkpoint_every`` (seconds, or
    ``None``), validated: ``(checkpoint, checkpoint_every)``."""
    if checkpoint is not None:
        checkpoint = path(checkpoint, "checkpoint")
    if checkpoint_every is not None:
        checkpoint_every = seconds(checkpoint_every, "checkpoint_every")
        if checkpoint is None:
            raise ValueError("checkpoint_every applies only with checkpoint=FILE")
    return checkpoint, checkpoint_every


def positive_number(value, name, unit):
    """A finite number above 0 (of ``unit``, for the messages), as a ``float``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of {unit}, got {type(value).__name__}")
    if not 0 < value < float("inf"):
        raise ValueError(f"{name} must be a finite number of {unit} above 0, got {value}")
    return float(value)


def board_order(n):
    """Validate a board order for the bitboard search: an integer in ``0..MAX_N``."""
    if type(n) is int and 0 <= n <= config.MAX_N:  # the common case, at no cost
        return n
    n = integer(n, "n")
    if not 0 <= n <= config.MAX_N:
        raise ValueError(
            f"n must be in the range 0..{config.MAX_N} (the int64 bitboard limit), got {n}"
        )
    return n


def max_threads():
    """The most threads a call may use: ``NUMBA_NUM_THREADS``, read as numba reads it but
    without importing numba (which a small board does not need): the environment variable,
    else the CPUs this process may run on. ``ValueError`` for a variable that is not an
    integer in ``1..MAX_THREADS`` (numba refuses one below 1 when imported, and ignores one
    that is blank or no integer with a warning of its own, which a small board never
    showed; one of 10^20 threads started none, and grew a list of them in memory)."""
    value = os.environ.get("NUMBA_NUM_THREADS")
    if value is None:
        return _CPUS
    try:
        threads = int(value)
    except ValueError:
        threads = 0
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"the environment variable NUMBA_NUM_THREADS must be an integer in "
                         f"1..{MAX_THREADS:,}, got {value!r}")
    return threads


#: The most threads a call may use (NUMBA_NUM_THREADS above it is refused): far more than
#: any machine's cores (65,536 took 26 s to fail here: the system allowed fewer threads).
MAX_THREADS = 4096


#: The CPUs this process may run on, read once (as numba reads them when imported).
_CPUS = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)


def threads(n_threads):
    """Validate ``n_threads``: ``None`` (all of numba's threads) or ``1..NUMBA_NUM_THREADS``."""
    if n_threads is None and "NUMBA_NUM_THREADS" not in os.environ:
        return _CPUS  # (the common case, at no cost)
    most = max_threads()
    if n_threads is None:
        return most
    n_threads = integer(n_threads, "n_threads")
    if not 1 <= n_threads <= most:
        raise ValueError(
            f"n_threads must be in the range 1..{most} (numba.config.NUMBA_NUM_THREADS, "
            f"which the environment variable NUMBA_NUM_THREADS sets before numba starts), "
            f"got {n_threads}"
        )
    return n_threads


def limit(value):
    """Validate ``limit``: ``None`` or a non-negative integer."""
    if value is None:
        return None
    return in_range(value, "limit", 0, what="a non-negative integer (0 or more)")


def max_bytes(value):
    """Validate ``max_bytes``: ``None`` (a share of available memory) or an integer >= 0."""
    if value is None:
        available = _available_memory()
        return None if available is None else int(config.MEMORY_FRACTION * available)
    return in_range(value, "max_bytes", 0, what="a non-negative integer")


def _available_memory():
    """Bytes of memory available to this process now, or ``None`` if unknown: the
    machine's, or what its memory cgroup still allows where that is less (a container's
    limit, which ``MemAvailable`` does not see: past it the kernel kills the process)."""
    machine = None
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    machine = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    if machine is None:
        try:
            machine = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            pass
    limits = [left for left in (machine, cgroup_memory()) if left is not None]
    return min(limits) if limits else None


#: The files of a memory cgroup: (limit, usage, statistic of reclaimable page cache), for
#: cgroup v2 and v1.
_CGROUP_FILES = {2: ("memory.max", "memory.current", "inactive_file"),
                 1: ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")}


def cgroup_memory(root="/sys/fs/cgroup", table="/proc/self/cgroup"):
    """Bytes the memory cgroups of this process still allow, or ``None`` where none sets a
    limit (or they cannot be read): the least over its cgroup and those above it of limit
    minus usage, the usage less its reclaimable page cache (as the kernel counts it before
    an out-of-memory kill). ``root`` and ``table``: where cgroups are mounted, and the
    process's list of them (``/proc/self/cgroup``)."""
    try:
        with open(table) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    least = None
    for line in lines:
        hierarchy, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if hierarchy == "0" and controllers == "":
            version, base = 2, root
        elif "memory" in controllers.split(","):
            version, base = 1, os.path.join(root, "memory")
        else:
            continue
        parts = [part for part in path.split("/") if part]
        for k in range(len(parts), -1, -1):  # the process's cgroup, then those above it
            left = _cgroup_left(os.path.join(base, *parts[:k]), *_CGROUP_FILES[version])
            if left is not None:
                least = left if least is None else min(least, left)
    return least


def _cgroup_left(folder, limit_file, usage_file, cache_key):
    """Bytes the memory cgroup in ``folder`` still allows, or ``None`` (no limit, no
    such cgroup)."""
    try:
        with open(os.path.join(folder, limit_file)) as f:
            limit = f.read().strip()
        if limit == "max" or int(limit) >= 2**62:  # (v1 writes "no limit" as about 2**63)
            return None
        with open(os.path.join(folder, usage_file)) as f:
            used = int(f.read())
        cache = 0
        with suppress(OSError):
            with open(os.path.join(folder, "memory.stat")) as f:
                for line in f:
                    key, _, value = line.partition(" ")
                    if key == cache_key:
                        cache = int(value)
        return max(int(limit) - max(used - cache, 0), 0)
    except (OSError, ValueError):
        return None


#: Allocations below this many bytes are not checked by :func:`working_memory` (reading what
#: is available takes about 0.2 ms, 25 times a call of ``construct(8)``).
UNCHECKED_BYTES = 1 << 20


def working_memory(need, what):
    """``MemoryError`` before ``what`` allocates about ``need`` bytes, more than the memory
    available to this process (:func:`_available_memory`; nothing is checked where that is
    unknown, or below :data:`UNCHECKED_BYTES`): past it the machine would swap, or the
    kernel kill the process."""
    if need < UNCHECKED_BYTES:
        return
    available = _available_memory()
    if available is not None and need > available:
        raise MemoryError(f"{what} needs about {_bytes(need)} of memory, and this process "
                          f"has about {_bytes(available)} available")


def _bytes(size):
    """``size`` in GB or MB, three significant digits or whole units."""
    size, unit = (size / 1e9, "GB") if size >= 1e9 else (size / 1e6, "MB")
    return f"{size:,.0f} {unit}" if size >= 100 else f"{size:.3g} {unit}"


class ResultTooLarge(MemoryError):
    """A result that does not fit in memory: ``what`` says how large it is, in words (``"1,872
    bytes (156 solutions of 12 bytes)"``), for a caller that words the error its own way."""

    def __init__(self, message, what=None):
        super().__init__(message)
        self.what = what

    def __reduce__(self):  # (pickled whole: a process pool sends it back)
        return type(self), (str(self), self.what)


def result_size(n, rows, max_bytes, board=""):
    """``ResultTooLarge`` (a ``MemoryError``) before allocating ``rows`` solutions of ``n``
    bytes beyond the limit (``board``: the keywords of a variant's board for the hint, such
    as ``", torus=True"``)."""
    size = rows * n
    if max_bytes is not None and size > max_bytes:
        what = (f"{size:,} byte{'s' * (size != 1)} ({rows:,} solution{'s' * (rows != 1)} of "
                f"{n} byte{'s' * (n != 1)})")
        raise ResultTooLarge(
            f"the result would take {what}, more than max_bytes={max_bytes:,} (the default "
            f"is {config.MEMORY_FRACTION:.0%} of the available memory); stream them with "
            f"iter_solutions({n}{board}) or save_solutions(path, {n}{board}), count them "
            f"with count_solutions({n}{board}), or take the first k with limit=k", what)


def _integer_values(values):
    """Whether ``values`` is a (nested) list, tuple or array of integers that NumPy did not
    store as such (sets, mappings and iterators are not placements)."""
    if isinstance(values, (list, tuple, np.ndarray)):
        return len(values) > 0 and all(_integer_values(v) for v in values)
    return isinstance(values, (int, np.integer)) and not isinstance(values, (bool, np.bool_))


def holds_bool(values):
    """Whether a (nested) list or tuple holds a ``bool``, which NumPy turns into an integer
    beside other integers."""
    if isinstance(values, (list, tuple)):
        return any(holds_bool(v) for v in values)
    return isinstance(values, (bool, np.bool_))


def placement_dtype(n):
    """The dtype of the placements the package returns for boards of order ``n``: the
    smallest signed integer type that holds ``n - 1`` (int8 up to n = 128, then int16,
    int32, int64)."""
    for dtype in (np.int8, np.int16, np.int32):
        if n - 1 <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def integer_array(values, empty_dtype=np.int64, name="queens"):
    """Placements (or any integers; ``name``: what they are, for the errors) as a NumPy
    integer array, converted exactly.

    Integers that NumPy stores as ``float64`` or ``object`` (a list mixing ``numpy.uint64``
    and ``numpy.int64``, Python ints) become ``int64`` without rounding; an empty list (which
    NumPy stores as ``float64``) becomes an empty array of ``empty_dtype``. Integer arrays
    keep their dtype.

    Returns
    -------
    numpy.ndarray or None
        ``None`` when an integer does not fit in ``int64`` (off any board NumPy can hold).

    Raises
    ------
    TypeError
        If ``values`` does not hold integers (``bool`` and ``float`` arrays included).
    """
    ragged = ValueError(f"{name} must be a list or array of integers with rows of equal "
                        f"length, got rows of different lengths")
    try:
        arr = np.asarray(values)
    except ValueError:  # (NumPy's words for a ragged list: "inhomogeneous shape")
        raise ragged from None
    if arr.size == 0 and arr.dtype.kind == "f" and not isinstance(values, np.ndarray):
        return arr.astype(empty_dtype)  # (an empty list: NumPy gives it float64)
    if arr.dtype.kind in "iu" and not isinstance(values, np.ndarray) and holds_bool(values):
        raise TypeError(f"{name} must hold integers, got a bool among them")
    if arr.dtype.kind in "fO" and _integer_values(values):
        try:
            return np.array(values, dtype=object).astype(np.int64)
        except OverflowError:
            return None
        except (TypeError, ValueError):  # (an object array of lists of other lengths)
            raise ragged from None
    if isinstance(values, (collections.abc.Mapping, collections.abc.Set)):  # (0-d objects)
        raise TypeError(f"{name} must be a list or array of integers (one column per row), "
                        f"got a {type(values).__name__}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    return arr
