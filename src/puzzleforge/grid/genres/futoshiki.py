"""Futoshiki: a Latin square with inequality signs between neighbouring cells."""

from __future__ import annotations

from typing import Any

from ...core.errors import InvalidDescription
from ..domains import Enum, Int
from ..genre import Drawing, Genre, Instance, parse_header
from ..ir import Implies, Param, Range, forall
from ..model import ClueSpec, Grid, Model
from ..techniques import LatinTechniques
from ..topology import Cell, Edge

__all__ = ["Futoshiki", "latin_rules"]


def latin_rules(name: str, var_name: str) -> tuple:
    n = Param("n", int)
    grid = Grid(n, n)
    x = Int(1, n).over(grid.C, name=var_name)
    m = Model(name)

    def once(S):
        return forall(Range(1, n + 1), lambda v: S.count_true(lambda c: x[c] == v) == 1)

    m.add(forall(grid.rows, once), "rows hold each value once")
    m.add(forall(grid.cols, once), "columns hold each value once")
    given = ClueSpec(grid.C, Int(1, n), name="given")
    m.add(given.rule(lambda c, k: x[c] == k), "given values")
    return m, grid, x, n


class Futoshiki(Genre):
    id = "futoshiki"
    title = "Futoshiki"
    summary = "Futoshiki: Latin square with < > constraints between neighbours"
    rules_doc = (
        "Fill 1..n so each row and column holds every value once; an inequality sign "
        "between two cells must hold (< and > across, ^ means upper < lower, v upper > lower)."
    )
    square = True
    min_size = 4
    max_size = 12
    default_size = (5, 5)
    answer_var = "digit"
    binary_answer = False
    removable = ("given", "rel")
    answer_doc = "one line per row, the digits of the row."

    def build_rules(self) -> Model:
        m, grid, digit, n = latin_rules("futoshiki", "digit")
        rel = ClueSpec(grid.inner_edges, Enum(("<", ">")), name="rel")

        def a(e):
            return digit[grid.edge_cell(e, 0)]

        def b(e):
            return digit[grid.edge_cell(e, 1)]

        m.add(
            rel.rule(lambda e, s: Implies(s == "<", a(e) < b(e)) & Implies(s == ">", a(e) > b(e))),
            "inequalities (before/above vs after/below)",
        )
        return m

    def bind(self, inst: Instance) -> dict:
        return {"n": inst.rows}

    def technique_grader(self, inst: Instance, comp: Any) -> Any:
        """Grade by human technique (techniques.py): easy = singles and inequality
        bounds (chains follow by repetition), medium = + pairs/triples, hard = more.
        Why: failed-literal probing, the generic medium, finished every minimal puzzle
        made below 10x10, so none graded hard."""
        n = inst.rows
        solver = LatinTechniques(n)

        def grader(clues: dict, cap: int = 3) -> float:
            givens = {c.r * n + c.c: v for c, v in clues.get("given", {}).items()}
            less = []
            for e, s in clues.get("rel", {}).items():
                a, b = (
                    (e.r * n + e.c - 1, e.r * n + e.c)
                    if e.o == "v"
                    else (
                        (e.r - 1) * n + e.c,
                        e.r * n + e.c,
                    )
                )
                less.append((a, b) if s == "<" else (b, a))
            return solver.grade(givens, less, cap=cap)

        return grader

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        d = sol["digit"]
        rel = {}
        n = inst.rows
        for r in range(n):
            for c in range(n):
                if c + 1 < n:
                    rel[Edge("v", r, c + 1)] = "<" if d[Cell(r, c)] < d[Cell(r, c + 1)] else ">"
                if r + 1 < n:
                    rel[Edge("h", r + 1, c)] = "<" if d[Cell(r, c)] < d[Cell(r + 1, c)] else ">"
        return {"given": dict(d), "rel": rel}

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        n = fields["rows"]
        inst = Instance(self.id, n, fields["cols"])
        raw = [line for line in text.splitlines()[1:] if not line.lstrip().startswith(";")]
        raw = [line for line in raw if line.strip()]
        if len(raw) != 2 * n - 1:
            raise InvalidDescription(
                f"futoshiki body has {len(raw)} lines",
                expected=f"{2 * n - 1} lines: cell rows alternating with '^ v -' rows",
            )
        given, rel = {}, {}
        for i, line in enumerate(raw):
            if i % 2 == 0:
                r = i // 2
                line = line.rstrip().ljust(2 * n - 1)
                for c in range(n):
                    t = line[2 * c]
                    if t.isalnum() and 1 <= int(t, 36) <= n:
                        given[Cell(r, c)] = int(t, 36)
                    elif t not in ".-":
                        raise InvalidDescription(
                            f"cell {t!r}",
                            line=i + 2,
                            expected=f"a value 1..{n} (A=10, B=11, C=12) or '.'",
                        )
                    if c + 1 < n and line[2 * c + 1] in "<>":
                        rel[Edge("v", r, c + 1)] = line[2 * c + 1]
            else:
                r = i // 2
                toks = line.split()
                if len(toks) != n:
                    raise InvalidDescription(
                        f"relation row has {len(toks)} marks",
                        line=i + 2,
                        expected=f"{n} marks of ^ v -",
                    )
                for c, t in enumerate(toks):
                    if t in ("^", "v"):
                        rel[Edge("h", r + 1, c)] = "<" if t == "^" else ">"
                    elif t != "-":
                        raise InvalidDescription(f"mark {t!r}", line=i + 2, expected="^, v or -")
        inst.clues = {"given": given, "rel": rel}
        return inst

    def format(self, inst: Instance) -> str:
        n = inst.rows
        g, rel = inst.clues.get("given", {}), inst.clues.get("rel", {})
        out = [self.header(inst)]
        for r in range(n):
            line = ""
            for c in range(n):
                line += "0123456789ABC"[g[Cell(r, c)]] if Cell(r, c) in g else "."
                if c + 1 < n:
                    line += rel.get(Edge("v", r, c + 1), " ")
            out.append(line)
            if r + 1 < n:
                out.append(
                    " ".join(
                        {"<": "^", ">": "v"}.get(rel.get(Edge("h", r + 1, c), ""), "-")
                        for c in range(n)
                    )
                )
        return "\n".join(out) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        vals = sol["digit"] if sol else inst.clues.get("given", {})
        d.text = {c: str(v) for c, v in vals.items()}
        for e, s in inst.clues.get("rel", {}).items():
            d.between[e] = s if e.o == "v" else {"<": "^", ">": "v"}[s]
        return d
