"""``python -m nqueens_numba`` and the ``nqueens`` command line."""
import atexit
import gc
import os
import signal
import sys
import threading


#: The signals that stop the command (while the package loads, they wait for it).
_STOPPING = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                  if hasattr(signal, name))


def run():
    """The ``nqueens`` command: :func:`nqueens_numba.cli.main`. Ctrl-C (or SIGTERM, SIGHUP)
    while the package is still loading waits for the loading to end (a fraction of a
    second: an import cut short can leave a module half made) and exits with status 130
    (143, 129) without a traceback. Once the
    answer is written, Ctrl-C changes nothing: the status is 0. A compile that an
    interruption left running in its thread is abandoned (the process ends at once, unless
    the process is another program's that runs the command: see :func:`command`).

    The package's modules load with Python's collector of reference cycles paused, and what
    they made is exempt from it afterwards (``gc.freeze``): no full collection walks
    NumPy's, numba's and the package's objects while a command starts (one took 0.03-0.05 s
    of a warm ``nqueens count 14``). It runs as usual during the command."""
    interrupted = []
    previous = signal.getsignal(signal.SIGINT)
    deferred = {}
    for signum in _STOPPING:
        handler = signal.getsignal(signum)
        if handler is not signal.SIG_IGN:  # (a process started to ignore one goes on so)
            deferred[signum] = handler
            signal.signal(signum, lambda signum, frame: interrupted.append(signum))
    gc.disable()
    try:
        from .cli import main, stop
    finally:
        for signum, handler in deferred.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        gc.freeze()
        gc.enable()
    if interrupted:
        stop.ended_by["signal"] = interrupted[0]
        return stop.interrupted(KeyboardInterrupt())
    # SIGTERM and SIGHUP stop the command from here, as Ctrl-C does (``main`` installs their
    # handlers again once it has parsed the command line; their default ends the process
    # without a word).
    restore = stop.handle_signals(("SIGTERM", "SIGHUP"))
    try:
        status = main()
    except KeyboardInterrupt:  # before ``main`` handles it itself, or after the answer
        if "answered" not in stop.ended_by:
            return stop.interrupted(KeyboardInterrupt())
        status = 0
    finally:
        restore()
    if previous is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the process ends: the answer is out
    loading = sys.modules.get("nqueens_numba._kernels._loading")
    if loading is not None and loading.compiling() and _is_the_program():
        # An interrupted run leaves its compile running in a thread of its own: end now,
        # rather than wait for it or take numba and LLVM down under it.
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):  # (closed, full, gone)
                pass
        os._exit(status)
    return status


def command():
    """The ``nqueens`` command (its script, and ``python -m nqueens_numba``): :func:`run`,
    then the process ends at once, its output flushed and its ``atexit`` functions run,
    without the interpreter's teardown of numba and LLVM (0.05 s of every command, a sixth
    of ``import numba``: ``benchmarks/bench_startup.py``). Returns :func:`run`'s status, for
    the usual ending, only when a thread that is not a daemon still runs or the output
    cannot be flushed (a closed pipe: Python then says so), or when the command runs inside
    another program, which goes on after it (``runpy.run_module``, IPython's ``%run -m``, a
    profiler, a debugger: :func:`_is_the_program`). Usage errors and ``--help`` (argparse's
    ``SystemExit``, before any kernel loads) end the usual way too."""
    status = run()
    if not _is_the_program() or any(
            thread.is_alive() and not thread.daemon for thread in threading.enumerate()
            if thread is not threading.main_thread()):
        return status
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # (a closed pipe, a closed stream)
        return status
    atexit._run_exitfuncs()  # (logging, weakref finalizers, llvmlite's and numba's own)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    os._exit(status)


def _is_the_program():
    """Whether the process is the command's own: the code at the top of the stack (the
    nearest module-level frame) is the console script's or a script's, with nothing above
    it, or this module's run by ``python -m``, with only the frames of runpy's start of a
    ``-m`` module above it. Not when ``runpy.run_module``, ``exec``, IPython, ``cProfile``,
    ``pdb`` or ``python -i`` ran it: their process goes on after the command. (A script of
    the user's whose top level calls :func:`command` is taken for the program, and ends
    there: :func:`run` returns the status instead.)"""
    if sys.flags.inspect:  # (python -i: the prompt comes after the command)
        return False
    try:
        frame = sys._getframe(1)
    except (AttributeError, ValueError):  # (a Python without frames)
        return False
    while frame is not None and frame.f_code.co_name != "<module>":
        frame = frame.f_back
    if frame is None:
        return False
    runpy = sys.modules.get("runpy")
    starts = ({runpy._run_module_as_main.__code__, runpy._run_code.__code__}
              if hasattr(runpy, "_run_module_as_main") else set())
    frame = frame.f_back
    while frame is not None:
        if frame.f_code not in starts:
            return False
        frame = frame.f_back
    return True


if __name__ == "__main__":
    status = command()
    # Once an interruption has left code run by ``exec`` of a string (namedtuples and
    # dataclasses made while numba loads, on first use), Python ends ``python -m`` by SIGINT,
    # whatever the status, even when the interruption was handled: running such code again
    # clears that record, so that the status is the one ``run`` returned.
    exec("pass")
    sys.exit(status)
