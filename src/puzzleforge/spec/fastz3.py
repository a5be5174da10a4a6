"""Thin, fast paths over the Z3 C API for solution enumeration.

Why: enumerating thousands of models through the Python wrappers spends more time in
wrapper objects (``model[d]``, ``c != v``, ``Or(list)``, ``is_true``...) than in the
solver itself. Reading a model's values and asserting its blocking clause here uses the
C API directly on the raw ASTs, with explicit reference counting.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import z3
from z3 import z3core as zc

from .fastint import FastInt
from .solmodel import z3_to_py
from .z3raw import RAW, ast_at, ptr
from .z3raw import unchecked as _raw

__all__ = ["collect_consts", "const_ids", "read_model", "add_block", "is_lia", "FAST_EXPORTS"]

_BOOL = z3.Z3_BOOL_SORT
_INT = z3.Z3_INT_SORT
_REAL = z3.Z3_REAL_SORT


if RAW is not None:  # plain-pointer accessors: the walk passes addresses (spec/z3raw.py)
    _ast_id, _ast_kind, _to_app = RAW.get_ast_id, RAW.get_ast_kind, RAW.to_app
    _app_decl, _decl_kind = RAW.get_app_decl, RAW.get_decl_kind
    _num_args, _app_arg, _quant_body = RAW.get_app_num_args, RAW.get_app_arg, RAW.get_quantifier_body
else:
    _ast_id = _raw("Z3_get_ast_id")
    _ast_kind = _raw("Z3_get_ast_kind")
    _to_app = _raw("Z3_to_app")
    _app_decl = _raw("Z3_get_app_decl")
    _decl_kind = _raw("Z3_get_decl_kind")
    _num_args = _raw("Z3_get_app_num_args")
    _app_arg = _raw("Z3_get_app_arg")
    _quant_body = _raw("Z3_get_quantifier_body")


_APP = z3.Z3_APP_AST
_QUANT = z3.Z3_QUANTIFIER_AST
_UNINTERP = z3.Z3_OP_UNINTERPRETED


def _uninterpreted(c: Any, roots: list) -> Iterator[tuple[int, Any]]:
    """(AST id, AST) of each uninterpreted constant under ``roots``, first-seen, left to right.

    One C-level walk of the DAG (each node once) shared by ``const_ids`` and
    ``collect_consts``: walking through the Python wrappers was a third of an attempt.
    """
    seen: set[int] = set()
    stack = list(reversed(roots))
    while stack:
        a = stack.pop()
        i = _ast_id(c, a)
        if i in seen:
            continue
        seen.add(i)
        k = _ast_kind(c, a)
        if k == _QUANT:
            stack.append(_quant_body(c, a))
            continue
        if k != _APP:
            continue
        app = _to_app(c, a)
        n = _num_args(c, app)
        if n == 0:
            if _decl_kind(c, _app_decl(c, app)) == _UNINTERP:
                yield i, a
        else:
            stack.extend(_app_arg(c, app, j) for j in range(n - 1, -1, -1))


def _uninterpreted_raw(c: int, roots: list[int]) -> Iterator[tuple[int, int]]:
    """``_uninterpreted`` over addresses (spec/z3raw.py): the same constants, same order.

    A live AST's address identifies it as its id does (terms are hash-consed), so the
    walk asks for the id of the constants only; ``Z3_to_app`` is a cast (Z3's
    documentation: "just type casting") and is skipped.
    """
    seen: set[int] = set()
    stack = list(reversed(roots))
    while stack:
        a = stack.pop()
        if a in seen:
            continue
        seen.add(a)
        k = _ast_kind(c, a)
        if k == _QUANT:
            stack.append(_quant_body(c, a))
            continue
        if k != _APP:
            continue
        n = _num_args(c, a)
        if n == 0:
            if _decl_kind(c, _app_decl(c, a)) == _UNINTERP:
                yield _ast_id(c, a), a
        else:
            stack.extend([_app_arg(c, a, j) for j in range(n - 1, -1, -1)])


def _walk_consts(ctx: Any, exprs: Sequence[Any]) -> Iterator[tuple[int, Any]]:
    if RAW is not None:
        return _uninterpreted_raw(ptr(ctx.ref()), [ptr(e.as_ast()) for e in exprs])
    return _uninterpreted(ctx.ref(), [e.as_ast() for e in exprs])


def const_ids(exprs: Sequence[Any]) -> set[int]:
    """AST ids of the uninterpreted constants occurring in ``exprs`` (C-level walk)."""
    if not exprs:
        return set()
    return {i for i, _ in _walk_consts(exprs[0].ctx, exprs)}


def collect_consts(exprs: Sequence[Any]) -> list:
    """Uninterpreted constants occurring in ``exprs`` (in first-seen, left-to-right order)."""
    exprs = list(exprs)
    if not exprs:
        return []
    ctx = exprs[0].ctx
    wrap = ast_at if RAW is not None else (lambda a: a)  # an address back to a z3core pointer
    return [z3.z3._to_expr_ref(wrap(a), ctx) for _, a in _walk_consts(ctx, exprs)]


def read_model(model: Any, consts: Sequence[Any], decl_asts: Sequence[Any],
               sort_kinds: Sequence[int]) -> tuple[list, list]:
    """Python values and raw value ASTs of ``consts`` in ``model`` (None when absent)."""
    cref = model.ctx.ref()
    m = model.model
    values: list = []
    raws: list = []
    for d, kind in zip(decl_asts, sort_kinds, strict=False):
        a = zc.Z3_model_get_const_interp(cref, m, d)
        if not a:
            values.append(None)
            raws.append(None)
            continue
        raws.append(a)
        if kind == _BOOL:
            values.append(zc.Z3_get_bool_value(cref, a) == 1)
        elif kind == _INT and zc.Z3_is_numeral_ast(cref, a):
            values.append(int(zc.Z3_get_numeral_string(cref, a)))
        elif kind == _REAL and zc.Z3_is_numeral_ast(cref, a):
            values.append(float(Fraction(zc.Z3_get_numeral_string(cref, a))))
        else:
            values.append(_slow(model, a))
    return values, raws


def _slow(model: Any, a: Any) -> Any:
    return z3_to_py(z3.z3._to_expr_ref(a, model.ctx))


def add_block(solver: Any, const_asts: Sequence[Any], raws: Sequence[Any]) -> bool:
    """Assert Or(c_i != v_i) over the constants that have a value; False if none had one."""
    ctx = solver.ctx
    cref = ctx.ref()
    lits = []
    for c, v in zip(const_asts, raws, strict=False):
        if v is None:
            continue
        eq = zc.Z3_mk_eq(cref, c, v)
        zc.Z3_inc_ref(cref, eq)
        ne = zc.Z3_mk_not(cref, eq)
        zc.Z3_inc_ref(cref, ne)
        zc.Z3_dec_ref(cref, eq)
        lits.append(ne)
    if not lits:
        return False
    arr = (z3.Ast * len(lits))(*lits)
    clause = zc.Z3_mk_or(cref, len(lits), arr)
    zc.Z3_inc_ref(cref, clause)
    zc.Z3_solver_assert(cref, solver.solver, clause)
    zc.Z3_dec_ref(cref, clause)
    for ne in lits:
        zc.Z3_dec_ref(cref, ne)
    return True


# ---- fast constructors for the Z3 functions specs call most -----------------------
# Each handles the common, unambiguous case through the C API and otherwise defers to
# Z3's own function, so results (and errors) are the same as Z3's.

_BoolRef = z3.BoolRef
_ArithRef = z3.ArithRef
_Context = z3.Context


def _kind(ctx: Any, a: Any) -> int:
    return zc.Z3_get_sort_kind(ctx.ref(), zc.Z3_get_sort(ctx.ref(), a))


def _int_ast(ctx: Any, v: int) -> Any:
    """The AST of the Int numeral ``v`` of ``ctx``, cached on the context object itself.

    Why there: the cache is owned by what it caches for (a spec family's context, see
    spec/z3space.py) and freed with it; no module-level table is shared by the contexts of
    a process. It holds raw ASTs (one reference each, released when cleared; the context
    frees the rest when it goes), not Python wrappers, which would refer back to the
    context and keep it alive in a cycle. Bounded: cleared past ``_INT_CACHE_MAX``
    numerals (a cached numeral is the same hash-consed AST a new call would give, so
    clearing changes no output).
    """
    cache = getattr(ctx, "_pf_ints", None)
    if cache is None or len(cache) > _INT_CACHE_MAX:
        if cache:
            ref = ctx.ref()
            for ast in cache.values():
                zc.Z3_dec_ref(ref, ast)
        cache = ctx._pf_ints = {}
    r = cache.get(v)
    if r is None:
        r = z3.IntVal(v, ctx).as_ast()
        zc.Z3_inc_ref(ctx.ref(), r)
        cache[v] = r
    return r


_INT_CACHE_MAX = 4096


def fast_if(c: Any, a: Any, b: Any, ctx: Any = None) -> Any:
    """``If``; ``ctx`` is only the fallback context of Python values (as in z3.If, whose
    arguments' context wins), so the fast path ignores it."""
    if type(c) is _BoolRef:
        cx = c.ctx
        ta, tb = type(a), type(b)
        if ta is int and tb is int:
            aa, ba = _int_ast(cx, a), _int_ast(cx, b)
        elif tb is int and _is_int_term(cx, a, ta):
            aa, ba = a.as_ast(), _int_ast(cx, b)
        elif ta is int and _is_int_term(cx, b, tb):
            aa, ba = _int_ast(cx, a), b.as_ast()
        elif _is_int_term(cx, a, ta) and _is_int_term(cx, b, tb):
            aa, ba = a.as_ast(), b.as_ast()
        else:
            return z3.If(c, a, b, ctx)
        return FastInt(zc.Z3_mk_ite(cx.ref(), c.as_ast(), aa, ba), cx)
    return z3.If(c, a, b, ctx)


def _is_int_term(cx: Any, a: Any, t: type) -> bool:
    """True for an Int-sorted ArithRef of context ``cx`` (a FastInt is Int by construction)."""
    if t is FastInt:
        return a.ctx is cx
    return t is _ArithRef and a.ctx is cx and _kind(cx, a.as_ast()) == _INT


def _flat_args(args: tuple) -> Any:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return args[0]
    return args


def fast_sum(*args: Any) -> Any:
    items = _flat_args(args)
    if len(items) >= 2 and all(type(x) is _ArithRef or type(x) is FastInt for x in items):
        cx = items[0].ctx
        if all(_is_int_term(cx, x, type(x)) for x in items):
            asts = [x.as_ast() for x in items]
            arr = (z3.Ast * len(asts))(*asts)
            return FastInt(zc.Z3_mk_add(cx.ref(), len(asts), arr), cx)
    return z3.Sum(*args)


def _bool_nary(mk: Any, fallback: Any) -> Any:
    def build(*args: Any) -> Any:
        ctx = None
        if args and type(args[-1]) is _Context:  # z3's convention: a trailing context
            ctx, args = args[-1], args[:-1]
        items = _flat_args(args)
        if len(items) >= 1 and all(type(x) is _BoolRef for x in items):
            cx = items[0].ctx
            if all(x.ctx is cx for x in items):
                asts = [x.as_ast() for x in items]
                arr = (z3.Ast * len(asts))(*asts)
                return _BoolRef(mk(cx.ref(), len(asts), arr), cx)
        return fallback(*args) if ctx is None else fallback(*args, ctx)

    build.__name__ = fallback.__name__
    build.__doc__ = (f"z3.{fallback.__name__} of Bool terms of one context in one C call; "
                     f"anything else goes to z3.{fallback.__name__} itself.")
    return build


fast_and = _bool_nary(zc.Z3_mk_and, z3.And)
fast_or = _bool_nary(zc.Z3_mk_or, z3.Or)



def fast_implies(a: Any, b: Any, ctx: Any = None) -> Any:
    """``Implies`` of two Bool terms of one context: z3py's C call without its casts."""
    if type(a) is _BoolRef and type(b) is _BoolRef and a.ctx is b.ctx:
        return _BoolRef(zc.Z3_mk_implies(a.ctx.ref(), a.ast, b.ast), a.ctx)
    return z3.Implies(a, b, ctx)


def fast_not(a: Any, ctx: Any = None) -> Any:
    """``Not`` of a Bool term (a probe, a Python bool... take z3py's path)."""
    if type(a) is _BoolRef:
        return _BoolRef(zc.Z3_mk_not(a.ctx.ref(), a.ast), a.ctx)
    return z3.Not(a, ctx)


#: Names in the spec namespace served by the fast constructors.
FAST_EXPORTS = {"If": fast_if, "Sum": fast_sum, "And": fast_and, "Or": fast_or,
                "Implies": fast_implies, "Not": fast_not}


def is_nonlinear_real(assertions: list) -> bool:
    """True for nonlinear real arithmetic (Z3's is-qfnra probe)."""
    return bool(assertions) and _probe(assertions, "is-qfnra")


def is_nonlinear_int(assertions: list) -> bool:
    """True for nonlinear integer arithmetic (Z3's is-qfnia probe)."""
    return bool(assertions) and _probe(assertions, "is-qfnia")


def is_lia(assertions: list) -> bool:
    """True when the constraints are linear integer arithmetic (Z3's is-qflia probe)."""
    return not assertions or _probe(assertions, "is-qflia")


def _probe(assertions: list, name: str) -> bool:
    g = z3.Goal(ctx=assertions[0].ctx)
    g.add(*assertions)
    try:
        return z3.Probe(name, ctx=assertions[0].ctx)(g) == 1.0
    except z3.Z3Exception:
        return False
