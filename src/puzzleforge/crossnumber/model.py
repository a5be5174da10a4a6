"""Puzzle files (YAML) -> a checked ``Model``: grid, entries, clues, variables, rules.

Why a separate model: the file format is for people (phrases like "multiple of D7",
algebra like ``AC+CD``); the solver wants compiled expressions and number kinds. Every
problem found here is an ``InvalidSpec`` naming the file, the field and the YAML line.
See docs/crossnumber.md for the format.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import InvalidSpec
from ..core.yamlio import load_yaml_node, read_yaml_text
from . import expr as ex
from . import kinds as nb
from .grid import Entry, Grid, parse_grid
from .ranges import MAX_DOMAIN_VALUES, domain_too_large, parse_range

__all__ = [
    "Part",
    "Clue",
    "Variables",
    "Rules",
    "Model",
    "load_model",
    "parse_model",
    "parse_range",
]


@dataclass
class Part:
    """One conjunct of a clue. ``kind``: 'type' (number kind test), 'value' (the clue's
    value equals every side of an expression), 'cond' (a relation that mentions the clue
    itself), 'griddigits' (the sum of all digits in the grid) or 'alt' (at least one of
    ``alts`` holds: a part naming ``other`` entries, one alternative per choice)."""

    kind: str
    text: str
    number_kind: str | None = None
    sides: list[ex.Compiled] = field(default_factory=list)
    cond: ex.Compiled | None = None
    alts: list[Part] = field(default_factory=list)


@dataclass
class Clue:
    name: str
    direction: str
    text: str
    parts: list[Part]
    cells: int
    entry: str | None  # fixed entry, or None when the mapping is searched
    candidates: list[str]  # entries this clue may map to
    transform: str | None = None  # "reverse": the entry holds the value reversed
    line: int | None = None

    @property
    def tests(self) -> list[str]:
        return [p.number_kind for p in self.parts if p.kind == "type" and p.number_kind]


@dataclass
class Variables:
    names: list[str]
    domain: list[int]
    distinct: bool
    order: list[list[str]]  # chains a < b < c
    text: str = ""


@dataclass
class Rules:
    distinct: bool = True
    leading_zeros: bool = False
    digits: list[int] = field(default_factory=lambda: list(range(10)))
    cell_values: list[int] | None = None  # multi-digit cells (e.g. 0..16)
    cell_values_once: list[int] = field(default_factory=list)
    digits_once: bool = False
    no_repeat: list[str] = field(default_factory=list)  # rows / columns / diagonals
    reversed_pair: bool = False
    grid_digit_sum: int | None = None
    nontrivial: bool = False
    clue_order: str | None = None  # ascending / descending within each direction
    hooks: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    grid: list[Any] = field(default_factory=list)  # gridrules.GridRule, checked on full grids
    grid_text: list[str] = field(default_factory=list)  # the rules as written
    every_clue: list[str] = field(default_factory=list)  # parts added to every clue


@dataclass
class Model:
    title: str
    grid: Grid
    entries: dict[str, Entry]
    clues: dict[str, Clue]
    variables: Variables
    rules: Rules
    expect: dict[str, Any]
    notes: str
    source: str | None
    raw: dict[str, Any]

    @property
    def mapped(self) -> bool:
        """True when every clue's entry is known (no clue-to-entry search needed)."""
        return all(c.entry is not None for c in self.clues.values())

    def cell_domain(self) -> list[str]:
        vals = self.rules.cell_values if self.rules.cell_values is not None else self.rules.digits
        return [str(v) for v in vals if v >= 10 or v in self.rules.digits]


# ------------------------------------------------------------------ YAML with lines


def _compose(text: str, file: str | None) -> tuple[Any, dict[str, int]]:
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


# ------------------------------------------------------------------ helpers


#: Largest ``variables.max`` of a kind domain such as primes (the values are enumerated).
MAX_KIND_MAX = 10**8
#: Most choices of entries a clue part naming ``other`` may have (12 clues, 2 others: 110).
MAX_ALTERNATIVES = 5_000


class _ClueParser:
    """Turns the text of one clue into Parts (number kinds, expressions, relations)."""

    def __init__(
        self, model_clues: list[str], variables: list[str], rules: Rules, file: str | None
    ) -> None:
        self.clue_names = model_clues
        self.variables = variables
        self.rules = rules
        self.file = file

    def parse(self, name: str, text: Any, fld: str, line: int | None) -> list[Part]:
        if text is None:
            return []
        items = text if isinstance(text, list) else str(text).split(";")
        parts: list[Part] = []
        for item in items:
            item = str(item).strip()
            if not item or item.lower() in ("unclued", "(unclued)", "-", "see other clue"):
                continue
            parts.extend(self.part(name, item, fld, line))
        return parts

    def _expr(self, text: str, fld, line) -> ex.Node:
        return ex.parse(
            text,
            clues=self.clue_names,
            variables=self.variables,
            field=fld,
            file=self.file,
            line=line,
            allow_other=True,
        )

    def _operand(self, text: str) -> str:
        """'a triangular' -> '#triangular'; anything else stays an expression."""
        t = re.sub(r"^(?:an?|the)\s+", "", text.strip(), flags=re.I)
        if re.fullmatch(r"(?:an)?other entry", t, flags=re.I):
            return "other"
        k = nb.canonical_kind(t) or (nb.canonical_kind(t[:-1]) if t.endswith("s") else None)
        if k is not None and not re.fullmatch(r"[A-Z]+", t):
            return "#" + k
        if re.fullmatch(r"power\s*(?:\(?\s*(?:exponent\s*)?>=\s*3\s*\)?)", t, re.I):
            return "#power3"
        return "(" + t + ")"

    def part(self, name: str, item: str, fld: str, line: int | None) -> list[Part]:
        choices = _top_level_split(item, "|")
        if len(choices) > 1:
            return [self._either(name, item, choices, fld, line)]
        low = item.lower().strip()
        kind = nb.canonical_kind(low) or (
            nb.canonical_kind(low[:-1]) if low.endswith("s") else None
        )
        if kind is not None and not re.fullmatch(r"[A-Z]+", item):
            return [Part("type", item, number_kind=kind)]
        m = re.fullmatch(r"power\s*(?:\(?\s*(?:exponent\s*)?>=\s*(\d+)\s*\)?)?", low)
        if m:
            e = int(m.group(1) or 2)
            if e not in (2, 3):
                raise InvalidSpec(
                    f"clue {name}: power with exponent >= {e} is not supported",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected="power (exponent >= 2) or power >= 3",
                )
            return [Part("type", item, number_kind="power" if e == 2 else "power3")]
        m = re.fullmatch(r"product of (\d+) distinct primes?", low)
        if m:
            n = int(m.group(1))
            key = f"product{n}primes"
            if key not in nb.KINDS:

                def test(v: int, n: int = n) -> bool:
                    return nb.distinct_prime_product(v, n)

                nb.KINDS[key] = (test, nb._gen_filter(test), True)
            return [Part("type", item, number_kind=key)]
        if re.fullmatch(
            r"(?:the )?sum of (?:all )?(?:the )?digits(?: in the (?:grid|puzzle))?"
            r"|grid digit sum|#sumdigits",
            low,
        ):
            return [Part("griddigits", item)]
        rewrites = [
            (r"(?:the )?sum of two (?:other )?entries", lambda g: "other + other"),
            (
                r"(?:the )?difference (?:of|between) two (?:other )?entries",
                lambda g: "other - other",
            ),
            (r"(?:the )?product of two (?:other )?entries", lambda g: "other * other"),
            (r"multiple of (.+)", lambda g: f"{self._operand(g[0])} * #multiplier"),
            (r"(?:divisor|factor) of (.+)", lambda g: f"{self._operand(g[0])} / #multiplier"),
            (r"half (?:of )?(.+)", lambda g: f"{self._operand(g[0])} / 2"),
            (r"twice (.+)", lambda g: f"2 * {self._operand(g[0])}"),
            (r"square of (.+)", lambda g: f"{self._operand(g[0])} ^ 2"),
            (r"cube of (.+)", lambda g: f"{self._operand(g[0])} ^ 3"),
            (r"(?:reverse|reversal) of (.+)", lambda g: f"$rev{self._operand(g[0])}"),
            (r"jumble of (.+)", lambda g: f"$jumble{self._operand(g[0])}"),
            (r"digit sum of (.+)", lambda g: f"$ds{self._operand(g[0])}"),
            (r"digit product of (.+)", lambda g: f"$dp{self._operand(g[0])}"),
            (r"(.+) raised to a power", lambda g: f"{self._operand(g[0])} ^ #multiplier"),
            (r"power of (.+)", lambda g: f"{self._operand(g[0])} ^ #multiplier"),
        ]
        for pat, build in rewrites:
            m = re.fullmatch(pat, item.strip(), flags=re.I)
            if m:
                parts = self.part(name, "= " + build(m.groups()), fld, line)
                for q in parts:
                    q.text = item  # explain steps with the words of the clue
                return parts
        conds = [
            (r"digit sum (?:is |= ?|equals? (?:to )?)?(.+)", "$ds({self}) = {x}"),
            (r"digit product (?:is |= ?|equals? (?:to )?)?(.+)", "$dp({self}) = {x}"),
            (r"(?:multiplicative )?persistence (?:is |= ?)?(.+)", "$mp({self}) = {x}"),
        ]
        for pat, tmpl in conds:
            m = re.fullmatch(pat, item.strip(), flags=re.I)
            if m:
                parts = self.part(name, tmpl.format(self=name, x=m.group(1)), fld, line)
                for q in parts:
                    q.text = f"{name} has {item}"
                return parts
        text = item[1:] if item.startswith("=") else item
        node = self._expr(text, fld, line)
        if ex.has_other(node):
            return [self._alternatives(name, item, node, fld, line)]
        return [self._node_part(name, item, node, fld, line)]

    def _either(self, name: str, item: str, choices: list[str], fld, line) -> Part:
        """``X | Y | Z``: at least one of the alternatives holds (Combinations: the entry
        is nCk, or the sum, or the product of the next k primes after N). Each is an
        expression for the value or a relation (a number kind is written ``= #prime``)."""
        alts: list[Part] = []
        for choice in choices:
            if not choice.strip():
                raise InvalidSpec(
                    f"clue {name}: an empty alternative in {item!r}",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected="expressions separated by '|', such as 'A2 + 1 | A2 - 1'",
                )
            for p in self.part(name, choice.strip(), fld, line):
                if p.kind == "alt":
                    alts.extend(p.alts)
                elif p.kind in ("value", "cond"):
                    alts.append(p)
                else:
                    raise InvalidSpec(
                        f"clue {name}: alternative {choice.strip()!r} of {item!r} is not an "
                        "expression",
                        file=self.file,
                        field=fld,
                        line=line,
                        expected="an expression or relation in each alternative "
                        "('= #prime' for a number kind)",
                    )
        return Part("alt", item, alts=alts)

    def _alternatives(self, name: str, item: str, node: ex.Node, fld, line) -> Part:
        """``other`` is the value of an entry other than this clue's; several ``other``s
        in one part are different entries. The part holds when one substitution of
        other clues holds (``Part('alt')``, propagated by constraints.AltCon)."""
        others = [c for c in self.clue_names if c != name]
        k = ex.count_other(node)
        n_alts = math.perm(len(others), k)
        if n_alts == 0 or n_alts > MAX_ALTERNATIVES:
            raise InvalidSpec(
                f"clue {name}: {item!r} mentions 'other' {k} times: "
                + (
                    f"there are only {len(others)} other clues"
                    if n_alts == 0
                    else f"{n_alts} ways to choose the entries (at most {MAX_ALTERNATIVES})"
                ),
                file=self.file,
                field=fld,
                line=line,
                expected="'other' (another entry's value) at most "
                + ("once or twice" if len(others) > 2 else "once")
                + " in a clue part",
            )
        alts = [
            self._node_part(name, item, ex.substitute_other(node, list(combo)), fld, line)
            for combo in permutations(others, k)
        ]
        return Part("alt", item, alts=alts)

    def _node_part(self, name: str, item: str, node: ex.Node, fld, line) -> Part:
        vs, cs = ex.refs(node)
        nt = self.rules.nontrivial
        if name in cs:
            if node.op != "cmp":
                raise InvalidSpec(
                    f"clue {name}: expression {item!r} mentions {name} itself but "
                    "is not a relation",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected=f"a relation such as '{name} % 7 = 3', or an "
                    "expression for the value that does not mention the clue",
                )
            return Part("cond", item, cond=ex.compile_expr(node, nontrivial=nt))
        if node.op == "cmp":
            if any(o != "=" for o in node.ops):
                raise InvalidSpec(
                    f"clue {name}: comparison {item!r} does not mention {name}",
                    file=self.file,
                    field=fld,
                    line=line,
                    expected=f"'=' chains (value equals each side) or a relation "
                    f"that mentions {name}",
                )
            sides = [ex.compile_expr(a, nontrivial=nt) for a in node.args]
        else:
            sides = [ex.compile_expr(node, nontrivial=nt)]
        return Part("value", item, sides=sides)


def _top_level_split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside parentheses."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


# ------------------------------------------------------------------ loading


def load_model(path: str | Path) -> Model:
    """Read and check a puzzle file."""
    p = Path(path)
    text = read_yaml_text(p, what="puzzle file", require_suffix=False)
    return parse_model(text, file=str(p))


DIRECTIONS = ("across", "down", "any")  # "any": one clue list for both directions

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
    data, lines = _compose(text, file)
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
    _apply_givens(grid, data.get("givens"), file, lines.get("givens"))
    rules = _rules(data.get("rules") or {}, file, lines)
    variables = _variables(data.get("variables"), file, lines, grid)
    clues = _clues(data["clues"], grid, variables, rules, file, lines)
    _transforms(data.get("entries") or {}, clues, file, lines)
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


def _apply_givens(grid: Grid, givens: Any, file, line) -> None:
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


_RULE_KEYS = {
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


def _rules(raw: Any, file, lines) -> Rules:
    if not isinstance(raw, dict):
        raise InvalidSpec(
            "rules must be a mapping",
            file=file,
            field="rules",
            line=lines.get("rules"),
            expected="keys such as distinct, digits",
        )
    bad = sorted(set(raw) - _RULE_KEYS)
    if bad:
        raise InvalidSpec(
            f"unknown rule(s): {', '.join(bad)}",
            file=file,
            field=f"rules.{bad[0]}",
            line=lines.get(f"rules.{bad[0]}"),
            expected="some of " + ", ".join(sorted(_RULE_KEYS)),
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


def _variables(raw: Any, file, lines, grid: Grid) -> Variables:
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


def _clues(
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
    parser = _ClueParser(names, variables.names, rules, file)
    out: dict[str, Clue] = {}
    for name, d, text, cells, entry, fld, _item in items:
        line = lines.get(fld)
        parts = parser.parse(name, text, fld, line)
        for i, tmpl in enumerate(rules.every_clue):
            rf = f"rules.every_clue[{i}]"
            parts += parser.parse(
                name, tmpl.replace("{clue}", name), rf, lines.get(rf, lines.get("rules.every_clue"))
            )
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


def _transforms(raw: Any, clues: dict[str, Clue], file, lines) -> None:
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
