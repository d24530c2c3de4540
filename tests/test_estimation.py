"""Estimates of the total count and the search tree's profile, against OEIS and oracles."""
import math
import os
import re
import signal
import sys
import threading
import time
from fractions import Fraction

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba.board import QUEEN, SUPERQUEEN, TOROIDAL
from nqueens_numba import config

from naive import profile_naive

#: OEIS A000170, n = 0..20.
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
           14772512, 95815104, 666090624, 4968057848, 39029188884]


# --------------------------------------------------------------------------- estimate_count


@pytest.mark.parametrize("n", [8, 9, 10, 11, pytest.param(12, marks=pytest.mark.slow)])
def test_intervals_cover_the_oeis_value(n):
    """95% intervals over 100 seeds cover the true count in 88-100 of them."""
    covered = 0
    for seed in range(100):
        est = nq.estimate_count(n, samples=10**5, seed=seed)
        assert est.samples == 10**5 and est.stderr > 0  # a real estimate, not an exact count
        low, high = est.interval(0.95)
        covered += low <= A000170[n] <= high
    assert 88 <= covered <= 100


@pytest.mark.slow  # (seconds)
def test_n20_within_four_standard_errors_for_every_thread_count(monkeypatch):
    monkeypatch.setenv("NUMBA_NUM_THREADS", "4")  # (the threads are Python's: any number)
    results = [nq.estimate_count(20, samples=10**7, seed=2026, n_threads=t) for t in (1, 2, 4)]
    assert results[0] == results[1] == results[2]  # value, stderr and samples, bit for bit
    est = results[0]
    assert abs(est.value - A000170[20]) <= 4 * est.stderr
    assert 0 < est.relative_stderr < 0.01


def test_same_seed_same_estimate_other_seed_other_estimate():
    a = nq.estimate_count(16, samples=50_000, seed=7)
    assert nq.estimate_count(16, samples=50_000, seed=7) == a
    assert nq.estimate_count(16, samples=50_000, seed=8) != a
    assert nq.estimate_count(16, samples=50_000) != nq.estimate_count(16, samples=50_000)


@pytest.mark.parametrize("n, total", [(1, 1), (2, 0), (3, 0)])
def test_tiny_boards_are_exact(n, total):
    est = nq.estimate_count(n, samples=1000, seed=0)
    assert est.value == total and est.stderr == 0
    assert est.interval() == (total, total)


def test_chunks_and_strata_keep_their_probes(monkeypatch):
    """With every row counted exactly each probe is exact, so any mistake in which stratum a
    probe belongs to (across chunk boundaries, with uneven strata) shows in the value."""
    monkeypatch.setattr(config, "ESTIMATE_TAIL_ROWS", ((63, 63),))
    monkeypatch.setattr(config, "ESTIMATE_RANDOM_ROWS", 0)
    monkeypatch.setattr(config, "ESTIMATE_PROBES_PER_STRATUM", 3)
    monkeypatch.setattr(config, "ESTIMATE_CHUNK", 7)
    for n in (6, 9, 11):
        for samples in (1, 100, 1001):
            est = nq.estimate_count(n, samples=samples, seed=1, n_threads=2)
            assert est.value == A000170[n]
            assert est.stderr == 0 or (samples == 1 and math.isnan(est.stderr))
        est = nq.search_profile(n, samples=101, seed=1)
        assert np.array_equal(est.value, nq.search_profile(n)) and not est.stderr.any()


def test_one_probe_has_no_error_bar():
    est = nq.estimate_count(12, samples=1, seed=3)
    assert est.samples == 1 and math.isnan(est.stderr)


def test_a_board_known_to_have_no_solutions_is_estimated_without_probes(monkeypatch):
    """(``estimate_count(60, torus=True)`` ran its 10**7 probes to find them all dead.)"""
    from nqueens_numba import estimation

    def probed(*args):
        raise AssertionError("probed a board known to have no solutions")

    monkeypatch.setattr(estimation, "_probe", probed)
    assert nq.estimate_count(60, torus=True) == (0.0, 0.0, 0)  # (no probe made)
    assert nq.estimate_count(9, piece="superqueen", samples=50) == (0.0, 0.0, 0)
    with pytest.raises(AssertionError, match="probed"):
        nq.estimate_count(61, torus=True)


def test_an_estimate_of_zero_has_an_unknown_error():
    # two probes that both die on a board with solutions: 0, but not 0 +- 0
    est = nq.estimate_count(27, samples=2, seed=1)
    assert est.value == 0 and math.isnan(est.stderr)
    assert all(math.isnan(end) for end in est.interval())
    # boards without solutions: every probe dies, and that is exact
    assert nq.estimate_count(3, samples=100, seed=1).stderr == 0


def test_intervals_near_the_edges():
    est = nq.Estimate(10.0, 10.0, 100)
    low, high = est.interval(0.95)
    assert low == 0 and high == pytest.approx(29.6, abs=0.01)  # no negative counts
    low, high = est.interval(1 - 1e-16)  # 0.5 + c / 2 would round to 1
    assert low == 0 and 90 < high < 95  # z = 8.29
    assert est.interval(Fraction(19, 20)) == est.interval(0.95)
    profile = nq.Estimate(np.array([1.0, 5.0]), np.array([0.0, 4.0]), 10)
    low, high = profile.interval()
    assert np.array_equal(low, [1.0, 0.0]) and high[1] == pytest.approx(5 + 1.96 * 4, rel=1e-3)


def test_estimate_object():
    est = nq.Estimate(200.0, 10.0, 1000)
    low, high = est.interval(0.95)
    assert low == pytest.approx(200 - 19.6, abs=0.01) and high == pytest.approx(219.6, abs=0.01)
    low, high = est.interval(0.5)
    assert high - low == pytest.approx(2 * 6.745, abs=0.01)
    assert est.relative_stderr == 0.05
    text = repr(est)
    assert "value=200" in text and "stderr=10" in text and "(5%)" in text and "1,000" in text
    value, stderr, samples = est
    assert (value, stderr, samples) == (200.0, 10.0, 1000)
    for bad, error in [(1, ValueError), (0, ValueError), (1.5, ValueError), (True, TypeError),
                       ("0.9", TypeError)]:
        with pytest.raises(error, match="confidence"):
            est.interval(bad)


@pytest.mark.parametrize("call", [nq.estimate_count,
                                  lambda n, **kw: nq.search_profile(n, samples=100, **kw)])
def test_bad_input(call):
    for bad in (8.0, True, "8", None):
        with pytest.raises(TypeError, match="n must be an integer"):
            call(bad)
    for bad in (0, -1, 64):
        with pytest.raises(ValueError, match="1..63"):
            call(bad)
    with pytest.raises(TypeError, match="seed"):
        call(8, seed=True)
    with pytest.raises(ValueError, match="seed"):
        call(8, seed=-1)
    with pytest.raises(ValueError, match="n_threads"):
        call(8, n_threads=0)
    with pytest.raises(TypeError, match="progress"):
        call(8, progress="yes")


def test_bad_samples():
    for bad in (1.5, True, "10", 1e6):
        with pytest.raises(TypeError, match="samples must be an integer"):
            nq.estimate_count(8, samples=bad)
    for bad, hint in ((1e6, "write 10**6, not 1000000.0"), (2500.0, "write 2500, not 2500.0"),
                      (np.float64(1e4), "write 10**4, not 10000.0")):
        for call in (nq.estimate_count, nq.search_profile):
            with pytest.raises(TypeError, match=r"samples must be an integer, got float \("
                               + hint.replace("*", r"\*") + r"\)"):
                call(10, samples=bad)
    for bad in (0, -5):
        with pytest.raises(ValueError, match="samples must be a positive integer"):
            nq.estimate_count(8, samples=bad)
        with pytest.raises(ValueError, match="samples must be a positive integer"):
            nq.search_profile(8, samples=bad)
    with pytest.raises(ValueError, match="seed applies to estimates only"):
        nq.search_profile(8, seed=1)


def test_progress_bar(capsys):
    est = nq.estimate_count(14, samples=100_000, seed=5, progress=True)
    assert est == nq.estimate_count(14, samples=100_000, seed=5)
    err = capsys.readouterr().err
    assert "estimate n=14" in err and "100,000/100,000" in err
    assert re.search(r"[0-9.]+[kM]probe/s", err)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_an_estimate_promptly():
    nq.estimate_count(30, samples=10, seed=0)  # kernels loaded (or compiled) first
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    result = None
    with pytest.raises(KeyboardInterrupt):
        result = nq.estimate_count(30, samples=10**11, seed=0, n_threads=2)
    elapsed = time.perf_counter() - start
    timer.join()
    assert result is None
    assert elapsed < 1.3
    assert not [t for t in threading.enumerate() if t.name.startswith("nqueens")]
    assert nq.estimate_count(10, samples=1000, seed=0).samples == 1000


# --------------------------------------------------------------------------- search_profile


@pytest.mark.parametrize("n", range(0, 11))
def test_profile_matches_naive_enumeration(n):
    profile = nq.search_profile(n)
    assert profile.dtype == np.int64 and profile.shape == (n + 1,)
    assert profile.tolist() == profile_naive(n)


@pytest.mark.parametrize("n", [11, 12, 13, 14])
def test_profile_ends_with_the_count(n):
    profile = nq.search_profile(n)
    assert profile[0] == 1 and profile[1] == n and profile[-1] == nq.count_solutions(n)
    assert np.array_equal(nq.search_profile(n, n_threads=1), profile)


def test_profile_resumes_its_subproblems(monkeypatch):
    whole = nq.search_profile(13, n_threads=1)
    # a budget of a few nodes per kernel call: every subproblem is stopped and resumed
    monkeypatch.setattr(config, "PROFILE_STEPS", 7)
    for n in (9, 10):
        assert nq.search_profile(n, n_threads=2).tolist() == profile_naive(n)
    monkeypatch.setattr(config, "PROFILE_STEPS", 1000)
    assert np.array_equal(nq.search_profile(13, n_threads=1), whole)


def test_ctrl_c_stops_an_exact_profile_promptly():
    # a subproblem of n = 25 walks ~10^10 nodes: it must stop in the middle of one
    nq.search_profile(12)  # kernels loaded (or compiled) first
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    result = None
    with pytest.raises(KeyboardInterrupt):
        result = nq.search_profile(25, n_threads=2)
    elapsed = time.perf_counter() - start
    timer.join()
    assert result is None and elapsed < 1.5
    assert not [t for t in threading.enumerate() if t.name.startswith("nqueens")]
    assert nq.search_profile(8).tolist() == profile_naive(8)


def test_profile_progress(capsys):
    assert nq.search_profile(13, progress=True)[-1] == A000170[13]
    assert "profile n=13" in capsys.readouterr().err


def test_sampled_profile_against_the_exact_one():
    exact = nq.search_profile(14)
    est = nq.search_profile(14, samples=200_000, seed=11)
    assert est.value.shape == est.stderr.shape == (15,) and est.samples == 200_000
    fixed = est.stderr == 0
    assert fixed[:2].all() and np.array_equal(est.value[fixed], exact[fixed])
    z = (est.value[~fixed] - exact[~fixed]) / est.stderr[~fixed]
    assert (np.abs(z) < 4).all()
    one = nq.search_profile(14, samples=200_000, seed=11, n_threads=1)
    assert np.array_equal(one.value, est.value) and np.array_equal(one.stderr, est.stderr)
    # the last depth is the estimate of the count, from the same probes
    count = nq.estimate_count(14, samples=200_000, seed=11)
    assert est.value[-1] == pytest.approx(count.value, rel=1e-12)
    assert est.stderr[-1] == pytest.approx(count.stderr, rel=1e-9)


def test_probes_that_agree_by_chance_are_no_exact_value():
    """A few probes can agree by chance: their zero spread is no error bar of 0, which is
    kept for what is counted rather than sampled."""
    est = nq.estimate_count(8, samples=2, seed=3)
    assert est.value == 120 and math.isnan(est.stderr)  # 92 in truth
    assert math.isnan(nq.estimate_count(4, samples=2, seed=1).stderr)
    profile = nq.search_profile(12, samples=10, seed=1)
    assert profile.value[2] == 108 and math.isnan(profile.stderr[2])  # 110 in truth
    assert profile.value[:2].tolist() == [1, 12] and profile.stderr[:2].tolist() == [0, 0]
    # exact: one square; no solutions on small boards and on the torus of gcd(n, 6) > 1
    assert nq.estimate_count(1, samples=3) == (1, 0, 3)
    assert nq.estimate_count(3, samples=3) == (0, 0, 0)  # (no probes: 10^7 probes before)
    assert nq.estimate_count(2) == (0, 0, 0)
    assert nq.estimate_count(6, samples=2, seed=0, torus=True) == (0, 0, 0)  # (no probes)
    # with probes enough, no zero error bar appears beyond the counted depths
    profile = nq.search_profile(10, samples=5000, seed=2)
    depth = nq.estimation.probe_plan(10, 5000).depth
    assert (profile.stderr[depth + 2:] > 0).all() and (profile.stderr[:depth + 2] == 0).all()


@pytest.mark.parametrize("samples", [1, 2, 1000])
def test_what_is_known_is_exact_whatever_the_samples(samples):
    """A board known to have no solutions, and a board counted rather than sampled, have an
    error of 0 with a single probe too (a lone probe has no spread, but needs none)."""
    for n, kwargs, probes in [(2, {}, 0), (3, {}, 0), (6, dict(torus=True), 0),
                              (5, dict(piece="superqueen"), 0)]:  # (the board knows: none)
        assert nq.estimate_count(n, samples=samples, seed=1, **kwargs) == (0, 0, probes)
    assert nq.estimate_count(1, samples=samples, seed=1) == (1, 0, samples)
    profile = nq.search_profile(12, samples=samples, seed=1)
    assert profile.stderr[:2].tolist() == [0, 0] and profile.value[:2].tolist() == [1, 12]
    if samples == 1:  # sampled depths: one probe per stratum measures no spread
        assert math.isnan(profile.stderr[-1])
        assert math.isnan(nq.estimate_count(8, samples=1, seed=1).stderr)


def test_the_cli_prints_the_seed_it_draws_so_the_estimate_can_be_repeated(capsys):
    """Without ``--seed`` the estimate could not be repeated: the seed was not said."""
    from nqueens_numba.cli import main

    assert main(["estimate", "12", "-S", "1000"]) == 0
    first = capsys.readouterr().out
    seed = re.search(r"^seed +(\d+) \(--seed \1 repeats this estimate\)$", first, re.M)[1]
    assert main(["estimate", "12", "-S", "1000", "--seed", seed]) == 0
    again = capsys.readouterr().out
    assert again == first.replace(f" (--seed {seed} repeats this estimate)", "")
    assert main(["estimate", "6", "--torus"]) == 0  # (no probes: no seed to say)
    assert "seed" not in capsys.readouterr().out


def test_the_cli_prints_no_interval_for_agreeing_probes(capsys):
    from nqueens_numba.cli import main

    assert main(["estimate", "8", "-S", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "interval" not in out and "stderr        unknown (too few probes" in out
    # Thousands of probes that all agree: more samples would not help (the torus of n = 5,
    # whose every probe finds its 10 solutions)
    assert main(["estimate", "5", "--torus", "-S", "10000"]) == 0
    out = capsys.readouterr().out
    assert "interval" not in out and "every probe gave the same value" in out
    assert "give more --samples" not in out
    # Every probe dead on a board with solutions: says so, not that probes were too few
    assert main(["estimate", "27", "-S", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "estimate      0\n" in out and "interval" not in out
    assert "unknown (every probe died before reaching a solution: solutions may" in out


def test_a_sampled_zero_inside_a_small_board_is_not_exact():
    """Probes that all die above a depth leave 0 there with an unknown error, on boards of
    under 4 rows too (n = 3 has 2 nodes at depth 2); the solutions of n = 2 and 3 are known
    to be none (stderr 0)."""
    exact = nq.search_profile(3)
    sampled = nq.search_profile(3, samples=2, seed=3)
    assert list(exact) == [1, 3, 2, 0]
    for depth in range(3):
        assert sampled.value[depth] == exact[depth] or np.isnan(sampled.stderr[depth])
    assert sampled.value[3] == 0 and sampled.stderr[3] == 0
    for n in (2, 3):
        estimate = nq.estimate_count(n, samples=4, seed=1)
        assert estimate.value == 0 and estimate.stderr == 0


@pytest.mark.parametrize("board", [QUEEN, TOROIDAL, SUPERQUEEN],
                         ids=lambda board: board.name or "queen")
def test_deeper_strata_never_take_a_row_from_the_exact_tail(board):
    """More samples give deeper strata, but never a shorter exact tail (on small boards the
    rows run short: a row sampled in place of a row counted exactly made the estimate of
    n = 12 worse with 10^5 samples than with 2 * 10^4)."""
    for n in range(5, 17):
        plans = [nq.estimation.probe_plan(n, samples, board)
                 for samples in (10**3, 10**4, 10**5, 10**6, 10**7)]
        tails = {plan.tail for plan in plans if plan.depth >= 1}
        assert len(tails) <= 1, (n, [(plan.depth, plan.tail) for plan in plans])


@pytest.mark.slow
def test_more_samples_give_a_closer_estimate_of_a_small_board():
    """The RMS error over seeds falls as the samples grow, about as their square root (n =
    12: from 10^4 to 10^5 samples it fell by 4% when the strata took rows from the exact
    tail)."""
    def rms(samples):
        values = [nq.estimate_count(12, samples=samples, seed=seed).value for seed in range(20)]
        return float(np.sqrt(np.mean((np.array(values) - 14200) ** 2)))

    errors = [rms(samples) for samples in (10**4, 10**5, 4 * 10**5)]
    assert errors[0] > 2 * errors[1] and errors[1] > 1.5 * errors[2], errors  # (3.2 and 2)
