"""Every notebook runs top to bottom without error, and the README's board image is current."""
import pathlib

import pytest

import nqueens_numba as nq

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert [p.name for p in NOTEBOOKS] == ["01_quickstart.ipynb", "02_symmetry.ipynb",
                                           "03_performance.ipynb", "04_search_trace.ipynb",
                                           "05_beyond_exact.ipynb"]


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(book, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    errors = [o for cell in book.cells if cell.cell_type == "code"
              for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_committed_with_outputs(path):
    nbformat = pytest.importorskip("nbformat")
    book = nbformat.read(path, as_version=4)
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert code and all(cell.get("execution_count") for cell in code)
    assert sum(len(cell.get("outputs", [])) for cell in code) >= len(code) // 2


def test_readme_board_image_is_current():
    image = (ROOT / "docs" / "board8.svg").read_text()
    assert image.strip() == nq.to_svg(nq.solve(8)[0], cell=40).strip()
