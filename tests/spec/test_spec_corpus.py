"""Every PuzzleClone corpus spec generates verified puzzles (skips when ../shared is absent).

Default run: for each spec, replay every derived seed recorded in data/corpus_seeds.json
(found by find_corpus_seeds.py: up to 20 for specs whose puzzles are cheap, so the test
itself shows 20 verified puzzles for them; 3 for the expensive ones, the hard specs
included) -- each seed is one attempt -- then verify each puzzle, check a wrong answer
scores 0 and that the config replays to the same problem and answer. If a recorded seed
no longer gives a puzzle (the engine changed which attempts succeed), the test searches
onward from it within a time bound.

PUZZLEFORGE_SPEC_CORPUS_N=20 instead searches N puzzles per spec from scratch, exactly as
``puzzleforge spec generate -n 20`` does (slow: minutes per hard spec; see also
bench/spec_corpus_sweep.py).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"
SEEDS_FILE = Path(__file__).resolve().parent / "data" / "corpus_seeds.json"
SEEDS = json.loads(SEEDS_FILE.read_text()) if SEEDS_FILE.exists() else {}
N = int(os.environ.get("PUZZLEFORGE_SPEC_CORPUS_N", "0"))
SPECS = sorted(p.stem for p in CORPUS.glob("*.yaml")) if CORPUS.exists() else ["(corpus missing)"]


def _check(fam, puzzle) -> None:
    assert puzzle.question and puzzle.answer
    assert fam.verify(puzzle, puzzle.answer) == 1.0
    assert fam.verify(puzzle, "Z====Z====Z" if "====" in puzzle.answer else "Z") == 0.0
    assert fam.audit(puzzle) == []


def _search(fam, index: int, start_attempt: int, seconds: float):
    end = time.monotonic() + seconds
    attempt = start_attempt
    reasons: dict = {}
    while time.monotonic() < end:
        try:
            return fam.generate(fam.Params(attempts=1, max_seconds=max(1.0, end - time.monotonic())),
                                make_rng(derive_seed(2026, fam.name, index, attempt))), reasons
        except GenerationFailed as exc:
            for k, v in exc.reasons.items():
                reasons[k] = reasons.get(k, 0) + v
            attempt += 1
    return None, reasons


@pytest.mark.parametrize("stem", SPECS)
def test_corpus_spec_generates_verified_puzzles(stem: str) -> None:
    if not CORPUS.exists():
        pytest.skip(f"corpus folder {CORPUS} is absent (it lives in ../shared beside the repository)")
    from puzzleforge.spec.family import load_spec_family

    fam = load_spec_family(CORPUS / f"{stem}.yaml")
    if N:
        for i in range(N):
            puzzle, reasons = _search(fam, i, 0, 600)
            assert puzzle is not None, f"{stem}: no puzzle {i}; rejections {reasons}"
            _check(fam, puzzle)
        return
    recorded = SEEDS.get(stem, {}).get("seeds", [])
    assert recorded, f"{stem}: no recorded seeds; run tests/spec/find_corpus_seeds.py {stem}"
    for entry in recorded:
        try:
            puzzle = fam.generate(fam.Params(attempts=1), make_rng(entry["seed"]))
        except GenerationFailed:
            puzzle, reasons = _search(fam, entry["index"], entry["attempt"] + 1, 60)
            assert puzzle is not None, f"{stem}: recorded seed failed and no puzzle in 60 s: {reasons}"
        _check(fam, puzzle)
