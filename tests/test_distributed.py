"""Counting on a Dask LocalCluster: same totals as locally, worker loss, checkpoints."""
import json
import os
import signal
import threading
import time

import pytest

import nqueens_numba as nq
from nqueens_numba import config
from nqueens_numba.checkpoint import _checksum
from nqueens_numba.cli import main

distributed = pytest.importorskip("distributed")
dist = pytest.importorskip("nqueens_numba.distributed")

pytestmark = pytest.mark.dask

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]
A002562 = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233]


def make_cluster(**kwargs):
    options = dict(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
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


@pytest.mark.parametrize("depth, tasks", [(2, 1), (3, 4), (5, 50)])
def test_split_and_batches_do_not_change_the_total(client, depth, tasks):
    assert dist.count_solutions(client, 13, prefix_depth=depth, tasks_per_worker=tasks) == \
        A000170[13]


def test_validation(client):
    with pytest.raises(ValueError, match="tasks_per_worker"):
        dist.count_solutions(client, 10, tasks_per_worker=0)
    with pytest.raises(ValueError, match="symmetric"):
        dist.count_solutions(client, 10, method="halving", fundamental=True)
    with pytest.raises(ValueError, match=r"0\.\.63"):
        dist.count_solutions(client, 64)
    with pytest.raises(TypeError):
        dist.count_solutions(client, 10.0)


def test_checkpoint_resumes_distributed_and_locally(client, tmp_path, monkeypatch):
    path = tmp_path / "run.json"
    assert dist.count_solutions(client, 14, checkpoint=path) == A000170[14]
    data = json.loads(path.read_text())
    assert data["complete"]
    kept = data["finished"][: len(data["finished"]) // 3]
    data["finished"] = kept
    data["sha256"] = _checksum(data["split"], kept)
    path.write_text(json.dumps(data))
    submitted = []
    original = client.submit

    def counting_submit(func, *args, **kwargs):
        submitted.append(len(args[0]))  # the batch of states
        return original(func, *args, **kwargs)

    monkeypatch.setattr(client, "submit", counting_submit)
    assert dist.count_solutions(client, 14, checkpoint=path) == A000170[14]
    assert sum(submitted) == data["split"]["n_subproblems"] - len(kept)
    # The same file resumes a local count too: the split is the same.
    path.write_text(json.dumps(data))
    assert nq.count_solutions(14, checkpoint=path) == A000170[14]


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
