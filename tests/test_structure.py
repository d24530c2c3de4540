"""Occupancy: solutions with a queen on each square, against a naive tally."""
import sys

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import config

from naive import as_array, solutions_by_backtracking, solutions_by_permutations

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]


def naive_occupancy(n):
    sols = as_array(solutions_by_permutations(n) if n <= 8 else solutions_by_backtracking(n), n)
    out = np.zeros((n, n), dtype=np.int64)
    for queens in sols:
        out[np.arange(n), queens] += 1
    return out


@pytest.mark.parametrize("breadth_max_n", [config.BREADTH_MAX_N, -1])
@pytest.mark.parametrize("n", range(0, 11))
def test_occupancy_matches_a_naive_tally(monkeypatch, n, breadth_max_n):
    """In NumPy (small boards) and by counts with one pre-placed queen per orbit."""
    monkeypatch.setattr(config, "BREADTH_MAX_N", breadth_max_n)
    got = nq.occupancy(n)
    assert got.dtype == np.int64 and got.shape == (n, n)
    assert np.array_equal(got, naive_occupancy(n))


@pytest.mark.parametrize("n", [1, 4, 5, 8, 11, 12, 13, 14])
def test_occupancy_sums_and_symmetry(n):
    counts = nq.occupancy(n)
    assert (counts.sum(axis=0) == A000170[n]).all() and (counts.sum(axis=1) == A000170[n]).all()
    # the eight symmetries of the square, on the array itself
    images = [np.rot90(counts, k) for k in range(4)]
    images += [np.fliplr(image) for image in images]
    assert all(np.array_equal(image, counts) for image in images)
    assert np.array_equal(counts[0], nq.first_row_counts(n))


def test_occupancy_errors():
    for bad in (8.0, True, "8", None):
        with pytest.raises(TypeError):
            nq.occupancy(bad)
    with pytest.raises(ValueError, match="0..63"):
        nq.occupancy(64)
    with pytest.raises(ValueError, match="n_threads"):
        nq.occupancy(8, n_threads=0)


def test_plot_occupancy():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = nq.plot_occupancy(8)
    image = ax.images[0].get_array()
    assert np.array_equal(np.asarray(image), nq.occupancy(8))
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(c) for c in range(8)]
    assert len(ax.figure.axes) == 2  # the board and its colour bar
    ax = nq.plot_occupancy(nq.occupancy(6), coordinates="chess")
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdef")
    for bad in (8.0, True, "8", None):
        with pytest.raises(TypeError, match="n_or_counts"):
            nq.plot_occupancy(bad)
    with pytest.raises(ValueError, match="square"):
        nq.plot_occupancy(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="non-negative"):
        nq.plot_occupancy(-np.ones((3, 3)))
    plt.close("all")


def test_plot_occupancy_of_the_empty_board_warns_once_and_labels_stay_readable():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with pytest.warns(UserWarning) as record:
        nq.plot_occupancy(0)
    assert [str(w.message) for w in record] == [
        "the empty board (n = 0) has no squares: the heatmap is empty"]
    assert record[0].filename == __file__
    # n = 14 in a small subplot, as in a notebook's row of figures: labels of 8 pt or more,
    # thinned rather than shrunk
    axes = plt.subplots(1, 3, figsize=(9, 3))[1]
    ax = nq.plot_occupancy(np.ones((14, 14), dtype=np.int64), axes[0])
    sizes = [t.get_fontsize() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    assert sizes and min(sizes) >= 8
    assert len(ax.get_xticklabels()) < 14
    plt.close("all")


def test_plot_occupancy_without_matplotlib_names_itself(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)  # its import fails
    for draw in (nq.plot_occupancy, nq.plot_board):
        with pytest.raises(ImportError, match=f"^{draw.__name__} needs matplotlib"):
            draw(8 if draw is nq.plot_occupancy else [1, 3, 0, 2])
