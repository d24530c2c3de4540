import io
import json
import os
import re
import shlex
import subprocess
import sys

import numpy as np
import pytest

import nqueens_numba as nq
from nqueens_numba.cli import main


def test_count(capsys):
    assert main(["count", "10"]) == 0
    assert capsys.readouterr().out == "724\n"


def test_variants(capsys, tmp_path):
    assert main(["count", "13", "--torus"]) == 0
    assert capsys.readouterr().out == "4524\n"
    assert main(["count", "12", "--piece", "superqueen", "--threads", "1"]) == 0
    assert capsys.readouterr().out == "156\n"
    assert main(["count", "13", "--piece", "superqueen", "--fundamental"]) == 0
    assert capsys.readouterr().out == "239\n"
    assert main(["solve", "5", "--torus", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 10 and lines[0] == "0,2,4,1,3"
    assert main(["solve", "10", "--piece", "superqueen", "-o", str(tmp_path / "s.npy")]) == 0
    assert np.array_equal(np.load(tmp_path / "s.npy"), nq.solve(10, piece="superqueen"))
    assert main(["estimate", "13", "--torus", "-S", "1e4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    est = nq.estimate_count(13, torus=True, samples=10**4, seed=1)
    assert f"estimate      {est.value:.7g}" in out and "exact" not in out
    assert main(["profile", "8", "--piece", "superqueen"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"{k} {v}" for k, v in enumerate(nq.search_profile(8, piece="superqueen").tolist())]
    for args, message in [
            (["count", "8", "--torus", "--piece", "superqueen"],
             "--piece superqueen cannot be combined with --torus"),
            (["count", "8", "--torus", "--preplace", "0:1"],
             "--torus cannot be combined with pre-placed queens"),
            (["solve", "8", "--piece", "superqueen", "--preplace", "0:1"],
             "--piece superqueen cannot be combined with pre-placed queens"),
            (["count", "8", "--piece", "king"], "invalid choice: 'king'")]:
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 2 and message in capsys.readouterr().err, args


def test_count_threads(capsys):
    assert main(["count", "9", "--threads", "1"]) == 0
    assert capsys.readouterr().out == "352\n"


def test_a_bad_numba_num_threads_is_an_error_without_a_hint_of_options(capsys, monkeypatch):
    monkeypatch.setenv("NUMBA_NUM_THREADS", "abc")
    with pytest.raises(SystemExit) as ended:
        main(["count", "13"])
    assert ended.value.code == 2
    assert capsys.readouterr().err == ("nqueens count: error: the environment variable "
                                       "NUMBA_NUM_THREADS must be an integer in 1..4,096, "
                                       "got 'abc'\n")


def test_solve_text(capsys):
    assert main(["solve", "4"]) == 0
    assert capsys.readouterr().out == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"


def test_an_output_of_a_dash_is_standard_output(capsys, tmp_path, monkeypatch):
    """(``--output -`` wrote a file named ``-``.)"""
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "4", "-o", "-"]) == 0
    assert capsys.readouterr().out == ".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"
    assert main(["solve", "8", "--limit", "1", "-f", "csv", "--output", "-"]) == 0
    assert main(["find", "8", "-o", "-", "--seed", "1"]) == 0
    assert main(["construct", "10", "-o", "-"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "0,4,7,5,2,6,1,3" and nq.is_solution([int(c) for c in out[1].split()])
    assert out[2] == "1 3 5 7 9 0 2 4 6 8"
    assert not os.path.exists(tmp_path / "-")
    for limit in ([], ["--limit", "2"]):  # (a .npy in binary, to a pipe)
        run = subprocess.run([sys.executable, "-m", "nqueens_numba", "solve", "6", "-f", "npy",
                              "-o", "-", *limit], capture_output=True, timeout=120)
        assert run.returncode == 0, run.stderr
        assert np.array_equal(np.load(io.BytesIO(run.stdout)), nq.solve(6)[:2 if limit else 4])
    (tmp_path / "-").mkdir()  # ("-" is never a file: it was checked as one, and refused)
    assert main(["solve", "4", "-o", "-", "--limit", "1"]) == 0
    assert capsys.readouterr().out == ".Q..\n...Q\nQ...\n..Q.\n\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell")
@pytest.mark.parametrize("argv", [["solve", "4", "-o", "-"],
                                  ["solve", "4", "-o", "-", "-f", "npy"],
                                  ["construct", "8", "-o", "-"], ["find", "8", "-o", "-"]])
def test_an_output_of_a_dash_with_standard_output_closed(argv):
    """(construct and find raised a traceback, solve a usage error naming ``target``.)"""
    command = " ".join([shlex.quote(sys.executable), "-m", "nqueens_numba", *argv])
    run = subprocess.run(command + " >&-", shell=True, stderr=subprocess.PIPE, text=True,
                         timeout=120)
    assert run.returncode == 1
    assert run.stderr == "nqueens: cannot write the output: standard output is closed\n"


def test_a_binary_output_to_standard_output_interrupted_says_so(monkeypatch, capsys):
    """(It said the solutions written "stay in the file", or only "interrupted".)"""
    from nqueens_numba import export, streaming

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt("interrupted: the solutions written so far stay in the file")

    monkeypatch.setattr(streaming, "save_solutions", interrupted)
    monkeypatch.setattr(export, "write_solutions", interrupted)
    for limit in ([], ["--limit", "2"]):
        assert main(["solve", "6", "-o", "-", "-f", "npy", *limit]) == 130
        assert capsys.readouterr().err == ("nqueens: solve of n=6 interrupted: the .npy "
                                           "written to standard output so far is cut short\n")


def test_a_binary_output_is_not_written_to_a_terminal(monkeypatch, capsys):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with pytest.raises(SystemExit) as info:
        main(["solve", "4", "-o", "-", "-f", "npy"])
    assert info.value.code == 2
    assert "would write binary to the terminal" in capsys.readouterr().err


def test_solve_limit(capsys):
    assert main(["solve", "8", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert out == nq.format_text(nq.solve(8)[:3])


def test_solve_json(capsys):
    assert main(["solve", "6", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == nq.boards(6)


def test_solve_json_empty(capsys):
    assert main(["solve", "3", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_solve_json_many_chunks(capsys, monkeypatch):
    monkeypatch.setattr("nqueens_numba.cli.solve._PRINT_CHUNK", 7)
    assert main(["solve", "8", "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == nq.boards(8)


@pytest.mark.parametrize("argv, message", [
    (["count", "-3"], "0..63"),
    (["count", "64"], "0..63"),
    (["count", "eight"], "invalid int value"),
    (["count", "8", "--threads", "0"], "--threads must be in the range 1.."),
    (["count", "8", "--threads", "999"], "the environment variable NUMBA_NUM_THREADS sets"),
    (["count", "8", "--prefix-depth", "0"], "--prefix-depth must be in the range"),
    (["count", "8", "--fundamental", "--preplace", "0:0"], "--fundamental cannot be combined"),
    (["solve", "8", "--limit", "-1"], "limit"),
    (["solve", "8", "--format", "xml"], "invalid choice"),
    (["estimate", "0"], "n must be in the range 1..63, got 0 (the empty board has exactly one"),
    (["estimate", "64"], "n must be in the range 1..63, got 64\n"),
    (["count", "8", "--preplace", "-1:3"], "starts with '-' goes after '=': --preplace=VALUE"),
    (["estimate", "8", "--samples", "0"], "--samples must be a positive integer"),
    (["estimate", "8", "--samples", "1.5"], "expected a whole number such as 1000000 or 1e6"),
    (["estimate", "8", "--samples", "ten"], "expected a whole number"),
    (["estimate", "8", "--samples", "1e400"], "at most 2**62 probes"),
    (["profile", "8", "--samples", "2.5e0"], "expected a whole number"),
    (["estimate", "8", "--seed", "-2"], "--seed must be"),
    (["estimate", "8", "--threads", "0"], "--threads must be in the range 1.."),
    (["profile", "64"], "0..63"),
    (["profile", "8", "--seed", "1"], "--seed applies to estimates only: give --samples"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_bad_arguments_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err


def test_help_documents_commands(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "count" in out and "solve" in out
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out = capsys.readouterr().out
    assert "--limit" in out and "--format" in out and "--threads" in out


def test_subprocess():
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "14"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "365596\n"
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "solve", "4"],
                         capture_output=True, text=True, timeout=300)
    assert run.stdout.split("\n\n")[:2] == [".Q..\n...Q\nQ...\n..Q.", "..Q.\nQ...\n...Q\n.Q.."]
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "-1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and "0..63" in run.stderr


def test_a_bad_tqdm_variable_is_named():
    """tqdm reads TQDM_* variables as it loads: a bad one failed in its own words
    ("invalid literal for int() with base 10: 'x'"), which read like an argument's error."""
    env = dict(os.environ, TQDM_POSITION="x")
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "12", "--progress"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 2 and run.stdout == ""
    assert ("could not load: invalid literal for int() with base 10: 'x' (it reads options "
            "from the environment variables TQDM_POSITION: check or unset them)") in run.stderr


def test_json_separators(capsys):
    assert main(["solve", "4", "--format", "json"]) == 0
    assert capsys.readouterr().out == (
        '[[".Q..", "...Q", "Q...", "..Q."], ["..Q.", "Q...", "...Q", ".Q.."]]\n')


def test_range_error_names_the_command(capsys):
    with pytest.raises(SystemExit):
        main(["count", "99"])
    assert "nqueens count: error:" in capsys.readouterr().err


@pytest.mark.parametrize("argv, command", [(["count", "99"], "nqueens count"),
                                           (["solve", "8", "--limit", "x"], "nqueens solve"),
                                           (["frobnicate"], "nqueens"),
                                           (["count", "8", "extra"], "nqueens count"),
                                           (["solve", "8", "--bogus"], "nqueens solve")])
def test_errors_are_the_message_and_a_hint_not_the_usage(argv, command, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{command}: error: ")
    assert lines[1] == f"({command} --help lists the options)"


@pytest.mark.parametrize("argv, words", [
    (["count", "14", "--gpus", "0"], "--gpus applies only with --device cuda or auto"),
    (["count", "13", "--device", "cuda", "--gpus", "0", "0"],
     "--gpus must name each GPU once, got [0, 0]")])
def test_device_errors_name_the_options(argv, words, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    err = capsys.readouterr().err
    assert words in err and "device=" not in err and "devices" not in err


def test_out_of_memory_exit_1(capsys, tmp_path):
    assert main(["solve", "28", "--format", "npy", "--output", str(tmp_path / "x.npy")]) == 1
    assert "out of memory" in capsys.readouterr().err
    assert main(["solve", "28", "--limit", str(10**17)]) == 1
    assert "out of memory" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_streaming_a_huge_set_can_stop():
    """``nqueens solve 28`` streams (no result is held); a reader that stops ends it."""
    proc = subprocess.Popen([sys.executable, "-m", "nqueens_numba", "solve", "28"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(2 * 29)]
        proc.stdout.close()  # the reader goes away, like ``| head``
        assert proc.wait(timeout=60) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
    boards = "".join(lines).split("\n\n")[:2]
    assert all(len(b.split("\n")) == 28 for b in boards)
    assert [row.index("Q") for row in boards[0].split("\n")] == nq.solve(28, limit=1)[0].tolist()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_write_error_is_one_line():
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "nqueens_numba", "count", "5"],
                             stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert run.returncode == 1
    assert run.stderr.startswith("nqueens: cannot write") and "Traceback" not in run.stderr


@pytest.mark.parametrize("timeout", ["-1", "0", "nan", "inf"])
def test_scheduler_timeout_is_checked(timeout, capsys):
    with pytest.raises(SystemExit) as info:
        main(["count", "8", "--scheduler", "tcp://127.0.0.1:1", f"--scheduler-timeout={timeout}"])
    assert info.value.code == 2
    assert "--scheduler-timeout must be a finite number of seconds above 0" in \
        capsys.readouterr().err


def test_find_max_steps_out_of_range_exits_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["find", "8", "--max-steps", str(2**70)])
    assert info.value.code == 2 and "--max-steps must be in the range" in capsys.readouterr().err


def test_estimate(capsys):
    assert main(["estimate", "12", "--samples", "20000", "--seed", "4", "--threads", "1"]) == 0
    out = capsys.readouterr().out
    fields = {line[:14].strip(): line[14:] for line in out.splitlines()}
    est = nq.estimate_count(12, samples=20000, seed=4)
    assert float(fields["estimate"]) == pytest.approx(est.value, rel=1e-6)
    assert fields["stderr"].startswith(f"{est.stderr:.3g} (")
    ends = fields["95% interval"].split(" .. ")  # (to 3 digits of the stderr, both alike)
    assert (float(ends[0]), float(ends[1])) == pytest.approx(est.interval(0.95),
                                                             abs=est.stderr / 100)
    assert len({end.partition(".")[2].__len__() for end in ends}) == 1, ends
    assert fields["samples"] == "20000" and fields["seed"] == "4"
    assert fields["exact"] == "14200 (OEIS A000170)"
    from nqueens_numba.cli.explore import _interval  # (past 10^7: 7 digits, zeros too)

    assert _interval(38846104613.7, 39196220001.0, 1e8) == "3.884610e+10 .. 3.919622e+10"
    assert _interval(9_999_990.0, 10_000_010.0, 5.0) == "9.999990e+06 .. 1.000001e+07"
    assert _interval(1.0, 1.0, 0.0) == "1 .. 1"  # (exact, below 10^7: as the estimate)
    assert main(["estimate", "40", "--samples", "1000", "--seed", "1"]) == 0
    assert "exact" not in capsys.readouterr().out
    # scientific notation, and an estimate without an error bar
    assert main(["estimate", "27", "-S", "2e0", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "samples       2\n" in out and "stderr        unknown (every probe died" in out
    assert "nan" not in out and "interval" not in out
    assert main(["estimate", "10", "-S", "1.2E4", "--seed", "1"]) == 0
    assert "samples       12000\n" in capsys.readouterr().out


def test_profile(capsys):
    assert main(["profile", "6"]) == 0
    assert capsys.readouterr().out == "depth nodes\n" + "".join(
        f"{k} {v}\n" for k, v in enumerate(nq.search_profile(6).tolist()))
    assert main(["profile", "10", "--samples", "5000", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    est = nq.search_profile(10, samples=5000, seed=2)
    assert lines[0] == "depth estimate stderr" and len(lines) == 12
    assert [float(line.split()[1]) for line in lines[1:]] == pytest.approx(est.value, rel=1e-6)
    # Without --seed, the seed drawn is said on stderr (the table stays as it is), and repeats
    assert main(["profile", "10", "--samples", "5000"]) == 0
    drawn = capsys.readouterr()
    seed = re.fullmatch(r"nqueens: seed (\d+) \(--seed \1 repeats this profile\)\n",
                        drawn.err)[1]
    assert main(["profile", "10", "--samples", "5000", "--seed", seed]) == 0
    assert capsys.readouterr() == (drawn.out, "")


def test_a_signal_swallowed_by_a_finaliser_still_stops_the_run_quietly(monkeypatch, capsys):
    """A termination signal whose interruption Python cannot pass on (it came inside a
    finaliser, as it can inside numba or llvmlite): the command still ends as terminated,
    with its one line and no "Exception ignored" traceback."""
    import signal

    from nqueens_numba import counting

    class Finaliser:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)  # handled here, inside the finaliser

    def count_solutions(*args, **kwargs):
        Finaliser()
        return 92

    monkeypatch.setattr(counting, "count_solutions", count_solutions)
    hook = sys.unraisablehook
    assert main(["count", "8"]) == 143
    out, err = capsys.readouterr()
    assert out == "" and err == "nqueens: terminated by SIGTERM\n"
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    assert sys.unraisablehook is hook  # restored, as the handlers are


@pytest.mark.parametrize("argv, err", [
    (["solve", "3"], "nqueens: no solutions for n=3\n"),
    (["solve", "3", "-f", "json"], "nqueens: no solutions for n=3\n"),
    (["solve", "4", "--torus"], "nqueens: no solutions for n=4 with --torus\n"),
    (["solve", "3", "--piece", "superqueen"],
     "nqueens: no solutions for n=3 with --piece superqueen\n"),
    (["solve", "4", "--preplace", "0:0"],
     "nqueens: no solutions for n=4 with these constraints\n"),
    (["solve", "0"], "nqueens: n=0: the empty board (no rows) is the one solution\n"),
    (["solve", "8", "--limit", "0"], ""),
    (["solve", "5"], ""),
])
def test_solve_says_when_there_is_nothing_to_show(argv, err, capsys):
    assert main(argv) == 0
    assert capsys.readouterr().err == err


def test_scheduler_timeout_needs_a_scheduler(capsys):
    with pytest.raises(SystemExit) as info:
        main(["count", "8", "--scheduler-timeout", "3"])
    assert info.value.code == 2
    assert "--scheduler-timeout applies only with --scheduler" in capsys.readouterr().err


def test_every_keyword_the_cli_rewrites_is_in_a_message_of_the_package():
    """(The command line rewrites the API's messages by their words: a message reworded in
    the package would keep its keyword names on the command line.)"""
    import ast
    import pathlib

    from nqueens_numba.cli import messages

    package = pathlib.Path(nq.__file__).parent
    texts = []
    for path in package.rglob("*.py"):
        if path.name == "messages.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append(node.value)
            elif isinstance(node, ast.JoinedStr):  # (its words, a value as "{}")
                texts.append("".join(part.value if isinstance(part, ast.Constant) else "{}"
                                     for part in node.values))

    def said(key):
        if key.endswith(" must"):  # ("{name} must ...", the name given to a check)
            return key[:-len(" must")] in texts and any("{} must" in t for t in texts)
        return any(key in text for text in texts)

    assert not [key for key in messages._OPTIONS if not said(key)]


def test_a_missing_dask_is_not_a_usage_error(monkeypatch, capsys):
    """``--scheduler`` without Dask installed: status 1 and what to install, as a GPU count
    without numba-cuda (it was a usage error, status 2, with the usage block's hint)."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # (importing it fails)
    assert main(["count", "12", "--scheduler", "local"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("nqueens: --scheduler needs Dask: pip install 'nqueens_numba[dask]'")
    assert "--help" not in err


def test_every_rewrite_of_the_cli_names_words_the_package_says():
    """The command line rewrites the API's messages by their words (``cli.messages``): a
    rewrite whose words no message has any more would leave the API's names in the
    command's messages without a test failing. Each is in a string of the package (``X
    must``: ``X`` given to a check of ``_validate``, which says ``{name} must``)."""
    import ast
    import pathlib

    from nqueens_numba.cli.messages import _OPTIONS

    texts, names = [], set()
    root = pathlib.Path(nq.__file__).parent
    for path in root.rglob("*.py"):
        if "cli" in path.relative_to(root).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):  # (a value between the words: "\0")
                texts.append("".join(part.value if isinstance(part, ast.Constant) else "\0"
                                     for part in node.values))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                texts.append(node.value)
                names.add(node.value)
    for words in _OPTIONS:
        said = any(words in text for text in texts)
        name, _, rest = words.partition(" ")
        checked = rest == "must" and name in names and any("\0 must be" in t for t in texts)
        assert said or checked, words
