"""One solution of huge boards: explicit construction and min-conflicts search."""
import os

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import config
from nqueens_numba.cli import main

from naive import is_solution_naive


def test_construct_every_n_up_to_5000():
    for n in [1] + list(range(4, 5001)):
        queens = nq.construct(n)
        assert queens.shape == (n,) and queens.dtype == (np.int8 if n <= 128 else np.int16)
        assert nq.is_solution(queens), n


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 14, 15, 20, 21])
def test_construct_matches_the_pairwise_check(n):
    assert is_solution_naive(nq.construct(n))


@pytest.mark.parametrize("n", [10**6, 10**6 + 2, 10**6 + 3, 10**7])
def test_construct_large(n):
    queens = nq.construct(n)
    assert len(queens) == n and nq.is_solution(queens)
    broken = queens.copy()
    broken[-1] = broken[0]  # a repeated column
    assert not nq.is_solution(broken)


def test_construct_across_its_blocks_of_rows():
    """The constructions write a block of rows at a time: every remainder mod 6 (each
    writes its own sequence) on boards of several blocks, and the torus."""
    base = 3 << 20
    for n in range(base, base + 6):
        queens = nq.construct(n)
        assert queens.dtype == np.int32 and nq.is_solution(queens), n % 6
    n = (2 << 20) + 3  # gcd(n, 6) = 1
    queens = nq.construct(n, torus=True)
    np.testing.assert_array_equal(queens, 2 * np.arange(n, dtype=np.int64) % n)
    assert nq.is_solution(queens, torus=True)


def test_huge_boards_that_do_not_fit_raise_before_they_start(monkeypatch):
    from nqueens_numba import _validate

    monkeypatch.setattr(_validate, "_available_memory", lambda: 70_000_000)
    with pytest.raises(MemoryError, match=r"construct\(100,000,000\) needs about 425 MB "
                       r"of memory, and this process has about 70 MB available"):
        nq.construct(10**8)
    with pytest.raises(MemoryError, match=r"construct\(100,000,001, torus=True\) needs"):
        nq.construct(10**8 + 1, torus=True)
    with pytest.raises(MemoryError, match=r"find_solution\(1,000,000\) needs about 85 MB "):
        nq.find_solution(10**6, seed=1)
    with pytest.raises(MemoryError, match=r"construct\(1,000,000,000\) needs about 4.03 GB"):
        nq.construct(10**9)
    monkeypatch.setattr(_validate, "_available_memory", lambda: 10**9)
    with pytest.raises(MemoryError, match=r"find_solution\(100,000,000\) needs about 8.5 GB "
                       r"of memory, and this process has about 1 GB available"):
        nq.find_solution(10**8)
    with pytest.raises(MemoryError, match=r"needs about 3,000 GB of memory"):
        nq.format_board(np.arange(10**6))  # (not "3e+03 GB")
    monkeypatch.setattr(_validate, "_available_memory", lambda: 70_000_000)
    assert nq.is_solution(nq.construct(10**7))  # 40 MB and three blocks of int64
    monkeypatch.setattr(_validate, "_available_memory", lambda: None)  # unknown: not checked
    assert nq.is_solution(nq.find_solution(10**5, seed=1))


def test_construct_edge_cases():
    assert nq.construct(0).shape == (0,)
    for bad in (2, 3):
        with pytest.raises(ValueError, match="no solution"):
            nq.construct(bad)
    with pytest.raises(ValueError, match="range"):
        nq.construct(-1)
    for bad in (4.0, True, "4", None):
        with pytest.raises(TypeError):
            nq.construct(bad)


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 8, 9, 10, 11, 25, 100, 1000])
def test_find_solution_small_and_medium(n):
    for seed in range(4):
        queens = nq.find_solution(n, seed=seed)
        assert queens.dtype == (np.int8 if n <= 128 else np.int16), (n, queens.dtype)
        assert nq.is_solution(queens), (n, seed)


def test_find_solution_is_reproducible():
    a = nq.find_solution(3000, preplaced={0: 7, 100: 1}, seed=42)
    b = nq.find_solution(3000, preplaced={0: 7, 100: 1}, seed=42)
    np.testing.assert_array_equal(a, b)


def test_find_solution_keeps_preplaced_queens_large():
    """n = 10**6 with 10 pre-placed queens at random non-attacking squares."""
    n = 10**6
    rng = np.random.default_rng(11)
    preplaced = {}
    while len(preplaced) < 10:
        r, c = (int(v) for v in rng.integers(0, n, size=2))
        if r in preplaced or any(c == c2 or abs(r - r2) == abs(c - c2)
                                 for r2, c2 in preplaced.items()):
            continue
        preplaced[r] = c
    queens = nq.find_solution(n, preplaced=preplaced, seed=5)
    assert nq.is_solution(queens)
    assert all(queens[r] == c for r, c in preplaced.items())


def test_find_solution_gives_up_clearly():
    """No completion: proved by the exhaustive search on a small board, else a message that
    says what was tried."""
    with pytest.raises(nq.NoCompletionError, match="no completion"):
        nq.find_solution(8, preplaced={0: 0, 1: 2, 2: 4}, seed=1, max_steps=5000)
    with pytest.raises(RuntimeError, match=r"n=100 found after no min-conflicts run "
                                           r"\(max_steps=0\): the pre-placed"):
        nq.find_solution(100, preplaced={0: 0, 50: 2}, seed=1, max_steps=0)


def test_find_solution_searches_exhaustively_past_16_free_rows(monkeypatch):
    """Where local search fails on a board of n <= 63 with many free rows, the exhaustive
    search finds a completion (it gave up before), and says so when its time runs out."""
    from nqueens_numba import huge

    preplaced = dict(enumerate(nq.construct(63)[:30].tolist()))  # 33 free rows
    queens = nq.find_solution(63, preplaced=preplaced, seed=0, max_steps=0)
    assert nq.is_solution(queens) and all(queens[r] == c for r, c in preplaced.items())
    np.testing.assert_array_equal(queens, nq.solve(63, preplaced=preplaced, limit=1)[0])
    monkeypatch.setattr(huge, "EXACT_SECONDS", 0.01)
    with pytest.raises(RuntimeError, match=r"\(max_steps=0\), then 0.01 s of exhaustive "
                                            r"search .*: the pre-placed queens may have no"):
        nq.find_solution(40, preplaced={0: 0, 1: 2, 2: 4, 3: 1, 4: 3}, seed=1, max_steps=0)


def test_an_interrupted_find_solution_says_so(monkeypatch):
    """(Its KeyboardInterrupt had no words.)"""
    from nqueens_numba import huge

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(huge, "_local_search", interrupted)
    with pytest.raises(KeyboardInterrupt, match=r"^find_solution\(1000, preplaced=\.\.\.\) "
                                                r"interrupted: nothing is returned$"):
        nq.find_solution(1000, preplaced={0: 5})
    with pytest.raises(KeyboardInterrupt, match=r"^find_solution\(40\) interrupted"):
        nq.find_solution(40)


@pytest.mark.parametrize("n, preplaced, match", [
    (40, {16: 4, 3: 18, 34: 16, 36: 21, 8: 15, 27: 13, 21: 10, 5: 7, 37: 12, 15: 19, 12: 25,
          17: 31, 19: 37, 39: 20, 14: 38, 6: 9, 26: 32}, "every square of row 20"),
    (8, {1: 2, 5: 5, 4: 1}, "every free row's square of column 3"),
    (100, dict(zip(range(66), [  # (past 63 too, where no exhaustive search runs)
        0, 2, 98, 1, 3, 7, 9, 4, 12, 5, 15, 6, 18, 20, 8, 23, 25, 10, 28, 91, 11, 13, 33, 35,
        89, 14, 16, 40, 42, 87, 17, 19, 47, 49, 51, 21, 54, 22, 57, 59, 24, 62, 64, 26, 67,
        27, 71, 73, 29, 76, 30, 75, 31, 82, 32, 83, 86, 34, 93, 90, 92, 36, 95, 97, 37, 39,
        ])) | {67: 38, 68: 44, 71: 43, 74: 41, 76: 45, 78: 46, 80: 50, 83: 48, 87: 53,
                 89: 52, 91: 55, 94: 56, 97: 58}, "every square of row 66"),
])
def test_find_solution_sees_a_row_or_column_left_without_squares(n, preplaced, match):
    """(With 23 free rows, no seed could succeed, yet it said to try another after 2 s of
    search; the row or column left without a square proves there is no completion.)"""
    with pytest.raises(nq.NoCompletionError, match=match):
        nq.find_solution(n, preplaced=preplaced, seed=1)
    if n == 8:  # (the count agrees)
        assert nq.count_solutions(n, preplaced=preplaced) == 0


@pytest.mark.parametrize("n, preplaced", [
    (7, {0: 0}), (6, {2: 4, 3: 1}), (8, {0: 0}), (9, {4: 4}), (10, {0: 3, 9: 5}),
    (12, {0: 0, 1: 2}), (20, {0: 0, 1: 2, 2: 4}),
])
def test_find_solution_completes_small_boards_for_every_seed(n, preplaced):
    """Every seed finds a completion where one exists (restarts leave local minima; the
    exhaustive search decides what local search misses)."""
    assert nq.count_solutions(n, preplaced=preplaced) > 0
    for seed in range(200):
        queens = nq.find_solution(n, preplaced=preplaced, seed=seed)
        assert nq.is_solution(queens), (seed, queens)
        assert all(queens[r] == c for r, c in preplaced.items())


def test_find_solution_restarts_with_seeds_of_its_own(monkeypatch):
    """A stuck run restarts from a new random placement: the same seed gives the same
    solution, a restart a different seed."""
    from nqueens_numba import huge

    seeds = []
    real = huge._kernels._min_conflicts

    def spy(queens, free_rows, seed, max_steps, *work):
        cursor, budget = work[-2:]
        if budget and not cursor.any():  # the first call of a run
            seeds.append((seed, max_steps))
            if len(seeds) < 3:
                return -1
        return real(queens, free_rows, seed, max_steps, *work)

    monkeypatch.setattr(huge._kernels, "_min_conflicts", spy)
    q = nq.find_solution(200, seed=7)
    assert nq.is_solution(q) and len(seeds) == 3
    assert seeds[0] == (7, 12_000) and len({s for s, _ in seeds}) == 3


def test_find_solution_errors():
    with pytest.raises(ValueError, match="attack"):
        nq.find_solution(100, preplaced={0: 0, 5: 5})
    with pytest.raises(ValueError, match="no solution"):
        nq.find_solution(3)
    with pytest.raises(TypeError):
        nq.find_solution(10, seed=1.5)
    with pytest.raises(ValueError, match="seed"):
        nq.find_solution(10, seed=-1)
    with pytest.raises(ValueError, match="max_steps"):
        nq.find_solution(10, max_steps=-5)


def test_cli_construct_to_a_full_file_system_says_why(tmp_path):
    """NumPy's own write of a .npy file (``tofile``) said "1000000 requested and 24968
    written" where the file system refused more; the system's words are said now (here a
    file-size limit: "File too large"), and no file is left."""
    import resource
    import signal
    import subprocess
    import sys

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))

    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "construct", "1000000", "-o",
                          str(tmp_path / "q.npy")], capture_output=True, text=True,
                         preexec_fn=limit, timeout=300)
    assert run.returncode == 1
    assert run.stderr == "nqueens: cannot write the output: [Errno 27] File too large\n"
    assert os.listdir(tmp_path) == []


def test_cli_construct_and_find(tmp_path, capsys):
    assert main(["construct", "8"]) == 0
    assert capsys.readouterr().out == "1 3 5 7 2 0 6 4\n"
    assert main(["construct", "1000", "--output", str(tmp_path / "c.npy")]) == 0
    saved = np.load(tmp_path / "c.npy")
    np.testing.assert_array_equal(saved, nq.construct(1000))
    assert main(["construct", "1000003", "-o", str(tmp_path / "big.npy")]) == 0
    assert nq.is_solution(np.load(tmp_path / "big.npy"))
    assert main(["find", "50", "--preplace", "0:7,10:3", "--seed", "3"]) == 0
    queens = np.array(capsys.readouterr().out.split(), dtype=int)
    assert nq.is_solution(queens) and queens[0] == 7 and queens[10] == 3
    assert main(["find", "8", "-p", "0:0,1:2,2:4", "--seed", "1", "--max-steps", "100"]) == 1
    assert "no completion" in capsys.readouterr().err


@pytest.mark.parametrize("at_once", [1, 3, 1 << 20])
def test_cli_writes_a_long_line_in_parts(tmp_path, capsys, monkeypatch, at_once):
    """The printed line of ``construct`` and ``find`` is written in parts (a line of 10^9
    columns held whole took about 10 GB, and a .npy output built it too)."""
    from nqueens_numba.cli import construct

    monkeypatch.setattr(construct, "_COLUMNS_AT_ONCE", at_once)
    expected = " ".join(map(str, nq.construct(20).tolist())) + "\n"
    assert main(["construct", "20"]) == 0
    assert capsys.readouterr().out == expected
    assert main(["construct", "20", "-o", str(tmp_path / "c.txt")]) == 0
    assert (tmp_path / "c.txt").read_text() == expected
    assert main(["construct", "1", "-o", str(tmp_path / "one.txt")]) == 0
    assert (tmp_path / "one.txt").read_text() == "0\n"


def test_cli_saves_a_large_solution_without_its_text(tmp_path):
    """``construct N -o FILE.npy`` holds the array, not its printed line (206 MiB traced at
    n = 2 * 10^6 when it built the line anyway; 20 MiB without it)."""
    import tracemalloc

    nq.construct(100)
    tracemalloc.start()
    try:
        assert main(["construct", "2000000", "-o", str(tmp_path / "big.npy")]) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6 * 2_000_000 * 4  # a few copies of the int32 array
    assert nq.is_solution(np.load(tmp_path / "big.npy"))


def test_is_solution_with_object_and_mixed_integer_inputs():
    assert nq.is_solution(np.array([1, 3, 0, 2], dtype=object))
    # NumPy stores a mix of uint64 and int64 as float64; the values are still integers.
    assert nq.is_solution([np.uint64(1), np.int64(3), np.int64(0), np.int64(2)])
    assert not nq.is_solution([np.uint64(0), np.int64(1), np.int64(2), np.int64(3)])
    assert not nq.is_solution([2**70, 1, 0, 2])
    assert nq.format_board(np.array([1, 3, 0, 2], dtype=object)) == nq.format_board([1, 3, 0, 2])
    with pytest.raises(TypeError):
        nq.is_solution([1.0, 3.0, 0.0, 2.0])


@pytest.mark.parametrize("n", [0, 10])
def test_find_solution_validates_for_every_n(n):
    with pytest.raises(ValueError, match=r"max_steps must be in the range 0\.\."):
        nq.find_solution(n, seed=1, max_steps=2**64)
    with pytest.raises(ValueError, match="max_steps"):
        nq.find_solution(n, seed=1, max_steps=-5)
    with pytest.raises(TypeError, match="seed"):
        nq.find_solution(n, seed="x")
    with pytest.raises(ValueError, match="off the"):
        nq.find_solution(n, seed=1, preplaced={n: 0})
    assert nq.is_solution(nq.find_solution(n, seed=1, max_steps=2**63 - 1))


@pytest.mark.parametrize("n, dtype", [(1, np.int8), (128, np.int8), (129, np.int16),
                                      (32768, np.int16), (32769, np.int32)])
def test_one_dtype_for_placements(n, dtype):
    """The smallest signed integer type that holds n - 1, whatever made the placement."""
    from nqueens_numba import _validate

    assert _validate.placement_dtype(n) == dtype
    assert nq.construct(n).dtype == dtype
    if n <= 129:
        assert nq.find_solution(n, seed=0).dtype == dtype
        assert nq.transform(list(nq.construct(n)), "rot90").dtype == dtype
        assert nq.canonical_form(list(nq.construct(n))).dtype == dtype
    if n <= 63:
        assert nq.solve(n, limit=1).dtype == dtype
    assert _validate.placement_dtype(2**31 + 1) == np.int64
    # arrays given keep their dtype
    assert nq.transform(np.array([1, 3, 0, 2], dtype=np.int64), "rot90").dtype == np.int64


def test_the_min_conflicts_calls_are_sized_by_their_time(monkeypatch):
    """A unit of the search is a random access to arrays of 2 n ints: at n = 10^8 a call of
    the old budget (2^22 units) took up to 4 s, out of Ctrl-C's reach. Calls are sized for a
    tenth of a second, within config.LOCAL_SEARCH_BUDGET; the arrays are written a part at a
    time (one write of them took 2-3 s)."""
    from nqueens_numba import huge

    monkeypatch.setattr(config, "LOCAL_SEARCH_BUDGET", 1 << 19)
    assert huge._next_budget(1 << 19, 1.0) == (1 << 19) // 10  # a tenth of the time
    assert huge._next_budget(1000, 0.001) == 100_000  # fast: more
    assert huge._next_budget(1000, 1e-6) == 1 << 19  # (up to the budget)
    assert huge._next_budget(1 << 19, 1e6) == 1024  # (never below)
    monkeypatch.setattr(config, "LOCAL_SEARCH_BUDGET", 7)
    assert huge._next_budget(7, 0.0) == 7
    monkeypatch.setattr(huge, "_AT_ONCE", 3)
    array = np.arange(10, dtype=np.int64)
    huge._set(array, 0)
    assert array.tolist() == [0] * 10
    huge._set(array, np.arange(10, 0, -1))
    assert array.tolist() == list(range(10, 0, -1))
    # the same solutions, the arrays written a part at a time
    assert nq.is_solution(nq.find_solution(50, seed=3))
    assert nq.is_solution(q := nq.find_solution(40, preplaced={0: 5, 7: 1}, seed=2))
    assert q[0] == 5 and q[7] == 1


@pytest.mark.parametrize("budget", [1, 7, 1000])
def test_find_solution_is_the_same_in_calls_of_any_budget(monkeypatch, budget):
    """The search returns after ``config.LOCAL_SEARCH_BUDGET`` units of work, so that Ctrl-C
    stops it, and goes on where it stood: the same solutions, with or without pre-placed
    queens, whatever the budget."""
    cases = [(8, None, 3), (300, None, 1), (500, {0: 7, 100: 1}, 2), (60, {3: 3, 10: 7}, 4)]
    whole = [nq.find_solution(n, preplaced=p, seed=seed) for n, p, seed in cases]
    monkeypatch.setattr(config, "LOCAL_SEARCH_BUDGET", budget)
    for (n, p, seed), expected in zip(cases, whole):
        np.testing.assert_array_equal(nq.find_solution(n, preplaced=p, seed=seed), expected)
