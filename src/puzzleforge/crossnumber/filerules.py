"""The ``rules:`` section of a puzzle file -> ``Rules`` (checked, with YAML lines).

Why a module of its own: the puzzle-wide rules (distinct answers, digits, no-repeat lines,
hooks, every_clue) are read and checked in one place; the whole-grid relations
(``rules.grid``) are parsed by gridrules.py once the clues are known.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import InvalidSpec
from .modeltypes import Rules
from .ranges import parse_range

__all__ = ["RULE_KEYS", "parse_rules"]


RULE_KEYS = {
    "distinct",
    "leading_zeros",
    "digits",
    "cell_values",
    "cell_values_once",
    "digits_once",
    "no_repeat",
    "reversed_pair",
    "grid_digit_sum",
    "nontrivial",
    "clue_order",
    "hooks",
    "grid",
    "every_clue",
}


def _every_clue(raw: Any, file, lines) -> list[str]:
    """``rules.every_clue``: clue parts that hold for every clue ("all entries have a digit
    sum divisible by 7"), ``{clue}`` standing for the clue's own name in each."""
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(x, str) and x.strip() for x in items):
        raise InvalidSpec(
            f"rules.every_clue is {raw!r}",
            file=file,
            field="rules.every_clue",
            line=lines.get("rules.every_clue"),
            expected="a list of clue parts such as '$ds({clue}) % 7 = 0' or 'odd'",
        )
    return [x.strip() for x in items]


def parse_rules(raw: Any, file, lines) -> Rules:
    if not isinstance(raw, dict):
        raise InvalidSpec(
            "rules must be a mapping",
            file=file,
            field="rules",
            line=lines.get("rules"),
            expected="keys such as distinct, digits",
        )
    bad = sorted(set(raw) - RULE_KEYS)
    if bad:
        raise InvalidSpec(
            f"unknown rule(s): {', '.join(bad)}",
            file=file,
            field=f"rules.{bad[0]}",
            line=lines.get(f"rules.{bad[0]}"),
            expected="some of " + ", ".join(sorted(RULE_KEYS)),
        )
    r = Rules()

    def rng(key):
        return parse_range(
            raw[key],
            what=f"rules.{key}",
            file=file,
            fld=f"rules.{key}",
            line=lines.get(f"rules.{key}"),
        )

    for key in ("distinct", "leading_zeros", "digits_once", "reversed_pair", "nontrivial"):
        if key in raw:
            setattr(r, key, bool(raw[key]))
    if "digits" in raw:
        r.digits = rng("digits")
    if "cell_values" in raw:
        r.cell_values = rng("cell_values")
    if "cell_values_once" in raw:
        r.cell_values_once = rng("cell_values_once")
    if "grid_digit_sum" in raw:
        r.grid_digit_sum = int(raw["grid_digit_sum"])
    if "no_repeat" in raw:
        nr = raw["no_repeat"]
        nr = [nr] if isinstance(nr, str) else list(nr or [])
        for item in nr:
            if item not in ("rows", "columns", "diagonals"):
                raise InvalidSpec(
                    f"no_repeat: unknown line kind {item!r}",
                    file=file,
                    field="rules.no_repeat",
                    line=lines.get("rules.no_repeat"),
                    expected="rows, columns and/or diagonals",
                )
        r.no_repeat = nr
    if "clue_order" in raw:
        if raw["clue_order"] not in ("ascending", "descending", None):
            raise InvalidSpec(
                f"clue_order {raw['clue_order']!r}",
                file=file,
                field="rules.clue_order",
                line=lines.get("rules.clue_order"),
                expected="ascending or descending",
            )
        r.clue_order = raw["clue_order"]
    if "every_clue" in raw:
        r.every_clue = _every_clue(raw["every_clue"], file, lines)
    if "hooks" in raw:
        from .hooks import HOOKS

        for h in list(raw["hooks"] or []):
            args: dict[str, Any] = {}
            if isinstance(h, dict) and len(h) == 1:
                h, args = next(iter(h.items()))
                args = dict(args or {}) if isinstance(args, dict) else {}
            if not isinstance(h, str) or h not in HOOKS:
                raise InvalidSpec(
                    f"unknown hook {h!r}",
                    file=file,
                    field="rules.hooks",
                    line=lines.get("rules.hooks"),
                    expected="one of "
                    + ", ".join(sorted(HOOKS))
                    + " (a name, or {name: {argument: value}})",
                )
            r.hooks.append((h, args))
    return r
