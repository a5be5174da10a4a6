"""SVG of the solving grid (for the web app and documentation).

Why hand-written SVG: a few hundred rectangles and labels need no library, and the web
app can inline the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from .grid import NO, YES
from .layout import GridLayout
from .model import ZebraPuzzle

__all__ = ["grid_svg"]


def grid_svg(
    p: ZebraPuzzle, marks: Mapping | None = None, *, highlight=(), cell: float = 22.0
) -> str:
    """The grid with optional ``marks`` ({(c1,i1,c2,i2): YES/NO or 'o'/'x'})."""
    longest = max(len(x) for c in p.categories for x in c.items)
    label = 8 + longest * cell * 0.33
    lay = GridLayout(p.K, p.k, cell, label, label)
    fs = cell * 0.5
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width + 4:.0f}" '
        f'height="{lay.height + 4:.0f}" font-family="DejaVu Sans, sans-serif" '
        f'font-size="{fs:.1f}">'
    ]
    out.append('<rect width="100%" height="100%" fill="white"/>')
    for c in lay.col_cats:
        x0, _ = lay.box_origin(0, c)
        for j, name in enumerate(p.categories[c].items):
            x = x0 + j * cell + cell * 0.65
            y = lay.header_h - 4
            out.append(
                f'<text transform="translate({x:.1f},{y:.1f}) rotate(-90)">{escape(name)}</text>'
            )
    for r in lay.row_cats:
        _, y0 = lay.box_origin(r, 1)
        for i, name in enumerate(p.categories[r].items):
            out.append(
                f'<text x="{lay.label_w - 4:.1f}" y="{y0 + i * cell + cell * 0.68:.1f}" '
                f'text-anchor="end">{escape(name)}</text>'
            )
    for r, c in lay.boxes():
        x0, y0 = lay.box_origin(r, c)
        for i in range(p.k):
            for j in range(p.k):
                out.append(
                    f'<rect x="{x0 + j * cell:.1f}" y="{y0 + i * cell:.1f}" '
                    f'width="{cell}" height="{cell}" fill="none" stroke="#888" '
                    'stroke-width="0.6"/>'
                )
        out.append(
            f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{p.k * cell}" '
            f'height="{p.k * cell}" fill="none" stroke="black" stroke-width="1.6"/>'
        )
    hl = {tuple(h) for h in highlight}
    for key, mark in (marks or {}).items():
        cellkey = tuple(key)
        r, i, c, j = GridLayout.box_of(cellkey)
        x, y = lay.cell_origin(r, i, c, j)
        color = "#d62728" if cellkey in hl else "black"
        if mark in (YES, "o"):
            out.append(
                f'<circle cx="{x + cell / 2:.1f}" cy="{y + cell / 2:.1f}" '
                f'r="{cell * 0.3:.1f}" fill="{color}"/>'
            )
        elif mark in (NO, "x"):
            a, b = cell * 0.25, cell * 0.75
            out.append(
                f'<path d="M{x + a:.1f},{y + a:.1f} L{x + b:.1f},{y + b:.1f} '
                f'M{x + b:.1f},{y + a:.1f} L{x + a:.1f},{y + b:.1f}" '
                f'stroke="{color}" stroke-width="1.6"/>'
            )
    out.append("</svg>")
    return "\n".join(out)
