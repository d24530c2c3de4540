"""Small boards in NumPy (``_breadth``): the same results as the oracles and the kernels, and
no numba imported for them."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import _breadth, _kernels, _validate, config
from nqueens_numba.constraints import check_constraints

from naive import (as_array, count_with_constraints, solutions_by_backtracking,
                   solutions_by_permutations, solutions_with_constraints)

#: OEIS A000170 and A002562, n = 0..12.
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]
A002562 = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]

#: Every kernel a small board's count, enumeration or stream could call.
KERNELS = ("_count_rows", "_count_batch", "_count_allowed_batch", "_count_symmetric_run",
           "_list_symmetric_prefixes", "_enumerate_prefixes", "_fill_rows", "_fill_solutions",
           "_mirror_rows", "_start_cursor")


def naive(n):
    return as_array(solutions_by_permutations(n) if n <= 8 else solutions_by_backtracking(n), n)


@pytest.mark.parametrize("n", range(0, 11))
def test_the_search_matches_the_oracles(n):
    expected = naive(n)
    got = _breadth.solutions(n)
    assert got.dtype == np.int8 and got.flags.c_contiguous
    assert np.array_equal(got, expected)  # same rows, same (lexicographic) order
    assert _breadth.count(n) == len(expected) == A000170[n]
    full = np.full(n, (1 << n) - 1, dtype=np.int64)  # without mirror halving
    assert np.array_equal(_breadth.solutions(n, full), expected)
    assert _breadth.count(n, full) == len(expected)


@pytest.mark.parametrize("seed", range(12))
def test_constrained_boards_match_the_oracles(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 9))
    blocked = rng.random((n, n)) < 0.15
    row = int(rng.integers(n))
    col = int(rng.integers(n))
    blocked[row, col] = False
    preplaced = {row: col}
    allow = check_constraints(n, preplaced, blocked).allow
    expected = as_array(solutions_with_constraints(n, preplaced, blocked), n)
    assert np.array_equal(_breadth.solutions(n, allow), expected)
    assert _breadth.count(n, allow) == len(expected)
    assert count_with_constraints(n, preplaced, blocked) == len(expected)


@pytest.fixture
def no_kernels(monkeypatch):
    """Any kernel called fails the test."""
    for name in KERNELS:
        monkeypatch.setattr(_kernels, name, None)


@pytest.mark.parametrize("n", range(0, 13))
def test_small_boards_run_no_kernel(no_kernels, n):
    assert nq.count_solutions(n) == A000170[n]
    assert nq.count_solutions(n, fundamental=True) == A002562[n]
    assert sum(nq.symmetry_classes(n).values()) == A002562[n]
    assert len(nq.solve(n)) == A000170[n]
    assert len(nq.fundamental_solutions(n)) == A002562[n]
    assert sum(len(chunk) for chunk in nq.iter_solutions(n, chunk_size=1000)) == A000170[n]
    counts = nq.first_row_counts(n)
    assert counts.dtype == np.int64 and counts.shape == (n,)
    assert (counts.sum() if n else 1) == A000170[n]


@pytest.mark.parametrize("n", [8, 11, 12])
def test_small_boards_agree_with_the_kernels(monkeypatch, n):
    cons = dict(preplaced={1: 3}, blocked=np.eye(n, dtype=bool)[::-1])
    small = [nq.solve(n), nq.solve(n, limit=5), nq.solve(n, **cons), nq.boards(n, limit=3),
             nq.fundamental_solutions(n), nq.symmetry_classes(n),
             nq.count_solutions(n, **cons), nq.first_row_counts(n),
             [c.copy() for c in nq.iter_solutions(n, chunk_size=777, **cons)]]
    monkeypatch.setattr(config, "BREADTH_MAX_N", -1)
    kernels = [nq.solve(n), nq.solve(n, limit=5), nq.solve(n, **cons), nq.boards(n, limit=3),
               nq.fundamental_solutions(n), nq.symmetry_classes(n),
               nq.count_solutions(n, **cons), nq.first_row_counts(n),
               list(nq.iter_solutions(n, chunk_size=777, **cons))]
    for a, b in zip(small, kernels):
        if isinstance(a, list) and a and isinstance(a[0], np.ndarray):
            assert [x.shape for x in a] == [x.shape for x in b]
            a, b = np.concatenate(a), np.concatenate(b)
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


def test_small_results_check_memory_and_limits():
    with pytest.raises(MemoryError):
        nq.solve(12, max_bytes=1000)
    with pytest.raises(MemoryError):
        nq.solve(8, preplaced={0: 0}, max_bytes=31)  # 4 solutions of 8 bytes
    assert nq.solve(8, preplaced={0: 0}, max_bytes=32).shape == (4, 8)
    assert nq.solve(8, limit=0).shape == (0, 8)
    assert nq.solve(3, limit=5).shape == (0, 3)
    assert nq.solve(0, limit=1).shape == (1, 0)
    first = nq.solve(10, limit=3)
    assert first.flags.c_contiguous and first.base is None  # not a view of all 724
    chunks = list(nq.iter_solutions(9, chunk_size=100))
    assert [len(c) for c in chunks] == [100, 100, 100, 52]
    assert all(c.flags.c_contiguous and c.base is None for c in chunks)


def test_a_new_process_needs_no_numba_for_small_boards():
    """The first calls on small boards import no numba (nor tqdm): nothing to compile."""
    code = textwrap.dedent("""
        import sys
        import nqueens_numba as nq
        assert nq.count_solutions(12) == 14200
        nq.count_solutions(8, fundamental=True), nq.count_solutions(8, preplaced={0: 0})
        nq.solve(8), nq.boards(4), nq.fundamental_solutions(8), nq.symmetry_classes(10)
        next(iter(nq.iter_solutions(10))), nq.construct(1000), nq.is_solution([1, 3, 0, 2])
        print(sorted(m for m in ("numba", "tqdm", "dask", "matplotlib") if m in sys.modules))
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize("env", [{}, {"NUMBA_NUM_THREADS": "1"}, {"NUMBA_NUM_THREADS": "3"}])
def test_thread_limit_is_numbas(env):
    """The thread limit read without numba is numba's own NUMBA_NUM_THREADS."""
    code = ("import nqueens_numba._validate as v; a = v.max_threads(); import numba; "
            "print(a, numba.config.NUMBA_NUM_THREADS)")
    base = {k: v for k, v in os.environ.items() if k != "NUMBA_NUM_THREADS"}
    run = subprocess.run([sys.executable, "-c", code], env={**base, **env},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    ours, numbas = run.stdout.split()
    assert ours == numbas
    assert _validate.max_threads() >= 1
