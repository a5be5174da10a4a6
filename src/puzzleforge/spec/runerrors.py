"""The spec errors that end a run: no retry with the next seed, a batch stops at them.

Why a module of their own (split from spec/family.py): both sides of the sandbox raise
them (the family in process, spec/sandbox.py when it rebuilds a worker's error), and
the sandbox must not import the family that calls it. spec/family.py re-exports them as
part of its public surface. The safety net's reason and wall-clock backstop live here
for the same reason (both sides name them).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..core.errors import GenerationFailed, InvalidSpec
from .outcome import UNDECIDED

__all__ = [
    "SafetyNetFailed",
    "UndecidedSpec",
    "SpecExpressionError",
    "SAFETY_NET",
    "WALL_BACKSTOP",
    "wall_backstop",
    "UNDECIDED_LIMIT",
    "stop_if_undecided",
    "raise_generation_failure",
    "require_random",
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


#: Undecided uniqueness checks one puzzle may meet before the spec is given up: a spec
#: whose checks Z3 cannot decide (18-numbers, 68-cubic) would otherwise burn every
#: attempt at the full work budget and still give nothing.
UNDECIDED_LIMIT = 20


def stop_if_undecided(reasons: Any, path: str, attempts: int) -> None:
    """Raise ``UndecidedSpec`` when one puzzle's rejections hold ``UNDECIDED_LIMIT``
    undecided checks."""
    count = reasons.get(UNDECIDED, 0)
    if count >= UNDECIDED_LIMIT:
        summary = ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
        raise UndecidedSpec(
            f"spec {path}: {count} attempts ended with a uniqueness check Z3 could not decide "
            f"(limit {UNDECIDED_LIMIT} per puzzle), so generation stops: a puzzle is emitted "
            f"only when its answer is proven unique, and this spec's checks stay undecided "
            f"(nonlinear constraints such as squares or cubes of unknowns usually do). Raise "
            f"--attempt-seconds to give each check more work, or change the spec; rejections "
            f"by reason: {summary}",
            attempts=attempts,
            reasons=dict(reasons),
            file=path,
        )


def raise_generation_failure(
    path: str,
    attempts: int,
    reasons: Counter,
    failures: dict,
    replay: bool,
    detail: str = "",
) -> None:
    """Raise the error that ends a puzzle's attempts: a ``SpecExpressionError`` when one
    expression failed on most of several attempts (the spec is wrong, not the draw),
    else ``GenerationFailed`` with the rejections by reason."""
    if failures:
        top, count = max(((k, reasons[k]) for k in failures), key=lambda kv: kv[1])
        # one failing attempt may be bad luck (random data); the same error on most of
        # several attempts is a spec error
        if attempts >= 5 and count * 2 >= sum(reasons.values()):
            exc = failures[top]
            code = exc.code
            raise SpecExpressionError(
                f"expression failed: {type(exc.exc).__name__}: {exc.exc} "
                f"(in: {' '.join(code.source.split())[:200]})",
                file=path,
                field=code.where,
                line=code.line,
                expected="an expression that evaluates for the spec's variables and symbols "
                "(Z3 formulas must type-check)",
            )
    summary = ", ".join(f"{k}: {v}" for k, v in reasons.most_common())
    if failures:
        summary += "; last expression error: " + "; ".join(
            f"{k}: {type(e.exc).__name__}: {str(e.exc)[:120]}" for k, e in failures.items()
        )
    failed = GenerationFailed(
        f"{'config replay' if replay else 'spec'} {path} gave no puzzle after {attempts} "
        f"attempt(s); rejections by reason: {summary}" + (f" ({detail})" if detail else ""),
        attempts=attempts,
        reasons=dict(reasons),
        file=path,
    )
    failed.detail = detail  # the replay's rejection in words (spec generate --config)
    try:
        raise failed
    finally:
        # the traceback holds this frame: without the del, exception -> frame ->
        # exception is a cycle that keeps the caller's Z3 context (~17 MB) alive until
        # the next GC pass, next to the context of the following call
        del failed


def require_random(rng: Any, path: str, worker: str) -> None:
    """Refuse an ``rng`` whose state cannot travel to a worker process.

    Why: a worker (the sandbox's or the trusted one) advances a copy of the caller's
    ``random.Random`` and sends its state back, so the caller's generator moves exactly as
    if the spec had run in process (same seed, same bytes); any other object cannot."""
    if not isinstance(rng, random.Random):
        raise GenerationFailed(
            f"generate needs a random.Random (its state is sent to the {worker} worker)",
            file=path,
        )
