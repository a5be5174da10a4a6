"""What a genre is: its DSL rules plus instance text, answers and drawing.

Why a base class here (and not in each genre): every genre shares the same life cycle —
bind the size, compile once, clues as assumptions, answer as a grid of tokens — so a genre
module only writes its rules, its text format and its clue layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..core.errors import InvalidDescription
from .engine import Compiled
from .model import Model
from .topology import Cell, ConcreteGrid

__all__ = ["Instance", "Genre", "Drawing", "parse_size", "split_tokens", "parse_header"]


@dataclass
class Instance:
    """One puzzle of a genre: size, options (box size, stars...), fixed data (regions,
    walls) and clues ``{spec name: {place: value}}``."""

    genre: str
    rows: int
    cols: int
    opts: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    clues: dict = field(default_factory=dict)

    def clue_count(self) -> int:
        return sum(len(v) for v in self.clues.values())


@dataclass
class Drawing:
    """What a renderer draws: text in cells, shaded cells, circles, loop segments, labels."""

    rows: int
    cols: int
    text: dict = field(default_factory=dict)  # Cell -> str
    shaded: set = field(default_factory=set)  # cells filled dark
    circles: dict = field(default_factory=dict)  # Cell -> "white" | "black"
    edges: set = field(default_factory=set)  # Edge drawn thick (loop / fences)
    links: set = field(default_factory=set)  # inner Edges: path between cell centres
    regions: dict = field(default_factory=dict)  # Cell -> region id (thick borders)
    outside: dict = field(default_factory=dict)  # ("N"|"S"|"W"|"E", index) -> str
    between: dict = field(default_factory=dict)  # inner Edge -> symbol (<, >, ^, v)
    vertex_dots: bool = False


#: Largest side of any grid (rows and columns; the limit puzz.link URLs also have). Checked
#: where a size is read, before any work (docs/limits.md).
MAX_SIDE = 100


def check_side(rows: int, cols: int, *, field_name: str = "size", line: int | None = None) -> None:
    """Refuse a board with a side outside 1..MAX_SIDE before anything is built for it."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidDescription(
            f"size {rows}x{cols} is outside the grid limits",
            field=field_name,
            line=line,
            expected=f"1 to {MAX_SIDE} rows and columns (docs/limits.md)",
        )


def parse_size(text: str, *, field_name: str = "size", line: int | None = None) -> tuple[int, int]:
    """``"RxC"`` (or ``"N"``) -> (rows, cols), checked against the grid limits."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:[xX×*]\s*(\d+))?\s*", str(text))
    if not m:
        raise InvalidDescription(
            f"size {text!r} is not RxC", field=field_name, line=line, expected="e.g. 6x6 or 9"
        )
    r = int(m.group(1))
    c = int(m.group(2) or r)
    check_side(r, c, field_name=field_name, line=line)
    return r, c


#: How people and models write shaded (1) and white (0) cells; all read as the canonical digit.
_BINARY_SYMBOLS = {
    "#": "1",
    "x": "1",
    "b": "1",
    "*": "1",
    "■": "1",
    "⬛": "1",
    "█": "1",
    "●": "1",
    "w": "0",
    "-": "0",
    ".": "0",
    "o": "0",
    "□": "0",
    "⬜": "0",
    "·": "0",
    "○": "0",
}


def split_tokens(line: str) -> list[str]:
    """Tokens of a grid line: whitespace/comma separated, else one character each."""
    line = line.strip().replace("|", " ").replace("\t", " ")
    if " " in line.strip() or "," in line:
        return [t for t in re.split(r"[\s,]+", line) if t]
    return list(line)


def parse_header(text: str, genre: str) -> tuple[dict, list[str]]:
    """First line ``genre RxC key=value...`` -> (fields, other lines); lines starting
    with ";" are comments."""
    lines = [line.rstrip("\n") for line in text.splitlines()]
    lines = [line for line in lines if line.strip() and not line.lstrip().startswith(";")]
    if not lines:
        raise InvalidDescription("empty puzzle text", expected=f"a first line '{genre} RxC'")
    head = lines[0].split()
    if head[0].lower() != genre:
        raise InvalidDescription(
            f"puzzle text starts with {head[0]!r}",
            line=1,
            expected=f"'{genre} RxC ...' as the first line",
        )
    if len(head) < 2:
        raise InvalidDescription(
            "missing size on the first line", line=1, expected=f"'{genre} RxC'"
        )
    rows, cols = parse_size(head[1], line=1)
    fields: dict = {"rows": rows, "cols": cols}
    for item in head[2:]:
        if "=" not in item:
            raise InvalidDescription(f"header item {item!r}", line=1, expected="key=value")
        k, v = item.split("=", 1)
        fields[k] = v
    return fields, lines[1:]


class Genre:
    """Base of every genre. Subclasses set the class attributes and override the hooks."""

    id = "?"
    title = "?"
    summary = "?"
    rules_doc = ""
    square = False  # rows must equal cols
    even = False  # sizes must be even
    min_size = 4
    max_size = 40
    default_size = (6, 6)
    answer_var = "x"
    removable: tuple[str, ...] = ("given",)  # clue specs the generator may thin out
    remove_first: tuple = ()  # of those, specs whose clues are tried first (else one random order)
    puzzlink_name: str | None = None

    # -- rules ----------------------------------------------------------------------------
    def build_rules(self) -> Model:
        raise NotImplementedError

    @property
    def rules(self) -> Model:
        cached = self.__dict__.get("_rules")
        if cached is None:
            cached = self.__dict__["_rules"] = self.build_rules()
        return cached

    def bind(self, inst: Instance) -> dict:
        return {"nR": inst.rows, "nC": inst.cols}

    def compile(self, inst: Instance, **options: Any) -> Compiled:
        comp = Compiled(self.rules, self.bind(inst), inst.data, **options)
        comp.deduce = self.deductions(inst, comp)
        comp.technique = self.technique_grader(inst, comp)
        return comp

    def technique_grader(self, inst: Instance, comp: Compiled) -> Any:
        """Optional: ``f(clues, cap) -> grade`` that replaces the generic grade
        (grading.py) for genres people grade by solving technique (Sudoku, Futoshiki:
        techniques.py). ``cap`` < 3 may answer ``cap + 1.0`` for anything harder than
        ``cap``. Default none: the generic propagation / probing / search grade."""
        return None

    def deductions(self, inst: Instance, comp: Compiled) -> Any:
        """Optional: ``f(known literals) -> new literals`` (None = contradiction) that the
        grading closure applies with unit propagation, for human steps the rule encoding
        does not propagate (Kakurasu's line sums). Must be sound; default none."""
        return None

    def check_size(self, rows: int, cols: int, opts: dict) -> list[str]:
        problems = []
        if self.square and rows != cols:
            problems.append(f"{self.id} needs a square board, got {rows}x{cols}")
        if self.even and (rows % 2 or cols % 2):
            problems.append(f"{self.id} needs even sizes, got {rows}x{cols}")
        if not (self.min_size <= rows <= self.max_size and self.min_size <= cols <= self.max_size):
            problems.append(
                f"{self.id} sizes must lie in {self.min_size}..{self.max_size}, got {rows}x{cols}"
            )
        return problems

    #: Tiers the generator does not offer at some sizes: tier -> (smallest side, largest
    #: side, why). Measured (bench/grid_genres_sweep.py, docs/grid.md "Tiers"): outside the
    #: range the tier was never reached, so the CLI, the family and the web app refuse it at
    #: once with the reason instead of failing after 30 attempts.
    tier_sizes: dict = {}

    def tier_problem(self, tier: str, rows: int, cols: int, opts: dict) -> str | None:
        """Why ``tier`` is not offered at this size (None: it is offered)."""
        limits = self.tier_sizes.get(tier)
        if limits is None:
            return None
        lo, hi, why = limits
        side = min(rows, cols)
        if lo <= side <= hi:
            return None
        where = (
            "at any size" if lo > hi else f"below {lo}x{lo}" if side < lo else f"above {hi}x{hi}"
        )
        return f"{self.id} is not offered as {tier} {where} ({rows}x{cols} asked): {why}"

    answer_doc = "one line per row, one symbol per cell (1 = black/shaded, 0 = white)."
    extra_params: tuple = ()  # (name, type, default) added to the family's Params

    # -- generation hooks ------------------------------------------------------------------
    def default_opts(self, rows: int, cols: int, params: Any = None) -> dict:
        return {}

    def opts_from_params(self, params: Any, rows: int, cols: int) -> dict:
        """Instance options from the family Params (box size, stars...)."""
        return self.default_opts(rows, cols, params)

    def check_params(self, params: Any) -> list[str]:
        return []

    def random_data(self, inst: Instance, rng: Any) -> dict:
        """Fixed instance data drawn before the solution (regions, walls)."""
        return {}

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        raise NotImplementedError

    def max_repairs(self, inst: Instance) -> int:
        return 0

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """The full clue set of ``sol`` also admits ``other``. Either change ``inst.data``
        (assign a new dict) so ``sol`` stays a solution and ``other`` is excluded, and
        return ``sol``; or return another solution to continue with; or None to give up."""
        return None

    # -- answers ----------------------------------------------------------------------------
    def answer_grid(self, inst: Instance, sol: dict) -> list[list[str]]:
        vals = sol[self.answer_var]
        return [[self.token(vals[Cell(r, c)]) for c in range(inst.cols)] for r in range(inst.rows)]

    def token(self, value: Any) -> str:
        if isinstance(value, bool):
            return "1" if value else "0"
        return str(value)

    def normalize_token(self, tok: str) -> str:
        t = tok.strip().lower()
        return _BINARY_SYMBOLS.get(t, t) if self.binary_answer else t

    binary_answer = True

    def answer_text(self, inst: Instance, sol: dict) -> str:
        grid = self.answer_grid(inst, sol)
        wide = any(len(t) > 1 for row in grid for t in row)
        return "\n".join((" " if wide else "").join(row) for row in grid)

    def parse_answer(self, text: str) -> list[list[str]]:
        rows = []
        for line in str(text).splitlines():
            if not line.strip() or set(line.strip()) <= set("-+=|"):
                continue
            rows.append([self.normalize_token(t) for t in split_tokens(line)])
        return rows

    def score(self, expected: str, answer: str) -> float:
        exp = self.parse_answer(expected)
        try:
            got = self.parse_answer(answer)
        except Exception:  # noqa: BLE001 - malformed answers score 0
            return 0.0
        total = sum(len(r) for r in exp)
        if not total:
            return 0.0
        good = 0
        for i, row in enumerate(exp):
            other = got[i] if i < len(got) else []
            good += sum(1 for j, t in enumerate(row) if j < len(other) and other[j] == t)
        if len(got) != len(exp) or any(len(a) != len(b) for a, b in zip(exp, got, strict=True)):
            good = min(good, total - 1)
        return good / total

    # -- text format -----------------------------------------------------------------------
    def parse(self, text: str) -> Instance:
        raise NotImplementedError

    def format(self, inst: Instance) -> str:
        raise NotImplementedError

    def header(self, inst: Instance, **extra: Any) -> str:
        items = " ".join(f"{k}={v}" for k, v in extra.items())
        return f"{self.id} {inst.rows}x{inst.cols}" + (f" {items}" if items else "")

    # -- drawing ----------------------------------------------------------------------------
    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        raise NotImplementedError

    def describe_rules(self) -> str:
        return self.rules_doc


@lru_cache(maxsize=64)
def concrete(rows: int, cols: int) -> ConcreteGrid:
    return ConcreteGrid(rows, cols)
