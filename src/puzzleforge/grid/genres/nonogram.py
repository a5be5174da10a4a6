"""Nonogram: fill cells so each row and column shows the given run lengths, in order.
Run lengths are instance data (an IntSeq Const) matched by the DSL's ``runs_match``
(an automaton).

Generation is clue-only, as published nonograms are: a random picture (noise at the
``fill`` density, smoothed by one majority pass so it forms blobs rather than salt and
pepper) -> while its run lengths admit another picture, flip one cell where the two
pictures differ (chosen at random; the runs change, the other picture no longer fits)
and check again (``repair``); a picture that stays ambiguous after the flip budget is
redrawn. Given cells remain part of the format and the rules, and ``givens=True`` brings
back the old generator (random picture, keep the fewest givens that make it unique).

Why flips: a nonogram is ambiguous because of a "switching" pattern (cells that can
swap without changing any run); flipping one of its cells destroys that pattern, and
the pictures nearby usually have no other one. On 10x10 most pictures become unique
within a few flips."""

from __future__ import annotations

from typing import Any

from ...core.errors import InvalidDescription
from ..domains import Bool, IntSeq
from ..genre import Drawing, Genre, Instance, concrete, parse_header, split_tokens
from ..ir import Const, Param, forall
from ..model import ClueSpec, Grid, Model
from ..primitives import runs_match
from ..topology import Cell

__all__ = ["Nonogram", "line_runs"]


def line_runs(values: list[bool]) -> tuple:
    out, n = [], 0
    for v in values:
        if v:
            n += 1
        elif n:
            out.append(n)
            n = 0
    if n:
        out.append(n)
    return tuple(out)


class Nonogram(Genre):
    id = "nonogram"
    tier_sizes = {
        "hard": (
            10,
            40,
            "failed-literal probing solved every minimal puzzle the generator made at these "
            "sizes, so none grades 3.x (search)",
        ),
        "easy": (4, 8, "from 10x10 the runs alone never propagated to the end"),
    }
    title = "Nonogram"
    summary = "Nonogram: fill cells so every row and column shows its run lengths"
    rules_doc = (
        "Fill cells. The numbers of a row (column) give, in order, the lengths of the runs "
        "of consecutive filled cells in it, with at least one empty cell between runs. "
        "Cells shown as # or o are given filled / empty."
    )
    min_size = 4
    max_size = 40
    default_size = (6, 6)
    answer_var = "fill"
    removable = ("given",)
    puzzlink_name = "nonogram"  # puzz.link URLs carry run clues only
    extra_params = (("fill", float, 0.55), ("givens", bool, False))
    answer_doc = "one line per row, 1 for a filled cell and 0 for an empty one."

    def build_rules(self) -> Model:
        nR, nC = Param("nR", int), Param("nC", int)
        grid = Grid(nR, nC)
        fill = Bool.over(grid.C, name="fill")
        runs = Const(IntSeq, over=grid.rows | grid.cols, name="runs")
        m = Model("nonogram")
        m.add(
            forall(grid.rows | grid.cols, lambda L: runs_match(L, fill, runs[L])),
            "run lengths of every line",
        )
        given = ClueSpec(grid.C, Bool, name="given")
        m.add(given.rule(lambda c, v: fill[c] == v), "given cells")
        return m

    def opts_from_params(self, params: Any, rows: int, cols: int) -> dict:
        opts: dict = {"fill": float(getattr(params, "fill", 0.55))}
        if getattr(params, "givens", False):
            opts["givens"] = True
        return opts

    def check_params(self, params: Any) -> list[str]:
        return [] if 0.2 <= params.fill <= 0.9 else [f"fill={params.fill} is not in 0.2..0.9"]

    def random_data(self, inst: Instance, rng: Any) -> dict:
        g = concrete(inst.rows, inst.cols)
        picture = _picture(g, float(inst.opts.get("fill", 0.55)), rng)
        inst.opts["_picture"] = picture
        return {"runs": _runs_of(g, picture)}

    def direct_solution(
        self, inst: Instance, rng: Any, tier: str = "any"
    ) -> tuple[dict, dict] | None:
        picture = inst.opts.pop("_picture")
        return {"fill": picture}, self.clues_from_solution(inst, {"fill": picture})

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        # clue-only unless givens were asked for: then every cell is given and the
        # generator thins them out (the removable clue spec)
        return {"given": dict(sol["fill"]) if inst.opts.get("givens") else {}}

    def max_repairs(self, inst: Instance) -> int:
        return 0 if inst.opts.get("givens") else 3 * (inst.rows + inst.cols)

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """Flip one cell where ``other`` differs from ``sol``: the new picture's runs
        exclude ``other`` (the flipped cell's row now has other runs than ``other``'s)."""
        g = concrete(inst.rows, inst.cols)
        cells = [c for c in g.cells() if sol["fill"][c] != other["fill"][c]]
        if not cells:
            return None
        x = cells[rng.randrange(len(cells))]
        picture = dict(sol["fill"])
        picture[x] = not picture[x]
        inst.data = {"runs": _runs_of(g, picture)}
        return {"fill": picture}

    # -- text ------------------------------------------------------------------------
    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        R, C = fields["rows"], fields["cols"]
        inst = Instance(self.id, R, C)
        g = concrete(R, C)
        sections: dict = {"rows": [], "cols": [], "givens": []}
        cur = None
        for line in lines:
            word = line.strip().lower()
            if word in sections:
                cur = word
                continue
            if cur is None:
                raise InvalidDescription(
                    f"line {line!r} before a section", expected="'rows', 'cols' or 'givens'"
                )
            sections[cur].append(line)
        if len(sections["rows"]) != R or len(sections["cols"]) != C:
            raise InvalidDescription(
                f"{len(sections['rows'])} row clues and {len(sections['cols'])} column clues",
                expected=f"{R} lines after 'rows' and {C} after 'cols'",
            )

        def seq(line: str) -> tuple:
            toks = [t for t in line.replace(",", " ").split() if t not in ("-", "0")]
            if not all(t.isdigit() for t in toks):
                raise InvalidDescription(
                    f"run list {line!r}", expected="numbers separated by spaces, '-' for none"
                )
            return tuple(int(t) for t in toks)

        runs = {}
        for i, line in enumerate(sections["rows"]):
            runs[g.row(i)] = seq(line)
        for j, line in enumerate(sections["cols"]):
            runs[g.col(j)] = seq(line)
        inst.data = {"runs": runs}
        given = {}
        if sections["givens"]:
            for r, line in enumerate(sections["givens"][:R]):
                for c, t in enumerate(split_tokens(line)[:C]):
                    if t in "#1":
                        given[Cell(r, c)] = True
                    elif t in "o0":
                        given[Cell(r, c)] = False
        inst.clues = {"given": given}
        return inst

    def format(self, inst: Instance) -> str:
        g = concrete(inst.rows, inst.cols)
        runs = inst.data["runs"]

        def text(t):
            return " ".join(map(str, t)) if t else "-"

        out = [self.header(inst), "rows"] + [text(runs[g.row(i)]) for i in range(inst.rows)]
        out += ["cols"] + [text(runs[g.col(j)]) for j in range(inst.cols)]
        given = inst.clues.get("given", {})
        if given:
            out.append("givens")
            out += [
                "".join(
                    "#"
                    if given.get(Cell(r, c)) is True
                    else "o"
                    if given.get(Cell(r, c)) is False
                    else "."
                    for c in range(inst.cols)
                )
                for r in range(inst.rows)
            ]
        return "\n".join(out) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        g = concrete(inst.rows, inst.cols)
        d = Drawing(inst.rows, inst.cols)
        runs = inst.data["runs"]
        for i in range(inst.rows):
            d.outside[("W", i)] = " ".join(map(str, runs[g.row(i)])) or "0"
        for j in range(inst.cols):
            d.outside[("N", j)] = " ".join(map(str, runs[g.col(j)])) or "0"
        given = inst.clues.get("given", {})
        for c, v in given.items():
            if v:
                d.shaded.add(c)
            else:
                d.text[c] = "·"
        if sol:
            d.shaded |= {c for c, v in sol["fill"].items() if v}
        return d


def _picture(g: Any, fill: float, rng: Any) -> dict:
    """Random picture near density ``fill``: noise, then one majority pass over each
    cell's 3x3 neighbourhood (cells keep their colour on a tie), so filled cells come in
    blobs and lines as in drawn pictures."""
    noise = {c: rng.random() < fill for c in g.cells()}
    out = {}
    for c in g.cells():
        near = [noise[d] for d in g.neighbors(c, diagonal=True)] + [noise[c]]
        on = sum(near)
        out[c] = noise[c] if 2 * on == len(near) else 2 * on > len(near)
    return out


def _runs_of(g: Any, picture: dict) -> dict:
    out = {}
    for line in g.rows() + g.cols():
        out[line] = line_runs([picture[c] for c in line.items])
    return out
