"""Hitori, written as a genre file: shade cells so no number repeats among the unshaded
cells of a row or column, shaded cells never touch side by side, and the unshaded cells
stay connected.

    puzzleforge grid solve --genre-file examples/genres/hitori.py examples/genres/hitori-5x5.txt

The numbers are instance data (``Const``): every cell has one, so they are not clues the
generator thins out; the puzzle is the grid of numbers and the answer is the shading.
"""
from puzzleforge.grid import Bool, Const, Grid, Int, Model, Param, forall
from puzzleforge.grid.genre import Drawing, Genre, Instance, parse_header
from puzzleforge.grid.genres.common import read_cells, write_cells
from puzzleforge.grid.primitives import connected


class Hitori(Genre):
    id = "hitori"
    title = "Hitori"
    summary = "Hitori: shade repeated numbers away; shaded cells apart, unshaded connected"
    rules_doc = ("Shade some cells so that no number appears twice among the unshaded cells "
                 "of any row or column. Shaded cells never share a side, and all unshaded "
                 "cells form one orthogonally connected area.")
    answer_var = "black"
    removable = ()
    min_size, max_size, default_size = 3, 12, (5, 5)

    def build_rules(self) -> Model:
        nR, nC = Param("nR", int), Param("nC", int)
        grid = Grid(nR, nC)
        black = Bool.over(grid.C, name="black")
        number = Const(Int(1, 12), over=grid.C, name="number")
        m = Model("hitori")
        for lines, what in ((grid.rows, "row"), (grid.cols, "column")):
            m.add(forall(lines, lambda line: forall(line, lambda a: forall(line.before(a), lambda b:
                  (number[a] != number[b]) | black[a] | black[b]))), f"no repeated number in a {what}")
        m.add(forall(grid.C, lambda c: forall(grid.neighbors(c), lambda d: ~(black[c] & black[d]))),
              "shaded cells do not touch")
        m.add(connected(grid.C, lambda c: ~black[c]), "unshaded cells connected")
        return m

    def parse(self, text: str) -> Instance:
        fields, lines = parse_header(text, self.id)
        inst = Instance(self.id, fields["rows"], fields["cols"])
        inst.data = {"number": read_cells(lines, inst.rows, inst.cols, int, genre=self.id)}
        inst.clues = {}
        return inst

    def format(self, inst: Instance) -> str:
        numbers = inst.data["number"]
        return "\n".join([self.header(inst)] + write_cells(
            inst.rows, inst.cols, lambda c: str(numbers[c]))) + "\n"

    def drawing(self, inst: Instance, sol: dict | None = None) -> Drawing:
        d = Drawing(inst.rows, inst.cols)
        d.text = {c: str(v) for c, v in inst.data["number"].items()}
        if sol:
            d.shaded = {c for c, v in sol["black"].items() if v}
        return d

    def clues_from_solution(self, inst: Instance, sol: dict) -> dict:
        return {}
