"""Toroidal queens and superqueens: counts against OEIS and the naive oracles, enumeration in
order, the checks, and the combinations that do not apply."""
import math

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba.board import SUPERQUEEN, TOROIDAL
from naive import attacks_naive, variant_solutions_naive
from nqueens_numba import _kernels, _split

# OEIS A051906: toroidal (modular) n-queens, n = 0..17 (n = 0: the empty board), and beyond
A051906 = [1, 1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692]
A051906_MORE = {19: 820_496}
# OEIS A051223: superqueens, n = 0..17; A051224: their fundamental solutions, n = 0..14
A051223 = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876, 5180, 32516, 202900, 1330622]
A051224 = [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 6, 22, 239, 653]

BOARDS = [{"torus": True}, {"piece": "superqueen"}]


@pytest.mark.parametrize("n", range(0, 18))
def test_torus_against_oeis(n):
    total = nq.count_solutions(n, torus=True)
    assert total == A051906[n]
    assert total % max(n, 1) == 0  # the column shifts of a solution are solutions
    assert (total > 0) == (n <= 1 or math.gcd(n, 6) == 1)  # Polya (1921)


def _step_orbit(q):
    """The toroidal solutions with column 0 in the first row that the row shifts and the
    mirror ``c -> -c`` make of ``q`` (each shifted back to column 0), as tuples."""
    n = len(q)
    orbit = set()
    for r in range(n):
        shifted = [q[(i + r) % n] for i in range(n)]
        for sign in (1, -1):
            orbit.add(tuple(sign * (c - shifted[0]) % n for c in shifted))
    return orbit


@pytest.mark.parametrize("n", [1, 5, 7, 11, 13])
def test_least_steps_pick_one_solution_per_orbit(n):
    """The count by least steps: of each orbit of the row shifts and the mirror, exactly one
    solution (with column 0 in the first row) passes the check, weighted by the orbit's
    size; so the weights add up to the solutions with column 0, a ``1 / n`` of all."""
    every = (variant_solutions_naive(n, torus=True) if n <= 9
             else [tuple(row) for row in nq.solve(n, torus=True).tolist()])
    sols = [q for q in every if q[0] == 0]
    weight = {q: int(_kernels.entry("steps_weight")(np.array(q, dtype=np.int64), n)) for q in sols}
    orbits = {frozenset(_step_orbit(q)) for q in sols}
    assert set().union(*orbits) == set(sols)
    for orbit in orbits:
        counted = [q for q in orbit if weight[q]]
        assert len(counted) == 1 and weight[counted[0]] == len(orbit)
    assert n * sum(weight.values()) == len(every)


def test_least_steps_prefixes_keep_every_counted_solution():
    """The prefixes of the count by least steps (column 0, then the least step ``m``, then
    steps of at least ``m``) lead to every solution the check counts, and the count kernel
    adds up their weights, whatever the depth (deep ones are counted row by row)."""
    n = 13
    counted = {tuple(row) for row in nq.solve(n, torus=True)
               if row[0] == 0 and _kernels.entry("steps_weight")(row.astype(np.int64), n)}
    for depth in (2, 4, n - 4, n - 2, n - 1):
        split = _split.count_split(n, "halving", 1, depth, board=TOROIDAL)
        assert split.board.counted == "by least steps"
        assert {q[:depth] for q in counted} <= {tuple(s[3:3 + depth]) for s in split.states}
        assert int(split.job(split.states)[:, 0].sum()) == A051906[n] // n


@pytest.mark.parametrize("n", range(0, 16))
def test_superqueens_against_oeis(n):
    assert nq.count_solutions(n, piece="superqueen") == A051223[n]
    assert nq.count_solutions(n, piece="superqueen", method="halving") == A051223[n]
    if n >= 7:  # (the symmetric search needs two rows above its tail)
        assert nq.count_solutions(n, piece="superqueen", method="symmetric") == A051223[n]


@pytest.mark.slow
def test_torus_against_oeis_slow():
    assert nq.count_solutions(19, torus=True) == A051906_MORE[19]


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17])
def test_superqueens_against_oeis_slow(n):
    assert nq.count_solutions(n, piece="superqueen") == A051223[n]


@pytest.mark.parametrize("n", range(0, 15))
def test_fundamental_superqueens(n):
    assert nq.count_solutions(n, piece="superqueen", fundamental=True) == A051224[n]
    classes = nq.symmetry_classes(n, piece="superqueen")  # by the symmetric search
    assert sum(classes.values()) == A051224[n]
    assert sum(size * count for size, count in classes.items()) == A051223[n]


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
@pytest.mark.parametrize("n", range(1, 10))
def test_counts_and_solutions_against_the_oracle(n, board):
    expected = variant_solutions_naive(n, **board)
    assert nq.count_solutions(n, **board) == len(expected)
    sols = nq.solve(n, **board)
    assert sols.dtype == np.int8 and sols.shape == (len(expected), n)
    assert [tuple(row) for row in sols.tolist()] == expected  # in lexicographic order
    assert all(nq.is_solution(row, **board) for row in sols)
    assert nq.solve(n, limit=3, **board).tolist() == [list(p) for p in expected[:3]]


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_larger_solutions_pass_the_check(board):
    for n in (11, 12, 13):
        sols = nq.solve(n, **board)
        assert len(sols) == nq.count_solutions(n, **board)
        assert all(nq.is_solution(row, **board) for row in sols)
        assert np.array_equal(np.unique(sols, axis=0), sols)  # sorted, no repeats


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_same_count_for_every_split_and_thread_count(board):
    n = 13
    expected = nq.count_solutions(n, **board)
    for depth in (1, 2, 3, 5, 8):
        assert nq.count_solutions(n, prefix_depth=depth, n_threads=1, method="halving",
                                  **board) == expected
    assert nq.count_solutions(n, n_threads=2, method="halving", **board) == expected
    if "piece" in board:
        for depth in (2, 3, 5, 8):
            assert nq.count_solutions(n, prefix_depth=depth, n_threads=1, **board) == expected
            assert nq.count_solutions(n, prefix_depth=depth, fundamental=True,
                                      **board) == A051224[n]


def test_is_solution_against_the_oracle():
    rng = np.random.default_rng(5)
    for n in range(1, 10):
        for _ in range(200):
            q = rng.permutation(n)
            for board in ({}, *BOARDS):
                piece = board.get("piece", "queen")
                torus = board.get("torus", False)
                expected = not any(attacks_naive(r1, q[r1], r2, q[r2], n, piece, torus)
                                   for r1 in range(n) for r2 in range(r1 + 1, n))
                assert nq.is_solution(q, **board) == expected, (q, board)


def test_toroidal_checkpoints_of_the_count_one_by_one_are_refused(tmp_path):
    """Earlier versions counted toroidal subproblems one by one, with weights n or 2n: a file
    of theirs whose subproblems look the same (depth 2) is another count, never resumed with
    the weights of the count by least steps."""
    import json

    from nqueens_numba.checkpoint import _checksum

    path = tmp_path / "t.json"
    assert nq.count_solutions(17, torus=True, prefix_depth=2, checkpoint=path) == 140692
    data = json.loads(path.read_text())
    assert data["split"].pop("counted") == "by least steps"
    data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(nq.checkpoint.CheckpointError, match="another version"):
        nq.count_solutions(17, torus=True, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before


def test_checkpoints_know_their_board(tmp_path):
    path = tmp_path / "torus.json"
    assert nq.count_solutions(13, torus=True, checkpoint=path) == 4524
    assert nq.count_solutions(13, torus=True, checkpoint=path) == 4524  # resumed: all done
    with pytest.raises(nq.checkpoint.CheckpointError):
        nq.count_solutions(13, checkpoint=path, method="halving")
    with pytest.raises(nq.checkpoint.CheckpointError):
        nq.count_solutions(13, piece="superqueen", checkpoint=path)


@pytest.mark.parametrize("call", [nq.count_solutions, nq.solve,
                                  lambda n, **kw: nq.is_solution(list(range(n)), **kw)])
def test_bad_boards(call):
    with pytest.raises(ValueError, match="piece must be one of 'queen', 'superqueen'"):
        call(8, piece="king")
    with pytest.raises(TypeError, match="piece must be a string"):
        call(8, piece=None)
    with pytest.raises(TypeError, match="torus must be True or False"):
        call(8, torus=1)
    with pytest.raises(ValueError, match="piece='superqueen' cannot be combined with torus"):
        call(8, piece="superqueen", torus=True)


def test_combinations_that_do_not_apply():
    for board, name in ((BOARDS[0], "torus=True"), (BOARDS[1], "piece='superqueen'")):
        with pytest.raises(ValueError, match=f"{name} cannot be combined with pre-placed"):
            nq.count_solutions(8, preplaced={0: 1}, **board)
        with pytest.raises(ValueError, match=f"{name} cannot be combined with pre-placed"):
            nq.solve(8, blocked=np.eye(8, dtype=bool), **board)
    with pytest.raises(ValueError, match="torus=True cannot be combined with method"):
        nq.count_solutions(8, method="symmetric", torus=True)
    with pytest.raises(ValueError, match="fundamental=True needs method='symmetric'"):
        nq.count_solutions(8, method="halving", fundamental=True, piece="superqueen")
    # the torus has no symmetric search: its fundamental count needs no method, not one the
    # next message refuses
    with pytest.raises(ValueError, match="fundamental=True with torus=True needs method=None"):
        nq.count_solutions(7, method="halving", fundamental=True, torus=True)
    assert nq.count_solutions(7, fundamental=True, torus=True) == 4


def test_toroidal_fundamental_counts_in_parts_with_a_bar(monkeypatch, tmp_path, capsys):
    """The torus's fundamental count classifies its solutions in parts (bounded memory),
    shows solve's bar with ``progress``, and refuses a checkpoint naming what it does."""
    whole = {n: nq.symmetry_classes(n, torus=True) for n in (11, 13)}
    monkeypatch.setattr(nq.counting, "_CLASSIFIED_AT_ONCE", 7)
    for n, orbits in whole.items():
        assert nq.symmetry_classes(n, torus=True) == orbits
        assert nq.count_solutions(n, torus=True, fundamental=True, progress=True) == sum(
            orbits.values())
        assert sum(size * k for size, k in orbits.items()) == nq.count_solutions(n, torus=True)
    assert "solve n=13: 100%" in capsys.readouterr().err
    with pytest.raises(ValueError, match="with fundamental=True: its solutions are enumerated"):
        nq.count_solutions(13, torus=True, fundamental=True, checkpoint=tmp_path / "c.json")


# --------------------------------------------------------------------------- the rest of the API


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_streams_files_and_boards_equal_solve(board, tmp_path):
    n = 11
    sols = nq.solve(n, **board)
    chunks = list(nq.iter_solutions(n, chunk_size=7, n_threads=2, **board))
    assert all(1 <= len(c) <= 7 for c in chunks)
    assert np.array_equal(np.concatenate(chunks), sols)
    assert nq.save_solutions(tmp_path / "s.npy", n, **board) == len(sols)
    assert np.array_equal(np.load(tmp_path / "s.npy"), sols)
    assert nq.boards(n, **board) == nq.to_boards(sols)


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
@pytest.mark.parametrize("n", [5, 7, 10, 11, 12, 13])
def test_fundamental_solutions_and_orbit_classes(board, n):
    sols = nq.solve(n, **board)
    canonical = {tuple(nq.canonical_form(q).tolist()) for q in sols}
    fundamental = nq.fundamental_solutions(n, **board)
    assert [tuple(q) for q in fundamental.tolist()] == sorted(canonical)
    assert nq.count_solutions(n, fundamental=True, **board) == len(canonical)
    classes = nq.symmetry_classes(n, **board)
    assert sum(classes.values()) == len(canonical)
    assert sum(size * count for size, count in classes.items()) == len(sols)  # Burnside
    if board == {"piece": "superqueen"} and n < len(A051224):
        assert len(canonical) == A051224[n]


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_first_row_counts(board):
    for n in (7, 11, 13):
        counts = nq.first_row_counts(n, **board)
        assert counts.dtype == np.int64 and counts.shape == (n,)
        expected = np.bincount(nq.solve(n, **board)[:, 0], minlength=n)
        assert np.array_equal(counts, expected)
    if "torus" in board:  # the column shifts: every first-row column alike
        assert len(set(nq.first_row_counts(13, torus=True).tolist())) == 1


@pytest.mark.parametrize("board", BOARDS, ids=["torus", "superqueen"])
def test_trace_replays_the_variant_search(board):
    n = 7 if "torus" in board else 10
    events = nq.trace(n, max_events=10**6, **board)
    assert events.dtype.metadata["complete"]
    placement = np.full(n, -1)
    found = []
    for kind, row, col in events[["kind", "row", "column"]].tolist():
        if kind == "place":
            placement[row] = col
        elif kind == "remove":
            placement[row] = -1
        else:
            found.append(placement.copy())
    assert np.array_equal(np.array(found), nq.solve(n, **board))
    view = nq.TraceView(events, step=len(events) // 2)
    assert view.board == (board.get("piece", "queen"), board.get("torus", False))


def test_profiles_against_the_oracle():
    for board in BOARDS:
        piece, torus = board.get("piece", "queen"), board.get("torus", False)
        for n in range(1, 9):
            expected = [0] * (n + 1)

            def extend(rows):
                expected[len(rows)] += 1
                if len(rows) < n:
                    for c in range(n):
                        if not any(attacks_naive(r, q, len(rows), c, n, piece, torus)
                                   for r, q in enumerate(rows)):
                            extend(rows + [c])

            extend([])
            assert nq.search_profile(n, **board).tolist() == expected, (board, n)
    for n, total in [(13, 4524), (14, 0)]:
        assert nq.search_profile(n, torus=True)[-1] == total
    assert nq.search_profile(14, piece="superqueen", n_threads=1)[-1] == A051223[14]


@pytest.mark.parametrize("board, n, total", [({"torus": True}, 13, 4524),
                                             ({"piece": "superqueen"}, 16, 202_900)])
def test_estimates_of_the_variants(board, n, total):
    est = nq.estimate_count(n, samples=10**5, seed=3, **board)
    assert abs(est.value - total) < 4 * est.stderr
    same = nq.estimate_count(n, samples=10**5, seed=3, n_threads=1, **board)
    assert same == est
    profile = nq.search_profile(n, samples=10**5, seed=3, **board)
    assert profile.value[-1] == pytest.approx(est.value, rel=1e-12)
    exact = nq.search_profile(n, **board)
    fixed = profile.stderr == 0
    assert np.array_equal(profile.value[fixed], exact[fixed])
    z = (profile.value[~fixed] - exact[~fixed]) / profile.stderr[~fixed]
    assert (np.abs(z) < 4).all()


def test_construct_on_the_torus():
    for n in (0, 1, 5, 7, 11, 13, 25, 35, 1001):
        queens = nq.construct(n, torus=True)
        assert len(queens) == n and nq.is_solution(queens, torus=True)
        assert nq.is_solution(queens)  # and of the ordinary board
    for n in (2, 3, 4, 6, 9, 15, 100):  # (2 and 3 for the same reason as the others)
        with pytest.raises(ValueError, match="gcd"):
            nq.construct(n, torus=True)
    with pytest.raises(TypeError, match="torus"):
        nq.construct(7, torus="yes")


def test_drawings_shade_the_variant_attacks():
    from nqueens_numba.board import board_of

    rng = np.random.default_rng(2)
    for n in (5, 8, 11):
        q = np.where(rng.random(n) < 0.4, rng.integers(0, n, n), -1)
        for piece, torus in [("queen", False), ("queen", True), ("superqueen", False)]:
            hit = board_of(piece, torus).attacked(q)
            for r in range(n):
                for c in range(n):
                    expected = any(  # (a queen's own square: by another queen)
                        attacks_naive(qr, int(qc), r, c, n, piece, torus)
                        for qr, qc in enumerate(q) if qc >= 0 and (qr, qc) != (r, c))
                    assert hit[r, c] == expected, (q, piece, torus, r, c)
    # a corner queen of n = 5: its row, column and diagonal, and the anti-diagonal that
    # wraps from the corner across the board
    for keywords, attacked in [({}, 12), ({"torus": True}, 16), ({"piece": "superqueen"}, 14)]:
        svg = nq.to_svg([0, -1, -1, -1, -1], attacks=True, **keywords)
        assert svg.count('class="attacked"') == attacked


def test_boards_without_solutions_and_the_empty_board(tmp_path):
    for n in (6, 9, 60, 63):  # gcd(n, 6) > 1: no toroidal solution (Polya), no search
        assert nq.count_solutions(n, torus=True) == 0
        assert nq.solve(n, torus=True).shape == (0, n)
        assert list(nq.iter_solutions(n, torus=True)) == []
        assert not nq.first_row_counts(n, torus=True).any()
        assert nq.save_solutions(tmp_path / "none.npy", n, torus=True) == 0
        assert nq.count_solutions(n, torus=True, checkpoint=tmp_path / f"{n}.json") == 0
        assert nq.checkpoint.status(tmp_path / f"{n}.json")["complete"]
    for board in BOARDS:
        assert nq.solve(0, limit=3, **board).shape == (1, 0)
        assert nq.solve(0, limit=0, **board).shape == (0, 0)
        assert nq.boards(0, limit=4, **board) == [[]]
    # an estimate of 0 is exact only on a board without solutions
    assert nq.estimate_count(16, torus=True, samples=1000, seed=1) == (0.0, 0.0, 0)
    est = nq.estimate_count(25, torus=True, samples=10**4, seed=1)  # every probe died
    assert est.value == 0 and math.isnan(est.stderr)
    for n in range(2, 12):  # superqueens: none for n = 2 .. 9 (OEIS A051223), exactly
        est = nq.estimate_count(n, piece="superqueen", samples=2000, seed=1)
        assert (est.value, est.stderr) == (0, 0) if A051223[n] == 0 else est.value > 0, n
        assert nq.solve(n, piece="superqueen").shape == (A051223[n], n)
        assert sum(len(c) for c in nq.iter_solutions(n, piece="superqueen",
                                                     progress=True)) == A051223[n]


def test_long_variant_counts_say_so():
    from nqueens_numba import _split, counting

    plan = _split.plan_count(30, SUPERQUEEN, prefix_depth=2, n_threads=2)
    with pytest.warns(nq.LongCountWarning, match="n=30, piece='superqueen': roughly"):
        counting.warn_if_long(plan, 2, False)
    plan = _split.plan_count(29, TOROIDAL, prefix_depth=2, n_threads=2)
    with pytest.warns(nq.LongCountWarning, match="n=29, torus=True"):
        counting.warn_if_long(plan, 2, True)


def test_status_and_messages_name_the_board(tmp_path, capsys):
    from nqueens_numba.cli import main

    path = tmp_path / "sq.json"
    assert nq.count_solutions(12, piece="superqueen", checkpoint=path) == 156
    assert nq.checkpoint.status(path)["board"] == "superqueen"
    assert main(["status", str(path)]) == 0
    assert "superqueen board" in capsys.readouterr().out
    # (both sides name their board: the plain board's, which records none, was not said)
    with pytest.raises(nq.checkpoint.CheckpointError,
                       match="board='superqueen'; this count is .*board='queen'"):
        nq.count_solutions(12, checkpoint=path)
    with pytest.raises(MemoryError, match=r"iter_solutions\(13, torus=True\)"):
        nq.solve(13, torus=True, max_bytes=1000)
    with pytest.raises(ValueError, match="piece must be one of"):
        nq.to_svg([0, 2, 4, 1, 3], piece="rook")  # checked without attacks too
    assert main(["construct", "7", "--torus"]) == 0
    assert capsys.readouterr().out == "0 2 4 6 1 3 5\n"
