"""Puzzle files (YAML) -> a checked ``Model``: grid, entries, clues, variables, rules.

Why a separate model: the file format is for people (phrases like "multiple of D7",
algebra like ``AC+CD``); the solver wants compiled expressions and number kinds. Every
problem found here is an ``InvalidSpec`` naming the file, the field and the YAML line.
See docs/crossnumber.md for the format.

This module reads a file section by section; each section has its own module:
modeltypes.py (the records), clueparse.py (one clue's text), fileclues.py (the clues and
entries sections), filerules.py (the rules section), filesections.py (YAML lines, givens,
variables); gridrules.py parses ``rules.grid``.
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import InvalidSpec
from ..core.yamlio import read_yaml_text
from .clueparse import MAX_ALTERNATIVES
from .divzero import check_divisors
from .fileclues import apply_transforms, parse_clues
from .filerules import parse_rules
from .filesections import MAX_KIND_MAX, apply_givens, compose, parse_variables
from .grid import parse_grid
from .modeltypes import DIRECTIONS, Clue, Model, Part, Rules, Variables
from .ranges import parse_range

__all__ = [
    "Part",
    "Clue",
    "Variables",
    "Rules",
    "Model",
    "DIRECTIONS",
    "MAX_ALTERNATIVES",
    "MAX_KIND_MAX",
    "load_model",
    "parse_model",
    "parse_range",
]


def load_model(path: str | Path) -> Model:
    """Read and check a puzzle file."""
    p = Path(path)
    text = read_yaml_text(p, what="puzzle file", require_suffix=False)
    return parse_model(text, file=str(p))


_TOP_KEYS = {
    "title",
    "id",
    "setter",
    "published",
    "notes",
    "source_notes",
    "tags",
    "grid",
    "givens",
    "rules",
    "variables",
    "clues",
    "entries",
    "expect",
    "source",
}


def parse_model(text: str, *, file: str | None = None) -> Model:
    """Parse puzzle-file text (errors carry YAML line numbers)."""
    data, lines = compose(text, file)
    if not isinstance(data, dict):
        raise InvalidSpec(
            "a puzzle file must be a YAML mapping",
            file=file,
            expected="keys title, grid, clues (see docs/crossnumber.md)",
        )
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise InvalidSpec(
            f"unknown top-level key(s): {', '.join(unknown)}",
            file=file,
            field=unknown[0],
            line=lines.get(unknown[0]),
            expected="some of " + ", ".join(sorted(_TOP_KEYS)),
        )
    for key in ("grid", "clues"):
        if key not in data:
            raise InvalidSpec(
                f"missing required key '{key}'",
                file=file,
                field=key,
                expected="a grid (block or barred ASCII) and clues",
            )
    grid = parse_grid(data["grid"], file=file, line=lines.get("grid"))
    apply_givens(grid, data.get("givens"), file, lines.get("givens"))
    rules = parse_rules(data.get("rules") or {}, file, lines)
    variables = parse_variables(data.get("variables"), file, lines, grid)
    clues = parse_clues(data["clues"], grid, variables, rules, file, lines)
    apply_transforms(data.get("entries") or {}, clues, file, lines)
    check_divisors(clues, variables.domain, file)  # a divisor 0 over the whole domain
    raw_grid_rules = (data.get("rules") or {}).get("grid")
    if raw_grid_rules is not None:
        from .gridrules import parse_grid_rules

        rules.grid = parse_grid_rules(
            raw_grid_rules,
            clues=list(clues),
            variables=variables.names,
            file=file,
            lines=lines,
            cells=grid.cells(),
        )
        rules.grid_text = (
            [str(raw_grid_rules)]
            if isinstance(raw_grid_rules, str)
            else [str(x) for x in raw_grid_rules]
        )
    if rules.cell_values is not None and rules.no_repeat:
        raise InvalidSpec(
            "no_repeat is only defined for one-digit cells",
            file=file,
            field="rules.no_repeat",
            line=lines.get("rules.no_repeat"),
            expected="either cell_values or no_repeat, not both",
        )
    return Model(
        title=str(data.get("title") or data.get("id") or Path(file or "puzzle").stem),
        grid=grid,
        entries=grid.entries,
        clues=clues,
        variables=variables,
        rules=rules,
        expect=dict(data.get("expect") or {}),
        notes=str(data.get("notes") or data.get("source_notes") or ""),
        source=file,
        raw=data,
    )
