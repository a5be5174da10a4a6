"""At least one alternative of a clue part holds (``AltCon``).

Why a module of its own: "the sum of two other entries" is one alternative per choice of
entries; judging them one by one, each over its own few clues, is a different job from
evaluating one expression (exprcon.py), which each alternative still does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .conbase import Con, Key
from .exprcon import ExprCon

if TYPE_CHECKING:
    from .model import Clue, Part
    from .solver import Solver

__all__ = ["AltCon"]


class AltCon(Con):
    """At least one alternative of a clue part holds: a part naming ``other`` entries
    ("sum of two other entries": one alternative per choice of entries).

    Why its own constraint: as one expression over every clue it would wait until the
    product of all their candidate sets is small, i.e. until the grid is almost filled.
    Judged alternative by alternative, each over its own few clues, the clue keeps the
    values some alternative supports (and an operand only the values each alternative
    that mentions it supports, or all of them when some alternative does not)."""

    def __init__(self, s: Solver, clue: Clue, part: Part) -> None:
        self.clue, self.part = clue, part
        self.subs = [ExprCon(s, clue, alt) for alt in part.alts]
        keys: dict[Key, None] = {}
        for sub in self.subs:
            keys.update(dict.fromkeys(sub.scope))
        self.scope = list(keys)
        self.self_key = ("c", clue.name)
        self.label = f"{clue.name} is {part.text}"

    def propagate(self, s: Solver, dom: dict) -> None:
        if not all(sub.ready(s, dom) for sub in self.subs):
            return
        seen: dict[Key, set[Any]] = {k: set() for k in self.scope}
        unknown: set[Key] = set()  # supported by an alternative that does not bound it
        for sub in self.subs:
            found = sub.support(s, dom)
            if found is None:
                return
            own, support = found
            if own is not None:
                if not own:
                    continue  # this choice of entries gives nothing
                seen[self.self_key] |= own
            elif any(not x for x in support):
                continue
            mentioned = set(sub.refs)
            for k, sup in zip(sub.refs, support, strict=True):
                seen[k] |= sup
            for k in self.scope:
                if k not in mentioned and (own is None or k != self.self_key):
                    d = s.get(dom, k)
                    if d is None:
                        unknown.add(k)
                    else:
                        seen[k] |= d
        for k, sup in seen.items():
            if k not in unknown:
                s.narrow(dom, k, sup, self, self.label)

    def check(self, s: Solver, a: dict) -> bool:
        return any(sub.check(s, a) for sub in self.subs)
