"""Library code leaves z3's global main context alone (issue 16 item 2; spec/z3space.py).

Every Z3 term and solver of a spec family is made in the family's own context, passed
explicitly. Checked two ways on specs that take every solving path (finite, SAT, exact
LP, Z3 enumeration, nonlinear, optimisation, post-generation): a child process that
generates from them never even creates z3's main context, and this process, holding a
main context with a term of its own, finds the very same context object afterwards,
its term intact, and the same record bytes as the child.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import z3

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.z3space import Z3Space

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "specs"
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"


def _specs() -> list[str]:
    paths = [EXAMPLES / f"{n}.yaml" for n in ("knapsack", "house_numbers", "ore")]
    paths += [
        CORPUS / f"{s}.yaml"
        for s in (
            "1-hamburger",
            "5-knapsack",
            "37-equation",
            "38-linearprog",
            "46-elevator",
            "62-queue",
        )
    ]
    return [str(p) for p in paths if p.exists()]


def _records(paths: list[str]) -> dict[str, str]:
    """Puzzles 0 and 1 of every spec (SHA-256 of the stamped record, or the rejection)."""
    out = {}
    for path in paths:
        fam = load_spec_family(path, trust=True)
        for i in (0, 1):
            seed = derive_seed(4, fam.name, i)
            try:
                text = stamp(fam.generate(SpecParams(attempts=30), make_rng(seed)), seed).to_json()
            except GenerationFailed as exc:
                text = "failed: " + ",".join(sorted(exc.reasons))
            out[f"{Path(path).stem}#{i}"] = hashlib.sha256(text.encode()).hexdigest()
    return out


_CHILD = r"""
import json, sys
import z3.z3
sys.path.insert(0, sys.argv[1])
from test_spec_z3space import _records
out = _records(json.loads(sys.argv[2]))
print(json.dumps({"records": out, "main_ctx_created": z3.z3._main_ctx is not None}))
"""


def test_generation_never_touches_z3s_main_context() -> None:
    paths = _specs()
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, str(Path(__file__).parent), json.dumps(paths)],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    child = json.loads(res.stdout.strip().splitlines()[-1])
    assert child["main_ctx_created"] is False
    before = z3.main_ctx()
    mine = z3.Int("mine")  # a caller's term in the main context
    assert _records(paths) == child["records"]
    assert z3.main_ctx() is before
    assert mine.ctx is before
    s = z3.Solver()
    s.add(mine == 3)
    assert s.check() == z3.sat and s.model()[mine].as_long() == 3


def test_space_binds_the_spec_namespace_to_its_context() -> None:
    space = Z3Space()
    ns = space.exports
    ctx = space.ctx
    # constructors, and operators given only Python values, land in the space's context
    made = [
        ns["Int"]("x"),
        ns["IntVal"](3),
        ns["BoolVal"](True),
        ns["And"](True, False),
        ns["Or"]([]),
        ns["Not"](True),
        ns["If"](True, 1, 2),
        ns["Implies"](False, True),
        ns["Reals"]("a b")[1],
        ns["IntSort"](),
    ]
    assert all(t.ctx is ctx for t in made)
    # a term of another context keeps its own (z3's rule: the arguments' context wins)
    other = z3.Context()
    p = z3.Bool("p", other)
    assert ns["Not"](p).ctx is other and ns["And"](p, p).ctx is other
    # the symbol cache gives the same constant for the same name and type
    assert space.symbol("v", "int") is space.symbol("v", "int")
    assert space.symbol("v", "int").ctx is ctx


def test_symbol_constants_are_the_ones_z3py_makes() -> None:
    """The direct-call Bool/Int constants are z3py's constants: same AST, class, sort."""
    from puzzleforge.spec.fastint import FastInt
    from puzzleforge.spec.z3space import make_constant

    space = Z3Space()
    for name, type_name in (("num_张伟_a", "int"), ("x", "enum"), ("b_1", "bool"), ("k", "Int")):
        got = space.symbol(name, type_name)
        ref = make_constant(name, type_name, space.ctx)
        assert got.eq(ref)
        assert type(got) is type(ref)
        assert got.get_id() == ref.get_id() == got._pf_id
        assert got.sort().kind() == ref.sort().kind() == got._pf_sort_kind
        assert got.ctx is space.ctx
    assert type(space.symbol("y", "int")) is FastInt
    assert (space.symbol("y", "int") + 1).eq(z3.Int("y", space.ctx) + 1)
    assert space.symbol("r", "real").sort() == z3.RealSort(space.ctx)  # other types: z3py
