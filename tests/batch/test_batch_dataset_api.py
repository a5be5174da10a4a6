"""The Python dataset API and ``puzzleforge score``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import puzzleforge
import puzzleforge.batch
from puzzleforge.batch import BatchJob, Component, run_batch


def test_create_dataset_is_sized_indexable_iterable_and_matches_batch(tmp_path: Path) -> None:
    ds = puzzleforge.create_dataset("latin", size=8, seed=3, n=4)
    assert len(ds) == 8
    items = list(ds)
    assert len(items) == 8 and all(set(x) == {"question", "answer", "metadata"} for x in items)
    assert ds[-1] == items[7] and ds[2:4] == items[2:4]
    assert ds[5]["metadata"]["source_index"] == 5
    with pytest.raises(IndexError):
        ds[8]
    again = puzzleforge.create_dataset("latin", size=8, seed=3, n=4)
    assert [x["answer"] for x in again] == [x["answer"] for x in items]
    run_batch(BatchJob((Component("latin", 8, {"n": 4}),), seed=3), tmp_path / "b.jsonl", workers=1)
    batch = [json.loads(x) for x in (tmp_path / "b.jsonl").read_text().splitlines()]
    if all(r["meta"]["index"] == i for i, r in enumerate(batch)):  # no duplicate replaced
        assert [r["question"] for r in batch] == [x["question"] for x in items]
        assert [r["id"] for r in batch] == [x["metadata"]["id"] for x in items]


def test_score_answer_is_tolerant_and_gives_partial_credit() -> None:
    ds = puzzleforge.create_dataset("latin", size=2, seed=9, n=4)
    entry = ds[0]
    assert puzzleforge.score_answer(entry["answer"], entry) == 1.0
    messy = "Here you go:\n" + entry["answer"].replace(" ", ", ").replace("\n", " | ")
    assert puzzleforge.score_answer(messy, entry) == 1.0
    rows = entry["answer"].split("\n")
    swapped = "\n".join([rows[1], rows[0], *rows[2:]])
    assert 0.0 < puzzleforge.score_answer(swapped, entry) < 1.0
    assert puzzleforge.score_answer("no idea", entry) == 0.0
    assert puzzleforge.score_answer(None, entry) == 0.0
    assert ds.score_answer(entry["answer"], entry) == 1.0
    assert "latin" in puzzleforge.list_datasets()


def test_score_command_reports_per_family_and_tier(tmp_path: Path) -> None:
    recipe = tmp_path / "mix.yaml"
    recipe.write_text(
        "components:\n  - family: latin\n    tiers:\n"
        "      easy: {count: 6, params: {n: 4}}\n"
        "      hard: {count: 4, params: {n: 6}}\n"
    )
    run_batch(puzzleforge.batch.load_recipe(recipe, seed=2), tmp_path / "d.jsonl", workers=1)
    records = [json.loads(x) for x in (tmp_path / "d.jsonl").read_text().splitlines()]
    answers = []
    for r in records:
        if r["meta"]["tier"] == "easy":
            answers.append({"id": r["id"], "answer": r["answer"]})  # all easy right
        elif len(answers) < 8:
            rows = r["answer"].split("\n")
            answers.append({"id": r["id"], "response": "\n".join([rows[1], rows[0], *rows[2:]])})
    answers.append({"id": "not-in-dataset", "answer": "1"})
    answers_path = tmp_path / "model.jsonl"
    answers_path.write_text("\n".join(json.dumps(a) for a in reversed(answers)) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", "score", "d.jsonl", "model.jsonl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "model.scores.json").read_text())
    assert report["by_tier"]["easy"] == {"n": 6, "correct": 6, "accuracy": 1.0, "mean_score": 1.0}
    hard = report["by_tier"]["hard"]
    assert hard["n"] == 4 and hard["correct"] == 0 and 0 < hard["mean_score"] < 1
    assert report["overall"]["correct"] == 6 and report["by_family"]["latin"]["n"] == 10
    assert report["missing_answers"] == 2 and report["answers_with_unknown_id"] == 1
    assert "easy" in done.stdout and "mean score" in done.stdout
    printed = subprocess.run(
        [
            sys.executable,
            "-m",
            "puzzleforge.cli.main",
            "score",
            "d.jsonl",
            "model.jsonl",
            "--json",
            "-",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout[printed.stdout.index("\n{") + 1 :]) == report


def test_family_parameters_in_config_cannot_collide_with_dataset_arguments() -> None:
    ds = puzzleforge.create_dataset("unruly", size=2, seed=1, config={"size": "8x8"})
    assert len(ds) == 2
    rows = ds[0]["answer"].splitlines()
    assert (len(rows), len(rows[0])) == (8, 8)


def test_a_parameter_given_twice_is_an_error() -> None:
    from puzzleforge.core.errors import ConfigError

    with pytest.raises(ConfigError, match="given both in config= and as keywords"):
        puzzleforge.create_dataset("latin", size=1, seed=1, config={"n": 4}, n=5)
