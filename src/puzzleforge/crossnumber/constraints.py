"""The constraints of the cross-number solver: each narrows domains and checks leaves.

Why a module of its own: the solver (solver.py) only runs a work queue and a search; what
a clue, a clue/entry link or a puzzle-wide rule means lives here, one class each, with
``propagate`` (narrow the sets it watches) and ``check`` (judge a complete assignment).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from itertools import pairwise, product
from typing import TYPE_CHECKING, Any

from . import expr as ex
from . import kinds as nb
from .fastexpr import NoValue, positional
from .model import Clue, Part
from .relations import relation_bounds, separable_support

if TYPE_CHECKING:
    from .solver import Solver

__all__ = [
    "Con",
    "ExprCon",
    "AltCon",
    "LinkCon",
    "AllDiff",
    "Matching",
    "Ordered",
    "GridDigitSum",
    "ValuesOnce",
    "FinalCheck",
    "Contradiction",
    "range_for",
    "COMBO_LIMIT",
    "CHECK_LIMIT",
    "BUDGET",
]

COMBO_LIMIT = 40_000
CHECK_LIMIT = 2_000
BUDGET = 400_000

Key = tuple


_CMP = {
    "=": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
    "<=": operator.le,
    ">=": operator.ge,
    "!=": operator.ne,
}


def _all_equal(fns: list[Callable[..., int]], combo: tuple[Any, ...], v: int) -> bool:
    """Every further side of a value chain has the value ``v`` for ``combo``."""
    try:
        return all(f(*combo) == v for f in fns)
    except NoValue:
        return False


class Contradiction(Exception):
    """A domain became empty (a dead end of the search, or an unsolvable puzzle)."""


class Con:
    scope: list[Key]
    label: str = ""

    def propagate(self, s: Solver, dom: dict) -> None:
        raise NotImplementedError

    def check(self, s: Solver, a: dict) -> bool:
        return True


def range_for(s: Solver, clue: Clue) -> tuple[int, int]:
    lo_d = clue.cells
    hi_d = clue.cells
    if s.multi:
        extra = min(clue.cells, s.max_multi_cells)
        hi_d = clue.cells + extra * (s.max_cell_len - 1)
    return (10 ** (lo_d - 1) if lo_d > 1 else 0), 10**hi_d - 1


class ExprCon(Con):
    """A clue's value equals every side of an expression, or a relation holds."""

    def __init__(self, s: Solver, clue: Clue, part: Part) -> None:
        self.clue, self.part = clue, part
        self.self_key = ("c", clue.name)
        if part.kind == "value":
            vs = set().union(*(c.variables for c in part.sides))
            cs = set().union(*(c.clues for c in part.sides))
            self.sides = part.sides
        else:
            node = part.cond.node  # type: ignore[union-attr]
            vs, cs = set(part.cond.variables), set(part.cond.clues)  # type: ignore[union-attr]
            self.ops = node.ops
            self.operands = [
                ex.compile_expr(a, nontrivial=s.model.rules.nontrivial) for a in node.args
            ]
        self.is_cond = part.kind == "cond"
        self.memo: dict = {}
        self.has_gen = not self.is_cond and any(c.single is None for c in part.sides)
        cs = set(cs)
        if not self.is_cond:
            cs.discard(clue.name)
        self.refs: list[Key] = [("v", v) for v in sorted(vs)] + [("c", c) for c in sorted(cs)]
        self.names = [k[1] for k in self.refs]
        self.scope = list(self.refs) + ([] if self.is_cond else [self.self_key])
        # plain functions for expressions without generators (fastexpr.py)
        nt = s.model.rules.nontrivial
        nodes = [o.node for o in self.operands] if self.is_cond else [c.node for c in self.sides]
        fast = [positional(n, self.names, nontrivial=nt) for n in nodes]
        plain = [f for f in fast if f is not None]
        self.fast: list[Callable[..., int]] | None = plain if len(plain) == len(fast) else None
        text = part.text.lstrip("= ").strip()
        if part.kind != "value":
            self.label = f"{text} (clue {clue.name})"
        elif any(ch in text for ch in "+-*/^'√!()#$=") or len(text) <= 3:
            self.label = f"{clue.name} = {text}"
        else:
            self.label = f"{clue.name} is {text}"

    # value side -----------------------------------------------------
    def _values(self, env: dict, lo: int, hi: int, budget: ex.Budget) -> set[int]:
        first, *rest = self.sides
        if first.single is not None:
            v = first.single(env)
            if v is None or v < lo or v > hi:
                return set()
            vals = {v}
        else:
            vals = set(first.values(env, lo, hi, budget))
        for side in rest:
            if not vals:
                break
            if side.single is not None:
                one = side.single(env)
                vals = {one} & vals if one is not None else set()
            else:
                vals = {t for t in vals if any(True for _ in side.values(env, t, t, budget))}
        return vals

    def _cond(self, env: dict, budget: ex.Budget) -> bool:
        vals: list[int | None] = []
        for o in self.operands:
            vals.append(o.single(env) if o.single is not None else None)
        for i, op in enumerate(self.ops):
            a, b = vals[i], vals[i + 1]
            if a is None and self.operands[i].single is not None:
                return False
            if b is None and self.operands[i + 1].single is not None:
                return False
            if a is None or b is None:
                if op != "=":
                    raise ex.Unbounded("generator in an inequality")
                if a is None and b is None:
                    raise ex.Unbounded("generators on both sides")
                t = b if a is None else a
                o = self.operands[i] if a is None else self.operands[i + 1]
                if not any(True for _ in o.values(env, t, t, budget)):
                    return False
                continue
            if not ex.compare(op, a, b):
                return False
        return True

    def _doms(self, s: Solver, dom: dict) -> list[list[Any]] | None:
        doms = []
        for k in self.refs:
            d = s.get(dom, k)
            if d is None:
                return None
            doms.append(sorted(d))
        return doms

    def ready(self, s: Solver, dom: dict) -> bool:
        """Can ``support`` judge now (every operand listed, few enough combinations)?"""
        doms = self._doms(s, dom)
        return doms is not None and math.prod(len(d) for d in doms) <= COMBO_LIMIT

    def propagate(self, s: Solver, dom: dict) -> None:
        if self.is_cond:
            doms = self._doms(s, dom)
            if doms is None or separable_support(self, s, dom, COMBO_LIMIT):
                return
            if math.prod(len(d) for d in doms) > COMBO_LIMIT:
                relation_bounds(self, s, dom, COMBO_LIMIT)
                return
        found = self.support(s, dom)
        if found is None:
            return
        own, support = found
        for k, sup in zip(self.refs, support, strict=True):
            s.narrow(dom, k, sup, self, f"{self.label}")
        if own is not None:
            s.narrow(dom, self.self_key, own, self, f"{self.label}")

    def support(self, s: Solver, dom: dict) -> tuple[set[int] | None, list[set[Any]]] | None:
        """(the clue's values some combination supports -- None for a relation, whose
        clue is one of its operands --, per operand the values in some satisfying
        combination), or None when the constraint cannot judge yet (operands unlisted,
        too many combinations, a generator without bounds or over budget)."""
        doms = self._doms(s, dom)
        if doms is None:
            return None
        total = math.prod(len(d) for d in doms)
        budget = ex.Budget(BUDGET)
        if self.is_cond:
            if total > COMBO_LIMIT:
                return None
            if self.fast is not None:
                return None, self._fast_cond(doms)
            support: list[set[Any]] = [set() for _ in doms]
            try:
                for combo in product(*doms):
                    env = dict(zip(self.names, combo, strict=True))
                    if self._cond(env, budget):
                        for i, v in enumerate(combo):
                            support[i].add(v)
            except (ex.Unbounded, ex.BudgetExceeded):
                return None
            return None, support
        own = s.get(dom, self.self_key)
        if total > COMBO_LIMIT:
            return None
        lo, hi = (min(own), max(own)) if own else range_for(s, self.clue)
        tests = s.tests[self.clue.name]
        if own is not None and self.has_gen and len(own) * total <= CHECK_LIMIT:
            # few candidates: testing each one (bounds [t, t]) beats enumerating generators
            found = self._check_mode(own, doms)
            if found is None:
                return None
            checked, support = found
            return checked, support
        if self.fast is not None:
            return self._fast_values(doms, lo, hi, own, tests)
        new_own: set[int] = set()
        support = [set() for _ in doms]
        try:
            for combo in product(*doms):
                env = dict(zip(self.names, combo, strict=True))
                vals = self._values(env, lo, hi, budget)
                if own is not None:
                    vals &= own
                if tests:
                    vals = {v for v in vals if all(t(v) for t in tests)}
                if vals:
                    new_own |= vals
                    for i, v in enumerate(combo):
                        support[i].add(v)
        except (ex.Unbounded, ex.BudgetExceeded):
            if own is None or len(own) * total > CHECK_LIMIT:
                return None
            found = self._check_mode(own, doms)
            if found is None:
                return None
            new_own, support = found
        return new_own, support

    def _fast_values(
        self,
        doms: list[list[Any]],
        lo: int,
        hi: int,
        own: frozenset[int] | None,
        tests: list[Callable[[int], bool]],
    ) -> tuple[set[int], list[set[Any]]]:
        """The value loop with the plain functions of fastexpr.py: the same values and
        support as ``_values`` per combination, without a dict or a closure walk each."""
        first, *rest = self.fast or []
        ok: dict[int, bool] = {}  # value -> in range, a candidate, passes the kind tests
        hits: list[tuple[Any, ...]] = []
        new_own: set[int] = set()
        for combo in product(*doms):
            try:
                v = first(*combo)
            except NoValue:
                continue
            good = ok.get(v)
            if good is None:
                good = ok[v] = (
                    lo <= v <= hi and (own is None or v in own) and all(t(v) for t in tests)
                )
            if good and (not rest or _all_equal(rest, combo, v)):
                hits.append(combo)
                new_own.add(v)
        if not hits:
            return new_own, [set() for _ in doms]
        support: list[set[Any]] = [set(col) for col in zip(*hits, strict=True)]
        return new_own, support

    def _fast_cond(self, doms: list[list[Any]]) -> list[set[Any]]:
        """The relation loop with the plain functions of fastexpr.py (same support as
        ``_cond`` per combination)."""
        fns, ops = self.fast or [], self.ops
        tests = [_CMP[o] for o in ops]
        hits = []
        for c in product(*doms):
            try:
                vals = [f(*c) for f in fns]
            except NoValue:
                continue
            if all(t(vals[i], vals[i + 1]) for i, t in enumerate(tests)):
                hits.append(c)
        if not hits:
            return [set() for _ in doms]
        return [set(col) for col in zip(*hits, strict=True)]

    def _check_mode(
        self, own: frozenset[int], doms: list[list[Any]]
    ) -> tuple[set[int], list[set[Any]]] | None:
        """Per candidate value t: does the expression produce t (bounds [t, t])?"""
        budget = ex.Budget(BUDGET * 4)
        new_own: set[int] = set()
        support: list[set[Any]] = [set() for _ in doms]
        memo = self.memo
        try:
            for combo in product(*doms):
                env = dict(zip(self.names, combo, strict=True))
                for t in own:
                    if t in new_own and all(v in support[i] for i, v in enumerate(combo)):
                        continue
                    key = (combo, t)
                    ok = memo.get(key)
                    if ok is None:
                        ok = memo[key] = bool(self._values(env, t, t, budget))
                    if ok:
                        new_own.add(t)
                        for i, v in enumerate(combo):
                            support[i].add(v)
        except (ex.Unbounded, ex.BudgetExceeded):
            return None
        return new_own, support

    def check(self, s: Solver, a: dict) -> bool:
        env = {k[1]: a[k] for k in self.refs}
        budget = ex.Budget(BUDGET * 20)
        try:
            if self.is_cond:
                return self._cond(env, budget)
            t = a[self.self_key]
            return bool(self._values(env, t, t, budget))
        except (ex.Unbounded, ex.BudgetExceeded):
            return False


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


class GridDigitSum(Con):
    """The sum of all digits in the grid equals a clue (or a fixed number)."""

    def __init__(self, s: Solver, target: Key | int) -> None:
        self.target = target
        self.cells = [("x", rc) for rc in s.model.grid.cells()]
        self.scope = self.cells + ([target] if isinstance(target, tuple) else [])
        self.label = "sum of all digits in the grid"

    def propagate(self, s: Solver, dom: dict) -> None:
        t: frozenset[int] | set[int]
        if isinstance(self.target, tuple):
            got = s.get(dom, self.target)
            if got is None:
                return
            t = got
        else:
            t = {self.target}
        sums = [[nb.digits_sum(int(v)) for v in dom[c]] for c in self.cells]
        mins = [min(x) for x in sums]
        maxs = [max(x) for x in sums]
        smin, smax = sum(mins), sum(maxs)
        if isinstance(self.target, tuple):
            s.narrow(
                dom,
                self.target,
                {v for v in t if smin <= v <= smax},
                self,
                f"the grid's digits add up to between {smin} and {smax}",
            )
            t = dom[self.target]
        tmin, tmax = min(t), max(t)
        if smin > tmax or smax < tmin:
            raise Contradiction("digit sum out of range")
        for c, lo_c, hi_c in zip(self.cells, mins, maxs, strict=True):
            d = dom[c]
            keep = {
                v
                for v in d
                if smin - lo_c + nb.digits_sum(int(v)) <= tmax
                and smax - hi_c + nb.digits_sum(int(v)) >= tmin
            }
            if len(keep) < len(d):
                s.narrow(dom, c, keep, self, "the grid digit sum")

    def check(self, s: Solver, a: dict) -> bool:
        total = sum(nb.digits_sum(int(a[c])) for c in self.cells)
        t = a[self.target] if isinstance(self.target, tuple) else self.target
        return total == t


class ValuesOnce(Con):
    """Each listed cell value occurs exactly once in the grid (e.g. 10..16 in No 21)."""

    def __init__(self, s: Solver, values: list[int]) -> None:
        self.values = [str(v) for v in values]
        self.scope = [("x", rc) for rc in s.model.grid.cells()]
        self.label = "each of " + ", ".join(self.values) + " occurs exactly once"

    def propagate(self, s: Solver, dom: dict) -> None:
        for v in self.values:
            holders = [c for c in self.scope if v in dom[c]]
            if not holders:
                raise Contradiction(f"no cell can hold {v}")
            fixed = [c for c in holders if len(dom[c]) == 1]
            if len(fixed) > 1:
                raise Contradiction(f"{v} twice")
            if fixed:
                for c in holders:
                    if c != fixed[0]:
                        s.narrow(dom, c, dom[c] - {v}, self, f"{v} is already placed")
            elif len(holders) == 1:
                s.narrow(dom, holders[0], {v}, self, f"only this cell can hold {v}")

    def check(self, s: Solver, a: dict) -> bool:
        vals = [a[c] for c in self.scope]
        return all(vals.count(v) == 1 for v in self.values)


class FinalCheck(Con):
    """Whole-solution rules checked only at the leaves (reversed pair, hooks)."""

    def __init__(self, fn: Callable[[Solver, dict], bool], label: str) -> None:
        self.fn, self.label, self.scope = fn, label, []

    def propagate(self, s: Solver, dom: dict) -> None:
        return

    def check(self, s: Solver, a: dict) -> bool:
        return self.fn(s, a)
