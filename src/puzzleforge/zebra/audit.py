"""Independent re-check of a stored zebra puzzle (used by ``Family.audit`` and tests).

Why separate from generation: a dataset line must be checkable on its own, by code paths
that did not produce it: the clue truth functions, a fresh SAT session and a fresh
deduction engine.
"""

from __future__ import annotations

from .engine import Engine
from .exact import ExactChecker
from .model import ZebraPuzzle

__all__ = ["audit_zebra"]


def audit_zebra(zp: ZebraPuzzle) -> list[str]:
    """Problems found (empty list = the puzzle is sound, unique, minimal and solvable)."""
    problems = []
    for clue in zp.clues:
        if not clue.holds(zp.solution):
            problems.append(f"clue {clue.cid} is false on the stored solution")
    checker = ExactChecker(zp.K, zp.k)
    try:
        keys = []
        for n, clue in enumerate(zp.clues):
            checker.add_clue(clue, n)
            keys.append(n)
        cert = checker.certify(keys, zp.solution)
    finally:
        checker.close()
    if not cert["unique"]:
        problems.append("the exact solver finds another solution")
    for clue, needed in zip(zp.clues, cert["necessary"], strict=True):
        if not needed:
            problems.append(f"clue {clue.cid} is not necessary")
    out = Engine(zp.K, zp.k, zp.clues).run(guessing=True)
    if not out.solved:
        problems.append("the deduction engine does not solve the puzzle")
    elif out.solution() != [list(r) for r in zp.solution]:
        problems.append("the deduction engine reaches a different solution")
    return problems
