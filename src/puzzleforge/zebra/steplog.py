"""Step recording of the deduction engine: each deduction becomes one step with its
rule, the clues and marks it relied on and the marks it set.

Why apart from the engine: recording is what ``explain=True`` adds (the text, JSON, web
and PDF explanations read these steps); the rules and the driving loop call ``_apply``
and stay the same whether steps are recorded or only counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .grid import Contradiction, Grid

__all__ = ["StepLog", "marks_json"]


def marks_json(marks: Sequence[tuple[str, Any]]) -> list[dict[str, Any]]:
    """``[(mark, cell), ...]`` as the steps' JSON form ``[{"cell": [...], "mark": m}]``."""
    return [{"cell": list(c), "mark": m} for m, c in marks]


class StepLog:
    """Runs deductions as steps: counts them, and records them when the grid keeps a log
    (``Grid.log``, set by ``Engine(explain=True)``)."""

    g: Grid
    steps: list[dict[str, Any]]
    step_count: int

    def _open(self) -> None:
        if self.g.log is not None:
            self.g.log.append([])

    def _close(self, rule: str, clues: Sequence[int], used: Sequence[tuple[str, Any]]) -> None:
        g = self.g
        if g.log is None:
            return
        marks = g.log.pop()
        if not marks:
            return
        self.steps.append(
            {
                "rule": rule,
                "clues": list(clues),
                "used": marks_json(used),
                "marks": marks_json(marks),
            }
        )

    def _apply(
        self,
        rule: str,
        clues: Sequence[int],
        used: Sequence[tuple[str, Any]],
        fn: Callable[..., object],
        *args: Any,
    ) -> bool:
        """Run one deduction as one step; True when it changed the grid."""
        before = len(self.g.trail)
        if self.g.log is None:
            fn(*args)
            changed = len(self.g.trail) != before
            if changed:
                self.step_count += 1
            return changed
        self._open()
        recorded = len(self.steps)
        try:
            fn(*args)
        except Contradiction as exc:
            # what the refutation of a guess ends with: the deduction that failed
            self._close(rule, clues, used)
            exc.active = {
                "rule": rule,
                "clues": list(clues),
                "used": marks_json(used),
                "step": len(self.steps) - 1 if len(self.steps) > recorded else None,
            }
            raise
        else:
            self._close(rule, clues, used)
        changed = len(self.g.trail) != before
        if changed:
            self.step_count += 1
        return changed

    def _guess_step(
        self,
        cell: tuple[int, int, int, int],
        chain: list[dict[str, Any]],
        conflict: dict[str, Any] | None,
        marks: Sequence[tuple[str, Any]],
    ) -> dict[str, Any]:
        """The step of a refuted hypothesis: the assumption, the refuting ``chain`` (each
        step with the marks it relied on), the ``conflict`` and the exclusion it set."""
        return {
            "rule": "guess",
            "clues": sorted({c for s in chain for c in s["clues"]}),
            "used": [],
            "assumed": {"cell": list(cell), "mark": "o"},
            "chain": [
                {"rule": s["rule"], "clues": s["clues"], "used": s["used"], "marks": s["marks"]}
                for s in chain
            ],
            "conflict": conflict,
            "marks": marks_json(marks),
        }
