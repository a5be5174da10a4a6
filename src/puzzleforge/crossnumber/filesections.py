"""The smaller sections of a puzzle file: YAML with key lines, ``givens``, ``variables``.

Why a module of its own: these are plain checked readers that model.py calls in order;
each error names the file, the field and the YAML line.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..core.errors import InvalidSpec
from ..core.yamlio import load_yaml_node
from . import kinds as nb
from .grid import Grid
from .modeltypes import Variables
from .ranges import MAX_DOMAIN_VALUES, domain_too_large, parse_range

__all__ = ["compose", "apply_givens", "parse_variables", "MAX_KIND_MAX"]

#: Largest ``variables.max`` of a kind domain such as primes (the values are enumerated).
MAX_KIND_MAX = 10**8


# ------------------------------------------------------------------ YAML with lines


def compose(text: str, file: str | None) -> tuple[Any, dict[str, int]]:
    """Load YAML keeping the line of every mapping key (dotted path -> 1-based line)."""
    data, root = load_yaml_node(
        text, file=file, expected="a YAML mapping (see docs/crossnumber.md)"
    )
    lines: dict[str, int] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                p = f"{path}.{k.value}" if path else str(k.value)
                lines[p] = k.start_mark.line + 1
                walk(v, p)
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                p = f"{path}[{i}]"
                lines[p] = v.start_mark.line + 1
                walk(v, p)
        elif node is not None:
            lines.setdefault(path, node.start_mark.line + 1)

    walk(root, "")
    return data, lines


def apply_givens(grid: Grid, givens: Any, file, line) -> None:
    if givens is None:
        return
    rows = [r.replace(" ", "") for r in str(givens).strip("\n").splitlines()]
    if len(rows) != grid.rows or any(len(r) != grid.cols for r in rows):
        raise InvalidSpec(
            f"givens must have {grid.rows} rows of {grid.cols} characters",
            file=file,
            field="givens",
            line=line,
            expected="one character per cell: '.' unknown or a digit",
        )
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch.isdigit():
                grid.givens[(r, c)] = ch
            elif ch != ".":
                raise InvalidSpec(
                    f"givens row {r + 1} has {ch!r}",
                    file=file,
                    field="givens",
                    line=None if line is None else line + 1 + r,
                    expected="'.' or a digit",
                )


def parse_variables(raw: Any, file, lines, grid: Grid) -> Variables:
    if raw is None:
        return Variables([], [], True, [])
    if not isinstance(raw, dict):
        raise InvalidSpec(
            "variables must be a mapping",
            file=file,
            field="variables",
            line=lines.get("variables"),
            expected="names, domain, distinct, order",
        )
    names = raw.get("names", [])
    names = list(names) if not isinstance(names, str) else [c for c in names if c.isalpha()]
    for n in names:
        if not (isinstance(n, str) and len(n) == 1 and n.isalpha()):
            raise InvalidSpec(
                f"variable name {n!r} is not a single letter",
                file=file,
                field="variables.names",
                line=lines.get("variables.names"),
                expected="single letters such as A, B, C",
            )
    dom_raw = raw.get("domain", "0..9")
    longest = max((e.length for e in grid.entries.values()), default=1)
    kind = nb.canonical_kind(str(dom_raw)) if isinstance(dom_raw, str) else None
    if kind is not None:
        vmax = _kind_max(raw, min(10**longest, MAX_KIND_MAX), file, lines)
        if nb.generate_cost(kind, 0, vmax) > MAX_DOMAIN_VALUES:
            raise InvalidSpec(
                f"variables.domain {kind} up to {vmax} is too costly to list "
                f"(about {nb.generate_cost(kind, 0, vmax):,} steps)",
                file=file,
                field="variables.max",
                line=lines.get("variables.max", lines.get("variables.domain")),
                expected=f"a smaller max: at most {MAX_DOMAIN_VALUES:,} "
                "steps to list the domain (docs/limits.md)",
            )
        domain = list(nb.generate(kind, 0, vmax))
        if len(domain) > MAX_DOMAIN_VALUES:
            raise domain_too_large(
                f"variables.domain {kind} up to {vmax}",
                len(domain),
                file,
                "variables.max",
                lines.get("variables.max"),
            )
    else:
        domain = parse_range(
            dom_raw,
            what="variables.domain",
            file=file,
            fld="variables.domain",
            line=lines.get("variables.domain"),
        )
    order: list[list[str]] = []
    oraw = raw.get("order") or raw.get("constraint")
    for chain in [oraw] if isinstance(oraw, str) else list(oraw or []):
        parts = [p.strip() for p in re.split(r"<", str(chain))]
        if ">" in str(chain):
            parts = [p.strip() for p in reversed(re.split(r">", str(chain)))]
        for p in parts:
            if p not in names:
                raise InvalidSpec(
                    f"order {chain!r} names {p!r}, which is not a variable",
                    file=file,
                    field="variables.order",
                    line=lines.get("variables.order", lines.get("variables.constraint")),
                    expected="a chain such as A < B < C of declared variables",
                )
        order.append(parts)
    return Variables(names, domain, bool(raw.get("distinct", True)), order, str(dom_raw))


def _kind_max(raw: dict, default: int, file, lines) -> int:
    """``variables.max``: a whole number from 0 to ``MAX_KIND_MAX`` (checked before the
    kind's values are enumerated, so ``max: 10**18`` is an error, not an endless loop)."""
    value = raw.get("max", default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_KIND_MAX:
        raise InvalidSpec(
            f"variables.max is {value!r}",
            file=file,
            field="variables.max",
            line=lines.get("variables.max"),
            expected=f"a whole number from 0 to {MAX_KIND_MAX:,} (10**8), the "
            "largest value of a kind domain (docs/limits.md)",
        )
    return value
