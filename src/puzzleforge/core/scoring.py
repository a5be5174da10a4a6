"""Score a model's answer for a dataset item or record with its family's ``verify``.

Why in core: scoring reaches the family through the registry only, and the web app,
the CLI and integrations score answers without needing the dataset builder;
``puzzleforge.dataset`` re-exports ``score_answer`` unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .extract import final_answer_candidates
from .puzzle import Puzzle
from .registry import family_for_record

__all__ = ["score_answer", "record_of"]


def record_of(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The Puzzle record inside a dataset item, a record itself, or a Puzzle."""
    if isinstance(entry, Puzzle):
        return entry.to_record()
    if (
        "metadata" in entry
        and isinstance(entry["metadata"], Mapping)
        and "family" in entry["metadata"]
    ):
        record = dict(entry["metadata"])
        record.setdefault("question", entry.get("question", ""))
        record.setdefault("answer", entry.get("answer", ""))
        return record
    return dict(entry)


def score_answer(
    answer: str | None, entry: Mapping[str, Any], *, trust: bool = False, family: Any = None
) -> float:
    """Score a model's ``answer`` for a dataset item (or record): 1.0 right, 0.0 wrong,
    partial credit where the family defines it. Never raises on a malformed answer.

    ``trust`` lets a record made from a grid genre file (Python) load it; ``family``
    skips the look-up when the caller already holds the record's family."""
    if answer is None:
        return 0.0
    record = record_of(entry)
    puzzle = Puzzle.from_record(record)
    if family is None:
        family = family_for_record(record, trust=trust)
    best = 0.0
    # a model's output wraps its answer; only the last marked answer (or, unmarked, the
    # whole text and its outer paragraphs) is tried, so an abandoned answer never counts
    for candidate in final_answer_candidates(str(answer)):
        try:
            best = max(best, float(family.verify(puzzle, candidate)))
        except Exception:  # noqa: BLE001 - a family's verify must not crash scoring
            continue
        if best == 1.0:
            break
    return best
