"""What a spec family holds in memory between calls (issue 16 item 4: peak memory).

A Z3 context costs about 17 MB of RSS. A ``generate`` call that gives no puzzle must
free its fresh context (post_generation specs get one per call) when its exception is
dropped, without waiting for a GC pass: its exception's traceback and the failures it
reports used to form reference cycles with the retry loop's frame, so the context of a
rejected call lived on next to the next call's. Checked with the cyclic GC switched off.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.z3space import _MAX_SYMBOLS, Z3Space

ROOT = Path(__file__).resolve().parents[2]
WINE = ROOT / "examples" / "specs" / "wine_merchant.yaml"

#: conditions added before ``post_generation:`` so that every attempt is rejected
NEVER = {
    # contradicts wine_volume_domain: "no solution"
    "no-solution": "  never:\n    formula: wine_s.get('volume')[0] < 0\n",
    # an expression error in every attempt: "error in conditions.never.formula"
    "expression-error": "  never:\n    formula: 1 // (wine_num - wine_num) == 0\n",
}


def _live_spaces() -> int:
    return sum(isinstance(o, Z3Space) for o in gc.get_objects())


@pytest.mark.parametrize("kind", sorted(NEVER))
def test_a_call_without_a_puzzle_frees_its_fresh_context(tmp_path: Path, kind: str) -> None:
    text = WINE.read_text(encoding="utf-8")
    assert "\npost_generation:" in text
    spec = tmp_path / "never.yaml"
    spec.write_text(text.replace("\npost_generation:", "\n" + NEVER[kind] + "post_generation:"))
    fam = load_spec_family(spec, trust=True)
    gc.collect()
    before = _live_spaces()
    gc.disable()
    try:
        for seed in range(3):
            try:
                fam.generate(SpecParams(attempts=2), make_rng(seed))
            except GenerationFailed as exc:
                reasons = set(exc.reasons)
            else:
                raise AssertionError("the spec made a puzzle")
            assert reasons == (
                {"no solution"} if kind == "no-solution" else {"error in conditions.never.formula"}
            )
            assert _live_spaces() == before
    finally:
        gc.enable()


def test_the_symbol_cache_is_bounded() -> None:
    space = Z3Space()
    for i in range(_MAX_SYMBOLS + 10):
        space.symbol(f"s{i}", "int")
    assert len(space._symbols) == 10
    assert space.symbol("s5", "int").eq(space.symbol("s5", "int"))
