"""The A4 page every engine's PDF sheet starts from: fpdf2, DejaVu Sans, a fixed date.

Why in core: the grid and cross-number sheets share it, and engines never import each
other (tests/core/test_import_layers.py). The fonts are the DejaVu Sans files bundled
with the zebra package (with their licence), read as package data, not imported. The
fixed creation date keeps the output byte-identical for the same puzzle.
"""

from __future__ import annotations

from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["new_pdf"]


def _font(name: str) -> str:
    return str(Path(str(resources.files("puzzleforge.zebra") / "fonts" / name)))


def new_pdf() -> Any:
    """An A4 fpdf2 document with DejaVu Sans (regular and bold) and a fixed date."""
    from fpdf import FPDF

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_creation_date(datetime(2000, 1, 1, tzinfo=timezone.utc))
    pdf.add_font("DejaVu", "", _font("DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", _font("DejaVuSans-Bold.ttf"))
    pdf.set_auto_page_break(True, margin=12)
    pdf.set_margins(14, 12, 14)
    return pdf
