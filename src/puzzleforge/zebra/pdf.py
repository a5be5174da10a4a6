"""PDF sheet (grid as in seeds/003 Figure 1, clues, stars, categories) and the
step-by-step solution PDF (one page per step, new marks highlighted, reason printed).

Why a bundled font: Polish letters must render on a fresh machine and must never be
replaced (the reference replaced them because Times-Bold lacks them); DejaVu Sans ships
inside the package with its licence (fonts/LICENSE-DejaVu.txt).
"""
from __future__ import annotations

from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

from .layout import GridLayout
from .model import ZebraPuzzle

__all__ = ["sheet_bytes", "solution_bytes", "write_sheet", "write_solution"]

_WORDS = {
    "en": {"title": "Logic-grid puzzle", "categories": "Categories", "clues": "Clues",
           "question": "Question", "step": "Step", "of": "of", "solution": "Solution",
           "unique": "unique solution certified by SAT; every clue necessary",
           "assumed": "assumed", "difficulty": "difficulty"},
    "pl": {"title": "Łamigłówka logiczna", "categories": "Kategorie", "clues": "Wskazówki",
           "question": "Pytanie", "step": "Krok", "of": "z", "solution": "Rozwiązanie",
           "unique": "jednoznaczność potwierdzona solwerem SAT; każda wskazówka potrzebna",
           "assumed": "założenie", "difficulty": "trudność"},
}


def _font_path(name: str) -> str:
    return str(Path(str(resources.files("puzzleforge.zebra") / "fonts" / name)))


def _new_pdf():
    from fpdf import FPDF
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_creation_date(datetime(2000, 1, 1, tzinfo=timezone.utc))
    pdf.add_font("DejaVu", "", _font_path("DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", _font_path("DejaVuSans-Bold.ttf"))
    pdf.set_auto_page_break(True, margin=12)
    pdf.set_margins(14, 12, 14)
    return pdf


def _stars(pdf, x: float, y: float, n: int) -> None:
    pdf.set_fill_color(230, 170, 0)
    for s in range(4):
        style = "F" if s < n else "D"
        pdf.set_draw_color(180, 130, 0)
        pdf.star(x + s * 7, y, 1.3, 3.0, 5, style=style)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_fill_color(0, 0, 0)


def _fit(pdf, text: str, width: float) -> str:
    if pdf.get_string_width(text) <= width:
        return text
    while text and pdf.get_string_width(text + "…") > width:
        text = text[:-1]
    return text + "…"


def draw_grid(pdf, p: ZebraPuzzle, x: float, y: float, max_w: float, max_h: float,
              marks: Mapping | None = None, highlight: Sequence = ()) -> float:
    """Draw the grid in the box (x, y, max_w, max_h); returns the height used."""
    n = (p.K - 1) * p.k
    probe = 7.0
    pdf.set_font("DejaVu", size=probe)
    longest = max(pdf.get_string_width(s) for c in p.categories for s in c.items)
    # label width scales with the font, which scales with the cell
    cell = 8.0
    for _ in range(30):
        fs = min(8.0, cell * 1.9)
        label = min(longest * fs / probe + 2.5, 42.0)
        if label + n * cell <= max_w and label + n * cell <= max_h:
            break
        cell *= 0.92
    fs = min(8.0, cell * 1.9)
    label = min(longest * fs / probe + 2.5, 42.0)
    lay = GridLayout(p.K, p.k, cell, label, label)
    pdf.set_font("DejaVu", size=fs)
    # category titles above the column blocks and left of the row blocks (rotated)
    for c in lay.col_cats:
        bx, _ = lay.box_origin(0, c)
        for j, name in enumerate(p.categories[c].items):
            tx = x + bx + j * cell + cell * 0.5 + fs * 0.12
            ty = y + lay.header_h - 1.2
            with pdf.rotation(90, tx, ty):
                pdf.text(tx, ty, _fit(pdf, name, label - 2))
    for r in lay.row_cats:
        _, by = lay.box_origin(r, 1)
        for i, name in enumerate(p.categories[r].items):
            t = _fit(pdf, name, label - 2)
            pdf.text(x + label - 1.2 - pdf.get_string_width(t), y + by + i * cell + cell * 0.5
                     + fs * 0.13, t)
    pdf.set_line_width(0.15)
    pdf.set_draw_color(120, 120, 120)
    for r, c in lay.boxes():
        bx, by = lay.box_origin(r, c)
        for i in range(1, p.k):
            pdf.line(x + bx, y + by + i * cell, x + bx + p.k * cell, y + by + i * cell)
            pdf.line(x + bx + i * cell, y + by, x + bx + i * cell, y + by + p.k * cell)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.5)
    for r, c in lay.boxes():
        bx, by = lay.box_origin(r, c)
        pdf.rect(x + bx, y + by, p.k * cell, p.k * cell)
    hl = {tuple(h) for h in highlight}
    for key, mark in (marks or {}).items():
        ck = tuple(key)
        r, i, c, j = GridLayout.box_of(ck)
        cx, cy = lay.cell_origin(r, i, c, j)
        cx, cy = x + cx, y + cy
        red = ck in hl
        if red:
            pdf.set_fill_color(255, 225, 225)
            pdf.rect(cx, cy, cell, cell, style="F")
        color = (214, 39, 40) if red else (0, 0, 0)
        pdf.set_draw_color(*color)
        pdf.set_fill_color(*color)
        if mark in (1, "o"):
            d = cell * 0.56
            pdf.ellipse(cx + (cell - d) / 2, cy + (cell - d) / 2, d, d, style="F")
        else:
            a, b = cell * 0.25, cell * 0.75
            pdf.set_line_width(0.35)
            pdf.line(cx + a, cy + a, cx + b, cy + b)
            pdf.line(cx + b, cy + a, cx + a, cy + b)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_fill_color(0, 0, 0)
        pdf.set_line_width(0.5)
    return lay.height


def _header(pdf, p: ZebraPuzzle, words: dict[str, str]) -> None:
    pdf.set_font("DejaVu", "B", 15)
    pdf.cell(0, 8, f"{words['title']} {p.K} × {p.k}", new_x="LMARGIN", new_y="NEXT")
    _stars(pdf, pdf.w - pdf.r_margin - 24, pdf.t_margin + 4, int(p.rating.get("stars") or 1))


def sheet_bytes(p: ZebraPuzzle) -> bytes:
    """The printable puzzle sheet."""
    from .text import categories_text, clue_text, intro_text, question_text
    words = _WORDS.get(p.lang, _WORDS["en"])
    pdf = _new_pdf()
    pdf.add_page()
    _header(pdf, p, words)
    w = pdf.w - pdf.l_margin - pdf.r_margin
    pdf.set_font("DejaVu", size=8.5)
    pdf.multi_cell(w, 4.2, intro_text(p), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 5.5, words["categories"], new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=9)
    for line in categories_text(p):
        pdf.multi_cell(w, 4.6, line, markdown=True, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 5.5, words["clues"], new_x="LMARGIN", new_y="NEXT")
    size = 9.5 if len(p.clues) < 18 else 8.5
    pdf.set_font("DejaVu", size=size)
    for clue in p.clues:
        pdf.multi_cell(w, size * 0.5, f"{clue.cid}. " + clue_text(p, clue), markdown=True,
                       new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", 9.5)
    pdf.multi_cell(w, 4.8, f"{words['question']}: " + question_text(p), markdown=True,
                   new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    avail = pdf.h - pdf.b_margin - pdf.get_y() - 8
    if avail < 90:
        pdf.add_page()
        avail = pdf.h - pdf.b_margin - pdf.get_y() - 8
    draw_grid(pdf, p, pdf.l_margin, pdf.get_y(), w, avail)
    pdf.set_font("DejaVu", size=6.5)
    pdf.set_text_color(110, 110, 110)
    score = p.rating.get("score", "?")
    pdf.text(pdf.l_margin, pdf.h - 7, f"{words['unique'] if p.certificate.get('unique') else ''}"
             f" · {words['difficulty']} {score}")
    pdf.set_text_color(0, 0, 0)
    return bytes(pdf.output())


def solution_bytes(p: ZebraPuzzle, steps: Sequence[dict[str, Any]] | None = None) -> bytes:
    """One page per explained step: reason, clue text, grid with the new marks in red."""
    from .engine import Engine
    from .text import clue_text, step_text
    words = _WORDS.get(p.lang, _WORDS["en"])
    if steps is None:
        steps = Engine(p.K, p.k, p.clues, explain=True).run(guessing=True).steps
    by_id = {c.cid: c for c in p.clues}
    pdf = _new_pdf()
    w = pdf.w - pdf.l_margin - pdf.r_margin
    marks: dict[tuple, str] = {}
    total = len(steps)
    for n, step in enumerate(steps, start=1):
        new = [tuple(m["cell"]) for m in step["marks"]]
        for m in step["marks"]:
            marks[tuple(m["cell"])] = m["mark"]
        pdf.add_page()
        pdf.set_font("DejaVu", "B", 12)
        pdf.cell(0, 7, f"{words['solution']} – {words['step']} {n} {words['of']} {total}",
                 new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", size=9)
        pdf.multi_cell(w, 4.6, step_text(p, step), new_x="LMARGIN", new_y="NEXT")
        for cid in step.get("clues", [])[:3]:
            if cid in by_id:
                pdf.set_font("DejaVu", size=9)
                pdf.multi_cell(w, 4.6, f"{cid}. " + clue_text(p, by_id[cid]), markdown=True,
                               new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
        avail = pdf.h - pdf.b_margin - pdf.get_y() - 4
        draw_grid(pdf, p, pdf.l_margin, pdf.get_y(), w, avail, marks, new)
    if not steps:
        pdf.add_page()
    return bytes(pdf.output())


def write_sheet(puzzle: Any, path: str | Path) -> None:
    """Write the PDF sheet of a ZebraPuzzle (or Puzzle / record) to ``path``."""
    from ..core.safeoutput import write_atomic
    from . import load
    write_atomic(path, sheet_bytes(load(puzzle)))


def write_solution(puzzle: Any, path: str | Path) -> None:
    from ..core.safeoutput import write_atomic
    from . import load
    write_atomic(path, solution_bytes(load(puzzle)), option="--solution")
