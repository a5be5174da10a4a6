"""Terminal and SVG pictures of a puzzle (and optionally its solution) from a Drawing.

Why one renderer over a ``Drawing`` record: genres say *what* is on the board (text,
shading, circles, loop segments, regions, outside clues); the two back ends decide how it
looks, so all twelve genres print and draw the same way.
"""

from __future__ import annotations

from html import escape

from .genre import Drawing
from .topology import Cell, Edge

__all__ = ["render_terminal", "render_svg"]


def _thick(d: Drawing, e: Edge) -> bool:
    if e in d.edges:
        return True
    if e.o == "h":
        a, b = Cell(e.r - 1, e.c), Cell(e.r, e.c)
    else:
        a, b = Cell(e.r, e.c - 1), Cell(e.r, e.c)
    inside = [0 <= x.r < d.rows and 0 <= x.c < d.cols for x in (a, b)]
    if not all(inside):
        return not d.vertex_dots  # board border (slitherlink draws only its loop)
    return bool(d.regions) and d.regions.get(a) != d.regions.get(b)


def render_terminal(d: Drawing) -> str:
    """A character picture: 4 columns per cell, borders from thick edges/regions; outside
    clues on the sides (multi-number clues stacked above columns)."""
    out = []
    left = max([len(v) for k, v in d.outside.items() if k[0] == "W"] + [0])
    pad = " " * (left + 1) if left else ""
    tops = {c: d.outside.get(("N", c), "").split() for c in range(d.cols)}
    depth = max([len(v) for v in tops.values()] + [0])
    for k in range(depth):
        row = pad
        for c in range(d.cols):
            toks = tops[c]
            i = k - (depth - len(toks))
            row += f"  {toks[i] if i >= 0 else '':<2}"
        out.append(row.rstrip())
    for r in range(d.rows + 1):
        line = pad
        for c in range(d.cols):
            line += "+" + ("---" if _thick(d, Edge("h", r, c)) else "   ")
        out.append(line + "+")
        if r == d.rows:
            break
        line = f"{d.outside.get(('W', r), ''):>{left}} " if left else ""
        for c in range(d.cols + 1):
            e = Edge("v", r, c)
            sym = "|" if _thick(d, e) else " "
            if c > 0 and Edge("v", r, c) in d.between:
                sym = d.between[e]
            line += sym
            if c == d.cols:
                break
            cell = Cell(r, c)
            txt = d.text.get(cell, "")
            if cell in d.circles:
                txt = "O" if d.circles[cell] == "white" else "@"
            if cell in d.shaded and not txt:
                txt = "###"
            line += f"{txt:^3}"
        line += f" {d.outside.get(('E', r), '')}"
        out.append(line.rstrip())
        if r + 1 < d.rows and any(Edge("h", r + 1, c) in d.between for c in range(d.cols)):
            marks = "".join(f" {d.between.get(Edge('h', r + 1, c), ' '):^3}" for c in range(d.cols))
            out.append((pad + marks).rstrip())
    if any(k[0] == "S" for k in d.outside):
        out.append(pad + "".join(f" {d.outside.get(('S', c), ''):^3}" for c in range(d.cols)))
    return "\n".join(out) + "\n"


def render_svg(d: Drawing, cell: int = 36) -> str:
    """A standalone SVG picture."""
    m = cell  # margin for outside clues
    w, h = d.cols * cell + 2 * m, d.rows * cell + 2 * m
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="sans-serif">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
    ]

    def xy(r: float, c: float) -> tuple[float, float]:
        return m + c * cell, m + r * cell

    for c in sorted(d.shaded):
        x, y = xy(c.r, c.c)
        parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#333"/>')
    grey = "#bbb" if not d.vertex_dots else "none"
    for r in range(d.rows + 1):
        for c in range(d.cols):
            e = Edge("h", r, c)
            x, y = xy(r, c)
            width, color = (3, "black") if _thick(d, e) else (1, grey)
            if e in d.edges and d.vertex_dots:
                color = "#c00"
            parts.append(
                f'<line x1="{x}" y1="{y}" x2="{x + cell}" y2="{y}" '
                f'stroke="{color}" stroke-width="{width}"/>'
            )
    for r in range(d.rows):
        for c in range(d.cols + 1):
            e = Edge("v", r, c)
            x, y = xy(r, c)
            width, color = (3, "black") if _thick(d, e) else (1, grey)
            if e in d.edges and d.vertex_dots:
                color = "#c00"
            parts.append(
                f'<line x1="{x}" y1="{y}" x2="{x}" y2="{y + cell}" '
                f'stroke="{color}" stroke-width="{width}"/>'
            )
    if d.vertex_dots:
        for r in range(d.rows + 1):
            for c in range(d.cols + 1):
                x, y = xy(r, c)
                parts.append(f'<circle cx="{x}" cy="{y}" r="2" fill="black"/>')
    for e in sorted(d.links):
        a, b = (
            (Cell(e.r - 1, e.c), Cell(e.r, e.c))
            if e.o == "h"
            else (Cell(e.r, e.c - 1), Cell(e.r, e.c))
        )
        (x1, y1), (x2, y2) = xy(a.r + 0.5, a.c + 0.5), xy(b.r + 0.5, b.c + 0.5)
        parts.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c00" stroke-width="4"/>'
        )
    for c, kind in sorted(d.circles.items()):
        x, y = xy(c.r + 0.5, c.c + 0.5)
        fill = "black" if kind == "black" else "white"
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{cell * 0.33}" fill="{fill}" '
            'stroke="black" stroke-width="2"/>'
        )
    for c, txt in sorted(d.text.items()):
        if d.links and txt in "│─└┘┌┐":
            continue  # the path is drawn as lines already
        x, y = xy(c.r + 0.5, c.c + 0.5)
        color = "white" if c in d.shaded else "black"
        parts.append(
            f'<text x="{x}" y="{y}" font-size="{cell * 0.55}" text-anchor="middle" '
            f'dominant-baseline="central" fill="{color}">{escape(txt)}</text>'
        )
    for e, sym in sorted(d.between.items()):
        if e.o == "v":
            x, y = xy(e.r + 0.5, e.c)
        else:
            x, y = xy(e.r, e.c + 0.5)
        parts.append(
            f'<text x="{x}" y="{y}" font-size="{cell * 0.45}" text-anchor="middle" '
            f'dominant-baseline="central" fill="#06c">{escape(sym)}</text>'
        )
    for (side, i), txt in sorted(d.outside.items()):
        r, c = {
            "N": (-0.5, i + 0.5),
            "S": (d.rows + 0.5, i + 0.5),
            "W": (i + 0.5, -0.5),
            "E": (i + 0.5, d.cols + 0.5),
        }[side]
        x, y = xy(r, c)
        parts.append(
            f'<text x="{x}" y="{y}" font-size="{cell * 0.5}" text-anchor="middle" '
            f'dominant-baseline="central">{escape(txt)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
