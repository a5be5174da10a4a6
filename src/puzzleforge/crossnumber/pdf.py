"""A printable PDF sheet of a cross-number: title, the grid (blocks, bars, entry numbers,
given digits), the clues Across and Down and any rules text; optionally a second page with
the filled grid.

Why here and not in the web app: the CLI (``crossnumber solve/generate --pdf``) and the
page print the same sheet. fpdf2 and the bundled DejaVu fonts, as the other sheets.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from .model import DIRECTIONS, Model

__all__ = ["sheet_bytes"]

MAX_CELL = 13.0


def _grid(
    pdf: Any, model: Model, cells: dict | None, x0: float, y0: float, max_w: float, max_h: float
) -> float:
    """Draw the grid (with ``cells`` {(r, c): text} filled in); returns the height."""
    g = model.grid
    cell = min(MAX_CELL, max_w / g.cols, max_h / g.rows)
    numbers: dict[tuple[int, int], int] = {}
    joined: set[tuple] = set()
    for e in model.entries.values():
        numbers.setdefault((e.cells[0][0], e.cells[0][1]), e.number)
        for a, b in pairwise(e.cells):
            joined.add((tuple(a), tuple(b)))
    for r in range(g.rows):
        for c in range(g.cols):
            x, y = x0 + c * cell, y0 + r * cell
            pdf.set_line_width(0.2)
            pdf.set_draw_color(150, 150, 150)
            if not g.white[r][c]:
                pdf.set_fill_color(29, 35, 48)
                pdf.rect(x, y, cell, cell, style="F")
                continue
            pdf.rect(x, y, cell, cell)
            num = numbers.get((r, c))
            if num is not None:
                pdf.set_font("DejaVu", "", max(4.0, cell * 0.9))
                pdf.set_text_color(90, 90, 90)
                pdf.text(x + 0.6, y + cell * 0.3, str(num))
            text = (cells or {}).get((r, c))
            given = g.givens.get((r, c))
            shown = str(given) if given is not None else text
            if shown is not None:
                size = cell * 1.6 if len(str(shown)) < 3 else cell * 1.2
                pdf.set_font("DejaVu", "B" if given is not None else "", size)
                pdf.set_text_color(0, 0, 0) if given is not None else pdf.set_text_color(
                    36, 86, 199
                )
                w = pdf.get_string_width(str(shown))
                pdf.text(x + (cell - w) / 2, y + cell * 0.72, str(shown))
    pdf.set_text_color(0, 0, 0)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.8)
    for r in range(g.rows):  # bars: between two white cells of no common entry
        for c in range(g.cols):
            if not g.white[r][c]:
                continue
            if c + 1 < g.cols and g.white[r][c + 1] and ((r, c), (r, c + 1)) not in joined:
                x = x0 + (c + 1) * cell
                pdf.line(x, y0 + r * cell, x, y0 + (r + 1) * cell)
            if r + 1 < g.rows and g.white[r + 1][c] and ((r, c), (r + 1, c)) not in joined:
                y = y0 + (r + 1) * cell
                pdf.line(x0 + c * cell, y, x0 + (c + 1) * cell, y)
    pdf.rect(x0, y0, g.cols * cell, g.rows * cell)
    pdf.set_fill_color(0, 0, 0)
    return g.rows * cell


def sheet_bytes(model: Model, solution: Any | None = None) -> bytes:
    """The sheet; with ``solution`` (a solver Solution) a second page with the answer."""
    from ..core.pdfdoc import new_pdf

    pdf = new_pdf()
    w = pdf.w - pdf.l_margin - pdf.r_margin
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 15)
    pdf.cell(0, 9, model.title or "Cross-number", new_x="LMARGIN", new_y="NEXT")
    if model.notes:
        pdf.set_font("DejaVu", "", 9)
        pdf.multi_cell(w, 4.5, model.notes.strip(), new_x="LMARGIN", new_y="NEXT")
    if model.variables.text:
        pdf.set_font("DejaVu", "", 9)
        pdf.multi_cell(w, 4.5, model.variables.text.strip(), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    height = _grid(pdf, model, None, pdf.l_margin, pdf.get_y(), min(w, 150.0), 120.0)
    pdf.set_y(pdf.get_y() + height + 5)
    for direction in DIRECTIONS:
        clues = [c for c in model.clues.values() if c.direction == direction]
        if not clues:
            continue
        pdf.set_font("DejaVu", "B", 11)
        pdf.cell(
            0,
            6.5,
            "Clues" if direction == "any" else direction.title(),
            new_x="LMARGIN",
            new_y="NEXT",
        )
        for clue in clues:
            pdf.set_font("DejaVu", "B", 9.5)
            pdf.write(4.8, f"{clue.name}  ")
            pdf.set_font("DejaVu", "", 9.5)
            pdf.write(4.8, clue.text or "(unclued)")
            pdf.ln(5.2)
        pdf.ln(2)
    if solution is not None:
        pdf.add_page()
        pdf.set_font("DejaVu", "B", 15)
        pdf.cell(0, 9, f"{model.title or 'Cross-number'} · solution", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
        height = _grid(
            pdf, model, dict(solution.cells), pdf.l_margin, pdf.get_y(), min(w, 150.0), 150.0
        )
        pdf.set_y(pdf.get_y() + height + 5)
        pdf.set_font("DejaVu", "", 9.5)
        values = ", ".join(f"{k} = {v}" for k, v in solution.values.items())
        pdf.multi_cell(w, 4.8, values, new_x="LMARGIN", new_y="NEXT")
        if solution.variables:
            pdf.multi_cell(
                w,
                4.8,
                ", ".join(f"{k} = {v}" for k, v in solution.variables.items()),
                new_x="LMARGIN",
                new_y="NEXT",
            )
    return bytes(pdf.output())
