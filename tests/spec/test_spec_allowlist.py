"""The allow-list tables and guards (spec/allowlist.py, spec/guards.py) on their own.

The corpus specs read exactly these attributes (recorded by running every corpus spec with
a recording hook, session 7); each must stay readable, and the neighbours that reach
internals must not.
"""

from __future__ import annotations

import datetime
import random

import pytest
import z3

from puzzleforge.spec.allowlist import MODULE_VIEWS, ModuleView
from puzzleforge.spec.bounded import ExprError
from puzzleforge.spec.guards import guarded_getattr, guarded_hasattr, safe_format
from puzzleforge.spec.operators import SolModel
from puzzleforge.spec.symbols import CondText, SymbolDict
from puzzleforge.spec.z3space import Z3Space


def test_the_attributes_corpus_specs_read_are_allowed() -> None:
    sym = SymbolDict("s", [("k", ["a", "b"])], ["x"], ["int"], Z3Space())
    assert guarded_getattr(sym, "get")("x") == sym.get("x")
    assert guarded_getattr(CondText("t", data=[1]), "data") == [1]
    assert guarded_getattr({"a": 1}, "get")("a") == 1
    assert list(guarded_getattr({"a": 1}, "items")()) == [("a", 1)]
    assert guarded_getattr([1, 1, 2], "count")(1) == 2
    assert guarded_getattr(",", "join")(["a", "b"]) == "a,b"
    assert guarded_getattr("{0}-{1}", "format")(1, 2) == "1-2"
    rng = random.Random(3)
    assert guarded_getattr(rng, "choice")([5]) == 5
    assert guarded_getattr(rng, "sample")([1, 2], 2) in ([1, 2], [2, 1])
    assert guarded_getattr(MODULE_VIEWS["math"], "log")(1) == 0.0
    dt = MODULE_VIEWS["datetime"]
    day = guarded_getattr(dt, "date")(2024, 1, 2) + guarded_getattr(dt, "timedelta")(days=1)
    assert guarded_getattr(day, "strftime")("%m/%d") == "01/03"
    x = z3.Int("x")
    model = SolModel({x.get_id(): 4}, {x.get_id(): x})
    assert guarded_getattr(model, "evaluate")(x) == 4


@pytest.mark.parametrize(
    "obj,name",
    [
        (z3.Int("x"), "ctx"),
        (z3.Int("x"), "ast"),
        (z3.Int("x"), "as_ast"),
        (z3.Int("x"), "translate"),
        (z3.Int("x").decl(), "ctx"),
        (z3.IntSort(), "ctx"),
        ((i for i in ()), "gi_frame"),
        ((i for i in ()), "gi_code"),
        (lambda: 0, "func_globals"),
        (random.Random(0), "getstate"),
        (random.Random(0), "seed"),
        (str, "format"),
        (int, "from_bytes"),
        (1, "to_bytes"),
        (MODULE_VIEWS["math"], "sys"),
        (MODULE_VIEWS["datetime"], "sys"),
        (datetime.date(2024, 1, 1), "today"),
        ({}, "fromkeys"),
        (SolModel({}, {}), "values"),
        ("s", "__class__"),
    ],
)
def test_internals_are_refused(obj: object, name: str) -> None:
    with pytest.raises(ExprError):
        guarded_getattr(obj, name)
    assert guarded_hasattr(obj, name) is False


def test_module_views_are_read_only() -> None:
    view = ModuleView("demo", {"a": 1})
    with pytest.raises(AttributeError):
        view.a = 2  # type: ignore[attr-defined]
    assert guarded_getattr(view, "a") == 1


@pytest.mark.parametrize(
    "template,args",
    [
        ("{0.__class__}", (1,)),
        ("{0.gi_frame}", ((i for i in ()),)),
        ("{0[_private]}", ({"_private": 1},)),
        ("{0:>99999999}", (1,)),
        ("{0:{1}}", (1, 99999999)),
    ],
)
def test_format_fields_walk_through_the_guards(template: str, args: tuple) -> None:
    with pytest.raises(ExprError):
        safe_format(template, *args)


def test_format_fields_that_are_allowed() -> None:
    assert safe_format("{0[1]}|{1.real}|{k:>4}", [7, 8], 3, k="ab") == "8|3|  ab"
