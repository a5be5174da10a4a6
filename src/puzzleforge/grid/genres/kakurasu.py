"""Kakurasu: shade cells; a shaded cell in column j (row i) is worth j (i), counting from
1; the clue right of a row (below a column) is the total worth of its shaded cells."""

from __future__ import annotations

from typing import Any

from ...core.errors import InvalidDescription
from ..domains import Bool, Int
from ..genre import Drawing, Genre, Instance, concrete, parse_header
from ..ir import Param
from ..model import ClueSpec, Grid, Model

__all__ = ["Kakurasu"]


class Kakurasu(Genre):
    id = "kakurasu"
    tier_sizes = {
        "hard": (7, 40, "line solving with probing finished every 6x6 puzzle made"),
    }
    title = "Kakurasu"
    summary = "Kakurasu: shade cells so weighted row/column sums match the clues"
    rules_doc = (
        "Shade some cells. In a row, a shaded cell in column j (1-based) counts j; the "
        "number right of the row is the total. Likewise for columns with row numbers, "
        "totals below the grid."
    )
    square = True
    min_size = 4
    max_size = 12
    default_size = (6, 6)
    answer_var = "shade"
    removable = ("sum",)
    puzzlink_name = None  # exchanged as Janko-style instance text

    def build_rules(self) -> Model:
        n = Param("n", int)
        grid = Grid(n, n)
        shade = Bool.over(grid.C, name="shade")
        m = Model("kakurasu")
        total = ClueSpec(grid.rows | grid.cols, Int(0, n * (n + 1) // 2), name="sum")
        m.add(
            total.rule(lambda L, k: L.sum_of(lambda c: (L.index(c) + 1) * shade[c]) == k),
            "weighted sums of rows and columns",
        )
        return m

    def bind(self, inst: Instance) -> dict:
        return {"n": inst.rows}

    def deductions(self, inst: Instance, comp: Any) -> Any:
        """Line solving: for each row and column whose sum is known, the shadings of its
        open cells that reach the sum; a cell shaded in all of them is shaded, in none
        unshaded, no such shading is a contradiction. Why: the weighted-sum adders of the
        CNF hardly propagate (every Kakurasu graded 3.99 before), while this is the first
        thing a solver does ("row sum 1: only the first cell")."""
        g = concrete(inst.rows, inst.cols)
        cell_lit = {e: rep for name, e, rep, _ in comp.answer if name == "shade"}
        table = comp._selector_tables().get("sum", {})
        lines = []
        for line in g.rows() + g.cols():
            sels = [(v, lit) for (place, v), lit in table.items() if place == line]
            lines.append(([cell_lit[c] for c in line.items], sels))

        def deduce(known: set) -> list[int] | None:
            out: list[int] = []
            for lits, sels in lines:
                target = next((v for v, sel in sels if sel in known), None)
                if target is None:
                    continue
                state = [True if lit in known else False if -lit in known else None for lit in lits]
                n = len(lits)
                fwd = [{0}]
                for i in range(n):
                    w = i + 1
                    nxt = set()
                    for a in fwd[i]:
                        if state[i] is not True:
                            nxt.add(a)
                        if state[i] is not False and a + w <= target:
                            nxt.add(a + w)
                    fwd.append(nxt)
                if target not in fwd[n]:
                    return None
                bwd: list[set[int]] = [set() for _ in range(n + 1)]
                bwd[n] = {0}
                for i in range(n - 1, -1, -1):
                    w = i + 1
                    for b in bwd[i + 1]:
                        if state[i] is not True:
                            bwd[i].add(b)
                        if state[i] is not False and b + w <= target:
                            bwd[i].add(b + w)
                for i in range(n):
                    if state[i] is not None:
                        continue
                    w = i + 1
                    can_on = any(target - a - w in bwd[i + 1] for a in fwd[i])
                    can_off = any(target - a in bwd[i + 1] for a in fwd[i])
                    if not can_on:
                        out.append(-lits[i])
                    elif not can_off:
                        out.append(lits[i])
            return out

        return deduce

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        s = sol["shade"]
        g = concrete(inst.rows, inst.cols)
        out = {}
        for line in g.rows() + g.cols():
            out[line] = sum(i + 1 for i, c in enumerate(line.items) if s[c])
        return {"sum": out}

    def direct_solution(self, inst: Instance, rng: Any, tier: str = "any") -> tuple[dict, dict]:
        """A random shading (every shading is a solution of the clue-free rules, so asking
        the solver for one, as the generic generator does, only costs time)."""
        g = concrete(inst.rows, inst.cols)
        sol = {"shade": {c: rng.random() < 0.5 for c in g.cells()}}
        return sol, self.clues_from_solution(inst, sol)

    def max_repairs(self, inst: Instance) -> int:
        return 2 * (inst.rows + inst.cols)

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """Flip one cell where ``other`` differs: the flipped cell's row and column sums
        change, and ``other`` no longer matches them."""
        cells = sorted(c for c in sol["shade"] if sol["shade"][c] != other["shade"][c])
        if not cells:
            return None
        x = cells[rng.randrange(len(cells))]
        shade = dict(sol["shade"])
        shade[x] = not shade[x]
        return {"shade": shade}

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        n = fields["rows"]
        inst = Instance(self.id, n, fields["cols"])
        g = concrete(n, n)
        if len(lines) != n + 1:
            raise InvalidDescription(
                f"kakurasu body has {len(lines)} lines",
                expected=f"{n} rows of '{n} cells + row sum', then {n} column sums",
            )
        sums = {}

        def num(t: str, ln: int) -> int | None:
            if t in ".-":
                return None
            if not t.isdigit():
                raise InvalidDescription(f"token {t!r}", line=ln, expected="a number or '.'")
            return int(t)

        for r in range(n):
            toks = lines[r].split()
            if len(toks) != n + 1:
                raise InvalidDescription(
                    f"{len(toks)} tokens", line=r + 2, expected=f"{n} cells then the row sum"
                )
            v = num(toks[-1], r + 2)
            if v is not None:
                sums[g.row(r)] = v
        toks = lines[n].split()
        if len(toks) != n:
            raise InvalidDescription(f"{len(toks)} column sums", line=n + 2, expected=f"{n}")
        for c, t in enumerate(toks):
            v = num(t, n + 2)
            if v is not None:
                sums[g.col(c)] = v
        inst.clues = {"sum": sums}
        return inst

    def format(self, inst: Instance) -> str:
        n = inst.rows
        g = concrete(n, n)
        s = inst.clues.get("sum", {})
        out = [self.header(inst)]
        for r in range(n):
            out.append(" ".join(["."] * n + [str(s[g.row(r)]) if g.row(r) in s else "."]))
        out.append(" ".join(str(s[g.col(c)]) if g.col(c) in s else "." for c in range(n)))
        return "\n".join(out) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        for line, v in inst.clues.get("sum", {}).items():
            kind, i = line.name
            d.outside[("E", i) if kind == "row" else ("S", i)] = str(v)
        for i in range(inst.rows):
            d.outside[("W", i)] = str(i + 1)
            d.outside[("N", i)] = str(i + 1)
        if sol:
            d.shaded = {c for c, v in sol["shade"].items() if v}
        return d
