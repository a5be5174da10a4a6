"""Recipes with tiers and splits; Parquet shards; loading both formats with HF ``datasets``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzleforge.batch import load_recipe, run_batch
from puzzleforge.batch.sinks import iter_records, write_parquet
from puzzleforge.batch.verify import verify_file
from puzzleforge.core.errors import ConfigError, GenerationFailed, InvalidSpec

RECIPE = """\
name: latin-mix
seed: 21
splits: {train: 0.75, test: 0.25}
components:
  - family: latin
    tiers:
      easy: {weight: 3, params: {n: 4}}
      medium: {weight: 2, params: {n: 5}}
  - family: latin
    name: big
    tier: hard
    weight: 1
    params: {n: 6}
"""


def test_recipe_mixture_with_splits_jsonl(tmp_path: Path) -> None:
    recipe = tmp_path / "mix.yaml"
    recipe.write_text(RECIPE)
    job = load_recipe(recipe, n=60)
    assert [c.count for c in job.components] == [30, 20, 10]
    assert [c.name for c in job.components] == ["latin-easy", "latin-medium", "big"]
    summary = run_batch(job, tmp_path / "mix.jsonl", workers=2)
    records = [json.loads(x) for x in (tmp_path / "mix.jsonl").read_text().splitlines()]
    assert len(records) == 60 and len({r["question"] for r in records}) == 60
    tiers = [r["meta"]["tier"] for r in records]
    assert tiers.count("easy") == 30 and tiers.count("medium") == 20 and tiers.count("hard") == 10
    assert {r["meta"]["recipe"] for r in records} == {"mix.yaml"}
    train = (tmp_path / "mix.train.jsonl").read_text().splitlines()
    test = (tmp_path / "mix.test.jsonl").read_text().splitlines()
    assert len(train) + len(test) == 60 and train and test
    assert summary.per_split == {"train": len(train), "test": len(test)}
    # the split is a function of the puzzle: regenerating lands every puzzle in its split
    again = run_batch(load_recipe(recipe, n=60), tmp_path / "again.jsonl", workers=1)
    assert (tmp_path / "again.jsonl").read_bytes() == (tmp_path / "mix.jsonl").read_bytes()
    assert again.per_split == summary.per_split
    assert not (
        {json.loads(x)["question"] for x in train} & {json.loads(x)["question"] for x in test}
    )
    assert verify_file(tmp_path / "mix.jsonl", workers=1, audit=False).wrong == []


def test_recipe_errors_name_the_field(tmp_path: Path) -> None:
    recipe = tmp_path / "bad.yaml"
    recipe.write_text("components:\n  - family: latin\n    cout: 3\n  - tiers: {}\n")
    with pytest.raises(InvalidSpec) as err:
        load_recipe(recipe)
    text = str(err.value)
    assert "bad.yaml" in text and "components[0]: unknown key 'cout'" in text
    assert "components[1].family is missing" in text


def test_parquet_shards_roundtrip_and_verify(tmp_path: Path) -> None:
    recipe = tmp_path / "mix.yaml"
    recipe.write_text(RECIPE)
    summary = run_batch(load_recipe(recipe, n=24), tmp_path / "pq", fmt="parquet", workers=1)
    shards = sorted(p.name for p in (tmp_path / "pq").glob("*.parquet"))
    assert any(s.startswith("train-") for s in shards) and any(
        s.startswith("test-") for s in shards
    )
    assert summary.files and all(Path(f).suffix == ".parquet" for f in summary.files)
    jsonl = [json.loads(x) for x in (tmp_path / "pq.journal.jsonl").read_text().splitlines()]
    back = [r for _, r in iter_records(tmp_path / "pq")]
    assert sorted(json.dumps(r, sort_keys=True) for r in back) == sorted(
        json.dumps(r, sort_keys=True) for r in jsonl
    )
    assert verify_file(tmp_path / "pq", workers=1, audit=False).checked == 24


def test_huggingface_datasets_loads_jsonl_and_parquet(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # local files only, never the Hub
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    import datasets  # the hf test extra, imported after the offline settings above

    recipe = tmp_path / "mix.yaml"
    recipe.write_text(RECIPE)
    run_batch(load_recipe(recipe, n=24), tmp_path / "pq", fmt="parquet", workers=1)
    run_batch(load_recipe(recipe, n=24), tmp_path / "mix.jsonl", workers=1)
    cache = str(tmp_path / "hf-cache")
    parquet = datasets.load_dataset(str(tmp_path / "pq"), cache_dir=cache)
    assert set(parquet) == {"train", "test"}
    assert parquet["train"].num_rows + parquet["test"].num_rows == 24
    row = parquet["train"][0]
    assert json.loads(row["meta"])["split"] == "train" and row["question"] and row["answer"]
    jsonl = datasets.load_dataset(
        "json",
        cache_dir=cache,
        data_files={
            "train": str(tmp_path / "mix.train.jsonl"),
            "test": str(tmp_path / "mix.test.jsonl"),
        },
    )
    assert jsonl["train"].num_rows == parquet["train"].num_rows
    assert sorted(jsonl["test"]["id"]) == sorted(parquet["test"]["id"])
    # many shards per split (rows of several tiers, metadata of varying keys) load together
    shards = write_parquet(tmp_path / "pq.journal.jsonl", tmp_path / "many", rows_per_shard=5)
    assert len(shards) >= 4 and any("-00001-of-" in p.name for p in shards)
    many = datasets.load_dataset(str(tmp_path / "many"), cache_dir=cache)
    assert sorted(many["train"]["id"]) == sorted(parquet["train"]["id"])


def test_a_recipe_tier_is_a_target_never_a_label(tmp_path: Path) -> None:
    """Grid genres are asked for the tier through their own difficulty param; every record
    measures in it. A tier a family cannot reach fails with the measured tiers named, and
    no record is relabelled."""
    recipe = tmp_path / "tiers.yaml"
    recipe.write_text(
        "components:\n  - family: unruly\n    tier: easy\n    count: 3\n    params: {size: 6x6}\n"
    )
    run_batch(load_recipe(recipe, seed=5), tmp_path / "t.jsonl", workers=1)
    records = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert [(r["meta"]["tier"], r["params"]["difficulty"]) for r in records] == [
        ("easy", "easy")
    ] * 3
    impossible = tmp_path / "impossible.yaml"
    impossible.write_text(
        "components:\n  - family: latin\n    tier: expert\n    count: 1\n    params: {n: 4}\n"
    )
    with pytest.raises(GenerationFailed, match="came out easy, not expert"):
        run_batch(load_recipe(impossible, seed=5), tmp_path / "i.jsonl", workers=1)
    bad = tmp_path / "bad.yaml"
    bad.write_text("components:\n  - family: latin\n    tier: simple\n    count: 1\n")
    with pytest.raises(
        ConfigError, match="tier 'simple'; expected one of easy, medium, hard, expert"
    ):
        run_batch(load_recipe(bad, seed=5), tmp_path / "b.jsonl", workers=1)
