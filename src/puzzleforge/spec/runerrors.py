"""The spec errors that end a run: no retry with the next seed, a batch stops at them.

Why a module of their own (split from spec/family.py): both sides of the sandbox raise
them (the family in process, spec/sandbox.py when it rebuilds a worker's error), and
the sandbox must not import the family that calls it. spec/family.py re-exports them as
part of its public surface.
"""
from __future__ import annotations

from ..core.errors import GenerationFailed, InvalidSpec

__all__ = ["SafetyNetFailed", "UndecidedSpec", "SpecExpressionError"]


class SafetyNetFailed(GenerationFailed):
    """The wall-clock safety net (``max_seconds``) fired: no puzzle, and it says why.

    Why not retry with the next seed: the puzzle that would come out then depends on
    machine load, which the determinism contract forbids (a batch stops at it).
    """

    ends_run = True


class UndecidedSpec(GenerationFailed):
    """A puzzle met ``UNDECIDED_LIMIT`` attempts whose uniqueness Z3 could not decide.

    Why stop the spec: a puzzle is emitted only with a proof that its answer is unique;
    a spec whose checks stay undecided would otherwise retry at the full work budget
    per attempt and still emit nothing (a batch stops at it: no later item would fare better).
    """

    ends_run = True


class SpecExpressionError(InvalidSpec):
    """An expression of the spec failed on most attempts: a spec error, not bad luck.

    Why its own class: every item of a run would fail the same way, so a batch stops at
    the first one and shows this error (file, field, YAML line) instead of retrying.
    """

    ends_run = True
