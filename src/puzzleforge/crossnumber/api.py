"""The small public API the CLI, the family and the web app use.

Why one module: callers should not need to know how models, solvers and step logs fit
together. Everything here is pure (no printing, no files except ``load``).

>>> m = parse_puzzle('''
... grid: |
...   ..
...   ..
... clues:
...   A1: square
...   A3: square
...   D1: prime
...   D2: square
... ''')
>>> r = solve_puzzle(m)
>>> r.count, r.solutions[0].rows(m)
(1, ['81', '36'])
>>> print(render_solution(m, r.solutions[0]))
+---+---+
| 8   1 |
+   +   +
| 3   6 |
+---+---+
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

from .answers import score_answer
from .hints import Hint, next_hint
from .model import DIRECTIONS, Model, load_model, parse_model
from .solver import Solution, SolveResult, solve

__all__ = [
    "parse_puzzle",
    "load_puzzle",
    "solve_puzzle",
    "render_solution",
    "render_question",
    "solution_json",
    "answer_text",
    "list_puzzles",
    "bundled_dir",
    "check_answer",
    "Hint",
    "next_hint",
]


def bundled_dir() -> Path:
    """The folder of puzzle files shipped inside the package."""
    return Path(__file__).resolve().parent / "puzzles"


def parse_puzzle(text: str, *, file: str | None = None) -> Model:
    """Puzzle-file text -> Model (``InvalidSpec`` with line numbers on any problem)."""
    return parse_model(text, file=file)


def load_puzzle(path: str | Path) -> Model:
    return load_model(path)


def list_puzzles(source: str | Path | None = None) -> list[Path]:
    """Puzzle files of a folder (sorted), or the single file given."""
    p = Path(source) if source else bundled_dir()
    if p.is_file():
        return [p]
    return sorted(list(p.glob("*.yaml")) + list(p.glob("*.yml")))


def solve_puzzle(
    model: Model, *, limit: int = 10, time_limit: float = 60.0, steps: bool = True
) -> SolveResult:
    """All solutions up to ``limit``, with the step log."""
    return solve(model, limit=limit, time_limit=time_limit, log_steps=steps)


def _cell_text(model: Model, sol: Solution | None, rc: tuple[int, int]) -> str:
    if sol is None:
        return ""
    return sol.cells.get(rc, "")


def render_solution(model: Model, sol: Solution | None, *, show_numbers: bool = False) -> str:
    """ASCII drawing of the grid with bars/blocks. ``sol=None`` draws the empty grid with
    the given digits in their cells, or with the entry numbers instead (``show_numbers``:
    a number and a digit in one 3-character cell would be ambiguous, so the question
    prints both drawings)."""
    g = model.grid
    width = 3 if model.rules.cell_values is None else 4
    starts: dict[tuple[int, int], int] = {}
    for e in model.entries.values():
        starts.setdefault(e.cells[0], e.number)
    # a bar between two cells when no entry runs through both
    joined_h: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    joined_v: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for e in model.entries.values():
        for a, b in pairwise(e.cells):
            (joined_h if e.direction == "across" else joined_v).add((a, b))
    lines = []
    for r in range(g.rows):
        border = "+"
        for c in range(g.cols):
            above = (r - 1, c)
            open_ = r > 0 and ((above, (r, c)) in joined_v)
            border += (" " * width if open_ else "-" * width) + "+"
        lines.append(border)
        row = "|"
        for c in range(g.cols):
            if not g.white[r][c]:
                text = "#" * width
            else:
                if sol is not None:
                    text = _cell_text(model, sol, (r, c)) or "?"
                elif show_numbers:
                    text = str(starts[(r, c)]) if (r, c) in starts else ""
                elif (r, c) in g.givens:
                    text = str(g.givens[(r, c)])
                else:
                    text = ""
                text = text.center(width)
            sep = " " if c + 1 < g.cols and (((r, c), (r, c + 1)) in joined_h) else "|"
            row += text + sep
        lines.append(row)
    lines.append("+" + ("-" * width + "+") * g.cols)
    return "\n".join(lines)


def render_question(model: Model) -> str:
    """The puzzle as text: rules, grid with entry numbers, clues."""
    out = [model.title, ""]
    rules = []
    r = model.rules
    if r.distinct:
        rules.append("All answers are different.")
    if not r.leading_zeros:
        rules.append("No answer starts with 0.")
    if r.digits != list(range(10)):
        rules.append("Only the digits " + ", ".join(map(str, r.digits)) + " are used.")
    if r.cell_values is not None:
        rules.append(f"Cells hold the numbers {min(r.cell_values)}..{max(r.cell_values)}.")
    if r.cell_values_once:
        rules.append(
            "Each of " + ", ".join(map(str, r.cell_values_once)) + " is in exactly one cell."
        )
    if r.digits_once:
        rules.append("Each digit is used once.")
    for kind in r.no_repeat:
        rules.append(f"No digit repeats in any of the {kind}.")
    if r.reversed_pair:
        rules.append("One answer is another answer reversed.")
    if r.grid_digit_sum is not None:
        rules.append(f"The digits of the grid add up to {r.grid_digit_sum}.")
    for text in r.every_clue:
        rules.append(f"Every clue also: {text.replace('{clue}', 'the answer')}.")
    for text in r.grid_text:
        rules.append(f"Grid rule: {text} (countD = how many times the digit D occurs in the grid).")
    if r.nontrivial:
        rules.append("Every operation is non-trivial (its result differs from its operands).")
    if r.clue_order:
        rules.append(
            f"Clues are listed in {r.clue_order} order of their answers; clue labels "
            "do not give grid positions (the number in brackets is the cell count)."
        )
    v = model.variables
    if v.names:
        rules.append(
            f"Variables {', '.join(v.names)} take values from {v.text}"
            + (", all different" if v.distinct else "")
            + ("; " + "; ".join(" < ".join(ch) for ch in v.order) if v.order else "")
            + "."
        )
    givens = sorted(model.grid.givens.items())
    if givens:
        rules.append(
            "Given digits (row, column counted from the top left): "
            + "; ".join(f"row {r + 1}, column {c + 1}: {d}" for (r, c), d in givens)
            + "."
        )
    out += rules
    out += ["", render_solution(model, None, show_numbers=True), ""]
    if givens:
        out += ["Given digits:", render_solution(model, None), ""]
    for d in DIRECTIONS:
        if not any(c.direction == d for c in model.clues.values()):
            continue
        out.append("Clues" if d == "any" else d.capitalize())
        for c in model.clues.values():
            if c.direction == d:
                suffix = f" ({c.cells})" if not model.mapped else ""
                out.append(f"  {c.name}{suffix}: {c.text or '(unclued)'}")
    return "\n".join(out).rstrip()


def answer_text(model: Model, sol: Solution) -> str:
    """Canonical answer: grid rows, one per line ('#' for blocks, cells space-separated
    when cells may hold several digits)."""
    return "\n".join(sol.rows(model, " " if model.rules.cell_values is not None else ""))


def solution_json(model: Model, result: SolveResult) -> dict[str, Any]:
    return {
        "title": model.title,
        "count": result.count,
        "complete": result.complete,
        # the CPU time limit stopped the search: the count is a lower bound and the
        # steps end where it stopped (an incomplete explanation, said as such)
        "stopped_at_time_limit": result.timed_out,
        "seconds": round(result.seconds, 4),
        "nodes": result.nodes,
        "solutions": [s.to_json(model) for s in result.solutions],
        "steps": result.steps.to_json(),
    }


def check_answer(model: Model, sol: Solution, answer: Any) -> float:
    """Score an answer against a solution (see family.verify): 1.0 right, else the
    fraction of right cells (grid rows) or right entries (clue -> value)."""
    return score_answer(model, sol, answer)
