"""The spec errors that end a run: no retry with the next seed, a batch stops at them.

Why a module of their own (split from spec/family.py): both sides of the sandbox raise
them (the family in process, spec/sandbox.py when it rebuilds a worker's error), and
the sandbox must not import the family that calls it. spec/family.py re-exports them as
part of its public surface. The safety net's reason and wall-clock backstop live here
for the same reason (both sides name them).
"""

from __future__ import annotations

from ..core.errors import GenerationFailed, InvalidSpec

__all__ = [
    "SafetyNetFailed",
    "UndecidedSpec",
    "SpecExpressionError",
    "SAFETY_NET",
    "WALL_BACKSTOP",
    "wall_backstop",
]

#: The rejection reason counted when the safety net fires.
SAFETY_NET = "CPU safety net (max_seconds)"
#: The wall-clock backstop of a puzzle, in multiples of its CPU net plus the kernel's
#: grace: only for work that waits without using CPU (the net itself counts CPU time,
#: docs/limits.md), generous enough for a machine loaded ten times over.
WALL_BACKSTOP = 10.0


def wall_backstop(max_seconds: float) -> float:
    """Wall-clock seconds after which a puzzle's work counts as stuck without CPU."""
    from .oslock import CPU_GRACE

    return WALL_BACKSTOP * (max_seconds + CPU_GRACE)


class SafetyNetFailed(GenerationFailed):
    """The CPU safety net (``max_seconds``) fired: no puzzle, and it says why.

    Why not retry with the next seed: the puzzle that would come out then depends on
    the machine's speed, which the determinism contract forbids (a batch stops at it).
    It is a limit like every other (docs/limits.md): exit status 4.
    """

    kind = "limit reached"
    exit_code = 4
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
