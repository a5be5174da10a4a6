"""The 7 corpus puzzles, converted to puzzle files, solve to their published solutions
with the stated solution counts (Prime: 2 arithmetic solutions, both reported)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from puzzleforge.crossnumber.api import bundled_dir
from puzzleforge.crossnumber.model import load_model
from puzzleforge.crossnumber.solver import check_grid, solve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "crossnumber"
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

# converted file -> corpus file
PAIRS = {
    "abcd.yaml": "pohara60_abcd.yaml",
    "chessboard.yaml": "pohara60_chessboard.yaml",
    "cubesandwich.yaml": "pohara60_cubesandwich.yaml",
    "dicenets.yaml": "pohara60_dicenets.yaml",
    "no21.yaml": "listener4777_no21.yaml",
    "powerplay.yaml": "pohara60_powerplay.yaml",
    "prime.yaml": "pohara60_prime.yaml",
}


def _norm(rows):
    return [" ".join(str(r).split()) if " " in str(r).strip() else str(r) for r in rows]


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_corpus_puzzle_solves_to_published_solution(name: str) -> None:
    model = load_model(EXAMPLES / name)
    result = solve(model, limit=10, time_limit=120)
    assert result.complete, f"{name}: search did not finish"
    assert result.count == model.expect["solutions"]
    multi = model.rules.cell_values is not None
    found = [s.rows(model, " " if multi else "") for s in result.solutions]
    assert _norm(model.expect["rows"]) in found
    if "other_rows" in model.expect:
        assert _norm(model.expect["other_rows"]) in found
    if "variables" in model.expect:
        assert result.solutions[0].variables == model.expect["variables"]


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_fixture_agrees_with_corpus_transcription(name: str) -> None:
    path = CORPUS / "crossnumber" / PAIRS[name]
    if not path.exists():
        pytest.skip(f"corpus folder missing: {path} (../shared/corpus not present)")
    corpus = yaml.safe_load(path.read_text(encoding="utf-8"))
    model = load_model(EXAMPLES / name)
    assert _norm(corpus["solution"]["rows"]) == _norm(model.expect["rows"])
    assert corpus["expected_solution_count"] == model.expect["solutions"]
    # the grid parser derives exactly the corpus' entries
    for ename, e in (corpus.get("entries") or {}).items():
        ours = model.entries[ename]
        assert ours.cells[0] == (e["row"], e["col"]) and ours.length == e["length"], ename
    assert set(model.entries) == set(corpus["entries"])


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_bundled_copy_matches_example(name: str) -> None:
    assert (bundled_dir() / name).read_text() == (EXAMPLES / name).read_text()


def test_published_grid_checks_and_a_wrong_one_does_not() -> None:
    model = load_model(EXAMPLES / "abcd.yaml")
    rows = list(model.expect["rows"])
    assert check_grid(model, rows) is not None
    rows[2] = "014235"
    assert check_grid(model, rows) is None


def test_no21_maps_clues_to_entries_as_published() -> None:
    model = load_model(EXAMPLES / "no21.yaml")
    corpus_path = CORPUS / "crossnumber" / "listener4777_no21.yaml"
    result = solve(model, limit=2, time_limit=120)
    assert result.unique
    mapping = result.solutions[0].mapping
    assert mapping["A1"] == "A22" and mapping["A19"] == "A15" and mapping["D34"] == "D4"
    if corpus_path.exists():
        corpus = yaml.safe_load(corpus_path.read_text(encoding="utf-8"))
        for item in corpus["clues"]:
            assert mapping[item["clue"]] == item["entry"]
            assert result.solutions[0].values[item["clue"]] == item["value"]


def test_prime_endgame_hook_selects_the_intended_grid() -> None:
    model = load_model(EXAMPLES / "prime_endgame.yaml")
    result = solve(model, limit=10, time_limit=120)
    assert result.unique
    assert result.solutions[0].rows(model) == model.expect["rows"]


def test_every_bundled_puzzle_is_an_example() -> None:
    bundled = sorted(p.name for p in bundled_dir().glob("*.yaml"))
    assert bundled == sorted(p.name for p in EXAMPLES.glob("*.yaml"))
    for name in bundled:
        assert (bundled_dir() / name).read_text() == (EXAMPLES / name).read_text()
