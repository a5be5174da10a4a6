"""Restriction of a clue pool to a minimal puzzle: drop clues while the exact solver
keeps the solution unique and the deduction engine still solves the rest.

Why SAT before the engine: "is the puzzle still unique without this clue?" is one
incremental SAT call; the (slower) engine only runs when SAT says yes, and together they
guarantee every kept clue is necessary.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .clues import Clue
from .engine import Engine
from .exact import ExactChecker

__all__ = ["restrict"]


def _engine_solves(
    K: int, k: int, clues: Sequence[Clue], guessing: bool, budget: int | None = None
) -> bool:
    if budget == 0:
        guessing = False
    out = Engine(K, k, clues).run(guessing=guessing, max_guesses=budget)
    return out.solved


def restrict(
    rng: random.Random,
    K: int,
    k: int,
    clues: list[Clue],
    sol: list[list[int]],
    checker: ExactChecker,
    guessing: bool,
    budget: int | None = None,
) -> list[Clue]:
    """Drop clues (type 1 first, then the rest in random order) while the puzzle stays
    unique (SAT) and solvable by the engine.

    Fast path (no difficulty budget): restrict by SAT alone, then run the engine once on
    the result. Every kept clue is then SAT-necessary, so no clue the engine could spare
    is left; in practice the engine (with depth-1 refutation) solves every SAT-unique set
    it meets. Otherwise (or when it does not), each removal is checked by the engine
    with the guess ``budget`` of the target tier, and clues that are kept only for the
    engine's sake are then dropped while SAT uniqueness holds (the certificate demands
    that every clue is necessary; the tier is checked afterwards by the rating).
    """
    keys = {id(c): n for n, c in enumerate(clues)}
    ones = [c for c in clues if c.kind == "not"]
    rest = [c for c in clues if c.kind != "not"]
    rng.shuffle(ones)
    rng.shuffle(rest)
    order = ones + rest

    def unique(trial: list[Clue]) -> bool:
        return checker.other_solution_exists([keys[id(c)] for c in trial], sol) is False

    current = list(clues)
    if budget is None:
        for attempt in range(3):
            if attempt:
                rng.shuffle(ones)
                rng.shuffle(rest)
                order = ones + rest
            current = list(clues)
            for clue in order:
                trial = [c for c in current if c is not clue]
                if unique(trial):
                    current = trial
            if _engine_solves(K, k, current, guessing):
                return current
        if K * k > 36:
            # an engine check per removal is too slow on big grids: let the caller
            # reject this attempt (the rating reports that the engine cannot solve it)
            return current
        current = list(clues)
    for clue in order:
        trial = [c for c in current if c is not clue]
        if unique(trial) and _engine_solves(K, k, trial, guessing, budget):
            current = trial
    for clue in list(current):
        trial = [c for c in current if c is not clue]
        if unique(trial) and _engine_solves(K, k, trial, guessing):
            current = trial
    return current
