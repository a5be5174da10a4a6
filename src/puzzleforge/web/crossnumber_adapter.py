"""Adapter between the cross-number page and ``puzzleforge.crossnumber.api``.

Why here: the page needs the grid as cells with bars, blocks and entry numbers (to draw
an HTML grid), the solutions keyed ``"r,c"`` and the step log as plain JSON; the engine
returns a Model and a SolveResult. Example puzzles are offered by name from the
package's bundled folder and, in a source checkout, ``examples/crossnumber``; a name
from the browser is looked up in that listing, never joined to a path.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSpec

__all__ = ["available", "example_files", "example_text", "solve_text"]

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "crossnumber"
MAX_CELLS = 400


def available() -> bool:
    try:
        importlib.import_module("puzzleforge.crossnumber.api")
    except ImportError:
        return False
    return True


def _api() -> Any:
    return importlib.import_module("puzzleforge.crossnumber.api")


def example_files() -> dict[str, Path]:
    """Listed example name -> file (bundled puzzles first, then the checkout's examples)."""
    found: dict[str, Path] = {}
    folders = [_api().bundled_dir(), EXAMPLES]
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(list(folder.glob("*.yaml")) + list(folder.glob("*.yml"))):
            found.setdefault(path.stem, path)
    return found


def example_text(name: str, limit: int) -> str:
    files = example_files()
    if name not in files:
        raise InvalidSpec(f"'{name[:60]}' is not one of the listed example puzzles",
                          field="name", expected=", ".join(files) or "a pasted puzzle file")
    path = files[name]
    if path.stat().st_size > limit:
        raise InvalidSpec(f"the example is larger than {limit} bytes", field="name")
    return path.read_text(encoding="utf-8")


def _grid(model: Any) -> dict[str, Any]:
    g = model.grid
    joined_h, joined_v, numbers = set(), set(), {}
    for e in model.entries.values():
        numbers.setdefault(e.cells[0], e.number)
        for a, b in zip(e.cells, e.cells[1:]):
            (joined_h if e.direction == "across" else joined_v).add((tuple(a), tuple(b)))
    cells = []
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            row.append({
                "white": bool(g.white[r][c]),
                "number": numbers.get((r, c)),
                "given": g.givens.get((r, c)),
                "bar_right": c + 1 < g.cols and ((r, c), (r, c + 1)) not in joined_h,
                "bar_below": r + 1 < g.rows and ((r, c), (r + 1, c)) not in joined_v,
            })
        cells.append(row)
    return {"rows": g.rows, "cols": g.cols, "cells": cells, "style": g.style}


def solve_text(text: str, *, name: str, time_limit: float, progress: Any) -> dict[str, Any]:
    """Parse and solve a puzzle file's text; errors are InvalidSpec with the line."""
    api = _api()
    progress(0.05, "reading the puzzle file")
    model = api.parse_puzzle(text, file=name)
    if model.grid.rows * model.grid.cols > MAX_CELLS:
        raise InvalidSpec(f"the grid has {model.grid.rows * model.grid.cols} cells; this page "
                          f"solves up to {MAX_CELLS}", field="grid")
    progress(0.2, "propagating clues and searching")
    result = api.solve_puzzle(model, limit=5, time_limit=time_limit)
    data = api.solution_json(model, result)
    solutions = [{f"{r},{c}": v for (r, c), v in s.cells.items()} for s in result.solutions]
    clues = [{"name": c.name, "direction": c.direction, "text": c.text or "(unclued)",
              "line": c.line} for c in model.clues.values()]
    return {"title": model.title, "question": api.render_question(model), "grid": _grid(model),
            "count": result.count, "complete": result.complete, "unique": result.unique,
            "seconds": round(result.seconds, 3), "solutions": solutions,
            "values": data["solutions"][0]["values"] if data["solutions"] else {},
            "variables": data["solutions"][0]["variables"] if data["solutions"] else {},
            "answer": api.answer_text(model, result.solutions[0]) if result.solutions else "",
            "steps": data["steps"], "dropped_steps": result.steps.dropped, "clues": clues,
            "notes": model.notes}


def explain_record(record: dict[str, Any]) -> list[str]:
    """The solver's step log for a crossnumber dataset record.

    The puzzle comes from ``meta.puzzle_file`` (text) or ``meta.source`` (a path). A path
    written in a dataset is only followed when it is one of the listed puzzle files (the
    bundled or example puzzles), so a crafted record cannot make the server read files.
    """
    meta = record.get("meta") if isinstance(record.get("meta"), dict) else {}
    text = meta.get("puzzle_file")
    if not isinstance(text, str):
        source = meta.get("source")
        listed = {p.resolve(): p for p in example_files().values()}
        path = Path(str(source)).resolve() if isinstance(source, str) and source else None
        if path is None or path not in listed:
            raise InvalidSpec("this record's puzzle file is not one of the server's listed "
                              "puzzles, so it is not read", field="meta.source")
        text = listed[path].read_text(encoding="utf-8")
    result = solve_text(text, name=str(meta.get("title") or "puzzle"), time_limit=30.0,
                        progress=lambda *_: None)
    return [step["text"] for step in result["steps"]]
