"""Drawing single clues true on a puzzle's hidden solution (seeds/003 2.1.2-2.1.6 clue
types, the positional kinds of LLM benchmarks and ZebraLogic's pair clue).

Why true on a hidden solution: the reference draws clues blind and starts over when they
contradict each other; a clue drawn true on a fixed solution never contradicts, so the
clue pool (cluepool.py) and the tier construction (construct.py) draw from here freely.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .catdata import load_database
from .categories import Category
from .clues import (
    POS_RELATIONS,
    Clue,
    EitherClue,
    GroupClue,
    IfThenClue,
    NotClue,
    PairClue,
    atoms_compatible,
    make_order_clue,
)
from .numvalues import weighted_choice

__all__ = ["ClueDrawer"]


class ClueDrawer:
    """Draws clues of one kind at a time, each true on the hidden solution ``sol``
    (``sol[c][e]``: the object of category c of entity e)."""

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
