"""How each genre's Janko grids map onto our instances (and back).

Conventions (janko.at's, as far as its pages and public scrapers of them show; where a
genre admits several spellings we read all of them and write the first):

* every grid: whitespace-separated tokens, ``-`` (or ``.``) = empty.
* sudoku: digits (letters past 9); box from ``patterny`` x ``patternx`` (rows x cols).
* unruly, binairo: ``0``/``1`` (also ``w``/``b``).
* futoshiki: a (2n-1) x (2n-1) grid: cells on even rows/columns, signs between them:
  ``<``/``>`` (also ``«``/``»``) across, ``^``/``v`` (also ``A``/``V``) down, ``^``
  meaning the upper cell is smaller. An n x n grid without signs is accepted too.
* kakurasu: ``[rlabels]`` one line of row sums, ``[clabels]`` one line of column sums
  (the weights 1..n are implicit); the problem grid is all ``-``.
* skyscrapers: ``[clabels]`` two lines (top clues, bottom clues), ``[rlabels]`` two lines
  (left, right); the problem grid holds given heights. A (n+2) x (n+2) problem grid with
  the clues in its frame is accepted too.
* lightup (Akari): ``x`` (also ``#``, ``b``) a wall, ``0``-``4`` a numbered wall.
* nurikabe: island numbers. slitherlink: ``0``-``3``. masyu: ``w``/``b`` (also ``1``/``2``).
* starbattle: ``[areas]`` region labels per cell, ``stars k`` in the setup.

Solutions are read where a cell token is unambiguous (digits; 0/1 and shaded marks
``x # * 1`` for shading genres) and returned as our answer tokens, so a caller can check
that the unique solution we find is the published one.
"""

from __future__ import annotations

import re

from ...core.errors import InvalidDescription
from ..genre import Instance, concrete
from ..topology import Cell, Edge
from .janko import JankoDoc, read_doc, write_doc

__all__ = ["from_doc", "to_doc", "parse_janko", "format_janko", "JANKO_NAMES", "janko_genre"]

#: Janko ``puzzle`` names (normalised: lower case, letters and digits only) -> our genre
JANKO_NAMES = {
    "sudoku": "sudoku",
    "futoshiki": "futoshiki",
    "kakurasu": "kakurasu",
    "akari": "lightup",
    "lightup": "lightup",
    "bijutsukan": "lightup",
    "nurikabe": "nurikabe",
    "slitherlink": "slitherlink",
    "slither": "slitherlink",
    "masyu": "masyu",
    "mashu": "masyu",
    "starbattle": "starbattle",
    "sternenschlacht": "starbattle",
    "skyscrapers": "skyscrapers",
    "skyscraper": "skyscrapers",
    "hochhaeuser": "skyscrapers",
    "wolkenkratzer": "skyscrapers",
    "towers": "skyscrapers",
    "building": "skyscrapers",
    "binairo": "binairo",
    "binaer": "binairo",
    "takuzu": "binairo",
    "binary": "binairo",
    "unruly": "unruly",
}
#: our genre -> the name we write
WRITE_NAME = {
    "sudoku": "sudoku",
    "futoshiki": "futoshiki",
    "kakurasu": "kakurasu",
    "lightup": "akari",
    "nurikabe": "nurikabe",
    "slitherlink": "slitherlink",
    "masyu": "masyu",
    "starbattle": "starbattle",
    "skyscrapers": "skyscrapers",
    "binairo": "binairo",
    "unruly": "unruly",
}
EMPTY = {"-", ".", "_"}
SHADED = {"x", "X", "#", "*", "1", "b", "B", "s", "S"}


def janko_genre(name: str) -> str:
    key = re.sub(r"[^a-z0-9]", "", name.lower().replace("ä", "ae"))
    genre = JANKO_NAMES.get(key)
    if genre is None:
        raise InvalidDescription(
            f"Janko puzzle type {name!r} is not one of our genres",
            field="puzzle",
            expected="one of " + ", ".join(sorted(JANKO_NAMES)) + " (or pass the genre)",
        )
    return genre


def _grid(doc: JankoDoc, name: str, rows: int, cols: int) -> list[list[str]]:
    grid = doc.sections.get(name)
    if grid is None:
        raise InvalidDescription(
            f"Janko text without [{name}]", field=name, expected=f"{rows} rows of {cols} tokens"
        )
    if len(grid) != rows or any(len(r) != cols for r in grid):
        shape = (
            f"{len(grid)} rows of "
            + "/".join(sorted({str(len(r)) for r in grid}) or ["0"])
            + " tokens"
        )
        raise InvalidDescription(
            f"Janko [{name}] has {shape}", field=name, expected=f"{rows} rows of {cols} tokens"
        )
    return grid


def _labels(doc: JankoDoc, name: str, count: int, n: int) -> list[list[str]] | None:
    """``count`` label lines of ``n`` tokens (also accepted transposed: n lines of count)."""
    grid = doc.sections.get(name)
    if grid is None:
        return None
    if len(grid) == count and all(len(r) == n for r in grid):
        return grid
    if len(grid) == n and all(len(r) == count for r in grid):
        return [[grid[i][k] for i in range(n)] for k in range(count)]
    raise InvalidDescription(
        f"Janko [{name}] has {len(grid)} lines",
        field=name,
        expected=f"{count} line(s) of {n} numbers",
    )


def _int(tok: str, what: str, lo: int = 0, hi: int | None = None) -> int:
    try:
        v = int(tok) if tok.isdigit() else int(tok, 36)
    except ValueError:
        raise InvalidDescription(
            f"Janko token {tok!r} for {what}", expected="a number or '-'"
        ) from None
    if v < lo or (hi is not None and v > hi):
        raise InvalidDescription(f"Janko {what} {v}", expected=f"{lo}..{hi}")
    return v


def _cells(rows: int, cols: int):
    return [Cell(r, c) for r in range(rows) for c in range(cols)]


# -- reading ----------------------------------------------------------------------------
def from_doc(doc: JankoDoc, genre: str | None = None) -> tuple[Instance, list[list[str]] | None]:
    gid = genre or janko_genre(doc.fields.get("puzzle", "") or "?")
    reader = _READERS.get(gid)
    if reader is None:
        raise InvalidDescription(
            f"no Janko layout for {gid}", expected="a puzz.link URL or instance text"
        )
    return reader(doc)


def _solution_digits(doc: JankoDoc, rows: int, cols: int) -> list[list[str]] | None:
    if "solution" not in doc.sections:
        return None
    return [
        [str(_int(t, "solution digit", 1)) for t in row]
        for row in _grid(doc, "solution", rows, cols)
    ]


def _solution_shade(
    doc: JankoDoc, rows: int, cols: int, shaded: set = SHADED
) -> list[list[str]] | None:
    if "solution" not in doc.sections:
        return None
    return [
        ["1" if t in shaded else "0" for t in row] for row in _grid(doc, "solution", rows, cols)
    ]


def _read_sudoku(doc: JankoDoc):
    rows, cols = doc.size()
    inst = Instance("sudoku", rows, cols)
    px, py = doc.get_int("patternx"), doc.get_int("patterny")
    if px and py:
        inst.opts["box"] = (py, px)
    grid = _grid(doc, "problem", rows, cols)
    inst.clues = {
        "given": {
            Cell(r, c): _int(t, "sudoku digit", 1, rows)
            for r, row in enumerate(grid)
            for c, t in enumerate(row)
            if t not in EMPTY
        }
    }
    return inst, _solution_digits(doc, rows, cols)


def _binary(gid: str):
    def read(doc: JankoDoc):
        rows, cols = doc.size()
        inst = Instance(gid, rows, cols)
        val = {"0": False, "1": True, "w": False, "b": True, "W": False, "B": True}
        given = {}
        for r, row in enumerate(_grid(doc, "problem", rows, cols)):
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
                for row in _grid(doc, "solution", rows, cols)
            ]
        return inst, sol

    return read


_ACROSS = {"<": "<", "«": "<", ">": ">", "»": ">"}
_DOWN = {"^": "<", "A": "<", "Λ": "<", "∧": "<", "v": ">", "V": ">", "∨": ">"}


def _read_futoshiki(doc: JankoDoc):
    n, _ = doc.size()
    inst = Instance("futoshiki", n, n)
    raw = doc.sections.get("problem", [])
    given, rel = {}, {}
    if len(raw) == n and all(len(r) == n for r in raw):  # cells only
        grid = [[t for t in row] for row in raw]
        given = {
            Cell(r, c): _int(t, "futoshiki digit", 1, n)
            for r, row in enumerate(grid)
            for c, t in enumerate(row)
            if t not in EMPTY
        }
    else:
        grid = _grid(doc, "problem", 2 * n - 1, 2 * n - 1)
        for i, row in enumerate(grid):
            for j, t in enumerate(row):
                if t in EMPTY:
                    continue
                if i % 2 == 0 and j % 2 == 0:
                    given[Cell(i // 2, j // 2)] = _int(t, "futoshiki digit", 1, n)
                elif i % 2 == 0 and t in _ACROSS:
                    rel[Edge("v", i // 2, j // 2 + 1)] = _ACROSS[t]
                elif j % 2 == 0 and i % 2 == 1 and t in _DOWN:
                    rel[Edge("h", i // 2 + 1, j // 2)] = _DOWN[t]
                elif i % 2 == 1 and j % 2 == 1:
                    continue  # corner between four cells: decoration only
                else:
                    raise InvalidDescription(
                        f"Janko futoshiki token {t!r} at row {i + 1}, column {j + 1}",
                        expected="< > across, ^ v down, digits in cells, - for none",
                    )
    inst.clues = {"given": given, "rel": rel}
    return inst, _solution_digits(doc, n, n)


def _read_kakurasu(doc: JankoDoc):
    n, _ = doc.size()
    inst = Instance("kakurasu", n, n)
    g = concrete(n, n)
    rl, cl = _labels(doc, "rlabels", 1, n), _labels(doc, "clabels", 1, n)
    if rl is None or cl is None:
        raise InvalidDescription(
            "Janko kakurasu without [rlabels] and [clabels]",
            expected="[rlabels] with the row sums, [clabels] with the column sums",
        )
    top = n * (n + 1) // 2
    sums = {g.row(i): _int(t, "row sum", 0, top) for i, t in enumerate(rl[0]) if t not in EMPTY}
    sums.update(
        {g.col(j): _int(t, "column sum", 0, top) for j, t in enumerate(cl[0]) if t not in EMPTY}
    )
    inst.clues = {"sum": sums}
    return inst, _solution_shade(doc, n, n)


def _read_skyscrapers(doc: JankoDoc):
    n, _ = doc.size()
    inst = Instance("skyscrapers", n, n)
    lines = {line.name: line for line in concrete(n, n).sight_lines()}
    raw = doc.sections.get("problem", [])
    view, given = {}, {}

    def put(side: str, i: int, t: str) -> None:
        if t not in EMPTY:
            view[lines[(side, i)]] = _int(t, "skyscrapers clue", 1, n)

    if len(raw) == n + 2 and all(len(r) == n + 2 for r in raw):  # clues in a frame
        for j in range(n):
            put("N", j, raw[0][j + 1])
            put("S", j, raw[n + 1][j + 1])
        for i in range(n):
            put("W", i, raw[i + 1][0])
            put("E", i, raw[i + 1][n + 1])
        cells = [row[1 : n + 1] for row in raw[1 : n + 1]]
    else:
        cells = _grid(doc, "problem", n, n) if raw else [["-"] * n for _ in range(n)]
        cl, rl = _labels(doc, "clabels", 2, n), _labels(doc, "rlabels", 2, n)
        for side, lab in (
            ("N", cl and cl[0]),
            ("S", cl and cl[1]),
            ("W", rl and rl[0]),
            ("E", rl and rl[1]),
        ):
            for i, t in enumerate(lab or []):
                put(side, i, t)
    for r, row in enumerate(cells):
        for c, t in enumerate(row):
            if t not in EMPTY:
                given[Cell(r, c)] = _int(t, "height", 1, n)
    inst.clues = {"given": given, "view": view}
    return inst, _solution_digits(doc, n, n)


def _read_lightup(doc: JankoDoc):
    rows, cols = doc.size()
    inst = Instance("lightup", rows, cols)
    walls, num = {}, {}
    for r, row in enumerate(_grid(doc, "problem", rows, cols)):
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


def _cell_clues(gid: str, key: str, parse):
    def read(doc: JankoDoc):
        rows, cols = doc.size()
        inst = Instance(gid, rows, cols)
        out = {}
        for r, row in enumerate(_grid(doc, "problem", rows, cols)):
            for c, t in enumerate(row):
                if t in EMPTY:
                    continue
                try:
                    out[Cell(r, c)] = parse(t)
                except (KeyError, ValueError):
                    raise InvalidDescription(
                        f"Janko {gid} token {t!r}", line=r + 1, expected="a clue of this genre or -"
                    ) from None
        inst.clues = {key: out}
        sol = None
        if gid == "nurikabe" and "solution" in doc.sections:
            sol = _solution_shade(doc, rows, cols, {"x", "X", "#", "*", "b", "B"})
        return inst, sol

    return read


def _read_starbattle(doc: JankoDoc):
    rows, cols = doc.size()
    areas = _grid(doc, "areas", rows, cols)
    names: dict = {}
    region = {
        Cell(r, c): names.setdefault(t, len(names))
        for r, row in enumerate(areas)
        for c, t in enumerate(row)
    }
    inst = Instance("starbattle", rows, cols, {"stars": doc.get_int("stars") or 1})
    inst.data = {"region": region}
    inst.clues = {}
    return inst, _solution_shade(doc, rows, cols)


_READERS = {
    "sudoku": _read_sudoku,
    "unruly": _binary("unruly"),
    "binairo": _binary("binairo"),
    "futoshiki": _read_futoshiki,
    "kakurasu": _read_kakurasu,
    "skyscrapers": _read_skyscrapers,
    "lightup": _read_lightup,
    "nurikabe": _cell_clues("nurikabe", "number", lambda t: _int(t, "island size", 1)),
    "slitherlink": _cell_clues(
        "slitherlink", "number", lambda t: {"0": 0, "1": 1, "2": 2, "3": 3}[t]
    ),
    "masyu": _cell_clues(
        "masyu",
        "pearl",
        lambda t: {"w": "W", "o": "W", "1": "W", "b": "B", "x": "B", "2": "B", "*": "B"}[t.lower()],
    ),
    "starbattle": _read_starbattle,
}


# -- writing ----------------------------------------------------------------------------
def to_doc(inst: Instance, sol: dict | None = None, extra: dict | None = None) -> JankoDoc:
    if inst.genre not in WRITE_NAME:
        raise InvalidDescription(
            f"no Janko layout for {inst.genre}",
            expected="a puzz.link URL (puzzleforge grid url FILE) or instance text",
        )
    doc = JankoDoc()
    doc.fields["puzzle"] = WRITE_NAME[inst.genre]
    if inst.rows == inst.cols:
        doc.fields["size"] = str(inst.rows)
    else:
        doc.fields["rows"], doc.fields["cols"] = str(inst.rows), str(inst.cols)
    for k, v in (extra or {}).items():
        doc.fields[k] = str(v)
    _WRITERS[inst.genre](inst, doc)
    if sol is not None:
        from ..genres import get_genre

        g = get_genre(inst.genre)
        grid = g.answer_grid(inst, sol)
        if inst.genre in ("kakurasu", "nurikabe", "starbattle"):
            grid = [["x" if t == "1" else "-" for t in row] for row in grid]
        if inst.genre in (
            "sudoku",
            "futoshiki",
            "skyscrapers",
            "unruly",
            "binairo",
            "kakurasu",
            "nurikabe",
            "starbattle",
        ):
            doc.sections["solution"] = grid
    return doc


def _cells_section(inst: Instance, token) -> list[list[str]]:
    return [[token(Cell(r, c)) for c in range(inst.cols)] for r in range(inst.rows)]


def _w_sudoku(inst: Instance, doc: JankoDoc) -> None:
    from ..genres import get_genre

    bh, bw = get_genre("sudoku").box(inst)
    doc.fields["patternx"], doc.fields["patterny"] = str(bw), str(bh)
    g = inst.clues.get("given", {})
    doc.sections["problem"] = _cells_section(inst, lambda c: str(g[c]) if c in g else "-")


def _w_binary(inst: Instance, doc: JankoDoc) -> None:
    g = inst.clues.get("given", {})
    doc.sections["problem"] = _cells_section(
        inst, lambda c: ("1" if g[c] else "0") if c in g else "-"
    )


def _w_futoshiki(inst: Instance, doc: JankoDoc) -> None:
    n = inst.rows
    g, rel = inst.clues.get("given", {}), inst.clues.get("rel", {})
    grid = [["-"] * (2 * n - 1) for _ in range(2 * n - 1)]
    for c, v in g.items():
        grid[2 * c.r][2 * c.c] = str(v)
    for e, s in rel.items():
        if e.o == "v":
            grid[2 * e.r][2 * e.c - 1] = s
        else:
            grid[2 * e.r - 1][2 * e.c] = "^" if s == "<" else "v"
    doc.sections["problem"] = grid


def _w_kakurasu(inst: Instance, doc: JankoDoc) -> None:
    n, g = inst.rows, concrete(inst.rows, inst.cols)
    s = inst.clues.get("sum", {})
    doc.sections["problem"] = [["-"] * n for _ in range(n)]
    doc.sections["rlabels"] = [[str(s[g.row(i)]) if g.row(i) in s else "-" for i in range(n)]]
    doc.sections["clabels"] = [[str(s[g.col(j)]) if g.col(j) in s else "-" for j in range(n)]]


def _w_skyscrapers(inst: Instance, doc: JankoDoc) -> None:
    n = inst.rows
    view = {line.name: v for line, v in inst.clues.get("view", {}).items()}
    g = inst.clues.get("given", {})

    def t(side, i):
        return str(view[(side, i)]) if (side, i) in view else "-"

    doc.sections["problem"] = _cells_section(inst, lambda c: str(g[c]) if c in g else "-")
    doc.sections["clabels"] = [[t("N", j) for j in range(n)], [t("S", j) for j in range(n)]]
    doc.sections["rlabels"] = [[t("W", i) for i in range(n)], [t("E", i) for i in range(n)]]


def _w_lightup(inst: Instance, doc: JankoDoc) -> None:
    walls, num = inst.data["wall"], inst.clues.get("number", {})
    doc.sections["problem"] = _cells_section(
        inst, lambda c: str(num[c]) if c in num else "x" if walls.get(c) else "-"
    )


def _w_numbers(key: str):
    def write(inst: Instance, doc: JankoDoc) -> None:
        d = inst.clues.get(key, {})
        doc.sections["problem"] = _cells_section(inst, lambda c: str(d[c]) if c in d else "-")

    return write


def _w_masyu(inst: Instance, doc: JankoDoc) -> None:
    p = inst.clues.get("pearl", {})
    doc.sections["problem"] = _cells_section(
        inst, lambda c: {"W": "w", "B": "b"}[p[c]] if c in p else "-"
    )


def _w_starbattle(inst: Instance, doc: JankoDoc) -> None:
    reg = inst.data["region"]
    names: dict = {}
    for c in _cells(inst.rows, inst.cols):
        names.setdefault(reg[c], str(len(names) + 1))
    doc.fields["stars"] = str(inst.opts.get("stars", 1))
    doc.sections["problem"] = [["-"] * inst.cols for _ in range(inst.rows)]
    doc.sections["areas"] = _cells_section(inst, lambda c: names[reg[c]])


_WRITERS = {
    "sudoku": _w_sudoku,
    "unruly": _w_binary,
    "binairo": _w_binary,
    "futoshiki": _w_futoshiki,
    "kakurasu": _w_kakurasu,
    "skyscrapers": _w_skyscrapers,
    "lightup": _w_lightup,
    "nurikabe": _w_numbers("number"),
    "slitherlink": _w_numbers("number"),
    "masyu": _w_masyu,
    "starbattle": _w_starbattle,
}


def parse_janko(text: str, genre: str | None = None) -> tuple[Instance, list[list[str]] | None]:
    """Janko text -> (Instance, the solution as our answer tokens or None).

    ``genre`` overrides the text's own ``puzzle`` field (needed when it is missing or a
    name we do not know).
    """
    return from_doc(read_doc(text), genre)


def format_janko(inst: Instance, solution: dict | None = None, **fields: str) -> str:
    """Instance (and optionally its solution) -> Janko text (new layout)."""
    return write_doc(to_doc(inst, solution, fields))
