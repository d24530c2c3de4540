"""GPU counts (``device="cuda"``): the CUDA kernels run under numba's CUDA simulator.

``NUMBA_ENABLE_CUDASIM=1`` must be set before numba is imported, so the simulated counts run
in a subprocess each (a few checks per process: each starts numba). They compare the GPU
kernels' rows with the CPU kernels' and the counts with OEIS, and check that checkpoints
move between the devices. The tests marked ``gpu`` need a real GPU and numba-cuda and are
skipped without them; the errors without a GPU are checked here in this process.
"""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import _device, config

A000170 = config.A000170
A002562 = (1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752)


def simulate(code, tmp_path, timeout=600):
    """Run ``code`` under the CUDA simulator in a new process; return the JSON object of its
    last line of output. (The largest take 1-2 minutes on a loaded 2-core machine: the
    timeout only catches a hang.)"""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONWARNINGS="error")
    prelude = ("import json, numpy as np\nimport nqueens_numba as nq\n"
               "from nqueens_numba import config, _split, _runner, _gpu, checkpoint\n"
               "config.GPU_BLOCK = 8\n")
    done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# The simulator runs each GPU thread as a Python thread: the tests that simulate more than a
# few seconds run with the slow tests; the default run keeps this one's small boards.
@pytest.mark.parametrize("largest, classes, launches", [
    (8, {"8": 11, "4": 1}, 100),  # 12 classes, 92 solutions
    pytest.param(10, {"8": 1765, "4": 18, "2": 4}, 1000, marks=pytest.mark.slow)])  # of 12
def test_every_method_counts_as_oeis_says(tmp_path, largest, classes, launches):
    found = simulate(f"""
        launched = []
        _gpu.after_launch = lambda device, n_done: launched.append(n_done)
        out = {{"total": [], "halving": [], "fundamental": []}}
        for n in range(1, {largest} + 1):
            out["total"].append(nq.count_solutions(n, device="cuda"))
            out["halving"].append(nq.count_solutions(n, device="cuda", method="halving"))
            out["fundamental"].append(nq.count_solutions(n, device="cuda", fundamental=True))
        out["classes"] = nq.symmetry_classes({largest + 2 if largest > 8 else 8},
                                             device="cuda")
        out["launched"] = sum(launched)
        print(json.dumps(out))
    """, tmp_path)
    assert found["total"] == list(A000170[1:largest + 1])
    assert found["halving"] == list(A000170[1:largest + 1])
    assert found["fundamental"] == list(A002562[1:largest + 1])
    assert found["classes"] == classes
    assert found["launched"] > launches  # the subproblems were counted on the (simulated) GPU


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_each_subproblem_has_the_cpu_kernels_results(tmp_path, sizes=(10, 11)):
    """The GPU kernels write, row by row, what the CPU kernels write (every method, both
    boards, constraints, shallow and deep prefixes): the same checkpoint rows."""
    found = simulate(f"""
        from nqueens_numba.board import board_of
        from nqueens_numba.constraints import check_constraints
        cases = [(n, m, d, piece, None) for n in {sizes} for m, d in (("halving", 1),
                 ("symmetric", 2), ("halving", None), ("symmetric", None))
                 for piece in ("queen", "superqueen")]
        blocked = np.eye(10, dtype=bool)
        cases += [(10, "halving", 1, "queen", check_constraints(10, {{3: 4}}, None)),
                  (10, "halving", 2, "queen", check_constraints(10, None, blocked)),
                  (10, "halving", 1, "queen", check_constraints(10, {{0: 0, 9: 8}}, None))]
        out = []
        launched = []
        _gpu.after_launch = lambda device, n_done: launched.append(n_done)
        for n, method, depth, piece, cons in cases:
            plan = _split.plan_count(n, board_of(piece), method=method, constraints=cons,
                                     prefix_depth=depth, device="cuda")
            split = plan.split
            before = sum(launched)
            gpu = _runner.execute(split, _gpu.CudaDevices([0]))
            cpu = split.job(split.states)
            out.append([n, method, split.depth, len(split.states), sum(launched) - before,
                        bool(np.array_equal(gpu, cpu)), split.total(gpu), split.total(cpu)])
        print(json.dumps(out))
    """, tmp_path)
    assert len(found) == 8 * len(sizes) + 3
    for n, method, depth, states, on_gpu, same, gpu, cpu in found:
        assert states > 0 and on_gpu == states and same and gpu == cpu, (n, method, depth)
    totals = {10: [724, 4] * 4, 11: [2680, 44] * 4}  # queens, superqueens by each method
    assert [row[6] for row in found[:-3]] == [t for n in sizes for t in totals[n]]


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_several_gpus_share_the_subproblems(tmp_path):
    """One host thread per GPU (here twice the simulator's one device, which runs their
    launches in turns), each taking launches from the same subproblems: every subproblem
    counted once, by one of them."""
    found = simulate("""
        config.GPU_LAUNCH_SECONDS = 1e-3
        seen = []
        _gpu.after_launch = lambda device, n_done: seen.append(n_done)
        plan = _split.plan_count(11, method="symmetric", prefix_depth=3, device="cuda")
        executor = _gpu.CudaDevices([0, 0])
        results = _runner.execute(plan.split, executor)
        same = bool(np.array_equal(results, plan.split.job(plan.split.states)))
        print(json.dumps(dict(same=same, total=plan.split.total(results), seen=seen,
                              states=len(plan.split.states), where=executor.where)))
    """, tmp_path)
    assert found["same"] and found["total"] == 2680
    assert sum(found["seen"]) == found["states"] and len(found["seen"]) > 2
    assert found["where"] == " on 2 GPUs"


@pytest.mark.slow  # (the CUDA simulator: seconds)
@pytest.mark.dask
def test_dask_batches_run_on_the_workers_gpus(tmp_path):
    """``distributed.count_solutions(client, n, device="cuda")``: the batches are counted
    by the GPU kernels on the workers that have a GPU (here an in-process worker with the
    simulator), with the same totals as a local count."""
    found = simulate("""
        from distributed import Client, LocalCluster
        from nqueens_numba import distributed as dist
        original = _gpu.count_states

        def counting(job, states, device=0, **timing):  # (Dask copies it: notes in a file)
            with open("counted.txt", "a") as notes:
                notes.write(f"{len(states)}\\n")
            return original(job, states, device, **timing)

        _gpu.count_states = counting
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                          dashboard_address="127.0.0.1:0") as cluster, \
                Client(cluster) as client:
            workers = dist.gpu_workers(client)
            out = [dist.count_solutions(client, 11, device="cuda"),
                   dist.count_solutions(client, 11, device="cuda", fundamental=True),
                   dist.count_solutions(client, 10, device="cuda", preplaced={3: 4},
                                        checkpoint="run.json")]
        status = checkpoint.status("run.json")
        with open("counted.txt") as notes:
            counted = [int(line) for line in notes]
        print(json.dumps(dict(workers=len(workers), out=out, counted=sum(counted),
                              complete=status["complete"])))
    """, tmp_path)
    assert found["workers"] == 1
    assert found["out"] == [2680, 341, nq.count_solutions(10, preplaced={3: 4})]
    assert found["counted"] > 0 and found["complete"]


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_a_timed_launch_takes_no_subproblem_after_its_time(tmp_path):
    """``count_states(..., seconds=)`` ends its launch softly: the rows finished are the CPU
    kernel's, the others are left (-1), and a count stopped meanwhile leaves its
    subproblems under way too."""
    found = simulate("""
        from nqueens_numba._job import CountJob
        split = _split.plan_count(11, _split.QUEEN, method="halving", prefix_depth=3,
                                  n_threads=1).split
        job, states = split.job, split.states
        cpu = job(states)
        out = {}
        for name, kwargs in [("timed", dict(seconds=0.3)), ("whole", {}),
                             ("stopped", dict(stopped=lambda: True))]:
            rows = _gpu.count_states(job, states, **kwargs)
            done = rows[:, 0] >= 0
            out[name] = [int(done.sum()), len(states),
                         bool(np.array_equal(rows[done], cpu[done]))]
        print(json.dumps(out))
    """, tmp_path)
    assert 0 < found["timed"][0] < found["timed"][1] and found["timed"][2], found
    assert found["whole"][0] == found["whole"][1] and found["whole"][2]
    assert found["stopped"][0] < found["stopped"][1] and found["stopped"][2]


@pytest.mark.slow  # (the CUDA simulator: seconds)
@pytest.mark.dask
def test_dask_gpu_tasks_end_after_their_time_and_the_rest_goes_on(tmp_path):
    """A Dask GPU task takes no subproblem after ``config.DASK_TASK_SECONDS``: what it left
    goes into the next task, the checkpoint records the subproblems as they come back, and
    the total is exact."""
    found = simulate("""
        from distributed import Client, LocalCluster
        from nqueens_numba import distributed as dist
        config.DASK_TASK_SECONDS = 0.3
        original = _gpu.count_states

        def counting(job, states, device=0, **timing):  # (notes in a file: Dask copies it)
            rows = original(job, states, device, **timing)
            with open("counted.txt", "a") as notes:
                notes.write(f"{len(states)} {int((rows[:, 0] >= 0).sum())}\\n")
            return rows

        _gpu.count_states = counting
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                          dashboard_address="127.0.0.1:0") as cluster, \\
                Client(cluster) as client:
            total = dist.count_solutions(client, 11, method="halving", prefix_depth=3,
                                         device="cuda", checkpoint="run.json",
                                         tasks_per_worker=1)
        with open("counted.txt") as notes:
            tasks = [[int(x) for x in line.split()] for line in notes]
        print(json.dumps(dict(total=total, tasks=tasks,
                              complete=checkpoint.status("run.json")["complete"])))
    """, tmp_path)
    tasks = found["tasks"]
    assert found["total"] == 2680 and found["complete"]
    assert any(done < given for given, done in tasks), tasks  # a task ended on time
    assert sum(done for _, done in tasks) == tasks[0][0]  # each subproblem counted once


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_constraints_and_superqueens(tmp_path):
    found = simulate("""
        blocked = np.eye(10, dtype=bool)
        out = [nq.count_solutions(10, device="cuda", preplaced={3: 4}),
               nq.count_solutions(10, preplaced={3: 4}),
               nq.count_solutions(10, device="cuda", blocked=blocked),
               nq.count_solutions(10, blocked=blocked),
               nq.count_solutions(11, device="cuda", piece="superqueen"),
               nq.count_solutions(12, device="cuda", piece="superqueen", fundamental=True)]
        print(json.dumps(out))
    """, tmp_path)
    assert found[0] == found[1] and found[2] == found[3] and found[0] > 0
    assert found[4:] == [44, 22]  # OEIS A051223, A051224


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_large_boards_with_few_free_rows(tmp_path):
    """n = 31 (32-bit stack words, the highest column in bit 30) and n = 40, 63 (64-bit
    words): a solution with eight rows left free counts as on the CPU."""
    found = simulate("""
        out = []
        for n in (31, 40, 63):
            queens = nq.construct(n)
            preplaced = {r: int(queens[r]) for r in range(n) if not 3 <= r < 11}
            out.append([nq.count_solutions(n, device="cuda", preplaced=preplaced),
                        nq.count_solutions(n, preplaced=preplaced)])
        print(json.dumps(out))
    """, tmp_path)
    for gpu, cpu in found:
        assert gpu == cpu >= 1


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_deep_subproblems_of_the_largest_32_bit_board(tmp_path):
    """n = 31, the largest board of 32-bit words (the highest column in bit 30): each
    kernel's rows on deep subproblems, with completions, are the CPU kernel's. The prefixes
    are the first rows of solutions (for the symmetric search, of the image it counts) and
    random superqueen prefixes."""
    found = simulate("""
        from nqueens_numba._job import CountJob
        from nqueens_numba.board import board_of
        from nqueens_numba.symmetry import images
        n, m, depth = 31, 30, 22
        full = (1 << n) - 1

        def symmetric_allow(row, b):  # the squares the symmetric search allows in a row
            if row == m:
                near = (1 << (b + 1)) - 1
                return near | (near << (m - b))
            return full & ~(1 | 1 << m) if b < row < m - b else full

        def state(queens):
            cols = diag = anti = 0
            for q in queens:
                bit = 1 << int(q)
                cols, diag, anti = cols | bit, ((diag | bit) << 1) & full, (anti | bit) >> 1
            return [cols, diag, anti] + [int(q) for q in queens]

        whole, halved = [], []
        for seed in range(6):
            solution = nq.find_solution(n, seed=seed)
            halved.append(state(solution[:depth]))
            for image in images(solution):
                b = int(image[0])
                if b < m - b and all(symmetric_allow(r, b) >> int(image[r]) & 1
                                     for r in range(1, n)):
                    whole.append(state(image[:depth]))
        rng = np.random.default_rng(1)
        knights = []
        while len(knights) < 4:  # superqueen prefixes of 19 rows
            queens, b = [], int(rng.integers(0, 15))
            for r in range(19):
                ok = [c for c in range(n) if (r or c == b) and (r == 0 or symmetric_allow(
                      r, b) >> c & 1) and all(c != q and abs(c - q) != r - s and not (
                      r - s <= 2 and abs(c - q) + r - s == 3) for s, q in enumerate(queens))]
                if not ok:
                    break
                queens.append(int(rng.choice(ok)))
            else:
                knights.append(state(queens))
        out = []
        for states, job in [
                (whole, CountJob(n, depth, "symmetric")),
                (halved, CountJob(n, depth, "halving", np.full(n, full, np.int64))),
                (knights, CountJob(n, 19, "symmetric", board=board_of("superqueen")))]:
            states = np.array(states, dtype=np.int64)
            cpu = job(states)
            out.append([len(states), bool(np.array_equal(cpu, _gpu.count_states(job, states))),
                        int(np.count_nonzero(cpu.sum(axis=1)))])
        print(json.dumps(out))
    """, tmp_path)
    symmetric, halving, superqueens = found
    assert symmetric[0] >= 6 and symmetric[1] and symmetric[2] == symmetric[0]
    assert halving == [6, True, 6]
    assert superqueens[:2] == [4, True] and superqueens[2] >= 1


INTERRUPTED = """
    import sys
    path = "run.json"
    config.GPU_LAUNCH_SECONDS = 1e-4  # small launches: many places to stop
    launches = []

    def stop_after(device, n_done):
        launches.append(n_done)
        if len(launches) == {stops}:
            raise KeyboardInterrupt

    _gpu.after_launch = stop_after
    try:
        nq.count_solutions({n}, device="cuda", checkpoint=path, **{kwargs})
        sys.exit("not interrupted")
    except KeyboardInterrupt as exc:
        message = str(exc)
    saved = checkpoint.status(path)
    _gpu.after_launch = lambda device, n_done: launches.append(n_done)
    before = len(launches)
"""


@pytest.mark.slow  # (the CUDA simulator: seconds)
@pytest.mark.parametrize("n, kwargs, expected", [
    (11, dict(method="halving", prefix_depth=2), 2680),
    (11, dict(fundamental=True, prefix_depth=3), 341),
    (10, dict(preplaced={3: 4}, prefix_depth=2), nq.count_solutions(10, preplaced={3: 4})),
])
def test_an_interrupted_gpu_count_resumes_exactly_on_the_gpu_and_cpu(tmp_path, n, kwargs,
                                                                     expected):
    """Stopped between two launches, the checkpoint holds exactly the subproblems those
    launches finished; resumed on the GPU the count runs only the others, and the same
    file resumed on the CPU gives the same count."""
    found = simulate(INTERRUPTED.format(stops=3, n=n, kwargs=kwargs) + f"""
    import shutil
    shutil.copy(path, "cpu.json")
    total = nq.count_solutions({n}, device="cuda", checkpoint=path, **{kwargs})
    on_cpu = nq.count_solutions({n}, checkpoint="cpu.json", **{kwargs})
    print(json.dumps(dict(message=message, saved=saved, stopped=launches[:before],
                          resumed=launches[before:], total=total, on_cpu=on_cpu,
                          status=checkpoint.status(path))))
    """, tmp_path)
    assert "interrupted after" in found["message"] and "resume" in found["message"]
    saved = found["saved"]
    assert saved["finished"] == sum(found["stopped"]) and saved["in_progress"] == 0
    assert 0 < saved["finished"] < saved["total_subproblems"]
    assert sum(found["resumed"]) == saved["total_subproblems"] - saved["finished"]
    assert found["total"] == found["on_cpu"] == expected
    assert found["status"]["complete"]


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_a_cpu_checkpoint_with_searches_in_progress_resumes_on_the_gpu(tmp_path):
    """A CPU count stopped midway (searches in progress saved as stacks) goes on on the
    GPU: the stacks finish on the CPU, the subproblems not started on the GPU."""
    found = simulate("""
        from nqueens_numba import _kernels
        config.COUNT_BUDGET = 3
        config.DIRECT_SOLUTIONS = 0
        original = _kernels._count_symmetric_run
        calls = []

        def stopping(*args):
            if len(args[1]):
                calls.append(1)
                if len(calls) >= 8:
                    raise KeyboardInterrupt
            return original(*args)

        _kernels._count_symmetric_run = stopping
        try:
            nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint="run.json")
        except KeyboardInterrupt:
            pass
        _kernels._count_symmetric_run = original
        saved = checkpoint.status("run.json")
        launched = []
        _gpu.after_launch = lambda device, n_done: launched.append(n_done)
        total = nq.count_solutions(12, device="cuda", checkpoint="run.json")
        print(json.dumps(dict(saved=saved, launched=launched, total=total)))
    """, tmp_path)
    saved = found["saved"]
    assert saved["in_progress"] >= 1 and not saved["complete"]
    assert sum(found["launched"]) == (saved["total_subproblems"] - saved["finished"]
                                      - saved["in_progress"])
    assert found["total"] == 14200


@pytest.mark.slow  # (the CUDA simulator: seconds)
@pytest.mark.parametrize("method, expected", [("symmetric", 2680), ("halving", 2680)])
def test_ctrl_c_stops_a_running_launch(tmp_path, method, expected):
    """Ctrl-C during a launch that holds every subproblem left sets its stop flag: the
    kernel's threads leave their subproblems (here on the way back up too: ``STOP_ROWS``
    lowered so that the small board's searches look), the rows finished before are saved,
    the others are not, and the count resumes exactly, on the GPU and on the CPU."""
    found = simulate(f"""
        import os, shutil, signal, threading
        from nqueens_numba._kernels import gpu
        gpu.STOP_ROWS = 2
        config.GPU_LAUNCH_SECONDS = 1e6  # (the second launch takes all that is left)
        launches = []
        _gpu.after_launch = lambda device, n_done: launches.append(n_done)

        plain = _gpu._Rows

        class Rows(plain):  # (made as a launch starts)
            def __init__(self, out, count):
                super().__init__(out, count)
                if launches:  # Ctrl-C during the second launch
                    threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()

        _gpu._Rows = Rows
        for attempt in range(3):  # (a machine too busy to take the signal before the launch
            launches.clear()      # ends: "interrupted once all 291 subproblems were counted")
            if os.path.exists("run.json"):
                os.remove("run.json")
            try:
                nq.count_solutions(11, method="{method}", prefix_depth=3, device="cuda",
                                   checkpoint="run.json")
                message = "not interrupted"
            except KeyboardInterrupt as exc:
                message = str(exc)
            if "interrupted after" in message:
                break
        saved = checkpoint.status("run.json")
        shutil.copy("run.json", "cpu.json")
        _gpu.after_launch = lambda device, n_done: None
        _gpu._Rows = plain
        gpu.STOP_ROWS = 12  # (kernels that look less often: the simulator's atomics are slow)
        gpu._count_kernel.cache_clear()
        gpu._symmetric_kernel.cache_clear()
        total = nq.count_solutions(11, method="{method}", device="cuda", checkpoint="run.json")
        on_cpu = nq.count_solutions(11, method="{method}", checkpoint="cpu.json")
        print(json.dumps(dict(message=message, saved=saved, launches=launches, total=total,
                              on_cpu=on_cpu)))
    """, tmp_path)
    assert "interrupted after" in found["message"], found["message"]
    saved, first = found["saved"], found["launches"][0]
    assert found["launches"] == [first]  # (the second launch ended stopped)
    assert first < saved["finished"] < saved["total_subproblems"], saved
    assert saved["in_progress"] == 0
    assert found["total"] == found["on_cpu"] == expected


def test_the_cli_counts_on_the_gpu(tmp_path):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    done = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "9", "--device",
                           "cuda", "--fundamental"], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "46\n"


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("device, error, match", [
    (1, TypeError, "device must be a string"),
    ("gpu", ValueError, "'cpu', 'cuda', 'auto'"),
])
def test_device_is_validated(device, error, match):
    with pytest.raises(error, match=match):
        nq.count_solutions(8, device=device)


@pytest.mark.parametrize("devices, error, match", [
    ("0", TypeError, "list of GPU numbers"),
    (np.array(5), TypeError, "list of GPU numbers"),
    (5, TypeError, "list of GPU numbers"),
    ([-1], ValueError, "GPU number, 0 or more"),
    ([1.0], TypeError, "integer"),
    ([], ValueError, "at least one"),
    ([0, 0], ValueError, "each GPU once"),
    ({0: 1}, TypeError, r"list of GPU numbers \(ints\), got dict"),
    ({0, 1}, TypeError, r"list of GPU numbers \(ints\), got set"),
])
def test_devices_are_validated(devices, error, match):
    with pytest.raises(error, match=match):
        nq.count_solutions(8, device="cuda", devices=devices)


def test_a_gpu_that_is_not_visible_is_refused_whichever_device_counts(tmp_path):
    """(``device="auto"`` checked ``devices`` only when it chose the GPU: a small board,
    counted on the CPU, took ``devices=[5]`` silently.)"""
    found = simulate("""
        said = []
        for n, device in [(9, "auto"), (14, "auto"), (9, "cuda")]:
            try:
                nq.count_solutions(n, device=device, devices=[5])
            except ValueError as exc:
                said.append(str(exc))
        print(json.dumps(dict(said=said, ok=nq.count_solutions(9, device="auto",
                                                               devices=[0]))))
    """, tmp_path)
    assert found["said"] == ["devices: GPU 5 is not visible (1 visible: 0..0)"] * 3
    assert found["ok"] == 352


def test_devices_need_a_gpu_device():
    with pytest.raises(ValueError, match="devices applies only"):
        nq.count_solutions(8, devices=[0])


# OEIS A051906: toroidal queens, n = 0..13 (n = 0: the empty board)
A051906 = (1, 1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524)


@pytest.mark.slow  # (the CUDA simulator: seconds)
def test_the_torus_counts_by_least_steps_on_the_gpu(tmp_path):
    """The toroidal count (by least steps, each solution weighted) writes the CPU kernel's
    row for every subproblem, from a first row alone to a prefix that leaves one row, and
    the totals are OEIS A051906's."""
    found = simulate("""
        from nqueens_numba.board import board_of
        rows = []
        for n, depth in [(5, 1), (5, 4), (7, 2), (7, 6), (11, 1), (11, 3), (13, 2), (13, None)]:
            plan = _split.plan_count(n, board_of("queen", True), prefix_depth=depth,
                                     device="cuda")
            split = plan.split
            gpu = _runner.execute(split, _gpu.CudaDevices([0]))
            cpu = split.job(split.states)
            rows.append([n, split.depth, len(split.states), bool(np.array_equal(gpu, cpu)),
                         split.total(gpu)])
        totals = [nq.count_solutions(n, torus=True, device="cuda") for n in range(14)]
        print(json.dumps(dict(rows=rows, totals=totals)))
    """, tmp_path)
    for n, depth, states, same, total in found["rows"]:
        assert states > 0 and same and total == A051906[n], (n, depth)
    assert {row[1] for row in found["rows"]} >= {1, 4, 6}  # (the table's depth of 13 too)
    assert found["totals"] == list(A051906)


def test_auto_counts_small_boards_on_the_cpu():
    assert nq.count_solutions(8, device="auto") == 92  # no GPU is looked for below 13
    assert nq.symmetry_classes(8, device="auto") == {8: 11, 4: 1}


def test_the_plan_decides_the_device(monkeypatch):
    """``auto`` takes a usable GPU from ``config.GPU_MIN_N`` on, for boards with GPU kernels;
    a GPU plan has a split of its own size, never run in the calling thread."""
    from nqueens_numba import _split
    from nqueens_numba.board import QUEEN, SUPERQUEEN, TOROIDAL

    monkeypatch.setattr(_device, "usable", lambda: True)
    assert _device.decide("auto", 13, QUEEN, "symmetric", False) == "cuda"
    assert _device.decide("auto", 13, SUPERQUEEN, "halving", False) == "cuda"
    assert _device.decide("auto", 13, QUEEN, "halving", True) == "cuda"
    assert _device.decide("auto", 12, QUEEN, "symmetric", False) == "cpu"
    assert _device.decide("auto", 13, TOROIDAL, "halving", False) == "cuda"
    assert _device.decide("auto", 13, QUEEN, "symmetric", True) == "cpu"  # no such kernel
    with pytest.raises(ValueError, match="device='cuda' does not count these boards"):
        _device.decide("cuda", 13, QUEEN, "symmetric", True)
    plan = _split.plan_count(13, QUEEN, device="auto")
    assert plan.device == "cuda" and plan.engine == "split" and not plan.split.direct
    cpu = _split.plan_count(13, QUEEN, n_threads=2, prefix_depth=plan.split.depth)
    assert np.array_equal(plan.split.states, cpu.split.states)  # the same subproblems
    assert _split.plan_count(8, QUEEN, device="cuda").engine == "split"  # no shortcut
    assert _split.plan_count(0, QUEEN, device="cuda").engine == "answer"


@pytest.mark.skipif(_device.usable(), reason="a GPU is usable here")
def test_without_a_gpu_one_error_says_what_is_missing():
    with pytest.raises(RuntimeError, match="device='cuda' cannot count here") as info:
        nq.count_solutions(14, device="cuda")
    assert "driver" in str(info.value) or "GPU" in str(info.value)
    assert nq.count_solutions(14, device="auto") == 365596  # auto falls back to the CPU


def test_without_numba_cuda_the_error_says_what_to_install(tmp_path):
    code = ("import sys; sys.modules['numba.cuda'] = None\n"
            "import nqueens_numba as nq\n"
            "try:\n    nq.count_solutions(10, device='cuda')\n"
            "except RuntimeError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "cannot be imported" in done.stdout
    assert 'pip install "nqueens_numba[cuda]"' in done.stdout


def test_the_numpy_shim_restores_row_stack(monkeypatch):
    """numba-cuda 0.30 calls ``numpy.row_stack``, which NumPy 2.5 removed: the shim gives
    it back as ``vstack`` and leaves a NumPy that has it alone."""
    from nqueens_numba._kernels import gpu

    assert gpu.numpy_shim() is False
    monkeypatch.delattr(np, "row_stack", raising=False)
    assert gpu.numpy_shim() is True
    assert np.row_stack is np.vstack


def test_the_register_cap_reaches_every_gpu_kernel(tmp_path):
    """``config.GPU_MAX_REGISTERS`` is numba-cuda's ``max_registers`` of each GPU kernel
    (built, not compiled: no GPU needed); 0 sets none. (numba's simulator, which has no
    registers, takes no such option: the kernels are built without it there.)"""
    code = textwrap.dedent("""
        import json
        import numpy as np
        from nqueens_numba import config, _gpu, _split
        from nqueens_numba.board import QUEEN, SUPERQUEEN, TOROIDAL
        from nqueens_numba.constraints import check_constraints
        found = []
        for cap in (0, 64, np.int64(40)):  # (a NumPy integer: ctypes takes ints only)
            config.GPU_MAX_REGISTERS = cap
            for board, method, constraints in [
                    (QUEEN, "symmetric", None), (QUEEN, "halving", None),
                    (QUEEN, "halving", check_constraints(13, {0: 1})),
                    (TOROIDAL, "halving", None), (SUPERQUEEN, "symmetric", None)]:
                split = _split.plan_count(13, board, method=method, device="cuda",
                                          constraints=constraints).split
                kernel, block = _gpu._kernel(split.job)
                cap = kernel.targetoptions.get("max_registers")
                found.append(cap if cap is None or type(cap) is int else repr(cap))
        print(json.dumps(found))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == [None] * 5 + [64] * 5 + [40] * 5


# --------------------------------------------------------------------------- on a GPU


def _real_gpu():
    from numba import config as numba_config

    return _device.usable() and not numba_config.ENABLE_CUDASIM


@pytest.mark.gpu
@pytest.mark.skipif(not _real_gpu(), reason="needs a CUDA GPU and numba-cuda")
@pytest.mark.parametrize("n", [12, 14])
def test_counts_on_a_real_gpu(n):
    assert nq.count_solutions(n, device="cuda") == A000170[n]
    assert nq.count_solutions(n, device="cuda", method="halving") == A000170[n]
    assert nq.count_solutions(n, device="cuda", fundamental=True) == A002562[n]
