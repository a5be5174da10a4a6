"""A clue's value is written in the cells of its entry (``LinkCon``).

Why a module of its own: it is the only constraint between a clue's value and the grid's
cells, and the place where an unplaced clue (several candidate entries) learns which
entries it can still sit in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .conbase import Con, Key

if TYPE_CHECKING:
    from .model import Clue
    from .solver import Solver

__all__ = ["LinkCon"]


class LinkCon(Con):
    """A clue's value is written in the cells of its entry (or of one candidate entry)."""

    def __init__(self, s: Solver, clue: Clue) -> None:
        self.clue = clue
        self.key = ("c", clue.name)
        self.map_key = ("m", clue.name)
        cells: set[Key] = set()
        for e in clue.candidates:
            cells.update(("x", rc) for rc in s.model.entries[e].cells)
        self.scope = (
            [self.key] + ([self.map_key] if len(clue.candidates) > 1 else []) + sorted(cells)
        )
        self.label = f"{clue.name} fits its cells"

    def entry_of(self, dom: dict) -> str | None:
        if len(self.clue.candidates) == 1:
            return self.clue.candidates[0]
        m = dom[self.map_key]
        return next(iter(m)) if len(m) == 1 else None

    def propagate(self, s: Solver, dom: dict) -> None:
        e = self.entry_of(dom)
        d = s.get(dom, self.key)
        if d is None:
            return
        if e is None:
            ok_entries = set()
            keep = set()
            for en in dom[self.map_key]:
                cd = [dom[("x", rc)] for rc in s.model.entries[en].cells]
                hit = {v for v in d if s.fits(self.clue, v, cd)}
                if hit:
                    ok_entries.add(en)
                    keep |= hit
            s.narrow(dom, self.map_key, ok_entries, self, f"{self.clue.name} can only sit in")
            s.narrow(dom, self.key, keep, self, f"{self.clue.name} must fit a possible entry")
            return
        cells = s.model.entries[e].cells
        cd = [dom[("x", rc)] for rc in cells]
        keep = set()
        support: list[set[str]] = [set() for _ in cells]
        if not s.multi and self.clue.transform is None and not s.model.rules.leading_zeros:
            n = len(cells)
            for v in d:
                t = str(v)
                if len(t) == n and all(ch in c for ch, c in zip(t, cd, strict=True)):
                    keep.add(v)
                    for i, ch in enumerate(t):
                        support[i].add(ch)
        else:
            for v in d:
                segs = s.segments(self.clue, v, cd)
                if segs:
                    keep.add(v)
                    for seg in segs:
                        for i, part in enumerate(seg):
                            support[i].add(part)
        s.narrow(dom, self.key, keep, self, f"{self.clue.name} must fit the digits possible in {e}")
        for rc, sup in zip(cells, support, strict=True):
            s.narrow(dom, ("x", rc), sup, self, f"{self.clue.name} is written in {e}")

    def check(self, s: Solver, a: dict) -> bool:
        e = self.clue.candidates[0] if len(self.clue.candidates) == 1 else a[self.map_key]
        text = "".join(a[("x", rc)] for rc in s.model.entries[e].cells)
        return text == s.entry_text(self.clue, a[self.key])
