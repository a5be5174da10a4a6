"""A printable PDF sheet of a grid puzzle: title, rules, the board; optionally a second
page with the solved board.

Why fpdf2 over the SVG: a sheet is A4 with its rules text and fonts that carry every
symbol the genres draw (★ ●, arrows, box-drawing); the board is drawn from the same
``Drawing`` record as the terminal and SVG pictures, so all genres print alike. The page
(A4, the bundled DejaVu Sans fonts, a fixed creation date so the bytes are identical for
the same puzzle) comes from core/pdfdoc.py, which the cross-number sheet shares.
"""

from __future__ import annotations

from typing import Any

from ..core.pdfdoc import new_pdf
from .genre import Drawing, Instance
from .render import _thick
from .topology import Cell, Edge

__all__ = ["sheet_bytes", "new_pdf", "draw_board"]

#: Largest board drawing on a page (mm) and the largest cell (mm).
MAX_W, MAX_H, MAX_CELL = 182.0, 200.0, 14.0


def _centred(pdf: Any, x: float, y: float, text: str, size: float, bold: bool = False) -> None:
    pdf.set_font("DejaVu", "B" if bold else "", size)
    w = pdf.get_string_width(text)
    pdf.text(x - w / 2, y + size * 0.352 * 0.36, text)  # pt -> mm; baseline below centre


def draw_board(pdf: Any, d: Drawing, x0: float, y0: float, max_w: float, max_h: float) -> float:
    """Draw ``d`` with its top-left outside margin at (x0, y0); returns the height used."""
    # outside clues: a column's numbers stack upwards (N) or downwards (S), a row's run
    # left (W) or right (E); each side gets the room its longest clue needs (in cells)
    tokens = {(side, i): txt.split() for (side, i), txt in d.outside.items()}
    room = {side: 0.3 for side in "NSWE"}
    for (side, _), toks in tokens.items():
        need = 0.6 * len(toks) + 0.4 if side in "NS" else 0.32 * len(" ".join(toks)) + 0.5
        room[side] = max(room[side], need, 1.0)
    cell = min(
        MAX_CELL, max_w / (d.cols + room["W"] + room["E"]), max_h / (d.rows + room["N"] + room["S"])
    )
    mx, my = room["W"] * cell, room["N"] * cell

    def xy(r: float, c: float) -> tuple[float, float]:
        return x0 + mx + c * cell, y0 + my + r * cell

    pdf.set_fill_color(51, 51, 51)
    for c in sorted(d.shaded):
        x, y = xy(c.r, c.c)
        pdf.rect(x, y, cell, cell, style="F")
    for e in [Edge("h", r, c) for r in range(d.rows + 1) for c in range(d.cols)] + [
        Edge("v", r, c) for r in range(d.rows) for c in range(d.cols + 1)
    ]:
        thick = _thick(d, e)
        if d.vertex_dots and not thick:
            continue  # slitherlink: dots only, the loop in red
        (x1, y1) = xy(e.r, e.c)
        (x2, y2) = (x1 + cell, y1) if e.o == "h" else (x1, y1 + cell)
        if e in d.edges and d.vertex_dots:
            pdf.set_draw_color(200, 0, 0)
        elif thick:
            pdf.set_draw_color(0, 0, 0)
        else:
            pdf.set_draw_color(170, 170, 170)
        pdf.set_line_width(0.7 if thick else 0.2)
        pdf.line(x1, y1, x2, y2)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_fill_color(0, 0, 0)
    if d.vertex_dots:
        for r in range(d.rows + 1):
            for c in range(d.cols + 1):
                x, y = xy(r, c)
                pdf.ellipse(x - 0.7, y - 0.7, 1.4, 1.4, style="F")
    pdf.set_draw_color(200, 0, 0)
    pdf.set_line_width(1.0)
    for e in sorted(d.links):
        a, b = (
            (Cell(e.r - 1, e.c), Cell(e.r, e.c))
            if e.o == "h"
            else (Cell(e.r, e.c - 1), Cell(e.r, e.c))
        )
        (x1, y1), (x2, y2) = xy(a.r + 0.5, a.c + 0.5), xy(b.r + 0.5, b.c + 0.5)
        pdf.line(x1, y1, x2, y2)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.5)
    for c, kind in sorted(d.circles.items()):
        x, y = xy(c.r + 0.5, c.c + 0.5)
        rad = cell * 0.33
        pdf.set_fill_color(*((0, 0, 0) if kind == "black" else (255, 255, 255)))
        pdf.ellipse(x - rad, y - rad, 2 * rad, 2 * rad, style="DF")
    size_pt = cell * 0.55 / 0.352
    for c, txt in sorted(d.text.items()):
        if d.links and txt in "│─└┘┌┐":
            continue  # the path is drawn as lines already
        x, y = xy(c.r + 0.5, c.c + 0.5)
        pdf.set_text_color(*((255, 255, 255) if c in d.shaded else (0, 0, 0)))
        _centred(pdf, x, y, txt, size_pt if len(txt) < 3 else size_pt * 0.7)
    pdf.set_text_color(0, 102, 204)
    for e, sym in sorted(d.between.items()):
        x, y = xy(e.r + 0.5, e.c) if e.o == "v" else xy(e.r, e.c + 0.5)
        _centred(pdf, x, y, sym, size_pt * 0.8, bold=True)
    pdf.set_text_color(0, 0, 0)
    small = size_pt * 0.8
    for (side, i), toks in sorted(tokens.items()):
        if side in "NS":
            step = 0.6
            for j, tok in enumerate(toks):
                row_at = (
                    (-0.5 - step * (len(toks) - 1 - j)) if side == "N" else d.rows + 0.5 + step * j
                )
                _centred(pdf, *xy(row_at, i + 0.5), tok, small)
        else:
            text = " ".join(toks)
            pdf.set_font("DejaVu", "", small)
            width = pdf.get_string_width(text)
            x, y = xy(i + 0.5, 0 if side == "W" else d.cols)
            x = x - width - cell * 0.25 if side == "W" else x + cell * 0.25
            pdf.text(x, y + small * 0.352 * 0.36, text)
    pdf.set_fill_color(0, 0, 0)
    return (d.rows + room["N"] + room["S"]) * cell


def _page(pdf: Any, title: str, lines: list[str], d: Drawing) -> None:
    pdf.add_page()
    w = pdf.w - pdf.l_margin - pdf.r_margin
    pdf.set_font("DejaVu", "B", 15)
    pdf.cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 10)
    for line in lines:
        pdf.multi_cell(w, 5, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    avail = pdf.h - pdf.b_margin - pdf.get_y() - 2
    draw_board(pdf, d, pdf.l_margin, pdf.get_y(), min(w, MAX_W), min(avail, MAX_H))


def sheet_bytes(
    inst: Instance,
    sol: dict | None = None,
    *,
    seed: int | None = None,
    difficulty: float | None = None,
) -> bytes:
    """The puzzle sheet (and, with ``sol``, a second page with the solved board)."""
    from .genres import get_genre
    from .rules_text import filled_rules

    g = get_genre(inst.genre)
    facts = [f"{inst.rows}x{inst.cols}"]
    if seed is not None:
        facts.append(f"seed {seed}")
    if difficulty is not None:
        facts.append(f"difficulty {difficulty:.1f}")
    pdf = new_pdf()
    _page(pdf, f"{g.title} · " + " · ".join(facts), [filled_rules(g, inst)], g.drawing(inst, None))
    if sol is not None:
        _page(pdf, f"{g.title} · solution", [], g.drawing(inst, sol))
    return bytes(pdf.output())
