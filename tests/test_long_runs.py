"""Long counts: split depth, progress, interruption, checkpoints, threads and processes."""
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numba
import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import _kernels, _split, config
from nqueens_numba.checkpoint import CheckpointError, _checksum

A000170 = {0: 1, 1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 10: 724, 12: 14200, 13: 73712,
           14: 365596, 15: 2279184}
A002562 = {0: 1, 1: 1, 2: 0, 3: 0, 4: 1, 5: 2, 6: 1, 12: 1787, 13: 9233}
MAX_THREADS = numba.config.NUMBA_NUM_THREADS


def run_python(code, timeout=120, env=None):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})})


# --------------------------------------------------------------------------- split depth


@pytest.mark.parametrize("method, depths", [("halving", range(1, 12)),
                                            ("symmetric", range(2, 8))])
def test_every_prefix_depth_gives_the_same_total(method, depths):
    for depth in depths:
        for t in sorted({1, min(2, MAX_THREADS)}):
            assert nq.count_solutions(12, method=method, prefix_depth=depth, n_threads=t) \
                == A000170[12]


@pytest.mark.parametrize("depth", [2, 4, 8])
def test_prefix_depth_fundamental(depth):
    assert nq.count_solutions(13, fundamental=True, prefix_depth=depth) == A002562[13]


def test_prefix_depth_with_too_many_subproblems(monkeypatch):
    monkeypatch.setattr(config, "MAX_SUBPROBLEMS", 1000)
    for method in ("halving", "symmetric"):
        with pytest.raises(ValueError, match="more than 1,000 subproblems") as info:
            nq.count_solutions(12, method=method, prefix_depth=6)
        # the message names the deepest split that stays under: it counts, one more row not
        deepest = int(re.search(r"at most (\d+) for this count", str(info.value)).group(1))
        assert nq.count_solutions(12, method=method, prefix_depth=deepest) == A000170[12]
        with pytest.raises(ValueError, match="more than 1,000 subproblems"):
            nq.count_solutions(12, method=method, prefix_depth=deepest + 1)
    assert nq.count_solutions(12, method="halving") == A000170[12]  # the default stays under


def test_prefix_depth_errors():
    with pytest.raises(ValueError, match=r"1\.\.11"):
        nq.count_solutions(12, method="halving", prefix_depth=0)
    with pytest.raises(ValueError, match=r"2\.\.7"):
        nq.count_solutions(12, method="symmetric", prefix_depth=8)
    with pytest.raises(ValueError, match="cannot be set"):
        nq.count_solutions(5, fundamental=True, prefix_depth=2)
    for bad in (2.0, True, "3"):
        with pytest.raises(TypeError, match="prefix_depth"):
            nq.count_solutions(12, prefix_depth=bad)
    # Checked as well where the answer needs no search: the empty board, and boards
    # without solutions
    for n, board in [(0, {}), (3, {}), (6, {"torus": True})]:
        with pytest.raises(TypeError, match="prefix_depth"):
            nq.count_solutions(n, prefix_depth=True, **board)
        with pytest.raises(ValueError, match="prefix_depth must be in the range"):
            nq.count_solutions(n, prefix_depth=-5, **board)
        assert nq.count_solutions(n, prefix_depth=1, **board) == (
            1 if n == 0 else 0)


def test_default_split_is_many_small_subproblems():
    for n, threads in [(14, 1), (16, 2), (16, 64)]:
        states = _split.count_split(n, "symmetric", threads).states
        assert len(states) >= min(config.TASKS_PER_THREAD * threads, config.MAX_SUBPROBLEMS)
    split = _split.count_split(22, "symmetric", 2)
    states, depth = split.states, split.depth  # A000170(22) / 2e6 = 1.3e6 > the cap
    assert len(states) <= config.MAX_SUBPROBLEMS and depth >= 5


def test_subproblems_have_no_empty_rows():
    """The prefix arrays are compact: every prefix leaves a free square in the next row."""
    for method in _split.METHODS:
        states = _split.count_split(14, method, 2, 4).states
        full = (1 << 14) - 1
        free = ~(states[:, 0] | states[:, 1] | states[:, 2]) & full
        assert np.all(free != 0)
        assert len(np.unique(states[:, 3:], axis=0)) == len(states)


# --------------------------------------------------------------------------- progress


def test_progress_bar(capsys):
    assert nq.count_solutions(14, progress=True) == A000170[14]
    err = capsys.readouterr().err
    assert "subproblem" in err and "100.0%" in err


@pytest.mark.parametrize("n", [2, 3])
def test_no_bar_without_subproblems(capsys, n):
    """Boards whose split has no subproblem draw no empty bar."""
    assert nq.count_solutions(n, progress=True) == 0
    assert capsys.readouterr().err == ""


def test_progress_cli(capsys):
    from nqueens_numba.cli import main

    assert main(["count", "13", "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "73712\n" and "100.0%" in captured.err


# --------------------------------------------------------------------------- interruption


def _interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_promptly_and_the_next_call_works(monkeypatch):
    monkeypatch.setattr(config, "TASK_SECONDS", 0.005)
    # Load the kernels first: run alone, the signal would otherwise come while they load.
    assert nq.count_solutions(10, method="halving", n_threads=1, prefix_depth=4) == 724
    start = time.perf_counter()
    timer = _interrupt_after(0.1)
    with pytest.raises(KeyboardInterrupt, match="interrupted after"):
        nq.count_solutions(15, method="halving", n_threads=1, prefix_depth=4)
    elapsed = time.perf_counter() - start
    timer.join()
    assert elapsed < 2.0
    assert not [t for t in threading.enumerate() if t.name.startswith("nqueens")]
    assert nq.count_solutions(12) == A000170[12]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_count_in_the_first_counts_kernel_promptly(monkeypatch):
    """The symmetric kernel of a first count searches each subproblem whole: they are small
    enough that a Ctrl-C still stops the count at once (here n = 17, 9 s of one thread)."""
    monkeypatch.setattr(_kernels, "loaded_counts", set())
    monkeypatch.setattr(_kernels, "is_ready", lambda *args, **kwargs: False)
    monkeypatch.setattr(config, "COLD_SYMMETRIC_SOLUTIONS", 10**9)
    monkeypatch.setattr(config, "DIRECT_SOLUTIONS", 1)
    monkeypatch.setattr(config, "COLD_DIRECT_SOLUTIONS", 1)
    assert nq.count_solutions(13, n_threads=1) == A000170[13]  # (its kernel loaded first)
    assert _kernels.loaded_counts == {("symmetric_first", 0, False)}
    start = time.perf_counter()
    timer = _interrupt_after(0.2)
    with pytest.raises(KeyboardInterrupt, match="interrupted after .*the work done is lost"):
        nq.count_solutions(17, n_threads=1)
    elapsed = time.perf_counter() - start
    timer.join()
    assert elapsed < 2.0
    assert not [t for t in threading.enumerate() if t.name.startswith("nqueens")]


def test_interrupt_raised_in_several_workers_keeps_the_message(tmp_path, monkeypatch):
    """A KeyboardInterrupt that reaches the pool from more than one running batch still ends
    as one interruption that says how far the count got, with the checkpoint saved."""
    original = _kernels._count_symmetric_run

    def interrupted(*args):
        if not len(args[1]):  # the call that loads the kernels
            return original(*args)
        time.sleep(0.05)  # let both threads start a batch
        raise KeyboardInterrupt

    monkeypatch.setattr(_kernels, "_count_symmetric_run", interrupted)
    path = tmp_path / "run.json"
    with pytest.raises(KeyboardInterrupt, match="interrupted after 0 of"):
        nq.count_solutions(13, method="symmetric", n_threads=2, checkpoint=path)
    assert json.loads(path.read_text())["finished"] == []


def test_an_interruption_says_whether_the_work_is_kept(tmp_path, monkeypatch, capsys):
    """Without a checkpoint the work done is lost, and the message suggests one; with one,
    it says how to resume (in the command line's words on the command line)."""
    from nqueens_numba.cli import main

    original = _kernels._count_symmetric_run

    def interrupted(*args):
        if not len(args[1]):  # the call that loads the kernels
            return original(*args)
        raise KeyboardInterrupt

    monkeypatch.setattr(_kernels, "_count_symmetric_run", interrupted)
    monkeypatch.setattr(_kernels, "loaded_counts", {("symmetric", 0, False)})  # no shortcut
    with pytest.raises(KeyboardInterrupt) as info:
        nq.count_solutions(15, method="symmetric", n_threads=1, prefix_depth=3)
    assert str(info.value).endswith(
        "; the work done is lost: count with checkpoint=FILE to be able to resume")
    path = tmp_path / "run.json"
    with pytest.raises(KeyboardInterrupt) as info:
        nq.count_solutions(15, method="symmetric", n_threads=1, checkpoint=path)
    assert str(info.value).endswith(
        f"; progress saved to {str(path)!r}: call again with the same arguments to resume")
    assert main(["count", "15", "--threads", "1"]) == 130
    assert capsys.readouterr().err.endswith(
        "; the work done is lost: count with --checkpoint FILE to be able to resume\n")
    assert main(["count", "15", "--threads", "1", "--checkpoint", str(path)]) == 130
    assert capsys.readouterr().err.endswith(
        f"; progress saved to {str(path)!r}: run the same command again to resume\n")


def test_an_interruption_while_compiling_says_nothing_was_counted(tmp_path, monkeypatch,
                                                                  capsys):
    """A Ctrl-C while the count's kernels compile (before any subproblem runs) says so, and
    that nothing was saved: no checkpoint file was written."""
    original = _kernels._count_symmetric_run

    def compiling(*args):
        if not len(args[1]):  # the call that loads the kernels
            raise KeyboardInterrupt
        return original(*args)

    monkeypatch.setattr(_kernels, "_count_symmetric_run", compiling)
    monkeypatch.setattr(_kernels, "loaded_counts", set())
    path = tmp_path / "run.json"
    with pytest.raises(KeyboardInterrupt) as info:
        nq.count_solutions(15, method="symmetric", checkpoint=path)
    assert str(info.value) == ("count of n=15 interrupted before it started, while its "
                               "kernels were compiled or loaded from the cache: nothing was "
                               "counted or saved (a compile goes on in the background of "
                               "this process: the next count finds it done, or waits for "
                               "what is left; warmup() or nqueens warmup compiles every "
                               "kernel once)")
    assert not path.exists()
    # the command line ends at once: the compile it began is not kept
    from nqueens_numba.cli import main

    assert main(["count", "15", "--checkpoint", str(path)]) == 130
    assert capsys.readouterr().err == (
        "nqueens: count of n=15 interrupted before it started, while its kernels were "
        "compiled or loaded from the cache: nothing was counted or saved (a compile it began "
        "is lost: nqueens warmup compiles every kernel once)\n")
    assert not path.exists()


def _start_until_progress(cmd, path, timeout=60):
    """Start ``cmd`` and return it once checkpoint ``path`` shows partial progress."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if path.exists():
            data = json.loads(path.read_text())  # never torn: written by rename
            if 0 < len(data["finished"]) < data["split"]["n_subproblems"]:
                return proc, len(data["finished"])
        time.sleep(0.002)
    proc.kill()
    proc.communicate()
    pytest.fail("the count ended before its checkpoint showed progress")


def _slow_count_cmd(path, n=15):
    return [sys.executable, "-m", "nqueens_numba", "count", str(n), "--method", "halving",
            "--threads", "1", "--prefix-depth", "5", "--checkpoint", str(path),
            "--checkpoint-every", "0"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_in_the_cli(tmp_path):
    path = tmp_path / "run.json"  # (n = 16: n = 15 could end before a busy machine's signal)
    proc, partial = _start_until_progress(_slow_count_cmd(path, 16), path)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert time.perf_counter() - sent < 2.0
    assert proc.returncode == 130, err
    assert out == "" and "interrupted after" in err and "resume" in err
    assert "Traceback" not in err
    assert len(json.loads(path.read_text())["finished"]) >= partial


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("second", [signal.SIGINT, signal.SIGTERM])
def test_a_second_signal_ends_the_cli_at_once(tmp_path, second):
    """A second signal while the first one's stop saves the checkpoint (made slow here) ends
    the process at once, leaving no temporary file beside the checkpoint."""
    path = tmp_path / "run.json"
    code = f"""
        import json, sys, time
        from nqueens_numba import checkpoint
        from nqueens_numba.cli import main
        saves = []
        def slow_dump(obj, file, **kwargs):
            json.__dict__["dump"](obj, file, **kwargs)
            saves.append(1)
            if len(saves) == 1:  # the save when the count starts
                print("counting", file=sys.stderr, flush=True)
            else:  # the stop's
                print("saving", file=sys.stderr, flush=True)
                time.sleep(30)
        checkpoint.json = type(json)("slow_json")
        checkpoint.json.__dict__.update(json.__dict__, dump=slow_dump)
        sys.exit(main(["count", "17", "--method", "halving", "--threads", "1",
                       "--checkpoint", {str(path)!r}, "--checkpoint-every", "1000"]))
    """
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the count has started (past a compile notice, if any) and is counting
        line = proc.stderr.readline()
        while line and line != "counting\n":
            line = proc.stderr.readline()
        assert line == "counting\n"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        assert proc.stderr.readline() == "saving\n"  # the stop is writing the checkpoint
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    time.sleep(0.2)  # (the same signal again at once is one signal sent twice: ECHO_SECONDS)
    sent = time.perf_counter()
    proc.send_signal(second)
    out, err = proc.communicate(timeout=60)
    assert time.perf_counter() - sent < 1.5
    assert proc.returncode == 128 + second, err
    assert out == ""
    assert err.splitlines()[-1] == (
        f"nqueens: stopped at once by a second signal; {str(path)!r} keeps the progress of "
        f"its last save: run the same command again to resume from there"), err
    assert set(os.listdir(tmp_path)) <= {"run.json"}  # no temporary file left


# --------------------------------------------------------------------------- checkpoints


def test_checkpoint_records_and_resumes(tmp_path, monkeypatch):
    path = tmp_path / "run.json"
    assert nq.count_solutions(14, checkpoint=path) == A000170[14]
    data = json.loads(path.read_text())
    assert data["complete"] and data["split"]["n"] == 14
    assert len(data["finished"]) == data["split"]["n_subproblems"]
    # A complete checkpoint answers without searching again.
    calls = []
    original = _kernels._count_symmetric_run
    monkeypatch.setattr(_kernels, "_count_symmetric_run",
                        lambda *args: calls.append(len(args[1])) or original(*args))
    assert nq.count_solutions(14, checkpoint=path) == A000170[14]
    assert not any(calls)  # (the call that loads the kernels counts nothing)


def test_resume_skips_recorded_subproblems(tmp_path, monkeypatch):
    path = tmp_path / "run.json"
    assert nq.count_solutions(13, method="halving", checkpoint=path) == A000170[13]
    data = json.loads(path.read_text())
    kept = data["finished"][: len(data["finished"]) // 3]
    data["finished"] = kept
    data["sha256"] = _checksum(data)  # as a run stopped there would write
    path.write_text(json.dumps(data))
    seen = []
    original = _kernels._count_batch
    monkeypatch.setattr(_kernels, "_count_batch",
                        lambda *args: seen.append(args[1][:, 3:].tolist()) or original(*args))
    assert nq.count_solutions(13, method="halving", checkpoint=path) == A000170[13]
    run = {tuple(state) for call in seen for state in call}  # every batch, whole
    assert len(run) == data["split"]["n_subproblems"] - len(kept)


def test_resume_uses_the_checkpoint_split(tmp_path):
    path = tmp_path / "run.json"
    assert nq.count_solutions(13, prefix_depth=3, checkpoint=path) == A000170[13]
    assert nq.count_solutions(13, checkpoint=path, n_threads=1) == A000170[13]
    assert json.loads(path.read_text())["split"]["prefix_depth"] == 3


@pytest.mark.parametrize("other", [dict(n=12), dict(method="halving"), dict(prefix_depth=2)])
def test_checkpoint_of_another_count_is_refused(tmp_path, other):
    path = tmp_path / "run.json"
    nq.count_solutions(13, method="symmetric", prefix_depth=3, checkpoint=path)
    before = path.read_bytes()
    args = dict(n=13, method="symmetric", prefix_depth=3, checkpoint=path) | other
    with pytest.raises(CheckpointError, match="another count"):
        nq.count_solutions(args.pop("n"), **args)
    assert path.read_bytes() == before


def test_symmetric_checkpoint_of_other_results_is_refused(tmp_path):
    """A symmetric checkpoint whose split does not name the six results of each subproblem
    (as written when the search recorded orbits by size) is refused, not misread."""
    path = tmp_path / "run.json"
    nq.count_solutions(13, method="symmetric", prefix_depth=3, checkpoint=path)
    data = json.loads(path.read_text())
    assert data["split"]["results"] == list(_split.SYMMETRIC_RESULTS)
    assert all(len(entry) == 1 + len(_split.SYMMETRIC_RESULTS) for entry in data["finished"])
    del data["split"]["results"]
    data["finished"] = [entry[:4] for entry in data["finished"]]
    data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(CheckpointError, match="another count"):
        nq.count_solutions(13, method="symmetric", prefix_depth=3, checkpoint=path)
    assert path.read_bytes() == before


def test_checkpoint_edited_by_hand_is_damaged_not_another_count(tmp_path):
    """A split changed without its checksum is damaged, as ``checkpoint.status`` says; not
    "another count" described with the same words as this one."""
    path = tmp_path / "run.json"
    nq.count_solutions(12, method="symmetric", prefix_depth=3, checkpoint=path)
    data = json.loads(path.read_text())
    data["split"]["n_subproblems"] += 1
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(CheckpointError, match="checksum does not match") as raised:
        nq.count_solutions(12, method="symmetric", prefix_depth=3, checkpoint=path)
    assert "another count" not in str(raised.value)
    with pytest.raises(CheckpointError, match="checksum does not match"):
        nq.checkpoint.status(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", ["", "{not json", "[]", '{"format": "other"}',
                                     '{"format": "nqueens_numba checkpoint", "version": 9}'])
def test_damaged_checkpoint_is_refused(tmp_path, content):
    path = tmp_path / "run.json"
    path.write_text(content)
    with pytest.raises(CheckpointError, match="left unchanged"):
        nq.count_solutions(12, checkpoint=path)
    assert path.read_text() == content


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_checkpoint_version_must_be_the_integer(tmp_path, version):
    path = tmp_path / "run.json"
    nq.count_solutions(12, checkpoint=path)
    data = json.loads(path.read_text())
    data["version"] = version
    path.write_text(json.dumps(data))
    with pytest.raises(CheckpointError, match="version"):
        nq.count_solutions(12, checkpoint=path)


@pytest.mark.parametrize("edit, message", [
    (lambda f: f.__setitem__(0, [f[0][0], f[0][1] + 1]), "checksum"),
    (lambda f: f.append(list(f[0])), "recorded twice"),
    (lambda f: f.__setitem__(0, [10**9, 1]), "bad entry"),
    (lambda f: f.__setitem__(0, [f[0][0], 2**64]), "bad entry"),
    (lambda f: f.__setitem__(0, [f[0][0], -1]), "bad entry"),
    (lambda f: f.__setitem__(0, [f[0][0], 1.5]), "bad entry"),
])
def test_tampered_entries_are_refused(tmp_path, edit, message):
    path = tmp_path / "run.json"
    nq.count_solutions(12, method="halving", checkpoint=path)
    data = json.loads(path.read_text())
    edit(data["finished"])
    if message != "checksum":
        data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(CheckpointError, match=message):
        nq.count_solutions(12, method="halving", checkpoint=path)
    assert path.read_bytes() == before


def test_deeply_nested_file_is_refused(tmp_path):
    path = tmp_path / "run.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CheckpointError, match="damaged"):
        nq.count_solutions(12, checkpoint=path)


def test_unusable_checkpoint_paths_fail_at_once(tmp_path):
    for bad, message in [("", "empty"), (tmp_path, "directory"),
                         (tmp_path / "no" / "x.json", "does not exist"),
                         (tmp_path / "f" / "x.json", "'[^']*f' is not a directory")]:
        (tmp_path / "f").write_text("a file")
        with pytest.raises(CheckpointError, match=message):
            nq.count_solutions(12, checkpoint=bad)
    with pytest.raises(ValueError, match="checkpoint is not used"):
        nq.count_solutions(7, torus=True, fundamental=True, checkpoint=tmp_path / "x.json")
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("n", range(7))
def test_boards_too_small_to_split_check_a_checkpoint_and_write_none(tmp_path, n):
    # (their orbits are enumerated in microseconds: nothing to record, as for n = 0)
    path = tmp_path / "x.json"
    assert nq.count_solutions(n, fundamental=True, checkpoint=path) == A002562[n]
    assert nq.count_solutions(n, method="symmetric", checkpoint=path) == A000170[n]
    assert not path.exists()
    nq.count_solutions(n, method="halving", checkpoint=path)
    before = path.read_bytes() if n else None
    if n:  # a file of another count is refused, and left as it was
        with pytest.raises(CheckpointError, match="another count"):
            nq.count_solutions(n, fundamental=True, checkpoint=path)
        assert path.read_bytes() == before


def test_checkpoint_through_a_symlink_keeps_the_link_and_mode(tmp_path):
    real = tmp_path / "real.json"
    link = tmp_path / "link.json"
    nq.count_solutions(12, method="halving", checkpoint=real)
    os.chmod(real, 0o640)
    link.symlink_to(real)
    real.unlink()
    nq.count_solutions(12, method="halving", checkpoint=link)
    assert link.is_symlink() and real.exists()
    assert json.loads(real.read_text())["complete"]
    nq.count_solutions(12, method="halving", checkpoint=real)  # resumes from the target
    os.chmod(real, 0o640)
    nq.save_solutions(tmp_path / "s.npy", 6)
    config_mode = os.stat(tmp_path / "s.npy").st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert config_mode == 0o666 & ~umask


def test_stale_temporaries_are_cleaned(tmp_path):
    path = tmp_path / "run.json"
    stale = tmp_path / ".run.json.abcd1234.tmp"  # the form of tempfile.mkstemp
    stale.write_text("left by kill -9")
    nq.count_solutions(12, method="halving", checkpoint=path)
    assert not stale.exists()


def test_progress_leaves_no_thread():
    before = set(threading.enumerate())
    nq.count_solutions(14, progress=True)
    left = set(threading.enumerate()) - before
    assert not left, left


@pytest.mark.slow  # (seconds)
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_kill_9_then_resume_cli(tmp_path):
    """``nqueens count 16 --checkpoint F`` killed mid-run resumes to the right total (n = 16:
    long enough on a fast machine that the kill comes before the count ends)."""
    path = tmp_path / "run.json"
    cmd = _slow_count_cmd(path, n=16)
    proc, partial = _start_until_progress(cmd, path)
    proc.kill()
    proc.communicate(timeout=30)
    data = json.loads(path.read_text())
    assert not data["complete"] and len(data["finished"]) >= partial
    resumed = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "14772512\n"
    assert json.loads(path.read_text())["complete"]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_checkpoint_file_is_never_torn(tmp_path):
    """Killed at random moments while saving often, the file always parses."""
    path = tmp_path / "run.json"
    cmd = _slow_count_cmd(path, n=14)
    rng = np.random.default_rng(7)
    for _ in range(3):
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.6 + float(rng.uniform(0, 0.4)))
        proc.kill()
        proc.wait(timeout=30)
        if path.exists():
            data = json.loads(path.read_text())
            assert data["format"] == "nqueens_numba checkpoint"
    final = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert final.stdout == "365596\n"


# --------------------------------------------------------------------------- threads, processes


@pytest.mark.parametrize("layer", ["workqueue", "omp", "tbb", "default"])
def test_concurrent_calls_under_every_threading_layer(layer):
    run = run_python("""
        from concurrent.futures import ThreadPoolExecutor
        import nqueens_numba as nq
        with ThreadPoolExecutor(4) as pool:
            counts = list(pool.map(nq.count_solutions, [10] * 8))
            big = list(pool.map(nq.count_solutions, [14, 14, 13, 13]))
            sols = list(pool.map(lambda n: len(nq.solve(n)), [9, 10, 11, 12]))
        print(counts, big, sols)
    """, env={"NUMBA_THREADING_LAYER": layer})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ("[724, 724, 724, 724, 724, 724, 724, 724] "
                                  "[365596, 365596, 73712, 73712] [352, 724, 2680, 14200]")


def test_fork_after_counting_does_not_hang():
    run = run_python("""
        import multiprocessing as mp
        import nqueens_numba as nq
        assert nq.count_solutions(14) == 365596
        assert len(nq.solve(10)) == 724
        with mp.get_context("fork").Pool(2) as pool:
            result = pool.map_async(nq.count_solutions, [12, 13, 14]).get(timeout=60)
        print(result)
    """, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[14200, 73712, 365596]"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_a_loop_of_links_is_refused_at_the_start(tmp_path):
    """A checkpoint path that cannot be looked at is refused before any work (it was found
    at the first save, its work "lost"), and ``status`` names the loop too."""
    (tmp_path / "b.json").symlink_to(tmp_path / "a.json")
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    for call in (lambda: nq.count_solutions(13, checkpoint=tmp_path / "a.json"),
                 lambda: nq.checkpoint.status(tmp_path / "a.json")):
        with pytest.raises(CheckpointError, match="Too many levels of symbolic links"):
            call()
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.json"]


def test_checkpoint_in_a_directory_that_refuses_files():
    # /proc refuses new files even to root, whose permission bits say it may write.
    with pytest.raises(CheckpointError, match="cannot write in directory"):
        nq.count_solutions(12, checkpoint="/proc/nqueens_numba_checkpoint.json")


def test_a_ctrl_c_swallowed_while_compiling_is_raised_after():
    """A compile that catches the KeyboardInterrupt of a Ctrl-C (numba's ctypes callbacks
    print it as ignored) does not eat it: it is raised when the compile ends."""
    import _thread

    from nqueens_numba import _progress

    def swallowing():
        try:
            _thread.interrupt_main()  # (a SIGINT to the main thread)
            time.sleep(0.5)
        except KeyboardInterrupt:
            pass  # as a ctypes callback does
        return "compiled"

    with pytest.raises(KeyboardInterrupt):
        _progress.compile_first(swallowing, "a test", notice=False)
    assert _progress.compile_first(lambda: None, "a test", notice=False) is None
