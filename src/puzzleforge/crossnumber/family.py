"""The ``crossnumber`` family: puzzles from a folder of puzzle files, or new small ones.

Why two modes: a folder of real puzzles (the bundled corpus conversions by default) gives
datasets of hand-made cross-numbers with verified answers; ``mode="generate"`` builds new
small puzzles with a unique solution, which is what large datasets need.

The answer is the filled grid, one row per line. ``verify`` also accepts a clue -> value
mapping ("A1: 4554, D2: 57" or JSON), and gives partial credit: the fraction of right
cells (grid answers) or right entries (mappings).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.difficulty import DifficultyScale, apply_scale
from ..core.errors import ConfigError, GenerationFailed, InvalidDescription
from ..core.family import params_to_dict
from ..core.puzzle import Puzzle
from .answers import parse_answer, score_answer, score_solution_data

__all__ = [
    "Params",
    "CrossNumberFamily",
    "family",
    "path_rating",
    "score_answer",
    "parse_answer",
]

MODES = ("file", "generate")
#: CPU seconds of the search behind ``explain`` (a net: reaching it fails loudly)
EXPLAIN_SECONDS = 30.0


@dataclass(frozen=True)
class Params:
    """mode: 'file' (pick a puzzle file from ``source``) or 'generate' (new small puzzle).
    source: folder or file of puzzle files (default: the bundled puzzles).
    size: grid side for generated puzzles (3: ~0.1 s, 4: ~1 s, 5: seconds).
    unique_only: in file mode, skip files whose expected solution count is not 1.
    time_limit: CPU seconds the solver may spend on one puzzle (a net: reaching it fails
    the run loudly, docs/limits.md)."""

    mode: str = "file"
    source: str = ""
    size: int = 3
    unique_only: bool = True
    time_limit: float = 30.0

    def validate(self) -> None:
        problems = []
        if self.mode not in MODES:
            problems.append(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.size not in (3, 4, 5):
            problems.append(f"size must be 3, 4 or 5, not {self.size}")
        if self.source and not Path(self.source).exists():
            problems.append(f"source {self.source!r} does not exist")
        if self.time_limit <= 0:
            problems.append("time_limit must be positive")
        if problems:
            raise ConfigError(
                "; ".join(problems), field="params", expected="valid crossnumber parameters"
            )


#: the Params class under a name the family's methods can annotate with (inside the class
#: body ``Params`` is the class attribute the Family protocol asks for)
CrossNumberParams = Params


#: rating of a propagation-only path: per re-firing (a clue or rule narrowing again after
#: others narrowed what it reads), extra per step that combines entries, and the cap that
#: keeps it below every path with a case split
REFIRE_WEIGHT = 0.2
CROSS_WEIGHT = 0.1
PROPAGATION_CAP = 4.5
SEARCH_BASE = 5.0


def path_rating(result: Any, model: Any) -> float:
    """The native rating from the solver's path (issue 21: search nodes alone rated most
    generated puzzles 0.0). Why this shape: a clue that settles its entry once is read
    once; what makes a deduction chain hard is coming back to a clue after others have
    narrowed its cells (a re-firing: the step count beyond the distinct clues and rules
    that fire), and steps that read two entries at once ("A1 + D2"). So a
    propagation-only path rates 0.2 per re-firing plus 0.1 per step combining entries,
    capped at ``PROPAGATION_CAP``; a path that needs a case split is harder than any
    deduction chain, so it starts at ``SEARCH_BASE`` and grows with 2 * log2 of the
    search nodes. Without a step log (a solve with steps off) it falls back to search
    nodes beyond the first plus one per ten clues."""
    steps = result.steps.steps if result.steps.enabled else None
    if not steps:
        return float(max(0, result.nodes - 1) + len(model.clues) // 10)
    fix = next((i for i, s in enumerate(steps) if s.kind == "fixpoint"), len(steps))
    if fix < len(steps) and "everything is determined" not in steps[fix].text:
        return round(SEARCH_BASE + 2.0 * math.log2(max(2, result.nodes)), 2)
    names = set(model.clues)
    deductions = [s for s in steps[:fix] if s.kind in ("narrow", "kind")]
    refires = len(deductions) - len(
        {(s.kind, str(s.data.get("why", s.subject))) for s in deductions}
    )
    cross = sum(
        1
        for s in deductions
        if len(names & set(re.findall(r"\b[A-Z]+\d+\b", str(s.data.get("why", ""))))) >= 2
    )
    return round(min(PROPAGATION_CAP, REFIRE_WEIGHT * refires + CROSS_WEIGHT * cross), 2)


class CrossNumberFamily:
    name = "crossnumber"
    Params = Params
    summary = (
        "Cross-number puzzles: grid entries clued by number kinds and algebra (files or generated)"
    )
    difficulty_doc = (
        "Rated by the solving path (generated puzzles): a puzzle solved by propagation "
        "alone rates 0.2 per re-firing (a clue or rule narrowing again after others "
        "narrowed what it reads) plus 0.1 per step that combines entries, at most 4.5 "
        "(easy < 2, medium < 5); one that needs case splits rates "
        "5 + 2 * log2(search nodes) (hard < 10, expert from 10). Puzzle files are "
        "rated the same way (solved with their step log)."
    )
    difficulty_scale = DifficultyScale(
        (0.0, 2.0, 5.0, 10.0, 30.0), "solving path: deductions, or 5 + 2 log2(search nodes)"
    )

    def capacity(self, params: CrossNumberParams) -> int | None:
        """At most one distinct puzzle per file in file mode; generated puzzles are unbounded."""
        params.validate()
        if params.mode != "file":
            return None
        from . import api

        return len(api.list_puzzles(params.source or None))

    def generate(self, params: CrossNumberParams, rng: random.Random) -> Puzzle:
        params.validate()
        if params.mode == "generate":
            from .generate import generate_puzzle

            text, model, result = generate_puzzle(rng, size=params.size)
            return self._puzzle(params, model, result, source=None, text=text)
        from . import api

        files = api.list_puzzles(params.source or None)
        if not files:
            raise GenerationFailed(
                f"no puzzle files in {params.source or api.bundled_dir()}",
                attempts=0,
                reasons={"no files": 1},
            )
        order = list(files)
        rng.shuffle(order)
        reasons: dict[str, int] = {}
        for path in order:
            model = api.load_puzzle(path)
            if params.unique_only and int(model.expect.get("solutions", 1)) != 1:
                reasons["not unique"] = reasons.get("not unique", 0) + 1
                continue
            rows = model.expect.get("rows") if int(model.expect.get("solutions", 1)) == 1 else None
            stated = None
            if rows:
                # the file states its solution: check it against every clue first, so a
                # wrong stated grid is named as such (not as "no unique solution")
                from .solver import check_grid

                stated = check_grid(model, rows, time_limit=params.time_limit, what=str(path))
                if stated is None:
                    reasons["stated solution is wrong"] = (
                        reasons.get("stated solution is wrong", 0) + 1
                    )
                    continue
            # solved with its step log: the rating follows the solving path, as for
            # generated puzzles (issue 21; the bundled files take at most ~0.3 CPU s)
            result = api.solve_puzzle(
                model, limit=2 if params.unique_only else 10, time_limit=params.time_limit
            )
            from .solver import fail_if_timed_out

            fail_if_timed_out(result, f"solving {path}", params.time_limit)
            if stated is not None and result.unique and result.solutions[0].cells != stated.cells:
                reasons["stated solution is not the solver's"] = (
                    reasons.get("stated solution is not the solver's", 0) + 1
                )
                continue
            if params.unique_only and not result.unique:
                reasons["solver found no unique solution"] = (
                    reasons.get("solver found no unique solution", 0) + 1
                )
                continue
            if not result.solutions or not result.complete:
                reasons["no solution or search incomplete"] = (
                    reasons.get("no solution or search incomplete", 0) + 1
                )
                continue
            return self._puzzle(params, model, result, source=str(path), text=None)
        raise GenerationFailed(
            "no puzzle file with a unique solution", attempts=len(order), reasons=reasons
        )

    def _puzzle(
        self,
        params: CrossNumberParams,
        model: Any,
        result: Any,
        *,
        source: str | None,
        text: str | None,
    ) -> Puzzle:
        from . import api

        sol = result.solutions[0]
        multi = model.rules.cell_values is not None
        question = (
            api.render_question(model) + "\n\nAnswer format: the completed grid, one "
            "row per line"
            + (" (cells separated by spaces)" if multi else "")
            + ", '#' for a black square."
        )
        meta: dict[str, Any] = {
            "title": model.title,
            "solver_nodes": result.nodes,
            "solutions_found": result.count,
        }
        if source:
            meta["source"] = source
        if text is not None:
            meta["puzzle_file"] = text
        return apply_scale(
            Puzzle(
                family=self.name,
                question=question,
                answer=api.answer_text(model, sol),
                solution={
                    "rows": sol.rows(model, " " if multi else ""),
                    "values": sol.values,
                    "variables": sol.variables,
                    "multi": multi,
                    # every solution when the puzzle is not unique (any one is accepted)
                    "alternatives": [
                        {"rows": s.rows(model, " " if multi else ""), "values": s.values}
                        for s in result.solutions[1:]
                    ],
                },
                difficulty=path_rating(result, model),
                params=params_to_dict(params),
                seed=0,
                meta=meta,
            ),
            self.difficulty_scale,
        )

    def explain(self, puzzle: Puzzle, *, time_limit: float | None = None) -> list[str]:
        """The solver's step log for the record's puzzle (``meta.puzzle_file`` text, or a
        bundled puzzle named by ``meta.source``: a path in a record is followed only when
        it is one of the bundled files, so a crafted record cannot make us read files).

        A search stopped at ``time_limit`` CPU seconds (``EXPLAIN_SECONDS``) raises
        ``LimitExceeded`` (exit status 4, a 503 on the web): its step log ends where the
        search stopped, and steps cut short must never be shown as the explanation."""
        from ..core.limits import LimitExceeded
        from . import api

        meta = puzzle.meta if isinstance(puzzle, Puzzle) else (puzzle.get("meta") or {})
        text = meta.get("puzzle_file") if isinstance(meta, dict) else None
        if not isinstance(text, str):
            source = meta.get("source") if isinstance(meta, dict) else None
            bundled = {p.name: p for p in api.list_puzzles()}
            name = Path(str(source)).name if isinstance(source, str) else ""
            if name not in bundled:
                raise InvalidDescription(
                    "this record names no puzzle text and no bundled "
                    "puzzle file (another path in a record is not read), "
                    "so it cannot be explained",
                    field="meta.source",
                    expected="a record made by the crossnumber family",
                )
            text = bundled[name].read_text(encoding="utf-8")
        model = api.parse_puzzle(text, file=str(meta.get("title") or "puzzle"))
        seconds = EXPLAIN_SECONDS if time_limit is None else time_limit
        result = api.solve_puzzle(model, limit=2, time_limit=seconds)
        if result.timed_out:
            raise LimitExceeded(
                f"explaining this cross-number puzzle was stopped at its limit of {seconds:g} "
                f"CPU seconds ({result.nodes} search nodes) before the search finished, so no "
                "explanation is given (the steps so far would be incomplete)",
                expected="a smaller puzzle, or `puzzleforge crossnumber solve FILE --steps "
                "--time-limit SECONDS` with a larger limit",
            )
        return [step.text for step in result.steps.steps]

    def verify(self, puzzle: Puzzle, answer: str) -> float:
        try:
            sol = puzzle.solution
            best = score_solution_data(sol, answer)
            for alt in sol.get("alternatives") or []:
                best = max(
                    best, score_solution_data({**alt, "multi": sol.get("multi", False)}, answer)
                )
            return best
        except Exception:  # noqa: BLE001 - verify never raises on a malformed answer
            return 0.0

    def audit(self, puzzle: Puzzle) -> list[str]:
        """Re-solve the puzzle (from its file or stored text): exactly one solution, the
        stored one."""
        from . import api

        try:
            if puzzle.meta.get("puzzle_file"):
                model = api.parse_puzzle(puzzle.meta["puzzle_file"])
            elif puzzle.meta.get("source"):
                model = api.load_puzzle(puzzle.meta["source"])
            else:
                return ["no puzzle text or source to re-solve"]
        except Exception as e:  # noqa: BLE001 - reported, not raised
            return [f"puzzle does not load: {e}"]
        alternatives = len(puzzle.solution.get("alternatives") or [])
        result = api.solve_puzzle(model, limit=alternatives + 2, steps=False)
        if not result.complete or result.count != alternatives + 1:
            return [
                f"{result.count}{'' if result.complete else '+'} solutions, "
                f"expected {alternatives + 1}"
            ]
        if api.answer_text(model, result.solutions[0]) != puzzle.answer:
            return ["stored answer differs from the solver's"]
        return []


family = CrossNumberFamily()
