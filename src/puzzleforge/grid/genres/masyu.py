"""Masyu: one loop through cell centres; it goes straight through white pearls and turns
at at least one neighbour, turns on black pearls and goes straight two cells each way.
Variables sit on inner edges (the link between two neighbouring cells)."""

from __future__ import annotations

from typing import Any

from ..domains import Bool, Enum
from ..genre import Drawing, Genre, Instance, concrete, parse_header
from ..ir import And, Implies, Or, Param
from ..model import ClueSpec, Grid, Model
from ..primitives import single_loop
from ..topology import Cell
from .common import read_cells, write_cells

__all__ = ["Masyu"]

SHAPES = {
    frozenset("NS"): "|",
    frozenset("EW"): "-",
    frozenset("NE"): "L",
    frozenset("NW"): "J",
    frozenset("SE"): "r",
    frozenset("SW"): "7",
    frozenset(): ".",
}


class Masyu(Genre):
    id = "masyu"
    title = "Masyu"
    summary = "Masyu: one loop through cell centres obeying white and black pearls"
    rules_doc = (
        "Draw one closed loop through the centres of cells (horizontal and vertical moves, "
        "no crossing). It passes every pearl. On a white pearl it goes straight and turns in "
        "the previous or next cell; on a black pearl it turns and goes straight for two "
        "cells on both sides."
    )
    min_size = 4
    max_size = 20
    default_size = (6, 6)
    answer_var = "link"
    removable = ("pearl",)
    binary_answer = False
    puzzlink_name = "mashu"
    answer_doc = (
        "one line per row, one symbol per cell for the loop through it: | - L (N+E) "
        "J (N+W) r (S+E) 7 (S+W), '.' when the loop misses the cell."
    )

    def build_rules(self) -> Model:
        nR, nC = Param("nR", int), Param("nC", int)
        grid = Grid(nR, nC)
        link = Bool.over(grid.inner_edges, name="link")
        m = Model("masyu")
        m.add(single_loop(grid.inner_edges, link, nodes="cells"), "one loop through cell centres")

        def go(c, d):
            return link.get(grid.cell_edge(c, d), False)

        step = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}

        def nb(c, d):
            return grid.step(c, *step[d])

        pearl = ClueSpec(grid.C, Enum(("W", "B")), name="pearl")

        def white(c: Any) -> Any:
            ns = And(go(c, "N"), go(c, "S"))
            ew = And(go(c, "E"), go(c, "W"))
            return And(
                Or(ns, ew),
                Implies(ns, Or(~go(nb(c, "N"), "N"), ~go(nb(c, "S"), "S"))),
                Implies(ew, Or(~go(nb(c, "E"), "E"), ~go(nb(c, "W"), "W"))),
            )

        def black(c: Any) -> Any:
            return And(
                Or(go(c, "N"), go(c, "S")),
                Or(go(c, "E"), go(c, "W")),
                *[Implies(go(c, d), go(nb(c, d), d)) for d in "NSEW"],
            )

        m.add(
            pearl.rule(lambda c, p: Implies(p == "W", white(c)) & Implies(p == "B", black(c))),
            "pearls",
        )
        return m

    def _dirs(self, inst: Instance, sol: dict, c: Cell) -> frozenset:
        g = concrete(inst.rows, inst.cols)
        link = sol["link"]
        return frozenset(d for d in "NSEW" if link.get(g.cell_edge(c, d), False))

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        pearls = {}
        step = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}

        def nbr(c: Cell, d: str) -> Cell:
            return Cell(c.r + step[d][0], c.c + step[d][1])

        for c in concrete(inst.rows, inst.cols).cells():
            ds = self._dirs(inst, sol, c)
            if len(ds) != 2:
                continue
            straight = ds in (frozenset("NS"), frozenset("EW"))
            if straight:
                if any(
                    self._dirs(inst, sol, nbr(c, d)) not in (frozenset("NS"), frozenset("EW"))
                    for d in ds
                ):
                    pearls[c] = "W"
            elif all(d in self._dirs(inst, sol, nbr(c, d)) for d in ds):
                pearls[c] = "B"
        return {"pearl": pearls}

    def max_repairs(self, inst: Instance) -> int:
        return inst.rows * inst.cols

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        # ``other`` satisfies every pearl of ``sol``, so its own pearls are a superset:
        # continuing with it only adds constraints; stop when nothing is gained.
        mine = len(self.clues_from_solution(inst, sol)["pearl"])
        theirs = len(self.clues_from_solution(inst, other)["pearl"])
        return other if theirs > mine else None

    def answer_grid(self, inst: Instance, sol: dict) -> list[list[str]]:
        return [
            [SHAPES.get(self._dirs(inst, sol, Cell(r, c)), "?") for c in range(inst.cols)]
            for r in range(inst.rows)
        ]

    def normalize_token(self, tok: str) -> str:
        return {
            "─": "-",
            "│": "|",
            "└": "L",
            "┘": "J",
            "┌": "r",
            "┐": "7",
            "R": "r",
            "l": "L",
            "j": "J",
        }.get(tok, tok)

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        inst.clues = {
            "pearl": read_cells(
                lines,
                inst.rows,
                inst.cols,
                lambda t: {"w": "W", "o": "W", "b": "B", "x": "B", "1": "W", "2": "B"}[t.lower()],
                genre=self.id,
            )
        }
        return inst

    def format(self, inst: Instance) -> str:
        p = inst.clues.get("pearl", {})
        body = write_cells(inst.rows, inst.cols, lambda c: p.get(c, "."))
        return "\n".join([self.header(inst)] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        d.circles = {
            c: ("white" if v == "W" else "black") for c, v in inst.clues.get("pearl", {}).items()
        }
        if sol:
            d.links = {e for e, v in sol["link"].items() if v}
            glyph = {"|": "│", "-": "─", "L": "└", "J": "┘", "r": "┌", "7": "┐"}
            for c in concrete(inst.rows, inst.cols).cells():
                shape = SHAPES.get(self._dirs(inst, sol, c), ".")
                if shape in glyph and c not in d.circles:
                    d.text[c] = glyph[shape]
        return d
