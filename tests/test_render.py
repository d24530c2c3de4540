import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_numba as nq


def test_format_board():
    assert nq.format_board([1, 3, 0, 2]) == [".Q..", "...Q", "Q...", "..Q."]
    assert nq.format_board(np.array([0], dtype=np.int8)) == ["Q"]
    assert nq.format_board([]) == []


def test_to_boards_matches_format_board():
    sols = nq.solve(6)
    assert nq.to_boards(sols) == [nq.format_board(row) for row in sols]
    assert nq.to_boards(np.empty((0, 5), dtype=np.int8)) == []


def test_format_text():
    text = nq.format_text(nq.solve(4))
    assert text == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"
    assert all(line == line.rstrip() for line in text.splitlines())
    assert nq.format_text(np.empty((0, 3), dtype=np.int8)) == ""


@settings(deadline=None, max_examples=100)
@given(st.integers(1, 12).flatmap(lambda n: st.permutations(list(range(n)))))
def test_board_round_trip(perm):
    rows = nq.format_board(perm)
    assert len(rows) == len(perm)
    assert all(len(r) == len(perm) and r.count("Q") == 1 for r in rows)
    assert [r.index("Q") for r in rows] == list(perm)


@pytest.mark.parametrize("func, bad, exc", [
    (nq.format_board, [0, 4, 1, 2], ValueError),
    (nq.format_board, [-1, 0], ValueError),
    (nq.format_board, [[0]], ValueError),
    (nq.format_board, [0.0, 1.0], TypeError),
    (nq.to_boards, [0, 1], ValueError),
    (nq.to_boards, [[0, 2]], ValueError),
    (nq.to_boards, [[True]], TypeError),
    (nq.format_text, [1, 0], ValueError),
])
def test_render_errors(func, bad, exc):
    with pytest.raises(exc):
        func(bad)


def test_empty_inputs():
    assert nq.to_boards([]) == []
    assert nq.format_text([]) == ""


def test_huge_columns_are_value_errors():
    with pytest.raises(ValueError):
        nq.format_board([0, 2**64])


# --------------------------------------------------------------------------- SVG and display

import xml.etree.ElementTree as ET  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("queens", [[1, 3, 0, 2], [0], list(nq.solve(8)[17]),
                                    list(nq.construct(30))])
def test_svg_squares_and_queens(queens):
    n = len(queens)
    root = ET.fromstring(nq.to_svg(queens))
    assert root.tag == SVG + "svg"
    squares = [e for e in root.iter(SVG + "rect") if e.get("class") == "square"]
    assert len(squares) == n * n
    assert {(int(e.get("data-row")), int(e.get("data-col"))) for e in squares} == {
        (r, c) for r in range(n) for c in range(n)}
    colors = {(int(e.get("data-row")), int(e.get("data-col"))): e.get("fill") for e in squares}
    assert colors[0, 0] != colors[0, 1] == colors[1, 0] if n > 1 else True
    queens_drawn = [e for e in root.iter(SVG + "text") if e.get("class") == "queen"]
    assert sorted((int(e.get("data-row")), int(e.get("data-col"))) for e in queens_drawn) == \
        [(r, int(c)) for r, c in enumerate(queens)]
    # The queen of row r is drawn inside square (r, queens[r]).
    size = float(squares[0].get("width"))
    for e in queens_drawn:
        r, c = int(e.get("data-row")), int(e.get("data-col"))
        square = next(s for s in squares if (int(s.get("data-row")), int(s.get("data-col")))
                      == (r, c))
        x0, y0 = float(square.get("x")), float(square.get("y"))
        assert x0 < float(e.get("x")) < x0 + size and y0 < float(e.get("y")) < y0 + size


def test_svg_text_draws_itself_in_a_notebook():
    svg = nq.to_svg([1, 3, 0, 2])
    assert isinstance(svg, str)
    assert svg._repr_svg_() == svg and type(svg._repr_svg_()) is str
    assert svg + "" == str(svg)  # an ordinary string otherwise


def test_trace_view_prints_as_a_text_board():
    view = nq.TraceView(nq.trace(6), 6)
    for step in (0, len(view) // 2, len(view) - 1):
        view.step = step
        lines = repr(view).splitlines()
        assert lines[0] == view.describe(step) and len(lines) == 7
        placement = view.placement(step)
        assert [row.find("Q") for row in lines[1:]] == placement.tolist()
    assert repr(nq.TraceView(nq.trace(6)[:0], 6)) == "(empty trace)"


def test_svg_attacks_and_partial_boards():
    root = ET.fromstring(nq.to_svg([0, -1, -1, -1], attacks=True, coordinates=False))
    attacked = {(int(e.get("data-row")), int(e.get("data-col")))
                for e in root.iter(SVG + "rect") if e.get("class") == "attacked"}
    assert attacked == {(0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0), (1, 1), (2, 2), (3, 3)}
    assert len([e for e in root.iter(SVG + "text") if e.get("class") == "queen"]) == 1
    labels = [e.text for e in ET.fromstring(nq.to_svg([1, 3, 0, 2])).iter(SVG + "text")
              if e.get("class") != "queen"]
    assert labels == ["a", "b", "c", "d", "4", "3", "2", "1"]
    with pytest.raises(ValueError):
        nq.to_svg([0, 4, 1, 2])


def test_show_renders_and_truncates():
    sols = nq.solve(12)
    grid = nq.show(sols, max_boards=24, columns=6)
    html = grid._repr_html_()
    assert html.count("<svg") == 24 and "showing 24 of 14200" in html
    text = repr(grid)
    assert text.count("#") == 24 and text.endswith("(showing 24 of 14200)")
    small = nq.show(nq.fundamental_solutions(8), orbit_sizes=nq.orbit_size(
        nq.fundamental_solutions(8)))
    assert small._repr_html_().count("<svg") == 12 and "showing" not in small._repr_html_()
    assert "orbit 4" in repr(small) and "orbit 8" in repr(small)
    one = nq.show([1, 3, 0, 2])
    assert one._repr_html_().count("<svg") == 1
    assert "no solutions" in nq.show(np.empty((0, 3), dtype=np.int8))._repr_html_()

    class Printer:
        def __init__(self):
            self.out = ""

        def text(self, value):
            self.out += value

    printer = Printer()
    grid._repr_pretty_(printer, False)
    assert printer.out == text
    with pytest.raises(ValueError, match="orbit_sizes"):
        nq.show(sols[:3], orbit_sizes=[8])


def test_plot_board():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = nq.plot_board(nq.solve(8)[0], attacks=True)
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("\u265b") == 8
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdefgh")
    plt.close("all")


def test_plot_board_without_matplotlib(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(ImportError, match="nqueens_numba\\[notebook\\]"):
        nq.plot_board([1, 3, 0, 2])


# --------------------------------------------------------------------------- search trace


def replay(events, n):
    placement = [-1] * n
    solutions = []
    for event in events:
        if event["kind"] == "place":
            assert placement[event["row"]] == -1
            placement[event["row"]] = int(event["column"])
        elif event["kind"] == "remove":
            assert placement[event["row"]] == event["column"]
            placement[event["row"]] = -1
        else:
            solutions.append(tuple(placement))
    return solutions, placement


@pytest.mark.parametrize("n", [4, 5, 6, 8])
def test_trace_replays_to_the_solutions(n):
    events = nq.trace(n, max_events=100_000)
    solutions, final = replay(events, n)
    assert solutions == [tuple(map(int, s)) for s in nq.solve(n)]
    assert final == [-1] * n
    kinds = list(events["kind"])
    assert kinds.count("place") == kinds.count("remove")
    np.testing.assert_array_equal(events["step"], np.arange(len(events)))


def test_trace_4_exactly():
    solutions, _ = replay(nq.trace(4), 4)
    assert solutions == [(1, 3, 0, 2), (2, 0, 3, 1)]


def test_trace_truncates_and_preplaces():
    events = nq.trace(8, max_events=50)
    assert len(events) == 50
    constrained = nq.trace(6, preplaced={0: 1})
    solutions, _ = replay(constrained, 6)
    assert solutions == [(1, 3, 5, 0, 2, 4)]
    with pytest.raises(ValueError, match="max_events"):
        nq.trace(6, max_events=0)


def test_trace_view():
    events = nq.trace(6)
    view = nq.TraceView(events, 6)
    assert len(view) == len(events)
    last_solution = int(np.flatnonzero(events["kind"] == "solution")[0])
    np.testing.assert_array_equal(view.placement(last_solution), nq.solve(6)[0])
    svg = view.svg(last_solution)
    assert ET.fromstring(svg).tag == SVG + "svg" and "solution" in svg
    view.step = 3
    assert "step 3 of" in view._repr_html_()
    ipywidgets = pytest.importorskip("ipywidgets")
    box = view.widget()
    assert isinstance(box, ipywidgets.VBox)
    slider, board = box.children
    slider.value = last_solution
    assert "solution" in board.value and view.step == last_solution


@pytest.mark.parametrize("kwargs, error", [
    ({"max_boards": -1}, ValueError), ({"max_boards": None}, TypeError),
    ({"max_boards": 2.0}, TypeError), ({"columns": 0}, ValueError),
    ({"cell": 0}, ValueError), ({"cell": float("nan")}, ValueError),
    ({"cell": float("inf")}, ValueError), ({"cell": True}, TypeError),
    ({"cell": "10"}, TypeError), ({"orbit_sizes": 2}, ValueError),
    ({"orbit_sizes": [8]}, ValueError),
])
def test_show_options_are_checked(kwargs, error):
    with pytest.raises(error):
        nq.show([[1, 3, 0, 2], [2, 0, 3, 1]], **kwargs)


@pytest.mark.parametrize("cell", [0, -5, float("nan"), True, "10"])
def test_svg_cell_is_checked(cell):
    with pytest.raises((TypeError, ValueError), match="cell"):
        nq.to_svg([1, 3, 0, 2], cell=cell)
