"""The cell constraint of a digit rule in words ("all digits odd", "digit 2 is 7", "no
digit repeated", "the second digit is greater than the others").

Why per cell: as a test on the clue's value the rule only filters candidates once the
entry can be listed; on the cells it narrows at once and alone ("all digits odd" takes the
even digits out of every cell; "the first digit is greater than the last" with a last
digit of 7 or more leaves 8 and 9 first). Each atom of the rule (digitclues.py) is judged
on the few cells it reads, "no digit repeated" like an all-different constraint, and a
small entry (at most ``FULL_LIMIT`` fillings of its cells) is judged whole, so the digits
kept are exactly those in some filling that satisfies the rule.
"""

from __future__ import annotations

import math
from itertools import product
from typing import TYPE_CHECKING, Any

from .constraints import Con, Contradiction
from .modeltypes import Clue, Part

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["DigitCon", "digit_con", "FULL_LIMIT"]

#: judge the whole rule over every filling of the entry's cells up to this many fillings
FULL_LIMIT = 4_096


def digit_con(s: Solver, clue: Clue, part: Part) -> DigitCon | None:
    """The cell constraint of a digit part, or None where a cell is not one digit of the
    value (two-digit cells, a clue whose entry is searched, leading zeros written): there
    the rule is a test on the clue's value only (kinds.kind_test), which is always exact."""
    m = s.model
    if part.digits is None or s.multi or len(clue.candidates) != 1 or m.rules.leading_zeros:
        return None
    return DigitCon(s, clue, part)


class DigitCon(Con):
    """A digit rule on the cells of a clue's entry (in the value's reading order)."""

    def __init__(self, s: Solver, clue: Clue, part: Part) -> None:
        assert part.digits is not None
        self.clue, self.part, self.rule = clue, part, part.digits
        cells = list(s.model.entries[clue.candidates[0]].cells)
        if clue.transform == "reverse":
            cells.reverse()  # the value's first digit is the entry's last cell
        self.cells = [("x", rc) for rc in cells]
        self.scope = list(self.cells)
        self.atoms = self.rule.expand(len(cells))
        own = part.text.startswith(f"{clue.name} ")  # "A1 has digit sum 14"
        self.label = part.text if own else f"{clue.name}: {part.text}"

    def propagate(self, s: Solver, dom: dict) -> None:
        if self.atoms is None:
            raise Contradiction(f"{self.label}: the entry has no such digit")
        doms = [{int(v) for v in dom[k]} for k in self.cells]
        if math.prod(len(d) for d in doms) <= FULL_LIMIT:
            keep = self._whole(doms)
        else:
            keep = self._atoms(doms)
        for k, d in zip(self.cells, keep, strict=True):
            s.narrow(dom, k, {str(v) for v in d}, self, self.label)

    def _whole(self, doms: list[set[int]]) -> list[set[int]]:
        """Per cell the digits of some filling of all the cells that keeps the rule."""
        keep: list[set[int]] = [set() for _ in doms]
        for combo in product(*map(sorted, doms)):
            if self.rule.holds(list(combo)):
                for i, v in enumerate(combo):
                    keep[i].add(v)
        return keep

    def _atoms(self, doms: list[set[int]]) -> list[set[int]]:
        """Atom by atom to a fixpoint: each keeps the digits some choice of its own cells
        supports; "no digit repeated" removes placed digits from the other cells and
        fails when fewer digits than cells remain."""
        doms = [set(d) for d in doms]
        changed = True
        while changed:
            changed = False
            for idxs, test in self.atoms or []:
                sup: list[set[int]] = [set() for _ in idxs]
                for combo in product(*(sorted(doms[i]) for i in idxs)):
                    if test(*combo):
                        for j, v in enumerate(combo):
                            sup[j].add(v)
                for j, i in enumerate(idxs):
                    new = doms[i] & sup[j]
                    if len(new) < len(doms[i]):
                        doms[i] = new
                        changed = True
            if self.rule.distinct:
                changed |= _all_different(doms)
            if self.rule.total is not None:
                changed |= _total(doms, *self.rule.total)
            if any(not d for d in doms):
                raise Contradiction(f"{self.label}: no digit fits")
        return doms

    def check(self, s: Solver, a: dict[Any, Any]) -> bool:
        return self.rule.holds([int(a[k]) for k in self.cells])


def _all_different(doms: list[set[int]]) -> bool:
    """Placed digits leave the other cells; True when something was removed."""
    changed = False
    fixed = [next(iter(d)) for d in doms if len(d) == 1]
    if len(fixed) != len(set(fixed)):
        raise Contradiction("a digit repeated")
    for d in doms:
        if len(d) > 1 and not d.isdisjoint(fixed):
            d -= set(fixed)
            changed = True
    if len(set().union(*doms)) < len(doms):
        raise Contradiction("fewer digits than cells")
    return changed


def _reachable(how: str, doms: list[set[int]], target: int) -> list[set[int]]:
    """reach[i]: the sums / products of one digit from each of doms[:i] that can still
    reach ``target`` (a sum at most target; a product dividing it, or any when it is 0)."""
    reach: list[set[int]] = [{0 if how == "sum" else 1}]
    for d in doms:
        nxt = set()
        for a in reach[-1]:
            for v in d:
                r = a + v if how == "sum" else a * v
                if how == "sum" and r > target:
                    continue
                if how == "product" and target and (r == 0 or target % r):
                    continue
                nxt.add(r)
        reach.append(nxt)
    return reach


def _total(doms: list[set[int]], how: str, target: int) -> bool:
    """Digit sum / product N exactly per digit (a prefix and a suffix table, so each cell
    keeps the digits some choice of all the others completes to N); True when narrowed."""
    fwd = _reachable(how, doms, target)
    back = _reachable(how, doms[::-1], target)[::-1]  # back[i]: over doms[i:]
    changed = False
    for i, d in enumerate(doms):
        keep = set()
        for v in d:
            for a in fwd[i]:
                x = a + v if how == "sum" else a * v
                if how == "sum":
                    if target - x in back[i + 1]:
                        keep.add(v)
                        break
                elif (target == 0 and (x == 0 or 0 in back[i + 1])) or (
                    target and x and target % x == 0 and target // x in back[i + 1]
                ):
                    keep.add(v)
                    break
        if len(keep) < len(d):
            d &= keep
            changed = True
    return changed
