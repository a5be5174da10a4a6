"""Score a model's answers against a dataset: accuracy and partial credit by family and tier.

Why match by record id: model outputs come back shuffled, filtered or sharded; the id is
the one stable key. A dataset record without an answer counts as wrong (reported as
missing), an answer whose id is not in the dataset is reported and ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..core.errors import InvalidDescription
from ..core.registry import family_for_record
from ..dataset import score_answer
from .sinks import iter_records

__all__ = ["ScoreReport", "score_file", "ANSWER_KEYS"]

#: Keys read as the model's answer, in order (the first present wins).
ANSWER_KEYS = ("answer", "response", "prediction", "output", "completion")


@dataclass
class _Group:
    n: int = 0
    correct: int = 0
    credit: float = 0.0

    def add(self, score: float) -> None:
        self.n += 1
        self.correct += score == 1.0
        self.credit += score

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "correct": self.correct,
            "accuracy": round(self.correct / self.n, 6) if self.n else 0.0,
            "mean_score": round(self.credit / self.n, 6) if self.n else 0.0,
        }


@dataclass
class ScoreReport:
    dataset: str
    answers: str
    overall: _Group = field(default_factory=_Group)
    by_family: dict[str, _Group] = field(default_factory=dict)
    by_tier: dict[str, _Group] = field(default_factory=dict)
    missing: int = 0
    unknown_ids: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "answers": self.answers,
            "overall": self.overall.to_dict(),
            "by_family": {k: g.to_dict() for k, g in sorted(self.by_family.items())},
            "by_tier": {k: g.to_dict() for k, g in sorted(self.by_tier.items())},
            "missing_answers": self.missing,
            "answers_with_unknown_id": self.unknown_ids,
        }


def _load_answers(path: Path) -> dict[str, str]:
    answers: dict[str, str] = {}
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                row = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise InvalidDescription(
                    f"not valid JSON ({exc})",
                    file=str(path),
                    line=number,
                    expected='one {"id": ..., "answer": ...} object per line',
                ) from None
            if not isinstance(row, dict) or "id" not in row:
                raise InvalidDescription(
                    "answer line has no 'id'",
                    file=str(path),
                    line=number,
                    expected='{"id": <record id>, "answer": <text>}',
                )
            value = next((row[k] for k in ANSWER_KEYS if k in row), None)
            answers[str(row["id"])] = "" if value is None else str(value)
    return answers


def score_file(dataset: str | Path, answers: str | Path, *, trust: bool = False) -> ScoreReport:
    """Score every record of ``dataset`` with the answer of the same id in ``answers``
    (``trust``: records made from a grid genre file may load it; it is Python)."""
    given = _load_answers(Path(answers))
    report = ScoreReport(str(dataset), str(answers))
    seen: set[str] = set()
    families: dict[str, Any] = {}
    for _, record in iter_records(Path(dataset)):
        rid = str(record.get("id", ""))
        seen.add(rid)
        if rid in given:
            meta = record.get("meta")
            source = meta.get("source") if isinstance(meta, dict) else None
            key = f"{record.get('family')}|{source or ''}"
            if key not in families:
                families[key] = family_for_record(record, trust=trust)
            score = score_answer(given[rid], record, family=families[key])
        else:
            report.missing += 1
            score = 0.0
        meta = record.get("meta") or {}
        tier = str(meta.get("tier") or "-")
        report.overall.add(score)
        report.by_family.setdefault(str(record.get("family")), _Group()).add(score)
        report.by_tier.setdefault(tier, _Group()).add(score)
    report.unknown_ids = len(set(given) - seen)
    return report
