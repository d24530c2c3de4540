"""The package's modules import one way, each only from the layers above it.

Parses every module of the package (``ast``), so that a new module or import that breaks the
order fails here: see docs/design.md, "How the code is organised".
"""
import ast
import pathlib

import pytest

import nqueens_numba

PACKAGE = pathlib.Path(nqueens_numba.__file__).parent

#: The layers, in dependency order: a module imports only modules of earlier layers.
LAYERS = [
    ["config", "_version"],
    ["_validate", "_docs"],
    ["_kernels._sizes", "_kernels._loading"],
    ["_kernels._common"],
    ["_kernels.count", "_kernels.enumerate", "_kernels.local_search", "_kernels.trace",
     "_kernels.symmetric_first"],
    ["_kernels.symmetric", "_kernels.estimate"],
    ["_kernels.prefixes", "_kernels.gpu"],  # (gpu compiles symmetric's orbit check)
    ["_kernels"],
    ["_files", "_breadth", "_pool", "_device"],
    ["board", "_progress", "constraints"],
    ["symmetry", "checkpoint", "render._common"],  # (a checkpoint shows its constraints)
    ["render.text"],
    ["render.svg", "render.plot"],
    ["render.trace_view"],
    ["render"],
    ["_pieces"],
    ["_job"],
    ["_split"],
    ["_enumerating", "export"],
    ["_runner", "_blocks", "_gpu"],
    ["_threads"],
    ["checking", "enumeration"],
    ["counting"],
    ["streaming", "tracing", "huge", "structure", "estimation"],
    ["distributed", "precompile"],
    ["api", "cli.messages", "cli.stop", "cli.values"],
    ["cli.parser", "cli.count", "cli.solve", "cli.explore", "cli.construct"],
    ["cli"],
    ["__main__", "__init__"],
]
LAYER = {module: i for i, layer in enumerate(LAYERS) for module in layer}


def module_name(path):
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def modules():
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def resolve(importer, node):
    """The package modules an import names, as ``[(module, imported names, local name)]``;
    the local name is the one a whole module is bound to (else ``None``)."""
    if isinstance(node, ast.Import):
        return [(alias.name.removeprefix("nqueens_numba").lstrip(".") or "__init__", [], None)
                for alias in node.names if alias.name.split(".")[0] == "nqueens_numba"]
    if node.level == 0:
        if not (node.module or "").startswith("nqueens_numba"):
            return []
        base = node.module.removeprefix("nqueens_numba").lstrip(".")
    else:
        package = importer.split(".")
        is_package = (PACKAGE.joinpath(*package) / "__init__.py").exists() or importer == ""
        if importer == "__init__":
            package, is_package = [], True
        here = package if is_package else package[:-1]
        here = here[:len(here) - (node.level - 1)]
        base = ".".join(here + ([node.module] if node.module else []))
    found = []
    for alias in node.names:
        sub = f"{base}.{alias.name}" if base else alias.name
        if sub in LAYER:
            found.append((sub, [], alias.asname or alias.name))  # ``from . import module``
        else:
            found.append((base or "__init__", [alias.name], None))
    return found


def imports(name, path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = {}  # local name -> package module, for ``module._private`` attribute access
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for module, names, local in resolve(name, node):
                found.append((module, names, node.lineno))
                if local is not None:
                    bound[local] = module
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in bound and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            found.append((bound[node.value.id], [node.attr], node.lineno))
    return found


def test_every_module_has_a_layer():
    assert set(modules()) == set(LAYER)


@pytest.mark.parametrize("name", sorted(LAYER))
def test_imports_only_from_earlier_layers(name):
    path = modules()[name]
    for module, names, line in imports(name, path):
        assert module in LAYER, f"{name}:{line} imports unknown module {module}"
        assert LAYER[module] < LAYER[name], (
            f"{name}:{line} imports {module}, which is not in an earlier layer")


@pytest.mark.parametrize("name", sorted(LAYER))
def test_no_private_names_of_other_modules(name):
    """No module uses another's private names; the kernels reach each other's helpers
    inside ``_kernels``, and everything else gets a kernel from ``_kernels.entry``."""
    path = modules()[name]
    for module, names, line in imports(name, path):
        if name.startswith("_kernels") and module.startswith("_kernels"):
            continue
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{name}:{line} uses private names {private} of {module}"


def test_kernels_import_nothing_else_from_the_package():
    for name, path in modules().items():
        if name.startswith("_kernels"):
            for module, _, line in imports(name, path):
                assert module.startswith("_kernels"), f"{name}:{line} imports {module}"


def test_the_checks_catch_a_bad_module(tmp_path, monkeypatch):
    """The parser sees the imports it must refuse (a guard that cannot fail guards nothing)."""
    bad = tmp_path / "bad.py"
    bad.write_text("from . import api\nfrom .counting import _orbits\nfrom . import _split\n"
                   "x = _split._grow\n")
    found = {(module, tuple(names)) for module, names, _ in imports("checkpoint", bad)}
    assert ("api", ()) in found  # a later layer
    assert ("counting", ("_orbits",)) in found  # a private name
    assert ("_split", ("_grow",)) in found  # a private attribute


#: Names that a test on the board's variant mentions.
VARIANT_NAMES = {"variant", "torus", "piece", "board", "TORUS", "KNIGHT", "STEPS"}


def variant_branches(path):
    """The ``if``/``while``/conditional-expression tests (and comprehension filters) of a
    module that name the board's variant: ``[line, ...]``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        tests = [node.test] if isinstance(node, (ast.If, ast.While, ast.IfExp)) else []
        tests += node.ifs if isinstance(node, ast.comprehension) else []
        for test in tests:
            names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(test) if isinstance(n, ast.Attribute)}
            if names & VARIANT_NAMES:
                found.append(test.lineno)
    return found


def test_the_variant_is_decided_in_few_places():
    """Outside the kernels, the board's variant is branched on in at most three modules and
    twenty places: the Board answers the rest (a new board touches its class and the
    kernel table, not every layer)."""
    sites = {name: variant_branches(path) for name, path in modules().items()
             if not name.startswith("_kernels")}
    sites = {name: lines for name, lines in sites.items() if lines}
    assert len(sites) <= 3 and sum(map(len, sites.values())) <= 20, sites


@pytest.mark.parametrize("name", sorted(LAYER))
def test_modules_have_one_job_and_stay_short(name):
    assert len(modules()[name].read_text(encoding="utf-8").splitlines()) <= 600


def test_the_variant_guard_sees_branches(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1 if torus else 2\nif board.plain:\n    pass\n"
                   "y = [p for p in range(3) if piece]\nif n:\n    pass\n")
    assert sorted(variant_branches(bad)) == [1, 2, 4]
