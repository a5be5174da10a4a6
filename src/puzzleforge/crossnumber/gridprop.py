"""Whole-grid rules (``rules.grid``) as a propagating constraint.

Why: checked only on complete grids, a rule such as "no even digit is repeated" lets the
search fill whole grids that break it in their first two cells. Here every rule is
evaluated on the partial grid with interval arithmetic: ``countD`` lies between the
number of cells already fixed to hold D and the number that still may, an entry or
variable between the least and greatest of its remaining values. A rule that cannot hold
for any value in those intervals is a contradiction at once; a side that is a bare
``countD`` facing a known bound also narrows cells (``countE <= 1`` with one E placed
removes E from every other cell; ``count1 >= 3`` with exactly three cells able to hold
a 1 fixes them). Anything the intervals cannot judge (division, powers, functions) waits
for the complete grid, where :meth:`GridRulesCon.check` tests every rule exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constraints import Con, Contradiction
from .gridrules import COUNT_NAMES, GridRule, cell_name, digit_counts

if TYPE_CHECKING:
    from .expr import Node
    from .solver import Solver

__all__ = ["GridRulesCon"]

Interval = tuple[int, int]


class GridRulesCon(Con):
    """All of a puzzle's grid rules: interval pruning on partial grids, exact at leaves."""

    def __init__(self, s: Solver, rules: list[GridRule]) -> None:
        self.rules = rules
        self.cells = [("x", rc) for rc in s.model.grid.cells()]
        self.cell_names = {cell_name(k[1]): k for k in self.cells}
        refs: set[tuple[str, str]] = set()
        for rule in rules:
            for side in rule.sides:
                refs |= {
                    ("c", c)
                    for c in side.clues
                    if c not in COUNT_NAMES and c not in self.cell_names
                }
                refs |= {("v", v) for v in side.variables}
        self.refs = sorted(refs)
        self.scope = list(self.cells) + self.refs
        self.label = "grid rules"

    # -- intervals ---------------------------------------------------------
    def _env(self, s: Solver, dom: dict) -> dict[str, Interval]:
        env: dict[str, Interval] = {}
        for d in range(10):
            ch = str(d)
            lo = hi = 0
            for c in self.cells:
                counts = [v.count(ch) for v in dom[c]]
                lo += min(counts)
                hi += max(counts)
            env[f"count{d}"] = (lo, hi)
        for name, c in self.cell_names.items():
            nums = [int(v) for v in dom[c]]
            env[name] = (min(nums), max(nums))
        for key in self.refs:
            vals = dom.get(key)
            if vals:
                env[key[1]] = (min(vals), max(vals))
        return env

    def _interval(self, n: Node, env: dict[str, Interval]) -> Interval | None:
        op = n.op
        if op == "num":
            v = int(n.value)  # type: ignore[call-overload]
            return v, v
        if op in ("var", "clue"):
            return env.get(str(n.value))
        if op == "neg":
            a = self._interval(n.args[0], env)
            return None if a is None else (-a[1], -a[0])
        if op in ("+", "-", "*"):
            a = self._interval(n.args[0], env)
            b = self._interval(n.args[1], env)
            if a is None or b is None:
                return None
            if op == "+":
                return a[0] + b[0], a[1] + b[1]
            if op == "-":
                return a[0] - b[1], a[1] - b[0]
            ps = [x * y for x in a for y in b]
            return min(ps), max(ps)
        return None

    # -- propagation -------------------------------------------------------
    def propagate(self, s: Solver, dom: dict) -> None:
        env = self._env(s, dom)
        for rule in self.rules:
            nodes = rule_nodes(rule)
            ivs = [self._interval(n, env) for n in nodes]
            for i, (op, a, b) in enumerate(zip(rule.ops, ivs[:-1], ivs[1:], strict=True)):
                if a is None or b is None:
                    continue
                if not _may_hold(op, a, b):
                    raise Contradiction(f"the grid rule {rule.text} cannot hold")
                self._narrow_count(s, dom, env, nodes[i], op, b, rule)
                self._narrow_count(s, dom, env, nodes[i + 1], _flip(op), a, rule)

    def _narrow_count(
        self,
        s: Solver,
        dom: dict,
        env: dict[str, Interval],
        node: Node,
        op: str,
        other: Interval,
        rule: GridRule,
    ) -> None:
        """``countD op other``: cells follow when the count is already at a bound."""
        if node.op != "clue" or str(node.value) not in COUNT_NAMES:
            return
        name = str(node.value)
        ch = name[-1]
        lo, hi = env[name]
        cap = other[1] - (1 if op == "<" else 0) if op in ("<", "<=", "=") else None
        need = other[0] + (1 if op == ">" else 0) if op in (">", ">=", "=") else None
        if cap is not None and lo >= cap:  # no further cell may hold D
            for c in self.cells:
                d = dom[c]
                if len(d) > 1 and any(ch in v for v in d):
                    keep = {v for v in d if ch not in v}
                    if keep:
                        s.narrow(dom, c, keep, self, f"{rule.text}: no more {ch}s")
        if need is not None and hi <= need:  # every cell that may hold D must
            for c in self.cells:
                d = dom[c]
                if len(d) > 1 and not all(ch in v for v in d) and any(ch in v for v in d):
                    s.narrow(dom, c, {v for v in d if ch in v}, self, f"{rule.text}: every {ch}")

    def check(self, s: Solver, a: dict) -> bool:
        mm = s.model
        env = digit_counts([a[c] for c in self.cells])
        env.update({name: int(a[c]) for name, c in self.cell_names.items()})
        env.update({c: a[("c", c)] for c in mm.clues})
        env.update({v: a[("v", v)] for v in mm.variables.names})
        return all(rule.holds(env) for rule in self.rules)


def rule_nodes(rule: GridRule) -> list[Node]:
    return [side.node for side in rule.sides]


def _flip(op: str) -> str:
    return {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}[op]


def _may_hold(op: str, a: Interval, b: Interval) -> bool:
    """Some x in a and y in b satisfy ``x op y``."""
    if op == "=":
        return a[0] <= b[1] and b[0] <= a[1]
    if op == "<":
        return a[0] < b[1]
    if op == "<=":
        return a[0] <= b[1]
    if op == ">":
        return a[1] > b[0]
    if op == ">=":
        return a[1] >= b[0]
    return not (a[0] == a[1] == b[0] == b[1])  # "!="
