"""The Puzzle record: one JSON object per line in every dataset puzzleforge writes.

Why one record for every engine: the batch runner, the CLI, the web app and scoring only
talk to this shape, so a new family needs no change anywhere else. ``extra`` holds
family-specific top-level fields (the spec engine keeps PuzzleClone's ``problem`` and
``parameters`` there so existing tooling reads spec records unchanged).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from .errors import InvalidDescription
from .seeding import stable_hash

__all__ = ["Puzzle", "puzzle_id", "canonical_json", "RECORD_FIELDS", "stamp", "earlier_ids"]

RECORD_FIELDS = (
    "id",
    "family",
    "question",
    "answer",
    "solution",
    "difficulty",
    "params",
    "seed",
    "config",
    "meta",
)

_JSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def canonical_json(value: Any) -> str:
    """Sorted-key compact JSON: the byte-stable text used for ids, hashes and files."""
    return orjson.dumps(value, option=_JSON_OPTIONS).decode("utf-8")


def puzzle_id(family: str, params: Mapping[str, Any], seed: int, source: str | None = None) -> str:
    """Stable id of the puzzle that ``family`` builds from ``params`` and ``seed``.

    ``source``: the sha256 of the file that defines a file-based family (a spec), whose
    content decides the puzzle as much as its name does (``meta.source_sha256``).

    >>> puzzle_id("latin", {"n": 4}, 1) == puzzle_id("latin", {"n": 4}, 1)
    True
    >>> puzzle_id("spec:a", {}, 1, "ab12") != puzzle_id("spec:a", {}, 1, "cd34")
    True
    """
    if source:
        return stable_hash(
            "puzzle", family, source, canonical_json(dict(params)), seed, digest_size=10
        )
    return stable_hash("puzzle", family, canonical_json(dict(params)), seed, digest_size=10)


def _source_digest(meta: Mapping[str, Any]) -> str | None:
    """``meta.source_sha256`` when a file-based family recorded it (else None)."""
    value = meta.get("source_sha256") if isinstance(meta, Mapping) else None
    return value if isinstance(value, str) and value else None


@dataclass
class Puzzle:
    """A generated puzzle: question, canonical answer, structured solution and provenance.

    ``difficulty`` is a number whose scale each family documents (``Family.difficulty_doc``).
    ``config`` holds everything needed to rebuild the same puzzle (at least family,
    params and seed). ``meta`` is free-form provenance (generator version, backend,
    certification results...).
    """

    family: str
    question: str
    answer: str
    solution: Any
    difficulty: float
    params: dict[str, Any]
    seed: int
    config: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            self.id = puzzle_id(self.family, self.params, self.seed, _source_digest(self.meta))
        if not self.config:
            self.config = {"family": self.family, "params": dict(self.params), "seed": self.seed}

    def to_record(self) -> dict[str, Any]:
        """The JSON-ready dict of a dataset line (extra fields flattened at top level)."""
        record: dict[str, Any] = {
            "id": self.id,
            "family": self.family,
            "question": self.question,
            "answer": self.answer,
            "solution": self.solution,
            "difficulty": self.difficulty,
            "params": self.params,
            "seed": self.seed,
            "config": self.config,
            "meta": self.meta,
        }
        for key, value in self.extra.items():
            if key in record:
                raise ValueError(f"extra field {key!r} would shadow a record field")
            record[key] = value
        return record

    def to_json(self) -> str:
        """One canonical JSON line (sorted keys, no trailing newline)."""
        return canonical_json(self.to_record())

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, source: str | None = None) -> Puzzle:
        """Rebuild a Puzzle from a dataset record, naming what is missing if it is not one."""
        if not isinstance(record, Mapping):
            raise InvalidDescription(
                "a puzzle record must be a JSON object",
                file=source,
                expected="an object with " + ", ".join(RECORD_FIELDS),
            )
        missing = [k for k in ("family", "question", "answer") if k not in record]
        if missing:
            raise InvalidDescription(
                f"record lacks {', '.join(missing)}",
                file=source,
                expected="an object with " + ", ".join(RECORD_FIELDS),
            )
        extra = {k: v for k, v in record.items() if k not in RECORD_FIELDS}
        seed = record.get("seed", 0)
        return cls(
            family=str(record["family"]),
            question=str(record["question"]),
            answer=str(record["answer"]),
            solution=record.get("solution"),
            difficulty=record.get("difficulty", 0.0),
            params=dict(record.get("params") or {}),
            seed=int(seed)
            if isinstance(seed, (int, str)) and str(seed).lstrip("-").isdigit()
            else 0,
            config=dict(record.get("config") or {}),
            meta=dict(record.get("meta") or {}),
            extra=extra,
            id=str(record.get("id") or ""),
        )

    @classmethod
    def from_json(cls, line: str | bytes, *, source: str | None = None) -> Puzzle:
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InvalidDescription(
                f"not valid JSON ({exc})", file=source, expected="one JSON object per line"
            ) from None
        return cls.from_record(record, source=source)


def stamp(puzzle: Puzzle, seed: int) -> Puzzle:
    """Record the seed a caller used to build ``puzzle`` (families only see the rng).

    Sets ``seed``, recomputes the stable ``id`` (of family, params, seed and, for a
    file-based family, ``meta.source_sha256``) and fills ``config`` with family, params
    and seed unless the family wrote a config of its own (then only missing keys of
    provenance go to ``meta``).
    """
    puzzle.seed = seed
    puzzle.id = puzzle_id(puzzle.family, puzzle.params, seed, _source_digest(puzzle.meta))
    if not puzzle.config or set(puzzle.config) <= {"family", "params", "seed"}:
        puzzle.config = {"family": puzzle.family, "params": dict(puzzle.params), "seed": seed}
    else:
        puzzle.meta.setdefault("seed", seed)
    return puzzle


def earlier_ids(puzzle: Puzzle) -> tuple[str, ...]:
    """Ids the same puzzle had under an earlier rule, which ``verify`` still accepts.

    Spec records made before ids hashed the spec's content (``meta.source_sha256``) carry
    ``puzzle_id(family, params, seed)``; the puzzle itself is the same.
    """
    if _source_digest(puzzle.meta):
        return (puzzle_id(puzzle.family, puzzle.params, puzzle.seed),)
    return ()
