"""IR expressions to ground nodes: Params and data bound, quantifiers expanded.

Why a module of its own: this is the one translation from the IR classes to the ground
tree (``nodes``), and the only place that reads instance data (``Const`` values) and
Params. Everything it builds goes through the folding constructors, so a rule about
instance data (walls, regions, givens) folds to constants here and never reaches the
CNF or SMT-LIB.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import ir
from ..domains import DSLError
from ..model import ClueRef
from ..primitives import Connected, Islands, Runs, SingleLoop
from ..topology import Cell, Edge, Line, Vertex
from .nodes import FALSE, TRUE, mk_add, mk_and, mk_cmp, mk_mul, mk_not, mk_or

if TYPE_CHECKING:
    from .grounder import Grounder

__all__ = ["ground_expr"]


def ground_expr(gr: Grounder, e: Any, env: dict) -> tuple:
    """The ground node of IR expression ``e`` under binder environment ``env``."""
    if isinstance(e, (ir.BoolConst, ir.IntConst, ir.EnumConst)):
        return ("c", e.value)
    if isinstance(e, ir.Param):
        return ("c", gr.params[e.name])
    if isinstance(e, ir.Binder):
        value = env[id(e)]
        if isinstance(value, (Cell, Edge, Vertex, Line)):
            raise DSLError(
                f"binder '{e.name}' (an entity) used as a value",
                expected="var[binder] or binder.r / binder.c",
            )
        return ("c", value)
    if isinstance(e, ir.VarRef):
        return _varref(gr, e, env)
    if isinstance(e, ir.Attr):
        return ("c", getattr(gr.entity(e.entity, env), e.name))
    if isinstance(e, ir.Card):
        return ("c", len(gr.resolve(e.scope, env)))
    if isinstance(e, ir.IndexIn):
        items = gr.resolve(e.scope, env)
        return ("c", items.index(gr.entity(e.entity, env)))
    if isinstance(e, ir.And):
        return mk_and(gr.ground(a, env) for a in e.args)
    if isinstance(e, ir.Or):
        return mk_or(gr.ground(a, env) for a in e.args)
    if isinstance(e, ir.Not):
        return mk_not(gr.ground(e.arg, env))
    if isinstance(e, ir.Implies):
        a = gr.ground(e.a, env)
        if a == FALSE:
            return TRUE
        return mk_or((mk_not(a), gr.ground(e.b, env)))
    if isinstance(e, ir.If):
        c = gr.ground(e.cond, env)
        if c[0] == "c":
            return gr.ground(e.then if c[1] else e.other, env)
        return ("ite", c, gr.ground(e.then, env), gr.ground(e.other, env))
    if isinstance(e, ir.Cmp):
        if e.a.type == "entity":
            same = gr.entity(e.a, env) == gr.entity(e.b, env)
            return ("c", same if e.op == "Eq" else not same)
        return mk_cmp(e.op, gr.ground(e.a, env), gr.ground(e.b, env))
    if isinstance(e, ir.Arith):
        args = [gr.ground(a, env) for a in e.args]
        if e.op == "Add":
            return mk_add(args)
        if e.op == "Sub":
            return mk_add((args[0], mk_mul(("c", -1), args[1])))
        if e.op == "Mul":
            return mk_mul(args[0], args[1])
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
        body_list = [gr.ground(e.body, {**env, id(e.binder): x}) for x in gr.resolve(e.scope, env)]
        return mk_add(body_list)
    if isinstance(e, ir.Quant):
        items = gr.resolve(e.scope, env)
        parts = (gr.ground(e.body, {**env, id(e.binder): x}) for x in items)
        return mk_and(parts) if e.op == "ForAll" else mk_or(parts)
    if isinstance(e, (Connected, SingleLoop, Runs, Islands)):
        return _primitive(gr, e, env)
    if isinstance(e, ClueRef):
        return ("given", e.spec, gr.entity(e.place, env))
    raise DSLError(f"cannot ground {type(e).__name__} here")


def _primitive(gr: Grounder, e: Connected | SingleLoop | Runs | Islands, env: dict) -> tuple:
    """A graph or run rule: its tag, its parameters, and its body per member of its scope."""
    items = gr.resolve(e.scope, env)
    if isinstance(e, Runs):
        pat = gr.ground(e.pattern, env)
        if pat[0] != "c":
            raise DSLError("runs_match pattern must be instance data", expected="an IntSeq Const")
    body = tuple((x, gr.ground(e.body, {**env, id(e.binder): x})) for x in items)
    if isinstance(e, Connected):
        return ("conn", body)
    if isinstance(e, SingleLoop):
        return ("loop", e.nodes, body)
    if isinstance(e, Runs):
        return ("runs", tuple(pat[1]), body)
    return ("islands", e.spec, body)


def _varref(gr: Grounder, e: ir.VarRef, env: dict) -> tuple:
    var = e.var
    entity = None if e.index is None else gr.entity(e.index, env)
    if entity is not None and entity not in gr.members(var):
        if e.default is not None:
            return gr.ground(e.default, env)
        raise DSLError(
            f"{var.name}[{entity!r}] is outside the set {var.name} is defined over",
            expected=f"an entity of {var.over!r}, or {var.name}.get(x, default)",
        )
    if isinstance(var, ir.Const):
        return ("c", _const_value(gr, var, entity))
    return ("v", var, entity)


def _const_value(gr: Grounder, c: ir.Const, entity: Any) -> Any:
    value = gr.data.get(c.name, c.value)
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
