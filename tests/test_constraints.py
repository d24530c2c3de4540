"""Pre-placed queens and blocked squares (the n-queens completion problem)."""
import json
import os

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba.cli import main

from nqueens_numba.constraints import check_constraints

from naive import as_array, solutions_with_constraints, tree_nodes_naive

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]


@pytest.mark.parametrize("n", range(1, 13))
def test_first_row_preplaced_sums_to_the_total(n):
    counts = [nq.count_solutions(n, preplaced={0: c}) for c in range(n)]
    assert sum(counts) == A000170[n]
    np.testing.assert_array_equal(counts, nq.first_row_counts(n))


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_random_blocked_masks_match_the_oracle(n):
    rng = np.random.default_rng(1000 + n)
    for density in (0.05, 0.15, 0.3):
        for _ in range(6):
            blocked = rng.random((n, n)) < density
            expected = solutions_with_constraints(n, blocked=blocked.tolist())
            assert nq.count_solutions(n, blocked=blocked) == len(expected)
            np.testing.assert_array_equal(nq.solve(n, blocked=blocked), as_array(expected, n))


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_random_preplaced_and_blocked_match_the_oracle(n):
    rng = np.random.default_rng(2000 + n)
    sols = solutions_with_constraints(n)
    for _ in range(12):
        base = sols[rng.integers(len(sols))]
        rows = rng.choice(n, size=rng.integers(1, 3), replace=False)
        preplaced = {int(r): int(base[r]) for r in rows}
        blocked = rng.random((n, n)) < 0.1
        for r, c in preplaced.items():
            blocked[r, c] = False
        expected = solutions_with_constraints(n, preplaced, blocked.tolist())
        got = nq.solve(n, preplaced=preplaced, blocked=blocked)
        np.testing.assert_array_equal(got, as_array(expected, n))
        assert nq.count_solutions(n, preplaced=preplaced, blocked=blocked) == len(expected)
        chunks = list(nq.iter_solutions(n, chunk_size=2, preplaced=preplaced, blocked=blocked))
        np.testing.assert_array_equal(
            np.concatenate(chunks) if chunks else np.empty((0, n), np.int8), got)
        np.testing.assert_array_equal(nq.solve(n, limit=2, preplaced=preplaced,
                                               blocked=blocked), got[:2])


def test_mirror_symmetric_blocked_uses_halving_and_agrees():
    n = 10
    blocked = np.zeros((n, n), dtype=bool)
    blocked[[1, 4, 7], [2, 5, 0]] = True
    symmetric = blocked | blocked[:, ::-1]
    from nqueens_numba.constraints import check_constraints
    assert check_constraints(n, blocked=symmetric).mirror_symmetric
    assert not check_constraints(n, blocked=blocked).mirror_symmetric
    full = nq.solve(n)
    keep = ~symmetric[np.arange(n), full].any(axis=1)
    assert nq.count_solutions(n, blocked=symmetric) == int(keep.sum())
    np.testing.assert_array_equal(nq.solve(n, blocked=symmetric), full[keep])


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_constrained_counts_same_for_every_split(depth):
    blocked = np.random.default_rng(5).random((12, 12)) < 0.1
    results = {nq.count_solutions(12, preplaced={3: 4}, blocked=blocked, prefix_depth=depth,
                                  n_threads=t) for t in (1, 2)}
    assert len(results) == 1


def test_preplaced_forms():
    as_array_form = np.full(8, -1)
    as_array_form[[0, 5]] = [0, 6]
    assert nq.count_solutions(8, preplaced=as_array_form) == \
        nq.count_solutions(8, preplaced={0: 0, 5: 6})
    assert nq.count_solutions(8, preplaced={}) == 92
    assert nq.count_solutions(8, preplaced=np.full(8, -1)) == 92
    full_solution = nq.solve(8)[3]
    assert nq.count_solutions(8, preplaced=full_solution.astype(np.int64)) == 1


def test_impossible_completion_is_empty():
    # (0, 0), (1, 2), (2, 4) attack nothing among themselves but have no completion.
    assert nq.count_solutions(8, preplaced={0: 0, 1: 2, 2: 4}) == 0
    assert nq.solve(8, preplaced={0: 0, 1: 2, 2: 4}).shape == (0, 8)
    assert nq.count_solutions(6, blocked=np.ones((6, 6), bool)) == 0


@pytest.mark.parametrize("preplaced, match", [
    ({0: 0, 1: 1}, r"\(0, 0\) and \(1, 1\).*diagonal"),
    ({0: 7, 1: 6}, r"\(0, 7\) and \(1, 6\).*anti-diagonal"),
    ({0: 3, 4: 3}, r"\(0, 3\) and \(4, 3\).*column"),
    ({9: 0}, r"\(9, 0\) lies off"),
    ({0: -1}, r"\(0, -1\) lies off"),
    (np.array([0, 8, -1, -1, -1, -1, -1, -1]), r"\(1, 8\) lies off"),
    (np.full(7, -1), r"shape \(8,\)"),
    ([2**70] + [-1] * 7, r"past the range of int64, off the 8 x 8 board"),  # (not a dtype)
    ([[1, 2], [3]], "preplaced must be .* rows of equal length"),
])
def test_bad_preplaced_values(preplaced, match):
    with pytest.raises(ValueError, match=match):
        nq.count_solutions(8, preplaced=preplaced)


def test_bad_preplaced_and_blocked_types():
    with pytest.raises(TypeError):
        nq.count_solutions(8, preplaced={0: 1.0})
    with pytest.raises(TypeError):
        nq.count_solutions(8, preplaced={True: 1})
    with pytest.raises(TypeError, match="a bool among its columns"):  # NumPy would take 1
        nq.count_solutions(6, preplaced=[True, -1, -1, -1, -1, -1])
    with pytest.raises(TypeError, match="a bool among them"):
        nq.is_solution([True, 3, 0, 2])
    with pytest.raises(TypeError):
        nq.count_solutions(8, preplaced=np.zeros(8, dtype=float))
    with pytest.raises(TypeError, match="boolean"):
        nq.count_solutions(8, blocked=np.zeros((8, 8), dtype=int))
    with pytest.raises(ValueError, match=r"shape \(8, 8\)"):
        nq.count_solutions(8, blocked=np.zeros((8, 7), dtype=bool))
    with pytest.raises(ValueError, match=r"shape \(8, 8\), got rows of different lengths"):
        nq.count_solutions(8, blocked=[[False] * 8] * 7 + [[False] * 7])
    blocked = np.zeros((8, 8), dtype=bool)
    blocked[2, 5] = True
    with pytest.raises(ValueError, match=r"\(2, 5\) stands on a blocked square"):
        nq.count_solutions(8, preplaced={2: 5}, blocked=blocked)
    with pytest.raises(ValueError, match="halving"):
        nq.count_solutions(8, preplaced={0: 1}, method="symmetric")
    with pytest.raises(ValueError, match="fundamental=True cannot be combined"):
        nq.count_solutions(8, preplaced={0: 1}, fundamental=True)


def test_constrained_checkpoint(tmp_path):
    path = tmp_path / "run.json"
    assert nq.count_solutions(12, preplaced={0: 3}, checkpoint=path) == \
        nq.first_row_counts(12)[3]
    with pytest.raises(nq.CheckpointError, match="another count"):
        nq.count_solutions(12, preplaced={0: 4}, checkpoint=path)
    assert json.loads(path.read_text())["split"]["constraints_sha256"]


def test_a_constrained_checkpoint_says_which_constraints(tmp_path, capsys):
    """The file records the pre-placed queens and blocked squares (it held their hash
    alone: a user who forgot them could not resume); ``status`` and the error of another
    count give them as ``--preplace`` takes them; a file of an earlier version, without
    them, still resumes."""
    from nqueens_numba.checkpoint import _checksum

    path = tmp_path / "run.json"
    blocked = np.zeros((12, 12), dtype=bool)
    blocked[np.arange(1, 11), np.arange(1, 11)] = True
    total = nq.count_solutions(12, preplaced={0: 3, 5: 7}, blocked=blocked, checkpoint=path)
    info = nq.checkpoint.status(path)
    assert info["constraints"] == {"preplaced": [[0, 3], [5, 7]],
                                   "blocked": [[r, r] for r in range(1, 11)]}
    described = ("2 pre-placed queens (0:3,5:7) and 10 blocked squares (1:1,2:2,3:3,4:4,5:5,"
                 "6:6,7:7,8:8,...)")
    assert nq.checkpoint.describe_constraints(info["constraints"]) == described
    assert main(["status", str(path)]) == 0
    assert f"with {described}" in capsys.readouterr().out
    with pytest.raises(nq.CheckpointError, match=r"written for n=12, method='halving', "
                       r"prefix_depth=\d+, 2 pre-placed queens \(0:3,5:7\) and 10 blocked "
                       r".*; this count is .* 1 pre-placed queen \(0:4\)\."):
        nq.count_solutions(12, preplaced={0: 4}, checkpoint=path)
    data = json.loads(path.read_text())
    for forged in ({"preplaced": [[0, 4], [5, 7]], "blocked": []}, "garbage",
                   {"preplaced": [[float("inf"), 0]], "blocked": []},
                   {"preplaced": [[True, 3]], "blocked": [[99, 99]]}):
        data["split"]["constraints"] = forged  # (checksum made again: edited by hand)
        data["sha256"] = _checksum(data)
        path.write_text(json.dumps(data))
        assert nq.checkpoint.status(path)["constraints"] is None  # (not the hash's)
        assert main(["status", str(path)]) == 0
        assert "with pre-placed queens or blocked squares" in capsys.readouterr().out
    del data["split"]["constraints"]  # as an earlier version wrote it
    data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    assert nq.checkpoint.status(path)["constraints"] is None
    assert nq.count_solutions(12, preplaced={0: 3, 5: 7}, blocked=blocked,
                              checkpoint=path) == total
    with pytest.raises(nq.CheckpointError, match=r"pre-placed queens or blocked squares;"):
        nq.count_solutions(12, preplaced={0: 4}, checkpoint=path)


def test_cli_constraints(tmp_path, capsys):
    assert main(["count", "8", "--preplace", "0:0"]) == 0
    assert capsys.readouterr().out == "4\n"
    blocked = np.zeros((8, 8), dtype=bool)
    blocked[0, :4] = True
    np.save(tmp_path / "b.npy", blocked)
    assert main(["count", "8", "--blocked", str(tmp_path / "b.npy")]) == 0
    assert capsys.readouterr().out == "46\n"
    assert main(["solve", "8", "-p", "0:0", "-f", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "0,4,7,5,2,6,1,3"
    for argv in (["count", "8", "-p", "0:0,1:1"], ["count", "8", "-p", "x"],
                 ["count", "8", "--blocked", str(tmp_path / "missing.npy")]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    capsys.readouterr()
    (tmp_path / "b.py").write_text("print(1)\n")  # not a .npy file: not taken for a pickle
    np.savez(tmp_path / "b.npz", blocked=blocked)
    (tmp_path / "empty.npy").write_bytes(b"")
    for name in ("b.py", "b.npz", "empty.npy"):
        with pytest.raises(SystemExit) as info:
            main(["count", "8", "--blocked", str(tmp_path / name)])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert "not a .npy file" in err and "numpy.save" in err and "pickle" not in err
    (tmp_path / "cut.npy").write_bytes((tmp_path / "b.npy").read_bytes()[:20])  # truncated
    with pytest.raises(SystemExit) as info:
        main(["count", "8", "--blocked", str(tmp_path / "cut.npy")])
    assert info.value.code == 2 and "cannot read --blocked" in capsys.readouterr().err


def test_cli_preplace_given_several_times_adds_up(capsys):
    """(``-p 0:0 -p 1:4`` counted as ``-p 1:4`` alone: argparse kept the last.)"""
    for command, expected in [(["count", "8"], "1\n"), (["find", "8"], "0 4 7 5 2 6 1 3\n")]:
        assert main(command + ["-p", "0:0", "-p", "1:4"]) == 0
        assert capsys.readouterr().out == expected
    assert main(["solve", "8", "-p", "0:0", "--preplace", "1:4,2:7", "-f", "csv"]) == 0
    assert capsys.readouterr().out == "0,4,7,5,2,6,1,3\n"
    assert main(["solve", "5", "--torus", "-p", "", "-f", "csv"]) == 0  # (no queen given)
    assert capsys.readouterr().out.splitlines()[0] == "0,2,4,1,3"
    with pytest.raises(SystemExit) as info:
        main(["count", "8", "-p", "0:0,1:4", "-p", "1:5"])
    assert info.value.code == 2
    assert "argument --preplace/-p: row 1 is pre-placed twice" in capsys.readouterr().err


def test_cli_blocked_is_read_once_given_once_and_may_be_0_and_1(tmp_path, capsys):
    """A pipe (``--blocked <(...)``) cannot be read twice; an integer mask of 0 and 1, as
    ``numpy.save`` writes one, is a boolean one; a second ``--blocked`` is refused."""
    blocked = np.zeros((8, 8), dtype=bool)
    blocked[0, :4] = True
    np.save(tmp_path / "b.npy", blocked)
    np.save(tmp_path / "i.npy", blocked.astype(np.int8))
    np.save(tmp_path / "f.npy", blocked.astype(float))
    np.save(tmp_path / "two.npy", blocked.astype(np.int64) * 2)
    assert main(["count", "8", "--blocked", str(tmp_path / "i.npy")]) == 0
    assert capsys.readouterr().out == "46\n"
    read, write = os.pipe()
    with os.fdopen(write, "wb") as pipe:
        pipe.write((tmp_path / "b.npy").read_bytes())
    try:
        assert main(["count", "8", "--blocked", f"/dev/fd/{read}"]) == 0
    finally:
        os.close(read)
    assert capsys.readouterr().out == "46\n"
    if os.path.exists("/dev/zero"):  # (endless: only its first bytes are read)
        with pytest.raises(SystemExit) as info:
            main(["count", "8", "--blocked", "/dev/zero"])
        assert info.value.code == 2 and "not a .npy file" in capsys.readouterr().err
        read, write = os.pipe()  # (a header, then more than its data: only the data is read)
        with os.fdopen(write, "wb") as pipe:
            pipe.write((tmp_path / "b.npy").read_bytes() + b"\x01" * 1000)
        try:
            assert main(["count", "8", "--blocked", f"/dev/fd/{read}"]) == 0
        finally:
            os.close(read)
        assert capsys.readouterr().out == "46\n"
    np.save(tmp_path / "b7.npy", np.zeros((7, 7), dtype=bool))
    np.save(tmp_path / "fortran.npy", np.asfortranarray(blocked.astype(">i4")))
    assert main(["count", "8", "--blocked", str(tmp_path / "fortran.npy")]) == 0
    assert capsys.readouterr().out == "46\n"
    for argv, message in [
            (["--blocked", str(tmp_path / "f.npy")], "holds float64 values: expected booleans"),
            (["--blocked", str(tmp_path / "two.npy")],  # (it named the dtype, as for floats)
             "holds 2 at row 0, column 0: expected 0 and 1 only"),
            (["--blocked", str(tmp_path / "b7.npy")],  # (read, it said "cannot read")
             f"--blocked {str(tmp_path / 'b7.npy')!r} holds an array of shape (7, 7), not "
             f"(8, 8) for n = 8"),
            (["--blocked", str(tmp_path / "b.npy"), "--blocked", str(tmp_path / "i.npy")],
             "argument --blocked: given twice")]:
        with pytest.raises(SystemExit) as info:
            main(["count", "8"] + argv)
        assert info.value.code == 2 and message in capsys.readouterr().err, argv


@pytest.mark.parametrize("n", [8, 9])
def test_search_share_estimates_the_constrained_tree(n):
    """Knuth's estimate of the share of the search tree the constraints leave, against the
    trees' exact sizes (the long-count warning of a constrained count scales by it)."""
    rng = np.random.default_rng(n)
    full = tree_nodes_naive(n)
    cases = [({0: 2}, 0), ({5: 3}, 0), ({2: 1, 6: 7}, 0), (None, 10), (None, 25), ({4: 4}, 6)]
    for preplaced, n_blocked in cases:
        blocked = np.zeros((n, n), dtype=bool)
        blocked.flat[rng.choice(n * n, n_blocked, replace=False)] = True
        for row, col in (preplaced or {}).items():
            blocked[row, col] = False
        cons = check_constraints(n, preplaced, blocked)
        exact = tree_nodes_naive(n, cons.allow) / full
        assert cons.search_share() == pytest.approx(exact, rel=0.05), (preplaced, n_blocked)
    everything = check_constraints(n, None, np.zeros((n, n), dtype=bool))
    assert everything.search_share() == 1.0
    one = np.zeros((63, 63), dtype=bool)
    one[24, 6] = True  # (its two estimates came out 1.06 the wrong way round)
    assert check_constraints(63, None, one).search_share() == 1.0
    nothing = check_constraints(n, None, np.ones((n, n), dtype=bool))
    assert nothing.search_share() == pytest.approx(1 / full, rel=0.05)  # the root alone
