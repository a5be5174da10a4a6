"""Unruly (Tatham's name; 0h h1): black/white cells, rows and columns half black, no three
equal in a row. Written exactly as the seed's example rule set."""

from __future__ import annotations

from typing import Any

from ..domains import Bool
from ..genre import Drawing, Genre, Instance, parse_header
from ..ir import Param, forall
from ..model import ClueSpec, Grid, Model, no_triples
from .common import read_cells, write_cells

__all__ = ["Unruly", "binary_rules"]


def binary_rules(name: str) -> tuple[Model, Grid, Any, ClueSpec]:
    nR, nC = Param("nR", int), Param("nC", int)
    grid = Grid(nR, nC)
    color = Bool.over(grid.C, name="color")
    m = Model(name)
    m.add(forall(grid.rows, lambda r: r.sum_of(color) == nC // 2), "rows half black")
    m.add(forall(grid.cols, lambda c: c.sum_of(color) == nR // 2), "columns half black")

    def no_triple(line):
        return forall(line.windows(3), lambda w: 0 < w.sum_of(color) < 3)

    m.add(forall(grid.rows, no_triple), "no three in a row")
    m.add(forall(grid.cols, lambda c: no_triples(c, color)), "no three in a column")
    given = ClueSpec(grid.C, Bool, name="given")
    m.add(given.rule(lambda c, v: color[c] == v), "given cells")
    return m, grid, color, given


class Unruly(Genre):
    id = "unruly"
    tier_sizes = {
        "hard": (
            10,
            40,
            "failed-literal probing solved every minimal puzzle the generator made at these "
            "sizes, so none grades 3.x (search)",
        ),
    }
    title = "Unruly"
    summary = "Unruly: fill black/white, half of each row/column black, no three alike in a line"
    rules_doc = (
        "Colour every cell black (1) or white (0). Each row and column holds as many "
        "black as white cells. No three cells of the same colour are adjacent in a row or column."
    )
    even = True
    answer_var = "color"
    puzzlink_name = None

    def build_rules(self) -> Model:
        return binary_rules("unruly")[0]

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        return {"given": dict(sol["color"])}

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        inst.clues = {
            "given": read_cells(
                lines,
                inst.rows,
                inst.cols,
                lambda t: {"0": False, "1": True}[t.lower().replace("w", "0").replace("b", "1")],
                genre=self.id,
            )
        }
        return inst

    def format(self, inst: Instance) -> str:
        g = inst.clues.get("given", {})
        body = write_cells(
            inst.rows, inst.cols, lambda c: "." if c not in g else ("1" if g[c] else "0")
        )
        return "\n".join([self.header(inst)] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        g = inst.clues.get("given", {})
        vals = sol["color"] if sol else g
        for c, v in vals.items():
            if v:
                d.shaded.add(c)
            elif c in g:
                d.text[c] = "○"
        for c, v in g.items():
            if v:
                d.text[c] = "●"
        return d
