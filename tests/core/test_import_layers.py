"""The import graph of src keeps its layers: no cycles, no engine reaching sideways or up.

The graph is read from the source with ``ast`` (nothing is imported), so the test sees
every ``import`` and ``from ... import``, relative ones resolved, plus
``importlib.import_module("literal")`` calls.

Two rules (docs/architecture.md, "The contracts that hold it together"):

- **No import cycles** among the imports that run when a module is imported (module
  level, including inside top-level ``if``/``try``; ``if TYPE_CHECKING:`` blocks are
  left out because they never run). An import inside a function runs later, on call,
  and cannot deadlock or half-initialise a module, but a cycle that closes only through
  such imports still tangles the layers inside an engine, so none is allowed either
  (imports under ``if TYPE_CHECKING:`` never run and count for no cycle).
- **Layers**, over every import including those inside functions: ``core`` imports no
  engine and no front end; an engine (spec, grid, zebra, crossnumber, builtin) imports
  core and itself only, never another engine, the CLI, the API, the web app, the
  dataset/batch/integration layers or the ``puzzleforge`` package root (which imports
  the API).

The checker is tested on a small planted tree too, so a checker that finds nothing
cannot pass silently.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ROOT = "puzzleforge"
ENGINES = frozenset({"spec", "grid", "zebra", "crossnumber", "builtin"})
FRONT_ENDS = frozenset({"cli", "api", "web", "dataset", "batch", "integrations", "__main__"})


@dataclass
class ImportGraph:
    """Edges between the modules of one package tree (module name -> imported names)."""

    modules: dict[str, Path]
    at_import: dict[str, set[str]] = field(default_factory=dict)  # run on import
    anywhere: dict[str, set[str]] = field(default_factory=dict)  # incl. inside functions
    runnable: dict[str, set[str]] = field(default_factory=dict)  # anywhere but TYPE_CHECKING


def _module_name(src: Path, path: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_nodes(body: list[ast.stmt]):
    """The statements that run when the module is imported (not function/class bodies
    called later, not TYPE_CHECKING blocks)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and not _is_type_checking(node.test):
            yield from _import_time_nodes(node.body)
            yield from _import_time_nodes(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _import_time_nodes(block)
        elif isinstance(node, ast.ClassDef):  # a class body runs at import time
            yield from _import_time_nodes(node.body)


def _run_time_nodes(tree: ast.AST):
    """Every node that can run, at import or later on call: all of them but the bodies of
    ``if TYPE_CHECKING:`` (annotations only; their ``else`` runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _targets(graph: ImportGraph, module: str, is_package: bool, node: ast.AST) -> set[str]:
    """The modules of the tree that ``node`` imports (a name imported from a package
    counts as the submodule when there is one, else as the package)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [
            f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in graph.modules else prefix
            for alias in node.names
        ]
    elif (
        isinstance(node, ast.Call)
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            or (isinstance(node.func, ast.Name) and node.func.id == "import_module")
        )
    ):
        names = [node.args[0].value]
    found = set()
    for name in names:
        while name and name not in graph.modules:  # the closest module of the tree
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)
    return found


def build_graph(src: Path, package: str = ROOT) -> ImportGraph:
    modules = {_module_name(src, p): p for p in sorted((src / package).rglob("*.py"))}
    graph = ImportGraph(modules)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        graph.at_import[name] = set().union(
            *(_targets(graph, name, is_package, n) for n in _import_time_nodes(tree.body))
        )
        graph.anywhere[name] = set().union(
            *(_targets(graph, name, is_package, n) for n in ast.walk(tree))
        )
        graph.runnable[name] = set().union(
            *(_targets(graph, name, is_package, n) for n in _run_time_nodes(tree))
        )
    return graph


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _area(module: str) -> str:
    """``puzzleforge.zebra.text`` -> ``zebra``; the package root itself -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_violations(graph: ImportGraph) -> list[str]:
    problems = []
    for module in sorted(graph.anywhere):
        source = _area(module)
        if source not in ENGINES and source != "core":
            continue
        for target in sorted(graph.anywhere[module]):
            goal = _area(target)
            if goal == source:
                continue
            if goal == "":
                why = "the package root (it imports the API)"
            elif goal in FRONT_ENDS:
                why = f"the {goal} layer, above the engines"
            elif goal in ENGINES:
                why = (
                    "an engine (core imports none)"
                    if source == "core"
                    else "another engine (engines meet only through the registry)"
                )
            else:
                continue
            problems.append(f"{module} imports {target}: {why}")
    return problems


GRAPH = build_graph(SRC)


def test_the_graph_covers_the_tree() -> None:
    assert len(GRAPH.modules) > 100
    assert {"puzzleforge.core.registry", "puzzleforge.cli.main", "puzzleforge.zebra.cli"} <= set(
        GRAPH.modules
    )
    assert "puzzleforge.core.cliguard" in GRAPH.anywhere["puzzleforge.zebra.cli"]


def test_no_import_cycles() -> None:
    assert cycles(GRAPH.at_import) == []


def test_no_import_cycles_through_functions() -> None:
    # they cannot half-initialise a module, but they tangle what should be layers
    assert cycles(GRAPH.runnable) == []


def test_engines_and_core_keep_their_layer() -> None:
    assert layer_violations(GRAPH) == []


def _plant(src: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def test_the_checker_finds_planted_violations(tmp_path: Path) -> None:
    src = _plant(
        tmp_path,
        {
            "puzzleforge/__init__.py": "from .api import generate\n",
            "puzzleforge/api.py": "def generate(): ...\n",
            "puzzleforge/cli/__init__.py": "",
            "puzzleforge/cli/errors.py": "",
            "puzzleforge/core/__init__.py": "",
            "puzzleforge/core/registry.py": "def f():\n    from ..zebra import model\n",
            "puzzleforge/zebra/__init__.py": "def g():\n    from ..api import generate\n",
            "puzzleforge/zebra/cli.py": "from ..cli.errors import run_guarded\n",
            "puzzleforge/zebra/model.py": (
                "from typing import TYPE_CHECKING\nfrom . import text\n"
                "if TYPE_CHECKING:\n    from . import clues\n"
            ),
            "puzzleforge/zebra/text.py": "from .model import Model\n",
            "puzzleforge/zebra/clues.py": "from .model import Model\n",
            "puzzleforge/grid/__init__.py": "",
            "puzzleforge/grid/early.py": "def f():\n    from . import late\n",
            "puzzleforge/grid/late.py": "from . import early\n",
            "puzzleforge/grid/lazy.py": (
                "import importlib\n"
                "def h():\n    return importlib.import_module('puzzleforge.zebra.text')\n"
            ),
        },
    )
    graph = build_graph(src)
    # text <-> model runs at import; clues -> model is answered only under TYPE_CHECKING
    assert cycles(graph.at_import) == [["puzzleforge.zebra.model", "puzzleforge.zebra.text"]]
    # early -> late runs only on call: a cycle of the function-level graph alone (the
    # TYPE_CHECKING import of clues never runs, so clues is in no cycle)
    assert cycles(graph.runnable) == [
        ["puzzleforge.grid.early", "puzzleforge.grid.late"],
        ["puzzleforge.zebra.model", "puzzleforge.zebra.text"],
    ]
    assert [
        "puzzleforge.zebra.clues",
        "puzzleforge.zebra.model",
        "puzzleforge.zebra.text",
    ] in cycles(graph.anywhere)  # the layer graph sees it
    assert layer_violations(graph) == [
        "puzzleforge.core.registry imports puzzleforge.zebra.model: an engine (core imports none)",
        "puzzleforge.grid.lazy imports puzzleforge.zebra.text: "
        "another engine (engines meet only through the registry)",
        "puzzleforge.zebra imports puzzleforge.api: the api layer, above the engines",
        "puzzleforge.zebra.cli imports puzzleforge.cli.errors: the cli layer, above the engines",
    ]
