"""What a cross-number solve returns: each solution, and the result of one search.

Why a module of its own: the generator, the family, the CLI, the hint engine and the web
app read these records without needing the solver's machinery.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import Model
from .steps import StepLog

__all__ = ["Solution", "SolveResult"]


@dataclass
class Solution:
    cells: dict[tuple[int, int], str]
    values: dict[str, int]  # clue -> value
    variables: dict[str, int]
    mapping: dict[str, str]  # clue -> entry

    def rows(self, model: Model, sep: str = "") -> list[str]:
        out = []
        for r in range(model.grid.rows):
            out.append(sep.join(self.cells.get((r, c), "#") for c in range(model.grid.cols)))
        return out

    def to_json(self, model: Model) -> dict[str, Any]:
        multi = model.rules.cell_values is not None
        return {
            "rows": self.rows(model, " " if multi else ""),
            "values": dict(self.values),
            "variables": dict(self.variables),
            "mapping": dict(self.mapping),
        }


@dataclass
class SolveResult:
    solutions: list[Solution]
    complete: bool  # search space exhausted (count is exact)
    steps: StepLog
    seconds: float
    nodes: int
    stats: dict[str, Any] = field(default_factory=dict)
    #: the CPU time limit (``time_limit``) stopped the search: a runaway stop, never a
    #: result to keep (callers fail loudly; node and solution limits are the budgets)
    timed_out: bool = False

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def unique(self) -> bool:
        return self.complete and len(self.solutions) == 1
