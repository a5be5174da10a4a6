"""Generate and verify through the registry: the calls every front end and engine share.

Why in core: ``puzzleforge.api`` is the public face of these calls, but engines (the
zebra package's own ``generate``) need them too, and engines may import core only, never
``puzzleforge.api`` (tests/core/test_import_layers.py). ``puzzleforge.api`` re-exports
them unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .family import build_params
from .puzzle import Puzzle, stamp
from .registry import family_for_record, family_names, resolve_family
from .seeding import make_rng

__all__ = ["families", "generate", "verify", "load_family"]


def families() -> list[str]:
    """Names of the registered families (spec files are families too, by path)."""
    return family_names()


def load_family(name_or_path: str, **options: Any) -> Any:
    """The Family object for a registered id or a spec file path."""
    return resolve_family(name_or_path, **options)


def generate(
    name: str, seed: int = 0, *, family_options: Mapping[str, Any] | None = None, **params: Any
) -> Puzzle:
    """Generate the puzzle of family ``name`` for ``seed`` (same seed, same puzzle)."""
    family = resolve_family(name, **dict(family_options or {}))
    built = build_params(family.Params, params, family=family.name)
    puzzle = family.generate(built, make_rng(seed))
    return stamp(puzzle, seed)


def verify(puzzle_or_record: Puzzle | Mapping[str, Any], answer: str) -> float:
    """Score ``answer`` against a Puzzle or a dataset record (1.0 = correct)."""
    puzzle = (
        puzzle_or_record
        if isinstance(puzzle_or_record, Puzzle)
        else Puzzle.from_record(puzzle_or_record)
    )
    family = family_for_record(puzzle)
    return float(family.verify(puzzle, answer))
