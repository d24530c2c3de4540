import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_numba as nq
from nqueens_numba import _split, config, symmetry

from naive import (all_images_naive, board_matrix, canonical_naive, in_symmetric_search_naive,
                   orbit_size_naive, representative_naive, tied_edges_naive)

# OEIS A000170 and A002562, n = 0..15 (https://oeis.org/A000170, https://oeis.org/A002562).
# A002562 has no n = 0 term; the empty board is one orbit.
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]
A002562 = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053]

THREADS = sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)})
# The square each element sends (r, c) to, on a board with m = n - 1 (the documented maps).
SQUARE_MAPS = {
    "identity": lambda r, c, m: (r, c),
    "rot90": lambda r, c, m: (c, m - r),
    "rot180": lambda r, c, m: (m - r, m - c),
    "rot270": lambda r, c, m: (m - c, r),
    "flip_h": lambda r, c, m: (r, m - c),
    "flip_v": lambda r, c, m: (m - r, c),
    "transpose": lambda r, c, m: (c, r),
    "anti_transpose": lambda r, c, m: (m - c, m - r),
}

permutations = st.integers(1, 12).flatmap(lambda n: st.permutations(list(range(n))))
elements = st.sampled_from(symmetry.D4)


# --------------------------------------------------------------------------- counts


@pytest.mark.parametrize("n", range(1, 16))
def test_fundamental_count_matches_oeis(n):
    assert nq.count_solutions(n, fundamental=True) == A002562[n]


@pytest.mark.parametrize("n", range(0, 16))
def test_methods_agree_with_oeis(n):
    halving = nq.count_solutions(n, method="halving")
    symmetric = nq.count_solutions(n, method="symmetric")
    assert halving == symmetric == nq.count_solutions(n) == A000170[n]


@pytest.mark.slow
def test_methods_agree_16():
    assert (nq.count_solutions(16, method="symmetric")
            == nq.count_solutions(16, method="halving") == 14772512)
    assert nq.count_solutions(16, fundamental=True) == 1846955


@pytest.mark.parametrize("n", range(2, 12))
def test_burnside(n):
    """fundamental == (total + P + 2R) / 8, P and R counted on the enumerated solutions."""
    sols = nq.solve(n)
    fixed_rot180 = int(np.all(symmetry.transform(sols, "rot180") == sols, axis=1).sum())
    fixed_rot90 = int(np.all(symmetry.transform(sols, "rot90") == sols, axis=1).sum())
    total = len(sols)
    assert (total + fixed_rot180 + 2 * fixed_rot90) % 8 == 0
    assert nq.count_solutions(n, fundamental=True) == (total + fixed_rot180 + 2 * fixed_rot90) // 8


@pytest.mark.parametrize("n", range(0, 12))
def test_symmetry_classes_match_enumeration(n):
    classes = nq.symmetry_classes(n)
    sols = nq.solve(n)
    sizes = [orbit_size_naive(s) for s in nq.fundamental_solutions(n)]
    expected = {size: sizes.count(size) for size in (8, 4, 2, 1) if sizes.count(size)}
    assert classes == expected
    assert sum(size * count for size, count in classes.items()) == len(sols)
    assert sum(classes.values()) == A002562[n]


def test_symmetry_classes_examples():
    assert nq.symmetry_classes(8) == {8: 11, 4: 1}
    assert nq.symmetry_classes(4) == {2: 1}
    assert nq.symmetry_classes(1) == {1: 1}
    assert nq.symmetry_classes(3) == {}


@pytest.mark.parametrize("n", [7, 9, 12])
def test_symmetric_counts_same_for_every_split_and_thread_count(n, monkeypatch):
    """Per-orbit-size totals do not depend on the split depth or the number of threads."""
    results = set()
    monkeypatch.setattr(config, "TASKS_PER_THREAD", 10**9)
    for depth in range(2, n - 4):
        monkeypatch.setattr(config, "MAX_SPLIT_DEPTH", depth)
        got = _split.count_split(n, "symmetric", 1).depth
        assert got == depth
        for t in THREADS:
            results.add(tuple(sorted(nq.symmetry_classes(n, n_threads=t).items())))
    assert len(results) == 1


@pytest.mark.parametrize("n", [7, 8, 9, 10, 11, 12])
def test_symmetric_kernel_per_state_matches_enumeration(n):
    """Each subproblem of the symmetric split counts the searched solutions that extend its
    prefix: by tied edges when their stabilizer is trivial; for orbits of 4 and 2, the
    representative only."""
    searched = [tuple(q) for q in nq.solve(n).tolist() if in_symmetric_search_naive(q)]
    for depth in sorted({2, (n - 3) // 2, n - 5}):
        expected = {}
        for q in searched:
            row = expected.setdefault(q[:depth], [0] * 6)
            size = orbit_size_naive(q)
            if size == 8:
                row[tied_edges_naive(q) - 1] += 1
            elif representative_naive(q) == q:
                row[4 if size == 4 else 5] += 1
        split = _split.count_split(n, "symmetric", 1, prefix_depth=depth)
        for job in (split.job, split.job.first_use()):  # (the first count's kernel too)
            counts = job(split.states)
            assert counts.shape == (len(split.states), 6)
            found = {tuple(state[3:].tolist()): row.tolist()
                     for state, row in zip(split.states, counts) if row.any()}
            assert found == {k: v for k, v in expected.items() if any(v)}


@pytest.mark.parametrize("n", [*range(7, 15), pytest.param(16, marks=pytest.mark.slow)])
def test_the_first_counts_kernel_gives_the_symmetric_kernels_results(n):
    """The symmetric kernel that a first count runs (``CountJob.first``) gives every
    subproblem the symmetric kernel's results at every split depth, and the same in batches
    cut short by its budget or by another thread's signal, between two subproblems: none is
    left in progress."""
    for depth in sorted({2, (n - 3) // 2, min(n - 5, 6)}):
        split = _split.count_split(n, "symmetric", 1, prefix_depth=depth)
        assert np.array_equal(split.job.first_use()(split.states), split.job(split.states))
    split = _split.count_split(n, "symmetric", 1, prefix_depth=min(3, n - 5))
    first = split.job.first_use()
    want = split.job(split.states)
    for signal in (np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)):
        rows, done = [], 0
        while done < len(want):
            piece = first.piece(done)
            counts, k = first.run(split.states[done:done + 3], piece, 1, signal)
            assert k == 1 and piece.level[0] == -1 and not piece.partial.any()
            rows.append(counts[:k])
            done += k
        assert np.array_equal(np.concatenate(rows), want)


@pytest.mark.parametrize("n", [7, 9, 12, pytest.param(13, marks=pytest.mark.slow)])
def test_tied_edge_counts_divide(n):
    """Summed over the split, the leaves of orbits of 8 with e tied edges come e per orbit."""
    split = _split.count_split(n, "symmetric", 1)
    sums = split.job(split.states).sum(axis=0)
    assert all(sums[e - 1] % e == 0 for e in range(1, 5))
    sols = nq.solve(n).tolist()
    by_tied = [0] * 4
    for q in sols:
        if orbit_size_naive(q) == 8:
            by_tied[tied_edges_naive(q) - 1] += 1
    # every orbit of 8 has 8 solutions; e of them are searched
    assert [int(s) * 8 for s in sums[:4]] == [c * e for e, c in enumerate(by_tied, 1)]


def test_fundamental_requires_symmetric():
    with pytest.raises(ValueError, match="symmetric"):
        nq.count_solutions(8, method="halving", fundamental=True)
    with pytest.raises(ValueError, match="method"):
        nq.count_solutions(8, method="fast")
    for wrong in (np.array(["symmetric", "halving"]), 1, True):
        with pytest.raises(TypeError, match="method must be a string"):
            nq.count_solutions(8, method=wrong)
    with pytest.raises(TypeError, match="fundamental"):
        nq.count_solutions(8, fundamental=1)


# --------------------------------------------------------------------------- fundamental set


@pytest.mark.parametrize("n", range(0, 11))
def test_fundamental_solutions_match_naive(n):
    fund = nq.fundamental_solutions(n)
    sols = nq.solve(n)
    expected = sorted({canonical_naive(s) for s in sols.tolist()})
    assert fund.dtype == np.int8 and fund.flags.c_contiguous
    assert fund.shape == (len(expected), n) if n else fund.shape == (1, 0)
    if n:
        assert [tuple(r) for r in fund.tolist()] == expected
        assert all(nq.is_canonical(r) for r in fund)
        assert sum(len(nq.orbit(r)) for r in fund) == len(sols)


@pytest.mark.parametrize("n", [12, 13])
def test_fundamental_solutions_count(n):
    fund = nq.fundamental_solutions(n)
    assert len(fund) == A002562[n]
    assert np.all(nq.is_canonical(fund))
    assert int(nq.orbit_size(fund).sum()) == A000170[n]


def test_fundamental_solutions_that_do_not_fit_say_so_in_their_own_words(monkeypatch):
    """Its memory is every solution's (it said solve's words: take the first k with
    limit=k, which it has not; a large result warned of solve(18))."""
    import warnings

    from nqueens_numba import _validate

    with pytest.raises(MemoryError, match=r"^fundamental_solutions\(20\) enumerates every "
                       r"solution first .*39,029,188,884 solutions .*count_solutions\(20, "
                       r"fundamental=True\) counts them") as info:
        nq.fundamental_solutions(20)
    assert "limit" not in str(info.value)
    import pickle

    with pytest.raises(MemoryError) as info:  # (a process pool sends it back pickled)
        nq.solve(12, max_bytes=10)
    again = pickle.loads(pickle.dumps(info.value))
    assert isinstance(again, MemoryError) and str(again) == str(info.value)
    for n in (28, 63):  # (past the tabulated totals: solve's words were pasted in)
        with pytest.raises(MemoryError, match=rf"^fundamental_solutions\({n}\) enumerates "
                           r"every solution first .*\): more than 2.35e\+17 solutions \(over "
                           r"\d+ EiB\) do not fit in memory; count_solutions") as info:
            nq.fundamental_solutions(n)
        assert "limit" not in str(info.value) and "solve(" + str(n) + ") would" not in str(
            info.value)
    monkeypatch.setattr(config, "LARGE_RESULT_BYTES", 1000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert len(nq.fundamental_solutions(10)) == 92
    assert [str(w.message).split(":")[0] for w in caught] == [
        "fundamental_solutions(10) enumerates every solution first (solve(10), about 8 times "
        "as many)"]
    with warnings.catch_warnings(record=True) as caught:  # (no tabulated total: solve's)
        warnings.simplefilter("always")
        assert len(nq.fundamental_solutions(12, piece="superqueen")) == 22
    assert [str(w.message)[:36] for w in caught] == ["solve(12, piece='superqueen') fills "]
    monkeypatch.setattr(_validate, "max_bytes", lambda value: 100)
    with pytest.raises(MemoryError, match=r"^fundamental_solutions\(12, piece='superqueen'\) "
                       r"enumerates every solution first .*: 1,872 bytes \(156 solutions of "
                       r"12 bytes\) do not fit in memory; count_solutions") as info:
        nq.fundamental_solutions(12, piece="superqueen")
    assert "limit" not in str(info.value) and str(info.value).count("iter_solutions") == 1


# --------------------------------------------------------------------------- D4 itself


@pytest.mark.parametrize("element", symmetry.D4)
def test_transform_matches_documented_map(element):
    queens = np.array([1, 3, 5, 0, 2, 4])
    n = len(queens)
    board = board_matrix(queens)
    moved = np.zeros_like(board)
    for r, c in zip(*np.nonzero(board)):
        moved[SQUARE_MAPS[element](r, c, n - 1)] = 1
    np.testing.assert_array_equal(board_matrix(nq.transform(queens, element)), moved)


def test_images_match_naive():
    sols = nq.solve(8)
    imgs = nq.images(sols)
    assert imgs.shape == (92, 8, 8)
    for s, row in zip(sols, imgs):
        assert sorted(map(tuple, row.tolist())) == sorted(all_images_naive(s))


@settings(deadline=None, max_examples=100)
@given(permutations, elements)
def test_transform_keeps_shape_dtype(perm, element):
    q = np.array(perm, dtype=np.int8)
    out = nq.transform(q, element)
    assert out.shape == q.shape and out.dtype == q.dtype
    batch = np.stack([q, q[::-1]])
    out2 = nq.transform(batch, element)
    assert out2.shape == batch.shape and out2.dtype == np.int8
    np.testing.assert_array_equal(out2[0], out)


@settings(deadline=None, max_examples=100)
@given(permutations)
def test_rot90_four_times_is_identity(perm):
    q = np.array(perm)
    r = q
    for _ in range(4):
        r = nq.transform(r, "rot90")
    np.testing.assert_array_equal(r, q)
    assert not np.array_equal(nq.transform(q, "rot90"), q) or nq.stabilizer_order(q) >= 4


@settings(deadline=None, max_examples=100)
@given(permutations, elements, elements)
def test_transforms_compose_like_d4(perm, a, b):
    q = np.array(perm)
    np.testing.assert_array_equal(nq.transform(nq.transform(q, a), b),
                                  nq.transform(q, nq.compose(b, a)))


def test_composition_table_is_a_group():
    names = symmetry.D4
    table = {(a, b): nq.compose(a, b) for a in names for b in names}
    for a in names:
        assert sorted(table[a, b] for b in names) == sorted(names)  # a Latin square
        assert table[a, "identity"] == table["identity", a] == a
    assert table["rot90", "rot90"] == "rot180"
    assert table["flip_h", "flip_v"] == "rot180"
    assert table["transpose", "flip_h"] in ("rot90", "rot270")


@settings(deadline=None, max_examples=100)
@given(permutations, elements)
def test_canonical_form_invariant_and_idempotent(perm, element):
    q = np.array(perm)
    c = nq.canonical_form(q)
    np.testing.assert_array_equal(nq.canonical_form(c), c)
    np.testing.assert_array_equal(nq.canonical_form(nq.transform(q, element)), c)
    assert nq.is_canonical(c)
    assert tuple(c.tolist()) == canonical_naive(perm)


@settings(deadline=None, max_examples=100)
@given(permutations)
def test_orbit_and_stabilizer(perm):
    q = np.array(perm)
    orb = nq.orbit(q)
    assert len(orb) * nq.stabilizer_order(q) == 8
    assert len(orb) == nq.orbit_size(q) == orbit_size_naive(perm)
    assert [tuple(r) for r in orb.tolist()] == sorted(set(all_images_naive(perm)))


def test_batch_functions():
    sols = nq.solve(8)
    canon = nq.canonical_form(sols)
    assert canon.shape == sols.shape
    np.testing.assert_array_equal(canon, [nq.canonical_form(s) for s in sols])
    np.testing.assert_array_equal(nq.is_canonical(sols), [nq.is_canonical(s) for s in sols])
    np.testing.assert_array_equal(nq.stabilizer_order(sols),
                                  [nq.stabilizer_order(s) for s in sols])
    orbits = nq.orbit(sols)
    assert len(orbits) == 92 and all(len(o) in (4, 8) for o in orbits)
    assert len({tuple(map(tuple, o.tolist())) for o in orbits}) == 12


@pytest.mark.parametrize("bad", [[0, 0, 1, 2], [0, 1, 4], [-1, 0], [[0, 1], [1, 1]],
                                 [[[0]]]])
def test_invalid_placements(bad):
    for func in (nq.canonical_form, nq.orbit, nq.is_canonical, nq.stabilizer_order,
                 nq.images, lambda q: nq.transform(q, "rot90")):
        with pytest.raises(ValueError):
            func(bad)


def test_invalid_placement_messages():
    with pytest.raises(ValueError, match="not a valid placement: a column is repeated"):
        nq.transform([0, 0, 1, 2], "rot90")
    with pytest.raises(ValueError, match="placement 1 of the batch"):
        nq.canonical_form([[1, 3, 0, 2], [0, 0, 1, 2]])


def test_invalid_element_and_types():
    with pytest.raises(ValueError, match="rot90"):
        nq.transform([0], "rot45")
    with pytest.raises(TypeError):
        nq.canonical_form([0.0, 1.0])
    with pytest.raises(ValueError):
        nq.compose("rot90", "nope")
    for wrong in (None, True, 1):  # not a string: a TypeError naming the elements
        with pytest.raises(TypeError, match="an element of D4 is a string, one of identity"):
            nq.transform([0], wrong)
        with pytest.raises(TypeError, match="an element of D4 is a string"):
            nq.compose("rot90", wrong)


def test_empty_board():
    empty = np.empty((1, 0), dtype=np.int8)
    assert nq.is_canonical(empty).tolist() == [True]
    assert nq.canonical_form([]).shape == (0,)
    assert nq.transform(np.array([], np.uint8), "rot90").dtype == np.uint8
    assert nq.orbit_size([]) == 1 and nq.stabilizer_order([]) == 8


@pytest.mark.parametrize("dtype", ["<i8", ">i8", "u1", ">u2", "i2"])
def test_dtype_is_kept(dtype):
    q = np.array([1, 3, 0, 2], dtype=dtype)
    for out in (nq.transform(q, "rot90"), nq.canonical_form(q), nq.images(q), nq.orbit(q),
                nq.canonical_form(q[None, :])):
        assert out.dtype == np.dtype(dtype)
