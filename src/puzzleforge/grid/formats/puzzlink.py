"""puzz.link (pzprjs) URL import/export for every grid genre puzz.link has.

Why our own codec: the URL formats are small and stable; decoding them here lets the CLI
and the web app load any puzz.link puzzle of these genres offline. The variety names
and packings were read from the pzprjs sources (robx/pzprjs ``src/pzpr/variety.js``,
``src/variety/*.js``, ``src/puzzle/Encode.js``) and rewritten:

=============  =======================================  ==================================
our genre      URL names (first = the one we write)     data after ``cols/rows/``
=============  =======================================  ==================================
sudoku         sudoku                                   number16 givens
nurikabe       nurikabe                                 number16 island numbers
lightup        akari, lightup, bijutsukan               4-cell: walls (numbered or ``.``)
slitherlink    slither, slitherlink                     4-cell numbers
masyu          mashu, masyu, pearl                      circle (1 white, 2 black)
starbattle     starbattle (``cols/rows/stars/``)         border (regions)
skyscrapers    skyscrapers, building, skyscraper        number16 outside clues (top,
                                                        bottom, left, right), then
                                                        optional number16 givens
nonogram       nonogram                                 number16 run slots: per column
                                                        (nearest the grid first), then
                                                        per row
=============  =======================================  ==================================

puzz.link has no Unruly, Binairo, Futoshiki or Kakurasu (none is in pzprjs's variety
list); those genres exchange Janko text (``formats.janko``) or our instance text.

>>> inst = decode_url("https://puzz.link/p?sudoku/4/4/g1k23k3g")
>>> inst.genre, inst.rows, sorted(inst.clues["given"].values())
('sudoku', 4, [1, 2, 3, 3])
>>> encode_url(inst)
'https://puzz.link/p?sudoku/4/4/g1k23k3g'
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.errors import InvalidDescription
from ..genre import Instance, concrete
from ..topology import Cell
from .packing import (
    UNKNOWN,
    dec_4cell,
    dec_border,
    dec_circle,
    dec_number16,
    enc_4cell,
    enc_border,
    enc_circle,
    enc_number16,
)

__all__ = ["decode_url", "encode_url", "PUZZLINK_GENRES", "URL_NAME", "has_url"]

#: puzz.link name (and aliases) -> our genre id
PUZZLINK_GENRES = {
    "sudoku": "sudoku",
    "nurikabe": "nurikabe",
    "akari": "lightup",
    "lightup": "lightup",
    "bijutsukan": "lightup",
    "slither": "slitherlink",
    "slitherlink": "slitherlink",
    "mashu": "masyu",
    "masyu": "masyu",
    "pearl": "masyu",
    "starbattle": "starbattle",
    "skyscrapers": "skyscrapers",
    "building": "skyscrapers",
    "skyscraper": "skyscrapers",
    "nonogram": "nonogram",
}
#: our genre id -> the name we write (pzprjs's own URL id)
URL_NAME = {
    "sudoku": "sudoku",
    "nurikabe": "nurikabe",
    "lightup": "akari",
    "slitherlink": "slither",
    "masyu": "mashu",
    "starbattle": "starbattle",
    "skyscrapers": "skyscrapers",
    "nonogram": "nonogram",
}
BASE = "https://puzz.link/p?"


def has_url(genre: str) -> bool:
    """True when puzz.link has the genre (so ``encode_url`` works for it)."""
    return genre in URL_NAME


def _cells(rows: int, cols: int) -> list[Cell]:
    return [Cell(i // cols, i % cols) for i in range(rows * cols)]


def _known(vals: list, what: str) -> list:
    if any(v == UNKNOWN for v in vals):
        raise InvalidDescription(
            f"puzz.link {what} contains a '?' clue", expected="known numbers only"
        )
    return vals


# -- per-genre codecs: decode(rows, cols, extra, data) -> (Instance, characters used);
#    encode(inst) -> path ------------------------------------------------------------------
def _dec_numbers(genre: str, key: str) -> Callable:
    def dec(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
        vals, used = dec_number16(data, rows * cols)
        inst = Instance(genre, rows, cols)
        inst.clues = {
            key: {
                c: v
                for c, v in zip(_cells(rows, cols), vals, strict=True)
                if v is not None and v > 0
            }
        }
        return inst, used

    return dec


def _enc_numbers(key: str) -> Callable:
    def enc(inst: Instance) -> str:
        d = inst.clues.get(key, {})
        return enc_number16([d.get(c) for c in _cells(inst.rows, inst.cols)])

    return enc


def _dec_lightup(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
    vals, used = dec_4cell(data, rows * cols)
    cells = _cells(rows, cols)
    inst = Instance("lightup", rows, cols)
    inst.data = {"wall": {c: v is not None for c, v in zip(cells, vals, strict=True)}}
    inst.clues = {
        "number": {c: v for c, v in zip(cells, vals, strict=True) if v is not None and v >= 0}
    }
    return inst, used


def _enc_lightup(inst: Instance) -> str:
    walls, num = inst.data["wall"], inst.clues.get("number", {})
    return enc_4cell(
        [num.get(c, UNKNOWN) if walls.get(c) else None for c in _cells(inst.rows, inst.cols)]
    )


def _dec_slither(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
    vals, used = dec_4cell(data, rows * cols)
    inst = Instance("slitherlink", rows, cols)
    inst.clues = {
        "number": {
            c: v
            for c, v in zip(_cells(rows, cols), vals, strict=True)
            if v is not None and 0 <= v <= 3
        }
    }
    return inst, used


def _enc_slither(inst: Instance) -> str:
    num = inst.clues.get("number", {})
    return enc_4cell([num.get(c) for c in _cells(inst.rows, inst.cols)])


def _dec_masyu(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
    vals, used = dec_circle(data, rows * cols)
    inst = Instance("masyu", rows, cols)
    inst.clues = {
        "pearl": {
            c: ("W" if v == 1 else "B") for c, v in zip(_cells(rows, cols), vals, strict=True) if v
        }
    }
    return inst, used


def _enc_masyu(inst: Instance) -> str:
    p = inst.clues.get("pearl", {})
    return enc_circle([{"W": 1, "B": 2}.get(p.get(c), 0) for c in _cells(inst.rows, inst.cols)])


def _dec_starbattle(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
    if not extra or not extra[0].isdigit():
        raise InvalidDescription(
            "puzz.link starbattle URL without a star count",
            expected="...?starbattle/cols/rows/stars/borders",
        )
    vb, hb, used = dec_border(data, rows, cols)
    inst = Instance("starbattle", rows, cols, {"stars": int(extra[0])})
    inst.data = {"region": _regions(rows, cols, vb, hb)}
    inst.clues = {}
    return inst, used


def _enc_starbattle(inst: Instance) -> str:
    reg, rows, cols = inst.data["region"], inst.rows, inst.cols
    vb = [int(reg[Cell(r, c)] != reg[Cell(r, c + 1)]) for r in range(rows) for c in range(cols - 1)]
    hb = [int(reg[Cell(r, c)] != reg[Cell(r + 1, c)]) for r in range(rows - 1) for c in range(cols)]
    return f"{inst.opts.get('stars', 1)}/{enc_border(vb, hb)}"


def _regions(rows: int, cols: int, vb: list, hb: list) -> dict:
    """Region ids (0, 1, ... in reading order of first cells) from border bits."""
    region: dict = {}
    rid = -1
    for start in _cells(rows, cols):
        if start in region:
            continue
        rid, stack = rid + 1, [start]
        region[start] = rid
        while stack:
            x = stack.pop()
            steps = []
            if x.c + 1 < cols and not vb[x.r * (cols - 1) + x.c]:
                steps.append(Cell(x.r, x.c + 1))
            if x.c > 0 and not vb[x.r * (cols - 1) + x.c - 1]:
                steps.append(Cell(x.r, x.c - 1))
            if x.r + 1 < rows and not hb[x.r * cols + x.c]:
                steps.append(Cell(x.r + 1, x.c))
            if x.r > 0 and not hb[(x.r - 1) * cols + x.c]:
                steps.append(Cell(x.r - 1, x.c))
            for y in steps:
                if y not in region:
                    region[y] = rid
                    stack.append(y)
    return region


def _sky_sides(rows: int, cols: int) -> list[tuple[str, int]]:
    """Order of pzprjs's outside cells: top (by column), bottom, left (by row), right."""
    return (
        [("N", j) for j in range(cols)]
        + [("S", j) for j in range(cols)]
        + [("W", i) for i in range(rows)]
        + [("E", i) for i in range(rows)]
    )


def _dec_skyscrapers(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
    sides = _sky_sides(rows, cols)
    outside, used = dec_number16(data, len(sides))
    inst = Instance("skyscrapers", rows, cols)
    lines = {line.name: line for line in concrete(rows, cols).sight_lines()}
    view = {
        lines[s]: v
        for s, v in zip(sides, _known(outside, "skyscrapers outside clue"), strict=True)
        if v is not None and v > 0
    }
    given = {}
    if used < len(data):
        vals, more = dec_number16(data[used:], rows * cols)
        used += more
        given = {
            c: v for c, v in zip(_cells(rows, cols), vals, strict=True) if v is not None and v > 0
        }
    inst.clues = {"given": given, "view": view}
    return inst, used


def _enc_skyscrapers(inst: Instance) -> str:
    view = {line.name: v for line, v in inst.clues.get("view", {}).items()}
    text = enc_number16([view.get(s) for s in _sky_sides(inst.rows, inst.cols)])
    given = inst.clues.get("given", {})
    if given:
        text += enc_number16([given.get(c) for c in _cells(inst.rows, inst.cols)])
    return text


def _dec_nonogram(rows: int, cols: int, extra: list, data: str) -> tuple[Instance, int]:
    kr, kc = (rows + 1) // 2, (cols + 1) // 2
    vals, used = dec_number16(data, cols * kr + rows * kc)
    _known(vals, "nonogram clue")
    g = concrete(rows, cols)
    runs = {}
    for j in range(cols):
        slots = vals[j * kr : (j + 1) * kr]  # nearest the grid first
        runs[g.col(j)] = tuple(v for v in reversed(slots) if v)
    base = cols * kr
    for i in range(rows):
        slots = vals[base + i * kc : base + (i + 1) * kc]
        runs[g.row(i)] = tuple(v for v in reversed(slots) if v)
    inst = Instance("nonogram", rows, cols)
    inst.data = {"runs": runs}
    inst.clues = {"given": {}}
    return inst, used


def _enc_nonogram(inst: Instance) -> str:
    if inst.clues.get("given"):
        raise InvalidDescription(
            f"this nonogram has {len(inst.clues['given'])} given cells; puzz.link "
            "nonogram URLs carry run clues only",
            expected="a nonogram without givens (or Janko/instance text)",
        )
    g, runs = concrete(inst.rows, inst.cols), inst.data["runs"]
    kr, kc = (inst.rows + 1) // 2, (inst.cols + 1) // 2
    vals: list = []
    for line, k in [(g.col(j), kr) for j in range(inst.cols)] + [
        (g.row(i), kc) for i in range(inst.rows)
    ]:
        seq = list(reversed(runs[line]))
        if len(seq) > k:
            raise InvalidDescription(
                f"{len(seq)} runs in a line of {len(line.items)} cells", expected=f"at most {k}"
            )
        vals += seq + [None] * (k - len(seq))
    return enc_number16(vals)


_CODECS: dict[str, tuple[Callable, Callable]] = {
    "sudoku": (_dec_numbers("sudoku", "given"), _enc_numbers("given")),
    "nurikabe": (_dec_numbers("nurikabe", "number"), _enc_numbers("number")),
    "lightup": (_dec_lightup, _enc_lightup),
    "slitherlink": (_dec_slither, _enc_slither),
    "masyu": (_dec_masyu, _enc_masyu),
    "starbattle": (_dec_starbattle, _enc_starbattle),
    "skyscrapers": (_dec_skyscrapers, _enc_skyscrapers),
    "nonogram": (_dec_nonogram, _enc_nonogram),
}


# -- URLs -------------------------------------------------------------------------------
def decode_url(url: str) -> Instance:
    """A puzz.link / pzprjs URL (``...?genre/[flags/]cols/rows/data``) -> Instance."""
    text = url.strip()
    if "?" in text:
        text = text.split("?", 1)[1]
    parts = [p for p in text.split("/") if p != ""]
    if not parts:
        raise InvalidDescription(
            f"puzz.link URL {url!r} is empty", expected="...?genre/cols/rows/data"
        )
    name = parts[0].lower()
    genre = PUZZLINK_GENRES.get(name)
    if genre is None:
        raise InvalidDescription(
            f"puzz.link genre {name!r} is not supported",
            expected="one of " + ", ".join(sorted(PUZZLINK_GENRES)),
        )
    rest = parts[1:]
    while rest and rest[0].endswith(":"):  # pzprjs display flags such as "v:"
        rest = rest[1:]
    if len(rest) >= 3 and rest[0].isalpha() and rest[1].isdigit() and rest[2].isdigit():
        raise InvalidDescription(
            f"puzz.link URL {url!r}: the flag {rest[0]!r} after '{parts[0]}/' is not supported "
            "(it changes how pzprjs reads the puzzle)",
            expected=f"...?{parts[0]}/cols/rows/data without flags (display flags such as "
            "'v:' are fine)",
        )
    if len(rest) < 2 or not rest[0].isdigit() or not rest[1].isdigit():
        raise InvalidDescription(
            f"puzz.link URL {url!r}: bad size", expected="...?genre/cols/rows/data"
        )
    cols, rows = int(rest[0]), int(rest[1])
    if not (1 <= rows <= 100 and 1 <= cols <= 100):
        raise InvalidDescription(
            f"puzz.link size {cols}x{rows}", expected="1..100 columns and rows"
        )
    extra = rest[2:]
    dec = _CODECS[genre][0]
    if genre == "starbattle":
        data, parts_used = (extra[1] if len(extra) > 1 else ""), 2
    else:
        data, parts_used = (extra[0] if extra else ""), 1
    if len(extra) > parts_used:
        raise InvalidDescription(
            f"puzz.link URL {url!r} goes on after its data: {'/'.join(extra[parts_used:])!r}",
            expected=f"...?{parts[0]}/cols/rows/"
            + ("stars/" if genre == "starbattle" else "")
            + "data",
        )
    inst, used = dec(rows, cols, extra, data)
    if used < len(data):
        raise InvalidDescription(
            f"puzz.link data for {cols}x{rows} ends at character {used} "
            f"but the URL has {len(data) - used} more: {data[used:][:20]!r}",
            expected=f"exactly the data of a {cols}x{rows} board (an overlong or mistyped URL?)",
        )
    return inst


def encode_url(inst: Instance) -> str:
    """Instance -> ``https://puzz.link/p?...`` URL (genres puzz.link has)."""
    if inst.genre not in _CODECS:
        raise InvalidDescription(
            f"puzz.link has no {inst.genre}",
            expected="Janko text (puzzleforge grid generate ... --format janko) or instance text",
        )
    return f"{BASE}{URL_NAME[inst.genre]}/{inst.cols}/{inst.rows}/{_CODECS[inst.genre][1](inst)}"
