"""Boolean gates and pseudo-Boolean comparisons as clauses, for spec/termsat.py.

Why a module of its own: the clause store (Tseitin gates, simplified and hash-consed,
so a gate over the same inputs is one variable) is the part of the term encoder that
knows nothing of terms. Every gate is a full equivalence ``g <-> f(inputs)``, so the
models projected on the inputs are exactly those of the formula. Variable 1 is the
constant True (``-1`` False); literals are DIMACS integers.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

from .finitedomains import Unsupported

__all__ = ["Gates", "holds", "test_of", "MAX_PB_NODES", "MAX_PB_TERMS"]

#: Largest decision diagram of one pseudo-Boolean comparison.
MAX_PB_NODES = 20_000
#: Longest sum a pseudo-Boolean comparison may hold (the diagram recurses along it).
MAX_PB_TERMS = 300

_OPS = {
    "eq": operator.eq,
    "distinct": operator.ne,
    "le": operator.le,
    "lt": operator.lt,
    "ge": operator.ge,
    "gt": operator.gt,
}


def holds(op: str, a: int, b: int) -> bool:
    return bool(_OPS[op](a, b))


def test_of(op: str) -> Callable[[int, int], bool]:
    """``holds`` with the operator looked up once (for loops over a domain's values)."""
    return _OPS[op]


class Gates:
    """A clause list with simplified, memoised gates over DIMACS literals."""

    def __init__(self) -> None:
        self.top = 1
        self.clauses: list[list[int]] = [[1]]
        self.gates: dict[tuple, int] = {}
        self.pb_nodes = 0

    def new(self) -> int:
        self.top += 1
        return self.top

    def exactly_one(self, lits: list[int]) -> None:
        self.clauses.append(list(lits))
        if len(lits) <= 8:
            self.clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
            return
        prev = lits[0]  # sequential at-most-one (Sinz): s_i "one of the first i is true"
        for x in lits[1:-1]:
            s = self.new()
            self.clauses += [[-prev, s], [-x, s], [-x, -prev]]
            prev = s
        self.clauses.append([-lits[-1], -prev])

    # ---- gates (simplified, memoised) ----
    def and_(self, lits: Sequence[int]) -> int:
        if len(lits) == 2:  # the common gate (If bits, decision-diagram leaves), inline
            a, b = lits
            if a == -1 or b == -1 or a == -b:
                return -1
            if a == 1 or a == b:
                return b
            if b == 1:
                return a
            key: tuple = ("and", a, b) if a < b else ("and", b, a)
            g = self.gates.get(key)
            if g is None:
                g = self.gates[key] = self.new()
                pair = {a, b}  # the same clause order as the general case below
                self.clauses.extend([-g, x] for x in pair)
                self.clauses.append([g, *(-x for x in pair)])
            return g
        out: set[int] = set()
        for x in lits:
            if x == -1:
                return -1
            if x != 1:
                if -x in out:
                    return -1
                out.add(x)
        if not out:
            return 1
        if len(out) == 1:
            return next(iter(out))
        key = ("and", *sorted(out))
        g = self.gates.get(key)
        if g is None:
            g = self.gates[key] = self.new()
            self.clauses.extend([-g, x] for x in out)
            self.clauses.append([g, *(-x for x in out)])
        return g

    def or_(self, lits: Sequence[int]) -> int:
        return -self.and_([-x for x in lits])

    def xor(self, a: int, b: int) -> int:
        if abs(a) == 1:
            return -b if a == 1 else b
        if abs(b) == 1:
            return -a if b == 1 else a
        if a == b:
            return -1
        if a == -b:
            return 1
        key = ("xor", min(a, b), max(a, b))
        g = self.gates.get(key)
        if g is None:
            g = self.gates[key] = self.new()
            self.clauses += [[-g, a, b], [-g, -a, -b], [g, -a, b], [g, a, -b]]
        return g

    def ite(self, c: int, a: int, b: int) -> int:
        if c == 1 or a == b:
            return a
        if c == -1:
            return b
        if a == 1 or a == -1 or b == 1 or b == -1:
            return self.or_([self.and_([c, a]), self.and_([-c, b])])
        key = ("ite", c, a, b)
        g = self.gates.get(key)
        if g is None:
            g = self.gates[key] = self.new()
            self.clauses += [[-c, -a, g], [-c, a, -g], [c, -b, g], [c, b, -g]]
            self.clauses += [[-a, -b, g], [a, b, -g]]
        return g

    def ite_down(self, c: int, a: int, b: int) -> int:
        """``g -> ite(c, a, b)`` only (one direction, Plaisted-Greenbaum): for a decision
        diagram asserted true at the top level, whose nodes are needed only when true.
        Its own gate table entry, never mistaken for a full ``ite``."""
        if c == 1 or a == b:
            return a
        if c == -1:
            return b
        key = ("ite>", c, a, b)
        g = self.gates.get(key)
        if g is None:
            g = self.gates[key] = self.new()
            if a != 1:
                self.clauses.append([-g, -c, a])
            if b != 1:
                self.clauses.append([-g, c, b])
        return g

    def pb(self, op: str, bits: dict[int, int], k: int) -> int:
        """``sum(w * [lit]) + k op 0`` as one literal (a decision diagram)."""
        if op == "distinct":
            return -self.pb("eq", bits, k)
        return self._diagram(op, bits, k, self.ite)

    def assert_pb(self, op: str, bits: dict[int, int], k: int) -> None:
        """Assert ``sum(w * [lit]) + k op 0`` at the top level: the same diagram with its
        nodes one-directional (``ite_down``), a third of the clauses of full gates. The
        models projected on ``bits``' literals are the same: any solution extends by
        giving each node its value, and a model's true root forces the sum's test along
        the path the literals take."""
        if op == "distinct":
            self.clauses.append([self.pb(op, bits, k)])
            return
        self.clauses.append([self._diagram(op, bits, k, self.ite_down)])

    def _diagram(
        self, op: str, bits: dict[int, int], k: int, ite: Callable[[int, int, int], int]
    ) -> int:
        if op in ("ge", "gt"):  # -(sum + k) <= 0 (< 0)
            bits = {x: -w for x, w in bits.items()}
            k = -k
            op = "le" if op == "ge" else "lt"
        r = -k - 1 if op == "lt" else -k  # sum <= r, or sum == r
        items: list[tuple[int, int]] = []
        for x, w in bits.items():
            if w < 0:  # w * x = w - w * not x
                r -= w
                items.append((-x, -w))
            elif w:
                items.append((x, w))
        if len(items) > MAX_PB_TERMS:
            raise Unsupported("a sum too long to encode")
        items.sort(key=lambda xw: -xw[1])
        suffix = [0] * (len(items) + 1)
        for j in range(len(items) - 1, -1, -1):
            suffix[j] = suffix[j + 1] + items[j][1]
        eq = op == "eq"
        memo: dict[tuple[int, int], int] = {}

        def node(j: int, rest: int) -> int:
            if rest < 0 or (eq and rest > suffix[j]):
                return -1
            if (not eq and suffix[j] <= rest) or (eq and suffix[j] == 0):
                return 1  # eq with nothing left: rest == 0 here
            key = (j, rest)
            got = memo.get(key)
            if got is None:
                self.pb_nodes += 1
                if self.pb_nodes > MAX_PB_NODES:
                    raise Unsupported("a pseudo-Boolean comparison too large to encode")
                x, w = items[j]
                got = memo[key] = ite(x, node(j + 1, rest - w), node(j + 1, rest))
            return got

        try:
            return node(0, r)
        finally:
            node = None  # type: ignore[assignment]  # the recursive closure is a cycle
