"""Which device counts: this machine's CPU threads, or GPUs through numba-cuda.

:func:`check_device` and :func:`check_devices` validate the arguments; :func:`decide`
resolves ``"auto"`` for a count's plan (a usable GPU for a large enough board whose count
has GPU kernels, else the CPU) and refuses a board the GPU kernels do not count;
:func:`require` gives the GPUs to use, or one ``RuntimeError`` that says what is missing (the
NVIDIA driver, a visible GPU, or numba's CUDA support) and what to install.
``numba.cuda`` is imported here only when a GPU is asked for (through ``_kernels.cuda``,
which applies the NumPy shim first, see :mod:`nqueens_numba._kernels.gpu`).
"""
import functools
import importlib.util
from collections.abc import Mapping, Set

from . import _kernels, _validate, config

__all__ = ["DEVICES", "INSTALL", "check_device", "check_devices", "decide", "problem",
           "usable", "require", "gpu_job"]

#: The values of ``device``: this machine's CPU threads, GPUs, or a usable GPU for a large
#: enough board (else the CPU).
DEVICES = ("cpu", "cuda", "auto")

#: How to install the GPU support.
INSTALL = 'pip install "nqueens_numba[cuda]"'


def check_device(device):
    """Validate ``device``: one of :data:`DEVICES` (``TypeError`` for a value that is not a
    string, ``ValueError`` naming the choices)."""
    return _validate.choice(device, "device", DEVICES)


def check_devices(devices):
    """Validate ``devices``: ``None`` (every visible GPU) or a non-empty sequence of distinct
    GPU numbers, 0 or more; returns a tuple of ints (or ``None``)."""
    if devices is None:
        return None
    wrong = TypeError(f"devices must be a list of GPU numbers (ints), got "
                      f"{type(devices).__name__}")
    if isinstance(devices, (str, bytes, Mapping, Set)):  # (unordered, or not numbers)
        raise wrong
    try:
        items = list(devices)
    except TypeError:  # (not iterable; a 0-d NumPy array)
        raise wrong from None
    ids = tuple(_validate.in_range(d, "devices", 0, what="a GPU number, 0 or more")
                for d in items)
    if not ids:
        raise ValueError("devices must name at least one GPU (None: every visible GPU)")
    if len(set(ids)) != len(ids):
        raise ValueError(f"devices must name each GPU once, got {list(ids)}")
    return ids


def gpu_job(method):
    """The kernel table's job of a GPU count by ``method``."""
    return "gpu_symmetric" if method == "symmetric" else "gpu_count"


def decide(device, n, board, method, constrained, gpu_usable=None):
    """The device of a count: ``"cpu"`` or ``"cuda"``, from the validated ``device``.

    ``"auto"`` takes a GPU when one is usable (``gpu_usable``; ``None``: :func:`usable`
    here), the board has GPU kernels for ``method`` and ``n >= config.GPU_MIN_N`` (smaller
    boards take milliseconds on the CPU, less than a GPU's start). ``"cuda"`` raises
    ``ValueError`` for a count without GPU kernels (none that the API plans: a safeguard of
    the kernel table).
    """
    supported = _kernels.has(gpu_job(method), board, constrained)
    if device == "auto":
        if not (supported and n >= config.GPU_MIN_N):
            return "cpu"
        return "cuda" if (usable() if gpu_usable is None else gpu_usable) else "cpu"
    if device == "cuda" and not supported:
        name = board.name or "these"
        raise ValueError(f"device='cuda' does not count {name} boards; use device='cpu'")
    return device


@functools.lru_cache(maxsize=1)
def problem():
    """Why no GPU is usable, in words (``None`` when one is: a CUDA device, or numba's CUDA
    simulator when ``NUMBA_ENABLE_CUDASIM=1``). Asked once per process."""
    have_numba_cuda = importlib.util.find_spec("numba_cuda") is not None
    try:
        cuda = _kernels.cuda
    except ImportError as exc:
        return (f"numba's CUDA support cannot be imported ({exc}); install numba-cuda: "
                f"{INSTALL}")
    from numba import config as numba_config

    if numba_config.ENABLE_CUDASIM:
        return None
    advice = "" if have_numba_cuda else f"; numba-cuda is not installed either: {INSTALL}"
    try:
        found = len(cuda.list_devices())
    except Exception as exc:  # noqa: BLE001 - numba's CudaSupportError, its driver errors
        text = " ".join(str(exc).split())
        if "driver library cannot be found" in text or "libcuda" in text:
            return (f"no CUDA driver was found (libcuda): install the NVIDIA driver on a "
                    f"machine with an NVIDIA GPU{advice}")
        return f"the CUDA driver reports no usable GPU ({text}){advice}"
    if not found:
        return f"no CUDA GPU is visible (check CUDA_VISIBLE_DEVICES){advice}"
    if not have_numba_cuda:
        return f"numba-cuda is not installed: {INSTALL}"
    return None


def usable():
    """Whether a GPU count can run here (:func:`problem` is ``None``)."""
    return problem() is None


def require(devices=None):
    """The GPU numbers a count runs on: ``devices`` (validated by :func:`check_devices`), or
    every visible GPU.

    Raises
    ------
    RuntimeError
        When no GPU is usable, saying why and what to install (:func:`problem`).
    ValueError
        For a GPU number that is not visible.
    """
    why = problem()
    if why is not None:
        raise RuntimeError(f"device='cuda' cannot count here: {why}")
    visible = len(_kernels.cuda.gpus)
    if devices is None:
        return tuple(range(visible))
    for d in devices:
        if d >= visible:
            raise ValueError(f"devices: GPU {d} is not visible ({visible} visible: "
                             f"0..{visible - 1})")
    return tuple(devices)
