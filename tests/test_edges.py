"""The edges of the API and the command line: start-up, Ctrl-C while loading, numba's
debugging mode, memory bounds of constrained results."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import _split


def test_import_loads_nothing_heavy():
    """``import nqueens_numba`` loads no module of its own but the version, and no NumPy:
    names load on first use."""
    code = ("import sys, nqueens_numba as nq; "
            "print(sorted(m for m in sys.modules if m.startswith(('nqueens_numba.', 'numpy', "
            "'numba')) and m != 'nqueens_numba._version')); "
            "print(nq.count_solutions.__module__, nq.checkpoint.__name__, 'solve' in dir(nq))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["[]", "nqueens_numba.counting nqueens_numba.checkpoint "
                                             "True"]
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        nq.nope  # noqa: B018


def _python_start_up():
    """Seconds Python takes to start here, before it runs anything of the package (the best
    of three): a signal before then is Python's, not the package's."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return min(times)


def _before_the_package_ran(returncode, err):
    """Whether a Ctrl-C ended Python before any code of the package ran: Python's own
    ``KeyboardInterrupt`` traceback, with no frame in a file of the package (the signal came
    while Python was still finding or opening it, which no code of the package can handle)."""
    package = os.path.dirname(nq.__file__)
    return (returncode != 130 and err.rstrip().endswith("KeyboardInterrupt")
            and package not in err)


@pytest.mark.parametrize("delay", [0.02, 0.05, 0.1, 0.15, 0.25])
def test_ctrl_c_while_the_command_starts_exits_130_without_a_traceback(delay):
    """Ctrl-C from the moment the package starts loading (after Python's own start-up,
    measured: it varies with the machine's load). A signal that still came before any code of
    the package ran is Python's to handle: the run is tried again, up to five times."""
    for _ in range(5):
        start_up = _python_start_up()
        run = subprocess.Popen([sys.executable, "-m", "nqueens_numba", "count", "15"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(start_up + delay)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
        if not _before_the_package_ran(run.returncode, err):
            break
    assert run.returncode == 130, (out, err)
    assert "Traceback" not in err and err.startswith("nqueens: "), err


def test_an_interruption_handled_inside_exec_keeps_the_exit_status(tmp_path):
    """An interruption that left code run by ``exec`` of a string (while numba loads, it
    makes namedtuples and dataclasses so) and was then handled: ``python -m nqueens_numba``
    still exits with the status the command returned, not by SIGINT as Python would."""
    (tmp_path / "sitecustomize.py").write_text(
        "from nqueens_numba import cli\n"
        "def _main(args, commands, out):\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')\n"
        "    except KeyboardInterrupt:\n"
        "        return 143\n"
        "cli._main = _main\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "5"],
                         env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True, timeout=120)
    assert run.returncode == 143, run.stderr


def test_python_without_docstrings_runs_the_package():
    """``python -OO`` strips the docstrings that the shared sections are filled into."""
    code = "import nqueens_numba as nq; print(nq.count_solutions(8), len(nq.solve(6)))"
    run = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert (run.returncode, run.stdout, run.stderr) == (0, "92 4\n", "")
    run = subprocess.run([sys.executable, "-OO", "-m", "nqueens_numba", "count", "10"],
                         capture_output=True, text=True, timeout=300)
    assert (run.returncode, run.stdout, run.stderr) == (0, "724\n", "")


def test_numba_debugging_mode_runs_the_kernels_as_python():
    """``NUMBA_DISABLE_JIT=1`` (numba's debugging mode): the kernels run as Python."""
    code = ("import nqueens_numba as nq\n"
            "print(nq.count_solutions(8, method='halving'), "
            "nq.count_solutions(9, method='symmetric'), "
            "nq.count_solutions(8, fundamental=True, method='symmetric'), "
            "len(nq.solve(8, progress=True)), len(nq.trace(5)), "
            "bool(nq.is_solution(nq.find_solution(40, seed=3))), "
            "nq.count_solutions(7, preplaced={0: 1}, method='halving'))\n"
            "from nqueens_numba import _split\n"  # the first count's symmetric kernel too
            "split = _split.count_split(11, 'symmetric', 1)\n"
            "print(split.job.first_use()(split.states).sum(axis=0))")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    split = _split.count_split(11, "symmetric", 1)
    assert run.stdout.split("\n")[:2] == [
        f"92 352 12 92 {len(nq.trace(5))} True {nq.count_solutions(7, preplaced={0: 1})}",
        str(split.job(split.states).sum(axis=0))]


def test_memory_guard_bounds_constrained_results_by_their_rows():
    queens = nq.construct(40)
    preplaced = {r: int(queens[r]) for r in range(39)}  # one free row: one completion
    found = nq.solve(40, preplaced=preplaced, limit=10**9)
    assert found.shape == (1, 40) and np.array_equal(found[0], queens)
    with pytest.raises(MemoryError, match="1,000,000,000 solutions"):
        nq.solve(40, limit=10**9)
    two_free = {r: int(queens[r]) for r in range(38)}
    assert len(nq.solve(40, preplaced=two_free, limit=10**9, max_bytes=4 * 40)) == 1


@pytest.mark.parametrize("n, kwargs, hint", [
    (14, dict(preplaced={0: 0}), "iter_solutions(14, preplaced={0: 0})"),
    (10, dict(preplaced={0: 0}), "count_solutions(10, preplaced={0: 0})"),
    (14, dict(blocked=np.eye(14, dtype=bool)), "save_solutions(path, 14, blocked=<14 squares>)"),
    (13, dict(preplaced={0: 1}, blocked=np.eye(13, dtype=bool), limit=10**6),
     "iter_solutions(13, preplaced={0: 1}, blocked=<13 squares>)"),
    (7, dict(torus=True), "iter_solutions(7, torus=True)"),
])
def test_the_memory_guard_hint_keeps_the_constraints(n, kwargs, hint):
    with pytest.raises(MemoryError) as raised:
        nq.solve(n, max_bytes=10, **kwargs)
    assert hint in str(raised.value)


def test_cli_names_options_but_leaves_prose_alone(capsys):
    from nqueens_numba.cli import main

    with pytest.raises(SystemExit):
        main(["count", "64"])
    err = capsys.readouterr().err
    assert "the int64 bitboard limit" in err and "--limit" not in err
    with pytest.raises(SystemExit):
        main(["solve", "8", "--limit", "-1"])
    assert "--limit must be" in capsys.readouterr().err


def test_a_signal_swallowed_during_the_work_still_ends_the_run_as_interrupted(capsys,
                                                                               monkeypatch):
    """A handler's ``KeyboardInterrupt`` lost inside a finaliser: the command still exits as
    interrupted, without printing its result."""
    from nqueens_numba import cli

    def count_after_a_lost_signal(*args, **kwargs):
        cli.stop.ended_by["signal"] = signal.SIGINT  # what the handler records before raising
        return 92

    monkeypatch.setattr(cli.count.counting, "count_solutions", count_after_a_lost_signal)
    assert cli.main(["count", "8"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and "interrupted" in err


def run_the_command(before, after):
    """``nqueens count 6`` (:func:`nqueens_numba.__main__.run`) in a new Python process:
    the code ``before`` runs first, ``after`` once ``status`` is returned. Returns the
    finished process, which must have exited 0."""
    code = (before + "sys.argv = ['nqueens', 'count', '6']\n"
            "from nqueens_numba.__main__ import run\nstatus = run()\n" + after)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    return run


def test_an_ignored_sigint_stays_ignored_while_the_command_loads():
    """A process started to ignore Ctrl-C (``cmd &`` in a script) gets no handler for it,
    neither while the package loads nor after."""
    code = ("import signal, sys\n"
            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "installed = []\n"
            "real = signal.signal\n"
            "def spy(signum, handler):\n"
            "    if signum == signal.SIGINT and handler is not signal.SIG_IGN:\n"
            "        installed.append(handler)\n"
            "    return real(signum, handler)\n"
            "signal.signal = spy\n")
    run = run_the_command(code, "print(status, installed)\n")
    assert run.stdout == "4\n0 []\n", run.stdout


@pytest.mark.parametrize("count", [lambda: nq.first_row_counts(14),
                                   lambda: nq.count_solutions(14, method="halving")],
                         ids=["first_row_counts", "halving"])
def test_ctrl_c_during_a_kernel_call_in_the_calling_thread_is_a_keyboard_interrupt(count):
    """A Ctrl-C while a count of n = 14 runs its one kernel call in the calling thread
    raises ``KeyboardInterrupt`` (numba's dispatcher returned it as a ``SystemError``), and
    the next count is exact."""
    import _thread

    count()  # (loaded)
    for _ in range(5):
        timer = threading.Timer(0.005, _thread.interrupt_main)
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            while True:
                count()
        timer.join()
    assert int(np.sum(count())) == 365596


def test_an_event_wait_cut_by_ctrl_c_is_a_keyboard_interrupt():
    """Python's ``Event.wait``, interrupted as it takes back its lock, raises
    ``RuntimeError: release unlocked lock`` from the ``KeyboardInterrupt``: the package's
    waits in the calling thread raise the interruption itself."""
    from nqueens_numba._kernels import _loading

    class Interrupted:
        def wait(self, timeout):
            try:
                raise KeyboardInterrupt
            finally:
                raise RuntimeError("release unlocked lock")

    class Broken:
        def wait(self, timeout):
            raise RuntimeError("something else")

    class Alarm(Exception):
        pass

    class Alarmed:  # (a user's signal handler raised)
        def wait(self, timeout):
            try:
                raise Alarm
            finally:
                raise RuntimeError("release unlocked lock")

    with pytest.raises(KeyboardInterrupt):
        _loading.wait(Interrupted(), 0.1)
    with pytest.raises(Alarm):
        _loading.wait(Alarmed(), 0.1)
    with pytest.raises(RuntimeError, match="something else"):
        _loading.wait(Broken(), 0.1)


def test_the_kernels_of_entry_are_their_dispatchers_for_every_other_use():
    """What ``_kernels.entry`` gives (a ``_loading.Kernel``) has its dispatcher's
    attributes, and copies and pickles as a value."""
    import copy
    import pickle

    from nqueens_numba import _kernels

    kernel = _kernels.entry("count")
    assert kernel.py_func is kernel.dispatcher.py_func
    assert copy.copy(kernel).dispatcher is kernel.dispatcher
    assert pickle.loads(pickle.dumps(kernel)).py_func.__name__ == kernel.py_func.__name__


#: Code that sends a signal while the command's package loads, then while its command line
#: is parsed (before ``main`` installs its own handlers).
LOADING = ("import importlib.abc, os, signal, sys\n"
           "class Signal(importlib.abc.MetaPathFinder):\n"
           "    def find_spec(self, name, path, target=None):\n"
           "        if name == 'nqueens_numba.cli':\n"
           "            os.kill(os.getpid(), signal.{name})\n"
           "sys.meta_path.insert(0, Signal())\n")
PARSING = ("import os, signal, sys\n"
           "import nqueens_numba.cli as cli\n"
           "real = cli.build_parser\n"
           "def build_parser():\n"
           "    os.kill(os.getpid(), signal.{name})\n"
           "    return real()\n"
           "cli.build_parser = build_parser\n")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("when", [LOADING, PARSING], ids=["loading", "parsing"])
@pytest.mark.parametrize("name, status", [("SIGINT", 130), ("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_signal_before_the_command_runs_ends_it_with_its_status(when, name, status):
    """SIGINT, SIGTERM and SIGHUP while the package loads (which they wait for) or while the
    command line is parsed end the command with their status and a line, never silently."""
    says = "nqueens: interrupted" if name == "SIGINT" else f"nqueens: terminated by {name}"
    run = run_the_command(when.format(name=name), "print(status)\n")
    assert run.stdout == f"{status}\n" and run.stderr == f"{says}\n", run


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("when", ["answered", "restored"])
def test_ctrl_c_after_the_answer_is_printed_exits_0(when):
    """A SIGINT that comes once the answer is written (while the command ends, or after
    ``main`` has put the handlers back) changes nothing: status 0, no message."""
    code = ("import os, signal, sys\n"
            "from nqueens_numba.cli import stop\n"
            "real_answered, real_handle = stop.answered, stop.handle_signals\n"
            "def answered():\n"
            "    real_answered()\n"
            f"    if {when!r} == 'answered':\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n"
            "def handle_signals(*args):\n"
            "    restore = real_handle(*args)\n"
            "    def restore_then_signal():\n"
            "        restore()\n"
            f"        if {when!r} == 'restored' and not args:  # (main's)\n"
            "            os.kill(os.getpid(), signal.SIGINT)\n"
            "    return restore_then_signal\n"
            "stop.answered, stop.handle_signals = answered, handle_signals\n")
    run = run_the_command(code, "os.kill(os.getpid(), signal.SIGINT)\nprint(status)\n")
    assert run.stdout == "4\n0\n" and run.stderr == ""


def test_solve_warns_once_before_filling_a_large_result(monkeypatch):
    """A result past ``config.LARGE_RESULT_BYTES`` (here lowered to 1000 bytes) says so once
    before it is filled, unless a progress bar shows the work."""
    import warnings

    from nqueens_numba import config

    monkeypatch.setattr(config, "LARGE_RESULT_BYTES", 1000)
    with pytest.warns(UserWarning) as record:
        assert nq.solve(13).shape == (73712, 13)
    assert len(record) == 1
    assert str(record[0].message).startswith("solve(13) fills 73,712 solutions (0.00089 GiB)")
    assert record[0].filename == __file__  # points at the call
    with pytest.warns(UserWarning, match=r"solve\(13, torus=True\) fills 4,524") as record:
        nq.solve(13, torus=True)
    assert len(record) == 1 and record[0].filename == __file__
    with pytest.warns(UserWarning, match=r"^fundamental_solutions\(13\) enumerates every "
                      r"solution first .*: it fills 73,712 solutions") as record:
        assert len(nq.fundamental_solutions(13)) == 9233
    assert len(record) == 1 and record[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nq.solve(13, progress=True)  # the bar says it
        assert len(nq.solve(10)) == 724  # small: 7240 bytes, in NumPy
        monkeypatch.setattr(config, "LARGE_RESULT_BYTES", 73712 * 13)
        nq.solve(13)  # at the limit


def test_long_times_are_rounded_to_what_is_known():
    from nqueens_numba import _progress

    assert _progress.significant(126999.4) == "130,000"
    assert _progress.significant(8.34) == "8.3" and _progress.significant(0.456) == "0.46"
    assert _progress.significant(999_499_999_999_999.0) == "1,000,000,000,000,000"
    assert _progress.significant(1.7e44) == "1.7e+44"  # (not a float's 45 digits)
    assert _progress.duration(59) == "00:59" and _progress.duration(3725) == "1:02:05"
    assert _progress.duration(86_400 * 15.4) == "15 days"
    assert _progress.duration(72838 * 3600 + 28 * 60 + 28) == "8.3 years"
    assert _progress.duration(12 * 3600 + 3 * 60 + 43, clock=False) == "12 hours"
    assert _progress.duration(2 * 3600 + 1800, clock=False) == "2.5 hours"
    assert _progress.duration(754, clock=False) == "13 minutes"
    bar = _progress.progress_bar(1000, 0, "count", disable=True)
    text = bar.format_meter(1, 1000, 3600.0)  # 999 hours to go
    assert "<42 days," in text and "999:" not in text
    assert "<16:40," in bar.format_meter(500, 1000, 1000.0)  # below a day: a clock
    assert _progress.duration(86_400 * 365.25 * 2e14) == "over 1,000 years"


def test_a_slow_bar_gives_the_time_an_item_takes_in_seconds_not_si_prefixes():
    """Below one item a second tqdm writes the time an item takes with SI prefixes
    (``11.9Ps/subproblem``, peta-seconds, for a count of n = 40): the bar writes seconds,
    a clock or years."""
    from nqueens_numba import _progress

    bar = _progress.progress_bar(100, 0, "count", disable=True,
                                 bar_format=_progress.COUNT_BAR_FORMAT)
    meter = dict(unit="subproblem", unit_scale=True, bar_format=_progress.COUNT_BAR_FORMAT)
    assert "25s/subproblem]" in bar.format_meter(2, 100, 50.0, **meter)
    assert "04:10/subproblem]" in bar.format_meter(2, 100, 500.0, **meter)
    text = bar.format_meter(1, 100, 1.2e19, **meter)
    assert "<over 1,000 years, over 1,000 years/subproblem]" in text, text
    assert "40.0subproblem/s]" in bar.format_meter(200, 1000, 5.0, **meter)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_first_call_interrupted_while_the_package_loads_leaves_it_working():
    """Ctrl-C while the first call of a process loads numpy, numba and the kernels (as in a
    notebook's first cell) waits for the loading to end and then interrupts: later calls
    work (an import cut short would leave modules half made, failing every later call)."""
    code = textwrap.dedent("""
        import _thread, sys, threading
        import nqueens_numba as nq
        threading.Timer(float(sys.argv[1]), _thread.interrupt_main).start()
        try:
            nq.count_solutions(16)
        except KeyboardInterrupt:
            pass
        print(nq.count_solutions(13), nq.count_solutions(11, torus=True),
              len(nq.solve(13, limit=3)), nq.estimate_count(14, samples=10**4, seed=1).samples)
    """)
    for delay in (0.01, 0.05, 0.15, 0.3):
        run = subprocess.run([sys.executable, "-c", code, str(delay)], capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0, (delay, run.stderr[-2000:])
        assert run.stdout == "73712 88 3 10000\n", (delay, run.stdout, run.stderr[-2000:])


@pytest.mark.slow
def test_first_calls_from_several_threads_at_once_load_numba_once():
    """Three first calls of a process at once, with progress bars: each of them imports
    numba (the bars' notice of compiling too); two imports at once left it half made, one
    call failing ("partially initialized module 'numba.core.event'") and the others hung
    in llvmlite's lock. Three fresh processes: the race struck about half of them."""
    code = textwrap.dedent("""
        import threading
        import nqueens_numba as nq

        calls = {"count": lambda: nq.count_solutions(16, progress=True),
                 "solve": lambda: len(nq.solve(14, progress=True)),
                 "estimate": lambda: nq.estimate_count(20, samples=10**4, seed=1,
                                                       progress=True).samples}
        results = {}

        def run(name):
            try:
                results[name] = calls[name]()
            except BaseException as exc:
                results[name] = repr(exc)

        threads = [threading.Thread(target=run, args=(name,)) for name in calls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(sorted(results.items()))
    """)
    for _ in range(3):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        assert run.stdout == ("[('count', 14772512), ('estimate', 10000), "
                              "('solve', 365596)]\n"), run.stderr[-2000:]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_ctrl_c_while_the_progress_bars_load_leaves_them_working():
    """A Ctrl-C while the first bar of a process imports ``tqdm.auto`` (and asyncio with it)
    waits for the import to end: later bars, enumerations and streams work (an import cut
    short failed every one of them with "name 'coroutines' is not defined")."""
    code = textwrap.dedent("""
        import os, signal, sys
        import nqueens_numba as nq
        nq.count_solutions(9)  # numba and the kernels loaded first

        class Hook:  # a SIGINT in the middle of the import of asyncio
            fired = False

            def find_spec(self, name, path, target=None):
                if name == "asyncio.tasks" and not Hook.fired:
                    Hook.fired = True
                    os.kill(os.getpid(), signal.SIGINT)

        sys.meta_path.insert(0, Hook())
        try:
            nq.count_solutions(13, progress=True)
            print("not interrupted")
        except KeyboardInterrupt:
            pass
        assert Hook.fired
        print(nq.count_solutions(12, progress=True), len(nq.solve(13)),
              sum(len(c) for c in nq.iter_solutions(13)))
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout == "14200 73712 73712\n", run.stderr[-2000:]


def test_numba_num_threads_read_as_numba_reads_it(monkeypatch):
    """NUMBA_NUM_THREADS below 1, above 4,096 or not an integer is refused by name, on small
    boards too (numba refuses the first when imported; the others it ignored with a warning
    of its own, which a small board, counted without numba, never showed)."""
    from nqueens_numba import _validate

    for value in ("0", "abc", "1.5", "", " ", "4097", "99999999999999999999"):
        monkeypatch.setenv("NUMBA_NUM_THREADS", value)
        with pytest.raises(ValueError, match=f"NUMBA_NUM_THREADS must be an integer in "
                                             f"1..4,096, got '{value}'"):
            nq.count_solutions(8)  # (a blank one numba warns of; 10^20 grew a list of
            # threads in memory, and hung)
    monkeypatch.setenv("NUMBA_NUM_THREADS", " 3 ")
    assert _validate.max_threads() == 3


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_compile_runs_apart_and_a_ctrl_c_stops_the_wait_at_once():
    """``_loading.apart`` runs a call that may compile in a thread of its own: its result or
    error comes back; a Ctrl-C stops the wait at once while the call goes on to its end
    (a compile cut short could leave numba failing every later compile); the caller's
    notice of compiling goes with it."""
    from nqueens_numba._kernels import _loading

    assert _loading.apart(lambda: 42) == 42
    with pytest.raises(ZeroDivisionError):
        _loading.apart(lambda: 1 // 0)
    _loading.notice.active = True
    try:
        assert _loading.apart(lambda: _loading.notice.active) is True
    finally:
        _loading.notice.active = False
    ended = threading.Event()

    def slow():
        time.sleep(1.5)
        ended.set()

    threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        _loading.apart(slow)
    assert time.monotonic() - start < 1.0 and not ended.is_set()
    assert _loading.compiling()
    assert ended.wait(5) and not _loading.compiling()


def test_first_calls_of_estimates_and_completions_compile_apart(monkeypatch):
    """An estimate's prefixes and a completion's exhaustive search may compile: in a thread
    of their own (they compiled in the calling thread, where a Ctrl-C was lost in llvmlite
    or left a warning about the cache's free space)."""
    from nqueens_numba import _blocks, _kernels, huge
    from nqueens_numba._kernels import _loading

    through = []
    real = _loading.first_call
    monkeypatch.setattr(_loading, "first_call",
                        lambda kernel, *args: through.append(kernel) or real(kernel, *args))
    assert nq.estimate_count(12, samples=1000, seed=1).value > 0
    assert _kernels.entry("prefixes") in through
    threads = []
    start = _blocks.Cursor.__init__

    def spy(self, *args, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        start(self, *args, **kwargs)

    monkeypatch.setattr(_blocks.Cursor, "__init__", spy)
    monkeypatch.setattr(huge, "EXACT_SECONDS", 0.01)
    with pytest.raises(RuntimeError, match="exhaustive search"):
        nq.find_solution(40, preplaced={0: 0, 1: 2, 2: 4, 3: 1, 4: 3}, seed=1, max_steps=0)
    assert threads == [False]  # (apart: not in the calling, main thread)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_first_enumeration_while_it_compiles(tmp_path):
    """The enumeration kernels compile in the calling thread, before its threads start: a
    Ctrl-C during that first compile (a fresh cache) stops ``solve`` at once, and the next
    call works."""
    code = textwrap.dedent("""
        import os, signal, sys, threading, time
        import nqueens_numba as nq
        nq.count_solutions(8)
        sent = {}

        def fire():
            sent["t"] = time.monotonic()
            os.kill(os.getpid(), signal.SIGINT)

        threading.Timer(float(sys.argv[1]), fire).start()
        try:
            nq.solve(13)
            print("finished")
        except KeyboardInterrupt:
            print(f"{time.monotonic() - sent['t']:.2f}")
        print(len(nq.solve(13)))
    """)
    for delay in (0.3, 1.0):
        cache = tmp_path / f"cache{delay}"
        run = subprocess.run([sys.executable, "-c", code, str(delay)], capture_output=True,
                             text=True, timeout=300,
                             env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
        assert run.returncode == 0, run.stderr[-2000:]
        late, total = run.stdout.split()
        assert total == "73712"
        assert late == "finished" or float(late) < 1.0, (delay, late)


class _FullStderr:
    """A stderr whose writes fail as on a full disk (``2>/dev/full``)."""

    encoding = "utf-8"

    def write(self, text):
        raise OSError(28, "No space left on device")

    def flush(self):
        raise OSError(28, "No space left on device")

    def isatty(self):
        return False


@pytest.mark.parametrize("call", [
    lambda: nq.count_solutions(13, progress=True, prefix_depth=3),
    lambda: nq.count_solutions(13, progress=True, method="halving", n_threads=1),
    lambda: len(nq.solve(13, progress=True)),
])
def test_a_bar_that_cannot_write_goes_quiet_and_the_work_goes_on(monkeypatch, call):
    monkeypatch.setattr(sys, "stderr", _FullStderr())
    assert call() == 73712


def test_the_command_line_answers_with_stderr_full_or_closed():
    for redirect in ("2>/dev/full", "2>&-"):
        done = subprocess.run(f"{sys.executable} -m nqueens_numba count 13 --progress "
                              f"{redirect}", shell=True, capture_output=False,
                              stdout=subprocess.PIPE, text=True, timeout=120)
        assert (done.returncode, done.stdout) == (0, "73712\n"), redirect


def test_the_command_lines_messages_stay_out_of_the_answer_when_stderr_is_closed(tmp_path):
    """``print(file=sys.stderr)`` writes to stdout when stderr is closed: the messages of the
    command line are dropped instead, and the answer (stdout) holds only the answer."""
    damaged = tmp_path / "damaged.json"
    damaged.write_text("garbage")
    for command, status in ((f"count 14 --checkpoint {damaged}", 1), ("solve 3", 0),
                            ("solve 0", 0)):
        done = subprocess.run(f"{sys.executable} -m nqueens_numba {command} 2>&-", shell=True,
                              stdout=subprocess.PIPE, text=True, timeout=120)
        expected = "\n" if command == "solve 0" else ""  # (the one empty board)
        assert (done.returncode, done.stdout) == (status, expected), command
    assert damaged.read_text() == "garbage"


@pytest.mark.parametrize("stderr", [None, _FullStderr()])
def test_a_warning_that_cannot_be_written_does_not_end_the_command(monkeypatch, capsys,
                                                                   stderr):
    """As Python's own ``showwarning``, the command line's drops what it cannot write (a run
    of ``nqueens count 25 2>/dev/full`` ended at its long-count warning)."""
    from nqueens_numba.cli import messages

    monkeypatch.setattr(sys, "stderr", stderr)
    messages.show_warning(UserWarning("about 1 year"), UserWarning, "x.py", 1)
    messages.show_warning(UserWarning("about 1 year"), UserWarning, "x.py", 1,
                          file=_FullStderr())
    messages.say("cannot write the output")
    assert capsys.readouterr().out == ""


def test_numba_that_cannot_load_says_so(monkeypatch):
    """LLVM's library not loaded (``ulimit -v``, a broken install) is a RuntimeError that
    names numba, not an OSError the command line took for an unwritable output."""
    from nqueens_numba._kernels import _loading

    def fail(name):
        raise OSError("Could not find/load shared object file 'libllvmlite.so'")

    monkeypatch.setattr(_loading.importlib, "import_module", fail)
    with pytest.raises(RuntimeError, match="numba could not be loaded: Could not find"):
        _loading.numba_module("numba.not_yet_imported")


def _cgroups(tmp_path, table, files):
    """A fake cgroup mount under ``tmp_path`` (``files``: path -> text) and the table of
    the process's cgroups; returns :func:`_validate.cgroup_memory` of them."""
    from nqueens_numba import _validate

    root = tmp_path / "cgroup"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "table").write_text(table)
    return _validate.cgroup_memory(str(root), str(tmp_path / "table"))


def test_the_memory_guard_sees_a_containers_limit(tmp_path, monkeypatch):
    """A memory cgroup's limit (a container's, a notebook server's) bounds the memory the
    guard allows, less what the cgroup uses but its reclaimable page cache: ``solve(17)``
    in a cgroup of 1 GiB was killed by the kernel, not refused with a MemoryError."""
    gib = 2**30
    v2 = {"pod/memory.max": f"{gib}\n", "pod/memory.current": f"{gib // 2}\n",
          "pod/memory.stat": f"anon 1\ninactive_file {gib // 4}\nactive_file 7\n",
          "pod/app/memory.max": "max\n", "pod/app/memory.current": "5\n"}
    assert _cgroups(tmp_path / "a", "0::/pod/app\n", v2) == gib * 3 // 4
    v1 = {"memory/kube/memory.limit_in_bytes": f"{2 * gib}\n",
          "memory/kube/memory.usage_in_bytes": f"{gib}\n",
          "memory/kube/x/memory.limit_in_bytes": f"{gib}\n",
          "memory/kube/x/memory.usage_in_bytes": f"{gib // 4}\n",
          "memory/memory.limit_in_bytes": "9223372036854771712\n"}  # (v1's "no limit")
    assert _cgroups(tmp_path / "b", "5:cpu:/\n4:memory:/kube/x\n", v1) == gib * 3 // 4
    none = {"memory.max": "max\n", "memory/memory.limit_in_bytes": "9223372036854771712\n"}
    assert _cgroups(tmp_path / "c", "4:memory:/\n0::/\n", none) is None
    assert _cgroups(tmp_path / "d", "0::/gone\n", {}) is None  # (nothing to read)
    from nqueens_numba import _validate

    monkeypatch.setattr(_validate, "cgroup_memory", lambda: gib)
    with pytest.raises(MemoryError, match="max_bytes=858,993,459 "):
        nq.solve(17)


def test_threads_the_system_refuses_name_n_threads(monkeypatch):
    """A process limit on threads (``ulimit -u``) says which argument to lower, and leaves
    no thread of the call running."""
    started = []
    start = threading.Thread.start

    def refuse_the_second(self):
        if self.name.startswith("nqueens-") and len(started) >= 1:
            raise RuntimeError("can't start new thread")
        started.append(self)
        start(self)

    monkeypatch.setattr(threading.Thread, "start", refuse_the_second)
    with pytest.raises(RuntimeError, match="can't start new thread .*fewer with n_threads"):
        nq.estimate_count(16, samples=10**5, n_threads=2, seed=1)
    monkeypatch.undo()
    for thread in started:
        thread.join(5)
        assert not thread.is_alive()


_ENDING = """
import atexit, builtins, os, sys, threading, time
atexit.register(lambda: sys.stderr.write("atexit ran\\n"))


class Teardown:  # (deleted by the interpreter's teardown: builtins are cleared last)
    def __del__(self, write=os.write):
        write(2, b"teardown\\n")


builtins._kept_until_teardown = Teardown()
if os.environ.get("NQ_TEST_THREAD"):
    # (alive when the command ends, on a loaded machine too: 0.5 s was not, once)
    threading.Thread(target=lambda: (time.sleep(3), os.write(2, b"thread ended\\n"))).start()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell")
def test_the_command_ends_at_once_once_its_output_is_flushed(tmp_path):
    """The ``nqueens`` command ends without the interpreter's teardown (numba's and LLVM's
    took 0.05 s of every command): its output is whole, on a pipe and in a file, its
    ``atexit`` functions run and its status is the command's. With a thread that is not a
    daemon still running, it ends the usual way, after that thread."""
    (tmp_path / "sitecustomize.py").write_text(_ENDING)
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    out, damaged = tmp_path / "boards.txt", tmp_path / "damaged.json"
    damaged.write_text("garbage")
    for command, status, stdout in ((["count", "10"], 0, "724\n"),
                                    (["solve", "8", "--output", str(out)], 0, ""),
                                    (["count", "14", "--checkpoint", str(damaged)], 1, "")):
        run = subprocess.run([sys.executable, "-m", "nqueens_numba", *command], env=env,
                             capture_output=True, text=True, timeout=120)
        assert (run.returncode, run.stdout) == (status, stdout), run.stderr
        assert run.stderr.endswith("atexit ran\n") and "teardown" not in run.stderr, command
    assert out.read_text() == subprocess.run(
        [sys.executable, "-m", "nqueens_numba", "solve", "8"], capture_output=True,
        text=True, timeout=120).stdout
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "10"],
                         env={**env, "NQ_TEST_THREAD": "1"}, capture_output=True, text=True,
                         timeout=120)
    assert (run.returncode, run.stdout) == (0, "724\n")
    assert run.stderr.index("thread ended") < run.stderr.index("atexit ran")
    assert "teardown" in run.stderr


def test_the_collector_runs_during_the_command():
    """The collector of reference cycles, paused while the package loads, runs during the
    command and after it."""
    code = ("import gc, sys\n"
            "from nqueens_numba import cli\n"
            "seen, real = [], cli.main\n"
            "cli.main = lambda *args: (seen.append(gc.isenabled()), real(*args))[1]\n")
    run = run_the_command(code, "print(status, seen, gc.isenabled())\n")
    assert run.stdout == "4\n0 [True] True\n", run.stderr


def test_a_program_that_runs_the_command_goes_on_after_it():
    """Run inside another program (``runpy.run_module``, a profiler, ``python -i``), the
    command ends the usual way, by ``SystemExit``, and that program goes on (ending the process at once ended
    the host: a notebook's ``%run -m``, ``python -m cProfile``, ``pdb``)."""
    code = ("import runpy, sys\n"
            "sys.argv = ['nqueens', 'count', '8']\n"
            "try:\n"
            "    runpy.run_module('nqueens_numba', run_name='__main__', alter_sys=True)\n"
            "except SystemExit as exc:\n"
            "    print('exit', exc.code)\n"
            "print('host goes on')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert (run.returncode, run.stdout) == (0, "92\nexit 0\nhost goes on\n"), run.stderr
    run = subprocess.run([sys.executable, "-m", "cProfile", "-m", "nqueens_numba", "count",
                          "8"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("92\n"), run.stderr
    assert "function calls" in run.stdout  # (the profile, printed after the command)
    run = subprocess.run([sys.executable, "-i", "-m", "nqueens_numba", "count", "8"],
                         input="print('prompt reached')\n", capture_output=True, text=True,
                         timeout=120)
    assert run.stdout.startswith("92\n") and "prompt reached" in run.stdout, run.stderr


def test_a_jitclass_compiles_while_the_package_listens_for_its_first_compile(monkeypatch):
    """The package's listener of numba's compiles (its first-compile notice) lets a user's
    jitclass compile: its constructor's ``__module__`` is ``None`` (an AttributeError ended
    the user's compile when nothing of the package had compiled in the process yet)."""
    from numba import int64
    from numba.experimental import jitclass

    from nqueens_numba import _kernels
    from nqueens_numba._kernels import _loading

    _kernels.entry("count_rows")  # (the listener is installed with the first kernel)
    monkeypatch.setitem(_loading._first_compile, "said", False)

    @jitclass([("v", int64)])
    class Box:
        def __init__(self, v):
            self.v = v

    assert Box(3).v == 3
    assert not _loading._first_compile["said"]  # (not taken for one of the package's)
