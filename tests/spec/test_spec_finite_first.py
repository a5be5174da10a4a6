"""The finite evaluator before the pre-check (spec/model.py ``_finite_decides``).

A model the exhaustive finite evaluator takes is decided by it at solving time anyway, so
the bit-blasting pre-check is not run for it: an attempt without solutions is rejected by
the evaluation itself ("no solution", as the pre-check would), and the walk is reused by
the solving stage. The puzzles must be exactly those made with the mechanism switched
off (the pre-check and the solving decide the same sets; only the route differs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec import model
from puzzleforge.spec.family import load_spec_family

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"

CONTRADICTIONS = """\
variables:
  n:
    type: int
    domain: "[3, 5]"
  k:
    type: int
    domain: "[0, 12]"
symbols:
  x:
    source:
    - list(range(n))
    type: int
conditions:
  bounds:
    formula: And([And(v >= 0, v <= 3) for v in x])
  total:
    formula: Abs(Sum([v for v in x])) == k  # Abs has no Term version: a Z3 model
  order:
    formula: And([x[i] < x[i + 1] for i in range(n - 1)])
queries:
  q1:
    desc: x0?
    ans_formula: get_value(_solutions[0], x[0])
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "{q1}"
"""


def _puzzles(path: Path, n: int) -> tuple[list[tuple], list[int], dict]:
    fam = load_spec_family(path, trust=True)
    out, attempts = [], []
    for i in range(n):
        a = 0
        while True:
            try:
                p = fam.generate(fam.Params(attempts=1), make_rng(derive_seed(3, fam.name, i, a)))
                break
            except GenerationFailed:
                a += 1
                assert a < 300, f"{path.name}: no puzzle for item {i} in 300 attempts"
        out.append((p.id, p.question, p.answer))
        attempts.append(a)
    return out, attempts, fam._lambda_cache


def _both_ways(path: Path, n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, dict]:
    on, on_att, on_cache = _puzzles(path, n)
    with monkeypatch.context() as m:
        m.setattr(model, "_finite_decides", lambda a: False)
        off, off_att, off_cache = _puzzles(path, n)
    assert on == off
    assert on_att == off_att
    return on_cache, off_cache


def test_contradictions_are_rejected_by_the_evaluation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "order.yaml"
    spec.write_text(CONTRADICTIONS, encoding="utf-8")
    on, off = _both_ways(spec, 8, monkeypatch)
    tries, decided = on[model._FINITE_KEY]
    assert decided == tries > 0  # every model was small enough for the evaluator
    # with it, the bit-blasting pre-check never ran; without it, it ran and found
    # contradictions (k out of reach of strictly increasing values)
    assert on.get(model._PRECHECK_KEY, [0, 0]) == [0, 0]
    assert off[model._PRECHECK_KEY][1] > 0


@pytest.mark.parametrize("stem", ["14-hunting", "8-stone", "34-roommate"])
def test_corpus_puzzles_unchanged(stem: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = CORPUS / f"{stem}.yaml"
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared corpus lives in ../shared)")
    on, _ = _both_ways(path, 3, monkeypatch)
    if stem == "34-roommate":  # its term model is decided by SAT (spec/termsat.py): never
        assert model._FINITE_KEY not in on  # a Z3 model to offer
        return
    tries, decided = on[model._FINITE_KEY]
    assert decided > 0
