"""The ``clues:`` and ``entries:`` sections of a puzzle file -> ``Clue``s.

Why a module of its own: numbered clues, unnumbered clue lists (``across``/``down``/
``any``), unclued entries, ``rules.every_clue`` and entry transforms all meet here, with
the checks that tie clues to grid entries (lengths, counts, unknown names).
"""

from __future__ import annotations

from typing import Any

from ..core.errors import InvalidSpec
from .clueparse import ClueParser
from .grid import Grid
from .modeltypes import DIRECTIONS, Clue, Part, Rules, Variables

__all__ = ["parse_clues", "apply_transforms"]


def parse_clues(
    raw: Any, grid: Grid, variables: Variables, rules: Rules, file, lines
) -> dict[str, Clue]:
    items: list[tuple[str, str, Any, int, str | None, str, Any]] = []
    # (name, direction, text, cells, fixed entry, field path, raw item)
    if isinstance(raw, dict) and set(raw) <= set(DIRECTIONS) and raw:
        if "any" in raw and len(raw) > 1:
            raise InvalidSpec(
                "clues.any lists every clue: it cannot be mixed with across/down lists",
                file=file,
                field="clues.any",
                line=lines.get("clues.any"),
                expected="either {any: [...]} or {across: [...], down: [...]}",
            )
        for d in DIRECTIONS:
            for i, it in enumerate(raw.get(d) or []):
                fld = f"clues.{d}[{i}]"
                if not isinstance(it, dict) or "cells" not in it:
                    raise InvalidSpec(
                        "an unnumbered clue needs 'clue' and 'cells'",
                        file=file,
                        field=fld,
                        line=lines.get(fld),
                        expected="{label: A1, clue: 'B+Y', cells: 2}",
                    )
                label = str(it.get("label") or f"{d[0].upper()}{i + 1}")
                items.append((label, d, it.get("clue"), int(it["cells"]), None, fld, it))
    elif isinstance(raw, dict):
        for name, it in raw.items():
            fld = f"clues.{name}"
            if name not in grid.entries:
                raise InvalidSpec(
                    f"clue {name} has no entry in the grid",
                    file=file,
                    field=fld,
                    line=lines.get(fld),
                    expected="one of " + ", ".join(grid.entries),
                )
            e = grid.entries[name]
            if isinstance(it, dict):
                text = it.get("clue", it.get("text"))
                length = it.get("length", it.get("cells"))
                if length is not None and int(length) != e.length:
                    raise InvalidSpec(
                        f"clue {name} says length {length} but its grid entry "
                        f"has {e.length} cells (entry length mismatch)",
                        file=file,
                        field=fld,
                        line=lines.get(fld),
                        expected=f"length {e.length}, or fix the grid",
                    )
            else:
                text = it
            items.append((name, e.direction, text, e.length, name, fld, it))
    else:
        raise InvalidSpec(
            "clues must be a mapping of entry names to clues, or 'across'/'down' lists",
            file=file,
            field="clues",
            line=lines.get("clues"),
            expected="{A1: 'prime', D2: 'AC+CD'} or {across: [...], down: [...]}",
        )
    if isinstance(raw, dict) and not (set(raw) <= set(DIRECTIONS) and raw):
        # entries without a clue line are unclued (and still count for 'answers distinct')
        listed = {it[0] for it in items}
        for name, e in grid.entries.items():
            if name not in listed:
                items.append((name, e.direction, None, e.length, name, f"clues.{name}", None))
    names = [it[0] for it in items]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise InvalidSpec(
            f"clue label {dup[0]} is used twice",
            file=file,
            field="clues",
            line=lines.get("clues"),
            expected="unique clue labels",
        )
    parser = ClueParser(names, variables.names, rules, file)
    out: dict[str, Clue] = {}
    for name, d, text, cells, entry, fld, _item in items:
        line = lines.get(fld)
        parts = parser.parse(name, text, fld, line)
        for i, tmpl in enumerate(rules.every_clue):
            rf = f"rules.every_clue[{i}]"
            parts += parser.parse(
                name, tmpl.replace("{clue}", name), rf, lines.get(rf, lines.get("rules.every_clue"))
            )
        _check_digit_positions(name, parts, cells, rules, file, fld, line)
        if entry is None:
            cands = [
                e.name
                for e in grid.entries.values()
                if d in (e.direction, "any") and e.length == cells
            ]
            if not cands:
                raise InvalidSpec(
                    f"clue {name} has {cells} cells but no {d} entry has that "
                    "length (entry length mismatch)",
                    file=file,
                    field=fld,
                    line=line,
                    expected="a cell count of some " + d + " entry",
                )
        else:
            cands = [entry]
        out[name] = Clue(
            name,
            d,
            ""
            if text is None
            else ("; ".join(map(str, text)) if isinstance(text, list) else str(text)),
            parts,
            cells,
            entry,
            cands,
            line=line,
        )
    if all(c.entry is not None for c in out.values()):
        return out
    for d in ("any",) if any(c.direction == "any" for c in out.values()) else ("across", "down"):
        n_cl = sum(1 for c in out.values() if c.direction == d)
        n_en = sum(1 for e in grid.entries.values() if d in (e.direction, "any"))
        if n_cl != n_en:
            raise InvalidSpec(
                f"{n_cl} {d} clues for {n_en} {d} entries",
                file=file,
                field=f"clues.{d}",
                line=lines.get(f"clues.{d}"),
                expected="one unnumbered clue per grid entry",
            )
    return out


def apply_transforms(raw: Any, clues: dict[str, Clue], file, lines) -> None:
    if not isinstance(raw, dict):
        raise InvalidSpec(
            "entries must be a mapping",
            file=file,
            field="entries",
            line=lines.get("entries"),
            expected="{A1: {transform: reverse}}",
        )
    for name, spec in raw.items():
        fld = f"entries.{name}"
        if name not in clues:
            raise InvalidSpec(
                f"entries: {name} is not a clue",
                file=file,
                field=fld,
                line=lines.get(fld),
                expected="a clue name",
            )
        t = spec.get("transform") if isinstance(spec, dict) else spec
        if t not in ("reverse",):
            raise InvalidSpec(
                f"entries.{name}: unknown transform {t!r}",
                file=file,
                field=fld,
                line=lines.get(fld),
                expected="transform: reverse",
            )
        clues[name].transform = t


def _check_digit_positions(
    name: str, parts: list[Part], cells: int, rules: Rules, file: Any, fld: str, line: Any
) -> None:
    """ "digit 4 is 7" in a 3-cell entry can never hold: say so instead of reporting no
    solution (only where a cell is one digit; two-digit cells make the length vary)."""
    if rules.cell_values is not None:
        return
    for p in parts:
        far = p.digits.max_position() if p.digits is not None else 0
        if far > cells:
            raise InvalidSpec(
                f"clue {name}: {p.text!r} names digit {far} but the entry has {cells} cells",
                file=file,
                field=fld,
                line=line,
                expected=f"a digit position from 1 to {cells} (or 'the last digit')",
            )
