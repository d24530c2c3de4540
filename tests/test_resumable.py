"""Resumable counts: kernels that stop after a budget and go on from their saved stack,
searches split on demand, checkpoints that keep the searches in progress, status, signals."""
import gc
import io
import json
import linecache
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import _blocks, _kernels, _pool, _runner, _split, _threads, config
from nqueens_numba.board import SUPERQUEEN, TOROIDAL
from nqueens_numba.checkpoint import CheckpointError, _checksum
from nqueens_numba.checkpoint import status as checkpoint_status
from nqueens_numba.cli import main
from nqueens_numba.constraints import check_constraints

from naive import count_with_constraints as count_naive

A000170 = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680,
           12: 14200, 13: 73712}

CONSTRAINED = {  # n: (preplaced, blocked) of a constrained count
    8: ({0: 1}, None),
    9: (None, np.eye(9, dtype=bool)),
    10: ({3: 4}, np.fliplr(np.eye(10, dtype=bool))),
}


def _splits():
    """One split of each kind: halving, symmetric, constrained (mirror-halved or not), with
    subproblems deep enough to stop midway (a step is a return to a row more than two rows
    above the tail)."""
    yield _split.count_split(11, "halving", 1, 2)
    yield _split.count_split(12, "symmetric", 1, 2)
    for n, preplaced, blocked in [(11, {0: 1}, None), (12, None, np.eye(12, dtype=bool)),
                                  (11, {3: 4}, np.fliplr(np.eye(11, dtype=bool)))]:
        yield _split.count_split(n, "halving", 1, 1, check_constraints(n, preplaced, blocked))
    # the variants' boards: toroidal queens, superqueens (knights checked on every level)
    yield _split.count_split(13, "halving", 1, 2, board=TOROIDAL)  # least steps
    yield _split.count_split(11, "halving", 1, 1, board=TOROIDAL)  # nothing pruned
    yield _split.count_split(11, "halving", 1, 1, board=SUPERQUEEN)
    yield _split.count_split(12, "symmetric", 1, 2, board=SUPERQUEEN)


@pytest.fixture
def tiny_budget(monkeypatch):
    """Kernel calls of a few steps, and no direct (single-call) counts: every subproblem is
    stopped, saved and continued many times."""
    monkeypatch.setattr(config, "COUNT_BUDGET", 3)
    monkeypatch.setattr(config, "DIRECT_SOLUTIONS", 0)


# --------------------------------------------------------------------------- pieces


@pytest.mark.parametrize("split", list(_splits()),
                         ids=lambda s: f"{s.method}-{s.n}-{s.board.name}")
def test_pieces_split_at_random_add_up_to_each_subproblem(split):
    """Every subproblem run a few steps at a time, its search split at random moments and
    the pieces run in a random order, counts what one uninterrupted call counts."""
    rng = np.random.default_rng(split.n)
    job = split.job
    whole = job(split.states)
    splits = 0
    for index in range(len(split.states)):
        state = split.states[index:index + 1]
        total = np.zeros(job.width, dtype=np.int64)
        todo = [job.piece(index)]
        while todo:
            piece = todo.pop(int(rng.integers(len(todo))))
            counts, done = job.run(state, piece, int(rng.integers(1, 4)))
            if done:
                total += counts[0]
                continue
            assert piece.started and job.check_piece(split.states[index], piece)
            ahead = job.remaining(split.states[index], piece)
            assert 0.0 <= ahead <= 1.0
            assert job.done(split.states[index], piece) == pytest.approx(1 - ahead, abs=1e-12)
            if rng.random() < 0.5:
                new = piece.split()
                if new is not None:
                    splits += 1
                    assert job.check_piece(split.states[index], new)
                    todo.append(new)
            todo.append(piece)
        np.testing.assert_array_equal(total, whole[index])
    assert splits


def test_a_budget_ends_a_kernel_call_midway():
    split = _split.count_split(14, "symmetric", 1, 2)
    job = split.job
    piece = job.piece(0)
    counts, done = job.run(split.states, piece, 5)
    assert done == 0 and piece.started  # the first subproblem is far from done
    assert 0.0 < job.remaining(split.states[0], piece) < 1.0


@pytest.mark.parametrize("method", _split.METHODS)
def test_the_share_done_keeps_its_digits_on_huge_boards(method):
    """Early in a subproblem of n = 40 the share done is below 1e-16, where ``1 - remaining``
    is 0: the progress bar and a checkpoint's ``fraction_done`` read the share summed
    directly, which grows with every call."""
    split = _split.count_split(40, method, 2, prefix_depth=2)
    job, state = split.job, split.states[0]
    piece, shares = job.piece(0), []
    for budget in (10, 1000, 100_000):
        assert job.run(split.states[:1], piece, budget)[1] == 0  # (far from done)
        shares.append(job.done(state, piece))
        assert 1.0 - job.remaining(state, piece) == 0.0 < shares[-1] < 1e-16
    assert shares == sorted(shares) and shares[-1] > 100 * shares[0]
    tracker = _runner.Tracker(split, resumable=True)
    tracker.add(piece)
    assert tracker.position() == shares[-1]


@pytest.mark.parametrize("method", _split.METHODS)
@pytest.mark.parametrize("board", [None, SUPERQUEEN, TOROIDAL])
def test_a_signal_ends_kernel_calls_early_and_the_counts_add_up(method, board):
    """A call given a set signal ends once it has taken that many steps (a thread waits for
    work: ``_threads._Work._signal``; the kernels read it every ``_SIGNAL_STEPS`` steps),
    however large its budget, between subproblems or inside one; calls resumed from there
    until each subproblem is done count what one uninterrupted call counts."""
    if board is TOROIDAL and method == "symmetric":
        pytest.skip("no symmetric count of the torus")
    depth = 2 if method == "symmetric" else 1  # (large subproblems)
    split = _split.count_split(13, method, 1, depth, board=board or _split.QUEEN)
    job = split.job
    whole = job(split.states)
    signal = np.zeros(1, dtype=np.int64)
    results = np.zeros_like(whole)
    calls = midway = 0
    pos, piece = 0, job.piece(0)
    while pos < len(split.states):
        signal[0] = int(np.random.default_rng(calls).integers(1, 200))
        counts, done = job.run(split.states[pos:], piece, 1 << 40, signal)
        calls += 1
        midway += piece.started  # (ended inside a subproblem's search)
        results[pos:pos + done] = counts[:done]
        pos += done
    np.testing.assert_array_equal(results, whole)
    assert calls > 1  # (without the signal: one call, to the end)
    assert midway or board is SUPERQUEEN  # (its subproblems here: a few hundred steps)


@pytest.mark.parametrize("n, method, depth", [(18, "symmetric", 2), (17, "halving", 1)])
def test_a_signal_set_during_a_kernel_call_ends_it(n, method, depth):
    """The kernels read the signal while they run (not once: a compiler may keep a value it
    sees no store to): a call on a subproblem of seconds, with no budget to speak of, ends
    inside its search once another thread sets the signal."""
    split = _split.count_split(n, method, 1, depth)
    job = split.job
    job.run(split.states[:0], job.piece(0), 1)  # (loaded before the timing below)
    index = len(split.states) - 1 if method == "symmetric" else len(split.states) // 2
    piece, signal, out = job.piece(index), np.zeros(1, dtype=np.int64), []
    thread = threading.Thread(target=lambda: out.append(
        job.run(split.states[index:index + 1], piece, 1 << 40, signal)))
    thread.start()
    time.sleep(0.1)  # (the whole subproblem: 2.5 and 4.8 s on one thread here)
    signal[0] = 1
    thread.join()
    assert out[0][1] == 0 and piece.started  # ended inside the search


@pytest.mark.parametrize("n", range(1, 12))
@pytest.mark.parametrize("method", _split.METHODS)
@pytest.mark.parametrize("threads", [1, 2])
def test_counts_with_a_tiny_budget(tiny_budget, n, method, threads):
    if method == "symmetric" and not _split.has_subproblems(n, method):
        pytest.skip("no split: counted by enumeration")
    shallowest = 1 if method == "halving" else 2
    for depth in {None, max(shallowest, min(shallowest, n - 1))}:
        assert nq.count_solutions(n, method=method, n_threads=threads,
                                  prefix_depth=depth) == A000170[n]


@pytest.mark.parametrize("n", sorted(CONSTRAINED))
@pytest.mark.parametrize("threads", [1, 2])
def test_constrained_counts_with_a_tiny_budget(tiny_budget, n, threads):
    preplaced, blocked = CONSTRAINED[n]
    expected = count_naive(n, preplaced=preplaced, blocked=blocked)
    assert nq.count_solutions(n, preplaced=preplaced, blocked=blocked,
                              n_threads=threads) == expected


@pytest.mark.parametrize("threads", [1, 2])
def test_variant_counts_with_a_tiny_budget(tiny_budget, threads):
    for n, total in [(7, 28), (11, 88), (13, 4524)]:
        assert nq.count_solutions(n, torus=True, n_threads=threads) == total
    for n, total in [(10, 4), (11, 44), (12, 156)]:
        for method in _split.METHODS:
            assert nq.count_solutions(n, piece="superqueen", n_threads=threads,
                                      method=method) == total
    assert nq.symmetry_classes(13, piece="superqueen", n_threads=threads) == \
        {8: 231, 4: 6, 2: 2}
    assert nq.search_profile(12, piece="superqueen", n_threads=threads)[-1] == 156


def test_fundamental_and_orbits_with_a_tiny_budget(tiny_budget):
    assert nq.count_solutions(11, fundamental=True, n_threads=2) == 341
    assert nq.symmetry_classes(10, n_threads=2) == {8: 89, 4: 3}
    np.testing.assert_array_equal(nq.first_row_counts(9, n_threads=2),
                                  [28, 30, 47, 44, 54, 44, 47, 30, 28])


# --------------------------------------------------------------------------- interrupted midway


def _interrupt_after(monkeypatch, kernel, calls):
    """Make the ``calls``-th kernel call (and every later one) raise KeyboardInterrupt, as
    a Ctrl-C in the middle of the count would."""
    original = getattr(_kernels, kernel)
    seen = []

    def counted(*args):
        if len(args[1]):  # not the call that loads the kernels
            seen.append(1)
            if len(seen) >= calls:
                raise KeyboardInterrupt
        return original(*args)

    monkeypatch.setattr(_kernels, kernel, counted)
    return seen


@pytest.mark.parametrize("call, kernel", [
    (lambda: nq.symmetry_classes(15), "_count_symmetric_run"),  # (n = 15: past the counts
    (lambda: nq.first_row_counts(15), "_count_batch"),          # of one kernel call)
])
def test_an_interruption_suggests_a_checkpoint_only_where_one_is_taken(monkeypatch, call,
                                                                       kernel):
    _interrupt_after(monkeypatch, kernel, 2)
    with pytest.raises(KeyboardInterrupt, match="nothing is returned") as raised:
        call()
    assert "checkpoint" not in str(raised.value)


def test_an_interrupted_enumeration_says_what_it_kept(monkeypatch, tmp_path):
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_kernels, "_fill_solutions", interrupted)
    with pytest.raises(KeyboardInterrupt, match=r"solve\(13\) interrupted: nothing is "
                                                r"returned \(iter_solutions\(13\) streams"):
        nq.solve(13)
    with pytest.raises(KeyboardInterrupt, match=r"fundamental_solutions\(13\) interrupted: "
                                                r"nothing is returned$"):
        nq.fundamental_solutions(13)
    target = tmp_path / "old.npy"
    target.write_bytes(b"kept")
    with pytest.raises(KeyboardInterrupt,
                       match="^interrupted: nothing is written .*old.npy. is as it was"):
        nq.save_solutions(target, 13)
    assert target.read_bytes() == b"kept"
    with pytest.raises(KeyboardInterrupt,
                       match="^interrupted: the solutions written so far stay in the file"):
        nq.save_solutions(io.StringIO(), 13)
    with pytest.raises(KeyboardInterrupt,  # (a device or pipe is written as it goes)
                       match="^interrupted: the solutions written so far stay in the file"):
        nq.save_solutions(os.devnull, 13, format="csv")


def test_a_count_run_to_size_a_result_is_interrupted_in_its_callers_words(monkeypatch,
                                                                          tmp_path):
    """``solve``, ``fundamental_solutions``, ``symmetry_classes`` and ``save_solutions`` to
    ``.npy`` of a toroidal or constrained board count the solutions first: a Ctrl-C there
    said "count of ... interrupted ...; count with checkpoint=FILE", a call none of them
    takes."""
    _interrupt_after(monkeypatch, "_count_torus_batch", 1)
    target = tmp_path / "old.npy"
    target.write_bytes(b"kept")
    for call, says in [
            (lambda: nq.solve(17, torus=True),
             r"^solve\(17, torus=True\) interrupted: nothing is returned \(iter_solutions"),
            (lambda: nq.fundamental_solutions(17, torus=True),
             r"^fundamental_solutions\(17, torus=True\) interrupted: nothing is returned$"),
            (lambda: nq.symmetry_classes(17, torus=True),
             r"^count of n=17, torus=True interrupted; nothing is returned$"),
            (lambda: nq.count_solutions(17, torus=True, fundamental=True),
             r"^count of n=17, torus=True interrupted; nothing is returned$"),
            (lambda: nq.save_solutions(target, 17, torus=True),
             r"^interrupted while counting the solutions first \(the .npy header holds their "
             r"number\): nothing is written \('.*old.npy' is as it was\)$")]:
        with pytest.raises(KeyboardInterrupt, match=says):
            call()
    assert target.read_bytes() == b"kept"
    _interrupt_after(monkeypatch, "_count_allowed_batch", 1)
    with pytest.raises(KeyboardInterrupt, match=r"^solve\(14, preplaced=\{0: 0\}\) interrupted: "
                                                r"nothing is returned \(iter_solutions"):
        nq.solve(14, preplaced={0: 0})


def test_an_interrupted_count_without_a_split_says_what_it_lost(monkeypatch):
    """The kernel that compiles fastest (n = 13, 14) and the classification of
    fundamental_solutions stop with words, as a split's count does."""
    from nqueens_numba import enumeration

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_kernels, "loaded_counts", set())
    monkeypatch.setattr(_kernels, "_count_rows", interrupted)
    with pytest.raises(KeyboardInterrupt, match=r"^count of n=14 interrupted; the work done "
                                                r"is lost: count with checkpoint=FILE"):
        nq.count_solutions(14)
    monkeypatch.setattr(enumeration.symmetry, "is_canonical", interrupted)
    with pytest.raises(KeyboardInterrupt, match=r"^fundamental_solutions\(8\) interrupted: "
                                                r"nothing is returned$"):
        nq.fundamental_solutions(8)


@pytest.mark.parametrize("call, says", [
    (lambda: nq.estimate_count(13, samples=10**5, torus=True),  # (14: no solutions, no probe)
     r"^estimate_count\(13, torus=True\) interrupted: nothing is returned"),
    (lambda: nq.search_profile(14, samples=10**5),
     r"^search_profile\(14, samples=100000\) interrupted: nothing is returned"),
    (lambda: nq.search_profile(13), r"^search_profile\(13\) interrupted: nothing is returned"),
    (lambda: list(nq.iter_solutions(13, piece="superqueen")),
     r"^iter_solutions\(13, piece='superqueen'\) interrupted after 0 solutions"),
])
def test_interrupted_estimates_profiles_and_streams_say_what_they_kept(monkeypatch, call,
                                                                       says):
    """(Their ``KeyboardInterrupt`` had no words.)"""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(_pool, "Crew", interrupted)  # each runs its kernels on a crew
    monkeypatch.setattr(_blocks, "Crew", interrupted)
    with pytest.raises(KeyboardInterrupt, match=says):
        call()


def test_an_estimate_interrupted_while_it_compiles_says_so(monkeypatch):
    """(It advised fewer samples, when no sample had been drawn: the time went to compiling.)"""
    from nqueens_numba import _progress
    from nqueens_numba._kernels import _loading

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(_pool, "Crew", interrupted)
    monkeypatch.setattr(_loading, "compiling", lambda: True)
    with pytest.raises(KeyboardInterrupt, match=r"^estimate_count\(14\) interrupted: nothing "
                                                r"is returned \(stopped while its kernels "
                                                r"compiled\)$"):
        nq.estimate_count(14, samples=10**5)
    with pytest.raises(KeyboardInterrupt, match=r"^solve\(16, limit=2\) interrupted: nothing "
                                                r"is returned \(stopped while its kernels"):
        with _progress.interruption_says("solve(16, limit=2) interrupted: nothing is returned "
                                         "(find_solution(16) finds one; iter_solutions(16) "
                                         "streams them)"):
            raise KeyboardInterrupt


def test_an_interrupted_solve_with_a_limit_points_to_find_solution(monkeypatch):
    """(The first solutions of a large board in order can take minutes, which streaming does
    not shorten: it pointed only to ``iter_solutions`` and ``save_solutions``.)"""
    from nqueens_numba import enumeration

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(enumeration, "_solve_first", interrupted)
    with pytest.raises(KeyboardInterrupt, match=r"^solve\(40, limit=1\) interrupted: nothing "
                                                r"is returned \(find_solution\(40\) finds"):
        nq.solve(40, limit=1)
    with pytest.raises(KeyboardInterrupt, match=r"^solve\(40, preplaced=\{0: 3\}, limit=2\) "
                                                r".*\(find_solution\(40, preplaced=\{0: 3\}\)"):
        nq.solve(40, limit=2, preplaced={0: 3})
    with pytest.raises(KeyboardInterrupt, match=r"^solve\(41, torus=True, limit=1\) "
                                                r"interrupted: nothing is returned "
                                                r"\(construct\(41, torus=True\) finds"):
        nq.solve(41, limit=1, torus=True)  # (find_solution has no torus: construct has)
    with pytest.raises(KeyboardInterrupt, match=r"^solve\(41, piece='superqueen', limit=1\) "
                                                r"interrupted: nothing is returned "
                                                r"\(iter_solutions"):
        nq.solve(41, limit=1, piece="superqueen")  # (neither has superqueens)
    with pytest.raises(KeyboardInterrupt, match=r"^boards\(40, limit=3\) interrupted"):
        nq.boards(40, limit=3)  # (in its own name, not solve's)


def test_a_count_interrupted_while_its_kernels_load_says_so(monkeypatch):
    """(A Ctrl-C in a count's first milliseconds, while its plan loads the kernels, raised
    a KeyboardInterrupt without words.)"""
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(_split, "plan_count", interrupted)
    with pytest.raises(KeyboardInterrupt, match=r"^count of n=15, torus=True interrupted: "
                                                r"nothing is returned$"):
        nq.count_solutions(15, torus=True)
    with pytest.raises(KeyboardInterrupt, match=r"^count of n=15, preplaced=\{3: 4\} "
                                                r"interrupted: nothing is returned$"):
        nq.count_solutions(15, preplaced={3: 4})


def test_the_kernels_of_the_shares_done_load_before_the_bar(monkeypatch):
    """The symmetric count's progress reads each row's allowed squares through a kernel of
    its own: loaded with the count's kernel, before the bar (it compiled at a first redraw,
    under the bar, even where the count's kernel was cached)."""
    split = _split.count_split(14, "symmetric", 2)
    calls, order = [], []
    monkeypatch.setattr(_runner, "row_allow", lambda job, state: calls.append(int(state[3])))
    monkeypatch.setattr(_runner, "compile_first",
                        lambda call, what, notice: order.append(what) or call())
    monkeypatch.setattr(_kernels, "is_ready", lambda job, *args: job != "symmetric_allow")
    monkeypatch.setattr(_kernels, "is_loaded", lambda *args: True)
    _runner.load_kernel(split, progress=False)
    assert order == ["count"] and calls == [int(split.states[0, 3])]
    monkeypatch.setattr(_kernels, "is_ready", lambda *args: True)
    _runner.load_kernel(split, progress=False)  # all loaded: nothing to do
    assert order == ["count"]
    _runner.load_kernel(_split.count_split(14, "halving", 2), progress=True)  # no such rows
    assert order == ["count", "count"] and len(calls) == 1


def test_an_interruption_once_every_subproblem_is_counted_says_so():
    """(A GPU count stopped after its last launch said "after 13 of 13 subproblems".)"""
    split = _split.count_split(10, "halving", 1)
    tracker = _runner.Tracker(split)
    assert " interrupted after 0 of " in str(tracker.interrupted())
    tracker.done[:] = True
    assert str(tracker.interrupted()) == (
        f"count of n=10 interrupted once all {len(split.states)} subproblems were counted, "
        f"before its result was returned")  # (not "the work done is lost")
    torus = _split.count_split(11, "halving", 1, board=TOROIDAL)
    assert str(_runner.Tracker(torus).interrupted()).startswith(
        "count of n=11, torus=True interrupted after 0 of ")  # (it said "count of n=11")
    blocked = np.zeros((11, 11), dtype=bool)
    blocked[5, 5] = True
    constrained = _split.count_split(11, "halving", 1,
                                     constraints=check_constraints(11, {0: 2}, blocked))
    assert str(_runner.Tracker(constrained).interrupted()).startswith(
        "count of n=11, preplaced={0: 2}, blocked=<1 square> interrupted after 0 of ")
    many = _runner.Tracker(_split.count_split(17, "symmetric", 16, prefix_depth=4))
    assert re.search(r"after 0 of \d{1,3},\d{3} subproblems", str(many.interrupted()))


def test_an_interrupted_occupancy_says_how_far_it_got(monkeypatch):
    calls = []
    original = nq.structure.count_solutions

    def count(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt("count of n=14 interrupted ...: count with "
                                    "checkpoint=FILE to be able to resume")
        return original(*args, **kwargs)

    monkeypatch.setattr(nq.structure, "count_solutions", count)
    with pytest.raises(KeyboardInterrupt, match=r"occupancy of n=14 interrupted after 2 of "
                                                r"\d+ counts; nothing is returned") as raised:
        nq.occupancy(14)
    assert "checkpoint" not in str(raised.value)


CASES = [  # (n, keyword arguments, kernel, expected): subproblems deep enough to stop midway
    (11, dict(method="halving", prefix_depth=1), "_count_batch", 2680),
    (12, dict(method="symmetric", prefix_depth=2), "_count_symmetric_run", 14200),
    (12, dict(fundamental=True, prefix_depth=2), "_count_symmetric_run", 1787),
    (10, dict(blocked=np.eye(10, dtype=bool), prefix_depth=1), "_count_allowed_batch",
     count_naive(10, blocked=np.eye(10, dtype=bool))),
    (10, dict(preplaced={3: 4}, prefix_depth=1), "_count_allowed_batch",
     count_naive(10, preplaced={3: 4})),
    (13, dict(torus=True, prefix_depth=2), "_count_torus_batch", 4524),
    (12, dict(piece="superqueen", method="halving", prefix_depth=1), "_count_knight_batch",
     156),
    (13, dict(piece="superqueen", prefix_depth=2), "_count_symmetric_knight_run", 1876),
    (13, dict(piece="superqueen", fundamental=True, prefix_depth=2),
     "_count_symmetric_knight_run", 239),
]


@pytest.mark.parametrize("n, kwargs, kernel, expected", CASES,
                         ids=lambda v: v if isinstance(v, str) else None)
@pytest.mark.parametrize("threads", [1, 2])
def test_interrupted_anywhere_resumes_to_the_exact_count(tmp_path, monkeypatch, tiny_budget,
                                                         n, kwargs, kernel, expected, threads):
    """Stopped again and again at kernel calls spread over the count, each time saved with
    its searches in progress and resumed from them, the count ends with the exact total."""
    path = tmp_path / "run.json"
    stops = in_progress = 0
    for calls in (1, 2, 5, 11, 23, 47, 95, 10**9):
        with monkeypatch.context() as patch:
            _interrupt_after(patch, kernel, calls)
            try:
                total = nq.count_solutions(n, n_threads=threads, checkpoint=path, **kwargs)
            except KeyboardInterrupt as exc:
                assert "interrupted after" in str(exc) and "resume" in str(exc)
                stops += 1
                data = json.loads(path.read_text())
                in_progress += len(data["in_progress"])
                info = nq.checkpoint.status(path)
                assert info["in_progress"] == len(data["in_progress"])
                assert 0 <= info["fraction_done"] < 1
                assert 0 <= info["partial_count"] <= (expected if "fundamental" not in kwargs
                                                      else 8 * expected)
                continue
        break
    assert total == expected
    assert stops >= 3 and in_progress >= 1  # stopped midway, with searches in progress
    info = nq.checkpoint.status(path)
    assert info["complete"] and info["fraction_done"] == 1.0 and info["in_progress"] == 0
    if "fundamental" not in kwargs:
        assert info["partial_count"] == expected


def test_status_of_a_finished_count(tmp_path):
    path = tmp_path / "run.json"
    assert nq.count_solutions(13, checkpoint=path) == 73712
    info = nq.checkpoint.status(path)
    assert info["n"] == 13 and info["method"] == "symmetric" and not info["constrained"]
    assert info["finished"] == info["total_subproblems"] > 1
    assert (info["in_progress"], info["partial_count"], info["fraction_done"]) == (0, 73712, 1.0)
    assert info["complete"] and info["version"] == 2
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    time.sleep(1.1)  # (``updated`` has seconds)
    assert nq.count_solutions(13, checkpoint=path) == 73712  # answered from the file ...
    assert nq.count_solutions(13, fundamental=True, checkpoint=path) == 9233
    # ... which keeps the time the count finished
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stamp


def test_status_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        nq.checkpoint.status(tmp_path / "none.json")
    with pytest.raises(CheckpointError, match="not a regular file"):
        nq.checkpoint.status(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(CheckpointError, match="damaged"):
        nq.checkpoint.status(bad)


def test_ctrl_c_in_the_last_save_of_a_finished_count_saves_it_whole(tmp_path, monkeypatch):
    """A Ctrl-C that cuts short the last save of a finished count: the file kept the save
    before and the message said "nothing is returned"; the count is now saved whole, and
    the message says so."""
    path = tmp_path / "run.json"
    original = _runner.Tracker.save
    cut = []

    def save(tracker):
        if tracker.done.all() and not cut:  # (the last save, cut short once)
            cut.append(1)
            raise KeyboardInterrupt
        return original(tracker)

    monkeypatch.setattr(_runner.Tracker, "save", save)
    with pytest.raises(KeyboardInterrupt, match=r"^count of n=12 interrupted as it ended: it "
                       r"is finished and saved to .*run.json'"):
        nq.count_solutions(12, method="halving", checkpoint=path)
    info = nq.checkpoint.status(path)
    assert info["complete"] and info["partial_count"] == 14200 and cut == [1]
    assert nq.count_solutions(12, method="halving", checkpoint=path) == 14200


def test_an_edited_prefix_depth_is_a_damaged_file_not_a_bad_argument(tmp_path, monkeypatch):
    """The depth a checkpoint records is taken only from an intact file: edited, it made
    another split first and a ValueError about a prefix_depth the user never gave (here
    one of too many subproblems)."""
    path = tmp_path / "run.json"
    nq.count_solutions(12, method="halving", checkpoint=path)
    data = json.loads(path.read_text())
    data["split"]["prefix_depth"] = 10
    path.write_text(json.dumps(data))
    monkeypatch.setattr(config, "MAX_SUBPROBLEMS", 2000)
    with pytest.raises(CheckpointError, match="damaged .*checksum does not match"):
        nq.count_solutions(12, method="halving", checkpoint=path)


def test_version_1_files_are_still_read(tmp_path, monkeypatch):
    path = tmp_path / "run.json"
    nq.count_solutions(12, method="halving", checkpoint=path)
    data = json.loads(path.read_text())
    kept = data["finished"][::2]
    old = {"format": data["format"], "version": 1, "split": data["split"], "finished": kept,
           "complete": False, "updated": data["updated"]}
    old["sha256"] = _checksum(old)
    path.write_text(json.dumps(old))
    info = nq.checkpoint.status(path)
    assert info["version"] == 1 and info["partial_count"] is None
    assert info["finished"] == len(kept) and info["in_progress"] == 0
    assert nq.count_solutions(12, method="halving", checkpoint=path) == 14200
    assert json.loads(path.read_text())["version"] == 2


def _stopped_checkpoint(tmp_path, monkeypatch):
    """A checkpoint of n = 12 (symmetric) stopped with searches in progress."""
    path = tmp_path / "run.json"
    monkeypatch.setattr(config, "COUNT_BUDGET", 2)
    monkeypatch.setattr(config, "DIRECT_SOLUTIONS", 0)
    with monkeypatch.context() as patch:
        _interrupt_after(patch, "_count_symmetric_run", 30)
        with pytest.raises(KeyboardInterrupt):
            nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    data = json.loads(path.read_text())
    assert data["in_progress"]
    return path, data


def _rewrite(path, data):
    data["sha256"] = _checksum(data)
    path.write_text(json.dumps(data))
    return path.read_bytes()


@pytest.mark.parametrize("edit, message", [
    (lambda e: e[2][0][2][-1].__setitem__(1, e[2][0][2][-1][1] ^ 1), "no position"),
    (lambda e: e[2][0][2][0].__setitem__(2, e[2][0][2][0][2] + 4), "no position"),
    (lambda e: e[2][0].__setitem__(0, 99), "bad entry"),
    (lambda e: e[2][0].__setitem__(0, e[2][0][0] + 1), "bad entry"),
    (lambda e: e[2][0].__setitem__(1, [-1] * 6), "bad entry"),
    (lambda e: e.__setitem__(2, []), "bad entry"),
    (lambda e: e.__setitem__(1, [0] * 5), "bad entry"),
])
def test_tampered_searches_in_progress_are_refused(tmp_path, monkeypatch, edit, message):
    path, data = _stopped_checkpoint(tmp_path, monkeypatch)
    edit(data["in_progress"][0])
    before = _rewrite(path, data)
    with pytest.raises(CheckpointError, match=message):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before


def test_a_subproblem_both_finished_and_in_progress_is_refused(tmp_path, monkeypatch):
    path, data = _stopped_checkpoint(tmp_path, monkeypatch)
    data["finished"].append([data["in_progress"][0][0], 0, 0, 0, 0, 0, 0])
    before = _rewrite(path, data)
    with pytest.raises(CheckpointError, match="recorded twice"):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before


def test_an_edited_search_in_progress_fails_the_checksum(tmp_path, monkeypatch):
    path, data = _stopped_checkpoint(tmp_path, monkeypatch)
    data["in_progress"][0][1][0] += 1
    path.write_text(json.dumps(data))  # checksum not updated
    with pytest.raises(CheckpointError, match="checksum"):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)


# --------------------------------------------------------------------------- CLI status


def test_cli_status(tmp_path, capsys):
    path = tmp_path / "run.json"
    assert main(["count", "12", "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "n=12, method symmetric" in out and "14,200" in out and "100%" in out
    assert main(["status", str(path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info == nq.checkpoint.status(path)
    assert main(["status", str(tmp_path / "none.json")]) == 1
    assert "no such checkpoint file" in capsys.readouterr().err


def test_a_checkpoint_of_another_count_is_refused_before_kernels_load(tmp_path, monkeypatch):
    """The file is checked (and locked) first: a wrong one costs no compile."""
    from nqueens_numba import _runner

    path = tmp_path / "run.json"
    nq.count_solutions(12, checkpoint=path)
    before = path.read_bytes()
    loads = []
    monkeypatch.setattr(_runner, "load_kernel", lambda *args: loads.append(args))
    with pytest.raises(CheckpointError, match="another count"):
        nq.count_solutions(13, method="halving", checkpoint=path)
    assert loads == [] and path.read_bytes() == before
    assert nq.count_solutions(12, checkpoint=path) == 14200  # and it is released


def test_cli_checkpoint_of_another_count_is_one_line(tmp_path, capsys):
    path = tmp_path / "run.json"
    assert main(["count", "12", "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    assert main(["count", "13", "--checkpoint", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("nqueens: checkpoint") and "another count" in err
    assert "usage" not in err


# --------------------------------------------------------------------------- long counts


def test_a_count_of_more_than_a_day_says_so(monkeypatch):
    from nqueens_numba import counting
    from nqueens_numba.counting import warn_if_long

    with pytest.warns(nq.LongCountWarning, match=r"n=24: about [\d,]+ CPU-hours on this "
                      r"machine \([\d.]+ (days|years) on 2 threads\); pass "
                      r"checkpoint=FILE") as record:
        warn_if_long(_split.plan_count(24, n_threads=2), 2, False)
    figures = re.findall(r"about ([\d,]+) CPU-hours .*\(([\d.]+) ", str(record[0].message))[0]
    for figure in figures:  # 2 significant digits, no more
        assert len(figure.replace(",", "").replace(".", "").strip("0")) <= 2, figure
    # 160 CPU-hours (the machine's own estimate moves with its load): 10 hours on 16 threads
    with monkeypatch.context() as patch:
        patch.setattr(counting, "estimated_cpu_seconds", lambda n, method: 160 * 3600.0)
        with pytest.warns(nq.LongCountWarning, match=r"n=22: about 160 CPU-hours on this "
                          r"machine \(10 hours on 16 threads\)"):  # (not a clock: 10:00:00)
            warn_if_long(_split.plan_count(22, n_threads=16), 16, False)
    with pytest.warns(nq.LongCountWarning, match="no count this large"):
        warn_if_long(_split.plan_count(40, prefix_depth=2, n_threads=2), 2, True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_long(_split.plan_count(19, n_threads=2), 2, False)  # about a minute
    cons = check_constraints(40, {0: 3}, None)  # (grown from n = 27)
    with pytest.warns(nq.LongCountWarning, match=r"n=40, preplaced=\{0: 3\}: roughly "
                      r"[0-9.]+e\+[0-9]+ CPU-hours"):  # (powers of ten past 10^15)
        warn_if_long(_split.plan_count(40, constraints=cons, prefix_depth=2, n_threads=2), 2,
                     True)


def test_a_board_without_solutions_is_never_long(monkeypatch):
    """A tabulated total of 0 (n = 2, 3) is known: no count's time is measured to warn."""
    from nqueens_numba import counting

    def measured(*args, **kwargs):
        raise AssertionError(f"a count's time was measured: {args}")

    monkeypatch.setattr(counting, "estimated_cpu_seconds", measured)
    for n in (2, 3):
        assert nq.count_solutions(n, prefix_depth=1, method="halving") == 0
        assert nq.count_solutions(n, n_threads=1) == 0


def test_a_constrained_count_of_more_than_a_day_says_so(monkeypatch):
    """Scaled by the share of the search the constraints leave: the whole of it with no
    square blocked, too little of it to say anything with eight queens placed."""
    from nqueens_numba import counting
    from nqueens_numba.counting import warn_if_long

    asked = []
    monkeypatch.setattr(counting, "estimated_cpu_seconds",
                        lambda n, method, constrained=False: asked.append(
                            (n, method, constrained)) or 10_000 * 3600.0)
    free = check_constraints(24, None, np.zeros((24, 24), dtype=bool))  # mirror halving
    with pytest.warns(nq.LongCountWarning, match=r"n=24: roughly 10,000 CPU-hours on this "
                      r"machine \(210 days on 2 threads\); pass checkpoint=FILE"):
        warn_if_long(_split.plan_count(24, constraints=free, n_threads=2), 2, False)
    assert asked == [(24, "halving", True)]  # the time of the constrained kernel
    one = check_constraints(24, {0: 1}, None)  # no mirror: twice the halving search, in part
    share = one.search_share()
    assert 0.02 < share < 0.06  # one first-row queen of 24, near the edge
    with pytest.warns(nq.LongCountWarning, match=r"n=24, preplaced=\{0: 1\}: roughly "
                      r"([\d,]+) CPU-hours") as record:
        warn_if_long(_split.plan_count(24, constraints=one, n_threads=2), 2, False)
    hours = int(re.search(r"roughly ([\d,]+)", str(record[0].message))[1].replace(",", ""))
    assert hours == pytest.approx(2 * 10_000 * share, rel=0.05)
    queens = nq.construct(24)
    eight = check_constraints(24, {row: int(queens[row]) for row in range(8)}, None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_long(_split.plan_count(24, constraints=eight, n_threads=2), 2, False)
    # Past the tabulated totals: grown from n = 27 (10.5 times the solutions an order, each
    # 10% slower)
    asked.clear()
    free = check_constraints(29, None, np.zeros((29, 29), dtype=bool))
    with pytest.warns(nq.LongCountWarning, match=r"n=29: roughly 1,300,000 CPU-hours"):
        # (10,000 * 11.55 ** 2)
        warn_if_long(_split.plan_count(29, constraints=free, n_threads=2), 2, False)
    assert asked == [(27, "halving", True)]
    queens = nq.construct(40)
    thirty = check_constraints(40, {row: int(queens[row]) for row in range(30)}, None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_long(_split.plan_count(40, constraints=thirty, n_threads=2), 2, False)


def _start(cmd, wait_for, timeout=60):
    """Start ``cmd``; return it once ``wait_for()`` is true."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if wait_for():
            return proc
        time.sleep(0.01)
    proc.kill()
    out, err = proc.communicate()
    pytest.fail(f"not started as expected: {err[-2000:]}")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig,sent_twice", [(signal.SIGINT, False), (signal.SIGTERM, False),
                                            (signal.SIGINT, True)])
def test_nqueens_count_25_stops_within_a_second(tmp_path, sig, sent_twice):
    """Subproblems of n = 25 take hours; the count still stops at once, with its searches in
    progress saved, after saying how long it would take. A signal sent twice at once (as
    ``timeout -s INT`` does: to the command, then to its group) is one signal."""
    path = tmp_path / "n25.json"
    cmd = [sys.executable, "-m", "nqueens_numba", "count", "25", "--checkpoint", str(path),
           "--checkpoint-every", "0.2"]
    proc = _start(cmd, lambda: path.exists() and json.loads(path.read_text())["in_progress"])
    sent = time.perf_counter()
    proc.send_signal(sig)
    if sent_twice:
        time.sleep(0.002)
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert time.perf_counter() - sent < 2.0  # 1 s, 2 s on a loaded machine
    assert proc.returncode == 128 + sig, err
    assert out == ""
    lines = err.splitlines()
    assert lines[0].startswith("nqueens: n=25: about ") and "CPU-hours" in lines[0]
    assert "its checkpoint keeps the progress" in lines[0]
    assert "interrupted after" in err and "more in progress" in err and "Traceback" not in err
    assert nq.checkpoint.status(path)["in_progress"] >= 1


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_constrained_count_of_63_stops_within_a_second():
    code = """
        import sys, numpy as np, nqueens_numba as nq
        try:
            nq.count_solutions(63, preplaced=np.full(63, -1), progress=True)
        except KeyboardInterrupt as exc:
            print("stopped:", exc)
    """
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    # the bar is drawn once the count runs
    deadline = time.monotonic() + 60
    err = ""
    while "subproblem" not in err and time.monotonic() < deadline:
        err += os.read(proc.stderr.fileno(), 4096).decode()
    time.sleep(0.5)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=30)
    assert time.perf_counter() - sent < 2.0
    assert out.startswith("stopped: count of n=63 interrupted after"), err + rest


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_kill_9_keeps_the_searches_in_progress(tmp_path):
    """``kill -9`` of a count whose subproblems take hours (n = 25): its checkpoint shows
    recorded progress, and a resume goes on from it (the solutions counted only grow)."""
    path = tmp_path / "n25.json"
    cmd = [sys.executable, "-m", "nqueens_numba", "count", "25", "--checkpoint", str(path),
           "--checkpoint-every", "0.2"]

    def counted():
        return path.exists() and (json.loads(path.read_text()).get("partial_count") or 0) > 0

    proc = _start(cmd, counted)
    time.sleep(1)
    proc.kill()
    proc.communicate(timeout=30)
    before = nq.checkpoint.status(path)
    assert before["in_progress"] >= 1 and before["partial_count"] > 0
    assert 0 < before["fraction_done"] < 1e-3 and not before["complete"]
    proc = _start(cmd, lambda: nq.checkpoint.status(path)["partial_count"]
                  > before["partial_count"])
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    after = nq.checkpoint.status(path)
    assert after["partial_count"] > before["partial_count"]
    assert after["fraction_done"] >= before["fraction_done"]


def test_the_summary_is_checksummed(tmp_path):
    path = tmp_path / "run.json"
    nq.count_solutions(12, checkpoint=path)
    data = json.loads(path.read_text())
    data["partial_count"] = 123
    path.write_text(json.dumps(data))
    with pytest.raises(CheckpointError, match="checksum"):
        nq.checkpoint.status(path)


def test_the_empty_board_writes_no_checkpoint_but_checks_the_file_given(tmp_path):
    """(Any file was accepted for n = 0: a directory, a damaged file, another count's.)"""
    path = tmp_path / "run.json"
    assert nq.count_solutions(0, checkpoint=path) == 1
    assert not path.exists()
    other = tmp_path / "other.json"
    nq.count_solutions(12, checkpoint=other)
    damaged = tmp_path / "damaged.json"
    damaged.write_text("")
    for given, says in [(tmp_path, "is a directory"), (other, "belongs to another count"),
                        (damaged, "is damaged")]:
        with pytest.raises(CheckpointError, match=says):
            nq.count_solutions(0, checkpoint=given)
    assert damaged.read_text() == "" and sorted(p.name for p in tmp_path.iterdir()) == [
        "damaged.json", "other.json"]


def test_checkpoint_every_past_floats_range_is_never(tmp_path):
    """(An int too large for a float raised a bare OverflowError.)"""
    path = tmp_path / "run.json"
    assert nq.count_solutions(13, checkpoint=path, checkpoint_every=10**400) == 73712
    assert json.loads(path.read_text())["complete"]


def test_checkpoint_every_needs_a_checkpoint(capsys):
    with pytest.raises(ValueError, match="checkpoint_every applies only with checkpoint"):
        nq.count_solutions(12, checkpoint_every=1)
    with pytest.raises(SystemExit):
        main(["count", "12", "--checkpoint-every", "1"])
    assert "--checkpoint-every applies only with --checkpoint FILE" in capsys.readouterr().err


def test_the_checkpoint_exists_from_the_start(tmp_path, monkeypatch):
    """Written when the count starts (before any save interval), with nothing done."""
    path = tmp_path / "run.json"
    _interrupt_after(monkeypatch, "_count_symmetric_run", 1)
    with pytest.raises(KeyboardInterrupt):
        nq.count_solutions(13, checkpoint=path, checkpoint_every=1000)
    info = nq.checkpoint.status(path)
    assert info["finished"] == 0 and info["partial_count"] == 0 and not info["complete"]


@pytest.mark.parametrize("saves, says", [(0, "nothing saved: the file was never written"),
                                          (1, "the work since its last save lost")])
def test_a_checkpoint_that_cannot_be_written_stops_the_count_and_says_what_is_lost(
        tmp_path, monkeypatch, saves, says):
    """A save that fails (a full disk) stops the count with a ``CheckpointError`` that says
    whether the file holds part of the count."""
    from nqueens_numba import checkpoint as module

    written = []
    original = module.atomic_file

    def atomic_file(*args, **kwargs):
        if len(written) >= saves:
            raise OSError(28, "No space left on device")
        written.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, "atomic_file", atomic_file)
    path = tmp_path / "run.json"
    with pytest.raises(CheckpointError, match=f"No space left on device.*{says}"):
        nq.count_solutions(13, checkpoint=path, checkpoint_every=0, prefix_depth=4)
    assert path.exists() == (saves > 0)


def test_one_run_per_checkpoint_file(tmp_path):
    from nqueens_numba.checkpoint import Checkpoint

    path = tmp_path / "run.json"
    split = _split.count_split(12, "symmetric", 1)
    with Checkpoint(path, split.checkpoint_id, split.width):
        with pytest.raises(CheckpointError, match="in use by another count"):
            Checkpoint(path, split.checkpoint_id, split.width)
        with pytest.raises(CheckpointError, match="in use by another count"):
            nq.count_solutions(12, checkpoint=path)
    assert nq.count_solutions(12, checkpoint=path) == 14200  # free again
    assert sorted(os.listdir(tmp_path)) == ["run.json"]  # no lock file left


def test_a_ctrl_c_while_a_count_starts_releases_its_checkpoint(tmp_path, monkeypatch):
    """A Ctrl-C once the checkpoint is opened, before the count runs (here while its bar
    starts), released nothing: every later count of the file in the process was refused as
    "in use by another count", with none running."""
    path = tmp_path / "run.json"

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(_runner, "progress_bar", interrupted)
        with pytest.raises(KeyboardInterrupt):
            nq.count_solutions(13, checkpoint=path, progress=True)
    assert nq.count_solutions(13, checkpoint=path) == 73712
    assert sorted(os.listdir(tmp_path)) == ["run.json"]


def test_a_ctrl_c_at_any_line_of_a_counts_start_leaves_its_checkpoint_free(tmp_path):
    """A Ctrl-C raised at each line in turn that runs from the call to the start of the
    search (the checkpoint opened, its lock taken, the kernels loaded, the tracker built):
    the next count of the file is never refused. (Line by line, as Python runs a signal's
    handler between lines; two windows were found so.)"""
    import sys

    path = tmp_path / "run.json"
    kwargs = dict(method="halving", prefix_depth=1, checkpoint=path, n_threads=1)
    files = tuple(os.path.join("nqueens_numba", name)
                  for name in ("_runner.py", "checkpoint.py", "_files.py"))

    def started(raise_at):
        """The lines run before the search starts (all of them, with ``raise_at=None``),
        a Ctrl-C raised at the line ``raise_at``."""
        lines = []

        def trace(frame, event, arg):
            if event == "call":
                return trace if frame.f_code.co_filename.endswith(files) else None
            if event == "line":
                if frame.f_code.co_name == "execute" and "executor.run(" in (
                        linecache.getline(frame.f_code.co_filename, frame.f_lineno)):
                    sys.settrace(None)
                    return None
                lines.append(frame.f_lineno)
                if len(lines) == raise_at:
                    raise KeyboardInterrupt
            return trace

        sys.settrace(trace)
        try:
            nq.count_solutions(10, **kwargs)
        except KeyboardInterrupt:
            pass
        finally:
            sys.settrace(None)
        return len(lines)

    nq.count_solutions(10, **kwargs)  # (the kernels loaded, and a file to resume)
    with warnings.catch_warnings():  # (a file left to the collector when its with-block's
        warnings.simplefilter("ignore", ResourceWarning)  # exit line raised, as no signal can)
        for raise_at in range(1, started(None) + 1):
            started(raise_at)
            assert nq.count_solutions(10, **kwargs) == 724, raise_at
        gc.collect()
    assert sorted(os.listdir(tmp_path)) == ["run.json"]


def test_a_count_resumed_without_a_method_takes_the_files(tmp_path, monkeypatch, capsys):
    """A file written with ``method="halving"`` was refused as another count's when resumed
    without ``method=`` (``nqueens count 15 --checkpoint F`` without ``--method``), though
    its prefix depth was taken from the file."""
    from nqueens_numba.cli import main

    path = tmp_path / "halving.json"
    _interrupt_after(monkeypatch, "_count_batch", 3)
    with pytest.raises(KeyboardInterrupt):
        nq.count_solutions(15, method="halving", checkpoint=path, n_threads=1)
    monkeypatch.undo()
    info = nq.checkpoint.status(path)
    assert 0 < info["finished"] < info["total_subproblems"]
    assert main(["count", "15", "--checkpoint", str(path)]) == 0
    assert capsys.readouterr().out == "2279184\n"
    assert nq.checkpoint.status(path)["method"] == "halving"
    assert nq.count_solutions(15, checkpoint=path) == 2279184
    # a method that cannot give what is asked: the automatic one, and the file's refusal
    with pytest.raises(CheckpointError, match="written for n=15, method='halving'"):
        nq.count_solutions(15, checkpoint=path, fundamental=True)


def test_a_file_with_the_lock_files_name_is_kept(tmp_path, monkeypatch):
    """The lock file of ``x`` is ``.x.lock``: a file of that name that is not a lock (another
    count's checkpoint) was taken for one, and removed when the count ended."""
    monkeypatch.chdir(tmp_path)
    assert nq.count_solutions(12, checkpoint=".x.lock") == 14200
    before = (tmp_path / ".x.lock").read_bytes()
    with pytest.raises(CheckpointError, match=r"cannot lock it \('.*\.x\.lock' is not a lock "
                                              r"file but has the lock's name: rename it\)"):
        nq.count_solutions(12, checkpoint="x")
    assert (tmp_path / ".x.lock").read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [".x.lock"]
    # a link of that name to a missing file: the file was created, and left behind
    os.symlink(tmp_path / "nowhere", tmp_path / ".y.lock")
    with pytest.raises(CheckpointError, match="is a symbolic link, not a lock file"):
        nq.count_solutions(12, checkpoint="y")
    assert sorted(os.listdir(tmp_path)) == [".x.lock", ".y.lock"]


def _resume_edited(tmp_path, monkeypatch, edit):
    path, data = _stopped_checkpoint(tmp_path, monkeypatch)
    edit(data)
    before = _rewrite(path, data)
    return path, before


def _first_piece(data):
    return data["in_progress"][0][2][0]


def test_a_duplicated_search_in_progress_is_refused(tmp_path, monkeypatch):
    path, before = _resume_edited(tmp_path, monkeypatch, lambda d: d["in_progress"][0][2].append(
        json.loads(json.dumps(_first_piece(d)))))
    with pytest.raises(CheckpointError, match="overlap"):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before


def test_a_stack_that_would_search_again_is_refused(tmp_path, monkeypatch):
    """Untried squares at or below the square chosen at a level were searched already."""
    def edit(data):
        stack = _first_piece(data)[2]
        assert len(stack) >= 2
        stack[0][0] |= stack[1][1] & ~stack[0][1]  # the chosen square, as untried

    path, before = _resume_edited(tmp_path, monkeypatch, edit)
    with pytest.raises(CheckpointError, match="no position"):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("where", ["settled", "finished"])
def test_huge_counts_are_refused(tmp_path, monkeypatch, where):
    def edit(data):
        if where == "settled":
            data["in_progress"][0][1][0] = 2**62
            _first_piece(data)[1][0] = 2**62
        else:
            going = {entry[0] for entry in data["in_progress"]}
            index = next(i for i in range(data["split"]["n_subproblems"]) if i not in going)
            data["finished"].append([index, 2**63 - 1, 0, 0, 0, 0, 0])

    path, before = _resume_edited(tmp_path, monkeypatch, edit)
    with pytest.raises(CheckpointError, match="too large|bad entry"):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before


def test_counts_that_do_not_add_up_are_a_checkpoint_error(tmp_path):
    path = tmp_path / "run.json"
    nq.count_solutions(12, prefix_depth=2, checkpoint=path)
    data = json.loads(path.read_text())
    row = next(entry for entry in data["finished"] if entry[2])
    row[2] += 1  # one more leaf with 2 tied edges: no longer a multiple of 2 in all
    _rewrite(path, data)
    with pytest.raises(CheckpointError, match="do not add up"):
        nq.count_solutions(12, prefix_depth=2, checkpoint=path)


@pytest.mark.parametrize("change, message", [(8, "not the 14,200 of OEIS A000170"),
                                             (1, "not a multiple of 2")])
def test_a_resumed_count_that_does_not_add_up_leaves_the_file_as_it_was(
        tmp_path, monkeypatch, change, message):
    """A partial file edited (checksum computed again) and resumed to the end: the error
    comes before the file is saved as a complete count, which it then is not."""
    path, data = _stopped_checkpoint(tmp_path, monkeypatch)
    # (8 more leaves with one tied edge: one more orbit of 8; one with two: half an orbit)
    _first_piece(data)[1][0 if change == 8 else 1] += change
    before = _rewrite(path, data)
    with pytest.raises(CheckpointError, match=message):
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert path.read_bytes() == before
    assert not checkpoint_status(path)["complete"]


def test_a_ctrl_c_at_the_end_of_a_resumed_count_saves_no_total_that_does_not_add_up(
        tmp_path, monkeypatch):
    """The interruption's save comes after the same check: a Ctrl-C once every subproblem
    was counted saved the edited file as a complete count (the check ran at the end only)."""
    path, data = _stopped_checkpoint(tmp_path, monkeypatch)
    _first_piece(data)[1][0] += 8  # one more orbit of 8
    before = _rewrite(path, data)
    run = _threads.LocalThreads.run

    def run_then_interrupt(self, split, tracker):
        run(self, split, tracker)
        assert tracker.done.all()
        raise tracker.interrupted()

    monkeypatch.setattr(_threads.LocalThreads, "run", run_then_interrupt)
    with pytest.raises((CheckpointError, KeyboardInterrupt)) as raised:
        nq.count_solutions(12, n_threads=1, prefix_depth=2, checkpoint=path)
    assert raised.type is CheckpointError and "not the 14,200 of OEIS" in str(raised.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize("kwargs", [dict(method="halving"), dict(method="symmetric"),
                                    dict(fundamental=True)])
@pytest.mark.parametrize("change", [1, 2**62 - 10**6])
def test_an_edited_checkpoint_with_a_valid_checksum_is_caught_by_oeis(tmp_path, kwargs,
                                                                      change):
    """An edited file with its checksum computed again: where OEIS A000170 gives the total,
    the counts must sum to it, whatever the result asked for."""
    path = tmp_path / "run.json"
    nq.count_solutions(12, prefix_depth=2, checkpoint=path, **kwargs)
    data = json.loads(path.read_text())
    row = next(entry for entry in data["finished"] if entry[1])
    row[1] += change  # (symmetric: leaves with one tied edge, each a whole orbit of 8)
    _rewrite(path, data)
    with pytest.raises(CheckpointError, match="not the 14,200 of OEIS A000170"):
        nq.count_solutions(12, prefix_depth=2, checkpoint=path, **kwargs)


@pytest.mark.parametrize("fundamental", [False, True])
def test_an_edited_symmetric_checkpoint_is_caught_by_its_classes(tmp_path, fundamental):
    """An edit that keeps the total (two orbits of 4 made one leaf of a whole orbit of 8)
    but not the classes: they must be OEIS A002562's."""
    path = tmp_path / "run.json"
    nq.count_solutions(12, prefix_depth=2, checkpoint=path)
    data = json.loads(path.read_text())
    row = next(entry for entry in data["finished"] if entry[5] >= 2)
    row[5] -= 2  # orbits of 4
    row[1] += 1  # a leaf with one tied edge: an orbit of 8
    _rewrite(path, data)
    with pytest.raises(CheckpointError, match="not the 1,787 of OEIS A002562"):
        nq.count_solutions(12, prefix_depth=2, checkpoint=path, fundamental=fundamental)


def test_a_split_with_bad_results_is_damaged(tmp_path):
    path = tmp_path / "run.json"
    nq.count_solutions(12, checkpoint=path)
    data = json.loads(path.read_text())
    data["split"]["results"] = 6
    _rewrite(path, data)
    with pytest.raises(CheckpointError, match="results"):
        nq.checkpoint.status(path)


def test_early_version_2_files_are_read(tmp_path):
    """The first version 2 files had a checksum of split, finished and in_progress."""
    path = tmp_path / "run.json"
    nq.count_solutions(12, checkpoint=path)
    data = json.loads(path.read_text())
    data["sha256"] = _checksum(data, early=True)
    path.write_text(json.dumps(data))
    info = nq.checkpoint.status(path)
    assert info["complete"] and info["partial_count"] is None
    assert nq.count_solutions(12, checkpoint=path) == 14200


def test_a_thread_that_outlives_the_join_bound_is_reported_once(monkeypatch):
    """A count stopped while one of its kernel calls runs on past ``config.JOIN_SECONDS``
    raises its interruption after one wait and one warning (it waited and warned twice)."""
    import _thread
    import dataclasses

    split = _split.count_split(12, "halving", 2)
    calls, blocked = [], threading.Event()

    class SlowJob:  # the first kernel call blocks for a second
        def __getattr__(self, name):
            return getattr(split.job, name)

        def run(self, states, *args):
            if len(states) and not calls:  # (not the call that loads the kernel)
                calls.append(1)
                blocked.set()
                time.sleep(1.0)
            return split.job.run(states, *args)

    slow = dataclasses.replace(split, job=SlowJob(), direct=False)
    monkeypatch.setattr(config, "JOIN_SECONDS", 0.2)
    interrupter = threading.Thread(target=lambda: blocked.wait(30) and _thread.interrupt_main())
    interrupter.start()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(KeyboardInterrupt, match="interrupted after"):
            _runner.execute(slow, _threads.LocalThreads(2))
    interrupter.join()
    assert [str(w.message).count("still running") for w in caught] == [1]
    time.sleep(1.0)  # (the blocked thread ends, and stops at once)
