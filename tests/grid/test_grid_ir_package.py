"""The ir/ package split: every public name is still importable from puzzleforge.grid.ir,
and each submodule can be the first one imported (the modules import each other in a
fixed order; a wrong order would fail only for some entry points)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import puzzleforge.grid.ir as ir

SUBMODULES = ["nodes", "checks", "binders", "refs", "logic", "aggregates", "sets"]

# names other grid modules import from puzzleforge.grid.ir (model.py, primitives.py, ...)
USED_ELSEWHERE = [
    "_apply",
    "_binder_name",
    "_need",
    "as_set",
    "assert_no_pending",
    "lift",
    "short",
    "walk",
]


def test_public_names_resolve_to_ir_objects():
    for name in ir.__all__ + USED_ELSEWHERE:
        obj = getattr(ir, name)
        assert getattr(obj, "__module__", "").startswith("puzzleforge.grid.ir"), name


@pytest.mark.parametrize("module", SUBMODULES)
def test_submodule_imports_first(module):
    code = (
        f"import puzzleforge.grid.ir.{module}\n"
        "from puzzleforge.grid import Bool, Grid, Param, forall\n"
        "n = Param('n', int); g = Grid(n, n); color = Bool.over(g.C, name='color')\n"
        "rule = forall(g.rows, lambda r: 0 < r.sum_of(color) < n)\n"
        "print(rule.type)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "bool"


def test_operator_sugar_builds_nodes_of_the_sibling_modules():
    n = ir.Param("n", int)
    e = (n + 1) * 2 // 3 - n
    assert isinstance(e, ir.Sub) and e.type == "int"
    chained = 0 < n < 5
    assert isinstance(chained, ir.And) and [type(a).__name__ for a in chained.args] == [
        "Gt",
        "Lt",
    ]  # 0 < n is n > 0
