"""Pretty-printer of the IR: what a rule means, before any size is known.

>>> from puzzleforge.grid import Grid, Param, Bool, forall
>>> n = Param("n", int); g = Grid(n, n); color = Bool.over(g.C, name="color")
>>> pretty_expr(forall(g.rows, lambda r: r.sum_of(color) == n // 2))
'forall r in rows: (sum x in r: color[x]) == n // 2'
"""

from __future__ import annotations

from typing import Any

__all__ = ["pretty_expr", "pretty_set", "pretty_model"]

_PREC = {
    "Or": 1,
    "Implies": 0,
    "And": 2,
    "Not": 3,
    "Cmp": 4,
    "Add": 5,
    "Sub": 5,
    "Mul": 6,
    "Div": 6,
}


def pretty_set(s: Any) -> str:
    from . import ir

    if isinstance(s, ir.GridSet):
        if not s.args:
            return s.fn
        if s.fn == "sight":
            cell, b, body = s.args
            return f"sight({pretty_expr(cell)}, until {b.name}: {pretty_expr(body)})"
        args = ", ".join(pretty_expr(a) if isinstance(a, ir.Node) else repr(a) for a in s.args)
        return f"{s.fn}({args})"
    if isinstance(s, ir.Windows):
        return f"{pretty_set(s.base)}.windows({pretty_expr(s.k)})"
    if isinstance(s, ir.Union):
        return f"({pretty_set(s.left)} | {pretty_set(s.right)})"
    if isinstance(s, ir.Difference):
        return f"({pretty_set(s.left)} - {pretty_set(s.right)})"
    if isinstance(s, ir.BinderSet):
        return s.binder.name
    if isinstance(s, ir.Range):
        return f"range({pretty_expr(s.lo)}, {pretty_expr(s.hi)})"
    if isinstance(s, ir.Before):
        return f"{pretty_set(s.scope)}.before({pretty_expr(s.entity)})"
    return type(s).__name__


def _wrap(text: str, inner: int, outer: int) -> str:
    return f"({text})" if inner < outer else text


def pretty_expr(e: Any, prec: int = 0) -> str:
    from . import ir
    from .model import ClueRef, ClueRule
    from .primitives import Connected, Islands, SingleLoop

    if isinstance(e, ir.BoolConst):
        return "true" if e.value else "false"
    if isinstance(e, ir.IntConst):
        return str(e.value)
    if isinstance(e, ir.EnumConst):
        return repr(e.value)
    if isinstance(e, ir.Param):
        return e.name
    if isinstance(e, ir.Binder):
        return e.name
    if isinstance(e, ir.VarRef):
        if e.index is None:
            return e.var.name
        text = f"{e.var.name}[{pretty_expr(e.index)}]"
        if e.default is not None:
            text += f"?{pretty_expr(e.default)}"
        return text
    if isinstance(e, ir.Var):
        return e.name
    if isinstance(e, ir.EntityFn):
        if e.fn == "entity":
            return repr(e.args[0])
        args = ", ".join(pretty_expr(a) if isinstance(a, ir.Node) else repr(a) for a in e.args)
        return f"{e.fn}({args})"
    if isinstance(e, ir.Attr):
        return f"{pretty_expr(e.entity)}.{e.name}"
    if isinstance(e, ir.Card):
        return f"|{pretty_set(e.scope)}|"
    if isinstance(e, ir.IndexIn):
        return f"{pretty_set(e.scope)}.index({pretty_expr(e.entity)})"
    if isinstance(e, ir.And):
        if not e.args:
            return "true"
        return _wrap(" & ".join(pretty_expr(a, 3) for a in e.args), 2, prec)
    if isinstance(e, ir.Or):
        if not e.args:
            return "false"
        return _wrap(" | ".join(pretty_expr(a, 2) for a in e.args), 1, prec)
    if isinstance(e, ir.Not):
        return "~" + pretty_expr(e.arg, 4)
    if isinstance(e, ir.Implies):
        return _wrap(f"{pretty_expr(e.a, 1)} -> {pretty_expr(e.b, 1)}", 0, prec)
    if isinstance(e, ir.If):
        return f"if({pretty_expr(e.cond)}, {pretty_expr(e.then)}, {pretty_expr(e.other)})"
    if isinstance(e, ir.Cmp):
        return _wrap(f"{pretty_expr(e.a, 5)} {e.symbol} {pretty_expr(e.b, 5)}", 4, prec)
    if isinstance(e, ir.Arith):
        sym = {"Add": " + ", "Sub": " - ", "Mul": " * ", "Div": " // "}[e.op]
        p = _PREC[e.op]
        return _wrap(
            sym.join(pretty_expr(a, p + (1 if i else 0)) for i, a in enumerate(e.args)), p, prec
        )
    if isinstance(e, ir.Aggregate):
        word = "sum" if e.op == "Sum" else "count"
        return f"({word} {e.binder.name} in {pretty_set(e.scope)}: {pretty_expr(e.body)})"
    if isinstance(e, ir.Quant):
        word = "forall" if e.op == "ForAll" else "exists"
        return _wrap(
            f"{word} {e.binder.name} in {pretty_set(e.scope)}: {pretty_expr(e.body)}", 0, prec
        )
    if isinstance(e, Connected):
        return f"connected({e.binder.name} in {pretty_set(e.scope)}: {pretty_expr(e.body)})"
    if isinstance(e, SingleLoop):
        return (
            f"single_loop({e.binder.name} in {pretty_set(e.scope)} over {e.nodes}: "
            f"{pretty_expr(e.body)})"
        )
    from .primitives import Runs

    if isinstance(e, Runs):
        return (
            f"runs({e.binder.name} in {pretty_set(e.scope)}: {pretty_expr(e.body)}) == "
            f"{pretty_expr(e.pattern)}"
        )
    if isinstance(e, Islands):
        return (
            f"islands({e.binder.name} in {pretty_set(e.scope)}: {pretty_expr(e.body)}; "
            f"one {e.spec.name} clue per island = its size)"
        )
    if isinstance(e, ClueRule):
        return (
            f"clue {e.spec.name}({e.place.name} in {pretty_set(e.spec.places)}, "
            f"{e.value.name} in {e.spec.domain!r}): {pretty_expr(e.body)}"
        )
    if isinstance(e, ClueRef):
        return f"given_{e.spec.name}({pretty_expr(e.place)})"
    return type(e).__name__


def pretty_model(model: Any) -> str:
    """Declarations, then one numbered rule per line (the IR before lowering)."""
    lines = [f"# {model.name}"]
    params = model.params()
    if params:
        lines.append("params: " + ", ".join(f"{p.name}: {p.pytype.__name__}" for p in params))
    for v in model.variables():
        over = f" over {pretty_set(v.over)}" if v.over is not None else ""
        aux = "" if v.answer else "  (auxiliary)"
        lines.append(f"var {v.name}: {v.domain!r}{over}{aux}")
    for c in model.constants():
        over = f" over {pretty_set(c.over)}" if c.over is not None else ""
        lines.append(f"const {c.name}: {c.domain!r}{over}  (instance data)")
    for s in model.clue_specs():
        closed = ", closed" if s.closed else ""
        lines.append(f"clues {s.name}: {s.domain!r} at {pretty_set(s.places)}{closed}")
    for i, (rule, label) in enumerate(zip(model.rules, model.labels, strict=True), 1):
        lines.append(f"[{i}] {label}:")
        lines.append("    " + pretty_expr(rule))
    return "\n".join(lines)
