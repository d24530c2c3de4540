"""Messages of the command line in its own words: the API's keyword names replaced by the
options that set them, and the package's warnings as one line on stderr."""
import re

from .._kernels._loading import say as _say_line

#: Keyword arguments of the API and the options that set them, for error messages.
_OPTIONS = {"n_threads": "--threads", "prefix_depth": "--prefix-depth",
            "checkpoint_every": "--checkpoint-every", "checkpoint=FILE": "--checkpoint FILE",
            "checkpoint=": "--checkpoint ",
            "max_steps": "--max-steps", "method=": "--method ", "limit must": "--limit must",
            "seed must": "--seed must", "larger max_steps": "larger --max-steps",
            "fundamental=True": "--fundamental", "timeout must": "--scheduler-timeout must",
            "method='halving' or None": "--method halving or no --method",
            "method='symmetric' (or None)": "--method symmetric (or no --method)",
            "needs method=None": "needs no --method",
            "samples must": "--samples must", "seed applies": "--seed applies",
            "give samples": "give --samples", "torus=True": "--torus",
            "piece='superqueen'": "--piece superqueen",
            "count with checkpoint=FILE": "count with --checkpoint FILE",
            "call again with the same arguments": "run the same command again",
            "device='cuda' or 'auto'": "--device cuda or auto", "device='cuda'": "--device cuda",
            "device='cpu'": "--device cpu", "devices applies": "--gpus applies",
            "devices must": "--gpus must", "devices:": "--gpus:",
            # (the command ends at once: a compile it began is not kept)
            "a compile goes on in the background of this process: the next count finds it "
            "done, or waits for what is left; warmup() or nqueens warmup":
            "a compile it began is lost: nqueens warmup",
            "a compile in progress goes on in the background of this process; warmup() again":
            "a compile in progress is lost; nqueens warmup again"}


def cli_names(message):
    """``message`` with the API's keyword names replaced by the options that set them."""
    pattern = "|".join(re.escape(name) for name in sorted(_OPTIONS, key=len, reverse=True))
    return re.sub(r"\b(" + pattern + ")", lambda m: _OPTIONS[m.group(1)], message)


def say(message):
    """``nqueens: message`` on stderr, or nothing where stderr is closed, full or gone: a
    message never ends a run, and never lands in the answer (``print`` to a closed stderr
    writes to stdout)."""
    _say_line(f"nqueens: {message}")


def show_warning(message, category, filename, lineno, file=None, line=None):
    """Warnings of the package as one line on stderr (``nqueens: ...``), with the options'
    names (a ``warnings.showwarning``; as Python's own, one that cannot be written is
    dropped)."""
    if file is None:
        return say(cli_names(str(message)))
    try:
        print(f"nqueens: {cli_names(str(message))}", file=file, flush=True)
    except (OSError, ValueError):
        pass
