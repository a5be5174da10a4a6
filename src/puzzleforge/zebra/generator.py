"""Banecki's generation pipeline (seeds/003, 1.2 and 2.1.37-2.1.41), rebuilt fast and
certified.

Pipeline per attempt: draw categories; draw a hidden solution; draw ceil(k*K/2.3)
non-type-1 clues (each true on the hidden solution, none "forbidden" by the critical
squares of another); add type-1 clues until the deduction engine solves the grid; restrict
the clue list (type-1 clues first, then the rest in random order) keeping only what the
engine and the exact solver both need; rate the difficulty over 5 randomised solves;
certify uniqueness and necessity of every clue with SAT.

Why a hidden solution: the reference draws clues blind and starts over when they
contradict each other; drawing clues true on a fixed solution never contradicts, so the
"retry" branch only runs when the 100 type-1 clues (or the difficulty target) are not met.
Why SAT before the engine while restricting: "is the puzzle still unique without this
clue?" is one incremental SAT call; the (slower) engine only runs when SAT says yes, and
together they guarantee every kept clue is necessary.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ..core.errors import ConfigError, GenerationFailed
from .categories import Category, draw_categories, weighted_choice
from .clues import (
    POS_RELATIONS,
    ZEBRALOGIC_RELATIONS,
    Clue,
    EitherClue,
    GroupClue,
    IfThenClue,
    NotClue,
    OrderClue,
    PairClue,
    atoms_compatible,
    make_order_clue,
)
from .engine import Engine
from .exact import ExactChecker
from .grid import Contradiction, Grid
from .model import ZebraPuzzle
from .tiers import TIERS, rate, tier_of, unreachable

__all__ = ["generate_puzzle", "CLUE_KINDS", "TIERS", "tier_of", "rate", "STYLES"]

#: Output styles: puzzleforge's own categories and text, or ZebraLogic's houses.
STYLES = ("native", "zebralogic")

#: Non-type-1 clue kinds a user can mix (type 1 is always used to finish).
CLUE_KINDS = ("chain", "arith", "ifthen", "either", "nextto", "pos", "group")


class _Drawer:
    """Draws clues true on the hidden solution."""

    def __init__(
        self,
        rng: random.Random,
        cats: list[Category],
        sol: list[list[int]],
        K: int,
        k: int,
        lang: str = "en",
        relations: Sequence[str] = tuple(sorted(POS_RELATIONS)),
    ) -> None:
        self.rng, self.cats, self.sol, self.K, self.k = rng, cats, sol, K, k
        self.lang = lang
        self.relations = list(relations)
        self.ordered = [c for c in range(K) if cats[c].ordered]
        self.numeric = {c: cats[c].fractions() for c in range(K) if cats[c].kind == "numerical"}
        self.arith = [c for c in self.numeric if cats[c].relations]
        self.grouped = [c for c in range(K) if len(set(cats[c].groups)) > 1]

    def obj(self, entity: int, cat: int) -> tuple[int, int]:
        return (cat, self.sol[cat][entity])

    def rep(self, entity: int, avoid: int = -1) -> tuple[int, int]:
        """A random object of ``entity`` from a category other than ``avoid``."""
        cats = [c for c in range(self.K) if c != avoid]
        return self.obj(entity, self.rng.choice(cats))

    def position(self, entity: int, cat: int) -> int:
        return self.sol[cat][entity]

    def atom(self, truth: bool) -> tuple[tuple[int, int], tuple[int, int]]:
        rng, K, k = self.rng, self.K, self.k
        c1, c2 = sorted(rng.sample(range(K), 2))
        e1 = rng.randrange(k)
        e2 = e1 if truth else rng.choice([e for e in range(k) if e != e1])
        return (self.obj(e1, c1), self.obj(e2, c2))

    def atom_in_box(self, box: tuple[int, int], truth: bool):
        rng, k = self.rng, self.k
        c1, c2 = box
        e1 = rng.randrange(k)
        e2 = e1 if truth else rng.choice([e for e in range(k) if e != e1])
        return (self.obj(e1, c1), self.obj(e2, c2))

    def draw(self, kind: str) -> Clue | None:
        rng, K, k = self.rng, self.K, self.k
        if kind == "not":
            c1, c2 = rng.sample(range(K), 2)
            e = rng.randrange(k)
            n = weighted_choice(rng, [1, 2, 3], [80, 15, 5])
            n = max(1, min(n, k - 2))
            wrong = [j for j in range(k) if j != self.sol[c2][e]]
            others = sorted(rng.sample(wrong, n))
            return NotClue(obj=self.obj(e, c1), others=tuple((c2, j) for j in others))
        if kind in ("chain", "nextto", "pos"):
            if not self.ordered:
                return None
            cat = rng.choice(self.ordered)
            rel = kind
            if kind == "pos":
                rel = rng.choice(self.relations)
            probe = make_order_clue(
                rel,
                cat,
                [(0, 0)] * (3 if rel in ("chain", "between") else 1 if rel == "end" else 2),
                k=k,
            )
            if not probe.tuples:
                return None
            t = rng.choice(list(probe.tuples))
            by_pos = {self.position(e, cat): e for e in range(k)}
            ents = [by_pos[p] for p in t]
            objs = [self.rep(e, avoid=cat) for e in ents]
            return make_order_clue(rel, cat, objs, k=k)
        if kind == "arith":
            if not self.arith:
                return None
            cat = rng.choice(self.arith)
            relation = rng.choice(list(self.cats[cat].relations))
            oper, d = relation[0], relation[1:]
            probe = make_order_clue(
                "arith", cat, [(0, 0), (0, 0)], k=k, values=self.numeric[cat], oper=oper, d=d
            )
            if not probe.tuples:
                return None
            t = rng.choice(list(probe.tuples))
            by_pos = {self.position(e, cat): e for e in range(k)}
            objs = [self.rep(by_pos[p], avoid=cat) for p in t]
            return make_order_clue(
                "arith", cat, objs, k=k, values=self.numeric[cat], oper=oper, d=d
            )
        if kind == "ifthen":
            p_true = rng.random() < 0.5
            p = self.atom(p_true)
            q = self.atom(True if p_true else rng.random() < 0.3)
            box = (min(q[0][0], q[1][0]), max(q[0][0], q[1][0]))
            r_truth = (not p_true) or rng.random() < 0.3
            r = self.atom_in_box(box, r_truth) if rng.random() < 0.5 else self.atom(r_truth)
            if len({p, q, r}) < 3:
                return None
            if not atoms_compatible(p, q):
                # "if P then Q" with P and Q exclusive just says "not P": an impossible
                # "then" reads as a trick, so such a clue is never drawn
                return None
            return IfThenClue(p=p, q=q, r=r)
        if kind == "either":
            exclusive = rng.random() < 0.3
            first_true = True
            second_true = (not first_true) if exclusive else rng.random() < 0.3
            p = self.atom(first_true)
            box = (p[0][0], p[1][0])
            q = self.atom_in_box(box, second_true) if rng.random() < 0.5 else self.atom(second_true)
            if p == q:
                return None
            if rng.random() < 0.5:
                p, q = q, p
            return EitherClue(p=p, q=q, exclusive=exclusive)
        if kind == "pair":
            return PairClue(p=self.atom(True))
        if kind == "group":
            if not self.grouped:
                return None
            cat = rng.choice(self.grouped)
            e = rng.randrange(k)
            labels = self.cats[cat].groups
            label = labels[self.sol[cat][e]]
            members = tuple(i for i in range(k) if labels[i] == label)
            if len(members) >= k:
                return None
            from .categories import load_database

            phrase = next(
                (
                    g["phrase"]
                    for g in load_database(self.lang).groups.values()
                    if g["label"] == label
                ),
                label,
            )
            return GroupClue(
                obj=self.rep(e, avoid=cat), cat=cat, members=members, label=label, phrase=phrase
            )
        raise ValueError(kind)


def _critical(clue: Clue, K: int, k: int, cache: dict[int, set]) -> set:
    """Critical squares, memoised on the clue itself (an id()-keyed cache would hand a
    freed candidate's squares to a new object that reuses its id)."""
    crit = getattr(clue, "_critical", None)
    if crit is None:
        crit = clue.critical_squares(K, k)
        clue._critical = crit  # type: ignore[attr-defined]
    return crit


def _forbidden(
    cand: Clue, clues: Sequence[Clue], grid: Grid, K: int, k: int, cache: dict[int, set]
) -> bool:
    """seeds/003 2.1.14: a candidate whose critical squares are already marked, or
    meet another clue's critical squares, would resolve or be resolved too directly."""
    crit = _critical(cand, K, k, cache)
    if any(grid.state(*cell) != 0 for cell in crit):
        return True
    for other in clues:
        ocrit = _critical(other, K, k, cache)
        if crit & ocrit:
            return True
        if (
            isinstance(cand, OrderClue)
            and isinstance(other, OrderClue)
            and _solves_a_line(crit | ocrit, k)
        ):
            return True
    return False


def _solves_a_line(cells: set, k: int) -> bool:
    """Two order clues that together cross out k-1 cells of one line would solve an
    object directly on an empty grid (seeds/003 2.1.14)."""
    lines: dict[tuple[int, int, int], int] = {}
    for c1, i1, c2, i2 in cells:
        for key in ((c1, i1, c2), (c2, i2, c1)):
            lines[key] = lines.get(key, 0) + 1
            if lines[key] >= k - 1:
                return True
    return False


def _draw_clues(
    rng: random.Random, drawer: _Drawer, K: int, k: int, kinds: Sequence[str]
) -> tuple[list[Clue], bool]:
    """Non-type-1 clues then type-1 clues until the engine (propagation only) solves."""
    engine = Engine(K, k, [])
    clues: list[Clue] = []
    cache: dict[int, set] = {}
    n_non1 = math.ceil(k * K / 2.3)
    usable = [
        kd
        for kd in kinds
        if not (kd == "arith" and not drawer.arith) and not (kd == "group" and not drawer.grouped)
    ]
    for _ in range(n_non1):
        if not usable:
            break
        kind = rng.choice(usable)
        for _try in range(30):
            cand = drawer.draw(kind)
            if cand is not None and not _forbidden(cand, clues, engine.g, K, k, cache):
                break
        else:
            continue
        clues.append(cand)
        engine.add_clue(cand)
        engine.propagate()
        if engine.g.is_complete():
            return clues, True
    # the reference stops at 100 type-1 clues; an 8x8 grid has 1792 cells, so the cap
    # grows with the grid (it is only a bound, restriction removes the surplus)
    for _ in range(max(100, K * (K - 1) * k)):
        if engine.g.is_complete():
            return clues, True
        for _try in range(60):
            cand = drawer.draw("not")
            if isinstance(cand, NotClue) and all(
                engine.g.state(*((cand.obj[0], cand.obj[1]) + o)) == 0 for o in cand.others
            ):
                break
        else:
            cand = None
        if cand is None:
            # every open cell of the wrong kind: exclude one open non-solution cell directly
            cells = [
                c
                for c in engine.g.unknown_cells()
                if drawer.sol[c[2]][drawer.sol[c[0]].index(c[1])] != c[3]
            ]
            if not cells:
                return clues, engine.g.is_complete()
            c1, i1, c2, i2 = rng.choice(cells)
            cand = NotClue(obj=(c1, i1), others=((c2, i2),))
        clues.append(cand)
        engine.add_clue(cand)
        engine.propagate()
    return clues, engine.g.is_complete()


def _engine_solves(
    K: int, k: int, clues: Sequence[Clue], guessing: bool, budget: int | None = None
) -> bool:
    if budget == 0:
        guessing = False
    out = Engine(K, k, clues).run(guessing=guessing, max_guesses=budget)
    return out.solved


def _restrict(
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


def _choose(
    rng: random.Random,
    K: int,
    k: int,
    clues: list[Clue],
    sol: list[list[int]],
    checker: ExactChecker,
    reasons: dict[str, int],
) -> tuple[list[Clue] | None, dict[str, Any]]:
    """No tier asked: restrict the clue list by SAT and rate whatever it gives."""
    final = _restrict(rng, K, k, clues, sol, checker, True)
    rating = rate(K, k, final, rng)
    if not rating.get("solved"):
        reasons["engine failed to rate"] = reasons.get("engine failed to rate", 0) + 1
        return None, rating
    return final, rating


def _construct(
    rng: random.Random,
    K: int,
    k: int,
    clues: list[Clue],
    sol: list[list[int]],
    checker: ExactChecker,
    drawer: _Drawer,
    kinds: Sequence[str],
    difficulty: str,
    reasons: dict[str, int],
) -> tuple[list[Clue] | None, dict[str, Any]]:
    """Build toward the tier from this attempt's clue pool (construct.py)."""
    from .construct import Builder

    builder = Builder(rng, K, k, sol, checker, clues, drawer, kinds)
    final, rating, _work = builder.build(difficulty, max_moves=max_moves_for(K, k))
    if final is None:
        reasons[f"tier {rating.get('tier')} != {difficulty}"] = (
            reasons.get(f"tier {rating.get('tier')} != {difficulty}", 0) + 1
        )
        return None, {}
    # the new clues joined the checker under the builder's keys; hand them back so the
    # caller certifies the same objects
    clues[:] = builder.alive
    return final, rating


def max_moves_for(K: int, k: int) -> int:
    """Moves per attempt: enough to walk g from a minimal set's ~25 (6x6) to the band."""
    return 8 + K * k // 3


def generate_puzzle(
    rng: random.Random,
    *,
    K: int = 3,
    k: int = 4,
    lang: str = "en",
    difficulty: str | None = None,
    kinds: Sequence[str] = CLUE_KINDS,
    question: str = "grid",
    max_attempts: int = 40,
    style: str = "native",
) -> ZebraPuzzle:
    """Generate one certified, rated puzzle (deterministic for ``rng``).

    ``style="zebralogic"``: category 0 is the houses 1..k, the other K-1 categories are
    categorical, and the clues are ZebraLogic's kinds (``zebralogic.py``)."""
    why = unreachable(K, k, difficulty, style)
    if why:
        raise ConfigError(
            f"difficulty={difficulty!r} at K={K}, k={k} is refused: {why}",
            field="difficulty",
            expected="a tier this grid size reaches (docs/zebra.md, 'Difficulty and stars')",
        )
    reasons: dict[str, int] = {}
    relations: Sequence[str] = tuple(sorted(POS_RELATIONS))
    if style == "zebralogic":
        from .zebralogic import ZEBRALOGIC_KINDS, house_category

        kinds, relations = ZEBRALOGIC_KINDS, ZEBRALOGIC_RELATIONS
    for attempt in range(max_attempts):
        if style == "zebralogic":
            cats = [house_category(k)] + draw_categories(
                rng, K - 1, k, lang, kinds=["categorical"] * (K - 1)
            )
        else:
            cats = draw_categories(rng, K, k, lang)
        sol = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
        drawer = _Drawer(rng, cats, sol, K, k, lang, relations)
        try:
            clues, solved = _draw_clues(rng, drawer, K, k, kinds)
        except Contradiction:
            reasons["contradiction"] = reasons.get("contradiction", 0) + 1
            continue
        if not solved:
            reasons["unsolved after the type-1 cap"] = (
                reasons.get("unsolved after the type-1 cap", 0) + 1
            )
            continue
        checker = ExactChecker(K, k)
        try:
            for n, clue in enumerate(clues):
                checker.add_clue(clue, n)
            if difficulty is None:
                final, rating = _choose(rng, K, k, clues, sol, checker, reasons)
            else:
                final, rating = _construct(
                    rng, K, k, clues, sol, checker, drawer, kinds, difficulty, reasons
                )
            if final is None:
                continue
            keys = {id(c): n for n, c in enumerate(clues)}
            cert = checker.certify([keys[id(c)] for c in final], sol)
        finally:
            checker.close()
        if cert.get("undecided"):
            # never certified on a guess: the budget counts solver work (conflicts)
            why = f"exact check undecided within {checker.conflicts} conflicts"
            reasons[why] = reasons.get(why, 0) + 1
            continue
        if not cert["unique"] or not cert["all_clues_necessary"]:
            reasons["a clue is not necessary"] = reasons.get("a clue is not necessary", 0) + 1
            continue
        order = list(range(len(final)))
        rng.shuffle(order)
        shown = [final[i] for i in order]
        for n, clue in enumerate(shown, start=1):
            clue.cid = n
        cert = dict(cert, necessary=[cert["necessary"][i] for i in order], attempts=attempt + 1)
        q: dict[str, Any] = {"kind": "grid"}
        if question in ("cell", "mc"):
            e = rng.randrange(k)
            c_from = 0
            c_to = rng.randrange(1, K)
            q = {"kind": question, "obj": [c_from, sol[c_from][e]], "cat": c_to}
            if question == "mc":
                # every object of the asked category, in a drawn order (ZebraLogic's
                # multiple-choice mode offers the whole domain)
                choices = list(cats[c_to].items)
                rng.shuffle(choices)
                q["choices"] = choices
        created_at = ""
        if style == "zebralogic":
            from .zebralogic import created_at_from

            created_at = created_at_from(rng)
        return ZebraPuzzle(
            K=K,
            k=k,
            lang=lang,
            categories=cats,
            solution=sol,
            clues=shown,
            question=q,
            rating=rating,
            certificate=cert,
            style=style,
            created_at=created_at,
        )
    detail = ", ".join(f"{r}: {n}" for r, n in sorted(reasons.items()))
    raise GenerationFailed(
        f"no zebra puzzle {K}x{k} (difficulty {difficulty}) in {max_attempts} attempts ({detail})"
    )
