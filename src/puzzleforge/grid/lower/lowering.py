"""``Lowering``: the clause sink and the dispatch from ground nodes to their encodings.

Why this class is small: it owns the state one lowering shares (the VarPool, the clause
list, the true literal ``T``, variable value maps, clue selectors, the lazy graph items,
native counts) and decides, node by node, which encoding module handles a ground node:
integer terms go to ``ints``, comparisons to ``compare``, counts against constants to
``counting``, run patterns to ``runs``, graph rules to ``graph``. Boolean connectives
and clue rules stay here, because they are what ties the others together: a clue rule
is its body guarded by a selector literal (an assumption), so one encoding serves every
clue set, and a clue whose body is one existing literal uses that literal as its selector.
"""

from __future__ import annotations

from typing import Any

from ...core.solver import VarPool
from ...core.solver.encodings import CARD_ENCODINGS
from ..domains import DSLError
from ..ground import Grounder
from . import counting
from .compare import compare
from .graph import lower_graph
from .ints import INT_ENCODINGS, IntRep, declare_int, int_term
from .runs import lower_runs

__all__ = ["Lowering"]


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
                self.reps[(id(var), e)] = declare_int(self, key, values)

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
        """The value map of integer/enum term ``g`` (built once per term)."""
        hit = self.cache.get(("rep", g))
        if hit is not None:
            return hit
        r = int_term(self, g)
        self.cache[("rep", g)] = r
        return r

    # -- Boolean literals ----------------------------------------------------------------
    def lit(self, g: tuple) -> int:
        """The literal equivalent to Boolean ground formula ``g`` (built once per formula)."""
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
            t = compare(self, g[1], g[2], g[3])
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

    # -- top level -----------------------------------------------------------------------
    def lower(self, constraints: list[tuple]) -> None:
        for g in constraints:
            self.top(g, [])

    def top(self, g: tuple, guard: list[int]) -> None:
        """Assert ground rule ``g``, each clause extended by ``guard`` (negated selectors)."""
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
            self._clue(g, guard)
            return
        if tag == "or":
            lits = []
            for a in g[1]:
                if a[0] == "cmp":
                    # count_form lowers the counted literals first; kept for its effect on
                    # the variable numbering (the CNF text is pinned byte for byte)
                    counting.count_form(self, a)
                lits.append(self.lit(a))
            self.emit(lits + guard)
            return
        if tag == "not" and g[1][0] == "or":
            for a in g[1][1]:
                self.top(("not", a) if a[0] != "not" else a[1], guard)
            return
        if tag == "cmp":
            form = counting.count_form(self, g)
            if form is not None:
                counting.lower_count(self, form, guard)
                return
        if tag == "runs":
            lower_runs(self, g[1], [self.lit(x) for _, x in g[2]], guard)
            return
        if tag in ("conn", "loop", "islands"):
            if guard:
                raise DSLError(f"{tag} cannot depend on a clue", expected="a rule on its own")
            lower_graph(self, g)
            return
        self.emit([self.lit(g)] + guard)

    def _clue(self, g: tuple, guard: list[int]) -> None:
        """``selector(place, value) -> body``; a body that is one existing literal (a
        given digit, a given colour) is its own selector and costs no clause."""
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

    def natives_as_clauses(self, pool: Any) -> list[list[int]]:
        """The native constraints as sequential-counter clauses (auxiliaries from ``pool``),
        for sessions without native cardinality (propagation copies, other backends)."""
        return counting.natives_as_clauses(self.natives, pool)
