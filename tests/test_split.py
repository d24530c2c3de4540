"""The split of a count, checked without threads: what each subproblem counts adds up."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import _kernels, _split, config, symmetry
from nqueens_numba.board import board_of
from nqueens_numba.checkpoint import Checkpoint
from nqueens_numba.constraints import check_constraints

from naive import solutions_by_backtracking, solutions_with_constraints

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712]
A002562 = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233]


def depths(n, method):
    low, high = _split._depth_range(n, method)
    return range(low, high + 1)


@pytest.mark.parametrize("method", _split.METHODS)
@pytest.mark.parametrize("n", [7, 8, 10, 12])
def test_results_add_up_at_every_depth(n, method):
    for depth in depths(n, method):
        if len(_split.count_split(n, method, 1, min(depth, 4)).states) > 20_000:
            break
        split = _split.count_split(n, method, 1, depth)
        assert split.depth == depth and split.states.shape == (len(split.states), 3 + depth)
        results = split.job(split.states)  # one kernel call, no thread
        assert results.shape == (len(split.states), split.width)
        assert results.dtype == np.int64
        assert split.total(results) == A000170[n]
        if method == "symmetric":
            assert split.total(results, fundamental=True) == A002562[n]
            orbits = split.orbits(results)
            assert sum(size * k for size, k in orbits.items()) == A000170[n]


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_each_halving_subproblem_counts_its_completions(n):
    for depth in depths(n, "halving"):
        split = _split.count_split(n, "halving", 1, depth)
        counts = split.job(split.states)[:, 0]
        for state, weight, count in zip(split.states, split.weights, counts):
            prefix = tuple(int(c) for c in state[3:])
            assert count == len(solutions_by_backtracking(n, prefix))
            assert weight == (2 if 2 * prefix[0] < n - 1 else 1)


def test_batches_add_up_like_the_whole():
    split = _split.count_split(13, "symmetric", 2, 4)
    whole = split.job(split.states)
    parts = np.concatenate([split.job(part) for part in np.array_split(split.states, 7)])
    np.testing.assert_array_equal(parts, whole)


def test_job_travels_by_pickle():
    """A Dask worker receives the job pickled: it must count the same there."""
    cons = check_constraints(9, {2: 4}, None)
    for split in (_split.count_split(11, "symmetric", 1), _split.count_split(11, "halving", 1),
                  _split.count_split(9, "halving", 1, constraints=cons)):
        job = pickle.loads(pickle.dumps(split.job))
        np.testing.assert_array_equal(job(split.states), split.job(split.states))


@pytest.mark.parametrize("preplaced, mirrored", [({0: 1}, False), ({3: 3}, True),
                                                 ({2: 3, 5: 1}, False)])
def test_constrained_split(preplaced, mirrored):
    n = 7
    cons = check_constraints(n, preplaced, None)
    expected = len(solutions_with_constraints(n, preplaced=preplaced))
    split = _split.count_split(n, "halving", 1, constraints=cons)
    assert np.all(split.weights == 1) != mirrored or expected == 0
    assert split.total(split.job(split.states)) == expected
    whole = _split.count_split(n, "halving", 1, constraints=cons, halving=False)
    assert np.all(whole.weights == 1)
    assert whole.total(whole.job(whole.states)) == expected


def test_choose_method():
    cons = check_constraints(8, {0: 0}, None)
    assert _split.choose_method(8, None, False, None) == "symmetric"
    assert _split.choose_method(config.SYMMETRIC_MIN_N - 1, None, False, None) == "halving"
    assert _split.choose_method(5, None, True, None) == "symmetric"
    assert _split.choose_method(8, None, False, cons) == "halving"
    assert _split.choose_method(8, "halving", False, None) == "halving"
    for method, fundamental, constraints in [("halving", True, None), (None, True, cons),
                                             ("symmetric", False, cons)]:
        with pytest.raises(ValueError):
            _split.choose_method(8, method, fundamental, constraints)


def test_has_subproblems():
    assert not _split.has_subproblems(0, "halving")
    assert _split.has_subproblems(1, "halving")
    assert not _split.has_subproblems(6, "symmetric")
    assert _split.has_subproblems(7, "symmetric")
    assert _split.SYMMETRIC_KERNEL_MIN_N == _kernels.TAIL_ROWS + 3


def test_checkpoint_id_names_the_split(tmp_path):
    split = _split.count_split(12, "symmetric", 1, 3)
    record = split.checkpoint_id
    assert record["n"] == 12 and record["method"] == "symmetric"
    assert record["prefix_depth"] == 3 and record["n_subproblems"] == len(split.states)
    assert record["results"] == list(_split.SYMMETRIC_RESULTS)
    assert record == _split.count_split(12, "symmetric", 4, 3).checkpoint_id  # no thread count
    assert record != _split.count_split(12, "symmetric", 1, 4).checkpoint_id
    cons = check_constraints(12, {0: 1}, None)
    constrained = _split.count_split(12, "halving", 1, 3, constraints=cons).checkpoint_id
    assert constrained["constraints_sha256"] == cons.sha256 and "results" not in constrained
    path = tmp_path / "c.json"
    Checkpoint(path, record, split.width).save()
    assert _split.resumed_depth(path, 12, "symmetric") == 3
    assert _split.resumed_depth(path, 12, "halving") is None
    assert _split.resumed_depth(path, 13, "symmetric") is None
    assert _split.resumed_depth(tmp_path / "none.json", 12, "symmetric") is None


def test_kernel_d4_table_is_the_symmetry_module_table():
    """The symmetric kernel's images (inverse, reverse, complement) are those of D4."""
    kernel = list(zip(*_kernels.images()))
    assert len(kernel) == len(symmetry.D4) - 1
    for name, recipe in zip(symmetry.D4[1:], kernel):
        assert tuple(bool(v) for v in recipe) == symmetry._RECIPE[name], name
    # and they act as the named elements do
    q = np.array([1, 3, 5, 7, 2, 0, 6, 4])
    inverse = np.argsort(q)
    m = len(q) - 1
    for name, (use_inverse, reverse, complement) in zip(symmetry.D4[1:], kernel):
        v = (inverse if use_inverse else q)[::-1 if reverse else 1]
        np.testing.assert_array_equal(m - v if complement else v, symmetry.transform(q, name))


def test_a_loaded_kernel_is_preferred_to_numpy(monkeypatch):
    """A small board is counted by NumPy (n <= 12) or the kernel that compiles fastest
    (n <= 14) until the split's kernel is loaded in the process; from then on by the split
    (milliseconds, where NumPy takes tens), so that no board counts slower than a larger
    one. Constrained counts ask for the constrained kernel."""
    import nqueens_numba as nq

    monkeypatch.setattr(_kernels, "loaded_counts", set())
    monkeypatch.setattr(_kernels, "is_ready", lambda *args, **kwargs: True)  # (n = 15)
    assert _split.plan_count(12).engine == "breadth"
    assert _split.plan_count(14).engine == "small"
    allow = check_constraints(12, {0: 1}, None)
    assert _split.plan_count(12, constraints=allow).engine == "breadth"
    assert nq.count_solutions(15) == 2279184  # loads the symmetric kernel
    assert ("symmetric", 0, False) in _kernels.loaded_counts
    for n in (8, 12, 14):
        plan = _split.plan_count(n)
        assert plan.engine == "split" and plan.method == "symmetric"
        assert nq.count_solutions(n) == [0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                         73712, 365596][n]
    assert _split.plan_count(12, constraints=allow).engine == "breadth"
    assert _split.plan_count(5).engine == "breadth"  # no symmetric kernel below n = 7


@pytest.mark.parametrize("n", [*range(7, 15), *(pytest.param(n, marks=pytest.mark.slow)
                                                 for n in range(15, 21))])  # seconds each
def test_symmetric_prefixes_in_numpy_are_the_kernels(n):
    """The plain board's symmetric prefixes, listed in NumPy, are the kernel's arrays in the
    kernel's order at every depth and target, and so are the refusals of too many."""
    from nqueens_numba._kernels import prefixes, symmetric

    for b in range(1, (n - 1) // 2 + 1):
        for row in range(1, n):
            assert prefixes.row_allow(n, row, b) == symmetric._row_allow(n, row, b)
    high = max(2, min(n - 5, config.MAX_SPLIT_DEPTH))
    for low in range(2, high + 1):
        for target, most in [(1, 10**6), (300, 10**6), (10**6, 10**6), (10**6, 40)]:
            listed, depth, found = prefixes._list_symmetric_prefixes(n, low, high, target, most)
            want, want_depth, want_found = symmetric._symmetric_prefixes_of(n, low, high,
                                                                             target, most, 0)
            assert depth == want_depth and np.array_equal(listed, want)
            assert listed.dtype == np.int64 and listed.shape[1] == 3 + depth
            assert (found > most) == (want_found > most)
            assert found > most or found == want_found == len(listed)


@pytest.mark.parametrize("ready", [False, True])
def test_a_first_count_of_15_is_small_while_the_symmetric_kernel_is_to_compile(monkeypatch,
                                                                                ready):
    """A total count of n = 15 (config.COLD_DIRECT_SOLUTIONS) runs the kernel that compiles
    fastest while the symmetric kernel is neither loaded nor cached; anything else keeps
    the split."""
    import nqueens_numba as nq

    monkeypatch.setattr(_kernels, "loaded_counts", set())
    monkeypatch.setattr(_kernels, "is_ready", lambda *args, **kwargs: ready)
    assert _split.plan_count(15).engine == ("split" if ready else "small")
    if not ready:
        assert nq.count_solutions(15) == 2279184
        assert _split.plan_count(14).engine == "small"
    for n, keywords in [(16, {}), (15, dict(result="fundamental")),
                        (15, dict(method="symmetric")), (15, dict(shortcuts=False)),
                        (15, dict(constraints=check_constraints(15, {0: 1}, None))),
                        (15, dict(board=board_of("superqueen", False)))]:
        assert _split.plan_count(n, **keywords).engine == "split", (n, keywords)


@pytest.mark.parametrize("ready", [False, True])
def test_a_first_count_of_16_runs_the_symmetric_kernel_that_compiles_fastest(monkeypatch,
                                                                             tmp_path, ready):
    """While the symmetric kernel is neither loaded nor cached, a symmetric count of at
    most config.COLD_SYMMETRIC_SOLUTIONS solutions (n = 16) runs the same split in the
    symmetric kernel that compiles fastest; once that kernel has run, smaller boards use it
    too, and once it is cached, n = 15 (and n = 13 and 14 if the plainest kernel is not). A
    count with a choice of its own (method, depth, checkpoint, bar), a constrained count and
    other boards keep their kernels."""
    import nqueens_numba as nq

    monkeypatch.setattr(_kernels, "loaded_counts", set())
    monkeypatch.setattr(_kernels, "is_ready", lambda *args, **kwargs: ready)
    for result in ("total", "fundamental"):
        split = _split.plan_count(16, result=result).split
        assert split.job.first is not ready and split.method == "symmetric"
        assert split.job.kernel == ("symmetric" if ready else "symmetric_first", 0, False)
        assert np.array_equal(split.states, _split.count_split(16, "symmetric", 1).states)
    for n, keywords in [(17, {}), (16, dict(method="symmetric")), (16, dict(shortcuts=False)),
                        (16, dict(prefix_depth=4)), (16, dict(checkpoint=tmp_path / "c")),
                        (16, dict(constraints=check_constraints(16, {0: 1}, None))),
                        (16, dict(board=board_of("superqueen", False)))]:
        assert not _split.plan_count(n, **keywords).split.job.first, (n, keywords)
    if ready:
        return
    assert _split.plan_count(15).engine == "small"
    with monkeypatch.context() as cached:  # that kernel cached: it counts n = 15 too
        cached.setattr(_kernels, "is_ready", lambda job, *args, **kwargs: job != "symmetric")
        assert _split.plan_count(15).split.job.first
        assert _split.plan_count(14).engine == "small"  # (the plainest kernel cached too)
        cached.setattr(_kernels, "is_ready",
                       lambda job, *args, **kwargs: job == "symmetric_first")
        for n in (13, 14, 15):  # (and the smaller boards, where the plainest is not)
            assert _split.plan_count(n).split.job.first
    with monkeypatch.context() as small:  # (n = 13 by its split)
        small.setattr(config, "DIRECT_SOLUTIONS", 1)
        small.setattr(config, "COLD_DIRECT_SOLUTIONS", 1)
        assert nq.count_solutions(13) == 73712
        assert nq.count_solutions(13, fundamental=True) == 9233
    assert _kernels.loaded_counts == {("symmetric_first", 0, False)}
    for n in (8, 12, 15):
        plan = _split.plan_count(n)
        assert plan.engine == "split" and plan.split.job.first
    assert nq.count_solutions(12) == 14200 and nq.count_solutions(15) == 2279184


def test_whether_a_kernel_is_ready_is_read_from_numbas_cache(tmp_path):
    """``is_ready``: compiled in the process, or found in numba's cache by a new one."""
    code = textwrap.dedent("""
        import nqueens_numba as nq
        from nqueens_numba import _kernels
        before = _kernels.is_ready("count_rows")
        nq.count_solutions(13)
        print(before, _kernels.is_ready("count_rows"), _kernels.is_ready("symmetric"))
    """)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=300) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0], runs[-1].stderr
    assert [run.stdout.split() for run in runs] == [["False", "True", "False"],
                                                    ["True", "True", "False"]]


def test_a_loaded_small_kernel_is_preferred_to_numpy(monkeypatch):
    """Once the plainest kernel has counted a board (n = 13 or 14), totals from
    config.SMALL_OVER_BREADTH_MIN_N on use it rather than NumPy, unless the split's own
    kernel is loaded; the fundamental count keeps NumPy."""
    import nqueens_numba as nq

    monkeypatch.setattr(_kernels, "loaded_counts", set())
    assert _split.plan_count(12).engine == "breadth"
    assert nq.count_solutions(13) == 73712
    assert _kernels.loaded_counts == {("small", 0, False)}
    least = config.SMALL_OVER_BREADTH_MIN_N
    assert _split.plan_count(least - 1).engine == "breadth"
    for n in range(least, 13):
        assert _split.plan_count(n).engine == "small"
        assert nq.count_solutions(n) == [92, 352, 724, 2680, 14200][n - 8]
    assert _split.plan_count(12, result="fundamental").engine == "breadth"
    allow = check_constraints(12, {0: 1}, None)
    assert _split.plan_count(12, constraints=allow).engine == "breadth"


def test_plans_read_the_tunables_at_call_time(monkeypatch):
    # (config says so: a benchmark sets them after importing the package)
    from nqueens_numba.board import QUEEN
    monkeypatch.setattr(_kernels, "loaded_counts", set())  # (a loaded kernel: no shortcut)
    assert _split.plan_count(10, QUEEN).engine == "breadth"
    monkeypatch.setattr(config, "BREADTH_MAX_N", 4)
    monkeypatch.setattr(config, "DIRECT_SOLUTIONS", 1)
    monkeypatch.setattr(config, "COLD_DIRECT_SOLUTIONS", 1)
    plan = _split.plan_count(10, QUEEN)
    assert plan.engine == "split" and not plan.split.direct
    assert _split.plan_count(10, QUEEN, result="first_row").engine == "split"
    monkeypatch.setattr(config, "MAX_SUBPROBLEMS", 1000)
    assert _split.split_target(30, 1) == 1000
    assert _split.split_target(30, 1, board_of("superqueen")) == config.TASKS_PER_THREAD


def test_too_few_subproblems_allowed_for_the_shallowest_split_is_an_error(monkeypatch):
    """``config.MAX_SUBPROBLEMS`` below the subproblems of the shallowest split returned no
    subproblems, so a count of 0 (n = 12 by halving, with 5 allowed), or an error about a
    ``prefix_depth`` not given (the symmetric search)."""
    for most, calls in [(1, [dict(torus=True, n=13)]), (5, [dict(method="halving")]),
                        (10, [dict(piece="superqueen"), dict(method="symmetric")])]:
        monkeypatch.setattr(config, "MAX_SUBPROBLEMS", most)
        for kwargs in calls:
            n = kwargs.pop("n", 12)
            with pytest.raises(ValueError, match=rf"^config.MAX_SUBPROBLEMS={most} is fewer "
                                                 rf"than the subproblems of the shallowest "
                                                 rf"split of n={n} \(\d rows?\): raise it$"):
                nq.count_solutions(n, **kwargs)
    monkeypatch.setattr(config, "MAX_SUBPROBLEMS", 40)  # (enough: the counts are exact)
    assert nq.count_solutions(12, method="halving") == 14200
    assert nq.count_solutions(12, piece="superqueen") == 156
    with pytest.raises(ValueError, match="method must be one of 'halving', 'symmetric' or "
                                         "None, got 'mirror'"):
        nq.count_solutions(12, method="mirror")


def test_every_engine_a_plan_names_has_a_runner():
    from nqueens_numba import counting
    assert set(counting._ENGINES) | {"split"} == set(_split.ENGINES)
