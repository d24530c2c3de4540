"""What a user sees while kernels compile and counts run: progress bars whose rate counts
work only, and the line that says when numba compiles.

* :func:`progress_bar`: a ``tqdm.auto`` bar (a widget in Jupyter, text on stderr).
* :func:`compiling_notice`, :func:`compile_first`: the kernels are compiled (or loaded) before
  a bar starts, with one line on stderr when numba really compiles.
* :func:`interruption_says`: what a Ctrl-C kept, in the ``KeyboardInterrupt`` it raises
  (:func:`interruption_unsaid`: not the words of a count run for another call).
"""
import math
import os
import sys
from contextlib import contextmanager

from . import _kernels
from ._kernels import _loading

__all__ = ["COUNT_BAR_FORMAT", "significant", "duration", "progress_bar", "cache_directory",
           "compiling_notice", "compiling_quietly", "compile_first", "interruption_says",
           "interruption_unsaid"]


#: The text of a count's bar: its subproblems done are a fraction (the share done of those in
#: progress counts), shown with two decimals, and the percentage with one.
COUNT_BAR_FORMAT = ("{desc}: {percentage:5.1f}%|{bar}| {n:,.2f}/{total:,.0f} "
                    "[{elapsed}<{remaining}, {rate_fmt}{postfix}]")


@contextmanager
def interruption_says(message):
    """A ``KeyboardInterrupt`` raised inside, without words of its own, gets ``message``
    (what the call kept or did not); one that has them (a count's, a load's) keeps them.
    Advice in parentheses at the end of ``message`` (how to take less time) gives way to what
    was happening when the call was stopped while its kernels compiled (it did no work yet)."""
    try:
        yield
    except KeyboardInterrupt as exc:
        if exc.args:
            raise
        if _loading.compiling() and message.endswith(")") and " (" in message:
            message = message[:message.rindex(" (")] + " (stopped while its kernels compiled)"
        raise KeyboardInterrupt(message) from None


@contextmanager
def interruption_unsaid():
    """A ``KeyboardInterrupt`` raised inside loses its words: those of a count run for another
    call (to size its result), whose advice (a checkpoint) that call does not take; the
    call's :func:`interruption_says` then says what it kept."""
    try:
        yield
    except KeyboardInterrupt:
        raise KeyboardInterrupt() from None


def significant(value, digits=2):
    """``value`` rounded to ``digits`` significant digits, with thousands separators:
    ``significant(126999.4) == "130,000"``, ``significant(8.34) == "8.3"``; from 10^15 in
    powers of ten (``"1.7e+44"``: a float's digits past the 16th are not the number's)."""
    if not value or not math.isfinite(value):
        return f"{value:g}"
    if abs(value) >= 1e15:
        return f"{value:.{digits - 1}e}"
    rounded = round(value, digits - 1 - math.floor(math.log10(abs(value))))
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:,.{decimals}f}"


def duration(seconds, clock=True):
    """A time to wait, no more precise than it is known: a clock ``H:MM:SS`` (``MM:SS``)
    below a day (a bar's ETA), else days or years to 2 significant digits (``"15 days"``,
    ``"7.2 years"``, ``"over 1,000 years"``); with ``clock=False`` (an estimate: a count's long-run warning)
    minutes or hours below a day, to 2 significant digits too (``"12 hours"``)."""
    if seconds < 86_400 and not clock:
        unit, size = ("minutes", 60) if seconds < 3600 else ("hours", 3600)
        return f"{significant(seconds / size)} {unit}"
    if seconds < 86_400:
        minutes, secs = divmod(int(max(seconds, 0)), 60)
        hours, minutes = divmod(minutes, 60)
        return f"{hours:d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
    days = seconds / 86_400
    if days < 365.25:
        return f"{significant(days)} days"
    if days > 1000 * 365.25:  # (no more precise than that)
        return "over 1,000 years"
    return f"{significant(days / 365.25)} years"


def _interval(seconds):
    """The time one item of a slow bar takes: ``"4.2s"`` below a minute, else as
    :func:`duration` writes it (``"05:12"``, ``"15 days"``)."""
    return f"{significant(seconds)}s" if seconds < 60 else duration(seconds)


def _tqdm():
    """``tqdm.auto.tqdm``, imported whole: a Ctrl-C waits for the import (of asyncio, among
    others), which, cut short, would leave every later bar and enumeration of the process
    failing (``NameError: name 'coroutines' is not defined``). ``ValueError`` naming the
    ``TQDM_*`` environment variables when tqdm cannot read them."""
    try:
        with _loading.interrupts_deferred():
            from tqdm.auto import tqdm
    except (TypeError, ValueError) as exc:  # (its TQDM_* variables are read as it loads)
        names = sorted(name for name in os.environ if name.startswith("TQDM_"))
        if not names:
            raise
        raise ValueError(f"tqdm, which draws the progress bars, could not load: {exc} (it "
                         f"reads options from the environment variables "
                         f"{', '.join(names)}: check or unset them)") from None
    return tqdm


class _Stderr:
    """``sys.stderr`` for the bars and notices: a write that fails (stderr closed, full or
    missing) turns their output off instead of stopping the work they show."""

    def __init__(self):
        self.stream = sys.stderr
        self.broken = self.stream is None

    def write(self, text):
        if not self.broken:
            try:
                return self.stream.write(text)
            except (OSError, ValueError):  # (ValueError: a closed stream)
                self.broken = True
        return len(text)

    def flush(self):
        if not self.broken:
            try:
                self.stream.flush()
            except (OSError, ValueError):
                self.broken = True

    def __getattr__(self, name):  # (encoding, isatty, fileno: tqdm asks)
        return getattr(self.stream, name)


def progress_bar(total, initial, desc, unit="subproblem", disable=False, bar_format=None):
    """A ``tqdm.auto`` bar of finished subproblems, or of another ``unit`` (a widget in
    Jupyter, text on stderr); ``total=None`` when unknown (no ETA then). With ``disable``,
    a bar that shows nothing. Its ETA is written by :func:`duration` (days or years when
    long). A bar that cannot write (stderr closed or full) goes quiet; the work goes on."""
    tqdm = _tqdm()

    class Bar(tqdm):
        monitor_interval = 0  # no monitor thread: the callers refresh the bar themselves

        @staticmethod
        def format_meter(n, total, elapsed, rate=None, initial=0, **kwargs):
            shape = kwargs.get("bar_format")  # (in Jupyter, the widget's own by default)
            if shape in (None, "", "{l_bar}<bar/>{r_bar}"):  # (5/5, not 5.00/5.00)
                kwargs["bar_format"] = (_BAR_FORMAT if total else _OPEN_BAR_FORMAT).replace(
                    "{bar}", "<bar/>" if shape else "{bar}")
            text = tqdm.format_meter(n, total, elapsed, rate=rate, initial=initial, **kwargs)
            if rate is None and elapsed:
                rate = (n - initial) / elapsed
            if rate and rate < 1 and kwargs.get("unit_scale"):  # (tqdm's 11.9Ps/subproblem)
                unit = kwargs.get("unit", "it")
                text = text.replace(f"{tqdm.format_sizeof(1 / rate)}s/{unit}",
                                    f"{_interval(1 / rate)}/{unit}", 1)
            if rate and total and n < total:
                remaining = (total - n) / rate
                if remaining >= 86_400:  # tqdm's clock would read 72838:28:28
                    clock = tqdm.format_interval(remaining)
                    text = text.replace(f"<{clock}", f"<{duration(remaining)}", 1)
            return text

    return Bar(total=total, initial=initial, unit=unit, desc=desc, mininterval=0.2,
               disable=disable or sys.stderr is None, bar_format=bar_format, file=_Stderr(),
               unit_scale=True)


#: The text of a bar: whole numbers with separators, and a rate with SI prefixes
#: (``14,200/14,200 [..., 975ksolution/s]``, not ``14200/14200 [..., 975123.45solution/s]``);
#: without a total, no bar (``123,456solution [00:01, 98.2ksolution/s]``).
_BAR_FORMAT = "{l_bar}{bar}| {n:,}/{total:,} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
_OPEN_BAR_FORMAT = "{desc}: {n:,}{unit} [{elapsed}, {rate_fmt}{postfix}]"


def cache_directory():
    """Where numba caches the kernels: the folder of the plainest count's kernel, as the
    compile notices name it (:func:`nqueens_numba._kernels._loading.cache_of`; it loads numba)."""
    kernel = _kernels.entry("count_rows")
    path = getattr(getattr(kernel, "_cache", None), "_cache_path",
                   None) or _loading.cache_directory()
    return path + _loading.not_the_cache_asked(path)


@contextmanager
def compiling_notice(enabled, what):
    """While inside (and ``enabled``), the first kernel numba really compiles (not one loaded
    from its cache) prints one line on stderr before the wait: ``compiling kernels for
    {what} (first use; cached in DIR)``. Nested uses print that line once. (Outside, the
    first compile of the process says so without naming the feature: see
    :mod:`nqueens_numba._kernels`.)
    """
    if not enabled or getattr(_loading.notice, "active", False):
        yield
        return
    event = _loading.numba_module("numba.core.event")

    class Notice(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said and _loading.is_ours(ev):
                self.said = True
                _loading.said_compiling()
                _tqdm().write(  # (a bar may be on: print above it)
                    f"nqueens_numba: compiling kernels for {what} (first use; cached in "
                    f"{_loading.cache_of(ev)})", file=_Stderr())

        def on_end(self, ev):
            pass

    _loading.notice.active = True
    try:
        with event.install_listener("numba:compile", Notice()):
            yield
    finally:
        _loading.notice.active = False


@contextmanager
def compiling_quietly():
    """While inside, no line says that numba compiles (a caller's bar says it instead)."""
    active = getattr(_loading.notice, "active", False)
    _loading.notice.active = True
    try:
        yield
    finally:
        _loading.notice.active = active


def compile_first(call, what, notice=True):
    """Run ``call()``, a kernel call on empty input, before a progress bar starts, so that
    its kernels are compiled (or loaded from numba's cache) now and the bar's rate and ETA
    measure work only; within :func:`compiling_notice` (when ``notice``). The compile runs
    apart (:func:`nqueens_numba._kernels._loading.apart`): a Ctrl-C stops the wait for it at
    once."""
    with compiling_notice(notice, what):
        _loading.apart(call)

