"""Rules over a group of keys: all different, one-to-one matching, strictly increasing.

Why a module of its own: these constraints know nothing of the clue language or the grid;
they only compare the values of the keys they are given (clues, variables, cells or the
entry a clue sits in), so the puzzle-wide rules of constraintset.py reuse them freely.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .conbase import Con, Contradiction, Key

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["AllDiff", "Matching", "Ordered"]


class AllDiff(Con):
    """Values of the keys are pairwise different (singleton elimination + pigeonhole)."""

    def __init__(self, keys: list[Key], label: str) -> None:
        self.scope = keys
        self.label = label

    def propagate(self, s: Solver, dom: dict) -> None:
        changed = True
        while changed:
            changed = False
            fixed: dict[Any, Key] = {}
            for k in self.scope:
                d = dom.get(k)
                if d is not None and len(d) == 1:
                    v = next(iter(d))
                    if v in fixed:
                        raise Contradiction(f"{k[1]} and {fixed[v][1]} both {v}")
                    fixed[v] = k
            if not fixed:
                return
            for k in self.scope:
                d = dom.get(k)
                if d is not None and len(d) > 1 and not d.isdisjoint(fixed):
                    new = d - fixed.keys()
                    taken = sorted(str(x) for x in d & fixed.keys())
                    s.narrow(dom, k, new, self, f"{self.label}: {', '.join(taken)} already used")
                    changed = True

    def check(self, s: Solver, a: dict) -> bool:
        vals = [a[k] for k in self.scope]
        return len(vals) == len(set(vals))


class Matching(Con):
    """Clues and entries of one direction are matched one to one: an entry is removed
    from a clue's possible entries when no complete matching uses that pair (a simple
    form of Regin's all-different filtering; groups are small)."""

    def __init__(self, keys: list[Key], label: str) -> None:
        self.scope = keys
        self.label = label

    @staticmethod
    def _match(doms: dict[Key, list], forced: tuple[Key, Any] | None) -> dict[Any, Key] | None:
        """A complete matching (value -> key), with ``forced`` = (key, value) in it if
        given, or None when there is none."""
        owner: dict[Any, Key] = {}
        keys = sorted(doms, key=lambda k: len(doms[k]))
        if forced is not None:
            owner[forced[1]] = forced[0]
            keys = [k for k in keys if k != forced[0]]

        def augment(k: Key, seen: set) -> bool:
            for e in doms[k]:
                if e in seen:
                    continue
                seen.add(e)
                o = owner.get(e)
                if o is None or (o != (forced[0] if forced else None) and augment(o, seen)):
                    owner[e] = k
                    return True
            return False

        return owner if all(augment(k, set()) for k in keys) else None

    @classmethod
    def supported(cls, doms: dict[Key, list]) -> dict[Key, list] | None:
        """Per key the values it takes in some complete matching (None: no complete
        matching), from one base matching (Berge): k may take e when e is k's own value,
        e is free, or e's owner o can move along an alternating path (o takes a value of
        o', o' one of o'', ...) that ends at k's own value (freed as k takes e) or at a
        free value. Replaces one matching search per pair (A2 + B2 + C2: 20 000 of them)."""
        base = cls._match(doms, None)
        if base is None:
            return None
        mine = {k: e for e, k in base.items()}
        takes = {k: {base[e] for e in doms[k] if e in base and base[e] != k} for k in doms}
        free_adj = {k for k in doms if any(e not in base for e in doms[k])}
        reach: dict[Key, set[Key]] = {}
        for o in doms:
            seen, todo = {o}, [o]
            while todo:
                for nxt in takes[todo.pop()]:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            reach[o] = seen
        return {
            k: [
                e
                for e in doms[k]
                if mine.get(k) == e
                or e not in base
                or k in reach[base[e]]
                or not free_adj.isdisjoint(reach[base[e]])
            ]
            for k in doms
        }

    def propagate(self, s: Solver, dom: dict) -> None:
        doms = {k: sorted(dom[k]) for k in self.scope}
        keep = self.supported(doms)
        if keep is None:
            raise Contradiction(self.label)
        for k in self.scope:
            if len(keep[k]) < len(doms[k]):
                s.narrow(dom, k, keep[k], self, f"{self.label}: no complete matching otherwise")

    def check(self, s: Solver, a: dict) -> bool:
        vals = [a[k] for k in self.scope]
        return len(vals) == len(set(vals))


class Ordered(Con):
    """Strictly increasing values along a chain (A < B < C, or clues listed ascending)."""

    def __init__(self, keys: list[Key], label: str) -> None:
        self.scope = keys
        self.label = label

    def propagate(self, s: Solver, dom: dict) -> None:
        lb = None
        for k in self.scope:
            d = dom.get(k)
            if d is None:
                continue
            if lb is not None:
                s.narrow(dom, k, {v for v in d if v > lb}, self, f"{self.label}")
                d = dom[k]
            lb = min(d)
        ub = None
        for k in reversed(self.scope):
            d = dom.get(k)
            if d is None:
                continue
            if ub is not None:
                s.narrow(dom, k, {v for v in d if v < ub}, self, f"{self.label}")
                d = dom[k]
            ub = max(d)

    def check(self, s: Solver, a: dict) -> bool:
        vals = [a[k] for k in self.scope]
        return all(x < y for x, y in pairwise(vals))
