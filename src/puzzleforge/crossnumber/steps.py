"""The step log: what the solver deduced, in order, as text a person can follow and JSON.

Why: solving a cross-number by hand is a chain of small deductions ("A6 = A is a
2-digit prime, so ..."). The solver records each narrowing of a set with the constraint
that caused it; the CLI (``--steps``) and the web app show the list.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

__all__ = ["Step", "StepLog", "summarize"]

MAX_STEPS = 5000


def summarize(values: Iterable, cells: bool = False) -> str:
    """``{1, 2, 3}`` for small sets, ``120 values (101..997)`` for large ones."""
    vals = sorted(values, key=lambda v: (len(str(v)), str(v)) if cells else v)
    if len(vals) <= 8:
        return "{" + ", ".join(str(v) for v in vals) + "}" if len(vals) != 1 else str(vals[0])
    if cells:
        return "{" + ",".join(str(v) for v in vals) + "}"
    return f"{len(vals)} values ({vals[0]}..{vals[-1]})"


@dataclass
class Step:
    kind: str        # kind | cells | narrow | fixpoint | solution | contradiction
    subject: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "subject": self.subject, "text": self.text, "data": self.data}


@dataclass
class StepLog:
    enabled: bool = True
    steps: list[Step] = field(default_factory=list)
    dropped: int = 0

    def add(self, kind: str, subject: str, text: str, data: dict[str, Any]) -> None:
        if not self.enabled:
            return
        if len(self.steps) >= MAX_STEPS:
            self.dropped += 1
            return
        self.steps.append(Step(kind, subject, text, data))

    def text(self) -> str:
        lines = [f"{i + 1:4d}. {s.text}" for i, s in enumerate(self.steps)]
        if self.dropped:
            lines.append(f"      ({self.dropped} more steps not shown)")
        return "\n".join(lines)

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.steps]
