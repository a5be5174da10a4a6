"""Small families with known failure modes, loaded by workers as ``module:attribute`` refs.

They are real Family objects (not mocks): the runner generates, verifies and writes their
puzzles like any other; each misbehaves in one documented way.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.family import params_to_dict
from puzzleforge.core.puzzle import Puzzle


@dataclass(frozen=True)
class Params:
    distinct: int = 1_000_000  # how many different puzzles exist
    slow_share: float = 0.0  # share of attempts that take `slow_seconds`
    slow_seconds: float = 3.0


class _Base:
    Params = Params
    summary = "test family"
    difficulty_doc = "none"
    name = "fake"

    def make(self, params: Params, rng: random.Random) -> Puzzle:
        k = rng.randrange(params.distinct)
        return Puzzle(
            family=self.name,
            question=f"What is {k} + 1?",
            answer=str(k + 1),
            solution={"k": k},
            difficulty=0.0,
            params=params_to_dict(params),
            seed=0,
        )

    def verify(self, puzzle: Puzzle, answer: str) -> float:
        return 1.0 if str(answer).strip() == puzzle.answer else 0.0


class AlwaysFails(_Base):
    name = "always_fails"

    def generate(self, params: Params, rng: random.Random) -> Puzzle:
        raise GenerationFailed("no puzzle today", reasons={"no_luck": 1})


class Sometimes(_Base):
    """Slow on a share of attempts (decided by the rng, so deterministic), else instant."""

    name = "sometimes_slow"

    def generate(self, params: Params, rng: random.Random) -> Puzzle:
        if rng.random() < params.slow_share:
            time.sleep(params.slow_seconds)
        return self.make(params, rng)


class Spinning(_Base):
    """Busy on the CPU (a Python loop) for ``slow_seconds`` of CPU time on a share of
    attempts (decided by the rng, so deterministic), else instant."""

    name = "spinning"

    def generate(self, params: Params, rng: random.Random) -> Puzzle:
        if rng.random() < params.slow_share:
            end = time.process_time() + params.slow_seconds
            while time.process_time() < end:
                pass
        return self.make(params, rng)


class NativeSpin(_Base):
    """One long C-level computation (a huge integer power): no Python-level signal
    handler runs until it returns, only the kernel's CPU limit stops it."""

    name = "native_spin"

    def generate(self, params: Params, rng: random.Random) -> Puzzle:
        if rng.random() < params.slow_share:
            _ = 3 ** (10**9)  # minutes of CPU inside one C call
        return self.make(params, rng)


class Stuck(_Base):
    """Sleeps with SIGALRM blocked: stands for a native call that never returns to Python."""

    name = "stuck"

    def generate(self, params: Params, rng: random.Random) -> Puzzle:
        import signal

        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(params.slow_seconds)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        return self.make(params, rng)


class Picky(Sometimes):
    """Its audit rejects every puzzle with an odd k."""

    name = "picky"

    def audit(self, puzzle: Puzzle) -> list[str]:
        return ["k is odd"] if puzzle.solution["k"] % 2 else []


class LoadDependent(GenerationFailed):
    """Stands for a wall-clock safety net that fired: which puzzle came next would depend
    on machine load, so the run must stop here (``ends_run``)."""

    ends_run = True


class EndsRun(_Base):
    """On a share (``slow_share``) of items, an error no later item may paper over."""

    name = "ends_run"

    def generate(self, params: Params, rng: random.Random) -> Puzzle:
        if rng.random() < params.slow_share:
            raise LoadDependent("the safety net fired", reasons={"safety_net": 1})
        return self.make(params, rng)


class AuditAtLimit(Sometimes):
    """Its audit meets a CPU limit on puzzles with an odd k (stands for a config replay
    stopped by its safety net): that is no finding about the puzzle."""

    name = "audit_at_limit"

    def audit(self, puzzle: Puzzle) -> list[str]:
        if puzzle.solution["k"] % 2:
            from puzzleforge.core.limits import LimitExceeded

            raise LimitExceeded("the audit's config replay was stopped at its limit")
        return []


always_fails = AlwaysFails()
audit_at_limit = AuditAtLimit()
spinning = Spinning()
native_spin = NativeSpin()
ends_run = EndsRun()
picky = Picky()
stuck = Stuck()
sometimes_slow = Sometimes()
