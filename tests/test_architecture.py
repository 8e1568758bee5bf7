"""The shape of the code, checked: imports flow one way (launcher → web → store → core) with no
cycles, the rules core imports nothing but the standard library and itself, vision knows nothing
of Flask, and no function in ``scorer/`` runs to 50 lines."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scorer", "vision")
# Modules of scorer/ that are not the pure core: the launcher, the web layer, storage, settings
# and benches. Every other module of scorer/ is core.
NOT_CORE = {"scorer.__main__", "scorer.serve", "scorer.lan", "scorer.settings", "scorer.db"}
MAX_FUNCTION_LINES = 50
# Pure-data libraries the core may use (no I/O, no framework).
CORE_LIBRARIES = {"confusable_homoglyphs"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module this one imports, at the top or inside a function (a lazy import is still a
    dependency): project modules by their full name, others by their top-level name."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m if m in known else m.split(".")[0] for m in found if m != name}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def is_core(name: str) -> bool:
    if not name.startswith("scorer") or name in NOT_CORE:
        return False
    tail = name.rsplit(".", 1)[-1]
    return not (name.startswith("scorer.web") or tail.endswith("_store") or tail.endswith("bench"))


def test_no_import_cycles(graph):
    # Tarjan's strongly connected components; any component of two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v] & graph.keys():
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert cycles == [], f"import cycles: {cycles}"


def test_the_core_imports_only_the_standard_library_and_the_core(graph):
    core = {name for name in graph if is_core(name)}
    assert {"scorer.rules", "scorer.contract", "scorer.planet", "scorer.errors"} <= core
    bad = {name: sorted(dep for dep in deps
                        if not (dep in core or dep in sys.stdlib_module_names or dep in CORE_LIBRARIES
                                or dep == "scorer"))
           for name, deps in graph.items() if name in core}
    assert {k: v for k, v in bad.items() if v} == {}


def test_layers_point_one_way(graph):
    """The web layer never imports the launcher; storage never imports the web layer; vision
    never imports Flask or the app."""
    launcher = {"scorer.__main__", "scorer.serve"}
    wrong = []
    for name, deps in graph.items():
        if name.startswith("scorer.web") and deps & launcher:
            wrong.append((name, sorted(deps & launcher)))
        if (name == "scorer.db" or name.endswith("_store")) and any(d.startswith("scorer.web") for d in deps):
            wrong.append((name, "imports the web layer"))
        if name.startswith("vision") and deps & {"flask", "werkzeug", "sqlalchemy", "scorer"} | {
                d for d in deps if d.startswith("scorer.") and not is_core(d)}:
            wrong.append((name, "vision imports Flask, storage or the app (the pure core is fine)"))
    assert wrong == []


def test_no_function_in_scorer_runs_to_50_lines():
    long = []
    for path in sorted((ROOT / "scorer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines >= MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []
