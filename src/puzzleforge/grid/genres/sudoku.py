"""Sudoku of any box size (bh x bw boxes on an n x n board, n = bh * bw)."""

from __future__ import annotations

from typing import Any

from ...core.errors import InvalidDescription
from ..domains import Int
from ..genre import Drawing, Genre, Instance, parse_header
from ..ir import Param, Range, forall
from ..model import ClueSpec, Grid, Model
from ..techniques import LatinTechniques
from ..topology import Cell
from .common import read_cells, write_cells

__all__ = ["Sudoku", "default_box"]


def default_box(n: int) -> tuple[int, int]:
    """The most square bh x bw with bh * bw = n, bh <= bw (9 -> 3x3, 6 -> 2x3)."""
    best = (1, n)
    for h in range(1, n + 1):
        if n % h == 0 and h <= n // h:
            best = (h, n // h)
    return best


_SINGLES_4X4 = (
    "every uniquely solvable 4x4 Sudoku is solved by naked and hidden singles (checked: "
    "all 85,632 minimal clue sets of the 288 grids; more clues only help singles), so "
    "none needs medium or hard techniques"
)


class Sudoku(Genre):
    id = "sudoku"
    tier_sizes = {"medium": (6, 25, _SINGLES_4X4), "hard": (6, 25, _SINGLES_4X4)}
    title = "Sudoku"
    summary = "Sudoku of any box size: each row, column and box holds 1..n once"
    rules_doc = (
        "Fill digits 1..n so that every row, every column and every bh x bw box holds "
        "each digit once."
    )
    square = True
    min_size = 4
    max_size = 25
    default_size = (9, 9)
    answer_var = "digit"
    binary_answer = False
    puzzlink_name = "sudoku"
    answer_doc = "one line per row, the digits of the row (space separated when n > 9)."
    extra_params = (("box", str, "auto"),)

    def opts_from_params(self, params, rows: int, cols: int) -> dict:
        box = getattr(params, "box", "auto")
        if box in ("", "auto"):
            return {}
        try:
            bh, bw = (int(x) for x in str(box).lower().split("x"))
        except ValueError:
            return {"box": (0, 0)}
        return {"box": (bh, bw)}

    def build_rules(self) -> Model:
        n, bh, bw = Param("n", int), Param("bh", int), Param("bw", int)
        grid = Grid(n, n)
        digit = Int(1, n).over(grid.C, name="digit")
        m = Model("sudoku")

        def once(S):
            return forall(Range(1, n + 1), lambda v: S.count_true(lambda c: digit[c] == v) == 1)

        m.add(forall(grid.rows, once), "rows hold each digit once")
        m.add(forall(grid.cols, once), "columns hold each digit once")
        m.add(forall(grid.boxes(bh, bw), once), "boxes hold each digit once")
        given = ClueSpec(grid.C, Int(1, n), name="given")
        m.add(given.rule(lambda c, k: digit[c] == k), "given digits")
        return m

    def box(self, inst: Instance) -> tuple[int, int]:
        if "box" in inst.opts:
            bh, bw = inst.opts["box"]
            return int(bh), int(bw)
        return default_box(inst.rows)

    def check_size(self, rows: int, cols: int, opts: dict) -> list[str]:
        problems = super().check_size(rows, cols, opts)
        if "box" in opts:
            bh, bw = opts["box"]
            if bh * bw != rows:
                problems.append(f"box {bh}x{bw} does not tile a {rows}x{rows} sudoku")
        return problems

    def bind(self, inst: Instance) -> dict:
        bh, bw = self.box(inst)
        return {"n": inst.rows, "bh": bh, "bw": bw}

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        return {"given": dict(sol["digit"])}

    def technique_grader(self, inst: Instance, comp: Any) -> Any:
        """Grade by human technique (techniques.py): easy = singles, medium = + locked
        candidates and pairs/triples, hard = more. Why: failed-literal probing, the
        generic medium, finishes nearly every Sudoku, so no puzzle ever graded hard."""
        n = inst.rows
        bh, bw = self.box(inst)
        boxes = [
            [(r0 + r) * n + c0 + c for r in range(bh) for c in range(bw)]
            for r0 in range(0, n, bh)
            for c0 in range(0, n, bw)
        ]
        solver = LatinTechniques(n, boxes)

        def grader(clues: dict, cap: int = 3) -> float:
            givens = {c.r * n + c.c: v for c, v in clues.get("given", {}).items()}
            return solver.grade(givens, cap=cap)

        return grader

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        if "box" in fields:
            try:
                bh, bw = (int(x) for x in fields["box"].lower().split("x"))
            except ValueError:
                raise InvalidDescription(
                    f"box={fields['box']}", line=1, expected="box=HxW"
                ) from None
            inst.opts["box"] = (bh, bw)
        n = inst.rows
        inst.clues = {"given": read_cells(lines, n, n, lambda t: _digit(t, n), genre=self.id)}
        return inst

    def format(self, inst: Instance) -> str:
        g = inst.clues.get("given", {})
        bh, bw = self.box(inst)
        body = write_cells(inst.rows, inst.cols, lambda c: str(g[c]) if c in g else ".")
        return "\n".join([self.header(inst, box=f"{bh}x{bw}")] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        bh, bw = self.box(inst)
        d.regions = {
            Cell(r, c): (r // bh, c // bw) for r in range(inst.rows) for c in range(inst.cols)
        }
        vals = sol["digit"] if sol else inst.clues.get("given", {})
        d.text = {c: str(v) for c, v in vals.items()}
        return d


def _digit(t: str, n: int) -> int:
    v = int(t) if t.isdigit() else int(t, 36)
    if not 1 <= v <= n:
        raise ValueError(t)
    return v
