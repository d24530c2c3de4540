"""Compiling every kernel ahead of time: nq.warmup() and nqueens warmup."""
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

import nqueens_numba as nq
from nqueens_numba.cli import main


def test_warmup_runs_every_feature(capsys):
    features = nq.warmup()
    assert "counts by symmetry" in features and "local search" in features
    assert len(features) == len(set(features)) >= 10
    with pytest.raises(TypeError, match="progress"):
        nq.warmup(progress=1)
    assert main(["warmup"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"kernels of {len(features)} features compiled or loaded; cached in")
    folder = out.rstrip("\n").rsplit("cached in ", 1)[1]  # the folder numba chose
    assert any(name.startswith("count.") for name in os.listdir(folder)), folder


@pytest.mark.slow
def test_after_warmup_first_calls_compile_nothing(cold_warmup):
    """With a new cache directory, ``nqueens warmup`` compiles every kernel; a later process
    calling each main feature once then only loads them (no numba compile event). (The
    warm-up runs beside the other tests, from their start: ``tests/conftest.py``.)"""
    returncode, out, err, cache = cold_warmup
    assert returncode == 0, err
    assert cache in out and os.listdir(cache)
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    code = """
        import numpy as np
        from numba.core import event
        import nqueens_numba as nq
        compiled = []
        class Listener(event.Listener):
            def on_start(self, ev):
                compiled.append(ev.data["dispatcher"].py_func.__name__)
            def on_end(self, ev):
                pass
        with event.install_listener("numba:compile", Listener()):
            nq.count_solutions(12); nq.count_solutions(16); nq.solve(9)
            nq.count_solutions(10, preplaced={0: 2}); nq.count_solutions(9, fundamental=True)
            nq.fundamental_solutions(8); nq.find_solution(300, seed=1); nq.trace(5)
            next(iter(nq.iter_solutions(11))); nq.boards(5); nq.first_row_counts(9)
            nq.count_solutions(15, blocked=np.eye(15, dtype=bool))
            # n = 13: the kernels of boards past the NumPy search
            nq.count_solutions(13); nq.count_solutions(13, preplaced={0: 2}); nq.solve(13)
            nq.count_solutions(13, fundamental=True); next(iter(nq.iter_solutions(13)))
            nq.solve(13, limit=5); nq.fundamental_solutions(13)
            nq.estimate_count(20, samples=10**4, seed=1); nq.search_profile(11)
            nq.search_profile(18, samples=10**4, seed=1)
            # the variants' boards
            nq.count_solutions(13, piece="superqueen", method="halving")
            nq.count_solutions(17, torus=True); nq.count_solutions(14, piece="superqueen")
            nq.solve(10, piece="superqueen"); nq.first_row_counts(11, torus=True)
            nq.estimate_count(14, piece="superqueen", samples=10**4, seed=1)
            nq.search_profile(12, piece="superqueen"); nq.trace(5, torus=True)
        print(compiled)
    """
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
    # ... and every CPU kernel of the kernel table is in the cache (a kernel added to the
    # table without a warm-up step is not), but the first count's symmetric kernel, which
    # runs only while the symmetric kernel is still to compile. One cache file holds the
    # kernels of every board that a function of the board's flag makes: numba tells them
    # apart by the hash of the closure's values in the key of each cached version,
    # (signature, machine, (hash of the code, hash of the closure's values)), which is what
    # this reads.
    code = """
        import nqueens_numba as nq
        from nqueens_numba import _kernels
        from nqueens_numba.board import QUEEN, SUPERQUEEN, TOROIDAL
        boards = {board.flag: board for board in (QUEEN, TOROIDAL, SUPERQUEEN)}
        kernels, missing = set(), set()
        for (job, flag, constrained), name in _kernels._ENTRIES.items():
            kernel = (None if job.startswith("gpu") or job == "symmetric_first"
                      else _kernels.entry(job, boards[flag], constrained))
            if hasattr(kernel, "py_func"):
                kernels.add(name)
                hashes = kernel._cache._index_key(None, kernel.targetctx.codegen())[2]
                if not any(key[2] == hashes for key in kernel._cache._cache_file._load_index()):
                    missing.add(name)
        print(len(kernels), sorted(missing))
    """
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    n_kernels, missing = run.stdout.split(" ", 1)
    assert int(n_kernels) > 20 and missing.strip() == "[]", run.stdout


def test_the_first_compile_says_so_once(tmp_path):
    """With an empty cache, the first kernel compiled in a process prints one line naming
    the cache; a process that finds them cached prints nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    # n = 13: past the boards searched in NumPy, so a kernel runs (the quickest to compile)
    code = "import nqueens_numba as nq; print(nq.count_solutions(13, preplaced={0: 1}))"
    for expected in (1, 0):
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, timeout=300)
        assert run.returncode == 0 and run.stdout == "3799\n", run.stderr
        # the folder numba chose: a folder of the kernels' package inside NUMBA_CACHE_DIR
        line = f"nqueens_numba: compiling kernels (first use, seconds; cached in {tmp_path}/"
        assert run.stderr.count(line) == expected, run.stderr
        assert run.stderr.count("compiling") == expected


def test_a_read_only_package_caches_in_numba_cache_dir(tmp_path):
    """A package directory without write permission works, and with ``NUMBA_CACHE_DIR`` the
    kernels are cached there and nothing is written beside the package. (Run as root, the
    permission bits do not stop writes: the check that nothing lands in the package remains.)"""
    package = tmp_path / "site" / "nqueens_numba"
    shutil.copytree(pathlib.Path(nq.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in [package, *package.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    cache = tmp_path / "cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONDONTWRITEBYTECODE": "1"}
    code = textwrap.dedent(f"""
        import importlib.util, sys
        # this copy, not the installed package (an editable install's finder comes first)
        spec = importlib.util.spec_from_file_location(
            "nqueens_numba", {str(package / "__init__.py")!r},
            submodule_search_locations=[{str(package)!r}])
        nq = sys.modules["nqueens_numba"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(nq)
        result = nq.count_solutions(13, preplaced={{0: 1}}), nq.trace(4).size
        print(sys.modules["nqueens_numba._kernels"].__file__)
        print(*result)
    """)
    try:
        for _ in range(2):  # compiled, then loaded from the cache
            run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                 text=True, timeout=300)
            assert run.returncode == 0, run.stderr
            where, result = run.stdout.splitlines()
            assert where.startswith(str(package)) and result == f"3799 {nq.trace(4).size}"
        cached = [p.name for p in cache.rglob("*") if p.is_file()]
        assert any(name.endswith(".nbi") for name in cached), cached
        assert not [p for p in package.rglob("*") if "__pycache__" in p.parts]
    finally:
        for path in [package, *package.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)


def _count_with_cache(cache, code="", n=13):
    """Run ``code`` then ``count_solutions(n)`` in a new process with numba's cache in
    ``cache``; return (the count printed, the warnings' messages printed, stderr)."""
    script = code + textwrap.dedent(f"""
        import warnings
        import nqueens_numba as nq
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            print(nq.count_solutions({n}))
        print(*(str(w.message) for w in said), sep="\\n")
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "NUMBA_CACHE_DIR": str(cache)})
    assert run.returncode == 0, run.stderr[-3000:]
    count, *said = run.stdout.splitlines()
    return int(count), [line for line in said if line], run.stderr


def test_a_cache_that_cannot_be_written_leaves_the_kernels_working(tmp_path):
    """A full disk under numba's cache: the kernels are compiled for the process, with one
    warning (numba's OSError ended every count of n >= 13)."""
    full = ("import numba.core.caching as c\n"
            "def full(self, name, data): raise OSError(28, 'No space left on device')\n"
            "c.IndexDataCacheFile._save_data = full\n")
    count, said, _ = _count_with_cache(tmp_path / "cache", full)
    assert count == 73712
    assert len(said) == 1 and "could not be written" in said[0] and "No space" in said[0]
    assert not list((tmp_path / "cache").rglob("*.nbc"))


def test_a_damaged_cache_is_compiled_again_and_saved_over(tmp_path):
    """Cache files cut short (a disk error, a copy that failed): the kernels compile again,
    with one warning, and the next process loads them as before (numba's UnpicklingError
    ended every count of n >= 13 until the cache was removed)."""
    cache = tmp_path / "cache"
    assert _count_with_cache(cache)[:2] == (73712, [])
    for pattern, size in (("*.nbc", 100), ("*.nbi", 10)):  # the data, then the index
        files = list(cache.rglob(pattern))
        assert files
        for path in files:
            with open(path, "r+b") as f:
                f.truncate(size)
        count, said, stderr = _count_with_cache(cache)
        assert (count, len(said)) == (73712, 1) and "could not be read" in said[0], stderr
        assert "compiling kernels" in stderr  # (compiled again)
        count, said, stderr = _count_with_cache(cache)
        assert (count, said) == (73712, []) and "compiling" not in stderr, pattern


def test_warmup_progress_is_one_bar(monkeypatch, capsys):
    """``nqueens warmup --progress`` shows its bar alone: no "compiling kernels" line per
    feature that numba compiles (two here, fresh functions of the package's own)."""
    from nqueens_numba import precompile

    def fresh_kernel():
        space = {"__name__": "nqueens_numba._fresh"}
        exec("import numba\n@numba.njit\ndef f(x):\n    return x + 1\n", space)
        return space["f"]

    monkeypatch.setattr(precompile, "_steps", lambda: [
        ("first feature", lambda: fresh_kernel()(1)),
        ("second feature", lambda: fresh_kernel()(2))])
    assert main(["warmup", "--progress"]) == 0
    err = capsys.readouterr().err
    assert "compiling" not in err and "2/2" in err


def test_a_cached_kernel_loads_without_numbas_registries_and_later_compiles_work(tmp_path):
    """A kernel loaded from the cache skips numba's refresh of its typing and lowering
    registries (a hundred of numba's modules imported, 0.15-0.2 s of every warm command):
    the count is right without them, and a kernel compiled later in the process (one of the
    user's, with a set, a sort and a string: it needs them) compiles and runs right."""
    script = textwrap.dedent("""
        import sys
        import numba
        import numpy as np
        import nqueens_numba as nq
        count = nq.count_solutions(13)
        refreshed = "numba.cpython.setobj" in sys.modules  # (imported by the refresh)

        @numba.njit
        def user(a):
            seen = set()
            for x in np.sort(a):
                seen.add(x)
            return len(seen) * 10 + len(str(a.size))

        print(count, refreshed, user(np.array([3, 1, 3, 2])))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    said = []
    for _ in range(2):  # compiled (and refreshed), then loaded from the cache
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             timeout=300, env=env)
        assert run.returncode == 0, run.stderr[-3000:]
        said.append(run.stdout)
    assert said == ["73712 True 31\n", "73712 False 31\n"]


def test_an_interrupted_warmup_says_how_far_it_got(monkeypatch, capsys):
    """Ctrl-C during the warm-up names the warm-up, not the feature's own call (it said
    "count of n=14 interrupted: nothing is returned", a call the user never made)."""
    from nqueens_numba import precompile

    def interrupted():
        raise KeyboardInterrupt("count of n=14 interrupted: nothing is returned")

    monkeypatch.setattr(precompile, "_steps", lambda: [
        ("first feature", lambda: None), ("second feature", interrupted),
        ("third feature", lambda: None)])
    with pytest.raises(KeyboardInterrupt) as info:
        nq.warmup()
    assert str(info.value) == (
        "warm-up interrupted after 1 of 3 features, at second feature: the kernels compiled "
        "so far are cached, and a compile in progress goes on in the background of this "
        "process; warmup() again compiles the rest")
    assert main(["warmup"]) == 130
    assert capsys.readouterr().err == (
        "nqueens: warm-up interrupted after 1 of 3 features, at second feature: the kernels "
        "compiled so far are cached, and a compile in progress is lost; nqueens warmup again "
        "compiles the rest\n")


def test_a_numba_cache_dir_that_cannot_be_used_is_named(monkeypatch, tmp_path):
    """numba caches elsewhere, without a word, when ``NUMBA_CACHE_DIR`` cannot be made or
    written (under a regular file here): the notices naming the cache folder say so."""
    import numba.core.config

    from nqueens_numba._kernels import _loading

    (tmp_path / "file").write_text("")
    asked = str(tmp_path / "file" / "cache")
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", asked)
    assert _loading.not_the_cache_asked(os.path.join(asked, "_kernels_x")) == ""
    elsewhere = str(tmp_path / "__pycache__")
    assert _loading.not_the_cache_asked(elsewhere) == (
        f" (NUMBA_CACHE_DIR={asked} could not be used)")
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", "")
    assert _loading.not_the_cache_asked(elsewhere) == ""
    run = subprocess.run([sys.executable, "-m", "nqueens_numba", "warmup"],
                         env={**os.environ, "NUMBA_CACHE_DIR": asked}, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.endswith(f" (NUMBA_CACHE_DIR={asked} could not be used)\n")


def test_each_boards_kernel_has_a_name_of_its_own():
    """The kernels that one function makes per board have qualified names of their own.
    numba names a compiled function by its qualified name and a counter of the process that
    compiles it: two boards' kernels compiled first in two processes shared a symbol, and a
    process that loaded both from the cache ran one board's code with the other's
    environment (``nq.warmup()`` failed with "returned a result with an exception set")."""
    from nqueens_numba import _kernels

    names = {}
    for name in set(_kernels._ENTRIES.values()):
        if _kernels._FAMILY[name] == "gpu":  # (numba-cuda's kernels: not cached so)
            continue
        func = getattr(getattr(_kernels, name), "py_func", None)
        if func is not None:  # (the NumPy prefixes have none)
            names.setdefault(f"{func.__module__}.{func.__qualname__}", set()).add(name)
    assert len(names) >= 25
    assert {name: kernels for name, kernels in names.items() if len(kernels) > 1} == {}
    assert "nqueens_numba._kernels.count._count_batch_for.<locals>.batch_1_0" in names
