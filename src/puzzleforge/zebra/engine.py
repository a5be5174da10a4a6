"""Human-style deduction engine: conciliation rules 1-5, clue propagation and depth-1
refutation ("guessing"), each step recorded with its reason.

Why this order: like Tatham's solvers, the cheapest technique runs first and any progress
restarts from the cheapest, so an explanation uses the simplest reason available and the
guessing count (seeds/003's difficulty) only counts what plain deduction cannot reach.

Rules (seeds/003, 2.1.7-2.1.11, in conciliation.py; steps are recorded by steplog.py),
applied to every box of the grid:

* rule1: a ● crosses out the rest of its row and column;
* rule2: the last open cell of a row or column gets a ●;
* rule3: paired objects share their X's towards every third category;
* rule4: two objects whose lines towards a third category exclude each other's every
  option cannot be paired;
* rule5: n rows of a box confined to the same n columns (n = 2, 3) remove those
  columns from every other row (and the same for columns).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .clues import Clue
from .conciliation import ConciliationRules
from .grid import Contradiction, Grid
from .steplog import marks_json

__all__ = ["SolveOutcome", "Engine", "solve", "RULES"]

RULES = {
    "rule1": "a pairing (●) crosses out the rest of its row and column",
    "rule2": "the only open cell left in a line must be the pairing",
    "rule3": "paired objects share their exclusions with every other category",
    "rule4": "two objects whose options in a third category exclude each other cannot be paired",
    "rule5": "n lines confined to the same n cells take those cells from every other line",
    "clue": "a clue restricts the cells it speaks about",
    "guess": "assuming a pairing leads to a contradiction, so it is excluded",
}


@dataclass
class SolveOutcome:
    """Result of a solve: ``solved`` (grid complete), ``contradictory``, the number of
    refutations (``guesses``), the number of recorded steps and the steps themselves."""

    solved: bool
    contradictory: bool
    guesses: int
    step_count: int
    steps: list[dict[str, Any]] = field(default_factory=list)
    grid: Grid | None = None

    def solution(self) -> list[list[int]] | None:
        """sol[c][e] read from a complete grid."""
        if not self.solved or self.grid is None:
            return None
        g = self.grid
        return [list(range(g.k))] + [
            [g.partner(0, e, c) for e in range(g.k)] for c in range(1, g.K)
        ]


class Engine(ConciliationRules):
    """Deduction over one grid. ``explain=True`` records every step (slower)."""

    def __init__(
        self,
        K: int,
        k: int,
        clues: Sequence[Clue],
        *,
        explain: bool = False,
        use_rule5: bool = True,
    ) -> None:
        self.K, self.k = K, k
        self.clues = list(clues)
        self.g = Grid(K, k)
        self.explain = explain
        self.use_rule5 = use_rule5
        self.steps: list[dict[str, Any]] = []
        self.step_count = 0
        self._watchers: dict[int, list[int]] = {}
        for n, clue in enumerate(self.clues):
            for row in set(clue.watched_rows(K, k)):
                self._watchers.setdefault(row, []).append(n)
        self._dirty: set[int] = set(range(len(self.clues)))
        self._seen = 0
        self._cursor = {"r4": 0, "r5": 0}
        self.implied: list[tuple[int, int, int, int]] = []
        #: the failed deduction of the last refuted hypothesis (explain mode)
        self.conflict: dict[str, Any] | None = None
        #: cells excluded by refutation, in the order ``run`` found them (the generator
        #: turns them into clues when it builds an easier puzzle, construct.py)
        self.refuted: list[tuple[int, int, int, int]] = []
        if explain:
            self.g.log = []

    def add_clue(self, clue: Clue) -> None:
        """Add a clue to a running engine (the generator adds clues one by one)."""
        n = len(self.clues)
        self.clues.append(clue)
        for row in set(clue.watched_rows(self.K, self.k)):
            self._watchers.setdefault(row, []).append(n)
        self._dirty.add(n)

    def _scan_trail(self) -> None:
        """Mark dirty every clue watching a row written since the last scan."""
        trail = self.g.trail
        n = len(trail)
        if self._seen < n:
            watchers, dirty = self._watchers, self._dirty
            for idx, _, _ in trail[self._seen :]:
                w = watchers.get(idx)
                if w:
                    dirty.update(w)
        self._seen = n

    def _clues(self) -> bool:
        """Propagate every clue whose watched rows changed since it last ran."""
        g = self.g
        self._scan_trail()
        if not self._dirty:
            return False
        batch = sorted(self._dirty)
        self._dirty.clear()
        changed = False
        for n in batch:
            clue = self.clues[n]
            if g.log is not None:
                did = self._apply("clue", (clue.cid,), clue.used_cells(g), clue.propagate, g)
            else:
                before = len(g.trail)
                clue.propagate(g)
                did = len(g.trail) != before
                if did:
                    self.step_count += 1
            changed |= did
        return changed

    # -- driving -----------------------------------------------------------------------
    def propagate(self) -> None:
        """Run rules and clues to a fixpoint (raises Contradiction)."""
        rules = [self._rule1, self._rule2, self._clues, self._rule4]
        if self.use_rule5:
            rules.append(self._rule5)
        while True:
            for rule in rules:
                if rule():
                    break
            else:
                return

    def refute(self, cell: tuple[int, int, int, int]) -> tuple[bool, list[dict[str, Any]]]:
        """Depth-1 hypothesis: assume a ● at ``cell``; True if that is contradictory.
        The grid is restored either way."""
        g = self.g
        pos = g.mark()
        saved_steps = len(self.steps)
        saved_count = self.step_count
        if g.log is not None:
            g.log.append([])
        self.conflict = None
        try:
            g.confirm(*cell)
            if g.log is not None:
                g.log.pop()
            self.propagate()
            refuted = False
        except Contradiction as exc:
            refuted = True
            active = getattr(exc, "active", None) or {}
            if active:
                active = dict(
                    active,
                    step=(None if active.get("step") is None else active["step"] - saved_steps),
                )
            self.conflict = dict(active, cells=marks_json(exc.cells))
            if g.log is not None:
                while len(g.log) > 0:
                    g.log.pop()
        chain = self.steps[saved_steps:]
        del self.steps[saved_steps:]
        self.step_count = saved_count
        self.implied = []
        if not refuted:
            # every ● of a consistent hypothesis is itself consistent now (its closure is
            # contained in this one), so the sweep need not try those cells again
            K, k, yes = self.K, self.k, g.yes
            for idx, _, old_yes in g.trail[pos:]:
                if old_yes < 0 and yes[idx] >= 0:
                    c1, rest = divmod(idx, K * k)
                    c2, i = divmod(rest, k)
                    if c1 < c2:
                        self.implied.append((c1, i, c2, yes[idx]))
        g.undo(pos)
        # the state at ``pos`` was a fixpoint: nothing is dirty there
        self._dirty.clear()
        self._seen = len(g.trail)
        self._cursor = {"r4": self._seen, "r5": self._seen}
        return refuted, chain

    def restart(self, position: int, step_count: int) -> None:
        """Return to a fixpoint reached earlier (trail ``position``, ``step_count`` steps
        done): the rating's five randomised solves share their plain-deduction start
        instead of propagating it five times (tiers.rate). Only valid for a position
        where ``propagate`` had finished, so nothing is dirty there."""
        self.g.undo(position)
        self._dirty.clear()
        self._seen = len(self.g.trail)
        self._cursor = {"r4": self._seen, "r5": self._seen}
        self.step_count = step_count
        self.refuted = []
        self.implied = []
        del self.steps[:]

    def run(
        self,
        *,
        guessing: bool = True,
        rng: random.Random | None = None,
        max_guess_cells: int | None = None,
        max_guesses: int | None = None,
    ) -> SolveOutcome:
        """Solve as far as the rules (and guessing, when allowed) reach; with
        ``max_guesses`` the solve gives up after that many refutations."""
        g = self.g
        guesses = 0
        try:
            self.propagate()
            while guessing and not g.is_complete():
                cells = list(g.unknown_cells())
                if rng is not None:
                    boxes = sorted({(c[0], c[2]) for c in cells})
                    rng.shuffle(boxes)
                    rank = {b: n for n, b in enumerate(boxes)}
                    cells.sort(key=lambda c: rank[(c[0], c[2])])
                if max_guess_cells is not None:
                    cells = cells[:max_guess_cells]
                progress = False
                consistent: set[tuple[int, int, int, int]] = set()
                for cell in cells:
                    if g.state(*cell) != 0 or cell in consistent:
                        continue
                    if max_guesses is not None and guesses >= max_guesses:
                        return SolveOutcome(False, False, guesses, self.step_count, self.steps, g)
                    refuted, chain = self.refute(cell)
                    if not refuted:
                        consistent.update(self.implied)
                        continue
                    consistent.clear()
                    guesses += 1
                    self.refuted.append(cell)
                    progress = True
                    if g.log is not None:
                        g.log.append([])
                        try:
                            g.exclude(*cell)
                        finally:
                            marks = g.log.pop()
                            self.steps.append(self._guess_step(cell, chain, self.conflict, marks))
                    else:
                        g.exclude(*cell)
                    self.step_count += 1
                    self.propagate()
                    if g.is_complete():
                        break
                if not progress:
                    break
        except Contradiction:
            return SolveOutcome(False, True, guesses, self.step_count, self.steps, g)
        return SolveOutcome(g.is_complete(), False, guesses, self.step_count, self.steps, g)


def solve(
    K: int,
    k: int,
    clues: Sequence[Clue],
    *,
    explain: bool = False,
    guessing: bool = True,
    rng: random.Random | None = None,
    max_guess_cells: int | None = None,
) -> SolveOutcome:
    """Solve a puzzle from an empty grid with the deduction engine."""
    return Engine(K, k, clues, explain=explain).run(
        guessing=guessing, rng=rng, max_guess_cells=max_guess_cells
    )
