"""PDF sheet (grid as in seeds/003 Figure 1, clues, stars, categories) and the
step-by-step solution PDF: the answer first (table and solved grid), then the steps
grouped several to a page, each page ending with one grid whose new marks (those of the
page's steps) are highlighted, so the grid is drawn only once per group of changes.

Why a bundled font: Polish letters must render on a fresh machine and must never be
replaced (the reference replaced them because Times-Bold lacks them); DejaVu Sans ships
inside the package with its licence (fonts/LICENSE-DejaVu.txt).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.pdfdoc import new_pdf
from .layout import GridLayout
from .model import ZebraPuzzle

__all__ = ["sheet_bytes", "solution_bytes", "write_sheet", "write_solution"]

_WORDS = {
    "en": {
        "title": "Logic-grid puzzle",
        "categories": "Categories",
        "clues": "Clues",
        "question": "Question",
        "step": "Step",
        "of": "of",
        "solution": "Solution",
        "unique": "unique solution certified by SAT; every clue necessary",
        "assumed": "assumed",
        "difficulty": "difficulty",
        "answer": "Answer",
        "steps": "Steps",
        "grid_after": "The grid after step",
    },
    "pl": {
        "title": "Łamigłówka logiczna",
        "categories": "Kategorie",
        "clues": "Wskazówki",
        "question": "Pytanie",
        "step": "Krok",
        "of": "z",
        "solution": "Rozwiązanie",
        "unique": "jednoznaczność potwierdzona solwerem SAT; każda wskazówka potrzebna",
        "assumed": "założenie",
        "difficulty": "trudność",
        "answer": "Odpowiedź",
        "steps": "Kroki",
        "grid_after": "Siatka po kroku",
    },
}


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


def draw_grid(
    pdf,
    p: ZebraPuzzle,
    x: float,
    y: float,
    max_w: float,
    max_h: float,
    marks: Mapping | None = None,
    highlight: Sequence = (),
) -> float:
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
            pdf.text(
                x + label - 1.2 - pdf.get_string_width(t),
                y + by + i * cell + cell * 0.5 + fs * 0.13,
                t,
            )
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
    pdf = new_pdf()
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
        pdf.multi_cell(
            w,
            size * 0.5,
            f"{clue.cid}. " + clue_text(p, clue),
            markdown=True,
            new_x="LMARGIN",
            new_y="NEXT",
        )
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", 9.5)
    pdf.multi_cell(
        w,
        4.8,
        f"{words['question']}: " + question_text(p),
        markdown=True,
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(3)
    avail = pdf.h - pdf.b_margin - pdf.get_y() - 8
    if avail < 90:
        pdf.add_page()
        avail = pdf.h - pdf.b_margin - pdf.get_y() - 8
    draw_grid(pdf, p, pdf.l_margin, pdf.get_y(), w, avail)
    pdf.set_font("DejaVu", size=6.5)
    pdf.set_text_color(110, 110, 110)
    score = p.rating.get("score", "?")
    pdf.text(
        pdf.l_margin,
        pdf.h - 7,
        f"{words['unique'] if p.certificate.get('unique') else ''} · {words['difficulty']} {score}",
    )
    pdf.set_text_color(0, 0, 0)
    return bytes(pdf.output())


#: Height kept for the grid under each page of steps (mm); the steps fill the rest.
STEP_GRID_H = 105.0


def _step_block(
    p: ZebraPuzzle, step: dict[str, Any], n: int, by_id: dict, words: dict[str, str]
) -> tuple[str, str, list[str]]:
    """One step as (bold head "Step n.", its reason, the texts of the clues it used)."""
    from .text import clue_text, step_text

    clues = [
        f"{cid}. " + clue_text(p, by_id[cid]) for cid in step.get("clues", [])[:3] if cid in by_id
    ]
    return f"{words['step']} {n}. ", step_text(p, step), clues


_STEP_FONT, _STEP_LINE, _STEP_GAP, _CLUE_INDENT = 8.5, 4.1, 1.6, 5.0


def _block_height(pdf, block: tuple[str, str, list[str]], w: float) -> float:
    head, text, clues = block
    pdf.set_font("DejaVu", "", _STEP_FONT)
    lines = len(pdf.multi_cell(w, _STEP_LINE, head + text, dry_run=True, output="LINES"))
    for clue in clues:
        lines += len(
            pdf.multi_cell(
                w - _CLUE_INDENT,
                _STEP_LINE,
                clue,
                markdown=True,
                align="L",
                dry_run=True,
                output="LINES",
            )
        )
    return lines * _STEP_LINE + _STEP_GAP


def _draw_block(pdf, block: tuple[str, str, list[str]], w: float) -> None:
    head, text, clues = block
    pdf.set_font("DejaVu", "B", _STEP_FONT)
    pdf.write(_STEP_LINE, head)
    pdf.set_font("DejaVu", "", _STEP_FONT)
    pdf.write(_STEP_LINE, text)
    pdf.ln(_STEP_LINE)
    for clue in clues:
        pdf.set_x(pdf.l_margin + _CLUE_INDENT)
        pdf.multi_cell(
            w - _CLUE_INDENT,
            _STEP_LINE,
            clue,
            markdown=True,
            align="L",
            new_x="LMARGIN",
            new_y="NEXT",
        )
    pdf.ln(_STEP_GAP)


def plan_step_pages(heights: Sequence[float], room: float) -> list[list[int]]:
    """Group steps (their text heights, in order) into pages holding at most ``room`` mm
    of text each; a step taller than a page gets a page of its own."""
    pages: list[list[int]] = []
    used = 0.0
    for i, h in enumerate(heights):
        if not pages or (pages[-1] and used + h > room):
            pages.append([])
            used = 0.0
        pages[-1].append(i)
        used += h
    return pages


def solution_bytes(p: ZebraPuzzle, steps: Sequence[dict[str, Any]] | None = None) -> bytes:
    """The answer (table and solved grid) on page 1, then the explained steps a page at a
    time, each page closing with the grid so far (the page's new marks in red)."""
    from .engine import Engine

    words = _WORDS.get(p.lang, _WORDS["en"])
    if steps is None:
        from .readable import readable_steps

        steps = readable_steps(Engine(p.K, p.k, p.clues, explain=True).run(guessing=True).steps)
    by_id = {c.cid: c for c in p.clues}
    pdf = new_pdf()
    w = pdf.w - pdf.l_margin - pdf.r_margin
    final: dict[tuple, str] = {}
    for step in steps:
        for m in step["marks"]:
            final[tuple(m["cell"])] = m["mark"]
    # page 1: the answer
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 13)
    pdf.cell(
        0, 8, f"{words['solution']} – {words['title']} {p.K} × {p.k}", new_x="LMARGIN", new_y="NEXT"
    )
    pdf.set_font("DejaVu", "B", 10)
    pdf.cell(0, 6, words["answer"], new_x="LMARGIN", new_y="NEXT")
    header, rows = p.header(), p.rows()
    col_w = w / max(1, len(header))
    pdf.set_font("DejaVu", "B", 8.5)
    for title in header:
        pdf.cell(col_w, 5.5, _fit(pdf, title, col_w - 1.5), border=1)
    pdf.ln(5.5)
    pdf.set_font("DejaVu", size=8.5)
    for row in rows:
        for name in row:
            pdf.cell(col_w, 5.2, _fit(pdf, name, col_w - 1.5), border=1)
        pdf.ln(5.2)
    pdf.ln(4)
    avail = pdf.h - pdf.b_margin - pdf.get_y() - 4
    draw_grid(pdf, p, pdf.l_margin, pdf.get_y(), w, avail, final)
    # the steps, grouped
    blocks = [_step_block(p, step, n, by_id, words) for n, step in enumerate(steps, start=1)]
    room = pdf.h - pdf.t_margin - pdf.b_margin - 8 - STEP_GRID_H - 4
    heights = [_block_height(pdf, b, w) for b in blocks]
    marks: dict[tuple, str] = {}
    total = len(steps)
    for page in plan_step_pages(heights, room):
        pdf.add_page()
        pdf.set_font("DejaVu", "B", 11)
        first, last = page[0] + 1, page[-1] + 1
        span = f"{first}–{last}" if last > first else f"{first}"
        pdf.cell(
            0,
            7,
            f"{words['solution']} – {words['steps']} {span} {words['of']} {total}",
            new_x="LMARGIN",
            new_y="NEXT",
        )
        new: list[tuple] = []
        for i in page:
            _draw_block(pdf, blocks[i], w)
            for m in steps[i]["marks"]:
                marks[tuple(m["cell"])] = m["mark"]
                new.append(tuple(m["cell"]))
        pdf.set_font("DejaVu", size=7.5)
        pdf.set_text_color(110, 110, 110)
        pdf.cell(0, 4.5, f"{words['grid_after']} {last}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_text_color(0, 0, 0)
        top = max(pdf.get_y() + 1, pdf.h - pdf.b_margin - STEP_GRID_H)
        draw_grid(pdf, p, pdf.l_margin, top, w, pdf.h - pdf.b_margin - top, marks, new)
    return bytes(pdf.output())


def write_sheet(puzzle: Any, path: str | Path) -> None:
    """Write the PDF sheet of a ZebraPuzzle (or Puzzle / record) to ``path``."""
    from ..core.safeoutput import write_atomic

    write_atomic(path, sheet_bytes(_zebra(puzzle)))


def write_solution(puzzle: Any, path: str | Path) -> None:
    from ..core.safeoutput import write_atomic

    write_atomic(path, solution_bytes(_zebra(puzzle)), option="--solution")


def _zebra(puzzle: Any) -> ZebraPuzzle:
    """The ZebraPuzzle itself, or the one inside a Puzzle or record."""
    if isinstance(puzzle, ZebraPuzzle):
        return puzzle
    from .family import zebra_of

    return zebra_of(puzzle)
