"""Grounding: bind Params and instance data, expand quantifiers and aggregates.

Why a ground tree between the IR and the back ends: both the CNF lowering and the
SMT-LIB printer start from the same fully expanded, constant-folded formula over variable
instances ``('v', var, entity)``, so the two outputs cannot drift apart.

Ground nodes are tuples: ('c', value) | ('v', var, entity) | ('not', a) | ('and', args) |
('or', args) | ('cmp', op, a, b) | ('add', args) | ('mul', a, b) | ('div', a, b) |
('ite', c, a, b) | ('clue', spec, place, value, body) | ('given', spec, place) |
('conn', ((entity, g), ...)) | ('loop', nodes, ((edge, g), ...)).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import ir
from .domains import Domain, DSLError, Int
from .model import ClueRef, ClueRule, Model, data_out_of_range
from .primitives import Connected, Islands, SingleLoop
from .topology import Cell, ConcreteGrid, Edge, Line, Vertex

__all__ = ["Grounder", "TRUE", "FALSE", "gtype", "mk_and", "mk_or", "mk_not", "mk_cmp", "mk_add"]

TRUE = ("c", True)
FALSE = ("c", False)


def gtype(g: tuple) -> str:
    tag = g[0]
    if tag == "c":
        v = g[1]
        return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "enum"
    if tag == "v":
        return g[1].domain.kind
    if tag in ("add", "mul", "div"):
        return "int"
    if tag == "ite":
        return gtype(g[2])
    return "bool"


def mk_not(a: tuple) -> tuple:
    if a[0] == "c":
        return ("c", not a[1])
    if a[0] == "not":
        return a[1]
    return ("not", a)


def mk_and(args: Iterable[tuple]) -> tuple:
    out = []
    for a in args:
        if a[0] == "c":
            if not a[1]:
                return FALSE
            continue
        if a[0] == "and":
            out.extend(a[1])
        else:
            out.append(a)
    if not out:
        return TRUE
    return out[0] if len(out) == 1 else ("and", tuple(out))


def mk_or(args: Iterable[tuple]) -> tuple:
    out = []
    for a in args:
        if a[0] == "c":
            if a[1]:
                return TRUE
            continue
        if a[0] == "or":
            out.extend(a[1])
        else:
            out.append(a)
    if not out:
        return FALSE
    return out[0] if len(out) == 1 else ("or", tuple(out))


_CMP = {
    "Eq": lambda x, y: x == y,
    "Ne": lambda x, y: x != y,
    "Lt": lambda x, y: x < y,
    "Le": lambda x, y: x <= y,
    "Gt": lambda x, y: x > y,
    "Ge": lambda x, y: x >= y,
}


def mk_cmp(op: str, a: tuple, b: tuple) -> tuple:
    if a[0] == "c" and b[0] == "c":
        x, y = a[1], b[1]
        if isinstance(x, bool) or isinstance(y, bool):
            x, y = (int(x) if isinstance(x, bool) else x), (int(y) if isinstance(y, bool) else y)
        return ("c", bool(_CMP[op](x, y)))
    return ("cmp", op, a, b)


def mk_add(args: Iterable[tuple]) -> tuple:
    const = 0
    out = []
    for a in args:
        if a[0] == "c":
            const += int(a[1])
        elif a[0] == "add":
            for b in a[1]:
                if b[0] == "c":
                    const += int(b[1])
                else:
                    out.append(b)
        else:
            out.append(a)
    if not out:
        return ("c", const)
    if const:
        out.append(("c", const))
    return out[0] if len(out) == 1 and gtype(out[0]) == "int" else ("add", tuple(out))


class Grounder:
    """Expands a Model for concrete Params and instance data."""

    def __init__(
        self, model: Model, params: dict[str, Any], data: dict[str, Any] | None = None
    ) -> None:
        model.check_binding(params, data)
        self.model = model
        self.params = dict(params)
        self.data = dict(data or {})
        self._grids: dict[int, ConcreteGrid] = {}
        self._members: dict[int, frozenset] = {}
        self._domains: dict[int, Domain] = {}
        problems = [
            p
            for c in model.constants()
            for p in data_out_of_range(
                c, c.value if c.value is not None else self.data[c.name], self.const
            )
        ]
        if problems:  # data outside its declared range would ground to nonsense silently
            raise DSLError(
                "; ".join(problems),
                field=model.name,
                expected="instance data inside the domain its Const declares",
            )

    # -- constants ----------------------------------------------------------------------
    def const(self, expr: Any, env: dict | None = None) -> Any:
        g = self.ground(ir.lift(expr), env or {})
        if g[0] != "c":
            raise DSLError(
                f"{ir.short(expr)} must be a constant once params are bound",
                expected="an expression of Params and constants",
            )
        return g[1]

    def grid(self, grid: Any) -> ConcreteGrid:
        cg = self._grids.get(id(grid))
        if cg is None:
            nR, nC = self.const(grid.nR), self.const(grid.nC)
            if nR < 1 or nC < 1:
                raise DSLError(f"grid size {nR}x{nC} is empty", expected="at least 1x1")
            cg = self._grids[id(grid)] = ConcreteGrid(nR, nC)
        return cg

    def domain(self, var: ir.Var) -> Domain:
        d = self._domains.get(id(var))
        if d is None:
            d = var.domain
            if isinstance(d, Int):
                d = d.resolved(self.const)
            self._domains[id(var)] = d
        return d

    def instances(self, var: ir.Var) -> list:
        """Entities the variable is defined on ([None] for a scalar)."""
        if var.over is None:
            return [None]
        return list(self.resolve(var.over, {}))

    def members(self, var: ir.Var) -> frozenset:
        m = self._members.get(id(var))
        if m is None:
            m = self._members[id(var)] = frozenset(self.instances(var))
        return m

    # -- sets -----------------------------------------------------------------------------
    def resolve(self, s: ir.SetExpr, env: dict) -> tuple:
        if isinstance(s, ir.GridSet):
            return self._grid_set(s, env)
        if isinstance(s, ir.Windows):
            base = self.resolve(s.base, env)
            k = self.const(s.k, env)
            return tuple(Line(("win", i), tuple(base[i : i + k])) for i in range(len(base) - k + 1))
        if isinstance(s, ir.Union):
            left = self.resolve(s.left, env)
            seen = set(left)
            return left + tuple(x for x in self.resolve(s.right, env) if x not in seen)
        if isinstance(s, ir.Difference):
            drop = set(self.resolve(s.right, env))
            return tuple(x for x in self.resolve(s.left, env) if x not in drop)
        if isinstance(s, ir.BinderSet):
            value = env[id(s.binder)]
            return tuple(value.items)
        if isinstance(s, ir.Range):
            return tuple(range(self.const(s.lo, env), self.const(s.hi, env)))
        if isinstance(s, ir.Before):
            items = self.resolve(s.scope, env)
            e = self.entity(s.entity, env)
            return tuple(items[: items.index(e)]) if e in items else tuple(items)
        raise DSLError(f"unknown set {s!r}")

    def _grid_set(self, s: ir.GridSet, env: dict) -> tuple:
        g = self.grid(s.grid)
        fn = s.fn
        if fn == "C":
            return g.cells()
        if fn == "E":
            return g.edges()
        if fn == "V":
            return g.vertices()
        if fn == "rows":
            return g.rows()
        if fn == "cols":
            return g.cols()
        if fn == "outside_edges":
            return g.outside_edges()
        if fn == "inner_edges":
            return g.inner_edges()
        if fn == "sight_lines":
            return g.sight_lines()
        if fn == "row":
            return g.row(self.const(s.args[0], env)).items
        if fn == "col":
            return g.col(self.const(s.args[0], env)).items
        if fn == "windows":
            k = self.const(s.args[0], env)
            out: list[Any] = []
            for line in g.rows() + g.cols():
                out.extend(g.windows(line.items, k, line.name))
            return tuple(out)
        if fn in ("boxes", "blocks"):
            bh, bw = self.const(s.args[0], env), self.const(s.args[1], env)
            if bh < 1 or bw < 1:
                raise DSLError(f"{fn}({bh}, {bw})", expected="positive sizes")
            return g.boxes(bh, bw) if fn == "boxes" else g.blocks(bh, bw)
        e = self.entity(s.args[0], env)
        if fn == "cell_edges":
            return g.cell_edges(e)
        if fn == "inner_cell_edges":
            inner = set(g.inner_edges())
            return tuple(x for x in g.cell_edges(e) if x in inner)
        if fn == "cell_vertices":
            return g.cell_vertices(e)
        if fn == "vertex_edges":
            return g.vertex_edges(e)
        if fn in ("neighbors", "neighbors8"):
            return g.neighbors(e, fn == "neighbors8")
        if fn == "sight":
            _, binder, body = s.args

            def blocked(cell: Cell) -> bool:
                value = self.ground(body, {**env, id(binder): cell})
                if value[0] != "c":
                    raise DSLError(
                        "the blocker of grid.sight must depend on constants only",
                        expected="a Const (instance data) such as walls",
                    )
                return bool(value[1])

            return g.sight(e, blocked)
        raise DSLError(f"unknown grid set {fn}")

    # -- entities ----------------------------------------------------------------------
    def entity(self, expr: Any, env: dict) -> Any:
        if isinstance(expr, ir.Binder):
            return env[id(expr)]
        if isinstance(expr, ir.EntityFn):
            fn, args = expr.fn, expr.args
            if fn == "entity":
                return args[0]
            g = self.grid(expr.grid)
            if fn == "cell_at":
                return Cell(self.const(args[0], env), self.const(args[1], env))
            if fn == "step":
                c = self.entity(args[0], env)
                return Cell(c.r + args[1], c.c + args[2])
            if fn == "edge_cell":
                return g.edge_cells(self.entity(args[0], env))[args[1]]
            if fn == "cell_edge":
                return g.cell_edge(self.entity(args[0], env), args[1])
        raise DSLError(
            f"{ir.short(expr)} is not an entity expression", expected="a cell, edge or vertex"
        )

    # -- expressions -------------------------------------------------------------------
    def ground(self, e: Any, env: dict) -> tuple:
        if isinstance(e, (ir.BoolConst, ir.IntConst, ir.EnumConst)):
            return ("c", e.value)
        if isinstance(e, ir.Param):
            return ("c", self.params[e.name])
        if isinstance(e, ir.Binder):
            value = env[id(e)]
            if isinstance(value, (Cell, Edge, Vertex, Line)):
                raise DSLError(
                    f"binder '{e.name}' (an entity) used as a value",
                    expected="var[binder] or binder.r / binder.c",
                )
            return ("c", value)
        if isinstance(e, ir.VarRef):
            return self._varref(e, env)
        if isinstance(e, ir.Attr):
            return ("c", getattr(self.entity(e.entity, env), e.name))
        if isinstance(e, ir.Card):
            return ("c", len(self.resolve(e.scope, env)))
        if isinstance(e, ir.IndexIn):
            items = self.resolve(e.scope, env)
            return ("c", items.index(self.entity(e.entity, env)))
        if isinstance(e, ir.And):
            return mk_and(self.ground(a, env) for a in e.args)
        if isinstance(e, ir.Or):
            return mk_or(self.ground(a, env) for a in e.args)
        if isinstance(e, ir.Not):
            return mk_not(self.ground(e.arg, env))
        if isinstance(e, ir.Implies):
            a = self.ground(e.a, env)
            if a == FALSE:
                return TRUE
            return mk_or((mk_not(a), self.ground(e.b, env)))
        if isinstance(e, ir.If):
            c = self.ground(e.cond, env)
            if c[0] == "c":
                return self.ground(e.then if c[1] else e.other, env)
            return ("ite", c, self.ground(e.then, env), self.ground(e.other, env))
        if isinstance(e, ir.Cmp):
            if e.a.type == "entity":
                same = self.entity(e.a, env) == self.entity(e.b, env)
                return ("c", same if e.op == "Eq" else not same)
            return mk_cmp(e.op, self.ground(e.a, env), self.ground(e.b, env))
        if isinstance(e, ir.Arith):
            args = [self.ground(a, env) for a in e.args]
            if e.op == "Add":
                return mk_add(args)
            if e.op == "Sub":
                return mk_add((args[0], self._mul(("c", -1), args[1])))
            if e.op == "Mul":
                return self._mul(args[0], args[1])
            if e.op == "Div":
                a, b = args
                if b[0] != "c" or b[1] == 0:
                    raise DSLError(
                        f"division by {ir.short(e.args[1])}", expected="a non-zero constant divisor"
                    )
                if a[0] == "c":
                    return ("c", int(a[1]) // b[1])
                return ("div", a, b)
        if isinstance(e, ir.Aggregate):
            body_list = [
                self.ground(e.body, {**env, id(e.binder): x}) for x in self.resolve(e.scope, env)
            ]
            return mk_add(body_list)
        if isinstance(e, ir.Quant):
            items = self.resolve(e.scope, env)
            parts = (self.ground(e.body, {**env, id(e.binder): x}) for x in items)
            return mk_and(parts) if e.op == "ForAll" else mk_or(parts)
        if isinstance(e, Connected):
            items = self.resolve(e.scope, env)
            return (
                "conn",
                tuple((x, self.ground(e.body, {**env, id(e.binder): x})) for x in items),
            )
        if isinstance(e, SingleLoop):
            items = self.resolve(e.scope, env)
            return (
                "loop",
                e.nodes,
                tuple((x, self.ground(e.body, {**env, id(e.binder): x})) for x in items),
            )
        from .primitives import Runs

        if isinstance(e, Runs):
            items = self.resolve(e.scope, env)
            pat = self.ground(e.pattern, env)
            if pat[0] != "c":
                raise DSLError(
                    "runs_match pattern must be instance data", expected="an IntSeq Const"
                )
            return (
                "runs",
                tuple(pat[1]),
                tuple((x, self.ground(e.body, {**env, id(e.binder): x})) for x in items),
            )
        if isinstance(e, Islands):
            items = self.resolve(e.scope, env)
            return (
                "islands",
                e.spec,
                tuple((x, self.ground(e.body, {**env, id(e.binder): x})) for x in items),
            )
        if isinstance(e, ClueRef):
            return ("given", e.spec, self.entity(e.place, env))
        raise DSLError(f"cannot ground {type(e).__name__} here")

    def _mul(self, a: tuple, b: tuple) -> tuple:
        if a[0] == "c" and b[0] == "c":
            return ("c", int(a[1]) * int(b[1]))
        for x, y in ((a, b), (b, a)):
            if x[0] == "c":
                if int(x[1]) == 0:
                    return ("c", 0)
                if int(x[1]) == 1 and gtype(y) == "int":
                    return y
        return ("mul", a, b)

    def _varref(self, e: ir.VarRef, env: dict) -> tuple:
        var = e.var
        entity = None if e.index is None else self.entity(e.index, env)
        if entity is not None and entity not in self.members(var):
            if e.default is not None:
                return self.ground(e.default, env)
            raise DSLError(
                f"{var.name}[{entity!r}] is outside the set {var.name} is defined over",
                expected=f"an entity of {ir.short(var.over) if False else var.over!r}, "
                f"or {var.name}.get(x, default)",
            )
        if isinstance(var, ir.Const):
            return ("c", self._const_value(var, entity))
        return ("v", var, entity)

    def _const_value(self, c: ir.Const, entity: Any) -> Any:
        value = self.data.get(c.name, c.value)
        if entity is not None:
            if callable(value):
                value = value(entity)
            elif isinstance(value, dict):
                if entity not in value:
                    if c.domain.kind == "bool":
                        return False
                    raise DSLError(
                        f"Const '{c.name}' has no value at {entity!r}",
                        expected="a value for every entity",
                    )
                value = value[entity]
        if c.domain.kind == "bool":
            return bool(value)
        if c.domain.kind == "seq":
            return tuple(value)
        return value

    # -- rules -------------------------------------------------------------------------
    def ground_rules(self) -> list[tuple]:
        """Top-level ground constraints (conjunctions flattened, clue rules expanded)."""
        out: list[tuple] = []
        for rule in self.model.rules:
            self._top(rule, {}, out)
        return out

    def _top(self, e: Any, env: dict, out: list) -> None:
        if isinstance(e, ir.And):
            for a in e.args:
                self._top(a, env, out)
        elif isinstance(e, ir.ForAll):
            for x in self.resolve(e.scope, env):
                self._top(e.body, {**env, id(e.binder): x}, out)
        elif isinstance(e, ClueRule):
            spec = e.spec
            dom = spec.domain.resolved(self.const) if isinstance(spec.domain, Int) else spec.domain
            for place in self.resolve(spec.places, env):
                for value in dom.value_list():
                    body = self.ground(e.body, {**env, id(e.place): place, id(e.value): value})
                    out.append(("clue", spec, place, value, body))
        else:
            g = self.ground(e, env)
            if g != TRUE:
                out.append(g)

    def clue_values(self, spec: Any) -> list:
        dom = spec.domain.resolved(self.const) if isinstance(spec.domain, Int) else spec.domain
        return dom.value_list()
