"""Reading and scoring a cross-number answer: a filled grid, or clue -> value pairs.

Why its own module: the family's ``verify`` and ``api.check_answer`` both score answers, and
the API sits below the family (the family builds puzzles through the API), so the scoring
both use lives beneath them.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["parse_answer", "score_answer", "score_solution_data"]


def parse_answer(answer: Any) -> tuple[str, Any]:
    """('rows', [[cell, ...], ...]) or ('values', {clue: int}) or ('none', None)."""
    if isinstance(answer, dict):
        try:
            return "values", {str(k).upper(): int(v) for k, v in answer.items()}
        except (TypeError, ValueError):
            return "none", None
    text = str(answer or "").strip()
    if not text:
        return "none", None
    if text.startswith("{"):
        try:
            data = json.loads(text)
            if isinstance(data, dict):
                return parse_answer(data)
        except ValueError:
            pass
    pairs = re.findall(r"\b([AD]\d+)\s*[:=]\s*(\d+)", text, flags=re.I)
    if pairs:
        return "values", {k.upper(): int(v) for k, v in pairs}
    rows = []
    for line in text.splitlines():
        line = line.strip().strip("|").strip()
        if not line or set(line) <= set("+-|:"):
            continue
        if re.search(r"\s", line):
            cells = [c for c in re.split(r"[\s|]+", line) if c]
        else:
            cells = list(line)
        rows.append(cells)
    return ("rows", rows) if rows else ("none", None)


def score_answer(model_or_none: Any, sol: Any, answer: Any) -> float:
    """Score against a Solution object (used by api.check_answer)."""
    data = {
        "rows": sol.rows(model_or_none, " ")
        if model_or_none.rules.cell_values is not None
        else sol.rows(model_or_none),
        "values": sol.values,
        "multi": model_or_none.rules.cell_values is not None,
    }
    return score_solution_data(data, answer)


def _rows_cells(rows: list[str], multi: bool) -> list[list[str]]:
    return [r.split() if multi else list(r) for r in rows]


def score_solution_data(data: dict[str, Any], answer: Any) -> float:
    """Score against a stored solution (``rows``, ``values``, ``multi``: the record's form)."""
    kind, got = parse_answer(answer)
    if kind == "none":
        return 0.0
    if kind == "values":
        want = data["values"]
        right = sum(1 for k, v in want.items() if got.get(k) == v)
        return right / len(want) if want else 0.0
    want_rows = _rows_cells(data["rows"], data.get("multi", False))
    cells = [(r, c) for r, row in enumerate(want_rows) for c, ch in enumerate(row) if ch != "#"]
    right = 0
    for r, c in cells:
        if r < len(got):
            row = [x for x in got[r]]
            if len(row) == len(want_rows[r]) and row[c] == want_rows[r][c]:
                right += 1
            elif len(row) != len(want_rows[r]):
                # tolerate answers that omit '#' blocks
                white = [x for x in want_rows[r] if x != "#"]
                if len(row) == len(white):
                    idx = sum(1 for x in want_rows[r][:c] if x != "#")
                    if row[idx] == want_rows[r][c]:
                        right += 1
    return right / len(cells) if cells else 0.0
