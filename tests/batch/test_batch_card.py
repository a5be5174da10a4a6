"""The dataset card: Hugging Face loads the folder by it, it is the same in any checkout,
its command remakes the records, and a user's own README.md is never overwritten."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import datasets

CLI = [sys.executable, "-m", "puzzleforge.cli.main"]
RECIPE = (
    "seed: 4\nsplits: {train: 0.75, test: 0.25}\ncomponents:\n  - family: latin\n"
    "    tiers:\n      easy: {weight: 1, params: {n: 4}}\n"
    "      medium: {weight: 1, params: {n: 5}}\n"
)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_parquet_card_loads_with_datasets_and_is_portable(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # local files only, never the Hub
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    cards = []
    for checkout in ("a", "b"):
        where = tmp_path / checkout
        where.mkdir()
        (where / "mix.yaml").write_text(RECIPE)
        _run(
            ["generate", "mix.yaml", "-n", "24", "--format", "parquet", "--out", "mix", "-q"], where
        )
        cards.append((where / "mix" / "README.md").read_bytes())
    assert cards[0] == cards[1]
    # a cache of its own: the test writes only under tmp, and no earlier build is reused
    loaded = datasets.load_dataset(str(tmp_path / "a" / "mix"), cache_dir=str(tmp_path / "hf"))
    summary = (tmp_path / "a" / "mix.summary.json").read_text()
    for split, rows in loaded.items():
        assert f'"{split}": {rows.num_rows}' in summary
    assert sum(rows.num_rows for rows in loaded.values()) == 24
    card = cards[0].decode()
    assert card.startswith("---\npretty_name: mix\n") and "dataset_info:" in card


def test_the_cards_command_remakes_the_records(tmp_path: Path) -> None:
    first = tmp_path / "first"
    first.mkdir()
    _run(
        ["generate", "latin", "-n", "5", "--seed", "9", "-p", "n=5", "--out", "latin.jsonl", "-q"],
        first,
    )
    card = (first / "README.md").read_text()
    command = re.search(r"^\$ (puzzleforge generate .*)$", card, re.M).group(1)
    words = shlex.split(command)[1:]
    again = tmp_path / "again"
    again.mkdir()
    _run([*words, "--out", "latin.jsonl", "-q"], again)
    assert (again / "latin.jsonl").read_bytes() == (first / "latin.jsonl").read_bytes()
    assert "split: train\n    path: latin.jsonl" in card


def test_a_users_readme_is_kept(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("my notes\n")
    _run(["generate", "latin", "-n", "2", "--out", "latin.jsonl", "-q"], tmp_path)
    assert (tmp_path / "README.md").read_text() == "my notes\n"
    assert "path: latin.jsonl" in (tmp_path / "latin.README.md").read_text()
