"""Nurikabe: shade cells so the shaded cells form one connected wall with no 2x2 block,
and the unshaded cells form islands, each holding exactly one number equal to its size.
Uses the DSL's graph primitives ``connected`` and ``islands`` (lazy cuts in SAT)."""

from __future__ import annotations

from typing import Any

from ..domains import Bool, Int
from ..genre import Drawing, Genre, Instance, concrete, parse_header
from ..ir import Param, forall
from ..model import ClueSpec, Grid, Model
from ..primitives import connected, islands
from .common import is_connected, orthogonal_component, read_cells, write_cells

__all__ = ["Nurikabe"]


class Nurikabe(Genre):
    id = "nurikabe"
    title = "Nurikabe"
    summary = "Nurikabe: connected wall, no 2x2 pools, one numbered island per number"
    rules_doc = (
        "Shade cells. All shaded cells form one orthogonally connected wall with no 2x2 "
        "shaded block. Unshaded cells form islands; each island holds exactly one number, "
        "and that number is the island's size. Numbered cells stay unshaded."
    )
    min_size = 4
    max_size = 20
    default_size = (6, 6)
    answer_var = "black"
    removable = ()
    puzzlink_name = "nurikabe"

    def build_rules(self) -> Model:
        nR, nC, maxv = Param("nR", int), Param("nC", int), Param("maxv", int)
        grid = Grid(nR, nC)
        black = Bool.over(grid.C, name="black")
        m = Model("nurikabe")
        m.add(forall(grid.blocks(2, 2), lambda b: b.count_true(black) < 4), "no 2x2 shaded block")
        m.add(connected(grid.C, black), "shaded cells connected")
        number = ClueSpec(grid.C, Int(1, maxv), name="number", closed=True)
        m.add(number.rule(lambda c, k: ~black[c]), "numbered cells unshaded")
        m.add(
            islands(grid.C, lambda c: ~black[c], number), "one number per island, equal to its size"
        )
        return m

    def bind(self, inst: Instance) -> dict:
        values = list(inst.clues.get("number", {}).values())
        return {"nR": inst.rows, "nC": inst.cols, "maxv": max(values or [1])}

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        return inst.clues

    def direct_solution(
        self, inst: Instance, rng: Any, tier: str = "any"
    ) -> tuple[dict, dict] | None:
        """A random valid shading plus one number per island (built directly: without
        numbers the rules admit no islands at all, so the solver cannot draw one).

        The target tier shapes the layout, since Nurikabe has no clue to remove:
        many small islands (size <= 2) make easy puzzles, few large ones (up to rows +
        cols cells, grown further) make hard ones; the generator still grades the result
        and retries when it misses the tier."""
        g = concrete(inst.rows, inst.cols)
        limit = max(3, (inst.rows + inst.cols) // 2)
        grow = len(g.cells()) // 3
        if tier == "easy":
            limit, grow = 2, len(g.cells()) // 10
        elif tier == "hard":
            limit, grow = inst.rows + inst.cols, 4 * len(g.cells())
        for _ in range(50):
            white: dict = {}  # cell -> island id
            sizes: dict = {}
            blocks = list(g.blocks(2, 2))
            rng.shuffle(blocks)
            changed = True
            while changed:
                changed = False
                for b in blocks:
                    if any(c in white for c in b.items):
                        continue
                    opts = list(b.items)
                    rng.shuffle(opts)
                    for x in opts:
                        ids = {white[y] for y in g.neighbors(x) if y in white}
                        if len(ids) > 1:
                            continue
                        if ids and sizes[next(iter(ids))] >= limit:
                            continue
                        blacks = {c for c in g.cells() if c not in white and c != x}
                        if not is_connected(blacks):
                            continue
                        iid = next(iter(ids)) if ids else len(sizes)
                        white[x] = iid
                        sizes[iid] = sizes.get(iid, 0) + 1
                        changed = True
                        break
            if any(all(c not in white for c in b.items) for b in g.blocks(2, 2)):
                continue
            # grow some islands a little further at random, keeping every rule
            for _ in range(grow):
                x = rng.choice(g.cells())
                if x in white:
                    continue
                ids = {white[y] for y in g.neighbors(x) if y in white}
                if len(ids) != 1 or sizes[next(iter(ids))] >= limit:
                    continue
                blacks = {c for c in g.cells() if c not in white and c != x}
                if blacks and is_connected(blacks):
                    iid = next(iter(ids))
                    white[x] = iid
                    sizes[iid] += 1
            members: dict = {}
            for c, i in sorted(white.items()):
                members.setdefault(i, []).append(c)
            numbers = {rng.choice(cells): len(cells) for _, cells in sorted(members.items())}
            sol = {"black": {c: c not in white for c in g.cells()}}
            return sol, {"number": numbers}
        return None

    def max_repairs(self, inst: Instance) -> int:
        return inst.rows + inst.cols

    def repair(self, inst: Instance, sol: dict, other: dict, rng: Any) -> dict | None:
        """Move the number of an island that ``other`` shades differently to another cell
        of the same island: ``sol`` still fits, and big islands (hard layouts) are often
        ambiguous only because of where their number sits."""
        g = concrete(inst.rows, inst.cols)
        numbers = dict(inst.clues.get("number", {}))
        white = {c for c in g.cells() if not sol["black"][c]}
        islands = []
        for p in sorted(numbers):
            cells = orthogonal_component(white, p)
            if len(cells) > 1 and any(
                sol["black"][c] != other["black"][c]
                for c in cells | {n for x in cells for n in g.neighbors(x)}
            ):
                islands.append((p, sorted(cells)))
        if not islands:
            return None
        p, cells = islands[rng.randrange(len(islands))]
        q = rng.choice([c for c in cells if c != p])
        numbers[q] = numbers.pop(p)
        inst.clues = {"number": numbers}
        return sol

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        inst.clues = {"number": read_cells(lines, inst.rows, inst.cols, _num, genre=self.id)}
        return inst

    def format(self, inst: Instance) -> str:
        n = inst.clues.get("number", {})
        body = write_cells(inst.rows, inst.cols, lambda c: _tok(n[c]) if c in n else ".")
        return "\n".join([self.header(inst)] + body) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        d.text = {c: str(v) for c, v in inst.clues.get("number", {}).items()}
        if sol:
            d.shaded = {c for c, v in sol["black"].items() if v}
        return d


def _num(t: str) -> int:
    v = int(t, 36)
    if v < 1:
        raise ValueError(t)
    return v


def _tok(v: int) -> str:
    return str(v) if v < 10 else "0123456789abcdefghijklmnopqrstuvwxyz"[v] if v < 36 else str(v)
