"""Logic-grid (zebra) puzzles: generate, solve with explained steps, render, certify.

The small public API other parts (CLI, web app) use; heavy modules load on first call.

>>> import puzzleforge.zebra as zebra
>>> p = zebra.generate(seed=1)
>>> zebra.verify(p, p.answer)
1.0
>>> steps = zebra.explain(p)
>>> steps[0]["rule"] in ("clue", "rule1", "rule2", "rule3", "rule4", "rule5", "guess")
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "generate",
    "load",
    "explain",
    "render_text",
    "verify",
    "score_answer",
    "pdf_sheet",
    "pdf_solution",
    "svg_grid",
    "write_sheet",
]


def generate(seed: int = 0, **params: Any):
    """A stamped ``Puzzle`` record of family zebra (params as in ``family.Params``)."""
    from ..core.generation import generate as _generate

    return _generate("zebra", seed=seed, **params)


def load(puzzle_or_record: Any):
    """The ``ZebraPuzzle`` inside a Puzzle, a record dict or a ZebraPuzzle."""
    from .family import zebra_of
    from .model import ZebraPuzzle

    if isinstance(puzzle_or_record, ZebraPuzzle):
        return puzzle_or_record
    return zebra_of(puzzle_or_record)


def explain(puzzle: Any, *, guessing: bool = True, raw: bool = False) -> list[dict[str, Any]]:
    """Solve with the deduction engine; one dict per step: ``rule``, ``clues`` (ids),
    ``used`` (marks relied on), ``marks`` (marks set), ``text``, and for guesses the
    ``assumed`` cell and the refuting ``chain``. By default steps are regrouped for a
    reader (``readable.py``: bookkeeping folded into its cause as ``follow``, the cause's
    own marks in ``own``, a guess's shortest ``refutation``); ``raw=True`` gives the
    engine's own steps."""
    from .engine import Engine
    from .readable import readable_steps
    from .text import step_text

    zp = load(puzzle)
    out = Engine(zp.K, zp.k, zp.clues, explain=True).run(guessing=guessing)
    steps = []
    for n, step in enumerate(out.steps if raw else readable_steps(out.steps), start=1):
        steps.append(dict(step, n=n, text=step_text(zp, step)))
    return steps


def render_text(puzzle: Any, *, plain: bool = False) -> str:
    """The puzzle as text (names highlighted as **bold** unless ``plain``)."""
    from .text import puzzle_text

    return puzzle_text(load(puzzle), plain=plain)


def verify(puzzle: Any, answer: str) -> float:
    """Score an answer (JSON, markdown table or 'A ~ B ~ C' lines); partial credit."""
    from .answers import score_answer

    return score_answer(load(puzzle), answer)


score_answer = verify


def pdf_sheet(puzzle: Any) -> bytes:
    """Printable sheet: clues, stars, categories and the empty grid."""
    from .pdf import sheet_bytes

    return sheet_bytes(load(puzzle))


def pdf_solution(puzzle: Any) -> bytes:
    """Step-by-step solution: the answer first, then the steps several to a page, each
    page's grid with its new marks highlighted."""
    from .pdf import solution_bytes

    return solution_bytes(load(puzzle))


def svg_grid(puzzle: Any, marks: dict | None = None) -> str:
    """SVG of the grid (optionally with marks ``{(c1,i1,c2,i2): 1 yes / 2 no}``)."""
    from .svg import grid_svg

    return grid_svg(load(puzzle), marks)


def write_sheet(puzzle: Any, path: str) -> None:
    """Write the PDF sheet of ``puzzle`` to ``path``."""
    from .pdf import write_sheet as _write

    _write(load(puzzle), path)
