"""A genre's rules text with its letters filled in for one board.

Why: rules are written once per genre ("Fill digits 1..n ... every bh x bw box ...",
"exactly k stars"); a person playing or printing a 6x6 Sudoku should read "1..6" and
"2 x 3 box". The numbers come from the genre's own parameter binding (``bind``).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["filled_rules", "fill"]


def filled_rules(genre: Any, inst: Any) -> str:
    """``genre.describe_rules()`` for the board of ``inst``."""
    return fill(genre.describe_rules(), genre, inst)


def fill(text: str, genre: Any, inst: Any) -> str:
    """Replace 1..n, bh x bw and k stars in ``text`` by the values bound for ``inst``."""
    try:
        bound = genre.bind(inst)
    except Exception:  # noqa: BLE001 - an unbindable board keeps the generic wording
        return text
    n = bound.get("n", max(inst.rows, inst.cols))
    text = re.sub(r"\b1\.\.n\b", f"1..{n}", text)
    if "bh" in bound and "bw" in bound:
        text = text.replace("bh x bw", f"{bound['bh']} x {bound['bw']}")
    if "k" in bound:
        k = int(bound["k"])
        text = re.sub(r"\bk stars\b", f"{k} star" + ("s" if k != 1 else ""), text)
    return text
