"""Grid, ClueSpec, Model and the helper library (expanded to primitives at once).

Why here and not in ir.py: these are the user-facing declarations a rule file writes;
``Model`` is where rule-time checks run (every rule is Boolean, every binder is used
inside the quantifier that introduced it, graph primitives are top-level only) and where
Params are bound.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .domains import Domain, DSLError, Int
from .ir import (
    Aggregate,
    And,
    Binder,
    Card,
    Const,
    CountTrue,
    Div,
    EntityFn,
    Eq,
    Expr,
    ForAll,
    GridSet,
    Gt,
    Lt,
    Node,
    Param,
    Quant,
    SetExpr,
    Sum,
    Var,
    VarRef,
    _apply,
    _binder_name,
    _need,
    as_set,
    assert_no_pending,
    lift,
    short,
    walk,
)
from .ir.nodes import pretty_expr, pretty_set
from .primitives import Connected, Islands, SingleLoop

__all__ = [
    "Grid",
    "ClueSpec",
    "ClueRule",
    "Model",
    "balanced",
    "exactly_k_true",
    "no_triples",
    "all_different",
]


class Grid:
    """``Grid(nR, nC)``: symbolic board whose sets resolve once nR, nC are known."""

    def __init__(self, nR: Any, nC: Any, name: str = "grid") -> None:
        self.nR = lift(nR) if not isinstance(nR, Expr) else nR
        self.nC = lift(nC) if not isinstance(nC, Expr) else nC
        for v in (self.nR, self.nC):
            _need(v, ("int",), "Grid size")
        self.name = name
        self.C = GridSet(self, "C", (), "cell")
        self.E = GridSet(self, "E", (), "edge")
        self.V = GridSet(self, "V", (), "vertex")
        self.rows = GridSet(self, "rows", (), "line")
        self.cols = GridSet(self, "cols", (), "line")
        self.outside_edges = GridSet(self, "outside_edges", (), "edge")
        self.inner_edges = GridSet(self, "inner_edges", (), "edge")
        self.sight_lines = GridSet(self, "sight_lines", (), "line")

    def row(self, i: Any) -> SetExpr:
        return GridSet(self, "row", (lift(i),), "cell")

    def col(self, j: Any) -> SetExpr:
        return GridSet(self, "col", (lift(j),), "cell")

    def windows(self, k: Any) -> SetExpr:
        """Every k-long window of every row and column."""
        return GridSet(self, "windows", (lift(k),), "line")

    def boxes(self, bh: Any, bw: Any) -> SetExpr:
        return GridSet(self, "boxes", (lift(bh), lift(bw)), "line")

    def blocks(self, bh: Any, bw: Any) -> SetExpr:
        return GridSet(self, "blocks", (lift(bh), lift(bw)), "line")

    def _entity(self, e: Any, kind: str, what: str) -> Expr:
        e = lift(e, what)
        if e.type != "entity" or (e.kind and e.kind != kind):
            raise DSLError(f"{what} expects a {kind}, got {short(e)}", expected=f"a {kind}")
        return e

    def incident_edges(self, c: Any) -> SetExpr:
        return GridSet(self, "cell_edges", (self._entity(c, "cell", "incident_edges"),), "edge")

    cell_edges = incident_edges

    def inner_cell_edges(self, c: Any) -> SetExpr:
        """The edges of a cell shared with another cell (Masyu's moves)."""
        return GridSet(
            self, "inner_cell_edges", (self._entity(c, "cell", "inner_cell_edges"),), "edge"
        )

    def cell_vertices(self, c: Any) -> SetExpr:
        return GridSet(self, "cell_vertices", (self._entity(c, "cell", "cell_vertices"),), "vertex")

    def vertex_edges(self, v: Any) -> SetExpr:
        return GridSet(self, "vertex_edges", (self._entity(v, "vertex", "vertex_edges"),), "edge")

    def neighbors(self, c: Any, diagonal: bool = False) -> SetExpr:
        return GridSet(
            self,
            "neighbors8" if diagonal else "neighbors",
            (self._entity(c, "cell", "neighbors"),),
            "cell",
        )

    def sight(self, c: Any, blocked: Any) -> SetExpr:
        """The cell and the cells seen from it along row and column, stopping before a
        cell where ``blocked`` (a Const-valued key, known at grounding) is true."""
        cell = self._entity(c, "cell", "sight")
        b = Binder(_binder_name(blocked, "p"), "cell")
        body = _apply(blocked, b, "sight", ("bool",))
        return GridSet(self, "sight", (cell, b, body), "cell")

    def cell(self, i: Any, j: Any) -> Expr:
        return EntityFn("cell_at", self, (lift(i), lift(j)), "cell")

    def step(self, c: Any, dr: int, dc: int) -> Expr:
        """The cell ``(dr, dc)`` away from ``c`` (may be off the board: use ``var.get``)."""
        return EntityFn("step", self, (self._entity(c, "cell", "step"), dr, dc), "cell")

    def edge_cell(self, e: Any, which: int) -> Expr:
        """Cell before (0: above/left) or after (1: below/right) an edge."""
        return EntityFn("edge_cell", self, (self._entity(e, "edge", "edge_cell"), which), "cell")

    def cell_edge(self, c: Any, d: str) -> Expr:
        """Edge on side ``d`` ('N', 'S', 'W', 'E') of a cell."""
        return EntityFn("cell_edge", self, (self._entity(c, "cell", "cell_edge"), d), "edge")


# ------------------------------------------------------------------------- clues ---
class ClueSpec:
    """``ClueSpec(places, domain)``: where clues may occur and which values they take.

    A clue is switched on by a selector literal (an assumption), so changing the clues of
    an instance never re-encodes the rules. ``closed=True`` says an absent clue is known
    to be absent (its selectors are assumed false), which matters when a rule speaks about
    clue presence (Nurikabe islands).
    """

    def __init__(
        self, places: Any, domain: Domain, *, name: str = "clue", closed: bool = False
    ) -> None:
        self.places = as_set(places)
        if not isinstance(domain, Domain):
            raise DSLError(
                f"ClueSpec '{name}': {domain!r} is not a domain",
                expected="Int(..), Enum(..) or Bool",
            )
        self.domain = domain
        self.name = name
        self.closed = closed

    def rule(self, fn: Callable[[Any, Any], Any]) -> ClueRule:
        """``spec.rule(lambda place, value: constraint)``: what a clue at place means."""
        return ClueRule(self, fn)

    def present(self, place: Any) -> Expr:
        """True where a clue of this spec is given (closed specs only)."""
        if not self.closed:
            raise DSLError(
                f"ClueSpec '{self.name}' is open: clue presence is unknown",
                expected="ClueSpec(..., closed=True)",
            )
        return ClueRef(self, lift(place))

    def __repr__(self) -> str:
        return f"ClueSpec({self.name})"


class ClueRef(Expr):
    type = "bool"

    def __init__(self, spec: ClueSpec, place: Expr) -> None:
        self.spec, self.place = spec, place

    def children(self) -> tuple:
        return (self.place,)

    def pretty(self, prec: int = 0) -> str:
        return f"given_{self.spec.name}({pretty_expr(self.place)})"


class ClueRule(Expr):
    """For each place p and value v of the spec: selector(p, v) -> body(p, v)."""

    type = "bool"

    def __init__(self, spec: ClueSpec, fn: Callable[[Any, Any], Any]) -> None:
        self.spec = spec
        try:
            import inspect

            names = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            names = []
        if len(names) != 2:
            raise DSLError(
                f"ClueSpec '{spec.name}'.rule needs a lambda of (place, value)",
                expected="lambda p, k: ...",
            )
        self.place = Binder(names[0], spec.places.elem)
        self.value = Binder(names[1], "int")
        self.value.type = spec.domain.kind
        self.value.kind = None
        self.value.domain = spec.domain
        body = fn(self.place, self.value)
        assert_no_pending(f"clue rule {spec.name}")
        if isinstance(body, bool):
            raise DSLError(
                f"clue rule {spec.name} returned the Python value {body!r}",
                expected="a DSL expression",
            )
        self.body = _need(lift(body), ("bool",), f"clue rule {spec.name}")

    def children(self) -> tuple:
        return (self.spec.places, self.body)

    def pretty(self, prec: int = 0) -> str:
        return (
            f"clue {self.spec.name}({self.place.name} in {pretty_set(self.spec.places)}, "
            f"{self.value.name} in {self.spec.domain!r}): {pretty_expr(self.body)}"
        )


# ------------------------------------------------------------------------ helpers ---
def balanced(S: Any, pred: Any) -> Expr:
    """``Sum(S, pred) == |S| / 2``."""
    return Eq(Sum(S, pred), Div(Card(S), 2))


def exactly_k_true(S: Any, k: Any, key: Any) -> Expr:
    return Eq(CountTrue(S, key), k)


def no_triples(line: Any, pred: Any) -> Expr:
    """No three equal in a row: every 3-window holds 1 or 2 true values."""
    return ForAll(
        as_set(line).windows(3), lambda w: And(Gt(w.sum_of(pred), 0), Lt(w.sum_of(pred), 3))
    )


def all_different(S: Any, values: Any, key: Any) -> Expr:
    """Each value of ``values`` (a Range) occurs exactly once among key(x), x in S
    (the strong form for n values over n entities: a permutation)."""
    S = as_set(S)
    return ForAll(
        values, lambda v: Eq(CountTrue(S, lambda x: Eq(key(x) if callable(key) else key[x], v)), 1)
    )


# -------------------------------------------------------------------------- model ---
class Model:
    """An ordered list of rules plus the declarations they use."""

    def __init__(self, name: str = "rules") -> None:
        self.name = name
        self.rules: list[Expr] = []
        self.labels: list[str] = []

    def add(self, rule: Any, label: str = "") -> Model:
        assert_no_pending("Model.add")
        if isinstance(rule, bool):
            raise DSLError(
                f"rule {len(self.rules) + 1} is the Python value {rule!r}",
                expected="a DSL expression (did a comparison run on plain ints?)",
            )
        rule = lift(rule, "rule")
        if rule.type != "bool":
            raise DSLError(
                f"rule {len(self.rules) + 1} is a {rule.type} expression ({short(rule)})",
                expected="a Boolean rule",
            )
        _check_scopes(rule, frozenset())
        _check_graph_top(rule, top=True)
        self.rules.append(rule)
        self.labels.append(label or f"rule {len(self.rules)}")
        return self

    def __iadd__(self, rule: Any) -> Model:
        return self.add(rule)

    # -- declarations --------------------------------------------------------------------
    def nodes(self):
        for rule in self.rules:
            yield from walk(rule)

    def params(self) -> list[Param]:
        seen: dict[str, Param] = {}
        for n in self.nodes():
            if isinstance(n, Param):
                seen.setdefault(n.name, n)
            for bound in (
                getattr(getattr(n, "domain", None), "lo", None),
                getattr(getattr(n, "domain", None), "hi", None),
            ):
                if isinstance(bound, Node):
                    for m in walk(bound):
                        if isinstance(m, Param):
                            seen.setdefault(m.name, m)
        return list(seen.values())

    def variables(self) -> list[Var]:
        seen: dict[int, Var] = {}
        for n in self.nodes():
            if isinstance(n, VarRef) and not isinstance(n.var, Const):
                seen.setdefault(id(n.var), n.var)
        return list(seen.values())

    def constants(self) -> list[Const]:
        seen: dict[int, Const] = {}
        for n in self.nodes():
            if isinstance(n, VarRef) and isinstance(n.var, Const):
                seen.setdefault(id(n.var), n.var)
        return list(seen.values())

    def clue_specs(self) -> list[ClueSpec]:
        seen: dict[int, ClueSpec] = {}
        for n in self.nodes():
            if isinstance(n, (ClueRule, ClueRef, Islands)):
                seen.setdefault(id(n.spec), n.spec)
        return list(seen.values())

    def check_binding(self, params: dict[str, Any], data: dict[str, Any] | None = None) -> None:
        """Raise one DSLError naming every unbound Param / Const and every bad value."""
        problems = []
        for p in self.params():
            if p.name not in params:
                problems.append(f"Param '{p.name}' is not bound")
            elif not isinstance(params[p.name], p.pytype) or (
                p.pytype is int and isinstance(params[p.name], bool)
            ):
                problems.append(f"Param '{p.name}'={params[p.name]!r} is not {p.pytype.__name__}")
        data = data or {}
        for c in self.constants():
            if c.value is None and c.name not in data:
                problems.append(f"Const '{c.name}' has no value")
        if problems:
            raise DSLError(
                "; ".join(problems),
                field=self.name,
                expected="every Param bound ("
                + ", ".join(f"{p.name}=..." for p in self.params())
                + ", which a genre's "
                "bind(instance) returns) and instance data inside its declared domain",
            )

    def pretty(self) -> str:
        from .pretty import pretty_model

        return pretty_model(self)


def data_out_of_range(const: Any, value: Any, resolve: Callable[[Any], Any]) -> list[str]:
    """Instance data outside its declared domain (symbolic bounds evaluated by
    ``resolve``): one problem naming the first bad entry, or none."""
    domain = const.domain.resolved(resolve) if isinstance(const.domain, Int) else const.domain
    items = list(value.items()) if isinstance(value, dict) else [("", value)]
    bad = [(e, v) for e, v in items if not domain.contains(v)]
    if not bad:
        return []
    where, v = bad[0]
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return [
        f"Const '{const.name}' holds {v!r}{f' at {where}' if where != '' else ''}{more}, "
        f"outside its domain {domain}"
    ]


def _check_scopes(node: Node, bound: frozenset) -> None:
    """Every binder must be used inside the quantifier / aggregate that introduced it."""
    from .primitives import Runs

    if isinstance(node, Runs):
        _check_scopes(node.scope, bound)
        _check_scopes(node.pattern, bound)
        _check_scopes(node.body, bound | {id(node.binder)})
        return
    if isinstance(node, Binder):
        if id(node) not in bound:
            raise DSLError(
                f"binder '{node.name}' is used outside the forall/sum/clue rule that introduced it",
                expected="binders only inside their own lambda",
            )
        return
    if isinstance(node, (Quant, Aggregate, Connected, SingleLoop, Islands)):
        _check_scopes(node.scope, bound)
        _check_scopes(node.body, bound | {id(node.binder)})
        return
    if isinstance(node, ClueRule):
        _check_scopes(node.body, bound | {id(node.place), id(node.value)})
        return
    if isinstance(node, GridSet) and node.fn == "sight":
        cell, b, body = node.args
        _check_scopes(cell, bound)
        _check_scopes(body, bound | {id(b)})
        return
    for child in node.children():
        _check_scopes(child, bound)


def _check_graph_top(node: Node, top: bool) -> None:
    if isinstance(node, (Connected, SingleLoop, Islands)) and not top:
        raise DSLError(
            f"{type(node).__name__} may only appear as a rule or inside And/forall",
            expected="a top-level connected(...)/single_loop(...) rule",
        )
    if isinstance(node, ClueRule):
        _check_graph_top(node.body, top)
        return
    keep = isinstance(node, (And, ForAll)) and top
    for child in node.children():
        if isinstance(child, Expr):
            _check_graph_top(child, keep)
