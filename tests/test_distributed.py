"""Counting on a Dask LocalCluster: same totals as locally, worker loss, checkpoints."""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import config
from nqueens_numba.checkpoint import CheckpointError, _checksum
from nqueens_numba.cli import main

from naive import solutions_with_constraints

distributed = pytest.importorskip("distributed")
dist = pytest.importorskip("nqueens_numba.distributed")

pytestmark = pytest.mark.dask

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]
A002562 = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233]


def make_cluster(**kwargs):
    # (a port of its own: the scheduler's web server takes 8787 by default even without a
    # dashboard, and warns, which fails the test, when a cluster already runs there)
    options = dict(n_workers=2, threads_per_worker=1, processes=True,
                   dashboard_address="127.0.0.1:0")
    return distributed.LocalCluster(**(options | kwargs))


@pytest.fixture(scope="module")
def client():
    with make_cluster() as cluster, distributed.Client(cluster) as c:
        yield c


def test_totals_equal_local(client):
    for n in range(0, 14):
        assert dist.count_solutions(client, n) == nq.count_solutions(n) == A000170[n]
    for n in range(1, 14):
        assert dist.count_solutions(client, n, fundamental=True) == A002562[n]
    assert dist.count_solutions(client, 12, method="halving") == A000170[12]


def test_small_counts_run_on_the_cluster(client, monkeypatch):
    """A count small enough to run in the calling thread locally (n <= 14) still runs on
    the workers: it was counted on the client, without a word, which a test of a cluster
    took for the cluster's answer."""
    submitted = []
    original_submit = client.submit
    monkeypatch.setattr(client, "submit", lambda *args, **kwargs: (
        submitted.append(1) or original_submit(*args, **kwargs)))
    for n, method in [(10, None), (13, None), (12, "halving")]:
        submitted.clear()
        assert dist.count_solutions(client, n, method=method) == A000170[n]
        assert submitted, (n, method)


def test_variant_totals_equal_local(client, tmp_path):
    for n, total in [(0, 1), (7, 28), (11, 88), (13, 4524), (24, 0), (63, 0)]:
        assert dist.count_solutions(client, n, torus=True) == total
    for n, total in [(10, 4), (12, 156), (13, 1876)]:
        assert dist.count_solutions(client, n, piece="superqueen", prefix_depth=2) == total
    assert dist.count_solutions(client, 13, piece="superqueen", fundamental=True) == 239
    path = tmp_path / "torus.json"
    assert dist.count_solutions(client, 13, torus=True, checkpoint=path) == 4524
    assert nq.count_solutions(13, torus=True, checkpoint=path) == 4524  # resumed locally
    with pytest.raises(ValueError, match="torus=True cannot be combined with pre-placed"):
        dist.count_solutions(client, 9, torus=True, preplaced={0: 1})


@pytest.mark.parametrize("depth, tasks", [(2, 1), (3, 4), (5, 50)])
def test_split_and_batches_do_not_change_the_total(client, depth, tasks):
    assert dist.count_solutions(client, 13, prefix_depth=depth, tasks_per_worker=tasks) == \
        A000170[13]


def test_counts_without_a_split_on_a_cluster_larger_than_this_machine():
    """Boards whose solutions are enumerated and classified (n <= 6, a torus's fundamental
    count) run in this process, on no more threads than it has, however many the cluster
    has."""
    from nqueens_numba import _validate

    threads = _validate.threads(None) + 2
    with distributed.LocalCluster(n_workers=1, threads_per_worker=threads, processes=False,
                                  dashboard_address="127.0.0.1:0") as cluster, \
            distributed.Client(cluster) as c:
        assert dist.count_solutions(c, 6, method="symmetric") == A000170[6]
        assert dist.count_solutions(c, 6, fundamental=True) == A002562[6]
        assert (dist.count_solutions(c, 7, torus=True, fundamental=True)
                == nq.count_solutions(7, torus=True, fundamental=True))


def test_validation(client):
    with pytest.raises(ValueError, match="tasks_per_worker"):
        dist.count_solutions(client, 10, tasks_per_worker=0)
    with pytest.raises(ValueError, match="symmetric"):
        dist.count_solutions(client, 10, method="halving", fundamental=True)
    with pytest.raises(ValueError, match=r"0\.\.63"):
        dist.count_solutions(client, 64)
    with pytest.raises(TypeError):
        dist.count_solutions(client, 10.0)
    for wrong in (None, "tcp://127.0.0.1:9"):
        with pytest.raises(TypeError, match="client must be a distributed.Client"):
            dist.count_solutions(wrong, 8)


def test_a_closed_client_is_named(client):
    closed = distributed.Client(client.scheduler.address)
    closed.close()
    with pytest.raises(RuntimeError, match="the client is closed, not running"):
        dist.count_solutions(closed, 10)


def test_checkpoint_resumes_distributed_and_locally(client, tmp_path, monkeypatch):
    path = tmp_path / "run.json"
    assert dist.count_solutions(client, 14, checkpoint=path) == A000170[14]
    data = json.loads(path.read_text())
    assert data["complete"]
    kept = data["finished"][: len(data["finished"]) // 3]
    data["finished"] = kept
    data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    submitted = []
    original = client.submit

    def counting_submit(func, *args, **kwargs):
        submitted.append(len(args[1]))  # the batch of states (after the job)
        return original(func, *args, **kwargs)

    monkeypatch.setattr(client, "submit", counting_submit)
    assert dist.count_solutions(client, 14, checkpoint=path) == A000170[14]
    assert sum(submitted) == data["split"]["n_subproblems"] - len(kept)
    # The same file resumes a local count too: the split is the same.
    path.write_text(json.dumps(data))
    assert nq.count_solutions(14, checkpoint=path) == A000170[14]


def test_constrained_counts_equal_local(client):
    for n, preplaced in [(6, {1: 3}), (8, {0: 0}), (10, {0: 1}), (11, {5: 5}),
                         (12, {0: 2, 3: 6})]:
        local = nq.count_solutions(n, preplaced=preplaced)
        assert dist.count_solutions(client, n, preplaced=preplaced) == local
        assert dist.count_solutions(client, n, preplaced=preplaced, prefix_depth=3,
                                    tasks_per_worker=3) == local
    assert dist.count_solutions(client, 6, preplaced={1: 3}) == len(
        solutions_with_constraints(6, preplaced={1: 3}))
    blocked = np.random.default_rng(3).random((8, 8)) < 0.15
    assert dist.count_solutions(client, 8, blocked=blocked) == len(
        solutions_with_constraints(8, blocked=blocked.tolist())) == \
        nq.count_solutions(8, blocked=blocked)


def test_constrained_errors_are_the_local_ones(client):
    for kwargs in [dict(fundamental=True, preplaced={0: 1}), dict(method="symmetric",
                                                                  blocked=np.eye(9, dtype=bool)),
                   dict(preplaced={0: 1, 1: 2}), dict(preplaced={0: 9})]:
        with pytest.raises(ValueError) as local:
            nq.count_solutions(9, **kwargs)
        with pytest.raises(ValueError) as remote:
            dist.count_solutions(client, 9, **kwargs)
        assert str(remote.value) == str(local.value)


def test_constrained_checkpoint_resumes_locally(client, tmp_path):
    path = tmp_path / "run.json"
    assert dist.count_solutions(client, 12, preplaced={1: 4}, checkpoint=path) == \
        nq.count_solutions(12, preplaced={1: 4})
    data = json.loads(path.read_text())
    assert data["complete"] and "constraints_sha256" in data["split"]
    kept = data["finished"][: len(data["finished"]) // 2]
    data["finished"] = kept
    data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    assert nq.count_solutions(12, preplaced={1: 4}, checkpoint=path) == \
        nq.count_solutions(12, preplaced={1: 4})
    with pytest.raises(nq.CheckpointError, match="another count"):
        dist.count_solutions(client, 12, preplaced={1: 5}, checkpoint=path)


def test_unreachable_scheduler_fails_fast():
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="cannot reach"):
        dist.connect("tcp://127.0.0.1:9", timeout=2)
    assert time.monotonic() - start < 30


def test_cli_scheduler(client, capsys):
    assert main(["count", "12", "--scheduler", client.scheduler.address]) == 0
    assert capsys.readouterr().out == "14200\n"
    assert main(["count", "11", "--fundamental", "--scheduler", client.scheduler.address]) == 0
    assert capsys.readouterr().out == "341\n"
    assert main(["count", "10", "--scheduler", "tcp://127.0.0.1:9",
                 "--scheduler-timeout", "2"]) == 1
    assert "cannot reach" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["count", "10", "--scheduler", client.scheduler.address, "--threads", "1"])


def test_cli_scheduler_with_constraints(client, capsys, tmp_path):
    address = client.scheduler.address
    assert main(["count", "10", "--preplace", "0:1,4:6", "--scheduler", address]) == 0
    assert capsys.readouterr().out == f"{nq.count_solutions(10, preplaced={0: 1, 4: 6})}\n"
    blocked = np.zeros((9, 9), dtype=bool)
    blocked[4, 2:7] = True
    np.save(tmp_path / "b.npy", blocked)
    assert main(["count", "9", "--blocked", str(tmp_path / "b.npy"), "--scheduler",
                 address]) == 0
    assert capsys.readouterr().out == f"{nq.count_solutions(9, blocked=blocked)}\n"


@pytest.mark.slow
def test_worker_killed_mid_count(tmp_path, monkeypatch):
    """Kill one worker's process while n = 15 is counting: the total stays exact."""
    monkeypatch.setattr(config, "CHECKPOINT_SECONDS", 0.0)
    path = tmp_path / "run.json"
    # A second cluster beside the module's: its own ports, so that none is taken twice.
    with make_cluster(scheduler_port=0, dashboard_address="127.0.0.1:0") as cluster, \
            distributed.Client(cluster) as c:
        c.run(lambda: nq.count_solutions(9))  # workers import and load the kernels
        pids = c.run(os.getpid)
        result = {}

        def count():
            result["total"] = dist.count_solutions(c, 15, method="halving", prefix_depth=5,
                                                   tasks_per_worker=100, checkpoint=path)

        worker = threading.Thread(target=count)
        worker.start()
        killed = False
        deadline = time.monotonic() + 120
        while worker.is_alive() and time.monotonic() < deadline and not killed:
            if path.exists():
                data = json.loads(path.read_text())
                if 0 < len(data["finished"]) < data["split"]["n_subproblems"]:
                    os.kill(next(iter(pids.values())), signal.SIGKILL)
                    killed = True
            time.sleep(0.005)
        worker.join(timeout=180)
        assert killed, "the count ended before a worker could be killed"
        assert result["total"] == A000170[15]
        assert set(c.run(os.getpid).values()) != set(pids.values())  # a worker was replaced


def test_searches_in_progress_of_a_local_count_finish_on_dask(client, tmp_path, monkeypatch):
    """A local count stopped with searches in progress (saved stacks) is finished by the
    cluster, which continues those searches from their stacks."""
    from nqueens_numba import _kernels

    path = tmp_path / "run.json"
    monkeypatch.setattr(config, "COUNT_BUDGET", 2)
    monkeypatch.setattr(config, "DIRECT_SOLUTIONS", 0)
    original = _kernels._count_symmetric_run
    calls = []

    def stop_later(*args):
        if len(args[1]):
            calls.append(1)
            if len(calls) > 40:
                raise KeyboardInterrupt
        return original(*args)

    with monkeypatch.context() as patch:
        patch.setattr(_kernels, "_count_symmetric_run", stop_later)
        with pytest.raises(KeyboardInterrupt, match="more in progress"):
            nq.count_solutions(12, n_threads=2, prefix_depth=2, checkpoint=path)
    saved = json.loads(path.read_text())["in_progress"]
    assert saved
    submitted = []
    original_submit = client.submit
    monkeypatch.setattr(client, "submit", lambda func, job, states, piece, *args, **kwargs: (
        submitted.append((piece.index, piece.started)) or original_submit(
            func, job, states, piece, *args, **kwargs)))
    assert dist.count_solutions(client, 12, checkpoint=path) == A000170[12]
    continued = [index for index, started in submitted if started]
    assert sorted(continued) == sorted(entry[0] for entry in saved for _ in entry[2])
    assert nq.checkpoint.status(path)["complete"]


def test_dask_tasks_return_their_search_in_progress(client, tmp_path, monkeypatch):
    """Tasks of a fraction of a second return their searches in progress, which new tasks
    continue (and cut in two when threads idle): the total stays exact, and a checkpoint
    written meanwhile records searches in progress."""
    monkeypatch.setattr(config, "DASK_TASK_SECONDS", 0.0)  # one kernel call per task
    path = tmp_path / "run.json"
    saved = []
    original_save = nq.checkpoint.Checkpoint.save

    def save(self, snapshot=None):
        original_save(self, snapshot)
        with open(self.path) as file:
            saved.append(len(json.load(file)["in_progress"]))

    monkeypatch.setattr(nq.checkpoint.Checkpoint, "save", save)
    assert dist.count_solutions(client, 15, prefix_depth=2, tasks_per_worker=1,
                                checkpoint=path, checkpoint_every=0) == A000170[15]
    assert max(saved) >= 1 and saved[-1] == 0


def test_a_count_on_a_cluster_without_workers_yet_waits_for_one(monkeypatch):
    """A cluster just started, its workers not yet joined: the count waited for none and
    raised "the Dask cluster has no workers". It waits, says so after
    config.DASK_NO_WORKER_SECONDS, and counts on the workers that join; with warnings made
    errors it stops there, before anything is submitted."""
    import warnings

    monkeypatch.setattr(config, "DASK_NO_WORKER_SECONDS", 0.5)
    with make_cluster(n_workers=0, processes=False) as cluster, distributed.Client(cluster) as c:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(RuntimeWarning, match=r"count of n=12, preplaced=\{0: 3\} on "
                               r"Dask: the cluster has had no worker for 0.5 s; the count "
                               r"waits for one to join \(Ctrl-C stops it\)$"):
                dist.count_solutions(c, 12, preplaced={0: 3})
        result = {}

        def count():
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                result["total"] = dist.count_solutions(c, 12, preplaced={0: 3})
            result["said"] = [str(w.message) for w in said]

        counting = threading.Thread(target=count)
        counting.start()
        time.sleep(1.5)
        assert counting.is_alive()
        cluster.scale(2)
        counting.join(timeout=60)
        assert not counting.is_alive()
    assert result["total"] == nq.count_solutions(12, preplaced={0: 3})
    assert result["said"] == ["count of n=12, preplaced={0: 3} on Dask: the cluster has had "
                              "no worker for 0.5 s; the count waits for one to join (Ctrl-C "
                              "stops it)"]


def test_a_cluster_without_workers_checks_first_and_waits_only_for_work_to_send(monkeypatch,
                                                                                  capfd):
    """Bad arguments are refused, and counts that need no worker (n = 0, the symmetric count
    of n <= 6, a torus's fundamental count) answered, at once, with their bar; with
    device="cuda", the workers' GPUs are waited for; a client closed while the count waits
    is named."""
    import warnings

    with make_cluster(n_workers=0, processes=False) as cluster, distributed.Client(cluster) as c:
        with pytest.raises(ValueError, match="method must be"):
            dist.count_solutions(c, 10, method="bogus")
        with pytest.raises(ValueError, match="prefix_depth"):
            dist.count_solutions(c, 10, prefix_depth=40)
        assert dist.count_solutions(c, 0) == 1
        assert dist.count_solutions(c, 6, method="symmetric") == A000170[6]
        assert (dist.count_solutions(c, 7, torus=True, fundamental=True)
                == nq.count_solutions(7, torus=True, fundamental=True))
        capfd.readouterr()
        assert dist.count_solutions(c, 6, method="symmetric", progress=True) == A000170[6]
        assert "solve n=6: 100%" in capfd.readouterr().err  # (its bar, as locally)
        with monkeypatch.context() as patch, warnings.catch_warnings():
            patch.setattr(config, "DASK_NO_WORKER_SECONDS", 0.2)
            warnings.simplefilter("error")
            with pytest.raises(RuntimeWarning, match="no worker"):
                dist.count_solutions(c, 0, device="cuda")
        result = {}

        def count():
            try:
                dist.count_solutions(c, 10)
            except RuntimeError as exc:
                result["error"] = str(exc)

        counting = threading.Thread(target=count)
        counting.start()
        time.sleep(1)
        c.close()
        counting.join(timeout=30)
        assert not counting.is_alive()
    assert re.fullmatch(r"the client is (closed|closing), not running: connect again \(see "
                        r"connect\)", result["error"]), result


@pytest.mark.slow
def test_a_count_left_without_workers_says_so_and_goes_on_when_one_joins(monkeypatch,
                                                                          tmp_path):
    """The only worker lost: the count's tasks waited for another, without a word (Dask's
    log said "Couldn't gather keys"), which looked like a hang. The calling thread says so;
    with warnings made errors, the count stops there, its checkpoint saved."""
    import warnings

    monkeypatch.setattr(config, "DASK_NO_WORKER_SECONDS", 1.0)
    monkeypatch.setattr(config, "DASK_TASK_SECONDS", 0.2)
    path = tmp_path / "run.json"
    with make_cluster(n_workers=1, processes=False) as cluster, distributed.Client(cluster) as c:
        for action in ("always", "error"):
            result = {}

            def count():
                with warnings.catch_warnings(record=True) as said:
                    warnings.simplefilter(action)
                    try:
                        result["total"] = dist.count_solutions(c, 17, checkpoint=path)
                    except RuntimeWarning as exc:
                        result["error"] = str(exc)
                result["said"] = [str(w.message) for w in said]

            counting = threading.Thread(target=count)  # (seconds: it runs on)
            counting.start()
            time.sleep(1)
            cluster.scale(0)
            counting.join(timeout=30 if action == "error" else 6)
            assert counting.is_alive() == (action == "always"), result
            cluster.scale(1)
            counting.join(timeout=300)
            assert not counting.is_alive()
            said = result.get("error") or result["said"][0]
            assert said == ("count of n=17 on Dask: the cluster has had no worker for 1 s; the "
                            "count waits for one to join (Ctrl-C stops it; a checkpoint keeps "
                            "what is done)")
            if action == "always":
                assert result["total"] == 95815104 and len(result["said"]) == 1
                path.unlink()
            else:
                assert "total" not in result and not nq.checkpoint.status(path)["complete"]
        c.wait_for_workers(1)
        assert dist.count_solutions(c, 17, checkpoint=path) == 95815104


def test_a_ctrl_c_while_a_search_is_cut_in_two_saves_both_halves(client, tmp_path,
                                                                 monkeypatch):
    """A Ctrl-C between the two records of a search cut in two for an idle worker (the half
    kept, the half given away) saved the first alone: the resumed count lost the other
    (1,326,014 superqueens of n = 17, not 1,330,622). A result is now recorded whole. (One
    subproblem, a pre-placed queen's, on two workers: the first task to return is cut.)"""
    import signal

    from nqueens_numba import _pieces, _runner

    path = tmp_path / "run.json"
    kwargs = dict(preplaced={0: 7}, prefix_depth=1, checkpoint=path)
    monkeypatch.setattr(config, "DASK_TASK_SECONDS", 0.02)
    cut, signalled = [], []
    split, update = _pieces.Piece.split, _runner.Tracker.update

    def cut_in_two(self):
        new = split(self)
        cut.append(new is not None)
        return new

    def updated(self, key, piece):
        update(self, key, piece)
        if cut and cut[-1] and not signalled:
            signalled.append(1)
            signal.raise_signal(signal.SIGINT)  # (as a Ctrl-C: a handler between two lines)

    monkeypatch.setattr(_pieces.Piece, "split", cut_in_two)
    monkeypatch.setattr(_runner.Tracker, "update", updated)
    with pytest.raises(KeyboardInterrupt, match="more in progress"):
        dist.count_solutions(client, 16, **kwargs)
    monkeypatch.undo()
    assert signalled
    assert nq.count_solutions(16, **kwargs) == nq.count_solutions(16, preplaced={0: 7})


def test_a_count_whose_tasks_the_cluster_cancels_says_so(tmp_path):
    """A restart, a lost scheduler or a closed client cancel the tasks: Dask's error named
    none of that, nor the checkpoint that keeps what was done."""
    from distributed.client import FutureCancelledError

    from nqueens_numba import _runner, _split
    from nqueens_numba.checkpoint import Checkpoint

    split = _split.count_split(12, "symmetric", 1)
    with Checkpoint(tmp_path / "run.json", split.checkpoint_id, split.width) as opened:
        tracker = _runner.Tracker(split, opened, where=" on Dask")
        error = dist._stopped_by(FutureCancelledError("_advance-1f", "scheduler-restart"),
                                 tracker)
    assert isinstance(error, RuntimeError)
    assert re.fullmatch(r"count of n=12 on Dask stopped: the Dask cluster cancelled its tasks "
                        r"\(scheduler-restart\) after 0 of \d+ subproblems; progress saved to "
                        r"'.*run\.json': call again with the same arguments to resume",
                        str(error)), str(error)
    other = ValueError("a task's own error")
    assert dist._stopped_by(other, tracker) is other


def test_malformed_scheduler_address_is_named():
    with pytest.raises(ValueError, match="'foo:bar' is not a scheduler address: give "
                                         "'tcp://HOST:PORT'"):
        dist.connect("foo:bar", timeout=2)


def test_a_task_of_a_stopped_count_returns_after_its_kernel_call(monkeypatch):
    """Workers in the client's process (``connect("local")``) see their count stopped and
    return their progress after one kernel call, so that closing the cluster does not wait
    for the rest of their task (``config.DASK_TASK_SECONDS``); another count's tasks go on.
    """
    from nqueens_numba import _split

    split = _split.count_split(13, "halving", 2, prefix_depth=3)
    states = np.ascontiguousarray(split.states)
    job = split.job
    monkeypatch.setattr(dist, "_stopped", {"stopped"})
    counts, done, piece = dist._advance(job, states, job.piece(0), 60.0, 1 << 8, "stopped")
    assert 0 < done + piece.started < len(states)  # one call of 256 steps, not the batch
    counts, done, piece = dist._advance(job, states, job.piece(0), 60.0, 1 << 8, "running")
    assert done == len(states)
    assert split.total(counts) == A000170[13]


@pytest.mark.slow
def test_ctrl_c_stops_a_local_cluster_count_cleanly(tmp_path):
    """A terminal's Ctrl-C (SIGINT to the whole process group) stops a count on
    ``--scheduler local`` with one message, no worker's traceback or Dask warning, and the
    same command resumes it to the right total."""
    path = tmp_path / "n16.json"
    cmd = [sys.executable, "-m", "nqueens_numba", "count", "16", "--method", "halving",
           "--scheduler", "local", "--checkpoint", str(path)]
    run = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not path.exists() and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=60)
    if run.returncode == 0:
        pytest.skip("the count finished before the interruption")
    assert run.returncode == 130, err
    assert "Traceback" not in err and "WARNING" not in err and "ERROR" not in err, err
    assert "progress saved to" in err and out == ""
    resumed = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "14772512\n"


def test_the_empty_board_checks_the_checkpoint_given_on_dask_too(client, tmp_path):
    """(On Dask, n = 0 took any file: a directory, a damaged one.)"""
    damaged = tmp_path / "damaged.json"
    damaged.write_text("")
    for given, says in [(tmp_path, "is a directory"), (damaged, "is damaged")]:
        with pytest.raises(CheckpointError, match=says):
            dist.count_solutions(client, 0, checkpoint=given)
    assert dist.count_solutions(client, 0, checkpoint=tmp_path / "new.json") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.json"]


def test_a_local_cluster_takes_a_free_port_quietly(capfd):
    """``--scheduler local`` beside another cluster on Dask's default port (8787) says
    nothing of ports (Dask logged 'Port 8787 is already in use')."""
    import socket

    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 8787))
        taken.listen()
    except OSError:
        pass  # (taken already)
    try:
        assert main(["count", "10", "--scheduler", "local"]) == 0
    finally:
        taken.close()
    out, err = capfd.readouterr()
    assert out.strip() == "724" and "8787" not in err and "Port" not in err, err


def test_a_local_cluster_has_a_worker_per_core():
    """``connect("local")`` (``--scheduler local``) made one worker (Dask's choice for
    workers in its process): one core counted, where its docstring says one per core."""
    from nqueens_numba import _validate

    client = dist.connect("local")
    try:
        assert list(client.nthreads().values()) == [1] * _validate.threads(None)
    finally:
        client.close()
        client.nqueens_cluster.close()
