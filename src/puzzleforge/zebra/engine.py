"""Human-style deduction engine: conciliation rules 1-5, clue propagation and depth-1
refutation ("guessing"), each step recorded with its reason.

Why this order: like Tatham's solvers, the cheapest technique runs first and any progress
restarts from the cheapest, so an explanation uses the simplest reason available and the
guessing count (seeds/003's difficulty) only counts what plain deduction cannot reach.

Rules (seeds/003, 2.1.7-2.1.11), applied to every box of the grid:

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
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Sequence

from .clues import Clue
from .grid import NO, YES, Contradiction, Grid, norm_cell

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
        return [list(range(g.k))] + [[g.partner(0, e, c) for e in range(g.k)]
                                     for c in range(1, g.K)]


def _bits(mask: int) -> list[int]:
    out, v = [], 0
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


class Engine:
    """Deduction over one grid. ``explain=True`` records every step (slower)."""

    def __init__(self, K: int, k: int, clues: Sequence[Clue], *, explain: bool = False,
                 use_rule5: bool = True) -> None:
        self.K, self.k = K, k
        self.clues = list(clues)
        self.g = Grid(K, k)
        self.explain = explain
        self.use_rule5 = use_rule5
        self.steps: list[dict[str, Any]] = []
        self.step_count = 0
        self._watch = [c.watched_rows(K, k) for c in self.clues]
        self._sigs: list[tuple | None] = [None] * len(self.clues)
        if explain:
            self.g.log = []

    def add_clue(self, clue: Clue) -> None:
        """Add a clue to a running engine (the generator adds clues one by one)."""
        self.clues.append(clue)
        self._watch.append(clue.watched_rows(self.K, self.k))
        self._sigs.append(None)

    # -- step recording ----------------------------------------------------------------
    def _open(self) -> None:
        if self.g.log is not None:
            self.g.log.append([])

    def _close(self, rule: str, clues: Sequence[int], used: Sequence[tuple[str, Any]]) -> None:
        g = self.g
        if g.log is None:
            return
        marks = g.log.pop()
        if not marks:
            return
        self.steps.append({
            "rule": rule,
            "clues": list(clues),
            "used": [{"cell": list(c), "mark": m} for m, c in used],
            "marks": [{"cell": list(c), "mark": m} for m, c in marks],
        })

    def _apply(self, rule: str, clues: Sequence[int], used: Sequence[tuple[str, Any]], fn,
               *args) -> bool:
        """Run one deduction as one step; True when it changed the grid."""
        before = len(self.g.trail)
        if self.g.log is None:
            fn(*args)
            changed = len(self.g.trail) != before
            if changed:
                self.step_count += 1
            return changed
        self._open()
        try:
            fn(*args)
        finally:
            self._close(rule, clues, used)
        changed = len(self.g.trail) != before
        if changed:
            self.step_count += 1
        return changed

    # -- rules -------------------------------------------------------------------------
    def _rule1(self) -> bool:
        g = self.g
        changed = False
        while g.pending:
            c1, i1, c2, i2 = g.pending.pop()
            used = [("o", norm_cell(c1, i1, c2, i2))]

            def cross(c1=c1, i1=i1, c2=c2, i2=i2) -> None:
                for j in _bits(g.row(c1, i1, c2) & ~(1 << i2)):
                    g.exclude(c1, i1, c2, j)
                for j in _bits(g.row(c2, i2, c1) & ~(1 << i1)):
                    g.exclude(c2, i2, c1, j)
            changed |= self._apply("rule1", (), used, cross)
        return changed

    def _rule2(self) -> bool:
        g, K, k = self.g, self.K, self.k
        single = g.single
        while single:
            idx = single.pop()
            m = g.cand[idx]
            if g.yes[idx] >= 0 or not m or m & (m - 1):
                continue
            c1, rest = divmod(idx, K * k)
            c2, i = divmod(rest, k)
            j = m.bit_length() - 1
            used = ([("x", norm_cell(c1, i, c2, x)) for x in range(k) if x != j]
                    if g.log is not None else ())
            self._apply("rule2", (), used, g.confirm, c1, i, c2, j)
            return True
        return False

    def _rule3(self) -> bool:
        g, K, k = self.g, self.K, self.k
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                base = (c1 * K + c2) * k
                for i in range(k):
                    j = g.yes[base + i]
                    if j < 0:
                        continue
                    for c3 in range(K):
                        if c3 == c1 or c3 == c2:
                            continue
                        a, b = g.row(c1, i, c3), g.row(c2, j, c3)
                        if a == b:
                            continue
                        both = a & b
                        used = []
                        if g.log is not None:
                            used = [("o", (c1, i, c2, j))]
                            used += [("x", norm_cell(c1, i, c3, v)) for v in _bits(b & ~a)]
                            used += [("x", norm_cell(c2, j, c3, v)) for v in _bits(a & ~b)]

                        def share(c1=c1, i=i, c2=c2, j=j, c3=c3, a=a, b=b, both=both) -> None:
                            for v in _bits(a & ~both):
                                g.exclude(c1, i, c3, v)
                            for v in _bits(b & ~both):
                                g.exclude(c2, j, c3, v)
                        self._apply("rule3", (), used, share)
                        return True
        return False

    def _rule4(self) -> bool:
        """Object i of c1 can only pair with objects j of c2 that share an option in
        c3: row(c1,i,c2) must lie within OR_{v in row(c1,i,c3)} row(c3,v,c2)."""
        g, K, k = self.g, self.K, self.k
        cand, yes = g.cand, g.yes
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                base = (c1 * K + c2) * k
                for i in range(k):
                    if yes[base + i] >= 0:
                        continue
                    row = cand[base + i]
                    for c3 in range(K):
                        if c3 == c1 or c3 == c2:
                            continue
                        a = cand[(c1 * K + c3) * k + i]
                        allowed = 0
                        v = 0
                        base3 = (c3 * K + c2) * k
                        while a:
                            if a & 1:
                                allowed |= cand[base3 + v]
                            a >>= 1
                            v += 1
                        lost = row & ~allowed
                        if not lost:
                            continue
                        j = (lost & -lost).bit_length() - 1
                        used = []
                        if g.log is not None:
                            ra, rb = g.row(c1, i, c3), g.row(c2, j, c3)
                            used = [("x", norm_cell(c1, i, c3, v)) for v in _bits(~ra & g.full)]
                            used += [("x", norm_cell(c2, j, c3, v)) for v in _bits(~rb & g.full)]
                        self._apply("rule4", (), used, g.exclude, c1, i, c2, j)
                        return True
        return False

    def _rule5(self) -> bool:
        g, K, k = self.g, self.K, self.k
        for c1 in range(K):
            for c2 in range(K):
                if c1 == c2:
                    continue
                base = (c1 * K + c2) * k
                rows = [(i, g.cand[base + i]) for i in range(k) if g.yes[base + i] < 0]
                if len(rows) < 4:
                    continue
                for n in (2, 3):
                    small = [(i, m) for i, m in rows if bin(m).count("1") <= n]
                    if len(small) < n:
                        continue
                    for group in combinations(small, n):
                        union = 0
                        for _, m in group:
                            union |= m
                        if bin(union).count("1") != n:
                            continue
                        members = {i for i, _ in group}
                        victims = [(i, m) for i, m in rows if i not in members and m & union]
                        if not victims:
                            continue
                        used = []
                        if g.log is not None:
                            used = [("x", norm_cell(c1, i, c2, v)) for i in members
                                    for v in _bits(~g.cand[base + i] & g.full)]

                        def take(victims=victims, union=union, c1=c1, c2=c2) -> None:
                            for i, m in victims:
                                for v in _bits(m & union):
                                    g.exclude(c1, i, c2, v)
                        self._apply("rule5", (), used, take)
                        return True
        return False

    def _clues(self) -> bool:
        """Propagate every clue whose watched rows changed since it last ran."""
        g = self.g
        cand, yes = g.cand, g.yes
        sigs = self._sigs
        changed = False
        for n, clue in enumerate(self.clues):
            rows = self._watch[n]
            sig = tuple(cand[r] for r in rows) + tuple(yes[r] for r in rows)
            if sigs[n] == sig:
                continue
            if g.log is not None:
                used = clue.used_cells(g)
                did = self._apply("clue", (clue.cid,), used, clue.propagate, g)
            else:
                before = len(g.trail)
                clue.propagate(g)
                did = len(g.trail) != before
                if did:
                    self.step_count += 1
            sigs[n] = tuple(cand[r] for r in rows) + tuple(yes[r] for r in rows)
            changed |= did
            if g.pending or g.single:
                return True
        return changed

    # -- driving -----------------------------------------------------------------------
    def propagate(self) -> None:
        """Run rules and clues to a fixpoint (raises Contradiction)."""
        rules = [self._rule1, self._rule2, self._clues, self._rule3, self._rule4]
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
        try:
            g.confirm(*cell)
            if g.log is not None:
                g.log.pop()
            self.propagate()
            refuted = False
        except Contradiction:
            refuted = True
            if g.log is not None:
                while len(g.log) > 0:
                    g.log.pop()
        chain = self.steps[saved_steps:]
        del self.steps[saved_steps:]
        self.step_count = saved_count
        g.undo(pos)
        return refuted, chain

    def run(self, *, guessing: bool = True, rng: random.Random | None = None,
            max_guess_cells: int | None = None) -> SolveOutcome:
        """Solve as far as the rules (and guessing, when allowed) reach."""
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
                for cell in cells:
                    if g.state(*cell) != 0:
                        continue
                    refuted, chain = self.refute(cell)
                    if not refuted:
                        continue
                    guesses += 1
                    progress = True
                    if g.log is not None:
                        g.log.append([])
                        try:
                            g.exclude(*cell)
                        finally:
                            marks = g.log.pop()
                            self.steps.append({
                                "rule": "guess", "clues": sorted({c for s in chain
                                                                  for c in s["clues"]}),
                                "used": [], "assumed": {"cell": list(cell), "mark": "o"},
                                "chain": [{"rule": s["rule"], "clues": s["clues"],
                                           "marks": s["marks"]} for s in chain],
                                "marks": [{"cell": list(c), "mark": m} for m, c in marks]})
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


def solve(K: int, k: int, clues: Sequence[Clue], *, explain: bool = False,
          guessing: bool = True, rng: random.Random | None = None,
          max_guess_cells: int | None = None) -> SolveOutcome:
    """Solve a puzzle from an empty grid with the deduction engine."""
    return Engine(K, k, clues, explain=explain).run(guessing=guessing, rng=rng,
                                                    max_guess_cells=max_guess_cells)
