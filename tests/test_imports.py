"""The library must not load Spark: only the Spark glue's modules that run jobs import pyspark."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "webclean"
# The modules of webclean.spark that need a SparkSession; the others need only pyarrow.
SPARK_MODULES = {"session", "job", "extract_job", "train_job", "lexicon_job"}


def test_import_webclean_does_not_import_pyspark():
    code = (
        "import sys, webclean, webclean.warc\n"
        "webclean.extract, webclean.load_model\n"
        "assert 'pyspark' not in sys.modules, sorted(m for m in sys.modules if m.startswith('pyspark'))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_glue_that_needs_only_pyarrow_does_not_import_pyspark():
    pytest.importorskip("pyarrow")
    pytest.importorskip("warcio")
    code = (
        "import sys, webclean.spark, webclean.spark.inputs, webclean.spark.readers, webclean.spark.rows\n"
        "assert 'pyspark' not in sys.modules, sorted(m for m in sys.modules if m.startswith('pyspark'))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_only_the_spark_modules_name_pyspark():
    importers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(name.split(".")[0] == "pyspark" for name in names):
                importers.add(path.relative_to(PACKAGE).with_suffix("").as_posix())
    assert importers == {f"spark/{name}" for name in SPARK_MODULES}


def test_extract_stays_the_function_after_its_module_is_imported():
    code = (
        "import importlib, webclean\n"
        "module = importlib.import_module('webclean.extract')\n"
        "import webclean.spark.extract_job\n"
        "assert webclean.extract is module.extract, webclean.extract"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(source: str, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """The modules among ``modules`` that module ``name`` imports, wherever the import
    statement is: at the top, inside a function or under ``if TYPE_CHECKING``.
    ``from package import name`` imports the submodule when ``name`` is one."""
    package = name if is_package else name.rpartition(".")[0]
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            imported.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
    return {module for module in imported if module in modules and module != name}


def _import_graph(root: Path = REPO) -> dict[str, set[str]]:
    """Which modules of webclean/ each module of webclean/ imports."""
    files = {_module_name(path, root): path for path in (root / "webclean").rglob("*.py")}
    return {
        name: _imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py", set(files))
        for name, path in files.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_import_cycle_inside_webclean():
    """Imports inside functions count: they hide a cycle, they do not break it."""
    graph = _import_graph()
    assert {"webclean.extract", "webclean.registry", "webclean.methods.mlp", "webclean.spark"} <= set(graph)
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " → ".join(cycle)


def test_the_graph_counts_imports_inside_functions_and_for_type_checking():
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import b\n"
        "if TYPE_CHECKING:\n    from webclean.c import Thing\n"
        "def f():\n    import webclean.d\n    from .pkg import e\n"
    )
    modules = {"webclean.a", "webclean.b", "webclean.c", "webclean.d", "webclean.pkg", "webclean.pkg.e"}
    assert _imports(source, "webclean.a", False, modules) == {"webclean.b", "webclean.c", "webclean.d", "webclean.pkg.e"}
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None



def _module_level_imports(statements: list[ast.stmt]) -> Iterator[str]:
    """The top-level names imported by a module's own statements, in its ifs and trys
    too (``tomli`` before Python 3.11), not in its functions: those import on demand."""
    for node in statements:
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]
        elif isinstance(node, ast.If | ast.Try):
            for block in (node.body, node.orelse, getattr(node, "finalbody", []), *(h.body for h in getattr(node, "handlers", []))):
                yield from _module_level_imports(block)


def _distribution(requirement: str) -> str:
    return re.split(r"[<>=!~;\s\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_library_declares_what_it_imports_and_nothing_else():
    """What a module of the library (the Spark glue aside) imports when it is loaded is a
    core dependency, and every core dependency is imported somewhere (some on demand,
    inside functions): no beautifulsoup4 that nothing imports, no warcio that only an
    extra installs. Imports inside functions may name an extra's package (pyarrow, for
    a remote WARC)."""
    distributions = importlib.metadata.packages_distributions()

    def names(modules: Iterable[str]) -> set[str]:
        third_party = {m for m in modules if m not in sys.stdlib_module_names and m not in ("webclean", "__future__")}
        return {distributions.get(m, [m])[0].lower().replace("_", "-") for m in third_party}

    loaded: set[str] = set()
    anywhere: set[str] = set()
    for path in (REPO / "webclean").rglob("*.py"):
        if "spark" in path.relative_to(REPO / "webclean").parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        loaded |= names(_module_level_imports(tree.body))
        anywhere |= names(_module_level_imports([node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]))
    declared = {_distribution(r) for r in tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]}
    assert loaded <= declared, loaded - declared
    assert declared <= anywhere, declared - anywhere
