"""``python -m nqueens_numba`` and the ``nqueens`` command line."""
import os
import signal
import sys


def run():
    """The ``nqueens`` command: :func:`nqueens_numba.cli.main`. Ctrl-C while the package is
    still loading waits for the loading to end (a fraction of a second: an import cut short
    can leave a module half made) and exits with status 130 without a traceback. Once the
    answer is written, Ctrl-C changes nothing: the status is 0. A compile that an
    interruption left running in its thread is abandoned (the process ends at once)."""
    interrupted = []
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.SIG_IGN:  # (a process started to ignore it goes on ignoring it)
        signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))
    try:
        from .cli import main
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        if interrupted:
            raise KeyboardInterrupt
        status = main()
    except KeyboardInterrupt:  # before ``main`` handles it itself, or after the answer
        from .cli import messages, stop

        if "answered" not in stop.ended_by:
            messages.say("interrupted")
            return 130
        status = 0
    if previous is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the process ends: the answer is out
    kernels = sys.modules.get("nqueens_numba._kernels")
    if kernels is not None and kernels.compiling():
        # An interrupted run leaves its compile running in a thread of its own: end now,
        # rather than wait for it or take numba and LLVM down under it.
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):  # (closed, full, gone)
                pass
        os._exit(status)
    return status


if __name__ == "__main__":
    status = run()
    # Once an interruption has left code run by ``exec`` of a string (namedtuples and
    # dataclasses made while numba loads, on first use), Python ends ``python -m`` by SIGINT,
    # whatever the status, even when the interruption was handled: running such code again
    # clears that record, so that the status is the one ``run`` returned.
    exec("pass")
    sys.exit(status)
