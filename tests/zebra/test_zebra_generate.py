"""Generated puzzles: unique by the exact solver, every clue necessary, solved by the
deduction engine, deterministic, fast with default params, difficulty targeted."""

from __future__ import annotations

import pytest

import puzzleforge
from puzzleforge.core.registry import get_family
from puzzleforge.zebra import explain, load
from puzzleforge.zebra.audit import audit_zebra
from puzzleforge.zebra.engine import Engine
from puzzleforge.zebra.exact import ExactChecker


@pytest.mark.parametrize(
    "K,k,lang",
    [
        (3, 4, "en"),
        (4, 4, "en"),
        (4, 5, "pl"),
        (3, 6, "en"),
        (5, 4, "pl"),
        (3, 8, "en"),
        (8, 3, "pl"),
    ],
)
def test_generated_puzzles_are_certified_and_engine_solved(K: int, k: int, lang: str) -> None:
    for seed in range(3):
        p = puzzleforge.generate("zebra", seed=seed, K=K, k=k, lang=lang)
        zp = load(p)
        assert p.meta["certificate"]["unique"] and p.meta["certificate"]["all_clues_necessary"]
        # independent re-check with a fresh SAT session: exactly one solution
        checker = ExactChecker(K, k)
        for n, clue in enumerate(zp.clues):
            checker.add_clue(clue, n)
        sols = checker.solutions(list(range(len(zp.clues))), limit=3)
        checker.close()
        assert sols == [zp.solution]
        out = Engine(K, k, zp.clues).run(guessing=True)
        assert out.solved and out.solution() == zp.solution
        assert audit_zebra(zp) == []
        assert puzzleforge.verify(p, p.answer) == 1.0


def test_same_seed_gives_byte_identical_output() -> None:
    for seed in (0, 7):
        a = puzzleforge.generate("zebra", seed=seed, K=4, k=4, lang="pl")
        b = puzzleforge.generate("zebra", seed=seed, K=4, k=4, lang="pl")
        assert a.to_json() == b.to_json()
    assert (
        puzzleforge.generate("zebra", seed=1).to_json()
        != puzzleforge.generate("zebra", seed=2).to_json()
    )
    from puzzleforge.zebra import pdf_sheet, pdf_solution, svg_grid

    a, b = (puzzleforge.generate("zebra", seed=5, K=4, k=4, lang="pl") for _ in range(2))
    assert pdf_sheet(a) == pdf_sheet(b) and pdf_solution(a) == pdf_solution(b)
    assert svg_grid(a) == svg_grid(b)


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_difficulty_is_targeted(tier: str) -> None:
    p = puzzleforge.generate("zebra", seed=3, K=4, k=4, difficulty=tier)
    assert p.meta["tier"] == tier
    assert p.meta["zebra"]["rating"]["tier"] == tier


def test_cell_question_and_explained_steps() -> None:
    p = puzzleforge.generate("zebra", seed=4, K=4, k=4, question="cell")
    zp = load(p)
    assert zp.question["kind"] == "cell" and "?" in p.question
    assert puzzleforge.verify(p, p.answer) == 1.0
    assert puzzleforge.verify(p, f"The answer is **{p.answer}**.") == 1.0
    steps = explain(p)
    assert steps and all({"rule", "clues", "used", "marks", "text"} <= set(s) for s in steps)
    for s in steps:
        if s["rule"] == "clue":
            assert len(s["clues"]) == 1
        if s["rule"] in ("rule1", "rule2", "rule3", "rule4"):
            assert s["used"], s
    # replaying the marks of the steps gives the solution
    marks = {}
    for s in steps:
        for m in s["marks"]:
            marks[tuple(m["cell"])] = m["mark"]
    for (c1, i1, c2, i2), mark in marks.items():
        e = zp.solution[c1].index(i1)
        assert (zp.solution[c2][e] == i2) == (mark == "o")


def test_audit_of_the_family_and_bad_params() -> None:
    fam = get_family("zebra")
    p = puzzleforge.generate("zebra", seed=2)
    assert fam.audit(p) == []
    from puzzleforge.core.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        puzzleforge.generate("zebra", seed=0, K=9, k=2)
    assert "K=9" in str(err.value) and "k=2" in str(err.value)
