"""Star Battle: k stars in every row, column and region; stars never touch, not even
diagonally. Regions are instance data (a Const), so the region rule folds at grounding."""
from __future__ import annotations

import string
from typing import Any

from ...core.errors import InvalidDescription
from ..domains import Bool, Int
from ..engine import Compiled
from ..genre import Drawing, Genre, Instance, concrete, parse_header, split_tokens
from ..ir import Const, Implies, Param, Range, forall
from ..model import Grid, Model
from ..topology import Cell
from .common import orthogonal_component

__all__ = ["StarBattle"]

LETTERS = string.ascii_lowercase + string.ascii_uppercase


class StarBattle(Genre):
    id = "starbattle"
    title = "Star Battle"
    summary = "Star Battle: k stars per row, column and region, no two stars touching"
    rules_doc = ("Place stars so that every row, every column and every outlined region holds "
                 "exactly k stars, and no two stars touch, not even diagonally.")
    square = True
    min_size = 5
    max_size = 14
    default_size = (6, 6)
    answer_var = "star"
    removable = ()
    puzzlink_name = "starbattle"
    extra_params = (("stars", int, 1),)
    answer_doc = "one line per row, 1 for a star and 0 for an empty cell."

    def build_rules(self) -> Model:
        n, k = Param("n", int), Param("k", int)
        grid = Grid(n, n)
        star = Bool.over(grid.C, name="star")
        region = Const(Int(0, n - 1), over=grid.C, name="region")
        m = Model("starbattle")
        m.add(forall(grid.rows, lambda r: r.count_true(star) == k), "k stars per row")
        m.add(forall(grid.cols, lambda c: c.count_true(star) == k), "k stars per column")
        m.add(forall(Range(0, n), lambda i: grid.C.count_true(lambda c: (region[c] == i) & star[c]) == k),
              "k stars per region")
        m.add(forall(grid.C, lambda c: Implies(star[c], grid.neighbors(c, diagonal=True).all(lambda d: ~star[d]))),
              "stars do not touch")
        return m

    def bind(self, inst: Instance) -> dict:
        return {"n": inst.rows, "k": int(inst.opts.get("stars", 1))}

    def opts_from_params(self, params: Any, rows: int, cols: int) -> dict:
        return {"stars": int(getattr(params, "stars", 1))}

    def check_size(self, rows: int, cols: int, opts: dict) -> list[str]:
        problems = super().check_size(rows, cols, opts)
        k = int(opts.get("stars", 1))
        if k < 1 or rows < 4 * k + 1:
            problems.append(f"{k} stars need a board of at least {4 * k + 1}x{4 * k + 1}")
        return problems

    def check_params(self, params: Any) -> list[str]:
        return [] if params.stars == 1 else ["the generator makes 1-star puzzles (solving handles any k)"]

    # -- generation ------------------------------------------------------------------
    def random_data(self, inst: Instance, rng: Any) -> dict:
        n = inst.rows
        rows_as_regions = Instance(self.id, n, n, dict(inst.opts), {"region": {c: c.r for c in concrete(n, n).cells()}})
        from ..generator import random_solution

        comp = self.compile(rows_as_regions)
        sol = random_solution(comp, rng, fraction=0.5)
        stars = sorted(c for c, v in sol["star"].items() if v)
        return {"region": _grow(n, stars, rng)}

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        return {}

    def max_repairs(self, inst: Instance) -> int:
        return 6 * inst.rows

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """Move a cell where ``other`` has a star (and ``sol`` has none) to a neighbouring
        region; pieces of its old region cut off from that region's star follow it to a
        neighbouring region too. ``sol`` keeps one star per region, ``other`` loses one."""
        region = dict(inst.data["region"])
        n = inst.rows
        g = concrete(n, n)
        cells = [c for c, v in sorted(other["star"].items()) if v and not sol["star"][c]]
        rng.shuffle(cells)
        for x in cells:
            old = region[x]
            nbrs = sorted({region[y] for y in g.neighbors(x) if region[y] != old})
            if not nbrs:
                continue
            region[x] = rng.choice(nbrs)
            star = next(c for c, r in region.items() if r == old and sol["star"][c])
            rest = {c for c, r in region.items() if r == old}
            keep = orthogonal_component(rest, star)
            for piece in sorted(rest - keep):
                if region[piece] != old:
                    continue
                chunk = orthogonal_component(rest - keep, piece)
                options = sorted({region[y] for c in chunk for y in g.neighbors(c) if region[y] != old})
                target = rng.choice(options)
                for c in chunk:
                    region[c] = target
            inst.data = {"region": region}
            return sol
        return None

    # -- text ------------------------------------------------------------------------
    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        n = fields["rows"]
        inst = Instance(self.id, n, fields["cols"], {"stars": int(fields.get("stars", 1))})
        if len(lines) < n:
            raise InvalidDescription(f"{len(lines)} region rows", expected=f"{n} rows of region letters")
        names: dict = {}
        region = {}
        for r in range(n):
            toks = split_tokens(lines[r])
            if len(toks) != n:
                raise InvalidDescription(f"{len(toks)} cells", line=r + 2, expected=f"{n} region letters")
            for c, t in enumerate(toks):
                region[Cell(r, c)] = names.setdefault(t, len(names))
        if len(names) != n:
            raise InvalidDescription(f"{len(names)} regions", expected=f"exactly {n} regions")
        inst.data = {"region": region}
        inst.clues = {}
        return inst

    def format(self, inst: Instance) -> str:
        reg = inst.data["region"]
        names: dict = {}
        for r in range(inst.rows):
            for c in range(inst.cols):
                names.setdefault(reg[Cell(r, c)], LETTERS[len(names) % len(LETTERS)])
        body = ["".join(names[reg[Cell(r, c)]] for c in range(inst.cols)) for r in range(inst.rows)]
        return "\n".join([self.header(inst, stars=inst.opts.get("stars", 1))] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols, regions=dict(inst.data["region"]))
        if sol:
            d.text = {c: "★" for c, v in sol["star"].items() if v}
        return d


def _grow(n: int, seeds: list, rng: Any) -> dict:
    """Random regions grown from one seed cell each (randomised flood fill)."""
    g = concrete(n, n)
    region = {s: i for i, s in enumerate(seeds)}
    frontier = sorted({(y, region[s]) for s in seeds for y in g.neighbors(s)})
    while len(region) < n * n:
        frontier = [(y, i) for y, i in frontier if y not in region]
        y, i = frontier[rng.randrange(len(frontier))]
        region[y] = i
        frontier.extend((z, i) for z in g.neighbors(y) if z not in region)
    return region
