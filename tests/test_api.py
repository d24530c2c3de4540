import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_numba as nq
from nqueens_numba import _split, _threads, config

from naive import (
    as_array,
    is_solution_naive,
    solutions_by_backtracking,
    solutions_by_permutations,
)

# OEIS A000170, n = 0..16 (https://oeis.org/A000170).
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
           14772512]

MAX_THREADS = numba.config.NUMBA_NUM_THREADS
THREADS = sorted({1, min(2, MAX_THREADS)})


def naive_solutions(n):
    return as_array(solutions_by_permutations(n) if n <= 8 else solutions_by_backtracking(n), n)


# --------------------------------------------------------------------------- oracles agree


@pytest.mark.parametrize("n", range(0, 9))
def test_oracles_agree(n):
    assert solutions_by_permutations(n) == solutions_by_backtracking(n)


# --------------------------------------------------------------------------- counting


@pytest.mark.parametrize("n", range(0, 16))
def test_count_matches_oeis(n):
    total = nq.count_solutions(n)
    assert type(total) is int
    assert total == A000170[n]


@pytest.mark.slow
def test_count_16_matches_oeis():
    assert nq.count_solutions(16) == A000170[16]


@pytest.mark.parametrize("n", range(0, 11))
def test_count_matches_oracle(n):
    assert nq.count_solutions(n) == len(naive_solutions(n))


@pytest.mark.parametrize("n", [1, 5, 8, 11, 12])
def test_count_same_for_every_thread_count(n):
    assert len({nq.count_solutions(n, n_threads=t) for t in THREADS}) == 1


def test_first_row_counts_8():
    for t in THREADS:
        np.testing.assert_array_equal(nq.first_row_counts(8, n_threads=t),
                                      [4, 8, 16, 18, 18, 16, 8, 4])


@pytest.mark.parametrize("n", range(0, 11))
def test_first_row_counts_match_oracle(n):
    counts = nq.first_row_counts(n)
    assert counts.shape == (n,) and counts.dtype == np.int64
    sols = naive_solutions(n)
    expected = np.bincount(sols[:, 0], minlength=n) if n else np.zeros(0)
    np.testing.assert_array_equal(counts, expected)


@pytest.mark.parametrize("n", [4, 6, 7, 8, 9])
def test_subproblem_counts_match_oracle_at_every_depth(n, monkeypatch):
    """Each subproblem of each split depth has the oracle's number of completions."""
    for depth in range(1, n):
        monkeypatch.setattr(config, "MAX_SPLIT_DEPTH", depth)
        monkeypatch.setattr(config, "TASKS_PER_THREAD", 10**9)
        split = _split.count_split(n, "halving", 1)
        states, got_depth = split.states, split.depth
        counts = _threads.run_split(split, 1)[:, 0]
        assert got_depth == depth
        assert states.shape[1] == 3 + depth
        # The first-row queen stays in the left half (and the middle for odd n).
        assert np.all(2 * states[:, 3] <= n - 1)
        for state, count in zip(states, counts):
            prefix = tuple(int(c) for c in state[3:])
            assert count == len(solutions_by_backtracking(n, prefix))


@pytest.mark.parametrize("n", [5, 8, 10, 12])
def test_results_same_for_every_split_depth(n, monkeypatch):
    monkeypatch.setattr(config, "TASKS_PER_THREAD", 10**9)
    reference_solutions = None
    for depth in range(1, min(n, 6)):
        monkeypatch.setattr(config, "MAX_SPLIT_DEPTH", depth)
        assert nq.count_solutions(n) == A000170[n]
        sols = nq.solve(n)
        if reference_solutions is None:
            reference_solutions = sols
        np.testing.assert_array_equal(sols, reference_solutions)


def test_thread_setting_restored():
    before = numba.get_num_threads()
    nq.count_solutions(9, n_threads=1)
    assert numba.get_num_threads() == before
    with pytest.raises(ValueError):
        nq.count_solutions(9, n_threads=MAX_THREADS + 1)
    assert numba.get_num_threads() == before


# --------------------------------------------------------------------------- enumeration


@pytest.mark.parametrize("n", range(0, 11))
def test_solve_matches_oracle_in_order(n):
    sols = nq.solve(n)
    expected = naive_solutions(n)
    assert sols.dtype == np.int8
    assert sols.flags.c_contiguous
    assert sols.shape == expected.shape
    np.testing.assert_array_equal(sols, expected)  # same rows, same lexicographic order


@pytest.mark.parametrize("n, shape", [(0, (1, 0)), (1, (1, 1)), (2, (0, 2)), (3, (0, 3))])
def test_solve_small_shapes(n, shape):
    sols = nq.solve(n)
    assert sols.shape == shape and sols.dtype == np.int8


@pytest.mark.parametrize("n", [11, 12])
def test_solve_rows_are_sorted_distinct_solutions(n):
    sols = nq.solve(n)
    assert len(sols) == A000170[n]
    assert all(nq.is_solution(row) for row in sols)
    keys = [tuple(row) for row in sols.tolist()]
    assert keys == sorted(set(keys))


@pytest.mark.parametrize("n", [6, 9, 12])
def test_solve_same_for_every_thread_count(n):
    results = [nq.solve(n, n_threads=t) for t in THREADS]
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


@pytest.mark.parametrize("n", [0, 1, 4, 8, 10])
@pytest.mark.parametrize("limit", [0, 1, 5, 91, 92, 93, 10**6])
def test_solve_limit_is_a_prefix(n, limit):
    full = nq.solve(n)
    part = nq.solve(n, limit=limit)
    assert part.dtype == np.int8 and part.flags.c_contiguous
    np.testing.assert_array_equal(part, full[:limit])


def test_solve_limit_beyond_the_table():
    """For n past the tabulated totals the limited search still stops at ``limit``."""
    sols = nq.solve(29, limit=3)
    assert sols.shape == (3, 29)
    assert all(nq.is_solution(row) for row in sols)
    assert sols[0, 0] == 0


@pytest.mark.parametrize("breadth_max_n", [config.BREADTH_MAX_N, 0])
def test_enumeration_consistency_check(monkeypatch, breadth_max_n):
    """A total that disagrees with the search is an error, never a silently wrong array
    (in NumPy and by the kernels)."""
    monkeypatch.setattr(config, "BREADTH_MAX_N", breadth_max_n)
    wrong = list(config.A000170)
    wrong[8] = 90
    monkeypatch.setattr(config, "A000170", tuple(wrong))
    with pytest.raises(RuntimeError, match="expected 90"):
        nq.solve(8)


def test_boards_leetcode():
    assert nq.boards(4) == [[".Q..", "...Q", "Q...", "..Q."], ["..Q.", "Q...", "...Q", ".Q.."]]
    assert nq.boards(1) == [["Q"]]
    assert nq.boards(2) == [] and nq.boards(3) == []
    assert len(nq.boards(8)) == 92
    assert nq.boards(8, limit=1) == [nq.format_board(nq.solve(8)[0])]


def test_boards_bound_their_strings_before_the_search(monkeypatch):
    """``max_bytes`` bounds the boards' strings (78 times the solutions' array at n = 14),
    checked before the search where the number of boards is known: their size, within 10%
    (it counted the memory that making them takes, 40% more at n = 14)."""
    import sys

    from nqueens_numba import enumeration

    text = 92 * (8 * 8 + 58 * 8 + 80)  # n = 8: 92 boards of 8 rows (render.text's sizes)
    made = nq.boards(8, max_bytes=text)
    assert len(made) == 92
    size = sys.getsizeof(made) + sum(sys.getsizeof(board) + sum(map(sys.getsizeof, board))
                                     for board in made)
    assert 0.9 < size / text < 1.1
    with pytest.raises(MemoryError, match=r"92 boards of n=8 would take about 55,936 bytes"
                                          r".*\(limit=91 fits\)"):
        nq.boards(8, max_bytes=text - 1)  # (the solutions' array alone: 736 bytes)
    assert len(nq.boards(8, max_bytes=text - 1, limit=91)) == 91
    with pytest.raises(MemoryError, match=r"4,524 boards of n=13 .* as strings.*\(limit=9 fits"):
        nq.boards(13, torus=True, max_bytes=10**4)  # (not the array's 58,812 bytes)
    monkeypatch.setattr(enumeration, "solve", lambda *args, **kwargs: pytest.fail("searched"))
    for n, kwargs in [(16, {}), (16, dict(limit=10**6)), (12, dict(torus=False))]:
        with pytest.raises(MemoryError, match=rf"boards of n={n} would take .* as strings, "
                                              r"more than max_bytes=100,000"):
            nq.boards(n, max_bytes=10**5, **kwargs)
    monkeypatch.undo()
    with pytest.raises(MemoryError, match=r"as strings.*iter_solutions\(12, preplaced=\{0: 1\}\)"):
        nq.boards(12, preplaced={0: 1}, max_bytes=10**5)  # (constrained: counted first)
    assert len(nq.boards(12, preplaced={0: 1}, limit=3, max_bytes=10**5)) == 3
    with pytest.raises(MemoryError, match=r"iter_solutions\(13, torus=True\)"):
        nq.boards(13, torus=True, max_bytes=10**5)
    # a large limit counts as many boards as there can be, as in solve
    assert len(nq.boards(8, preplaced={0: 0}, limit=10**9)) == 4
    assert len(nq.boards(7, torus=True, limit=10**9)) == 28
    assert len(nq.boards(5, torus=True, limit=100, max_bytes=5000)) == 10


# --------------------------------------------------------------------------- is_solution


def test_is_solution_examples():
    assert nq.is_solution([1, 3, 0, 2]) is True
    assert nq.is_solution([0, 1, 2, 3]) is False  # one diagonal
    assert nq.is_solution([1, 1, 0, 2]) is False  # repeated column
    assert nq.is_solution([1, 3, 0, 4]) is False  # off the board
    assert nq.is_solution([-1, 3, 0, 2]) is False
    assert nq.is_solution([0]) is True
    assert nq.is_solution([]) is True
    assert nq.is_solution(np.array([2, 0, 3, 1], dtype=np.uint8)) is True


def test_is_solution_large_n():
    # For n = 1 or 5 (mod 6), queens[r] = 2r mod n is a solution (Pauls 1874).
    n = 100_001
    queens = (2 * np.arange(n)) % n
    assert nq.is_solution(queens)
    broken = queens.copy()
    broken[[10, 11]] = broken[[11, 10]]  # a column swap keeps the permutation
    assert not nq.is_solution(broken)


@pytest.mark.parametrize("bad", [[0.0, 1.0], [True, False], ["a", "b"], np.array([1.5]),
                                 np.array([], dtype=float)])
def test_is_solution_rejects_non_integers(bad):
    with pytest.raises(TypeError):
        nq.is_solution(bad)


def test_paths_boards_and_ragged_object_arrays_get_errors_that_name_them(tmp_path):
    for wrong in (5, True, ["a.json"]):
        with pytest.raises(TypeError, match="checkpoint must be a file's path"):
            nq.count_solutions(8, checkpoint=wrong)
    with pytest.raises(TypeError, match="path must be a file's path"):
        nq.checkpoint.status(None)
    with pytest.raises(TypeError, match="path_or_file must be a path or an open file"):
        nq.save_solutions(5, 6)
    for piece, torus, match in [([], False, "piece must be a string"),
                                ("queen", [], "torus must be True or False"),
                                ("queen", np.array([True]), "torus must be True or False")]:
        with pytest.raises(TypeError, match=match):
            nq.solve(6, piece=piece, torus=torus)
    for call in (nq.is_solution, nq.to_boards, nq.format_text, nq.to_svg):
        with pytest.raises(ValueError, match="rows of equal length"):
            call(np.array([[1, 2], [3]], dtype=object))
        with pytest.raises(ValueError, match="rows of equal length"):
            call([[1, 2], [3]])


def test_tunables_that_would_break_calls_are_refused_when_set(monkeypatch):
    """(``STEP_BUDGET = 0`` made counts never end; 0 elsewhere divided by zero.)"""
    from nqueens_numba import config

    for name, value, error, match in [
            ("STEP_BUDGET", 0, ValueError, "config.STEP_BUDGET must be 1 or more, got 0"),
            ("LOCAL_SEARCH_BUDGET", -1, ValueError, "1 or more"),
            ("TASKS_PER_THREAD", 2.0, TypeError, "must be an integer, got float"),
            ("MAX_SUBPROBLEMS", True, TypeError, "must be an integer, got bool"),
            ("TASK_SECONDS", 0, ValueError, "seconds above 0"),
            ("CHECKPOINT_SECONDS", -1.0, ValueError, "0 or more seconds"),
            ("MEMORY_FRACTION", 1.5, ValueError, "at most 1"),
            ("GPU_MAX_REGISTERS", -1, ValueError, "GPU_MAX_REGISTERS must be 0 or more"),
            ("GPU_MAX_REGISTERS", 64.0, TypeError, "must be an integer, got float"),
            ("GPU_MAX_REGISTERS", 256, ValueError, "0 or more, at most 255, got 256"),
            # (0 divided by zero in solve; the others failed in a comparison, or in NumPy)
            ("MIN_SOLUTIONS_PER_SUBPROBLEM", 0, ValueError, "1 or more, got 0"),
            ("BREADTH_MAX_N", "12", TypeError, "BREADTH_MAX_N must be an integer, got str"),
            ("SHUFFLE_SEED", -1, ValueError, "SHUFFLE_SEED must be 0 or more, got -1"),
            ("COST_GROWTH_PER_N", 0, ValueError, "must be a number above 0, got 0"),
            ("MAX_N", 64, ValueError, "MAX_N is 63, .* cannot be changed; got 64"),
            ("ESTIMATE_TAIL_ROWS", ((20, 8),), ValueError, "must end with a pair for n = 63"),
            ("ESTIMATE_TAIL_ROWS", ((63, -1),), ValueError, "rows must be 0 or more"),
            ("ESTIMATE_TAIL_ROWS", 8, TypeError, "a tuple of pairs"),
            ("VARIANT_COST", {"torus": (23, 665.0, 5.4)}, TypeError, "dict of"),
            ("VARIANT_COST", {"torus": (23, 0, 5.4), "superqueen": (17, 0.72, 6.5)},
             ValueError, r"VARIANT_COST\['torus'\] must be \(n, seconds, growth\)"),
            ("STEP_BUGDET", 10, AttributeError, "has no tunable 'STEP_BUGDET'"),
            ("ESTIMATE_TAIL_ROWS", ((63, 2**63 - 1),), ValueError, "at most 63"),  # (no end)
            ("ESTIMATE_TAIL_ROWS", ((22, 8), (10, 1), (63, 10)), ValueError, "orders must rise"),
            ("VARIANT_COST", {"torus": (23.5, 665.0, 5.4), "superqueen": (17, 0.72, 6.5)},
             ValueError, r"n an integer"),
            ("COUNT_BUDGET", 2**63, ValueError,  # (an OverflowError in the kernel's call)
             r"at most 2\*\*63 - 1 \(an int64\), got 9223372036854775808")]:
        before = getattr(config, name, None)
        with pytest.raises(error, match=match):
            setattr(config, name, value)
        assert getattr(config, name, None) == before
    monkeypatch.setattr(config, "STEP_BUDGET", np.int64(1 << 10))  # NumPy integers: fine
    # ... kept as Python numbers (np.int8(1) overflowed in the split's arithmetic)
    monkeypatch.setattr(config, "SOLUTIONS_PER_SUBPROBLEM", np.int8(1))
    monkeypatch.setattr(config, "MEMORY_FRACTION", np.float16(0.5))
    assert type(config.SOLUTIONS_PER_SUBPROBLEM) is int
    assert type(config.MEMORY_FRACTION) is float
    with pytest.raises(TypeError):  # (read-only: a change in place would pass no check)
        config.VARIANT_COST["torus"] = (1, 1, 1)
    monkeypatch.delattr(config, "QUEUED_BLOCKS")  # (set again when undone: a tunable still)
    monkeypatch.setattr(config, "CHECKPOINT_SECONDS", 0)  # 0 s: after every kernel call
    monkeypatch.setattr(config, "GPU_MAX_REGISTERS", 0)  # 0: no cap
    assert nq.count_solutions(13, method="halving", progress=False) == 73712


def test_every_tunable_is_checked_when_set():
    """A tunable added without a check would take any value: each but the tables of counts
    is in one of the checked lists, and its present value passes its check."""
    from nqueens_numba import config

    tunables = {name for name in vars(config)
                if name.isupper() and not name.startswith("_")} - {"A000170", "A002562"}
    checked = set(config._INTEGERS) | set(config._NUMBERS) | {"ESTIMATE_TAIL_ROWS",
                                                                 "VARIANT_COST"}
    assert tunables == checked
    for name in tunables:
        config._check(name, getattr(config, name))


def test_is_solution_rejects_wrong_shape():
    with pytest.raises(ValueError, match="shape"):
        nq.is_solution([[1, 3, 0, 2]])
    assert nq.is_solution([])  # the empty board's one solution (NumPy makes [] float64)
    with pytest.raises(ValueError, match="rows of equal length"):
        nq.transform([[1, 3, 0, 2], [2, 0]], "rot90")


@settings(deadline=None, max_examples=200)
@given(st.lists(st.integers(-2, 9), min_size=0, max_size=9))
def test_is_solution_matches_naive(queens):
    assert nq.is_solution(np.array(queens, dtype=np.int64)) == is_solution_naive(queens)


@settings(deadline=None, max_examples=200)
@given(st.permutations(list(range(8))))
def test_is_solution_on_permutations(perm):
    assert nq.is_solution(perm) == is_solution_naive(perm)


# --------------------------------------------------------------------------- bad input

ENTRY_POINTS = [nq.count_solutions, nq.solve, nq.first_row_counts, nq.boards]


@pytest.mark.parametrize("func", ENTRY_POINTS)
@pytest.mark.parametrize("bad", [True, False, 8.0, "8", None, np.float64(8), np.bool_(True),
                                 [8], 8 + 0j])
def test_n_type_errors(func, bad):
    with pytest.raises(TypeError, match="n must be an integer"):
        func(bad)


@pytest.mark.parametrize("func", ENTRY_POINTS)
@pytest.mark.parametrize("bad", [-1, 64, 65, 10**20, np.int64(-5)])
def test_n_range_errors(func, bad):
    with pytest.raises(ValueError, match=r"0\.\.63"):
        func(bad)


@pytest.mark.parametrize("n", [np.int8(8), np.int32(8), np.int64(8), np.uint8(8), np.uint64(8)])
def test_numpy_integers_accepted(n):
    assert nq.count_solutions(n) == 92
    assert nq.solve(n).shape == (92, 8)


@pytest.mark.parametrize("func", ENTRY_POINTS)
def test_thread_errors(func):
    with pytest.raises(ValueError, match=f"1..{MAX_THREADS}"):
        func(6, n_threads=0)
    with pytest.raises(ValueError, match=f"1..{MAX_THREADS}"):
        func(6, n_threads=MAX_THREADS + 1)
    with pytest.raises(ValueError):
        func(6, n_threads=10**6)
    for bad in (1.0, True, "1"):
        with pytest.raises(TypeError, match="n_threads"):
            func(6, n_threads=bad)


def test_limit_errors():
    with pytest.raises(ValueError, match="non-negative"):
        nq.solve(6, limit=-1)
    for bad in (1.5, True, "3"):
        with pytest.raises(TypeError, match="limit"):
            nq.solve(6, limit=bad)


# --------------------------------------------------------------------------- memory guard


def test_solve_refuses_results_beyond_the_table():
    with pytest.raises(MemoryError, match="count_solutions"):
        nq.solve(28)
    with pytest.raises(MemoryError, match="bytes"):
        nq.solve(28, limit=2**63)
    assert nq.solve(28, limit=2).shape == (2, 28)


def test_max_bytes():
    with pytest.raises(MemoryError, match=r"7,240 bytes \(724 solutions of 10 bytes\), "
                       r"more than max_bytes=1,000 \(the default is"):
        nq.solve(10, max_bytes=1000)
    with pytest.raises(MemoryError, match=r"\(1 solution of 8 bytes\)"):
        nq.solve(8, limit=1, max_bytes=0)
    with pytest.raises(MemoryError, match=r"take 1 byte \(1 solution of 1 byte\)"):
        nq.solve(1, max_bytes=0)
    assert nq.solve(10, max_bytes=7240).shape == (724, 10)
    with pytest.raises(MemoryError):
        nq.solve(10, limit=100, max_bytes=999)
    assert nq.solve(10, limit=100, max_bytes=1000).shape == (100, 10)
    with pytest.raises(ValueError, match="max_bytes"):
        nq.solve(8, max_bytes=-1)
    for bad in (1.0, True, "1"):
        with pytest.raises(TypeError, match="max_bytes"):
            nq.solve(8, max_bytes=bad)


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr")


@pytest.mark.parametrize("bad", [np.timedelta64(5), _BadRepr()])
def test_odd_objects_as_n(bad):
    with pytest.raises(TypeError, match="n must be an integer"):
        nq.count_solutions(bad)


def test_is_solution_huge_python_ints():
    assert nq.is_solution([0, 2**64]) is False
    assert nq.is_solution([2**63, 0]) is False


@pytest.mark.parametrize("n", range(1, 15))
def test_small_counts_run_the_root_kernel(monkeypatch, n):
    """Plain counts of at most config.DIRECT_SOLUTIONS solutions (n <= 14) not searched in
    NumPy (n > 12) run _count_rows from the root, which compiles in a fraction of a
    second, while the split's kernel is not loaded, and agree with OEIS and both methods."""
    from nqueens_numba import _kernels, _split

    monkeypatch.setattr(_kernels, "loaded_counts", set())

    stack = np.empty((n, 4), dtype=np.int64)
    assert _kernels._count_rows(n, 0, 0, 0, 0, nq.constraints.no_constraints(n), stack) == A000170[n]
    assert _split.is_small(n)
    for kernel in ("_count_symmetric_run", "_count_batch", "_enumerate_prefixes",
                   "_list_symmetric_prefixes"):
        monkeypatch.setattr(_kernels, kernel, None)  # not called
    count = nq.count_solutions(n)
    assert count == A000170[n] and type(count) is int
    monkeypatch.undo()
    for method in ("halving", "symmetric"):
        assert nq.count_solutions(n, method=method) == A000170[n]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.data())
def test_root_kernel_agrees_with_the_general_one(n, data):
    """_count_rows, the plain board's own loop, counts every subproblem (queens placed in
    the first rows, blocked squares anywhere) as _count_rows_of on the plain board does,
    and as the naive oracle."""
    from nqueens_numba import _kernels

    blocked = [[data.draw(st.integers(0, 3)) == 0 for _ in range(n)] for _ in range(n)]
    allow = np.array([sum(1 << c for c in range(n) if not blocked[r][c]) for r in range(n)],
                     dtype=np.int64)
    prefix = []
    for row in range(data.draw(st.integers(0, n))):  # queens that attack no other
        free = [c for c in range(n) if not blocked[row][c] and is_solution_naive(prefix + [c])]
        if not free:
            break
        prefix.append(data.draw(st.sampled_from(free)))
    cols = diag = anti = 0
    for c in prefix:  # the masks of row len(prefix), as the searches keep them
        bit = 1 << c
        cols, diag, anti = cols | bit, (diag | bit) << 1, (anti | bit) >> 1
    expected = sum(1 for q in solutions_by_backtracking(n, tuple(prefix))
                   if not any(blocked[r][q[r]] for r in range(n)))
    lean = _kernels._count_rows(n, len(prefix), cols, diag, anti, allow,
                                np.empty((n, 4), dtype=np.int64))
    general = _kernels.count._count_rows_of(n, len(prefix), cols, diag, anti, allow, 0, 0, 0,
                                            np.empty(0, dtype=np.int64), 0)
    assert lean == general == expected


def _public_functions():
    """Every public function of the package and of its public modules."""
    import inspect

    from nqueens_numba import symmetry
    for module in (nq, symmetry):
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value):
                yield f"{module.__name__}.{name}", value


@pytest.mark.parametrize("name, function", list(_public_functions()))
def test_docstring_sections_filled(name, function):
    """Every shared docstring section is filled in, and the parameters it names are the
    function's own."""
    import inspect

    doc = function.__doc__
    assert doc and "%(" not in doc, name
    lines = inspect.cleandoc(doc).splitlines()
    if "Parameters" not in lines:
        return
    start = lines.index("Parameters") + 2
    end = next((i for i in range(start, len(lines) - 1)
                if lines[i + 1].startswith("---")), len(lines))
    named = {part for line in lines[start:end] if line and not line.startswith(" ")
             for part in line.split(" : ")[0].split(", ")}
    assert named <= set(inspect.signature(function).parameters), name


def test_fill_replaces_a_section_at_its_indent():
    from nqueens_numba import _docs

    def f(queens):
        """Summary.

        %(placements)s
        """
    _docs.fill(f)
    assert "\n        Parameters\n        ----------\n        queens : array_like" in f.__doc__
    with pytest.raises(KeyError):
        def g():
            """%(no such section)s"""
        _docs.fill(g)


def _public_objects():
    """Every public function and class of the package (with the public methods of the
    classes), by name."""
    import inspect

    for name in nq.__all__:
        value = getattr(nq, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value):
            yield name, value
            yield from ((f"{name}.{m}", getattr(value, m)) for m in vars(value)
                        if not m.startswith("_") and callable(getattr(value, m)))


@pytest.mark.parametrize("name, value", list(_public_objects()))
def test_user_docstrings_name_no_private_function(name, value):
    """What ``help()`` shows a user names public things only (the kernels are private)."""
    import re

    doc = value.__doc__ or ""
    private = [m for m in re.findall(r"(?<![\w.])_[a-z]\w*", doc)
               if not re.fullmatch(r"_repr_\w+_", m)]
    assert private == [], name


def test_help_of_count_solutions_is_short():
    import pydoc

    lines = pydoc.render_doc(nq.count_solutions, renderer=pydoc.plaintext).splitlines()
    assert len(lines) <= 125
