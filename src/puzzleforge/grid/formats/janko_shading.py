"""Janko codecs of the shading genres: Unruly, Binairo, Kakurasu, Light Up, Nurikabe,
Star Battle.

Why these together: each answer is a black-or-white board, read back from a [solution]
of shading marks (where the genre's marks are unambiguous) and written as ``x``/``-``;
what differs is where the clues sit: given colours in the cells (Unruly, Binairo), sums
in label lines (Kakurasu), walls and numbers (Light Up), island sizes (Nurikabe), a
region map in [areas] (Star Battle).
"""

from __future__ import annotations

from ...core.errors import InvalidDescription
from ..genre import Instance, concrete
from ..topology import Cell
from .janko import JankoDoc
from .janko_tokens import (
    EMPTY,
    Reader,
    Writer,
    all_cells,
    cell_clue_reader,
    cell_clue_writer,
    cells_section,
    grid_section,
    label_lines,
    solution_shade,
    token_int,
)

__all__ = ["READERS", "WRITERS"]

Read = tuple[Instance, list[list[str]] | None]


def _binary_reader(gid: str) -> Reader:
    def read(doc: JankoDoc) -> Read:
        rows, cols = doc.size()
        inst = Instance(gid, rows, cols)
        val = {"0": False, "1": True, "w": False, "b": True, "W": False, "B": True}
        given = {}
        for r, row in enumerate(grid_section(doc, "problem", rows, cols)):
            for c, t in enumerate(row):
                if t in EMPTY:
                    continue
                if t not in val:
                    raise InvalidDescription(
                        f"Janko {gid} token {t!r}", line=r + 1, expected="0, 1 or -"
                    )
                given[Cell(r, c)] = val[t]
        inst.clues = {"given": given}
        sol = None
        if "solution" in doc.sections:
            sol = [
                ["1" if val.get(t) else "0" for t in row]
                for row in grid_section(doc, "solution", rows, cols)
            ]
        return inst, sol

    return read


def _read_kakurasu(doc: JankoDoc) -> Read:
    n, _ = doc.size()
    inst = Instance("kakurasu", n, n)
    g = concrete(n, n)
    rl, cl = label_lines(doc, "rlabels", 1, n), label_lines(doc, "clabels", 1, n)
    if rl is None or cl is None:
        raise InvalidDescription(
            "Janko kakurasu without [rlabels] and [clabels]",
            expected="[rlabels] with the row sums, [clabels] with the column sums",
        )
    top = n * (n + 1) // 2
    sums = {
        g.row(i): token_int(t, "row sum", 0, top) for i, t in enumerate(rl[0]) if t not in EMPTY
    }
    sums.update(
        {
            g.col(j): token_int(t, "column sum", 0, top)
            for j, t in enumerate(cl[0])
            if t not in EMPTY
        }
    )
    inst.clues = {"sum": sums}
    return inst, solution_shade(doc, n, n)


def _read_lightup(doc: JankoDoc) -> Read:
    rows, cols = doc.size()
    inst = Instance("lightup", rows, cols)
    walls, num = {}, {}
    for r, row in enumerate(grid_section(doc, "problem", rows, cols)):
        for c, t in enumerate(row):
            cell = Cell(r, c)
            walls[cell] = t not in EMPTY
            if t in "01234" and len(t) == 1:
                num[cell] = int(t)
            elif t not in EMPTY and t not in ("x", "X", "#", "b", "B"):
                raise InvalidDescription(
                    f"Janko akari token {t!r}", line=r + 1, expected="x (wall), 0-4 or -"
                )
    inst.data = {"wall": walls}
    inst.clues = {"number": num}
    return inst, None


def _nurikabe_solution(doc: JankoDoc, rows: int, cols: int) -> list[list[str]] | None:
    # "1" is an island size in Nurikabe, never a shading mark
    return solution_shade(doc, rows, cols, {"x", "X", "#", "*", "b", "B"})


def _read_starbattle(doc: JankoDoc) -> Read:
    rows, cols = doc.size()
    areas = grid_section(doc, "areas", rows, cols)
    names: dict = {}
    region = {
        Cell(r, c): names.setdefault(t, len(names))
        for r, row in enumerate(areas)
        for c, t in enumerate(row)
    }
    inst = Instance("starbattle", rows, cols, {"stars": doc.get_int("stars") or 1})
    inst.data = {"region": region}
    inst.clues = {}
    return inst, solution_shade(doc, rows, cols)


def _write_binary(inst: Instance, doc: JankoDoc) -> None:
    g = inst.clues.get("given", {})
    doc.sections["problem"] = cells_section(
        inst, lambda c: ("1" if g[c] else "0") if c in g else "-"
    )


def _write_kakurasu(inst: Instance, doc: JankoDoc) -> None:
    n, g = inst.rows, concrete(inst.rows, inst.cols)
    s = inst.clues.get("sum", {})
    doc.sections["problem"] = [["-"] * n for _ in range(n)]
    doc.sections["rlabels"] = [[str(s[g.row(i)]) if g.row(i) in s else "-" for i in range(n)]]
    doc.sections["clabels"] = [[str(s[g.col(j)]) if g.col(j) in s else "-" for j in range(n)]]


def _write_lightup(inst: Instance, doc: JankoDoc) -> None:
    walls, num = inst.data["wall"], inst.clues.get("number", {})
    doc.sections["problem"] = cells_section(
        inst, lambda c: str(num[c]) if c in num else "x" if walls.get(c) else "-"
    )


def _write_starbattle(inst: Instance, doc: JankoDoc) -> None:
    reg = inst.data["region"]
    names: dict = {}
    for c in all_cells(inst.rows, inst.cols):
        names.setdefault(reg[c], str(len(names) + 1))
    doc.fields["stars"] = str(inst.opts.get("stars", 1))
    doc.sections["problem"] = [["-"] * inst.cols for _ in range(inst.rows)]
    doc.sections["areas"] = cells_section(inst, lambda c: names[reg[c]])


READERS: dict[str, Reader] = {
    "unruly": _binary_reader("unruly"),
    "binairo": _binary_reader("binairo"),
    "kakurasu": _read_kakurasu,
    "lightup": _read_lightup,
    "nurikabe": cell_clue_reader(
        "nurikabe",
        "number",
        lambda t: token_int(t, "island size", 1),
        solution=_nurikabe_solution,
    ),
    "starbattle": _read_starbattle,
}
WRITERS: dict[str, Writer] = {
    "unruly": _write_binary,
    "binairo": _write_binary,
    "kakurasu": _write_kakurasu,
    "lightup": _write_lightup,
    "nurikabe": cell_clue_writer("number"),
    "starbattle": _write_starbattle,
}
