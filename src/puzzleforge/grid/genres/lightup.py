"""Light Up (Akari): place bulbs in white cells so every white cell is lit, no bulb sees
another, and a numbered wall touches exactly that many bulbs. Walls are instance data;
their numbers are clues the generator may remove."""

from __future__ import annotations

from typing import Any

from ..domains import Bool, Int
from ..genre import Drawing, Genre, Instance, concrete, parse_header
from ..ir import Const, Implies, Param, forall
from ..model import ClueSpec, Grid, Model
from ..topology import Cell
from .common import read_cells, write_cells
from .lightup_steps import LightUpSteps

__all__ = ["LightUp"]


def _light_up_token(t: str) -> int:
    """'#' a wall without a number (-1), '0'..'4' a numbered wall; anything else is an error
    that ``read_cells`` reports with its place (KeyError, like an unknown token)."""
    if t == "#":
        return -1
    if t in "01234":
        return int(t)
    raise KeyError(t)


class LightUp(Genre):
    id = "lightup"
    title = "Light Up (Akari)"
    summary = "Light Up / Akari: light every white cell with non-facing bulbs"
    rules_doc = (
        "Place light bulbs in white cells. A bulb lights its cell and every cell in its "
        "row and column up to a wall. Every white cell must be lit, no bulb may light "
        "another bulb, and a numbered wall touches exactly that many bulbs orthogonally."
    )
    min_size = 4
    max_size = 30
    default_size = (7, 7)
    answer_var = "bulb"
    removable = ("number",)
    puzzlink_name = "lightup"
    extra_params = (("walls", float, 0.22),)
    answer_doc = "one line per row, 1 for a bulb and 0 for any other cell (walls included)."

    def build_rules(self) -> Model:
        nR, nC = Param("nR", int), Param("nC", int)
        grid = Grid(nR, nC)
        bulb = Bool.over(grid.C, name="bulb")
        wall = Const(Bool, over=grid.C, name="wall")
        m = Model("lightup")
        m.add(forall(grid.C, lambda c: Implies(wall[c], ~bulb[c])), "no bulb on a wall")
        m.add(
            forall(grid.C, lambda c: Implies(~wall[c], grid.sight(c, wall).any(bulb))),
            "every white cell lit",
        )
        m.add(
            forall(
                grid.C,
                lambda c: Implies(bulb[c], grid.sight(c, wall).all(lambda d: (d == c) | ~bulb[d])),
            ),
            "bulbs do not see each other",
        )
        number = ClueSpec(grid.C, Int(0, 4), name="number")
        m.add(number.rule(lambda c, k: grid.neighbors(c).count_true(bulb) == k), "numbered walls")
        return m

    def opts_from_params(self, params: Any, rows: int, cols: int) -> dict:
        return {"walls": float(getattr(params, "walls", 0.22))}

    def check_params(self, params: Any) -> list[str]:
        return [] if 0.05 <= params.walls <= 0.5 else [f"walls={params.walls} is not in 0.05..0.5"]

    def random_data(self, inst: Instance, rng: Any) -> dict:
        density = float(inst.opts.get("walls", 0.22))
        cells = list(concrete(inst.rows, inst.cols).cells())
        k = max(1, round(density * len(cells)))
        # symmetric layouts, as published Akari puzzles usually are
        walls: set = set()
        order = cells[:]
        rng.shuffle(order)
        for c in order:
            if len(walls) >= k:
                break
            walls.add(c)
            walls.add(Cell(inst.rows - 1 - c.r, inst.cols - 1 - c.c))
        return {"wall": {c: (c in walls) for c in cells}}

    def technique_grader(self, inst: Instance, comp: Any) -> Any:
        """Grade by technique (lightup_steps.py): easy = the basic rules, medium = +
        number placements and one-step trials, hard = more. Why: failed-literal probing,
        the generic medium, solved every minimal puzzle made, so none graded hard."""
        walls = {(c.r, c.c) for c, w in inst.data["wall"].items() if w}
        steps = LightUpSteps(inst.rows, inst.cols, walls)

        def grader(clues: dict, cap: int = 3) -> float:
            numbers = {(c.r, c.c): v for c, v in clues.get("number", {}).items()}
            return steps.grade(numbers, cap=cap)

        return grader

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        g = concrete(inst.rows, inst.cols)
        walls = inst.data["wall"]
        return {
            "number": {
                c: sum(1 for d in g.neighbors(c) if sol["bulb"][d])
                for c in g.cells()
                if walls.get(c)
            }
        }

    def max_repairs(self, inst: Instance) -> int:
        return inst.rows * inst.cols // 3

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        g = concrete(inst.rows, inst.cols)
        walls = dict(inst.data["wall"])
        cand = [c for c in g.cells() if other["bulb"][c] and not sol["bulb"][c] and not walls[c]]
        rng.shuffle(cand)
        for x in cand:
            trial = dict(walls)
            trial[x] = True
            if _lit_ok(g, trial, sol["bulb"]):
                inst.data = {"wall": trial}
                return sol
        return None

    # -- text ------------------------------------------------------------------------
    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        cells = read_cells(lines, inst.rows, inst.cols, _light_up_token, genre=self.id)
        inst.data = {"wall": {c: c in cells for c in concrete(inst.rows, inst.cols).cells()}}
        inst.clues = {"number": {c: v for c, v in cells.items() if v >= 0}}
        return inst

    def format(self, inst: Instance) -> str:
        walls, num = inst.data["wall"], inst.clues.get("number", {})
        body = write_cells(
            inst.rows,
            inst.cols,
            lambda c: str(num[c]) if c in num else "#" if walls.get(c) else ".",
        )
        return "\n".join([self.header(inst)] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        d.shaded = {c for c, w in inst.data["wall"].items() if w}
        d.text = {c: str(v) for c, v in inst.clues.get("number", {}).items()}
        if sol:
            for c, v in sol["bulb"].items():
                if v:
                    d.circles[c] = "white"
        return d


def _lit_ok(g: Any, walls: dict, bulbs: dict) -> bool:
    """Does ``bulbs`` solve the layout ``walls`` (ignoring numbers)?"""
    lit = set()
    for c in g.cells():
        if bulbs[c]:
            if walls[c]:
                return False
            seen = g.sight(c, lambda x: walls[x])
            if any(bulbs[x] for x in seen if x != c):
                return False
            lit.update(seen)
    return all(walls[c] or c in lit for c in g.cells())
