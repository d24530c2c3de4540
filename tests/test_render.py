import re
import textwrap
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nqueens_numba as nq
from nqueens_numba.board import board_of


def test_format_board():
    assert nq.format_board([1, 3, 0, 2]) == [".Q..", "...Q", "Q...", "..Q."]
    assert nq.format_board(np.array([0], dtype=np.int8)) == ["Q"]
    assert nq.format_board([]) == []


def test_format_board_of_a_partial_placement():
    """-1 is a row without a queen, as in ``to_svg`` and ``show``."""
    assert nq.format_board([-1, 3, 0, -1]) == ["....", "...Q", "Q...", "...."]
    assert nq.format_board([-1, -1]) == ["..", ".."]


def test_to_boards_matches_format_board():
    sols = nq.solve(6)
    assert nq.to_boards(sols) == [nq.format_board(row) for row in sols]
    assert nq.to_boards(np.empty((0, 5), dtype=np.int8)) == []


def test_format_text():
    text = nq.format_text(nq.solve(4))
    assert text == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"
    assert all(line == line.rstrip() for line in text.splitlines())
    assert nq.format_text(np.empty((0, 3), dtype=np.int8)) == ""


def test_text_too_large_for_memory_is_refused_before_it_starts(monkeypatch):
    """A board's text is n * n characters: checked against the memory available first."""
    from nqueens_numba import _validate

    large, small = nq.construct(2000), nq.construct(1000)
    many = np.tile(nq.construct(120), (300, 1))
    monkeypatch.setattr(_validate, "_available_memory", lambda: 10_000_000)
    with pytest.raises(MemoryError, match=r"the text of 1 board of n=2,000 needs about 12.1 MB "
                       r"of memory, and this process has about 10 MB available"):
        nq.format_board(large)
    tracemalloc.start()
    try:
        with pytest.raises(MemoryError, match="the text of 300 boards of n=120 needs"):
            nq.format_text(many)  # (its 4.4 MB of lines not allocated first)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 500_000
    with pytest.raises(MemoryError, match="the text of 20,000 boards of n=8 needs about 14.1 MB"):
        nq.to_boards(np.tile(nq.construct(8), (20_000, 1)))  # 1.3 MB of squares, 160,000 rows
    assert len(nq.format_board(small)) == 1000  # 3 MB
    assert len(nq.to_boards(many[:50])) == 50


@settings(deadline=None, max_examples=100)
@given(st.integers(1, 12).flatmap(lambda n: st.permutations(list(range(n)))))
def test_board_round_trip(perm):
    rows = nq.format_board(perm)
    assert len(rows) == len(perm)
    assert all(len(r) == len(perm) and r.count("Q") == 1 for r in rows)
    assert [r.index("Q") for r in rows] == list(perm)


@pytest.mark.parametrize("func, bad, exc", [
    (nq.format_board, [0, 4, 1, 2], ValueError),
    (nq.format_board, [-2, 0], ValueError),
    (nq.to_boards, [[-1, 0]], ValueError),
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


def test_a_mapping_of_rows_to_columns_is_not_a_placement():
    """A dict such as ``preplaced`` takes is refused in words (NumPy made it a 0-d object
    array: "must hold integers, got dtype object")."""
    for func in (nq.to_svg, nq.format_board, nq.is_solution):
        with pytest.raises(TypeError, match=r"queens must be a list or array of integers "
                                            r"\(one column per row\), got a dict"):
            func({0: 0, 3: 5})
    with pytest.raises(TypeError, match="got a set"):
        nq.to_svg({1, 3, 0, 2})


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
    view = nq.TraceView(nq.trace(6), 6)  # n may be given, if it agrees
    for step in (0, len(view) // 2, len(view) - 1):
        view.step = step
        lines = repr(view).splitlines()
        assert lines[0] == view.describe(step) and len(lines) == 7
        placement = view.placement(step)
        assert [row.find("Q") for row in lines[1:]] == placement.tolist()
        assert placement.dtype == nq.solve(6).dtype  # (one dtype for every placement)
    assert repr(nq.TraceView(nq.trace(6)[:0], 6)) == "(empty trace)"


def test_svg_attacks_and_partial_boards():
    root = ET.fromstring(nq.to_svg([0, -1, -1, -1], attacks=True, coordinates=False))
    attacked = {(int(e.get("data-row")), int(e.get("data-col")))
                for e in root.iter(SVG + "rect") if e.get("class") == "attacked"}
    assert attacked == {(0, 1), (0, 2), (0, 3), (1, 0), (2, 0), (3, 0), (1, 1), (2, 2), (3, 3)}
    assert len([e for e in root.iter(SVG + "text") if e.get("class") == "queen"]) == 1
    def labels(**kwargs):
        return [e.text for e in ET.fromstring(nq.to_svg([1, 3, 0, 2], **kwargs)).iter(
            SVG + "text") if e.get("class") == "label"]

    # as the arrays read: columns then rows, 0 .. n-1, row 0 at the top
    assert labels() == labels(coordinates="index") == ["0", "1", "2", "3"] * 2
    assert labels(coordinates="chess") == ["a", "b", "c", "d", "4", "3", "2", "1"]
    assert labels(coordinates=False) == []
    with pytest.raises(ValueError, match="coordinates"):
        nq.to_svg([1, 3, 0, 2], coordinates="algebraic")
    with pytest.raises(ValueError):
        nq.to_svg([0, 4, 1, 2])


def test_board_grid_renders_and_truncates():
    sols = nq.solve(12)
    grid = nq.BoardGrid(sols, max_boards=24)
    html = grid._repr_html_()
    assert html.count("<svg") == 24 and "showing 24 of 14200" in html
    assert "flex-wrap:wrap" in html  # wraps to the page's width
    fixed = nq.BoardGrid(sols, max_boards=24, columns=6)._repr_html_()
    assert "grid-template-columns:repeat(6, max-content)" in fixed  # exactly 6 per line
    huge = nq.BoardGrid(nq.construct(1001))._repr_html_()
    assert "<svg" not in huge and "too large" in huge and len(huge) < 500
    for past in (nq.BoardGrid(nq.construct(200_000)),  # past to_svg's and attacks' limits:
                 nq.BoardGrid(nq.construct(20_000), attacks=True)):  # nothing drawn
        assert "too large for a grid" in past._repr_html_()
    assert repr(nq.BoardGrid(sols, max_boards=0)) == "(showing 0 of 14200)"
    text = repr(grid)
    assert text.count("#") == 24 and text.endswith("(showing 24 of 14200)")
    small = nq.BoardGrid(nq.fundamental_solutions(8), orbit_sizes=nq.orbit_size(
        nq.fundamental_solutions(8)))
    assert small._repr_html_().count("<svg") == 12 and "showing" not in small._repr_html_()
    assert "orbit 4" in repr(small) and "orbit 8" in repr(small)
    one = nq.BoardGrid([1, 3, 0, 2])
    assert one._repr_html_().count("<svg") == 1
    assert "no solutions" in nq.BoardGrid(np.empty((0, 3), dtype=np.int8))._repr_html_()

    class Printer:
        def __init__(self):
            self.out = ""

        def text(self, value):
            self.out += value

    printer = Printer()
    grid._repr_pretty_(printer, False)
    assert printer.out == text
    with pytest.raises(ValueError, match="orbit_sizes"):
        nq.BoardGrid(sols[:3], orbit_sizes=[8])


def test_show_prints_outside_ipython(capsys):
    assert nq.show([[1, 3, 0, 2], [2, 0, 3, 1]]) is None
    assert capsys.readouterr().out == repr(nq.BoardGrid([[1, 3, 0, 2], [2, 0, 3, 1]])) + "\n"
    nq.show([np.uint64(1), np.int64(0)])  # what is_solution accepts, show accepts
    assert capsys.readouterr().out == "#0\n.Q\nQ.\n"
    nq.show(nq.construct(1000))  # too large for text: a summary
    out = capsys.readouterr().out
    assert "n = 1000" in out and len(out) < 500


def test_show_displays_each_call_in_a_notebook():
    """``show`` in a loop displays every call, once each, also when it ends the cell."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    code = ("import nqueens_numba as nq\n"
            "for n in (4, 5, 6):\n"
            "    nq.show(nq.solve(n), max_boards=2)\n"
            "nq.show(nq.solve(8)[0])")
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbclient.NotebookClient(book, timeout=120, kernel_name="python3").execute()
    outputs = book.cells[0].outputs
    assert [o.output_type for o in outputs] == ["display_data"] * 4
    assert [o.data["text/html"].count("<svg") for o in outputs] == [2, 2, 2, 1]


@pytest.mark.parametrize("n", [4, 8, 32, 33, 200, 1000])
def test_svg_fits_a_page(n):
    queens = nq.construct(n)
    svg = nq.to_svg(queens)
    root = ET.fromstring(svg)
    assert float(root.get("width")) <= nq.render.BOARD_PIXELS + 60
    assert len(svg) < 100_000 if n > nq.render.SQUARES_MAX_N else True
    if n > nq.render.SQUARES_MAX_N:  # compactly: no element per square
        assert not [e for e in root.iter(SVG + "rect") if e.get("class") == "square"]
        path = next(e for e in root.iter(SVG + "path") if e.get("class") == "queens")
        assert path.get("d").count("M") == n
    big = nq.to_svg(nq.construct(1000), attacks=True, title="n = 1000")
    assert len(big) < 1_000_000
    assert float(ET.fromstring(nq.to_svg(queens, cell=10)).get("width")) >= 10 * n


def test_svg_checks_attacks_and_marked():
    for bad in ("no", 1, None):
        with pytest.raises(TypeError, match="attacks must be True or False"):
            nq.to_svg([0, -1, -1], attacks=bad)
    with pytest.raises(ValueError, match="n <= 10,000"):  # an n x n array of squares
        nq.to_svg(nq.construct(nq.render.ATTACKS_MAX_N + 1), attacks=True)
    assert nq.to_svg(nq.construct(nq.render.ATTACKS_MAX_N + 1)).startswith("<svg")
    for bad in ([0, 0], "ab", [(0, 0, 0)], 5):
        with pytest.raises(TypeError, match=r"marked must be a sequence of \(row, column\)"):
            nq.to_svg([1, 3, 0, 2], marked=bad)
    with pytest.raises(ValueError, match="column must be in the range 0..3"):
        nq.to_svg([1, 3, 0, 2], marked=[(0, 4)])
    assert nq.to_svg([1, 3, 0, 2], marked=np.array([[0, 1], [2, 2]])).count(
        'class="marked"') == 2


def test_svg_refuses_boards_too_large_to_see():
    with pytest.raises(ValueError, match="n <= 100000"):
        nq.to_svg(np.arange(100_001))


def test_svg_compact_squares_and_attacks_match_the_square_by_square_drawing():
    queens = nq.construct(40).astype(np.int64)
    queens[::3] = -1
    root = ET.fromstring(nq.to_svg(queens, attacks=True, cell=10, coordinates=False))
    hit = board_of().attacked(queens)
    path = next(e for e in root.iter(SVG + "path") if e.get("class") == "attacked")
    covered = np.zeros_like(hit)
    for part in path.get("d").split("M")[1:]:  # "x y h w v c h -w z"
        xy, rest = part.split("h", 1)
        x, y = map(float, xy.split())
        w = float(rest.split("v")[0])
        covered[int(y // 10), int(x // 10):int((x + w) // 10)] = True
    assert np.array_equal(covered, hit)


def _queen_boxes(ax):
    """Display-space extents of each queen glyph of ``plot_board``'s patch."""
    ax.figure.canvas.draw()
    patch = next(p for p in ax.patches if p.get_gid() == "queens")
    path = patch.get_path()
    boxes = []
    vertices, codes = path.vertices, path.codes
    starts = np.flatnonzero(codes == 1)  # MOVETO starts each outline
    pieces = np.split(np.arange(len(vertices)), starts[1:])
    for piece in pieces:
        boxes.append(ax.transData.transform(vertices[piece]))
    return boxes


def _square_of(ax, point):
    col, row = ax.transData.inverted().transform(point)
    return int(round(row)), int(round(col))


@pytest.mark.parametrize("n, layout", [(4, None), (8, None), (64, None), (8, (3, 4)),
                                       (32, (3, 4)), (4, (1, 2))])
def test_plot_board_queens_stay_inside_their_squares(n, layout):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    queens = nq.construct(n)
    if layout is None:
        ax = nq.plot_board(queens)
        side = ax.figure.get_size_inches()
        assert nq.render.FIGURE_INCHES[0] <= side[0] <= nq.render.FIGURE_INCHES[1]
    else:
        fig, axes = plt.subplots(*layout, figsize=(10, 8))
        for a in axes.flat:
            nq.plot_board(queens, a)
        ax = axes.flat[-1]
    rows = set()
    for outline in _queen_boxes(ax):
        lo, hi = outline.min(axis=0), outline.max(axis=0)
        r0, c0 = _square_of(ax, lo)
        assert _square_of(ax, hi) == (r0, c0) or _square_of(ax, (lo + hi) / 2) == (
            r0, c0)  # the glyph's corners lie in one square
        (x0, y0), (x1, y1) = ax.transData.transform([[c0 - 0.5, r0 - 0.5],
                                                     [c0 + 0.5, r0 + 0.5]])
        left, right = sorted((x0, x1))
        bottom, top = sorted((y0, y1))
        assert left <= lo[0] and hi[0] <= right and bottom <= lo[1] and hi[1] <= top
        rows.add(r0)
        assert queens[r0] == c0
    assert rows == set(range(n))
    plt.close("all")


def test_plot_board_of_the_empty_board_warns_of_nothing():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = nq.plot_board([], attacks=True)  # (warnings are errors in the tests)
    assert ax.get_xlim() == (-0.5, 0.5)
    plt.close(ax.figure)


def test_plot_board_labels():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = nq.plot_board(nq.solve(8)[0], attacks=True)
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(c) for c in range(8)]
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(r) for r in range(8)]
    ax = nq.plot_board(nq.solve(8)[0], coordinates="chess")
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdefgh")
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(8 - r) for r in range(8)]
    ax = nq.plot_board(nq.construct(200))
    assert 200 / len(ax.get_xticklabels()) >= 2  # thinned to fit
    assert max(ax.figure.get_size_inches()) == nq.render.FIGURE_INCHES[1]
    plt.close("all")


def test_plot_board_of_a_large_board_marks_its_queens():
    """Squares under FINE_SQUARE_PIXELS: one colour, and a mark per queen that stays
    visible; past MAX_SVG_N a ValueError, not an n x n array."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    queens = nq.construct(2000)
    ax = nq.plot_board(queens)
    marks = next(c for c in ax.collections if c.get_gid() == "queens")
    assert np.array_equal(marks.get_offsets(), np.column_stack([queens, np.arange(2000)]))
    side = np.sqrt(marks.get_sizes()[0]) * ax.figure.dpi / 72  # pixels
    assert side >= nq.render.plot.FINE_SQUARE_PIXELS
    assert [image.get_array().shape for image in ax.images] == [(1, 1)]
    ax = nq.plot_board(nq.construct(8))  # squares of many pixels: the chequer and glyphs
    assert [image.get_array().shape for image in ax.images] == [(8, 8)]
    assert not ax.collections and ax.patches[0].get_gid() == "queens"
    with pytest.raises(ValueError, match="n <= 100000, got n=100001"):
        nq.plot_board(nq.construct(100_001))
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
    with pytest.warns(nq.TraceTruncatedWarning, match="max_events=50"):
        events = nq.trace(8, max_events=50)
    assert len(events) == 50 and events.dtype.metadata == {
        "n": 8, "complete": False, "piece": "queen", "torus": False}
    full = nq.trace(8, max_events=4204)  # exactly the whole search: no warning
    assert len(full) == 4204 and full.dtype.metadata["complete"]
    assert np.array_equal(full[:50], events)
    assert len(nq.trace(4, max_events=2**63 - 1)) == 34  # a cap, not an allocation
    constrained = nq.trace(6, preplaced={0: 1})
    solutions, _ = replay(constrained, 6)
    assert solutions == [(1, 3, 5, 0, 2, 4)]
    with pytest.raises(ValueError, match="max_events"):
        nq.trace(6, max_events=0)


def test_trace_view():
    events = nq.trace(6)
    view = nq.TraceView(events)
    assert view.n == 6 and len(view) == len(events)
    last_solution = int(np.flatnonzero(events["kind"] == "solution")[0])
    np.testing.assert_array_equal(view.placement(last_solution), nq.solve(6)[0])
    svg = view.svg(last_solution)
    assert ET.fromstring(svg).tag == SVG + "svg" and "solution" in svg
    view.step = 3
    titles = [e.text for e in ET.fromstring(view._repr_html_()).iter(SVG + "text")
              if e.get("class") == "title"]
    assert " ".join(titles) == view.describe(3)
    assert titles[0] == f"step 3 of 0..{len(events) - 1}:"
    event = events[3]
    assert view.describe(3).endswith(f"row {event['row']}, column {event['column']}")
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
    ({"orbit_sizes": [8]}, ValueError), ({"orbit_sizes": [3, 8]}, ValueError),
    ({"orbit_sizes": "ab"}, TypeError), ({"orbit_sizes": [2.0, 2.0]}, TypeError),
])
def test_show_options_are_checked(kwargs, error):
    with pytest.raises(error) as raised:
        nq.show([[1, 3, 0, 2], [2, 0, 3, 1]], **kwargs)
    assert "queens" not in str(raised.value)  # the option is named, not the boards


@pytest.mark.parametrize("cell", [0, -5, float("nan"), True, "10"])
def test_svg_cell_is_checked(cell):
    with pytest.raises((TypeError, ValueError), match="cell"):
        nq.to_svg([1, 3, 0, 2], cell=cell)


@pytest.mark.parametrize("args, kwargs, error", [
    ((4,), {}, ValueError), ((8,), {}, ValueError), ((4.7,), {}, TypeError),
    ((), {"step": 10**6}, ValueError), ((), {"step": -1}, ValueError),
    ((), {"step": 1.5}, TypeError),
])
def test_trace_view_checks_its_arguments(args, kwargs, error):
    with pytest.raises(error):
        nq.TraceView(nq.trace(6), *args, **kwargs)


def test_trace_view_of_bare_events():
    events = np.asarray(nq.trace(5), dtype=nq.api.TRACE_DTYPE)  # no metadata
    with pytest.raises(ValueError, match="pass n"):
        nq.TraceView(events)
    assert nq.TraceView(events, 5).n == 5
    with pytest.raises(ValueError, match="outside"):
        nq.TraceView(events, 3)
    with pytest.raises(TypeError, match="trace"):
        nq.TraceView([1, 2, 3], 4)
    view = nq.TraceView(events, 5)
    with pytest.raises(ValueError, match="step"):
        view.step = len(events)
    with pytest.raises(ValueError, match="step"):
        view.placement(-1)


def test_boards_on_one_page_keep_their_own_squares():
    """Compact boards of different geometry define patterns of different ids."""
    a = nq.to_svg(nq.construct(40), cell=4, coordinates=False)
    b = nq.to_svg(nq.construct(40), cell=10)
    ids = [ET.fromstring(svg).find(SVG + "pattern").get("id") for svg in (a, b)]
    assert ids[0] != ids[1]
    assert f"url(#{ids[1]})" in b and f"url(#{ids[0]})" not in b


@pytest.mark.parametrize("n, coordinates", [(4, True), (101, True), (101, "chess"),
                                            (1000, "chess")])
def test_svg_leaves_room_for_labels_and_captions(n, coordinates):
    """Every label and the caption lie inside the image (by their anchor and an estimated
    width of 0.6 em per character)."""
    title = "step 5 of 0..33: remove row 2, column 1"
    root = ET.fromstring(nq.to_svg(nq.construct(n), coordinates=coordinates, title=title))
    width, height = float(root.get("width")), float(root.get("height"))
    for e in root.iter(SVG + "text"):
        if e.get("class") == "queen":
            continue
        x, y, size = float(e.get("x")), float(e.get("y")), float(e.get("font-size"))
        half = 0.3 * size * len(e.text)
        anchor = e.get("text-anchor")
        lo, hi = (x - half, x + half) if anchor == "middle" else (x - 2 * half, x)
        assert 0 <= lo and hi <= width, (e.text, lo, hi, width)
        assert size * 0.5 <= y + size * 0.5 and y <= height, (e.text, y, height)


@pytest.mark.parametrize("n", [1000, 300])
def test_svg_marks_of_a_large_board_stay_on_it(n):
    """The queens of a board too large for a square each are marks of at least 1.5 px, more
    than a square: the first and last stay within the board's edges, each in its square's
    place otherwise."""
    root = ET.fromstring(nq.to_svg(nq.construct(n)))
    board = next(e for e in root.iter(SVG + "rect") if e.get("class") == "board")
    x0, y0, size = (float(board.get(k)) for k in ("x", "y", "width"))
    d = next(e for e in root.iter(SVG + "path") if e.get("class") == "queens").get("d")
    marks = [tuple(map(float, m)) for m in re.findall(r"M([-\d.e]+) ([-\d.e]+)h([\d.e]+)", d)]
    assert len(marks) == n
    cell = size / n
    for (x, y, side), r, c in zip(marks, range(n), nq.construct(n)):
        assert x0 <= x and x + side <= x0 + size + 1e-9
        assert y0 <= y and y + side <= y0 + size + 1e-9
        assert abs(x + side / 2 - (x0 + (c + 0.5) * cell)) <= side / 2
        assert abs(y + side / 2 - (y0 + (r + 0.5) * cell)) <= side / 2


def test_svg_titles_of_control_characters_and_long_words():
    """A title is well-formed XML whatever it holds, and a word longer than a line is cut
    (5000 letters made an image 54,018 px wide)."""
    for title in ("\x00\x01 bad", "a" * 5000, "tab\tand\x1b escape"):
        root = ET.fromstring(nq.to_svg([1, 3, 0, 2], title=title))
        assert float(root.get("width")) < 300
    texts = [e.text for e in ET.fromstring(nq.to_svg([1, 3, 0, 2], title="a" * 5000)).iter(
        SVG + "text") if e.get("class") == "title"]
    assert "".join(texts) == "a" * 5000


def test_svg_text_prints_briefly():
    printed = []

    class Printer:
        def text(self, value):
            printed.append(value)

    svg = nq.to_svg(nq.construct(8))
    svg._repr_pretty_(Printer(), False)
    assert printed == [f"<SVG image, {len(svg):,} characters>"]


def test_trace_view_of_a_slice_and_of_bad_events():
    """A part of a trace is refused: its boards would be replayed from an empty board (step
    10 of ``trace(6)`` drawn without the queens placed before it)."""
    events = nq.trace(6)
    for part in (events[10:20], events[::2], events[1:]):
        with pytest.raises(ValueError, match="whole trace, from step 0"):
            nq.TraceView(part)
    view = nq.TraceView(events[:20], step=10)  # a beginning is a whole trace so far
    assert view.describe(10).startswith("step 10 of 0..19: ")
    assert np.array_equal(view.placement(10), nq.TraceView(events).placement(10))
    events = nq.trace(4)
    bad = events.copy()
    bad["kind"][3] = "bogus"
    with pytest.raises(ValueError, match="bogus"):
        nq.TraceView(bad)
    bad = events.copy()
    bad["row"][0] = -2
    with pytest.raises(ValueError, match="outside"):
        nq.TraceView(bad)
    with pytest.raises(ValueError, match=r"one-dimensional, .* got shape \(2, 17\)"):
        nq.TraceView(events.reshape(2, -1))


def test_drawings_read_on_a_dark_page():
    """A background and the colour of every text are set: nothing is left to a dark theme's
    page (black text on it would vanish)."""
    root = ET.fromstring(nq.to_svg(nq.solve(8)[0], title="eight", coordinates="chess"))
    background = root[0]
    assert background.get("class") == "background" and background.get("fill") == "#ffffff"
    assert (float(background.get("width")), float(background.get("height"))) == (
        float(root.get("width")), float(root.get("height")))
    texts = list(root.iter(SVG + "text"))
    assert len(texts) == 1 + 8 + 16 and all(e.get("fill") for e in texts)


def test_trace_view_marks_the_square_just_emptied_and_fits_its_captions():
    events = nq.trace(6)
    view = nq.TraceView(events, cell=16)  # a small board, as in a grid of steps
    for k in range(40):
        root = ET.fromstring(view.svg(k))
        marked = [(int(e.get("data-row")), int(e.get("data-col")))
                  for e in root.iter(SVG + "rect") if e.get("class") == "marked"]
        event = events[k]
        assert marked == ([(event["row"], event["column"])] if event["kind"] == "remove"
                          else [])
        # the caption wraps: the drawing is as wide as the board and its labels
        plain = ET.fromstring(nq.to_svg(view.placement(k), cell=16))
        assert float(root.get("width")) == float(plain.get("width"))
        titles = [e for e in root.iter(SVG + "text") if e.get("class") == "title"]
        assert len(titles) >= 2 and all(
            0.6 * float(e.get("font-size")) * len(e.text) <= float(root.get("width"))
            for e in titles)
    assert len(nq.to_svg([0], title="a long caption over a one-square board")) > 0


def test_captions_scale_with_small_boards_and_wrap_evenly():
    """A caption's font shrinks with the squares (down to 9 px), and its lines are even:
    as few as the width allows, none left with one short word where a greedy wrap would
    leave one ("remove row 4, column" / "3")."""
    from nqueens_numba.render.svg import _wrap

    def caption(cell):
        root = ET.fromstring(nq.to_svg(nq.construct(6), cell=cell,
                                       title="step 5 of 0..307: remove row 4, column 3"))
        titles = [e for e in root.iter(SVG + "text") if e.get("class") == "title"]
        return float(titles[0].get("font-size")), [e.text for e in titles]

    sizes = {cell: caption(cell) for cell in (10, 22, 40)}
    assert sizes[10][0] == 9.0 < sizes[22][0] < sizes[40][0] == 18.0
    assert sizes[22][1] == ["step 5 of 0..307:", "remove row 4, column 3"]
    text = "step 5 of 0..307: remove row 4, column 3"
    for most in range(8, 45):
        lines = _wrap(text, (most + 0.5) * 6, 10)
        assert " ".join(lines) == text and all(len(line) <= most for line in lines)
        for part in ("step 5 of 0..307:", "remove row 4, column 3"):
            greedy = textwrap.wrap(part, most, break_long_words=False)
            got = _wrap(part, (most + 0.5) * 6, 10)
            assert len(got) == len(greedy) and min(map(len, got)) >= min(map(len, greedy))
            if most == 20 and part.startswith("remove"):  # greedy: "remove row 4, column", "3"
                assert got == ["remove row", "4, column 3"]


def test_drawing_arguments_of_the_wrong_type_are_type_errors():
    q = [1, 3, 0, 2]
    for wrong in (1, 2.0, ["index"], np.array([1, 2]), np.array(["chess"])):
        with pytest.raises(TypeError, match="coordinates must be"):
            nq.to_svg(q, coordinates=wrong)
    assert nq.to_svg(q, coordinates=np.True_) == nq.to_svg(q, coordinates=True)
    for wrong in (True, 5, ["a"]):
        with pytest.raises(TypeError, match="title must be a string or None, got"):
            nq.to_svg(q, title=wrong)
    with pytest.raises(TypeError, match="marked must be a sequence"):
        nq.to_svg(q, marked=np.array(5))
    assert nq.to_svg(q, marked=((0, 1) for _ in range(1))) == nq.to_svg(q, marked=[(0, 1)])
    note = nq.BoardGrid(nq.construct(100_001))._repr_html_()
    assert "too large to draw (n &lt;= 100000)" in note and "to_svg or" not in note
    empty = nq.TraceView(nq.trace(6)[:0])
    for show in (empty.svg, empty.placement, empty.describe):
        with pytest.raises(ValueError, match="the trace is empty: it has no step to show"):
            show(0)
    pytest.importorskip("matplotlib")
    for wrong in (5, "ax"):
        with pytest.raises(TypeError, match="ax must be a matplotlib Axes, got"):
            nq.plot_board(q, ax=wrong)
        with pytest.raises(TypeError, match="ax must be a matplotlib Axes, got"):
            nq.plot_occupancy(nq.occupancy(4), ax=wrong)
