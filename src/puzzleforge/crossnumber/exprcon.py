"""A clue's value equals every side of an expression, or a relation holds (``ExprCon``).

Why a module of its own: this is the one constraint that evaluates the clue language --
by enumerating the operands' combinations (plain functions from fastexpr.py where it
can, the generators of expr.py otherwise, one candidate at a time when few are left) --
and it is most of the solver's work; the cheaper relation methods live in relations.py.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from itertools import product
from typing import TYPE_CHECKING, Any

from . import expr as ex
from .conbase import BUDGET, CHECK_LIMIT, COMBO_LIMIT, Con, Key, range_for
from .fastexpr import NoValue, positional
from .relations import relation_bounds, separable_support

if TYPE_CHECKING:
    from .model import Clue, Part
    from .solver import Solver

__all__ = ["ExprCon"]

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
