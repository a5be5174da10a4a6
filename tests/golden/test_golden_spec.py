"""Every PuzzleClone corpus spec still gives its pinned puzzles for its first recorded
seeds (tests/golden/golden.py says why; ``make golden`` re-records on purpose). Skips
only when ../shared/corpus is absent."""

from __future__ import annotations

import pytest

from golden import CORPUS, SPEC_RECORDS, load, spec_entries, spec_seeds

PINNED = load(SPEC_RECORDS)


@pytest.fixture(scope="module")
def corpus_seeds() -> dict[str, list[int]]:
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS} (clone the project beside ../shared)")
    return spec_seeds()


def test_every_corpus_spec_with_recorded_seeds_is_pinned(corpus_seeds) -> None:
    assert sorted(PINNED) == sorted(corpus_seeds)
    for stem, entries in PINNED.items():
        assert [e["seed"] for e in entries] == corpus_seeds[stem][: len(entries)]


@pytest.mark.parametrize("stem", sorted(PINNED))
def test_spec_gives_its_golden_records(corpus_seeds, stem: str) -> None:
    seeds = [e["seed"] for e in PINNED[stem]]
    assert spec_entries(stem, seeds) == PINNED[stem], (
        f"{stem} drifted from tests/golden/spec_corpus.json; if the change of puzzles is "
        "intended, run `make golden` and review the diff"
    )
