"""Difficulty by construction (issue 22 item 1): move a clue set toward a tier with the
deduction engine in the loop, instead of regenerating until a rating happens to fit.

Why moves between *minimal* sets: the certificate demands that every clue is necessary
(removing any one leaves a second solution), and a random minimal set of a 6x6 grid
needs 20 or more refutations, so a tier below "expert" is rarely met by chance. The
moves keep the set unique and minimal and push the guessing score g one way:

* strengthen (g above the tier): the engine's refutations name cells plain deduction
  missed; a type-1 clue on such a cell (or one more exclusion on the type-1 clue of the
  same line) saves that refutation. Clues it makes unnecessary are then removed (SAT,
  one pass: removing clues only makes the others more necessary).
* weaken (g below the tier): drop one exclusion of a multi-exclusion type-1 clue, or
  replace a clue by a drawn clue of another kind that still rules out every other
  solution. A weaker clue that keeps the solution unique leaves every other clue
  necessary (each was necessary against the stronger one), so no clean-up is needed.

The start depends on the tier: easy and medium start from a set plain deduction solves
(restricted with the engine in the loop, then made minimal), hard and expert from a
SAT-minimal set. Every candidate is rated with the same seeded 5-run rating the record
reports, so the tier that stops the search is the tier the record states. Budgets count
moves and candidate sets (deduction work), never seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import Any

from .clues import Clue, NotClue
from .engine import Engine
from .exact import ExactChecker
from .tiers import TIER_BAND, below, rate, tier_of

__all__ = ["Builder", "distance", "REPAIR_CLUES", "REPAIR_ROUNDS"]

Cell = tuple[int, int, int, int]

#: Exclusions one repair may add before it gives up (each continues the stuck engine).
REPAIR_CLUES = 24
#: Repairs of a start set per attempt (a repaired set made minimal can be stuck again).
REPAIR_ROUNDS = 3
#: Exclusions added at once to the stuck engine (one sweep of refutations per batch).
REPAIR_BATCH = 3


def _merge(clues: list[Clue], k: int) -> list[Clue]:
    """Single-exclusion type-1 clues of one object towards one category joined into one
    clue (up to 3 exclusions, as drawn ones): the same information, so the set stays
    unique, every clue stays necessary (each part was) and the engine deduces the same;
    the text says "neither ... nor ..." once instead of two clues about one object."""
    room = min(3, k - 2)
    out: list[Clue] = []
    for clue in clues:
        if isinstance(clue, NotClue):
            for n, prev in enumerate(out):
                if (
                    isinstance(prev, NotClue)
                    and prev.obj == clue.obj
                    and prev.others[0][0] == clue.others[0][0]
                    and len(prev.others) + len(clue.others) <= room
                    and not set(prev.others) & set(clue.others)
                ):
                    others = tuple(sorted(prev.others + clue.others))
                    out[n] = NotClue(obj=clue.obj, others=others)
                    break
            else:
                out.append(clue)
        else:
            out.append(clue)
    return out


def distance(rating: dict[str, Any], tier: str) -> float:
    """How far a rating is from ``tier``'s band of g (0 inside; infinite if unsolved)."""
    if not rating.get("solved"):
        return math.inf
    g = float(rating["score"])
    if tier_of(g) == tier:
        return 0.0
    lo, hi = TIER_BAND[tier]
    if tier == "easy":
        return g + 0.05
    if tier == "medium" and g <= 0:
        # an easy set is a poor start for medium: weakening it jumps past the narrow band
        return 1.0
    if g <= lo:
        return lo - g + 0.05
    return g - hi + 0.05


class Builder:
    """One attempt's clue search: the hidden solution, its SAT session and the pool."""

    def __init__(
        self,
        rng: random.Random,
        K: int,
        k: int,
        sol: list[list[int]],
        checker: ExactChecker,
        pool: Sequence[Clue],
        drawer: Any,
        kinds: Sequence[str],
    ) -> None:
        self.rng, self.K, self.k, self.sol = rng, K, k, sol
        self.checker, self.drawer = checker, drawer
        self.kinds = [kd for kd in kinds if kd != "not"]
        self.keys: dict[int, int] = {}
        self.alive: list[Clue] = []  # keeps every keyed clue alive, so ids stay unique
        for n, clue in enumerate(pool):
            self.keys[id(clue)] = n
            self.alive.append(clue)
        self.pool = list(pool)
        self.rate_seed = rng.getrandbits(32)
        self.ratings = 0
        self.open = 0
        #: the last rating's engine when it could not solve the set: the repair and the
        #: strengthening move continue from it instead of solving the set again
        self._stuck: tuple[tuple[int, ...], Engine] | None = None

    # -- primitives ----------------------------------------------------------------------
    def key(self, clue: Clue) -> int:
        n = self.keys.get(id(clue))
        if n is None:
            n = len(self.alive)
            self.checker.add_clue(clue, n)
            self.keys[id(clue)] = n
            self.alive.append(clue)
        return n

    def unique(self, clues: Sequence[Clue]) -> bool:
        return self.checker.other_solution_exists([self.key(c) for c in clues], self.sol) is False

    def minimal(self, clues: Sequence[Clue], keep: Sequence[Clue] = ()) -> list[Clue]:
        """One removal pass (type-1 first, then the rest, ``keep`` last): a minimal set."""
        kept = {id(c) for c in keep}
        ones = [c for c in clues if c.kind == "not" and id(c) not in kept]
        rest = [c for c in clues if c.kind != "not" and id(c) not in kept]
        self.rng.shuffle(ones)
        self.rng.shuffle(rest)
        current = list(clues)
        for clue in ones + rest + [c for c in clues if id(c) in kept]:
            trial = [c for c in current if c is not clue]
            if self.unique(trial):
                current = trial
        return current

    def restrict_plain(self, clues: Sequence[Clue]) -> list[Clue]:
        """Remove clues while the set stays unique and plain deduction (no refutation)
        still solves it; the result may keep clues only the engine needs."""
        order = list(clues)
        self.rng.shuffle(order)
        current = list(clues)
        for clue in order:
            trial = [c for c in current if c is not clue]
            if self.unique(trial) and Engine(self.K, self.k, trial).run(guessing=False).solved:
                current = trial
        return current

    def rate(self, clues: Sequence[Clue], tier: str) -> dict[str, Any]:
        """The record's rating (same seed every time), cut short once the mean is sure
        to be above ``tier``'s band; ``self.open`` gets the cells plain deduction leaves
        open (measured on the rating's shared start, no extra solve)."""
        self.ratings += 1
        hi = TIER_BAND[tier][1]
        probe: dict[str, Any] = {}
        out = rate(
            self.K,
            self.k,
            clues,
            random.Random(self.rate_seed),
            above=None if math.isinf(hi) else hi,
            probe=probe,
        )
        self.open = int(probe["open"])
        eng = probe.get("engine")
        self._stuck = None if eng is None else (tuple(id(c) for c in clues), eng)
        return out

    def stuck(self, clues: Sequence[Clue]) -> Engine | None:
        """The engine the last rating left stuck, if that rating was of ``clues``
        (handed over once: the repair continues it with more clues)."""
        if self._stuck is None or self._stuck[0] != tuple(id(c) for c in clues):
            return None
        eng, self._stuck = self._stuck[1], None
        return eng

    # -- moves ---------------------------------------------------------------------------
    def _false(self, cell: Cell) -> bool:
        c1, i1, c2, i2 = cell
        e = self.sol[c1].index(i1)
        return self.sol[c2][e] != i2

    def _exclude(self, clues: list[Clue], cell: Cell) -> tuple[list[Clue], Clue]:
        """``clues`` plus the exclusion of ``cell``: one more exclusion on a type-1 clue
        of the same line when one has room, else a new type-1 clue."""
        c1, i1, c2, i2 = cell
        room = min(3, self.k - 2)
        for n, clue in enumerate(clues):
            if not isinstance(clue, NotClue) or len(clue.others) >= room:
                continue
            for obj, other in (((c1, i1), (c2, i2)), ((c2, i2), (c1, i1))):
                if clue.obj == obj and clue.others[0][0] == other[0] and other not in clue.others:
                    merged = NotClue(obj=obj, others=tuple(sorted(clue.others + (other,))))
                    return clues[:n] + [merged] + clues[n + 1 :], merged
        if self.rng.random() < 0.5:
            c1, i1, c2, i2 = c2, i2, c1, i1
        new = NotClue(obj=(c1, i1), others=((c2, i2),))
        return clues + [new], new

    def stronger(self, clues: list[Clue], rating: dict[str, Any]) -> Iterator[list[Clue]]:
        """Candidate sets that need fewer refutations: a clue replaced by exclusions.

        The victim's information is restored by type-1 exclusions, each ruling out the
        next other solution the SAT session finds, preferring cells the engine had to
        refute (plain deduction missed them); clues they make unnecessary are removed.
        An exclusion added to a minimal set alone would be unnecessary itself."""
        eng = None if rating.get("solved") else self.stuck(clues)
        if eng is None:
            # (a set the rating found stuck: its engine's refutations, not a second
            # failing solve of seconds at 8x8)
            eng = Engine(self.K, self.k, clues)
            eng.run(guessing=True, rng=random.Random(self.rate_seed))
        wanted = set(eng.refuted)
        victims = list(clues)
        self.rng.shuffle(victims)
        # clues of other kinds first: they are what makes a set need refutations
        victims.sort(key=lambda c: c.kind == "not")
        for n, victim in enumerate(victims):
            # every other candidate takes any separating cell: a smaller step, for when
            # saving the engine's refutations overshoots a narrow band
            prefer = wanted if n % 2 == 0 else set()
            trial = [c for c in clues if c is not victim]
            added: list[Clue] = []
            for _ in range(8):
                others = [
                    s
                    for s in self.checker.solutions([self.key(c) for c in trial], limit=2)
                    if s != self.sol
                ]
                if not others:
                    break
                cells = self._separating(others[0])
                pick = [c for c in cells if c in prefer] or cells
                trial, new = self._exclude(trial, self.rng.choice(pick))
                added = [a for a in added if any(a is c for c in trial)] + [new]
            else:
                continue
            yield self.minimal(trial, keep=added)

    def _separating(self, other: list[list[int]]) -> list[Cell]:
        """Cells paired in ``other`` but not in the hidden solution."""
        out = []
        for c1 in range(self.K):
            for c2 in range(c1 + 1, self.K):
                for e in range(self.k):
                    i1, i2 = other[c1][e], other[c2][e]
                    if self._false((c1, i1, c2, i2)):
                        out.append((c1, i1, c2, i2))
        return out

    def weaker(self, clues: list[Clue]) -> Iterator[list[Clue]]:
        """Candidate sets that need more refutations (still unique and minimal)."""
        multi = [c for c in clues if isinstance(c, NotClue) and len(c.others) > 1]
        self.rng.shuffle(multi)
        for clue in multi:
            drop = self.rng.choice(clue.others)
            weak = NotClue(obj=clue.obj, others=tuple(o for o in clue.others if o != drop))
            trial = [weak if c is clue else c for c in clues]
            if self.unique(trial):
                yield trial
        if not self.kinds:
            return
        victims = list(clues)
        self.rng.shuffle(victims)
        for victim in victims[:4]:
            rest = [c for c in clues if c is not victim]
            others = self.checker.solutions([self.key(c) for c in rest], limit=4)
            others = [s for s in others if s != self.sol]
            used = {id(c) for c in clues}
            spare = [c for c in self.pool if id(c) not in used and c.kind != "not"]
            self.rng.shuffle(spare)
            drawn = [self.drawer.draw(self.rng.choice(self.kinds)) for _ in range(30)]
            for cand in spare + [d for d in drawn if d is not None]:
                if any(cand.holds(s) for s in others):
                    continue
                trial = rest + [cand]
                if self.unique(trial):
                    yield self.minimal(trial, keep=[cand])
                    break

    def repair(self, clues: list[Clue], eng: Engine | None = None) -> list[Clue] | None:
        """A minimal set the engine gets further with, from a unique set it cannot solve.

        Why: a SAT-minimal set of a big grid (8x8) often needs more than depth-1
        refutation; moving from it by rating candidates costs a full failing solve per
        candidate. Here one engine runs to the point where it is stuck, and a type-1
        exclusion of a cell still open there (false in the hidden solution) joins the
        *running* engine (``Engine.add_clue``), which continues from that point instead
        of solving again from an empty grid; repeated until it solves. Every added
        exclusion is implied by the unique set, so the set is then made minimal again
        with the exclusions removed last (they take the place of the clues they make
        unnecessary). None when ``REPAIR_CLUES`` exclusions do not get the engine there
        (a count, never seconds).

        ``eng``: the rating's engine, already stuck on ``clues`` (``rate`` stops at the
        first failing solve and hands it over), so the set is not solved a second time
        only to get stuck at the same place: depth-1 refutation reaches the same
        fixpoint in any order (every deduction is monotone), so the stuck grid, the cells
        picked there and the repaired set are the ones a fresh solve gives."""
        if eng is None:
            eng = Engine(self.K, self.k, clues)
            out = eng.run(guessing=True, rng=random.Random(self.rate_seed))
            solved, contradictory = out.solved, out.contradictory
        else:
            solved = contradictory = False
        added: list[Clue] = []
        while not solved:
            if contradictory or len(added) >= REPAIR_CLUES:
                return None
            for c1, i1, c2, i2 in self._stuck_cells(eng, REPAIR_BATCH):
                if self.rng.random() < 0.5:
                    c1, i1, c2, i2 = c2, i2, c1, i1
                new = NotClue(obj=(c1, i1), others=((c2, i2),))
                eng.add_clue(new)
                added.append(new)
            out = eng.run(guessing=True, rng=random.Random(self.rate_seed))
            solved, contradictory = out.solved, out.contradictory
        merged = _merge(self.minimal(list(clues) + added, keep=added), self.k)
        for clue in merged:
            self.key(clue)  # a joined clue is certified under its own selector
        return merged

    def _stuck_cells(self, eng: Engine, n: int) -> list[Cell]:
        """Up to ``n`` open cells (false in the hidden solution, one per line) where the
        engine is stuck, from the lines with the fewest options left: excluding one
        there comes closest to a pairing (rule 2), which rules 1, 3 and 4 spread, so a
        sweep of refutations (the costly part at 8x8) buys the most progress."""
        g = eng.g
        cells = [c for c in g.unknown_cells() if self._false(c)]
        self.rng.shuffle(cells)

        def options(cell: Cell) -> int:
            c1, i1, c2, i2 = cell
            return min(g.row(c1, i1, c2).bit_count(), g.row(c2, i2, c1).bit_count())

        cells.sort(key=options)
        out: list[Cell] = []
        lines: set[tuple[int, int, int]] = set()
        for c1, i1, c2, i2 in cells:
            if (c1, i1, c2) in lines or (c2, i2, c1) in lines:
                continue
            lines.update({(c1, i1, c2), (c2, i2, c1)})
            out.append((c1, i1, c2, i2))
            if len(out) == n:
                break
        return out

    # -- the search ----------------------------------------------------------------------
    def _key(self, rating: dict[str, Any], tier: str) -> tuple[float, int]:
        """What the search lowers: the distance to the band (whole units: a rating cut
        short only bounds it), then the cells plain deduction leaves open (the finer
        signal while the set is too hard), read from the last rating."""
        d = distance(rating, tier)
        if d == 0:
            return (0.0, 0)
        if rating.get("solved") and below(rating["score"], tier):
            if tier == "medium":
                # an easy set is a poor stop on the way to the narrow medium band: a set
                # a little too hard is closer (weakening an easy set mostly jumps past)
                return (2.0, 0)
            return (d, 0)
        bucket = d if math.isinf(d) else float(math.ceil(d))
        return (bucket, self.open)

    def build(
        self, tier: str, max_moves: int, tries: int = 6
    ) -> tuple[list[Clue] | None, dict[str, Any], dict[str, int]]:
        """Move from a tier-dependent start toward ``tier``; the first set rated inside
        the tier, or None when ``max_moves`` moves (each at most ``tries`` candidate
        sets) do not get there. Also returns counters of the work done."""
        if tier in ("easy", "medium"):
            start = self.minimal(self.restrict_plain(self.pool))
        else:
            start = self.minimal(self.pool)
        current, rating = start, self.rate(start, tier)
        repairs = 0
        while not rating.get("solved") and repairs < REPAIR_ROUNDS:
            # the engine cannot solve the start: repair it (one incremental solve and a
            # minimal pass) instead of rating candidate moves from an unsolvable set
            repairs += 1
            fixed = self.repair(current, self.stuck(current))
            if fixed is None:
                break
            current, rating = fixed, self.rate(fixed, tier)
        key = self._key(rating, tier)
        moves = 0
        while key[0] > 0 and moves < max_moves:
            moves += 1
            too_easy = bool(rating.get("solved")) and below(rating["score"], tier)
            cands = self.weaker(current) if too_easy else self.stronger(current, rating)
            best: tuple[tuple[float, int], list[Clue], dict[str, Any]] | None = None
            for n, cand in enumerate(cands):
                # ``tries`` candidates a move; twice that before a move is given up
                if n >= tries * (1 if best is not None else 2):
                    break
                r = self.rate(cand, tier)
                ck = self._key(r, tier)
                if ck < key and (best is None or ck < best[0]):
                    best = (ck, cand, r)
                    if ck[0] == 0 or ck[0] < key[0] * 0.8:
                        break
            if best is None:
                break
            key, current, rating = best
        dist = key[0]
        work = {"moves": moves, "ratings": self.ratings, "repairs": repairs}
        return (current if dist == 0 else None), rating, work
