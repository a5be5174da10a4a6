"""Star Battle: k stars in every row, column and region; stars never touch, not even
diagonally. Regions are instance data (a Const), so the region rule folds at grounding.

Generation: a random star layout (k per row and column, no touching) -> regions grown
around it, k stars each (a region starts at a star and claims its k-1 nearest free
stars by shortest free paths, then all regions flood-fill the rest) -> while another
layout also fits, boundary edits move a cell where the other layout has a star into a
neighbouring region (see ``repair``). There are no clues to remove: uniqueness comes
from the region shapes alone, as in published Star Battle puzzles.

``stars`` defaults by size as published puzzles do (Krazydad, puzz.link, the World
Puzzle Championship): 1 star up to 8x8, 2 stars for 9x9..13x13, 3 stars at 14x14.
Old instance text without ``stars=`` reads as 1 star."""

from __future__ import annotations

import string
from typing import Any

from ...core.errors import InvalidDescription
from ..domains import Bool, Int
from ..genre import Drawing, Genre, Instance, concrete, parse_header, split_tokens
from ..ir import Const, Implies, Param, Range, forall
from ..model import Grid, Model
from ..topology import Cell
from .common import orthogonal_component
from .starbattle_steps import StarBattleSteps, star_counting

__all__ = ["StarBattle"]

LETTERS = string.ascii_lowercase + string.ascii_uppercase


class StarBattle(Genre):
    id = "starbattle"
    title = "Star Battle"
    summary = "Star Battle: k stars per row, column and region, no two stars touching"
    rules_doc = (
        "Place stars so that every row, every column and every outlined region holds "
        "exactly k stars, and no two stars touch, not even diagonally."
    )
    square = True
    min_size = 5
    max_size = 14
    default_size = (6, 6)
    answer_var = "star"
    removable = ()
    puzzlink_name = "starbattle"
    extra_params = (("stars", int, 0),)  # 0 = by size (default_stars)
    answer_doc = "one line per row, 1 for a star and 0 for an empty cell."
    #: More attempts for a tier, and no early give-up on layouts too hard for it
    #: (generator.GIVE_UP_TOO_HARD): with no clues to remove each layout is a fresh draw
    #: graded whole, and at 10x10 only about 7 in 60 grade easy (7 medium, 46 hard).
    tier_attempts = 80
    give_up_too_hard = 80

    def build_rules(self) -> Model:
        n, k = Param("n", int), Param("k", int)
        grid = Grid(n, n)
        star = Bool.over(grid.C, name="star")
        region = Const(Int(0, n - 1), over=grid.C, name="region")
        m = Model("starbattle")
        m.add(forall(grid.rows, lambda r: r.count_true(star) == k), "k stars per row")
        m.add(forall(grid.cols, lambda c: c.count_true(star) == k), "k stars per column")
        m.add(
            forall(
                Range(0, n), lambda i: grid.C.count_true(lambda c: (region[c] == i) & star[c]) == k
            ),
            "k stars per region",
        )
        m.add(
            forall(
                grid.C,
                lambda c: Implies(
                    star[c], grid.neighbors(c, diagonal=True).all(lambda d: ~star[d])
                ),
            ),
            "stars do not touch",
        )
        return m

    def bind(self, inst: Instance) -> dict:
        return {"n": inst.rows, "k": int(inst.opts.get("stars", 1))}

    def default_opts(self, rows: int, cols: int, params: Any = None) -> dict:
        return {"stars": default_stars(rows)}

    def opts_from_params(self, params: Any, rows: int, cols: int) -> dict:
        k = int(getattr(params, "stars", 0) or 0)
        return {"stars": k or default_stars(rows)}

    def tier_problem(self, tier: str, rows: int, cols: int, opts: dict) -> str | None:
        """Grades by technique (``technique_grader``). Hard is not offered at 5x5: the
        unit placements and band counting finished every layout made (seeds 1-3: 0 hard
        of 90 layouts; 6x6 and 8x8 reach hard). Easy is not offered with 3 stars: the
        counting never finished a 14x14 layout (seed 1: 0 of 9 layouts)."""
        if tier == "hard" and rows <= 5:
            return (
                f"starbattle is not offered as hard at {rows}x{cols}: the unit placements "
                "and band counting finished every layout made (0 hard of 90)"
            )
        k = int(opts.get("stars", 1))
        if tier == "easy" and k >= 3:
            return (
                f"starbattle is not offered as easy with {k} stars ({rows}x{cols}): the "
                "row, column and region counting never finished a 3-star layout made"
            )
        return None

    def check_size(self, rows: int, cols: int, opts: dict) -> list[str]:
        problems = super().check_size(rows, cols, opts)
        k = int(opts.get("stars", 1))
        if k < 1 or rows < 4 * k:
            # k stars per row with no two touching fill every 2x2 block of a 4k board
            # exactly once; smaller boards have no layout at all (e.g. 2 stars at 7x7)
            problems.append(
                f"{k} stars need a board of at least {4 * k}x{4 * k}, got {rows}x{cols}"
            )
        return problems

    def check_params(self, params: Any) -> list[str]:
        return (
            []
            if 0 <= params.stars <= 3
            else [f"stars={params.stars} is not 1, 2, 3 (or 0 = by size)"]
        )

    # -- generation ------------------------------------------------------------------
    def random_data(self, inst: Instance, rng: Any) -> dict:
        n = inst.rows
        rows_as_regions = Instance(
            self.id, n, n, dict(inst.opts), {"region": {c: c.r for c in concrete(n, n).cells()}}
        )
        from ..generator import random_solution

        comp = self.compile(rows_as_regions)
        k = int(inst.opts.get("stars", 1))
        for _ in range(20):
            sol = random_solution(comp, rng, fraction=0.5)
            if sol is None:
                break
            stars = sorted(c for c, v in sol["star"].items() if v)
            region = _grow(n, stars, k, rng)
            if region is not None:
                return {"region": region}
        return {
            "region": rows_as_regions.data["region"]
        }  # rows as regions: never unique, the attempt fails

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        return {}

    def deductions(self, inst: Instance, comp: Any) -> Any:
        """Counting steps a solver uses (``star_counting``): the CNF's cardinality
        constraints only fill a row, column or region that is full or exactly as open
        as it needs, so no 2-star puzzle ever graded easy."""
        n = inst.rows
        cell_lit = {e: rep for name, e, rep, _ in comp.answer if name == "star"}
        lits = [[cell_lit[Cell(r, c)] for c in range(n)] for r in range(n)]
        region = {(c.r, c.c): v for c, v in inst.data["region"].items()}
        return star_counting(n, int(inst.opts.get("stars", 1)), lits, region)

    def technique_grader(self, inst: Instance, comp: Any) -> Any:
        """Grade by technique (starbattle_steps.py): easy = the basic rules + unit
        placements, medium = + band counting, hard = more (trials or search). Why:
        failed-literal probing over the counting steps, the generic medium, solved every
        1- and 2-star layout made, so none graded hard."""
        region = {(c.r, c.c): v for c, v in inst.data["region"].items()}
        steps = StarBattleSteps(inst.rows, int(inst.opts.get("stars", 1)), region)

        def grader(clues: dict, cap: int = 3) -> float:
            return steps.grade(cap=cap)  # no clues: the regions are the puzzle

        return grader

    def max_repairs(self, inst: Instance) -> int:
        return 10 * inst.rows

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """Move a cell where ``other`` has a star (and ``sol`` has none) to a neighbouring
        region; pieces of its old region cut off from that region's star follow it to a
        neighbouring region too. ``sol`` keeps one star per region, ``other`` loses one."""
        n = inst.rows
        g = concrete(n, n)
        cells = [c for c, v in sorted(other["star"].items()) if v and not sol["star"][c]]
        rng.shuffle(cells)
        for x in cells:
            region = dict(inst.data["region"])
            old = region[x]
            nbrs = sorted({region[y] for y in g.neighbors(x) if region[y] != old})
            if not nbrs:
                continue
            region[x] = rng.choice(nbrs)
            rest = {c for c, r in region.items() if r == old}
            stars = [c for c in sorted(rest) if sol["star"][c]]
            keep = orthogonal_component(rest, stars[0])
            if any(s not in keep for s in stars):
                continue  # the move would split the region between its stars
            for piece in sorted(rest - keep):
                if region[piece] != old:
                    continue
                chunk = orthogonal_component(rest - keep, piece)
                options = sorted(
                    {region[y] for c in chunk for y in g.neighbors(c) if region[y] != old}
                )
                target = rng.choice(options)
                for c in chunk:
                    region[c] = target
            inst.data = {"region": region}
            return sol
        return self._resplit(inst, sol, other, rng)

    def _resplit(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """Fallback edit when every single-cell move would cut a region between its stars:
        merge a region with a neighbour and split the union again at random (k stars of
        ``sol`` each) until ``other`` no longer has k stars in each half."""
        n = inst.rows
        g = concrete(n, n)
        region = inst.data["region"]
        k = int(inst.opts.get("stars", 1))
        diff = [c for c in sorted(other["star"]) if other["star"][c] != sol["star"][c]]
        rng.shuffle(diff)
        for x in diff[:4]:
            a = region[x]
            for b in sorted(
                {region[y] for c, r in region.items() if r == a for y in g.neighbors(c)} - {a}
            ):
                union = {c for c, r in region.items() if r in (a, b)}
                stars = [c for c in sorted(union) if sol["star"][c]]
                for _ in range(8):
                    split = _grow(n, stars, k, rng, union)
                    if split is None:
                        continue
                    part = {c for c, i in split.items() if i == 0}
                    if sum(1 for c in part if other["star"][c]) != k:
                        new = dict(region)
                        for c, i in split.items():
                            new[c] = a if i == 0 else b
                        inst.data = {"region": new}
                        return sol
        return None

    # -- text ------------------------------------------------------------------------
    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        n = fields["rows"]
        inst = Instance(self.id, n, fields["cols"], {"stars": int(fields.get("stars", 1))})
        if len(lines) < n:
            raise InvalidDescription(
                f"{len(lines)} region rows", expected=f"{n} rows of region letters"
            )
        names: dict = {}
        region = {}
        for r in range(n):
            toks = split_tokens(lines[r])
            if len(toks) != n:
                raise InvalidDescription(
                    f"{len(toks)} cells", line=r + 2, expected=f"{n} region letters"
                )
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


def default_stars(n: int) -> int:
    """Stars per row/column/region of published puzzles of side ``n``."""
    return 1 if n <= 8 else 2 if n <= 13 else 3


def _free_path(
    g: Any, region: dict, start_cells: list, target_ok: Any, rng: Any, allowed: set
) -> list | None:
    """Shortest path (BFS, random tie order) from the cells of one region through
    unclaimed cells to an unclaimed cell accepted by ``target_ok``; the path's new cells."""
    prev: dict = {c: None for c in start_cells}
    queue = list(start_cells)
    rng.shuffle(queue)
    i = 0
    while i < len(queue):
        x = queue[i]
        i += 1
        nbrs = list(g.neighbors(x))
        rng.shuffle(nbrs)
        for y in nbrs:
            if y in prev or y in region or y not in allowed:
                continue
            prev[y] = x
            if target_ok(y):
                path = []
                while prev[y] is not None:
                    path.append(y)
                    y = prev[y]
                return path
            queue.append(y)
    return None


def _grow(n: int, stars: list, k: int, rng: Any, cells: set | None = None) -> dict | None:
    """Random regions with exactly ``k`` of ``stars`` each over ``cells`` (default: the
    whole board), ids 0.., or None when the drawn grouping gets stuck. Each region starts
    at a free star and reaches its k-1 nearest free stars by shortest paths through free
    non-star cells (so no region swallows a star it must not hold); then every region
    grows by a randomised flood fill."""
    g = concrete(n, n)
    allowed = set(g.cells()) if cells is None else set(cells)
    star_set = set(stars)
    region: dict = {}
    order = list(stars)
    rng.shuffle(order)
    rid = 0
    for s in order:
        if s in region:
            continue
        region[s] = rid
        members = [s]
        for _ in range(k - 1):
            path = _free_path(g, region, members, lambda y: y in star_set, rng, allowed)
            if path is None or any(c in star_set for c in path[1:]):
                return None
            for c in path:
                region[c] = rid
            members += path
        rid += 1
    seeds = sorted(region)
    frontier = sorted({(y, region[s]) for s in seeds for y in g.neighbors(s) if y in allowed})
    while len(region) < len(allowed):
        frontier = [(y, i) for y, i in frontier if y not in region]
        if not frontier:
            return None
        y, i = frontier[rng.randrange(len(frontier))]
        region[y] = i
        frontier.extend((z, i) for z in g.neighbors(y) if z not in region and z in allowed)
    return region
