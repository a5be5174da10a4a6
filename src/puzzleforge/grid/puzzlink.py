"""puzz.link (pzprjs) URL import/export for the genres puzz.link has.

Why our own codec: the URL formats are small, stable and documented by pzprjs's
encoders (number16, 4-cell, circle and border packings); implementing them here keeps
the web app able to load any puzz.link puzzle of these genres offline. Genres puzz.link
lacks (Unruly, Binairo, Futoshiki, Skyscrapers, Kakurasu, Nonogram) exchange Janko-style
instance text instead (``Genre.format`` / ``Genre.parse``).

>>> inst = decode_url("https://puzz.link/p?sudoku/4/4/g1k23k3g")
>>> inst.genre, inst.rows, sorted(inst.clues["given"].values())
('sudoku', 4, [1, 2, 3, 3])
>>> encode_url(inst)
'https://puzz.link/p?sudoku/4/4/g1k23k3g'
"""
from __future__ import annotations

from typing import Any

from ..core.errors import InvalidDescription
from .genre import Instance, concrete
from .topology import Cell, Edge

__all__ = ["decode_url", "encode_url", "PUZZLINK_GENRES"]

#: puzz.link name -> our genre id
PUZZLINK_GENRES = {"sudoku": "sudoku", "nurikabe": "nurikabe", "lightup": "lightup", "akari": "lightup",
                   "slither": "slitherlink", "slitherlink": "slitherlink", "mashu": "masyu", "masyu": "masyu",
                   "starbattle": "starbattle"}
_OURS = {"sudoku": "sudoku", "nurikabe": "nurikabe", "lightup": "lightup", "slitherlink": "slither",
         "masyu": "mashu", "starbattle": "starbattle"}


# -- packings ---------------------------------------------------------------------------
def _dec_number16(s: str, n: int) -> list:
    out: list = [None] * n
    c, i = 0, 0
    while i < len(s) and c < n:
        ch = s[i]
        if ch in "0123456789abcdef":
            out[c] = int(ch, 16)
        elif ch == "-":
            out[c] = int(s[i + 1:i + 3], 16)
            i += 2
        elif ch == "+":
            out[c] = int(s[i + 1:i + 4], 16)
            i += 3
        elif ch == ".":
            out[c] = -2
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        else:
            raise InvalidDescription(f"puzz.link character {ch!r}", expected="number16 data")
        c += 1
        i += 1
    return out


def _enc_number16(vals: list) -> str:
    out, run = [], 0
    for v in vals + [0]:
        if v is None and run < 20:
            run += 1
            continue
        if run:
            out.append("0123456789abcdefghijklmnopqrstuvwxyz"[15 + run])
            run = 0
        if v is None:
            run = 1
            continue
        if v is vals and False:
            pass
        out.append(_num16(v))
    text = "".join(out)
    return text[:-1]  # drop the sentinel


def _num16(v: int) -> str:
    if v == -2:
        return "."
    if 0 <= v < 16:
        return f"{v:x}"
    if v < 256:
        return f"-{v:02x}"
    return f"+{v:03x}"


def _dec_4cell(s: str, n: int) -> list:
    out: list = [None] * n
    c = 0
    for ch in s:
        if c >= n:
            break
        if "0" <= ch <= "4":
            out[c] = int(ch)
        elif "5" <= ch <= "9":
            out[c] = int(ch) - 5
            c += 1
        elif "a" <= ch <= "e":
            out[c] = int(ch, 16) - 10
            c += 2
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        elif ch == ".":
            out[c] = -2
        else:
            raise InvalidDescription(f"puzz.link character {ch!r}", expected="4-cell data")
        c += 1
    return out


def _enc_4cell(vals: list) -> str:
    out, i, n = [], 0, len(vals)
    while i < n:
        v = vals[i]
        if v is None:
            run = 0
            while i < n and vals[i] is None and run < 20:
                run += 1
                i += 1
            out.append("0123456789abcdefghijklmnopqrstuvwxyz"[15 + run])
            continue
        if v == -2:
            out.append(".")
            i += 1
            continue
        gap = 0
        while gap < 2 and i + 1 + gap < n and vals[i + 1 + gap] is None:
            gap += 1
        out.append(str(v + 5 * gap) if gap < 2 else "abcde"[v])
        i += 1 + gap
    return "".join(out)


def _dec_circle(s: str, n: int) -> list:
    out: list = [None] * n
    c = 0
    for ch in s:
        v = int(ch, 27)
        for w in (9, 3, 1):
            if c < n:
                d = v // w
                v -= d * w
                if d:
                    out[c] = d
                c += 1
    return out


def _enc_circle(vals: list) -> str:
    digits = "0123456789abcdefghijklmnopq"
    out = []
    for i in range(0, len(vals), 3):
        chunk = [(vals[j] or 0) if j < len(vals) else 0 for j in range(i, i + 3)]
        out.append(digits[chunk[0] * 9 + chunk[1] * 3 + chunk[2]])
    return "".join(out)


def _dec_border(s: str, rows: int, cols: int) -> tuple[list, list]:
    nv, nh = (cols - 1) * rows, cols * (rows - 1)
    bits = []
    for ch in s:
        v = int(ch, 32)
        bits.extend((v >> (4 - k)) & 1 for k in range(5))
    p1 = (nv + 4) // 5 * 5
    return bits[:nv], bits[p1:p1 + nh]


def _enc_border(vb: list, hb: list) -> str:
    def pack(bits: list) -> str:
        out = []
        for i in range(0, len(bits), 5):
            chunk = bits[i:i + 5] + [0] * (5 - len(bits[i:i + 5]))
            out.append("0123456789abcdefghijklmnopqrstuv"[int("".join(map(str, chunk)), 2)])
        return "".join(out)

    return pack(vb) + pack(hb)


# -- URLs -------------------------------------------------------------------------------
def decode_url(url: str) -> Instance:
    """A puzz.link / pzprjs URL (``...?genre/cols/rows/data``) -> Instance."""
    text = url.strip()
    if "?" in text:
        text = text.split("?", 1)[1]
    parts = [p for p in text.split("/") if p != ""]
    if len(parts) < 3:
        raise InvalidDescription(f"puzz.link URL {url!r} is too short", expected="...?genre/cols/rows/data")
    name = parts[0].lower()
    genre = PUZZLINK_GENRES.get(name)
    if genre is None:
        raise InvalidDescription(f"puzz.link genre {name!r} is not supported",
                                 expected="one of " + ", ".join(sorted(PUZZLINK_GENRES)))
    try:
        if genre == "starbattle":
            cols, rows, stars = int(parts[1]), int(parts[2]), int(parts[3])
            data = parts[4] if len(parts) > 4 else ""
        else:
            cols, rows = int(parts[1]), int(parts[2])
            data = parts[3] if len(parts) > 3 else ""
            stars = 1
    except (ValueError, IndexError):
        raise InvalidDescription(f"puzz.link URL {url!r}: bad size", expected="cols/rows numbers") from None
    n = rows * cols
    cells = [Cell(i // cols, i % cols) for i in range(n)]
    inst = Instance(genre, rows, cols)
    if genre in ("sudoku", "nurikabe"):
        vals = _dec_number16(data, n)
        key = "given" if genre == "sudoku" else "number"
        inst.clues = {key: {c: v for c, v in zip(cells, vals) if v is not None and v > 0}}
    elif genre in ("lightup", "slitherlink"):
        vals = _dec_4cell(data, n)
        if genre == "lightup":
            inst.data = {"wall": {c: v is not None for c, v in zip(cells, vals)}}
            inst.clues = {"number": {c: v for c, v in zip(cells, vals) if v is not None and v >= 0}}
        else:
            inst.clues = {"number": {c: v for c, v in zip(cells, vals) if v is not None and 0 <= v <= 3}}
    elif genre == "masyu":
        vals = _dec_circle(data, n)
        inst.clues = {"pearl": {c: ("W" if v == 1 else "B") for c, v in zip(cells, vals) if v}}
    elif genre == "starbattle":
        vb, hb = _dec_border(data, rows, cols)
        inst.opts = {"stars": stars}
        inst.data = {"region": _regions(rows, cols, vb, hb)}
    return inst


def _regions(rows: int, cols: int, vb: list, hb: list) -> dict:
    region: dict = {}
    nxt = 0
    for start in (Cell(r, c) for r in range(rows) for c in range(cols)):
        if start in region:
            continue
        stack = [start]
        region[start] = nxt
        while stack:
            x = stack.pop()
            moves = []
            if x.c + 1 < cols and not vb[x.r * (cols - 1) + x.c]:
                moves.append(Cell(x.r, x.c + 1))
            if x.c > 0 and not vb[x.r * (cols - 1) + x.c - 1]:
                moves.append(Cell(x.r, x.c - 1))
            if x.r + 1 < rows and not hb[x.r * cols + x.c]:
                moves.append(Cell(x.r + 1, x.c))
            if x.r > 0 and not hb[(x.r - 1) * cols + x.c]:
                moves.append(Cell(x.r - 1, x.c))
            for y in moves:
                if y not in region:
                    region[y] = nxt
                    stack.append(y)
        nxt += 1
    return region


def encode_url(inst: Instance) -> str:
    """Instance -> https://puzz.link/p?... URL (genres puzz.link has)."""
    name = _OURS.get(inst.genre)
    if name is None:
        raise InvalidDescription(f"puzz.link has no {inst.genre}",
                                 expected="Janko-style instance text (puzzleforge grid solve FILE)")
    rows, cols = inst.rows, inst.cols
    cells = [Cell(i // cols, i % cols) for i in range(rows * cols)]
    if inst.genre in ("sudoku", "nurikabe"):
        d = inst.clues.get("given" if inst.genre == "sudoku" else "number", {})
        data = _enc_number16([d.get(c) for c in cells])
    elif inst.genre == "lightup":
        walls, num = inst.data["wall"], inst.clues.get("number", {})
        data = _enc_4cell([num.get(c, -2) if walls.get(c) else None for c in cells])
    elif inst.genre == "slitherlink":
        num = inst.clues.get("number", {})
        data = _enc_4cell([num.get(c) for c in cells])
    elif inst.genre == "masyu":
        p = inst.clues.get("pearl", {})
        data = _enc_circle([{"W": 1, "B": 2}.get(p.get(c), 0) for c in cells])
    else:  # starbattle
        reg = inst.data["region"]
        vb = [int(reg[Cell(r, c)] != reg[Cell(r, c + 1)]) for r in range(rows) for c in range(cols - 1)]
        hb = [int(reg[Cell(r, c)] != reg[Cell(r + 1, c)]) for r in range(rows - 1) for c in range(cols)]
        return f"https://puzz.link/p?starbattle/{cols}/{rows}/{inst.opts.get('stars', 1)}/{_enc_border(vb, hb)}"
    return f"https://puzz.link/p?{name}/{cols}/{rows}/{data}"
