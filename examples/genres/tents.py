"""Tents, written as a genre file: next to each tree put one tent, so that trees and tents
pair off side by side, no two tents touch (not even diagonally), and each row and column
holds as many tents as the number beside it.

    puzzleforge grid solve --genre-file examples/genres/tents.py examples/genres/tents-8x8.txt
    puzzleforge grid generate tents --genre-file examples/genres/tents.py --size 8x8 --seed 1

Why a pairing variable: "as many tents as trees, each tree next to a tent" is weaker than
the rule (two trees could share one tent). Each tree and each tent names the side its
partner is on (``link``), and the partner must name the opposite side: a perfect pairing,
written as local rules. ``link`` is auxiliary (``answer=False``): only the tents are the
answer, so a puzzle is unique when its tents are, whichever way trees and tents pair.

The trees are instance data (``Const``); the row and column counts are the clues the
generator thins out (published puzzles give every count; ``--density`` keeps more).
"""
from puzzleforge.core.errors import InvalidDescription
from puzzleforge.grid import Bool, Const, Enum, Grid, Int, Model, Param, Var, forall
from puzzleforge.grid.genre import Drawing, Genre, Instance, parse_header, split_tokens
from puzzleforge.grid.ir import Implies
from puzzleforge.grid.model import ClueSpec
from puzzleforge.grid.topology import Cell

#: A side, the step to the cell on that side, and the side that cell sees us on.
SIDES = {"N": (-1, 0, "S"), "S": (1, 0, "N"), "W": (0, -1, "E"), "E": (0, 1, "W")}


class Tents(Genre):
    id = "tents"
    title = "Tents"
    summary = "Tents: a tent beside every tree, tents apart, row and column counts"
    rules_doc = ("Place tents in empty cells. Trees and tents pair off: each tree has its own "
                 "tent directly beside it (above, below, left or right) and each tent its own "
                 "tree. No two tents touch, not even diagonally. The number beside a row or "
                 "below a column is how many tents it holds.")
    answer_var = "tent"
    removable = ("count",)
    min_size, max_size, default_size = 4, 12, (8, 8)
    answer_doc = "one line per row, 1 for a tent and 0 for any other cell (trees included)."

    def build_rules(self) -> Model:
        nR, nC = Param("nR", int), Param("nC", int)
        grid = Grid(nR, nC)
        tent = Bool.over(grid.C, name="tent")
        tree = Const(Bool, over=grid.C, name="tree")
        link = Var("link", Enum(("-", *SIDES)), over=grid.C, answer=False)
        m = Model("tents")
        m.add(forall(grid.C, lambda c: ~(tree[c] & tent[c])), "no tent on a tree")
        m.add(forall(grid.C, lambda c: (link[c] == "-") == ~(tree[c] | tent[c])),
              "trees and tents have a partner, empty cells none")
        for side, (dr, dc, back) in SIDES.items():
            m.add(forall(grid.C, lambda c: Implies(
                link[c] == side,
                (link.get(grid.step(c, dr, dc), "-") == back)
                & (tree[c] == tent.get(grid.step(c, dr, dc), False)))),
                "a tree and its tent name each other")
        m.add(forall(grid.C, lambda c: forall(grid.neighbors(c, diagonal=True),
                                              lambda d: ~(tent[c] & tent[d]))),
              "tents do not touch, not even diagonally")
        count = ClueSpec(grid.rows | grid.cols, Int(0, 12), name="count")
        m.add(count.rule(lambda line, k: line.count_true(tent) == k), "tents per row and column")
        return m

    # -- text: '.' empty, 'T' tree, the row count last; the column counts on the last line --
    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        rows, cols = fields["rows"], fields["cols"]
        inst = Instance(self.id, rows, cols)
        if len(lines) != rows + 1:
            raise InvalidDescription(f"tents body has {len(lines)} lines", line=2,
                                     expected=f"{rows} rows of '{cols} cells + row count', then "
                                              f"{cols} column counts")
        grid = self._lines(rows, cols)
        trees, counts = {}, {}
        for r in range(rows):
            toks = split_tokens(lines[r])
            if len(toks) != cols + 1:
                raise InvalidDescription(f"row {r + 1} has {len(toks)} tokens", line=r + 2,
                                         expected=f"{cols} cells ('.' or 'T') then the row count")
            for c, t in enumerate(toks[:cols]):
                if t.upper() not in (".", "T"):
                    raise InvalidDescription(f"cell token {t!r}", line=r + 2,
                                             expected="'T' for a tree or '.' for an empty cell")
                trees[Cell(r, c)] = t.upper() == "T"
            self._count(counts, grid["row"][r], toks[cols], r + 2)
        toks = split_tokens(lines[rows])
        if len(toks) != cols:
            raise InvalidDescription(f"{len(toks)} column counts", line=rows + 2,
                                     expected=f"{cols} numbers or '.'")
        for c, t in enumerate(toks):
            self._count(counts, grid["col"][c], t, rows + 2)
        inst.data = {"tree": trees}
        inst.clues = {"count": counts}
        return inst

    @staticmethod
    def _count(counts: dict, line: object, token: str, line_no: int) -> None:
        if token in (".", "-"):
            return
        if not token.isdigit():
            raise InvalidDescription(f"count {token!r}", line=line_no, expected="a number or '.'")
        counts[line] = int(token)

    @staticmethod
    def _lines(rows: int, cols: int) -> dict:
        from puzzleforge.grid.genre import concrete

        g = concrete(rows, cols)
        return {"row": g.rows(), "col": g.cols()}

    def format(self, inst: Instance) -> str:
        grid = self._lines(inst.rows, inst.cols)
        counts, trees = inst.clues.get("count", {}), inst.data["tree"]
        out = [self.header(inst)]
        for r in range(inst.rows):
            cells = ["T" if trees.get(Cell(r, c)) else "." for c in range(inst.cols)]
            out.append(" ".join(cells + [str(counts.get(grid["row"][r], "."))]))
        out.append(" ".join(str(counts.get(grid["col"][c], ".")) for c in range(inst.cols)))
        return "\n".join(out) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        d.text = {c: "T" for c, t in inst.data["tree"].items() if t}
        for line, k in inst.clues.get("count", {}).items():
            kind, i = line.name
            d.outside[("E", i) if kind == "row" else ("S", i)] = str(k)
        if sol:
            d.circles = {c: "black" for c, v in sol["tent"].items() if v}
        return d

    # -- generation: draw the tents and their trees, the counts follow ------------------
    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        grid = self._lines(inst.rows, inst.cols)
        tents = sol["tent"]
        return {"count": {line: sum(1 for c in line.items if tents[c])
                          for line in grid["row"] + grid["col"]}}

    def direct_solution(self, inst: Instance, rng, tier: str = "any"):
        """Tents first (apart from each other, about one cell in five), then a tree beside
        each on a free side; a tent with no free side is dropped."""
        cells = [Cell(r, c) for r in range(inst.rows) for c in range(inst.cols)]
        order = cells[:]
        rng.shuffle(order)
        tents: set = set()
        trees: set = set()
        target = len(cells) // 5
        for c in order:
            if len(tents) >= target:
                break
            if c in trees or any(Cell(c.r + a, c.c + b) in tents
                                 for a in (-1, 0, 1) for b in (-1, 0, 1)):
                continue
            sides = [Cell(c.r + dr, c.c + dc) for dr, dc, _ in SIDES.values()]
            free = [d for d in sides if 0 <= d.r < inst.rows and 0 <= d.c < inst.cols
                    and d not in tents and d not in trees]
            if not free:
                continue
            tents.add(c)
            trees.add(free[rng.randrange(len(free))])
        inst.data = {"tree": {c: c in trees for c in cells}}
        sol = {"tent": {c: c in tents for c in cells}}
        return sol, self.clues_from_solution(inst, sol)


GENRE = Tents
