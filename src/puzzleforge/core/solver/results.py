"""Outcomes of solver calls. A time limit that expires is an outcome, never a hang."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

__all__ = ["Status", "SolveResult", "Enumeration", "Count", "Uniqueness"]

Model = dict[int, bool]


class Status(str, Enum):
    SAT = "sat"
    UNSAT = "unsat"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class SolveResult:
    status: Status
    model: Model | None = None

    @property
    def sat(self) -> bool:
        return self.status is Status.SAT

    @property
    def timed_out(self) -> bool:
        return self.status is Status.TIMEOUT

    def value(self, var: int) -> bool:
        """Truth value of ``var`` in the model (negative ids give the negation)."""
        if self.model is None:
            raise ValueError(f"no model: the solver answered {self.status.value}")
        v = self.model.get(abs(var), False)
        return v if var > 0 else not v

    def true_vars(self) -> list[int]:
        return sorted(v for v, b in (self.model or {}).items() if b)


@dataclass(frozen=True)
class Enumeration:
    """Models found, projected on the chosen variables.

    ``complete`` is True when every projected model was listed (no limit or time limit cut
    the enumeration short).
    """

    models: list[Model] = field(default_factory=list)
    complete: bool = True
    timed_out: bool = False

    def __len__(self) -> int:
        return len(self.models)


@dataclass(frozen=True)
class Count:
    """``count`` projected models; ``exact`` is False when a limit or time limit stopped it."""

    count: int
    exact: bool
    timed_out: bool = False


@dataclass(frozen=True)
class Uniqueness:
    """Whether exactly one projected model exists. ``models`` holds up to two witnesses."""

    status: str  # "unique" | "multiple" | "none" | "timeout"
    models: list[Model] = field(default_factory=list)

    @property
    def unique(self) -> bool:
        return self.status == "unique"

    @property
    def timed_out(self) -> bool:
        return self.status == "timeout"

    def __bool__(self) -> bool:  # `if session.is_unique(...)` reads naturally
        return self.unique
