"""Adapter between the cross-number page and ``puzzleforge.crossnumber.api``.

Why here: the page needs the grid as cells with bars, blocks and entry numbers (to draw
an HTML grid), the solutions keyed ``"r,c"`` and the step log as plain JSON; the engine
returns a Model and a SolveResult. Example puzzles are offered by name from the
package's bundled folder and, in a source checkout, ``examples/crossnumber``; a name
from the browser is looked up in that listing, never joined to a path.
"""

from __future__ import annotations

import importlib
from itertools import pairwise
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSpec
from ..core.limits import LimitExceeded

__all__ = [
    "available",
    "example_files",
    "example_text",
    "solve_text",
    "CrossnumberSession",
    "play_session",
    "generate_session",
    "GENERATE_SIZES",
]

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "crossnumber"
MAX_CELLS = 400


def pdf_available() -> bool:
    try:
        importlib.import_module("fpdf")
    except ImportError:
        return False
    return True


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
        raise InvalidSpec(
            f"'{name[:60]}' is not one of the listed example puzzles",
            field="name",
            expected=", ".join(files) or "a pasted puzzle file",
        )
    path = files[name]
    if path.stat().st_size > limit:
        raise InvalidSpec(f"the example is larger than {limit} bytes", field="name")
    return path.read_text(encoding="utf-8")


def _grid(model: Any) -> dict[str, Any]:
    g = model.grid
    joined_h: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    joined_v: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    numbers: dict[tuple[int, int], int] = {}
    for e in model.entries.values():
        numbers.setdefault(e.cells[0], e.number)
        for a, b in pairwise(e.cells):
            (joined_h if e.direction == "across" else joined_v).add((tuple(a), tuple(b)))
    cells = []
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            row.append(
                {
                    "white": bool(g.white[r][c]),
                    "number": numbers.get((r, c)),
                    "given": g.givens.get((r, c)),
                    "bar_right": c + 1 < g.cols and ((r, c), (r, c + 1)) not in joined_h,
                    "bar_below": r + 1 < g.rows and ((r, c), (r + 1, c)) not in joined_v,
                }
            )
        cells.append(row)
    return {"rows": g.rows, "cols": g.cols, "cells": cells, "style": g.style}


def solve_text(text: str, *, name: str, time_limit: float, progress: Any) -> dict[str, Any]:
    """Parse and solve a puzzle file's text; errors are InvalidSpec with the line."""
    api = _api()
    progress(0.05, "reading the puzzle file")
    model = api.parse_puzzle(text, file=name)
    if model.grid.rows * model.grid.cols > MAX_CELLS:
        raise InvalidSpec(
            f"the grid has {model.grid.rows * model.grid.cols} cells; this page "
            f"solves up to {MAX_CELLS}",
            field="grid",
        )
    progress(0.2, "propagating clues and searching")
    result = api.solve_puzzle(model, limit=5, time_limit=time_limit)
    if result.timed_out and not result.solutions:
        # not a proof of "no solution": say undecided, never show the cut steps as a result
        raise LimitExceeded(
            f"undecided: the search stopped at this page's limit of {time_limit:g} CPU "
            f"seconds ({result.nodes} search nodes) before it found a solution or proved "
            "there is none",
            expected="a smaller puzzle, or `puzzleforge crossnumber solve FILE --time-limit "
            "SECONDS` with a larger limit",
        )
    data = api.solution_json(model, result)
    solutions = [{f"{r},{c}": v for (r, c), v in s.cells.items()} for s in result.solutions]
    clues = [
        {"name": c.name, "direction": c.direction, "text": c.text or "(unclued)", "line": c.line}
        for c in model.clues.values()
    ]
    return {
        "title": model.title,
        "question": api.render_question(model),
        "grid": _grid(model),
        "count": result.count,
        "complete": result.complete,
        "stopped_at_time_limit": result.timed_out,
        "time_limit": time_limit,
        "unique": result.unique,
        "seconds": round(result.seconds, 3),
        "solutions": solutions,
        "values": data["solutions"][0]["values"] if data["solutions"] else {},
        "variables": data["solutions"][0]["variables"] if data["solutions"] else {},
        "answer": api.answer_text(model, result.solutions[0]) if result.solutions else "",
        "steps": data["steps"],
        "dropped_steps": result.steps.dropped,
        "clues": clues,
        "notes": model.notes,
    }


# ------------------------------------------------------------------ playing in the browser

#: Sizes of the generated puzzles the page offers (the generator's templates).
GENERATE_SIZES = (3, 4, 5)


class CrossnumberSession:
    """A cross-number being played: the model, its unique solution (kept on the server) and
    the player's cells keyed ``"r,c"``. A hint is the engine's easiest deduction for an
    empty cell, with its reason and the clue it starts from."""

    def __init__(self, token: str, text: str, model: Any, result: Any) -> None:
        self.token = token
        self.text = text
        self.model = model
        self.result = result
        sol = result.solutions[0]
        self.cells = {f"{r},{c}": v for (r, c), v in sol.cells.items()}
        self.givens = {f"{r},{c}": str(v) for (r, c), v in model.grid.givens.items()}
        self.mapping = dict(sol.mapping)

    def __reduce__(self) -> tuple:
        """Pickled as its file text and solve result (the parsed model holds compiled
        closures): a session made in a worker process (web/workers.py) is rebuilt here by
        parsing the text again, which the worker already did within the size limits."""
        return (_restore_session, (self.token, self.text, self.result))

    def view(self) -> dict[str, Any]:
        m = self.model
        clues = []
        for c in m.clues.values():
            entry = m.entries.get(c.entry) if c.entry else None
            clues.append(
                {
                    "name": c.name,
                    "direction": c.direction,
                    "text": c.text or "(unclued)",
                    "entry": c.entry,
                    "cells": [f"{r},{col}" for r, col in entry.cells] if entry else [],
                }
            )
        return {
            "token": self.token,
            "title": m.title,
            "grid": _grid(m),
            "clues": clues,
            "values": m.cell_domain(),
            "givens": self.givens,
            "text": self.text,
            "variables": list(m.variables.names),
            "notes": m.notes,
            "mapped": m.mapped,
        }

    def pdf(self, solution: bool) -> bytes:
        """The printable sheet (``crossnumber.pdf``), with a solution page when asked."""
        sheet = importlib.import_module("puzzleforge.crossnumber.pdf").sheet_bytes
        return sheet(self.model, self.result.solutions[0] if solution else None)

    def _read(self, values: Any) -> dict[str, str]:
        if not isinstance(values, dict) or len(values) > len(self.cells):
            raise InvalidSpec("values must map at most one digit per white cell", field="values")
        allowed = set(self.model.cell_domain())
        out = {}
        for key, token in values.items():
            if key not in self.cells:
                raise InvalidSpec(
                    f"'{str(key)[:20]}' is not a white cell of this grid", field="values"
                )
            if token not in allowed:
                raise InvalidSpec(
                    f"'{str(token)[:10]}' is not a value of this grid",
                    field="values",
                    expected=", ".join(sorted(allowed)),
                )
            out[key] = token
        return out

    def check(self, values: Any) -> dict[str, Any]:
        read = {k: v for k, v in self._read(values).items() if k not in self.givens}
        wrong = sorted(k for k, v in read.items() if self.cells[k] != v)
        filled = {**read, **self.givens}
        solved = not wrong and all(filled.get(k) == v for k, v in self.cells.items())
        return {"wrong": wrong, "filled": len(filled), "cells": len(self.cells), "solved": solved}

    def hint(self, values: Any) -> dict[str, Any]:
        """The easiest deduction for an empty cell now (``crossnumber.hints``: one clue by
        itself, then every clue and rule, then the smallest case split, each said as such),
        never a given or filled cell; its reason in words and the cells it reads."""
        status = self.check(values)
        if status["wrong"]:
            return {
                "kind": "wrong",
                "wrong": status["wrong"],
                "message": f"{len(status['wrong'])} cell(s) are wrong; fix them first",
            }
        if status["solved"]:
            return {"kind": "solved", "message": "the puzzle is already solved"}
        filled = {}
        for key, value in self._read(values).items():
            if key not in self.givens:
                r, c = (int(x) for x in key.split(","))
                filled[(r, c)] = value
        hint = _api().next_hint(self.model, filled, self.result.solutions[0])
        assert hint is not None  # not solved, nothing wrong: some cell is empty
        r, c = hint.cell
        return {
            "kind": "step",
            "cell": f"{r},{c}",
            "value": hint.value,
            "reason": hint.reason,
            "method": hint.method,
            "clue": hint.clue,
            "used": [f"{ur},{uc}" for ur, uc in hint.used],
        }


def _restore_session(token: str, text: str, result: Any) -> CrossnumberSession:
    return CrossnumberSession(token, text, _api().parse_puzzle(text, file="puzzle.yaml"), result)


def play_session(
    token: str, text: str, *, name: str, time_limit: float, progress: Any
) -> CrossnumberSession:
    """Parse and solve a puzzle file for play; only a puzzle with one solution is played
    (check and hints compare with it)."""
    api = _api()
    progress(0.05, "reading the puzzle file")
    model = api.parse_puzzle(text, file=name)
    if model.grid.rows * model.grid.cols > MAX_CELLS:
        raise InvalidSpec(
            f"the grid has {model.grid.rows * model.grid.cols} cells; this page "
            f"plays up to {MAX_CELLS}",
            field="grid",
        )
    progress(0.2, "solving it to check answers against")
    result = api.solve_puzzle(model, limit=2, time_limit=time_limit)
    if result.count != 1 or not result.complete:
        found = (
            "more than one solution"
            if result.count >= 2
            else "no solution"
            if result.complete
            else "no proof of a unique solution within the time limit"
        )
        raise InvalidSpec(
            f"this puzzle has {found}, so answers cannot be checked; use Solve "
            "to see what the solver finds",
            field="text",
        )
    return CrossnumberSession(token, text, model, result)


def generate_session(token: str, *, size: int, seed: int, progress: Any) -> CrossnumberSession:
    """A new small cross-number: the same file text as ``puzzleforge crossnumber generate
    --seed SEED --size SIZE``."""
    from ..core.seeding import make_rng  # noqa: PLC0415 - as the CLI seeds it
    from ..crossnumber.generate import generate_puzzle  # noqa: PLC0415 - engine loaded lazily

    if size not in GENERATE_SIZES:
        raise InvalidSpec(
            f"size {size} is not offered",
            field="size",
            expected=", ".join(map(str, GENERATE_SIZES)),
        )
    progress(0.1, f"generating a {size}x{size} cross-number and proving it unique")
    text, model, result = generate_puzzle(make_rng(seed), size=size)
    return CrossnumberSession(token, text, model, result)
