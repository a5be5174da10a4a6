"""Slitherlink: draw one closed loop along grid edges; a number in a cell counts the loop
edges around it. Edges carry the variables, vertices carry the degree rule."""

from __future__ import annotations

from typing import Any

from ..domains import Bool, Int
from ..genre import Drawing, Genre, Instance, concrete, parse_header
from ..ir import Or, Param, forall
from ..model import ClueSpec, Grid, Model
from ..primitives import single_loop
from ..topology import Cell, Edge
from .common import read_cells, write_cells

__all__ = ["Slitherlink", "inside_cells"]


def inside_cells(rows: int, cols: int, on: Any) -> dict:
    """Cells inside the loop (parity of loop edges crossed walking in from the left)."""
    out = {}
    for r in range(rows):
        inside = False
        for c in range(cols):
            if on(Edge("v", r, c)):
                inside = not inside
            out[Cell(r, c)] = inside
    return out


class Slitherlink(Genre):
    id = "slitherlink"
    title = "Slitherlink"
    summary = "Slitherlink: one closed loop along the grid lines, numbers count its edges"
    rules_doc = (
        "Draw a single closed loop along the dotted grid lines, never crossing or "
        "branching. A number in a cell tells how many of that cell's four sides the "
        "loop uses."
    )
    min_size = 4
    max_size = 30
    default_size = (6, 6)
    answer_var = "line"
    removable = ("number",)
    puzzlink_name = "slither"
    answer_doc = (
        "one line per row of cells, 1 for a cell inside the loop and 0 for a cell "
        "outside (the inside determines the loop)."
    )

    def build_rules(self) -> Model:
        nR, nC = Param("nR", int), Param("nC", int)
        grid = Grid(nR, nC)
        line = Bool.over(grid.E, name="line")
        m = Model("slitherlink")
        m.add(
            forall(
                grid.V,
                lambda v: Or(
                    grid.vertex_edges(v).count_true(line) == 0,
                    grid.vertex_edges(v).count_true(line) == 2,
                ),
            ),
            "every vertex has 0 or 2 loop edges",
        )
        m.add(single_loop(grid.E, line, nodes="vertices"), "the edges form one loop")
        number = ClueSpec(grid.C, Int(0, 3), name="number")
        m.add(number.rule(lambda c, k: grid.incident_edges(c).count_true(line) == k), "numbers")
        return m

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        g = concrete(inst.rows, inst.cols)
        line = sol["line"]
        return {"number": {c: sum(1 for e in g.cell_edges(c) if line[e]) for c in g.cells()}}

    def answer_grid(self, inst: Instance, sol: dict) -> list[list[str]]:
        ins = inside_cells(inst.rows, inst.cols, lambda e: sol["line"][e])
        return [
            ["1" if ins[Cell(r, c)] else "0" for c in range(inst.cols)] for r in range(inst.rows)
        ]

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        inst.clues = {
            "number": read_cells(
                lines,
                inst.rows,
                inst.cols,
                lambda t: int({"0": 0, "1": 1, "2": 2, "3": 3}[t]),
                genre=self.id,
            )
        }
        return inst

    def format(self, inst: Instance) -> str:
        n = inst.clues.get("number", {})
        body = write_cells(inst.rows, inst.cols, lambda c: str(n[c]) if c in n else ".")
        return "\n".join([self.header(inst)] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols, vertex_dots=True)
        d.text = {c: str(v) for c, v in inst.clues.get("number", {}).items()}
        if sol:
            d.edges = {e for e, v in sol["line"].items() if v}
        return d
