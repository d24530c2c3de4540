"""Signals of the command line: SIGINT, SIGTERM and SIGHUP stop a run as Ctrl-C does.

:func:`handle_signals` installs the handlers for one run of the command,
:func:`stop_if_signalled` ends a run whose interruption was swallowed, and
:func:`interrupted` closes an interrupted run with its message and exit status.
"""
import os
import signal
import sys
import threading
import time

from .._files import remove_pending_temporaries, stop_writing
from .._kernels._loading import say

#: The signal that ended the run, for the exit status (128 + its number; 130 for Ctrl-C).
ended_by = {}

#: A signal again within this many seconds of the first is the same one sent twice (GNU
#: ``timeout`` signals the command, then its process group): no one presses Ctrl-C twice so
#: fast.
ECHO_SECONDS = 0.05

#: What a second signal, which ends the process at once, leaves behind (set by the command
#: running: :func:`keeping`).
_kept = {"what": "no partial output file was kept"}


def keeping(what):
    """Say ``what`` is kept (for example a checkpoint file and its last save) should a second
    signal end the process at once."""
    _kept["what"] = what


def handle_signals(names=("SIGINT", "SIGTERM", "SIGHUP")):
    """Make SIGINT, SIGTERM and SIGHUP (those of ``names``) end the run like Ctrl-C does,
    until restored.

    The files being written are then cleaned up; a second signal ends the process at once.
    A signal the process was started to ignore (``nohup``, ``&`` in a script) stays ignored.
    Handlers are installed only in the main thread.

    Returns
    -------
    callable
        Restores the previous handlers and ``sys.unraisablehook`` (for callers of
        :func:`nqueens_numba.cli.main`).
    """
    handlers = {}
    ended_by.clear()
    keeping("no partial output file was kept")
    stop_writing(False)
    if threading.current_thread() is threading.main_thread():
        for name in names:
            if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) \
                    is not signal.SIG_IGN:
                handlers[name] = signal.signal(getattr(signal, name), _terminate)
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_stop(unraisable)

    def restore():
        for name, handler in handlers.items():
            signal.signal(getattr(signal, name), handler)
        sys.unraisablehook = unraisable
        stop_writing(False)
    return restore


def _quiet_stop(hook):
    """``sys.unraisablehook`` that says nothing of the interruption a signal's handler raised
    where Python cannot pass it on (a finaliser, a weak reference's callback): the run stops
    all the same (``stop_writing``, :func:`stop_if_signalled`). Anything else goes to
    ``hook``."""
    def quiet(unraisable):
        if not (issubclass(unraisable.exc_type, KeyboardInterrupt) and "signal" in ended_by):
            hook(unraisable)
    return quiet


def stop_if_signalled():
    """Raise ``KeyboardInterrupt`` if a signal came that did not stop the work (numba or
    llvmlite can swallow the exception the handler raises, inside a finaliser): the
    interrupted run then ends as interrupted rather than with its result."""
    if "signal" in ended_by:
        raise KeyboardInterrupt


def answered():
    """Record that the run's answer is written: a signal that comes now ends nothing (the
    run exits 0)."""
    ended_by["answered"] = True


def _terminate(signum, frame):
    """Stop on a signal as on Ctrl-C: a ``KeyboardInterrupt``, whose handling removes the
    files being written and saves a checkpoint. A second signal while stopping (a count
    waits for its running subproblems) ends the process at once, with the temporary files
    being written removed and the last saved checkpoint kept. A signal after the answer is
    written (:func:`answered`) is ignored, and so is the first one sent again at once
    (``ECHO_SECONDS``)."""
    if "answered" in ended_by:
        return
    if "signal" in ended_by:
        if (signum == ended_by["signal"]
                and time.monotonic() - ended_by["since"] < ECHO_SECONDS):
            return
        remove_pending_temporaries()
        _say(f"nqueens: stopped at once by a second signal; {_kept['what']}")
        os._exit(128 + signum)
    ended_by["signal"] = signum
    ended_by["since"] = time.monotonic()
    stop_writing()  # no output file put in place, should the interruption be swallowed
    raise KeyboardInterrupt  # :func:`interrupted` names the signal


def interrupted(exc):
    """Say on stderr that the run was interrupted, and by which signal.

    Parameters
    ----------
    exc : KeyboardInterrupt
        The interruption; its text, if any, is the message.

    Returns
    -------
    int
        The exit status: 128 + the signal's number (130 for Ctrl-C). The signal stays
        recorded, so that a later one ends the process at once.
    """
    signum = ended_by.get("signal", signal.SIGINT)
    said = "interrupted" if signum == signal.SIGINT else \
        f"terminated by {signal.Signals(signum).name}"
    say(f"nqueens: {str(exc) or said}")  # (not into the answer when stderr is closed)
    return 128 + signum


def _say(line):
    """Write ``line`` to stderr from a signal handler (unbuffered: the process ends next)."""
    try:
        os.write(sys.stderr.fileno(), (line + "\n").encode(errors="replace"))
    except (OSError, ValueError, AttributeError):
        pass
