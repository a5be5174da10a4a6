"""The character packings puzz.link (pzprjs) URLs are made of.

Why a module of its own: every genre codec is "size + one or two of these packings", so
the packings are written (and tested) once. Each decoder returns the values it read and
how many characters it consumed, because some genres chain two packings without a
separator (Skyscrapers: outside clues, then given cells).

Conventions (read from pzprjs's encoders, rewritten here):

* number16: ``0-f`` one hex digit, ``-xx`` two, ``+xxx`` three, ``.`` an unknown ("?")
  value (-2), ``g``..``z`` skip 1..20 empty cells.
* 4-cell: ``0-4`` a value, ``5-9`` value+5 followed by one empty cell, ``a-e`` value+10
  followed by two empty cells, ``.`` an unknown value, ``g``..``z`` skip 1..20.
* circle: base-27 digits packing three cells of 0/1/2 (none, white, black).
* border: base-32 digits packing 5 bits each; first the vertical borders (between
  column c and c+1, row by row), then the horizontal ones, each part padded to 5 bits.
"""

from __future__ import annotations

from ...core.errors import InvalidDescription

__all__ = [
    "dec_number16",
    "enc_number16",
    "dec_4cell",
    "enc_4cell",
    "dec_circle",
    "enc_circle",
    "dec_border",
    "enc_border",
    "UNKNOWN",
]

#: the value pzprjs stores for a "?" clue
UNKNOWN = -2
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_B32 = _B36[:32]


def _complete(covered: int, n: int, what: str) -> None:
    """A body that ends before its last cell is a truncated URL, not a puzzle with blanks
    (pzprjs's encoders always write trailing empty cells as skips)."""
    if covered < n:
        raise InvalidDescription(
            f"puzz.link {what} ends after {covered} of {n} cells (a truncated URL?)",
            expected=f"data for all {n} cells",
        )


def _skip_char(run: int) -> str:
    """Character for ``run`` (1..20) empty cells."""
    return _B36[15 + run]


def dec_number16(s: str, n: int, *, what: str = "number16 data") -> tuple[list, int]:
    """Read ``n`` cells of number16 data; (values with None for empty, characters used)."""
    out: list = [None] * n
    c, i = 0, 0
    while i < len(s) and c < n:
        ch = s[i]
        try:
            if ch in "0123456789abcdef":
                out[c] = int(ch, 16)
            elif ch == "-":
                if len(s[i + 1 : i + 3]) != 2:
                    raise ValueError(ch)
                out[c] = int(s[i + 1 : i + 3], 16)
                i += 2
            elif ch == "+":
                if len(s[i + 1 : i + 4]) != 3:
                    raise ValueError(ch)
                out[c] = int(s[i + 1 : i + 4], 16)
                i += 3
            elif ch == ".":
                out[c] = UNKNOWN
            elif "g" <= ch <= "z":
                c += int(ch, 36) - 16
            else:
                raise ValueError(ch)
        except ValueError:
            raise InvalidDescription(
                f"puzz.link character {ch!r} at position {i}", expected=what
            ) from None
        c += 1
        i += 1
    _complete(c, n, what)
    return out, i


def _num16(v: int) -> str:
    if v == UNKNOWN:
        return "."
    if 0 <= v < 16:
        return f"{v:x}"
    if 16 <= v < 256:
        return f"-{v:02x}"
    if 256 <= v < 4096:
        return f"+{v:03x}"
    raise InvalidDescription(
        f"value {v} does not fit puzz.link's number16 packing", expected="0..4095"
    )


def enc_number16(vals: list) -> str:
    """Values (None = empty) -> number16 text; trailing empties are written as skips."""
    out, run = [], 0
    for v in vals:
        if v is None:
            run += 1
            if run == 20:
                out.append(_skip_char(run))
                run = 0
            continue
        if run:
            out.append(_skip_char(run))
            run = 0
        out.append(_num16(v))
    if run:
        out.append(_skip_char(run))
    return "".join(out)


def dec_4cell(s: str, n: int) -> tuple[list, int]:
    """Read ``n`` cells of 4-cell data (values 0..4, UNKNOWN, None)."""
    out: list = [None] * n
    c, i = 0, 0
    while i < len(s) and c < n:
        ch = s[i]
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
            out[c] = UNKNOWN
        else:
            raise InvalidDescription(
                f"puzz.link character {ch!r} at position {i}", expected="4-cell data"
            )
        c += 1
        i += 1
    _complete(c, n, "4-cell data")
    return out, i


def enc_4cell(vals: list) -> str:
    """Values 0..4 / UNKNOWN / None -> 4-cell text."""
    out, i, n = [], 0, len(vals)
    while i < n:
        v = vals[i]
        if v is None:
            run = 0
            while i < n and vals[i] is None and run < 20:
                run += 1
                i += 1
            out.append(_skip_char(run))
            continue
        if v == UNKNOWN:
            out.append(".")
            i += 1
            continue
        if not 0 <= v <= 4:
            raise InvalidDescription(
                f"value {v} does not fit puzz.link's 4-cell packing", expected="0..4"
            )
        gap = 0
        while gap < 2 and i + 1 + gap < n and vals[i + 1 + gap] is None:
            gap += 1
        out.append(str(v + 5 * gap) if gap < 2 else "abcde"[v])
        i += 1 + gap
    return "".join(out)


def dec_circle(s: str, n: int) -> tuple[list, int]:
    """Read ``n`` cells of circle data (0 none, 1 white, 2 black)."""
    out: list = [0] * n
    c, i = 0, 0
    while i < len(s) and c < n:
        try:
            v = int(s[i], 27)
        except ValueError:
            raise InvalidDescription(
                f"puzz.link character {s[i]!r} at position {i}", expected="circle data (0-9, a-q)"
            ) from None
        for w in (9, 3, 1):
            if c < n:
                out[c] = v // w
                v %= w
                c += 1
        i += 1
    _complete(c, n, "circle data")
    return out, i


def enc_circle(vals: list) -> str:
    out = []
    for i in range(0, len(vals), 3):
        chunk = [(vals[j] or 0) if j < len(vals) else 0 for j in range(i, i + 3)]
        out.append(_B36[chunk[0] * 9 + chunk[1] * 3 + chunk[2]])
    return "".join(out)


def dec_border(s: str, rows: int, cols: int) -> tuple[list, list, int]:
    """(vertical borders, horizontal borders, characters used) as 0/1 lists."""
    nv, nh = (cols - 1) * rows, cols * (rows - 1)
    cv, ch = (nv + 4) // 5, (nh + 4) // 5
    if len(s) < cv + ch:
        raise InvalidDescription(
            f"puzz.link border data has {len(s)} of {cv + ch} characters (a truncated URL?)",
            expected=f"{cv + ch} characters",
        )
    bits: list[int] = []
    for k, char in enumerate(s[: cv + ch]):
        try:
            v = int(char, 32)
        except ValueError:
            raise InvalidDescription(
                f"puzz.link character {char!r} at position {k}", expected="border data (0-9, a-v)"
            ) from None
        bits.extend((v >> (4 - b)) & 1 for b in range(5))
    bits += [0] * ((cv + ch) * 5 - len(bits))
    return bits[:nv], bits[cv * 5 : cv * 5 + nh], min(len(s), cv + ch)


def enc_border(vb: list, hb: list) -> str:
    def pack(bits: list) -> str:
        out = []
        for i in range(0, len(bits), 5):
            chunk = list(bits[i : i + 5]) + [0] * (5 - len(bits[i : i + 5]))
            out.append(_B32[int("".join(str(int(b)) for b in chunk), 2)])
        return "".join(out)

    return pack(vb) + pack(hb)
