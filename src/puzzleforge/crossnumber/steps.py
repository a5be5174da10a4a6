"""The step log: what the solver deduced, in order, as text a person can follow and JSON.

Why: solving a cross-number by hand is a chain of small deductions ("A6 = A is a
2-digit prime, so ..."). Each step is one clue or rule firing: what it narrowed, from how
many candidates to how many, and the digits that follow in the grid (one step, not one
line per cell). Reading an entry's candidates off its cells is bookkeeping and is not a
step. Search is written as a case analysis ("Case A = 11: ... impossible because ..."), and
a proof that there is no solution ends with the contradiction that closes it. The CLI
(``--steps``) and the web app show the list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

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
    kind: str  # kind | cells | narrow | fixpoint | solution | contradiction
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

    def narrow(
        self, why: str, subject: str, before: str, after: str, *, written_by: str | None = None
    ) -> None:
        """One narrowing, grouped with the step it belongs to: the same clue or rule firing
        again, or the digits an entry's new candidates leave in its cells."""
        if not self.enabled:
            return
        last = self.steps[-1] if self.steps else None
        if written_by is not None:
            last = self._step_of(written_by, subject) or last
        change = {"subject": subject, "before": before, "after": after}
        if (
            last is not None
            and last.kind == "narrow"
            and (
                last.data["why"] == why
                or (written_by is not None and written_by in last.data["subjects"])
            )
        ):
            key = "cells" if written_by is not None else "changes"
            same = next((c for c in last.data.get(key, []) if c["subject"] == subject), None)
            if same is not None:  # narrowed again in the same firing: one change, first -> last
                same["after"] = after
            else:
                last.data.setdefault(key, []).append(change)
                last.data["subjects"].append(subject)
            last.text = _narrow_text(last.data)
            return
        data = {
            "why": why,
            "subjects": [subject],
            ("cells" if written_by is not None else "changes"): [change],
        }
        self.add("narrow", subject, _narrow_text(data), data)

    def _step_of(self, clue: str, cell: str) -> Step | None:
        """The recent step that narrowed ``clue``, if no step since touched ``cell``: the
        cell's new digits follow from that step alone, so they are told there."""
        for step in reversed(self.steps[-50:]):
            if step.kind != "narrow":
                return None
            if cell in step.data["subjects"]:
                return None
            if clue in step.data["subjects"]:
                return step
        return None

    def text(self) -> str:
        lines = [f"{i + 1:4d}. {s.text}" for i, s in enumerate(self.steps)]
        if self.dropped:
            lines.append(f"      ({self.dropped} more steps not shown)")
        return "\n".join(lines)

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.steps]


def _narrow_text(data: dict[str, Any]) -> str:
    parts = [
        f"{c['subject']}: {c['before']} -> {c['after']}"
        if c["before"] != "?"
        else f"{c['subject']}: {c['after']}"
        for c in data.get("changes", [])
    ]
    cells = [f"{c['subject']} {c['after']}" for c in data.get("cells", [])]
    text = f"{data['why']}: " + "; ".join(parts) if parts else f"{data['why']}"
    if cells:
        text += ("; so " if parts else ": ") + "cells " + ", ".join(cells)
    return text
