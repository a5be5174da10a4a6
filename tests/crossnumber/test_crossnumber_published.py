"""Published cross-numbers transcribed from public sources (issue 21 item 1): each file in
``examples/crossnumber/published/`` solves to exactly one grid, equal to the solution the
source publishes (``expect.rows``, copied from the source, not from our solver)."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.crossnumber.model import load_model
from puzzleforge.crossnumber.solver import solve

FOLDER = Path(__file__).resolve().parents[2] / "examples" / "crossnumber" / "published"
FILES = sorted(p.name for p in FOLDER.glob("*.yaml"))


@pytest.mark.parametrize("name", FILES)
def test_published_puzzle_solves_uniquely_to_its_published_solution(name: str) -> None:
    model = load_model(FOLDER / name)
    source = model.raw["source"]
    assert source.get("repo") or source.get("url"), f"{name}: no source recorded"
    assert model.expect["solutions"] == 1
    result = solve(model, limit=2, time_limit=600)
    assert result.complete, f"{name}: search did not finish"
    assert result.count == 1
    multi = model.rules.cell_values is not None
    assert result.solutions[0].rows(model, " " if multi else "") == list(model.expect["rows"])
    if "variables" in model.expect:
        assert result.solutions[0].variables == model.expect["variables"]
