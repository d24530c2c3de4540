"""Streaming enumeration, the memory guard and the export formats."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba import export
from nqueens_numba.cli import main

A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]


def stream(n, **kwargs):
    chunks = list(nq.iter_solutions(n, **kwargs))
    return chunks, (np.concatenate(chunks) if chunks else np.empty((0, n), dtype=np.int8))


@pytest.mark.parametrize("n", range(0, 13))
@pytest.mark.parametrize("chunk_size", [1, 7, 1000, 10**6])
def test_chunks_concatenate_to_solve(n, chunk_size):
    chunks, whole = stream(n, chunk_size=chunk_size)
    np.testing.assert_array_equal(whole, nq.solve(n))
    assert all(1 <= len(c) <= chunk_size for c in chunks)
    assert all(c.dtype == np.int8 and c.flags.c_contiguous and c.shape[1] == n for c in chunks)
    # Every chunk but the last is full.
    assert all(len(c) == chunk_size for c in chunks[:-1])


@pytest.mark.parametrize("n", [13, 12])
@pytest.mark.parametrize("threads", [1, 2])
def test_solve_with_subproblems_of_many_blocks(monkeypatch, n, threads):
    """A subproblem enumerated in several blocks (small ones here; at n = 15 on one thread,
    and n = 17 on two, with the default sizes): the middle column's first row still marks
    where the mirrored solutions end (it took the start of its last block, and ``solve``
    raised "found 2283258 solutions, expected 2279184")."""
    from functools import partial

    from nqueens_numba import _blocks

    expected = np.concatenate(list(nq.iter_solutions(n)))
    monkeypatch.setattr(_blocks, "ordered_blocks",
                        partial(_blocks.ordered_blocks, first_rows=32, max_rows=64))
    got = nq.solve(n, n_threads=threads, progress=True)
    assert np.array_equal(got, expected) and len(got) == A000170[n]


def test_chunks_same_for_every_thread_count():
    _, one = stream(11, chunk_size=333, n_threads=1)
    _, two = stream(11, chunk_size=333, n_threads=2)
    np.testing.assert_array_equal(one, two)


@pytest.mark.parametrize("threads", [64, 256, 1024])
def test_many_threads_on_a_small_board_split_it_no_finer(monkeypatch, threads):
    """More threads than a board's solutions are worth: the enumeration's subproblems keep
    hundreds of solutions each (256 threads made 27,034 subproblems of 7 solutions for
    n = 14: solve took 15 times as long as on 2 threads, and 1000 times with 1024), and the
    solutions are the same."""
    from nqueens_numba import _enumerating, config

    least = config.MIN_SOLUTIONS_PER_SUBPROBLEM // 8  # (a depth more can make 8 times more)
    for n in (13, 14, 15):  # (n <= 12 is enumerated in NumPy, without a split)
        total = nq.count_solutions(n)
        split = _enumerating.enumeration_split(n, threads)
        assert total // 2 // len(split.states) >= least, (n, len(split.states))
        states, _ = _enumerating.stream_split(n, threads, 10**6, None)
        assert total // len(states) >= least, (n, len(states))
    monkeypatch.setenv("NUMBA_NUM_THREADS", str(threads))
    assert np.array_equal(nq.solve(13, n_threads=threads), nq.solve(13, n_threads=1))
    chunks = list(nq.iter_solutions(13, n_threads=threads, chunk_size=10**4))
    assert np.array_equal(np.concatenate(chunks), nq.solve(13, n_threads=1))


def test_chunks_are_independent_arrays():
    chunks = list(nq.iter_solutions(8, chunk_size=10))
    assert not any(np.shares_memory(a, b) for a in chunks for b in chunks if a is not b)


def test_iter_solutions_validates_at_call():
    with pytest.raises(ValueError, match="chunk_size"):
        nq.iter_solutions(8, chunk_size=0)
    with pytest.raises(TypeError, match="chunk_size"):
        nq.iter_solutions(8, chunk_size=2.5)
    with pytest.raises(ValueError, match=r"0\.\.63"):
        nq.iter_solutions(64)


def test_early_break_stops_promptly():
    """Leaving the loop after the first chunk of n = 16 stops the threads at once."""
    gen = nq.iter_solutions(16)
    first = next(gen)
    assert first.shape == (1_000_000, 16)
    np.testing.assert_array_equal(first[:5], nq.solve(16, limit=5))
    start = time.perf_counter()
    gen.close()
    assert time.perf_counter() - start < 1.0
    for _ in range(50):  # pool threads end as their running block ends
        if not any(t.name.startswith("nqueens") for t in __import__("threading").enumerate()):
            break
        time.sleep(0.02)
    assert not any(t.name.startswith("nqueens") for t in __import__("threading").enumerate())


@pytest.mark.parametrize("ending, status", [
    ("gen = nq.iter_solutions(16, chunk_size=100)\nnext(gen)", 0),
    ("for chunk in nq.iter_solutions(16, chunk_size=100):\n    raise ValueError('user code')", 1),
    ("import sys\ngen = nq.iter_solutions(16, chunk_size=100)\nnext(gen)\nsys.exit(3)", 3),
])
def test_an_open_generator_does_not_hold_up_the_exit(ending, status):
    """A stream left open (not exhausted, not closed) lets the interpreter exit at once."""
    run = subprocess.run([sys.executable, "-c", "import nqueens_numba as nq\n" + ending],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == status, run.stderr
    assert ("user code" in run.stderr) == (status == 1)


def test_progress_of_solve_stream_and_save(capsys, tmp_path):
    """Bars in solutions (in subproblems for constrained streams) reach their totals, and
    change nothing in the results."""
    np.testing.assert_array_equal(nq.solve(10, progress=True), nq.solve(10))
    assert "724/724" in capsys.readouterr().err
    assert len(nq.solve(12, limit=5, progress=True)) == 5
    assert "5/5" in capsys.readouterr().err
    assert len(nq.solve(12, progress=True)) == 14200  # (SI prefixes: a rate of millions)
    err = capsys.readouterr().err
    assert "14,200/14,200" in err and re.search(r"[0-9.]+[kM]solution/s", err)
    assert len(nq.solve(8, limit=3, preplaced={0: 0, 5: 3}, progress=True)) == 2
    assert "2/2" in capsys.readouterr().err  # fewer than the limit: the bar ends there
    count = nq.count_solutions(10, preplaced={0: 1})
    assert len(nq.solve(10, preplaced={0: 1}, progress=True)) == count
    assert f"{count}/{count}" in capsys.readouterr().err
    chunks = list(nq.iter_solutions(10, chunk_size=100, progress=True))
    np.testing.assert_array_equal(np.concatenate(chunks), nq.solve(10))
    err = capsys.readouterr().err
    assert "724/724" in err and "solution" in err
    assert sum(map(len, nq.iter_solutions(11, preplaced={1: 3}, progress=True))) == \
        nq.count_solutions(11, preplaced={1: 3})
    err = capsys.readouterr().err
    assert "subproblem" in err and "100%" in err
    assert nq.save_solutions(tmp_path / "s.npy", 9, progress=True) == 352
    err = capsys.readouterr().err
    assert "352/352" in err and "compiling" not in err  # the kernels are already loaded
    for call in (nq.solve, nq.iter_solutions):
        with pytest.raises(TypeError, match="progress"):
            call(8, progress=1)


def test_bars_show_whole_numbers_and_scaled_rates(capsys):
    """In text and in Jupyter's widget, with a total or without: ``5/5`` and ``14,200``
    (tqdm's SI prefixes wrote ``5.00/5.00``; without them, ``1141711.93solution/s``)."""
    from nqueens_numba import _progress

    for total, done, shown in [(5, 5, "5/5 ["), (14200, 14200, "14,200/14,200 ["),
                               (None, 123456, "123,456solution [")]:
        bar = _progress.progress_bar(total, 0, "solve n=12", unit="solution")
        bar.update(done)
        bar.close()
        err = capsys.readouterr().err
        assert shown in err and re.search(r"\d[kMG]?solution/s\]", err), err
        assert not re.search(r"\d\.\d\dsolution/s", err)  # (no unscaled rates)
    bar = _progress.progress_bar(14200, 0, "solve n=12", unit="solution")
    bar.update(7100)
    shown = dict(bar.format_dict, bar_format="{l_bar}<bar/>{r_bar}")  # (as Jupyter's widget)
    text = bar.format_meter(**shown)
    bar.close()
    assert "7,100/14,200" in text and "<bar/>" in text


def test_cli_solve_progress(capsys, tmp_path):
    assert main(["solve", "8", "--progress", "-f", "csv"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 92 and "92/92" in err
    assert main(["solve", "9", "--progress", "-o", str(tmp_path / "x.json")]) == 0
    assert "352/352" in capsys.readouterr().err
    assert len(json.loads((tmp_path / "x.json").read_text())) == 352


@pytest.mark.slow
@pytest.mark.parametrize("code, what", [("nq.solve(8, progress=True)", "solve"),
                                        ("nq.count_solutions(12, progress=True)", "count")])
def test_compiling_is_said_once_and_left_out_of_the_bar(tmp_path, code, what):
    """With an empty numba cache the first call says it compiles, before its bar starts; a
    second process loads the cached kernels and says nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    notice = f"compiling kernels for {what} (first use; cached in {tmp_path}/"  # + a folder
    for expected in (1, 0):
        run = subprocess.run([sys.executable, "-c", "import nqueens_numba as nq\n" + code],
                             capture_output=True, text=True, timeout=300, env=env)
        assert run.returncode == 0, run.stderr
        assert run.stderr.count(notice) == expected, run.stderr
        done = "100.0%" if what == "count" else "100%"  # a count's bar has decimals
        assert done in run.stderr
        if expected:
            assert run.stderr.index(notice) < run.stderr.index(done)


def test_streaming_memory_is_bounded():
    """Peak traced memory of streaming n = 14 in chunks of 10,000 is far below solve(14)."""
    code = textwrap.dedent("""
        import tracemalloc
        import nqueens_numba as nq
        list(nq.iter_solutions(13))  # compile first (smaller boards need no kernel)
        tracemalloc.start()
        total = sum(len(c) for c in nq.iter_solutions(14, chunk_size=10_000))
        print(total, tracemalloc.get_traced_memory()[1])
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    total, peak = map(int, run.stdout.split())
    result_bytes = A000170[14] * 14
    assert total == A000170[14]
    assert peak < result_bytes / 2, (peak, result_bytes)


def test_a_chunk_larger_than_memory_is_refused_at_call(monkeypatch):
    """Three of the largest chunk (at most every solution) are checked as solve checks its
    result: the stream holds up to three at once."""
    from nqueens_numba import _validate

    monkeypatch.setattr(_validate, "_available_memory", lambda: 2_000_000)  # 80%: 1.6 MB
    with pytest.raises(MemoryError, match=r"a chunk of chunk_size=10,000,000 would take up "
                       r"to 5,118,344 bytes \(365,596 solutions of 14 bytes\), and the stream "
                       r"holds up to 3 at once: more than 80% of the available memory "
                       r"\(1,600,000 bytes\); choose a smaller chunk_size"):
        nq.iter_solutions(14, chunk_size=10**7)
    with pytest.raises(MemoryError, match="chunk_size=50,000 would take up to 700,000"):
        nq.iter_solutions(14, chunk_size=50_000, torus=True)
    chunks = list(nq.iter_solutions(11, chunk_size=10**7))  # 2,680 of 11 bytes: it fits
    assert [len(c) for c in chunks] == [2680]
    assert sum(len(c) for c in nq.iter_solutions(14, chunk_size=30_000)) == 365_596
    for n in (2, 3):  # no solutions: nothing to hold
        assert list(nq.iter_solutions(n, chunk_size=10**10)) == []


def test_memory_guard_allocates_nothing_large():
    tracemalloc.start()
    try:
        with pytest.raises(MemoryError, match="iter_solutions"):
            nq.solve(10, max_bytes=1000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000


# --------------------------------------------------------------------------- export


def read_text_boards(text, n):
    boards = [b for b in text.split("\n\n") if b]
    return np.array([[row.index("Q") for row in b.split("\n")] for b in boards],
                    dtype=np.int8).reshape(len(boards), n)


@pytest.mark.parametrize("fmt", ["npy", "json", "csv", "text"])
def test_export_round_trip_n8(tmp_path, fmt):
    path = tmp_path / f"eight.{fmt}"
    assert nq.save_solutions(path, 8, format=fmt, chunk_size=7) == 92
    expected = nq.solve(8)
    if fmt == "npy":
        got = np.load(path)
        assert got.dtype == np.int8 and got.shape == (92, 8)
    elif fmt == "json":
        boards = json.loads(path.read_text())
        assert boards == nq.boards(8)
        got = np.array([[row.index("Q") for row in b] for b in boards], dtype=np.int8)
    elif fmt == "csv":
        with open(path, newline="") as file:
            got = np.array(list(csv.reader(file)), dtype=np.int8)
    else:
        got = read_text_boards(path.read_text(), 8)
    np.testing.assert_array_equal(got, expected)
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".nqueens-")]


def test_export_to_file_objects():
    binary = io.BytesIO()
    assert nq.save_solutions(binary, 6, format="npy") == 4
    binary.seek(0)
    np.testing.assert_array_equal(np.load(binary), nq.solve(6))
    text = io.StringIO()
    nq.save_solutions(text, 6, format="csv")
    assert text.getvalue() == "1,3,5,0,2,4\n2,5,1,4,0,3\n3,0,4,1,5,2\n4,2,0,5,3,1\n"


@pytest.mark.parametrize("fmt", ["npy", "json", "csv", "text"])
def test_export_empty_and_trivial_sets(tmp_path, fmt):
    for n in (0, 1, 3):
        path = tmp_path / f"{n}.{fmt}"
        assert nq.save_solutions(path, n, format=fmt) == A000170[n]
        if fmt == "npy":
            np.testing.assert_array_equal(np.load(path), nq.solve(n))
        if fmt == "json":
            assert json.loads(path.read_text()) == nq.boards(n)


def test_failed_write_leaves_no_partial_file(tmp_path):
    target = tmp_path / "out.npy"
    target.write_bytes(b"previous content")

    def failing_chunks():
        yield nq.solve(8)[:10]
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        export.write_solutions(target, failing_chunks(), 8, "npy", total=92)
    assert target.read_bytes() == b"previous content"
    assert sorted(os.listdir(tmp_path)) == ["out.npy"]
    with pytest.raises(ValueError, match="announced"):
        export.write_solutions(tmp_path / "short.npy", [nq.solve(8)[:10]], 8, "npy", total=92)
    assert sorted(os.listdir(tmp_path)) == ["out.npy"]


def test_save_solutions_errors(tmp_path):
    with pytest.raises(ValueError, match="format"):
        nq.save_solutions(tmp_path / "x", 8, format="xml")
    with pytest.raises(TypeError, match="format must be a string"):
        nq.save_solutions(tmp_path / "x", 8, format=1)
    with pytest.raises(FileNotFoundError):
        nq.save_solutions(tmp_path / "missing" / "x.npy", 8)
    with pytest.raises(MemoryError):
        nq.save_solutions(tmp_path / "x.npy", 28)


# --------------------------------------------------------------------------- CLI


@pytest.mark.parametrize("fmt", ["npy", "csv", "json", "text"])
def test_cli_output(tmp_path, fmt):
    path = tmp_path / f"out.{fmt}"
    assert main(["solve", "8", "--output", str(path), "--format", fmt]) == 0
    if fmt == "npy":
        np.testing.assert_array_equal(np.load(path), nq.solve(8))
    elif fmt == "json":
        assert json.loads(path.read_text()) == nq.boards(8)
    elif fmt == "csv":
        assert path.read_text().splitlines()[0] == ",".join(map(str, nq.solve(8)[0]))
    else:
        np.testing.assert_array_equal(read_text_boards(path.read_text(), 8), nq.solve(8))


def test_cli_output_with_limit(tmp_path):
    path = tmp_path / "first.npy"
    assert main(["solve", "10", "--limit", "5", "-o", str(path), "-f", "npy"]) == 0
    np.testing.assert_array_equal(np.load(path), nq.solve(10)[:5])


@pytest.mark.parametrize("n", [0, 1, 4, 10, 11, 12, 63])
@pytest.mark.parametrize("rows", [2, 65_536])
def test_text_csv_and_json_are_written_as_joined_strings_would_be(monkeypatch, n, rows):
    """The formats built as arrays (fast), in parts of ``rows`` solutions, are the text a
    join of Python strings gives."""
    monkeypatch.setattr(export, "_TEXT_ROWS", rows)
    rng = np.random.default_rng(n)
    chunk = np.array([rng.permutation(n) for _ in range(7)], dtype=np.int8).reshape(7, n)
    for fmt, expected in [
            ("text", "".join("".join(row + "\n" for row in board) + "\n"
                             for board in nq.to_boards(chunk))),
            ("csv", "".join(",".join(map(str, row)) + "\n" for row in chunk.tolist())),
            ("json", "[" + ", ".join(map(json.dumps, nq.to_boards(chunk))) + "]\n")]:
        out = io.StringIO()
        assert export.write_solutions(out, [chunk[:3], chunk[3:3], chunk[3:]], n, fmt) == 7
        assert out.getvalue() == expected, fmt


def test_cli_csv_to_stdout(capsys):
    assert main(["solve", "6", "--format", "csv"]) == 0
    assert capsys.readouterr().out == "1,3,5,0,2,4\n2,5,1,4,0,3\n3,0,4,1,5,2\n4,2,0,5,3,1\n"


def test_cli_npy_needs_output(capsys):
    with pytest.raises(SystemExit) as info:
        main(["solve", "8", "--format", "npy"])
    assert info.value.code == 2 and "--output" in capsys.readouterr().err


# --------------------------------------------------------------------------- format from suffix


def read_back(path, n):
    """The solutions in ``path``, read with the reader of the format its suffix names."""
    suffix = path.suffix.lower()
    if suffix == ".npy":
        return np.load(path)
    if suffix == ".json":
        boards = json.loads(path.read_text())
        return np.array([[row.index("Q") for row in b] for b in boards], dtype=np.int8)
    if suffix == ".csv":
        with open(path, newline="") as f:
            return np.array([[int(x) for x in row] for row in csv.reader(f)], dtype=np.int8)
    return read_text_boards(path.read_text(), n)


@pytest.mark.parametrize("name", ["s.npy", "s.JSON", "s.csv", "s.txt"])
def test_save_solutions_format_from_suffix(tmp_path, name):
    path = tmp_path / name
    assert nq.save_solutions(path, 8) == 92
    np.testing.assert_array_equal(read_back(path, 8), nq.solve(8))


def test_save_solutions_default_format_without_suffix(tmp_path):
    nq.save_solutions(tmp_path / "plain", 6)
    np.testing.assert_array_equal(np.load(tmp_path / "plain"), nq.solve(6))
    text = io.StringIO()
    nq.save_solutions(text, 6)  # a text stream gets text boards
    np.testing.assert_array_equal(read_text_boards(text.getvalue(), 6), nq.solve(6))
    with open(tmp_path / "named.csv", "w", newline="") as file:  # an open file's name counts
        nq.save_solutions(file, 6)
    np.testing.assert_array_equal(read_back(tmp_path / "named.csv", 6), nq.solve(6))
    nq.save_solutions(tmp_path / "forced.csv", 6, format="json")  # explicit format wins
    assert json.loads((tmp_path / "forced.csv").read_text()) == nq.boards(6)


@pytest.mark.parametrize("name", ["s.npy", "s.json", "s.csv", "s.txt", "s.out"])
def test_cli_format_from_suffix(tmp_path, name):
    path = tmp_path / name
    assert main(["solve", "8", "--output", str(path)]) == 0
    if path.suffix == ".out":  # no known suffix: the text boards
        np.testing.assert_array_equal(read_text_boards(path.read_text(), 8), nq.solve(8))
    else:
        np.testing.assert_array_equal(read_back(path, 8), nq.solve(8))


def test_unwritable_output_names_the_target(tmp_path, capsys):
    target = tmp_path / "missing" / "x.txt"
    with pytest.raises(FileNotFoundError) as info:
        nq.save_solutions(target, 6)
    assert info.value.filename == str(target)
    assert main(["solve", "6", "--output", str(target)]) == 1
    err = capsys.readouterr().err
    assert str(target) in err and ".tmp" not in err
    assert not (tmp_path / "missing").exists()


# --------------------------------------------------------------------------- odd targets


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipe_target(tmp_path):
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()))
    reader.start()
    assert nq.save_solutions(pipe, 6, format="csv") == 4
    reader.join(timeout=60)
    assert received == ["".join(",".join(map(str, q)) + "\n" for q in nq.solve(6).tolist())]
    assert sorted(os.listdir(tmp_path)) == ["pipe"]  # still the pipe, nothing beside it


def test_bytes_path_and_bad_targets(tmp_path):
    path = tmp_path / "b.npy"
    assert nq.save_solutions(os.fsencode(path), 6) == 4
    np.testing.assert_array_equal(np.load(path), nq.solve(6))
    for target in (None, 1, object()):
        with pytest.raises(TypeError, match="path or an open file"):
            nq.save_solutions(target, 6, format="csv")


def test_directory_target_fails_before_the_search(tmp_path, monkeypatch):
    def no_search(*args, **kwargs):
        raise AssertionError("searched before checking the path")
        yield  # a generator, as the function it replaces

    monkeypatch.setattr(nq.streaming, "_chunks", no_search)
    with pytest.raises(IsADirectoryError) as info:
        nq.save_solutions(tmp_path, 12, format="csv")
    assert info.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError):
        nq.save_solutions("", 12, format="csv")
    assert os.listdir(tmp_path) == []


def test_constrained_stream_grows_its_chunks(monkeypatch):
    # A chunk size far beyond memory is fine: the chunk grows with the solutions found.
    assert [c.shape for c in nq.iter_solutions(8, chunk_size=10**12, preplaced={0: 0})] == \
        [(4, 8)]
    monkeypatch.setattr(nq.config, "FIRST_CHUNK_ROWS", 3)
    whole = nq.solve(10, preplaced={0: 2})
    for chunk_size in (1, 2, 5, 7, 100):
        chunks = list(nq.iter_solutions(10, chunk_size=chunk_size, preplaced={0: 2}))
        assert all(len(c) == chunk_size for c in chunks[:-1])
        assert 1 <= len(chunks[-1]) <= chunk_size
        np.testing.assert_array_equal(np.concatenate(chunks), whole)


def test_cli_limit_npy_does_not_count_everything(tmp_path, monkeypatch):
    def no_count(*args, **kwargs):
        raise AssertionError("counted all solutions for --limit")

    monkeypatch.setattr(nq.counting, "count_solutions", no_count)
    path = tmp_path / "first.npy"
    assert main(["solve", "24", "--limit", "2", "--output", str(path)]) == 0
    np.testing.assert_array_equal(np.load(path), nq.solve(24, limit=2))


# --------------------------------------------------------------------------- more odd targets

CLI = [sys.executable, "-m", "nqueens_numba"]


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="needs /dev/stdout")
def test_dev_stdout_appends_to_a_redirected_file(tmp_path):
    log = tmp_path / "log"
    log.write_text("HEADER\n")
    with open(log, "a") as out:
        subprocess.run(CLI + ["solve", "4", "-f", "csv", "-o", "/dev/stdout"], stdout=out,
                       check=True, timeout=300)
    assert log.read_text() == "HEADER\n1,3,0,2\n2,0,3,1\n"
    assert sorted(os.listdir(tmp_path)) == ["log"]


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="needs /dev/stdout")
def test_dev_stdout_shares_the_position_of_the_process_output(tmp_path):
    """Written through the process's own descriptor: what is printed before and after, in a
    file that ``>`` made, keeps its order (opened anew, the file had a position of its own
    and what came after the solutions overwrote them)."""
    code = textwrap.dedent("""
        import sys
        import nqueens_numba as nq
        print("before")  # (not flushed: the save flushes it)
        print(nq.save_solutions("/dev/stdout", 4, format="csv"))
        nq.save_solutions("/dev/fd/1", 4, format="csv")
        print("after")
    """)
    with open(tmp_path / "out", "w") as out:
        subprocess.run([sys.executable, "-c", code], stdout=out, check=True, timeout=300)
    assert (tmp_path / "out").read_text() == ("before\n1,3,0,2\n2,0,3,1\n2\n1,3,0,2\n"
                                              "2,0,3,1\nafter\n")
    with open(tmp_path / "cli", "w") as out:
        subprocess.run(["sh", "-c", "echo header; \"$@\"; echo footer", "sh", *CLI, "solve",
                        "4", "-f", "csv", "-o", "/dev/stdout"], stdout=out, check=True,
                       timeout=300)
    assert (tmp_path / "cli").read_text() == "header\n1,3,0,2\n2,0,3,1\nfooter\n"


def test_trailing_separator_and_symlink_loop_are_refused(tmp_path):
    existing = tmp_path / "x.csv"
    existing.write_text("old\n")
    with pytest.raises(IsADirectoryError):
        nq.save_solutions(str(existing) + os.sep, 6)
    assert existing.read_text() == "old\n"
    loop = tmp_path / "loop.npy"
    os.symlink(loop.name, loop)
    with pytest.raises(OSError) as info:
        nq.save_solutions(loop, 6)
    assert info.value.filename == str(loop) and os.path.islink(loop)
    assert main(["solve", "6", "-o", str(tmp_path / "missing") + os.sep]) == 1
    assert sorted(os.listdir(tmp_path)) == ["loop.npy", "x.csv"]


def test_long_file_names(tmp_path):
    name = "a" * 246 + ".npy"  # 250 bytes: the temporary file's name must still fit
    assert nq.save_solutions(tmp_path / name, 6) == 4
    np.testing.assert_array_equal(np.load(tmp_path / name), nq.solve(6))
    assert os.listdir(tmp_path) == [name]


@pytest.mark.parametrize("argv", [["solve", "14", "-k", "1000"], ["solve", "14", "-p", "0:3"],
                                  ["find", "50"], ["construct", "50"]])
def test_cli_checks_the_output_before_searching(tmp_path, monkeypatch, capsys, argv):
    def no_search(*args, **kwargs):
        raise AssertionError("searched before checking --output")

    for module, name in ((nq.enumeration, "solve"), (nq.counting, "count_solutions"),
                         (nq.streaming, "iter_solutions")):
        monkeypatch.setattr(module, name, no_search)
    for name in ("find_solution", "construct"):
        monkeypatch.setattr(nq.huge, name, no_search)
    (tmp_path / "d.npy").mkdir()
    assert main(argv + ["-o", str(tmp_path / "d.npy")]) == 1
    assert "Is a directory" in capsys.readouterr().err


def test_file_output_needs_no_standard_output(tmp_path):
    path = tmp_path / "x.npy"
    run = subprocess.run(CLI + ["solve", "6", "-o", str(path)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, timeout=300,
                         preexec_fn=lambda: os.close(1))
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(np.load(path), nq.solve(6))


def test_construct_output_format_follows_the_suffix(tmp_path):
    assert main(["construct", "8", "-o", str(tmp_path / "c.txt")]) == 0
    assert (tmp_path / "c.txt").read_text() == " ".join(map(str, nq.construct(8))) + "\n"
    assert main(["construct", "8", "-o", str(tmp_path / "c.npy")]) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), nq.construct(8))


@pytest.mark.parametrize("signame, status", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_termination_signal_leaves_no_file(tmp_path, signame, status):
    import signal

    if not hasattr(signal, signame):
        pytest.skip(f"no {signame} here")
    proc = subprocess.Popen(CLI + ["solve", "14", "-t", "1", "-o", str(tmp_path / "all.json")],
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not any(name.endswith(".tmp") for name in os.listdir(tmp_path)):
        assert proc.poll() is None and time.monotonic() < deadline, "never started writing"
        time.sleep(0.01)
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == status and "Traceback" not in err, (proc.returncode, err)
    assert os.listdir(tmp_path) == [], err


@pytest.mark.parametrize("which", [1, 2], ids=["probe", "temporary"])
def test_an_interruption_as_the_temporary_file_is_made_leaves_nothing(tmp_path, monkeypatch,
                                                                       which):
    """A Ctrl-C or a termination signal that comes just as a file beside the target is
    created (the probe of the directory, then the temporary file; a test of the CLI sends
    its signal when the file appears) removes it with the rest."""
    from nqueens_numba import _files

    real_open = os.open
    made = []

    def open_then_interrupt(*args, **kwargs):
        fd = real_open(*args, **kwargs)
        made.append(args[0])
        if len(made) == which:
            os.close(fd)
            raise KeyboardInterrupt
        return fd

    with monkeypatch.context() as patch:
        patch.setattr(os, "open", open_then_interrupt)
        with pytest.raises(KeyboardInterrupt):
            with _files.atomic_file(tmp_path / "out.txt") as file:
                file.write("never")
    assert len(made) == which and os.listdir(tmp_path) == []
    assert not [name for name in _files._pending if name.startswith(str(tmp_path))]


def test_stale_temporaries_of_other_targets_are_kept(tmp_path):
    from nqueens_numba._files import remove_stale_temporaries

    mine = tmp_path / ".ck.abcdefgh.tmp"
    other = tmp_path / ".ck.json.abcdefgh.tmp"  # a temporary file of "ck.json"
    mine.touch()
    other.touch()
    remove_stale_temporaries(tmp_path / "ck")
    assert sorted(os.listdir(tmp_path)) == [other.name]


def test_long_names_alike_share_no_temporaries_or_lock(tmp_path):
    """Two targets whose names share their first 200 bytes: one's stale-file cleanup keeps
    the other's temporary file, and each has a lock of its own."""
    from nqueens_numba import _files

    first, second = tmp_path / ("b" * 210 + "3.csv"), tmp_path / ("b" * 210 + "4.json")
    writing = _files._temporary_name(str(first))
    open(writing, "w").close()  # the first one's write in progress
    _files.remove_stale_temporaries(second)
    assert os.path.exists(writing)
    _files.remove_stale_temporaries(first)  # its own are still found
    assert not os.path.exists(writing)
    held = _files.lock_beside(first)
    try:
        other = _files.lock_beside(second)  # not "in use"
        _files.unlock(other)
        with pytest.raises(BlockingIOError):
            _files.lock_beside(first)
    finally:
        _files.unlock(held)
    assert os.listdir(tmp_path) == []
    for path in (first, second):  # every name still fits in 255 bytes
        assert len(os.fsencode(os.path.basename(_files._temporary_name(str(path))))) <= 255


def test_a_lock_on_a_removed_lock_file_is_not_taken(tmp_path):
    """A process that opened the lock file just before its holder removed it (``unlock``)
    must not take a lock on the removed file: it takes the file now at that path."""
    from nqueens_numba import _files

    target = tmp_path / "ck.json"
    held = _files.lock_beside(target)
    lock_path = held[1]
    stale = os.open(lock_path, os.O_RDWR)  # opened by a second process, before the unlock
    real_open = os.open
    calls = []

    def open_then_release(path, *args, **kwargs):
        if path == lock_path and not calls:  # the first try opens the file being removed
            calls.append(path)
            _files.unlock(held)
            return stale
        return real_open(path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", open_then_release)
        mine = _files.lock_beside(target)
    try:
        assert calls and os.path.exists(lock_path)
        assert os.fstat(mine[0]).st_ino == os.stat(lock_path).st_ino
        with pytest.raises(BlockingIOError):  # a third process is refused
            _files.lock_beside(target)
    finally:
        _files.unlock(mine)


def test_open_files_in_the_wrong_mode(tmp_path):
    import tempfile

    with open(tmp_path / "o.txt", "wb") as binary, pytest.raises(TypeError, match="mode"):
        nq.save_solutions(binary, 4)
    with open(tmp_path / "o.npy", "w") as text, pytest.raises(TypeError, match="mode"):
        nq.save_solutions(text, 4)
    with tempfile.NamedTemporaryFile("w", dir=tmp_path, suffix=".dat", delete=False) as f:
        assert nq.save_solutions(f, 4) == 2  # a text file without a known suffix: text boards
    with open(f.name) as back:
        np.testing.assert_array_equal(read_text_boards(back.read(), 4), nq.solve(4))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_checkpoint_that_is_a_pipe_is_refused(tmp_path):
    pipe = tmp_path / "ck.json"
    os.mkfifo(pipe)
    with pytest.raises(nq.CheckpointError, match="not a regular file"):
        nq.count_solutions(12, checkpoint=pipe)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_checkpoint_naming_a_stream_is_refused():
    """``/dev/stdout`` on a pipe: the link names no path (``pipe:[...]``), but what it opens is
    no regular file (it was taken for a new file in ``/proc/PID/fd``, and refused as an
    unwritable directory)."""
    read, write = os.pipe()
    try:
        with pytest.raises(nq.CheckpointError, match="not a regular file"):
            nq.count_solutions(12, checkpoint=f"/proc/self/fd/{write}")
        with pytest.raises(nq.CheckpointError, match="not a regular file"):
            nq.checkpoint.status(f"/proc/self/fd/{read}")
    finally:
        os.close(read)
        os.close(write)


def _through_a_pipe(write):
    """What ``write(file)`` sends through a pipe, ``file`` a text stream on its writing end
    (made by ``write`` from the descriptor it is given), read by a thread."""
    read, wrote = os.pipe()
    received = []
    reader = threading.Thread(target=lambda: received.append(
        b"".join(iter(lambda: os.read(read, 1 << 16), b""))))
    reader.start()
    try:
        write(wrote)
    finally:
        reader.join()
        os.close(read)
    return received[0]


@pytest.mark.parametrize("fmt", ["text", "csv"])
@pytest.mark.parametrize("pipe_buf", [4096, 512])
def test_text_to_a_pipe_goes_in_whole_solutions(monkeypatch, fmt, pipe_buf):
    """To the process's standard output when it is a pipe, ``nqueens solve`` writes the
    text formats in writes of whole solutions of at most PIPE_BUF bytes (which a pipe takes
    whole or not at all), so that a Ctrl-C leaves no solution cut in half on it; a solution
    larger than that goes alone (n = 30 at 512 bytes: 931)."""
    monkeypatch.setattr(export, "_PIPE_BUF", pipe_buf)
    real_write, writes = os.write, []

    def write(fd, data):
        writes.append(bytes(data))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    for chunk in [nq.solve(10), nq.find_solution(30, seed=1)[None].repeat(200, axis=0)]:
        n = chunk.shape[1]
        expected = (nq.format_text(chunk) if fmt == "text" else export._csv_lines(chunk))

        def to_stdout(fd):
            with os.fdopen(fd, "w") as file:
                monkeypatch.setattr(sys, "__stdout__", file)
                writes.clear()
                export.write_solutions(file, [chunk], n, fmt, whole=True)

        assert _through_a_pipe(to_stdout) == expected.encode()
        assert b"".join(writes) == expected.encode() and len(writes) > 1
        size = n * (n + 1) + 1
        for piece in writes:
            whole = (len(piece) % size == 0 if fmt == "text" else piece.endswith(b"\n"))
            assert whole and (len(piece) <= pipe_buf or len(piece) == size
                              or piece.count(b"\n") == 1), (n, len(piece))


@pytest.mark.parametrize("opened", [dict(encoding="utf-16"), dict(newline="\r\n"),
                                    dict(encoding="ascii")])
def test_a_pipe_keeps_the_text_streams_own_encoding_and_line_ends(monkeypatch, opened):
    """Only the process's own standard output, in an ASCII-compatible encoding, is written
    around its text stream: a user's stream on a pipe, or a standard output in UTF-16, keeps
    its encoding and line ends (they were bypassed: raw ASCII reached the pipe)."""
    chunk = nq.solve(6)
    text = nq.format_text(chunk)

    def by_the_stream(fd):
        with open(fd, "w", **opened) as file:
            file.write(text)

    # (a standard output with newline translation is not one Python makes on POSIX)
    for own in (False, True) if "newline" not in opened else (False,):
        def write(fd):
            with open(fd, "w", **opened) as file:
                if own:
                    monkeypatch.setattr(sys, "__stdout__", file)
                export.write_solutions(file, [chunk], 6, "text", whole=True)

        assert _through_a_pipe(write) == _through_a_pipe(by_the_stream), own


def test_which_outputs_end_on_a_whole_solution(tmp_path, monkeypatch):
    """An interrupted print ends on a whole solution to a regular file and to the process's
    standard output on a pipe; not to another stream, which may cut a write."""
    with open(tmp_path / "out.txt", "w") as file:
        assert export.ends_whole(file)
    assert not export.ends_whole(io.StringIO())

    def check(fd):
        with os.fdopen(fd, "w") as file:
            assert not export.ends_whole(file)
            monkeypatch.setattr(sys, "__stdout__", file)
            assert export.ends_whole(file)

    _through_a_pipe(check)


@pytest.mark.parametrize("fmt, end", [("text", ""),
                                      ("json", ": the JSON printed is cut short (no closing "
                                               "bracket)")])
def test_an_interrupted_solve_to_stdout_says_what_was_printed(monkeypatch, capsys, fmt, end):
    """Ctrl-C while ``nqueens solve`` prints says how many solutions were printed, in the
    command's words (it said "iter_solutions(12) interrupted ...", a call the user did not
    make, or only "interrupted")."""
    from nqueens_numba import streaming

    def stream(n, **kwargs):
        sols = nq.solve(n)
        yield sols[:3]
        yield sols[3:5]
        raise KeyboardInterrupt(f"iter_solutions({n}) interrupted after 5 solutions")

    monkeypatch.setattr(streaming, "iter_solutions", stream)
    assert main(["solve", "12", "--torus", "--format", fmt]) == 130
    out, err = capsys.readouterr()
    said = "nqueens: solve of n=12 with --torus interrupted after 5 solutions printed"
    assert err == f"{said}{end}\n"
    assert out.count("Q" if fmt == "text" else '["') == 5 * (12 if fmt == "text" else 1)


@pytest.mark.parametrize("output", [None, "out.txt"])
def test_an_interrupted_solve_with_a_limit_says_nothing_was_printed(monkeypatch, capsys,
                                                                   tmp_path, output):
    """With ``--limit``, a Ctrl-C while the solutions are collected says so in the
    command's words (it said "solve(16) interrupted: nothing is returned (iter_solutions
    ...)", calls the user did not make), and points to ``nqueens find`` where ``solve``
    points to ``find_solution``."""
    from nqueens_numba import _kernels

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    for kernel in ("_fill_solutions", "_fill_rows", "_fill_torus_rows"):
        monkeypatch.setattr(_kernels, kernel, interrupted)
    where = [] if output is None else ["--output", str(tmp_path / output)]
    assert main(["solve", "16", "--limit", "5", *where]) == 130
    done = "printed" if output is None else "written"
    assert capsys.readouterr().err == (f"nqueens: solve of n=16 interrupted before any "
                                       f"solution was {done} (nqueens find 16 finds one "
                                       f"solution in milliseconds, not the first in order)\n")
    assert not list(tmp_path.iterdir())
    assert main(["solve", "16", "--limit", "5", "-p", "3:1", "-p", "0:2"]) == 130
    assert "(nqueens find 16 --preplace 0:2,3:1 finds one" in capsys.readouterr().err
    assert main(["solve", "16", "--limit", "5", "-p", ""]) == 130  # (no queen: none to give)
    assert "(nqueens find 16 finds one" in capsys.readouterr().err
    assert main(["solve", "17", "--limit", "5", "--torus"]) == 130  # (construct: the torus's)
    assert capsys.readouterr().err.endswith(" with --torus interrupted before any solution "
                                            "was printed (nqueens construct 17 --torus finds "
                                            "one solution in milliseconds, not the first in "
                                            "order)\n")
    monkeypatch.setattr(_kernels, "_fill_knight_rows", interrupted)
    assert main(["solve", "17", "--limit", "5", "--piece", "superqueen"]) == 130  # (none)
    assert capsys.readouterr().err.endswith("interrupted before any solution was printed\n")
