"""ZebraLogic style (issue 22, item 3): records that a scorer written to ZeroEval's
published grid-mode checks accepts as they are, the multiple-choice mode, houses in a
row with "House" first, ZebraLogic's clue kinds (incl. two-between) and a created_at
derived from the seed."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest
from typer.testing import CliRunner
from zeroeval_scorer import answer_output, grid_score, mc_score  # noqa: E402

import puzzleforge
from puzzleforge.cli.main import app
from puzzleforge.core.errors import ConfigError
from puzzleforge.zebra import load, verify
from puzzleforge.zebra.text import clue_text
from puzzleforge.zebra.zebralogic import record as zl_record

GRID_FIELDS = {"id", "size", "puzzle", "solution", "created_at"}
MC_FIELDS = {"id", "puzzle", "question", "choices", "answer", "created_at"}

#: One pattern per ZebraLogic clue shape this style writes ("R" = a person reference).
R = (
    r"(?:[A-Z][\w' .-]*?|[Tt]he person whose .+? is .+?|[Tt]he person in the \w+ "
    r"house)"
)
SHAPES = [
    rf"^{R} lives in the \w+ house\.$",
    rf"^{R} is {R}\.$",
    rf"^{R} does not live in the \w+ house\.$",
    rf"^{R} lives in neither the \w+ nor the \w+ house\.$",
    rf"^{R} lives in none of the .+ houses\.$",
    rf"^{R} is not {R}\.$",
    rf"^{R} is neither {R} nor {R}\.$",
    rf"^{R} is none of .+\.$",
    rf"^{R} lives directly (?:left|right) of {R}\.$",
    rf"^{R} lives somewhere to the (?:left|right) of {R}\.$",
    rf"^{R} and {R} live next to each other\.$",
    rf"^There is one house between {R} and {R}\.$",
    rf"^There are two houses between {R} and {R}\.$",
]
ZL_RELATIONS = {"left1", "right1", "left", "right", "nextto", "onebetween", "twobetween"}


def _grid(seed: int, K: int, k: int):
    return puzzleforge.generate("zebra", seed=seed, K=K, k=k, style="zebralogic")


@pytest.mark.parametrize("K,k", [(3, 3), (3, 5), (4, 4), (4, 6), (5, 5)])
def test_grid_records_pass_the_zeroeval_checks(K: int, k: int) -> None:
    for seed in range(2):
        p = _grid(seed, K, k)
        rec = p.to_record()
        assert set(rec) >= GRID_FIELDS
        assert rec["size"] == f"{k}*{K - 1}"
        sol = rec["solution"]
        assert sol["header"][0] == "House" and len(sol["header"]) == K
        assert [row[0] for row in sol["rows"]] == [str(h) for h in range(1, k + 1)]
        assert p.meta["certificate"]["unique"] and p.meta["certificate"]["all_clues_necessary"]
        # a right answer in ZeroEval's format: solved, every cell counted
        right = answer_output(rec)
        result = grid_score(rec, right)
        assert result == {
            "size": f"{k}*{K - 1}",
            "cells": k * (K - 1),
            "correct": k * (K - 1),
            "solved": True,
            "answered": True,
        }
        assert verify(p, right) == 1.0
        # swap two houses' values in one column: two cells wrong
        wrong = json.loads(right[right.index("{") :])
        col = sol["header"][1]
        h1, h2 = wrong["solution"]["House 1"], wrong["solution"]["House 2"]
        h1[col], h2[col] = h2[col], h1[col]
        result = grid_score(rec, json.dumps(wrong))
        assert result["correct"] == k * (K - 1) - 2 and not result["solved"]
        assert verify(p, json.dumps(wrong)) == pytest.approx(1 - 2 / (k * (K - 1)))
        # the ZebraLogic record alone carries exactly its fields and scores the same
        alone = zl_record(load(p), p.id, p.answer)
        assert set(alone) == GRID_FIELDS and alone["solution"] == rec["solution"]
        assert grid_score(alone, right)["solved"]


def test_created_at_is_derived_from_the_seed() -> None:
    a, b, c = _grid(7, 3, 4), _grid(7, 3, 4), _grid(8, 3, 4)
    assert a.to_json() == b.to_json()
    assert a.extra["created_at"] != c.extra["created_at"]
    stamp = datetime.fromisoformat(a.extra["created_at"])
    assert datetime(2024, 7, 1) <= stamp < datetime(2025, 7, 1)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}", a.extra["created_at"])


def test_clues_are_zebralogic_kinds_in_zebralogic_words() -> None:
    rels: set[str] = set()
    for seed in range(12):
        p = _grid(seed, 4, 5)
        zp = load(p)
        assert "**" not in p.question
        for clue in zp.clues:
            assert clue.kind in ("pair", "not", "pos", "nextto"), clue
            if clue.kind in ("pos", "nextto"):
                assert clue.rel in ZL_RELATIONS and clue.cat == 0
                rels.add(clue.rel)
            sentence = clue_text(zp, clue)
            assert any(re.match(s, sentence) for s in SHAPES), sentence
            assert f"{clue.cid}. {sentence}" in p.extra["puzzle"]
    assert "twobetween" in rels and "onebetween" in rels


def test_multiple_choice_mode() -> None:
    for seed in range(4):
        p = puzzleforge.generate("zebra", seed=seed, K=3, k=4, style="zebralogic", question="mc")
        zp = load(p)
        rec = zl_record(zp, p.id, p.answer)
        assert set(rec) == MC_FIELDS
        assert rec["answer"] in rec["choices"] and sorted(rec["choices"]) == sorted(
            zp.categories[zp.question["cat"]].items
        )
        letter = "ABCD"[rec["choices"].index(rec["answer"])]
        other = next(x for x in "ABCD" if x != letter)
        assert mc_score(rec, json.dumps({"reasoning": "...", "answer": letter}))
        assert not mc_score(rec, json.dumps({"reasoning": "...", "answer": other}))
        assert verify(p, f"### Answer: ({letter}) {rec['answer']}") == 1.0
        assert verify(p, f"### Answer: ({other})") == 0.0
        assert verify(p, rec["answer"]) == 1.0
        assert rec["question"] in p.question and f"- ({letter}) {rec['answer']}" in p.question


def test_zebralogic_is_english_only() -> None:
    with pytest.raises(ConfigError, match="English only"):
        puzzleforge.generate("zebra", seed=1, style="zebralogic", lang="pl")


def test_cli_prints_the_zebralogic_record() -> None:
    out = CliRunner().invoke(
        app,
        [
            "zebra",
            "generate",
            "--style",
            "zebralogic",
            "--format",
            "zebralogic",
            "-K",
            "3",
            "-k",
            "4",
            "--seed",
            "3",
        ],
    )
    assert out.exit_code == 0, out.output
    rec = json.loads(out.output)
    assert set(rec) == GRID_FIELDS
    assert grid_score(rec, answer_output(rec))["solved"]
    out = CliRunner().invoke(app, ["zebra", "generate", "--format", "zebralogic"])
    assert out.exit_code != 0 and "--style zebralogic" in out.output


def test_a_zebralogic_dataset_file_passes_the_scorer(tmp_path) -> None:
    """Issue 22's "Done when": a ZebraLogic-style *file*, written by the batch command,
    passes the ZeroEval-style scorer line by line (right answers solved, a wrong one not)."""
    out = tmp_path / "zl.jsonl"
    res = CliRunner().invoke(
        app,
        [
            "generate",
            "zebra",
            "-n",
            "3",
            "--param",
            "style=zebralogic",
            "--param",
            "K=4",
            "--param",
            "k=4",
            "-o",
            str(out),
            "-w",
            "1",
            "-q",
        ],
    )
    assert res.exit_code == 0, res.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 3
    for rec in records:
        assert set(rec) >= GRID_FIELDS and rec["size"] == "4*3"
        assert grid_score(rec, answer_output(rec)) == {
            "size": "4*3",
            "cells": 12,
            "correct": 12,
            "solved": True,
            "answered": True,
        }
        assert not grid_score(rec, '{"solution": {}}')["solved"]
