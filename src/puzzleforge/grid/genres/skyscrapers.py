"""Skyscrapers (Towers): a Latin square of heights; a clue outside says how many towers
are seen from that side (a tower hides every lower one behind it)."""

from __future__ import annotations

from ...core.errors import InvalidDescription
from ..domains import Int
from ..genre import Drawing, Genre, Instance, concrete, parse_header
from ..model import ClueSpec, Model
from ..topology import Cell
from .futoshiki import latin_rules

__all__ = ["Skyscrapers"]


class Skyscrapers(Genre):
    id = "skyscrapers"
    title = "Skyscrapers"
    summary = "Skyscrapers: Latin square of heights with visibility clues around the edge"
    rules_doc = (
        "Fill heights 1..n so each row and column holds every height once. A number "
        "outside the grid tells how many towers are visible from there looking along "
        "the row or column (taller towers hide shorter ones behind them)."
    )
    square = True
    min_size = 4
    max_size = 12
    default_size = (5, 5)
    answer_var = "height"
    binary_answer = False
    removable = ("given", "view")
    remove_first = ("given",)  # published puzzles are mostly views: try dropping givens first
    answer_doc = "one line per row, the heights of the row."
    puzzlink_name = "skyscrapers"  # also exchanged as Janko text

    def build_rules(self) -> Model:
        m, grid, h, n = latin_rules("skyscrapers", "height")
        view = ClueSpec(grid.sight_lines, Int(1, n), name="view")
        m.add(
            view.rule(
                lambda L, k: L.count_true(lambda c: L.before(c).all(lambda p: h[p] < h[c])) == k
            ),
            "visible towers from each side",
        )
        return m

    def bind(self, inst: Instance) -> dict:
        return {"n": inst.rows}

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        h = sol["height"]
        view = {}
        for line in concrete(inst.rows, inst.cols).sight_lines():
            top, seen = 0, 0
            for c in line.items:
                if h[c] > top:
                    seen, top = seen + 1, h[c]
            view[line] = seen
        return {"given": dict(h), "view": view}

    def _lines(self, n: int) -> dict:
        return {line.name: line for line in concrete(n, n).sight_lines()}

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        n = fields["rows"]
        inst = Instance(self.id, n, fields["cols"])
        if len(lines) != n + 2:
            raise InvalidDescription(
                f"skyscrapers body has {len(lines)} lines",
                expected=f"{n + 2}: top clues, {n} rows 'W cells E', bottom clues",
            )
        by_name = self._lines(n)
        view, given = {}, {}

        def num(t: str, line: int) -> int | None:
            if t in ".-":
                return None
            if not t.isdigit() or not 1 <= int(t) <= n:
                raise InvalidDescription(f"token {t!r}", line=line, expected=f"1..{n} or '.'")
            return int(t)

        top, bottom = lines[0].split(), lines[-1].split()
        for side, toks, ln in (("N", top, 2), ("S", bottom, n + 3)):
            if len(toks) != n:
                raise InvalidDescription(f"{len(toks)} clues", line=ln, expected=f"{n} clues")
            for j, t in enumerate(toks):
                v = num(t, ln)
                if v is not None:
                    view[by_name[(side, j)]] = v
        for r in range(n):
            toks = lines[1 + r].split()
            if len(toks) != n + 2:
                raise InvalidDescription(
                    f"{len(toks)} tokens", line=r + 3, expected=f"{n + 2} (W clue, cells, E clue)"
                )
            for side, t in (("W", toks[0]), ("E", toks[-1])):
                v = num(t, r + 3)
                if v is not None:
                    view[by_name[(side, r)]] = v
            for c, t in enumerate(toks[1:-1]):
                v = num(t, r + 3)
                if v is not None:
                    given[Cell(r, c)] = v
        inst.clues = {"given": given, "view": view}
        return inst

    def format(self, inst: Instance) -> str:
        n = inst.rows
        view = {line.name: v for line, v in inst.clues.get("view", {}).items()}
        g = inst.clues.get("given", {})

        def t(side, i):
            return str(view[(side, i)]) if (side, i) in view else "."

        out = [self.header(inst), "  " + " ".join(t("N", j) for j in range(n))]
        for r in range(n):
            cells = " ".join(str(g[Cell(r, c)]) if Cell(r, c) in g else "." for c in range(n))
            out.append(f"{t('W', r)} {cells} {t('E', r)}")
        out.append("  " + " ".join(t("S", j) for j in range(n)))
        return "\n".join(out) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        vals = sol["height"] if sol else inst.clues.get("given", {})
        d.text = {c: str(v) for c, v in vals.items()}
        d.outside = {line.name: str(v) for line, v in inst.clues.get("view", {}).items()}
        return d
