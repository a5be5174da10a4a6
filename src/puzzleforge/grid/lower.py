"""The RepresentationSchema: ground formula -> bit level -> CNF.

Why this shape: every integer (or enum) term becomes a one-hot value map ``{value: lit}``
with derived order literals ``[x >= v]`` on demand, so comparisons, sums and clue rules
all reduce to a handful of clauses; top-level counting constraints go straight to the
core cardinality encodings; clue rules are guarded by selector literals (assumptions),
so one encoding serves every clue set. Choices: ``int_encoding`` "onehot" (primary
equality literals) or "order" (primary ``>=`` literals), ``card_encoding`` any core
cardinality encoding name (seqcounter, totalizer, sortnetwrk, cardnetwrk, mtotalizer) or
"native": unguarded counts that would need auxiliary variables are kept as at-most-k
constraints in ``natives`` for a solver that propagates them natively (Minicard), the
guarded ones (clue rules) falling back to the sequential counter.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from ..core.solver import VarPool
from ..core.solver.encodings import CARD_ENCODINGS, at_least_k, at_most_k, exactly_k
from .domains import DSLError
from .ground import Grounder, gtype

__all__ = ["IntRep", "Lowering", "INT_ENCODINGS"]

INT_ENCODINGS = ("onehot", "order")


class IntRep:
    """A finite integer/enum term: ``eq[value]`` literals, exactly one true."""

    __slots__ = ("values", "eq", "_ge", "low")

    def __init__(self, low: Lowering, eq: dict) -> None:
        self.low = low
        self.eq = eq
        try:
            self.values = sorted(eq)
        except TypeError:  # enum strings and ints mixed: keep declaration order
            self.values = list(eq)
        self._ge: dict = {}

    def const(self) -> Any:
        """The value if this term is constant, else None."""
        if len(self.eq) == 1:
            return next(iter(self.eq))
        return None

    def ge(self, v: int) -> int:
        """Literal of ``term >= v`` (defined by a chain over the equality literals)."""
        T = self.low.T
        vals = self.values
        if v <= vals[0]:
            return T
        if v > vals[-1]:
            return -T
        # smallest value >= v
        i = next(i for i, x in enumerate(vals) if x >= v)
        key = vals[i]
        lit = self._ge.get(key)
        if lit is not None:
            return lit
        # build from the top down: ge(v_i) <-> eq(v_i) | ge(v_{i+1})
        nxt = -T
        for j in range(len(vals) - 1, 0, -1):
            x = vals[j]
            cur = self._ge.get(x)
            if cur is None:
                cur = self.low.new()
                e = self.eq[x]
                self.low.emit([-cur, e, nxt])
                self.low.emit([cur, -e])
                self.low.emit([cur, -nxt])
                self._ge[x] = cur
            nxt = cur
            if j <= i:
                break
        return self._ge[key]


class Lowering:
    """Lowers a ground rule set into clauses over one VarPool."""

    def __init__(
        self, grounder: Grounder, *, int_encoding: str = "onehot", card_encoding: str = "seqcounter"
    ) -> None:
        if int_encoding not in INT_ENCODINGS:
            raise DSLError(
                f"unknown int encoding {int_encoding!r}", expected=" or ".join(INT_ENCODINGS)
            )
        if card_encoding not in CARD_ENCODINGS and card_encoding != "native":
            raise DSLError(
                f"unknown cardinality encoding {card_encoding!r}",
                expected="one of " + ", ".join(CARD_ENCODINGS) + ", native",
            )
        self.g = grounder
        self.int_encoding = int_encoding
        self.card_encoding = card_encoding
        self.pool = VarPool()
        self.clauses: list[list[int]] = []
        self.T = self.pool.id(("__true__",))
        self.clauses.append([self.T])
        self.reps: dict[tuple, Any] = {}  # (var, entity) -> lit (bool) or IntRep
        self.cache: dict[tuple, Any] = {}
        self.selectors: dict[tuple, int] = {}  # (spec name, place, value) -> lit
        self.presence: dict[tuple, int] = {}
        self.specs: dict[str, Any] = {}
        self.lazy: list[tuple] = []  # ('conn', [(entity, lit)]) / ('loop', nodes, [(edge, lit)])
        self.answer_vars: list[Any] = []
        self.natives: list[tuple[list[int], int]] = []  # native at-most-k (card_encoding="native")
        self._declare()

    # -- plumbing ------------------------------------------------------------------------
    def new(self) -> int:
        return self.pool.fresh()

    def emit(self, clause: list[int]) -> None:
        T = self.T
        out = []
        for lit in clause:
            if lit == T:
                return
            if lit == -T:
                continue
            out.append(lit)
        if not out:
            out = [-T]
        self.clauses.append(out)

    # -- variables ---------------------------------------------------------------------
    def _declare(self) -> None:
        for var in self.g.model.variables():
            dom = self.g.domain(var)
            if var.answer:
                self.answer_vars.append(var)
            for e in self.g.instances(var):
                key = (var.name, e)
                if dom.kind == "bool":
                    self.reps[(id(var), e)] = self.pool.id(("var", key))
                    continue
                values = dom.value_list()
                self.reps[(id(var), e)] = self._int_var(key, values)

    def _int_var(self, key: tuple, values: list) -> IntRep:
        if len(values) == 1:
            return IntRep(self, {values[0]: self.T})
        ordered = all(isinstance(v, int) for v in values)
        if self.int_encoding == "onehot" or not ordered:
            eq = {v: self.pool.id(("var", key, v)) for v in values}
            lits = list(eq.values())
            self.emit(lits)
            if len(lits) <= 12:  # pairwise: fastest propagation for the short lists of grid puzzles
                for i in range(len(lits)):
                    for j in range(i + 1, len(lits)):
                        self.emit([-lits[i], -lits[j]])
            else:
                for c in at_most_k(lits, 1, self.pool, "seqcounter"):
                    self.emit(c)
            return IntRep(self, eq)
        # order encoding: primary ge literals, equality literals derived
        vals = sorted(values)
        ge = {v: self.pool.id(("ge", key, v)) for v in vals[1:]}
        for a, b in pairwise(vals[1:]):
            self.emit([-ge[b], ge[a]])
        eq = {}
        for i, v in enumerate(vals):
            lo = ge[v] if i > 0 else self.T
            hi = ge[vals[i + 1]] if i + 1 < len(vals) else -self.T
            e = self.pool.id(("var", key, v))
            self.emit([-e, lo])
            self.emit([-e, -hi])
            self.emit([e, -lo, hi])
            eq[v] = e
        rep = IntRep(self, eq)
        rep._ge.update(ge)
        return rep

    def var_lit(self, var: Any, entity: Any) -> Any:
        return self.reps[(id(var), entity)]

    def presence_map(self, spec: Any, places: list) -> dict:
        return {p: self.present(spec, p) for p in places}

    def selector(self, spec: Any, place: Any, value: Any) -> int:
        key = (spec.name, place, value)
        lit = self.selectors.get(key)
        if lit is None:
            lit = self.selectors[key] = self.pool.id(("sel",) + key)
            self.specs[spec.name] = spec
        return lit

    def present(self, spec: Any, place: Any) -> int:
        key = (spec.name, place)
        lit = self.presence.get(key)
        if lit is None:
            lit = self.presence[key] = self.pool.id(("present",) + key)
            sels = [self.selector(spec, place, v) for v in self.g.clue_values(spec)]
            self.emit([-lit] + sels)
            for s in sels:
                self.emit([lit, -s])
        return lit

    # -- terms ---------------------------------------------------------------------------
    def rep(self, g: tuple) -> IntRep:
        hit = self.cache.get(("rep", g))
        if hit is not None:
            return hit
        r = self._rep(g)
        self.cache[("rep", g)] = r
        return r

    def _const(self, v: Any) -> IntRep:
        return IntRep(self, {v: self.T})

    def _rep(self, g: tuple) -> IntRep:
        tag = g[0]
        if tag == "c":
            v = g[1]
            return self._const(int(v) if isinstance(v, bool) else v)
        if gtype(g) == "bool":
            lit = self.lit(g)
            if lit == self.T:
                return self._const(1)
            if lit == -self.T:
                return self._const(0)
            return IntRep(self, {0: -lit, 1: lit})
        if tag == "v":
            return self.reps[(id(g[1]), g[2])]
        if tag == "add":
            reps = [self.rep(a) for a in g[1]]
            while len(reps) > 1:  # balanced tree = totalizer shape
                nxt = [self._add2(reps[i], reps[i + 1]) for i in range(0, len(reps) - 1, 2)]
                if len(reps) % 2:
                    nxt.append(reps[-1])
                reps = nxt
            return reps[0]
        if tag == "mul":
            a, b = self.rep(g[1]), self.rep(g[2])
            return self._binop(a, b, lambda x, y: x * y)
        if tag == "div":
            a, d = self.rep(g[1]), g[2][1]
            return self._map(a, lambda x: x // d)
        if tag == "ite":
            c = self.lit(g[1])
            a, b = self.rep(g[2]), self.rep(g[3])
            values = sorted(set(a.eq) | set(b.eq))
            eq = {z: self.new() for z in values}
            for z, r in eq.items():
                az, bz = a.eq.get(z, -self.T), b.eq.get(z, -self.T)
                self.emit([-c, -az, r])
                self.emit([c, -bz, r])
                self.emit([-r, -c, az])
                self.emit([-r, c, bz])
            return IntRep(self, eq)
        raise DSLError(f"cannot lower {tag} as an integer term")

    def _map(self, a: IntRep, f: Any) -> IntRep:
        groups: dict = {}
        for v, lit in a.eq.items():
            groups.setdefault(f(v), []).append(lit)
        eq = {}
        for z, lits in groups.items():
            if len(lits) == 1:
                eq[z] = lits[0]
            else:
                r = self.new()
                self.emit([-r] + lits)
                for lit in lits:
                    self.emit([r, -lit])
                eq[z] = r
        return IntRep(self, eq)

    def _add2(self, a: IntRep, b: IntRep) -> IntRep:
        for x, y in ((a, b), (b, a)):
            k = x.const()
            if k is not None:
                return IntRep(self, {v + k: lit for v, lit in y.eq.items()})
        values = sorted({x + y for x in a.eq for y in b.eq})
        eq = {z: self.new() for z in values}
        for x, lx in a.eq.items():
            for y, ly in b.eq.items():
                self.emit([-lx, -ly, eq[x + y]])
        for z, r in eq.items():
            for x, lx in a.eq.items():
                self.emit([-r, -lx, b.eq.get(z - x, -self.T)])
            for y, ly in b.eq.items():
                self.emit([-r, -ly, a.eq.get(z - y, -self.T)])
        return IntRep(self, eq)

    def _binop(self, a: IntRep, b: IntRep, f: Any) -> IntRep:
        for x, y, swap in ((a, b, False), (b, a, True)):
            k = x.const()
            if k is not None:
                return self._map(y, (lambda v, k=k: f(v, k)) if swap else (lambda v, k=k: f(k, v)))
        table: dict = {}
        for x, lx in a.eq.items():
            for y, ly in b.eq.items():
                table.setdefault(f(x, y), []).append((lx, ly))
        eq = {z: self.new() for z in table}
        for z, pairs in table.items():
            for lx, ly in pairs:
                self.emit([-lx, -ly, eq[z]])
        lits = list(eq.values())
        for c in (
            at_most_k(lits, 1, self.pool, "seqcounter")
            if len(lits) > 6
            else [[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))]
        ):
            self.emit(c)
        return IntRep(self, eq)

    # -- Boolean literals ----------------------------------------------------------------
    def lit(self, g: tuple) -> int:
        tag = g[0]
        if tag == "c":
            return self.T if g[1] else -self.T
        if tag == "v":
            return self.reps[(id(g[1]), g[2])]
        if tag == "not":
            return -self.lit(g[1])
        hit = self.cache.get(("lit", g))
        if hit is not None:
            return hit
        if tag == "and":
            lits = [self.lit(a) for a in g[1]]
            t = self.new()
            for lit in lits:
                self.emit([-t, lit])
            self.emit([t] + [-lit for lit in lits])
        elif tag == "or":
            lits = [self.lit(a) for a in g[1]]
            t = self.new()
            for lit in lits:
                self.emit([t, -lit])
            self.emit([-t] + lits)
        elif tag == "cmp":
            t = self._cmp(g[1], g[2], g[3])
        elif tag == "ite":
            c, a, b = self.lit(g[1]), self.lit(g[2]), self.lit(g[3])
            t = self.new()
            self.emit([-t, -c, a])
            self.emit([-t, c, b])
            self.emit([t, -c, -a])
            self.emit([t, c, -b])
        elif tag == "given":
            t = self.present(g[1], g[2])
        else:
            raise DSLError(
                f"{tag} cannot be used inside a formula",
                expected="connected/single_loop/clue rules as top-level rules",
            )
        self.cache[("lit", g)] = t
        return t

    def _cmp(self, op: str, a: tuple, b: tuple) -> int:
        T = self.T
        if op in ("Eq", "Ne") and gtype(a) == "bool" and gtype(b) == "bool":
            x, y = self.lit(a), self.lit(b)
            for u, w in ((x, y), (y, x)):
                if abs(w) == T:  # comparison with a constant: the literal itself
                    same = (w == T) == (op == "Eq")
                    return u if same else -u
            t = self.new()
            self.emit([-t, -x, y])
            self.emit([-t, x, -y])
            self.emit([t, x, y])
            self.emit([t, -x, -y])
            return t if op == "Eq" else -t
        A, B = self.rep(a), self.rep(b)
        flip = {"Lt": "Gt", "Le": "Ge", "Gt": "Lt", "Ge": "Le", "Eq": "Eq", "Ne": "Ne"}
        if A.const() is not None and B.const() is None:
            A, B, op = B, A, flip[op]
        k = B.const()
        if k is not None:
            if op == "Eq":
                return A.eq.get(k, -T)
            if op == "Ne":
                return -A.eq.get(k, -T)
            if op == "Lt":
                return -A.ge(k)
            if op == "Le":
                return -A.ge(k + 1)
            if op == "Gt":
                return A.ge(k + 1)
            return A.ge(k)
        if op in ("Eq", "Ne"):
            t = self.new()
            for v, lv in A.eq.items():
                if v in B.eq:
                    self.emit([-lv, -B.eq[v], t])
                self.emit([-t, -lv, B.eq.get(v, -T)])
            return t if op == "Eq" else -t
        if op == "Gt":
            return self._lt(B, A)
        if op == "Ge":
            return -self._lt(A, B)
        if op == "Le":
            return -self._lt(B, A)
        return self._lt(A, B)

    def _lt(self, A: IntRep, B: IntRep) -> int:
        t = self.new()
        for v, lv in A.eq.items():
            self.emit([-t, -lv, B.ge(v + 1)])
        for v, lv in B.eq.items():
            self.emit([t, -lv, A.ge(v)])
        return t

    # -- top level -----------------------------------------------------------------------
    def lower(self, constraints: list[tuple]) -> None:
        for g in constraints:
            self.top(g, [])

    def top(self, g: tuple, guard: list[int]) -> None:
        tag = g[0]
        if tag == "c":
            if not g[1]:
                self.emit(list(guard))
            return
        if tag == "and":
            for a in g[1]:
                self.top(a, guard)
            return
        if tag == "clue":
            _, spec, place, value, body = g
            key = (spec.name, place, value)
            simple = (
                body[0] == "v"
                or body[0] == "not"
                and body[1][0] == "v"
                or (
                    body[0] == "cmp"
                    and body[1] in ("Eq", "Ne")
                    and {body[2][0], body[3][0]} == {"v", "c"}
                )
            )
            if not guard and not spec.closed and key not in self.selectors and simple:
                # a clue that just fixes one existing literal: that literal is the selector
                top, n = self.pool.top, len(self.clauses)
                lit = self.lit(body)
                if self.pool.top == top and len(self.clauses) == n:
                    self.selectors[key] = lit
                    self.specs[spec.name] = spec
                    return
                self.emit([lit, -self.selector(spec, place, value)])
                return
            self.top(body, guard + [-self.selector(spec, place, value)])
            return
        if tag == "or":
            lits = []
            for a in g[1]:
                if a[0] == "and" or a[0] == "cmp" and self._card_form(a) is not None:
                    lits.append(self.lit(a))
                else:
                    lits.append(self.lit(a))
            self.emit(lits + guard)
            return
        if tag == "not" and g[1][0] == "or":
            for a in g[1][1]:
                self.top(("not", a) if a[0] != "not" else a[1], guard)
            return
        if tag == "cmp":
            form = self._card_form(g)
            if form is not None:
                self._card(form, guard)
                return
        if tag == "runs":
            self._runs(g[1], [self.lit(x) for _, x in g[2]], guard)
            return
        if tag in ("conn", "loop", "islands"):
            if guard:
                raise DSLError(f"{tag} cannot depend on a clue", expected="a rule on its own")
            self._graph(g)
            return
        self.emit([self.lit(g)] + guard)

    def _runs(self, pattern: tuple, lits: list[int], guard: list[int]) -> None:
        """Regular constraint: state literals per position, forward transitions, exactly
        one state per position (states pruned to those that can still reach the end)."""
        from .primitives import run_automaton

        L, delta = run_automaton(pattern)
        n = len(lits)
        states: list[dict] = []
        for i in range(n + 1):
            ok = {j for j in range(L + 1) if j <= i and (n - i) >= (L - j)}
            states.append({j: self.new() for j in sorted(ok)})
        if not states[0] or 0 not in states[0]:
            self.emit(list(guard))
            return
        self.emit([states[0][0]] + guard)
        for i in range(n):
            x = lits[i]
            for j, s in states[i].items():
                for bit, cond in ((1, x), (0, -x)):
                    k = delta(j, bit)
                    nxt = states[i + 1].get(k) if k is not None else None
                    if nxt is None:
                        self.emit([-s, -cond] + guard)
                    else:
                        self.emit([-s, -cond, nxt] + guard)
            cur = list(states[i + 1].values())
            for c in (
                at_most_k(cur, 1, self.pool, "seqcounter")
                if len(cur) > 5
                else [[-cur[a], -cur[b]] for a in range(len(cur)) for b in range(a + 1, len(cur))]
            ):
                self.emit(list(c) + guard)
        final = states[n].get(L)
        self.emit(([final] if final else []) + guard)

    def _card_form(self, g: tuple) -> tuple | None:
        """(op, lits, k) when ``g`` compares a count of Booleans with a constant."""
        op, a, b = g[1], g[2], g[3]
        if a[0] == "c" and b[0] != "c":
            a, b = b, a
            op = {"Lt": "Gt", "Le": "Ge", "Gt": "Lt", "Ge": "Le"}.get(op, op)
        if b[0] != "c" or isinstance(b[1], str):
            return None
        k = int(b[1])
        terms = a[1] if a[0] == "add" else (a,)
        lits = []
        for t in terms:
            if t[0] == "c":
                k -= int(t[1])
            elif gtype(t) == "bool":
                lits.append(self.lit(t))
            else:
                return None
        if len(lits) < 2 or op == "Ne":
            return None
        return (op, lits, k)

    def _card(self, form: tuple, guard: list[int]) -> None:
        op, lits, k = form
        n = len(lits)
        enc = self.card_encoding
        if op == "Lt":
            op, k = "Le", k - 1
        elif op == "Gt":
            op, k = "Ge", k + 1
        if op in ("Le", "Eq") and k == 1 and n <= 12:  # pairwise at-most-one (+ at-least-one)
            clauses = [[-lits[i], -lits[j]] for i in range(n) for j in range(i + 1, n)]
            if op == "Eq":
                clauses.append(list(lits))
        elif op == "Le" and k == n - 1:
            clauses = [[-lit for lit in lits]]
        elif op == "Ge" and k == 1:
            clauses = [list(lits)]
        elif enc == "native" and not guard and 0 < k < n:
            if op in ("Le", "Eq"):
                self._native_atmost(lits, k)
            if op in ("Ge", "Eq"):
                self._native_atmost([-lit for lit in lits], n - k)
            return
        elif enc == "native":
            clauses = {"Le": at_most_k, "Ge": at_least_k}.get(op, exactly_k)(
                lits, k, self.pool, "seqcounter"
            )
        elif op == "Le":
            clauses = at_most_k(lits, k, self.pool, enc)
        elif op == "Ge":
            clauses = at_least_k(lits, k, self.pool, enc)
        else:
            clauses = exactly_k(lits, k, self.pool, enc)
        for c in clauses:
            self.emit(list(c) + guard)

    def _native_atmost(self, lits: list[int], k: int) -> None:
        """Record ``at most k of lits`` natively (constant literals folded into k)."""
        T = self.T
        k -= sum(1 for lit in lits if lit == T)
        rest = [lit for lit in lits if abs(lit) != T]
        if k < 0:
            self.emit([-T])
        elif k == 0:
            for lit in rest:
                self.emit([-lit])
        elif k < len(rest) and len({abs(lit) for lit in rest}) == len(rest):
            self.natives.append((rest, k))
        elif k < len(rest):  # a literal repeated (or with its negation): clauses count it right
            for c in at_most_k(rest, k, self.pool, "seqcounter"):
                self.emit(list(c))

    def natives_as_clauses(self, pool: Any) -> list[list[int]]:
        """The native constraints as sequential-counter clauses (auxiliaries from ``pool``),
        for sessions without native cardinality (propagation copies, other backends)."""
        out: list[list[int]] = []
        for lits, k in self.natives:
            out.extend(list(c) for c in at_most_k(lits, k, pool, "seqcounter"))
        return out

    def _graph(self, g: tuple) -> None:
        if g[0] == "islands":
            spec = g[1]
            items = [(e, self.lit(x)) for e, x in g[2]]
            values = self.g.clue_values(spec)
            for e, lit in items:  # a clue cell belongs to an island
                if (spec.name, e, values[0]) in self.selectors or True:
                    self.emit([lit, -self.present(spec, e)])
            sels = {e: {v: self.selector(spec, e, v) for v in values} for e, _ in items}
            self.lazy.append(
                ("islands", spec, sels, self.presence_map(spec, [e for e, _ in items]), items)
            )
            return
        if g[0] == "conn":
            items = [(e, self.lit(x)) for e, x in g[1]]
            self.lazy.append(("conn", items))
            return
        nodes, items = g[1], [(e, self.lit(x)) for e, x in g[2]]
        grid = next(iter(self.g._grids.values()))
        incid: dict = {}
        for e, lit in items:
            ends = grid.edge_vertices(e) if nodes == "vertices" else grid.edge_cells(e)
            for v in ends:
                incid.setdefault(v, []).append(lit)
        for lits in incid.values():  # degree 0 or 2
            for i, lit in enumerate(lits):
                others = lits[:i] + lits[i + 1 :]
                self.emit([-lit] + others)
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    for k in range(j + 1, len(lits)):
                        self.emit([-lits[i], -lits[j], -lits[k]])
        self.emit([lit for _, lit in items])  # at least one edge
        self.lazy.append(("loop", nodes, items))
