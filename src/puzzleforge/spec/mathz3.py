"""Z3 terms of parsed math formulas (spec/mathexpr.py) built through the Z3 C API.

Why: ``build_system`` translates every formula of a spec like 38-linearprog on every
attempt, and through the Python operators (``a + b`` coerces, checks sorts and wraps
each intermediate term) that translation cost more than the solving. This module builds
the very same terms -- the same Z3 functions, argument order and numerals as Z3's Python
operators produce for Real variables -- straight from the C API, with explicit
reference counting. It covers formulas over Real variables with integer constants, the
common case; for anything else it returns None and the caller uses the Python
operators. tests/spec/test_spec_mathz3.py checks the terms are identical (same AST).
"""

from __future__ import annotations

from typing import Any

import z3
from z3 import z3core as zc

from .fastz3 import _raw

__all__ = ["translate_real"]

_mk_add = _raw("Z3_mk_add")
_mk_sub = _raw("Z3_mk_sub")
_mk_mul = _raw("Z3_mk_mul")
_mk_div = _raw("Z3_mk_div")
_mk_power = _raw("Z3_mk_power")
_mk_numeral = _raw("Z3_mk_numeral")
_mk_distinct = _raw("Z3_mk_distinct")
_mk_le = _raw("Z3_mk_le")
_mk_ge = _raw("Z3_mk_ge")
_mk_lt = _raw("Z3_mk_lt")
_mk_gt = _raw("Z3_mk_gt")
_mk_eq = _raw("Z3_mk_eq")
_inc = _raw("Z3_inc_ref")
_dec = _raw("Z3_dec_ref")
_BIN = {"Add": _mk_add, "Sub": _mk_sub, "Mul": _mk_mul}
_CMP = {"<=": _mk_le, ">=": _mk_ge, "<": _mk_lt, ">": _mk_gt}
_Pair = z3.Ast * 2


class _Unsupported(Exception):
    """A formula outside the covered case: translate it with the Python operators."""


def _real_vars(zs: list) -> Any:
    """The shared context when every variable is a Real constant term, else None."""
    if not zs or not all(type(v) is z3.ArithRef for v in zs):
        return None
    ctx = zs[0].ctx
    if not all(v.ctx is ctx for v in zs):
        return None
    ref = ctx.ref()
    if not all(
        zc.Z3_get_sort_kind(ref, zc.Z3_get_sort(ref, v.as_ast())) == z3.Z3_REAL_SORT for v in zs
    ):
        return None
    return ctx


def translate_real(nodes: list[tuple], zs: list) -> tuple[list, list] | None:
    """(terms, non-zero-denominator side conditions) of parsed formulas, or None.

    Same result as mathexpr's Python-operator translation (terms, Python numbers where a
    sub-formula has no variable, Python bools for a comparison of two numbers).
    """
    ctx = _real_vars(zs)
    if ctx is None:
        return None
    ref = ctx.ref()
    real = zc.Z3_mk_real_sort(ref)
    held: list = []  # every AST made here, each with one reference until the end

    def own(a: Any) -> Any:
        _inc(ref, a)
        held.append(a)
        return a

    def numeral(v: Any) -> Any:
        if type(v) is not int:  # floats, bools...: Z3's own conversion decides
            raise _Unsupported
        return own(_mk_numeral(ref, str(v).encode("ascii"), real))

    def number(x: tuple) -> Any:
        if x[0] != "n":  # a comparison used as a number
            raise _Unsupported
        return numeral(x[1])

    def pair(f: Any, a: Any, b: Any) -> Any:
        args = _Pair()
        args[0], args[1] = a, b
        return own(f(ref, 2, args))

    asts = [v.as_ast() for v in zs]
    side: list = []  # raw ASTs of the side conditions, in the Python translation's order

    def tr(node: tuple) -> Any:
        """A raw Real AST, or a Python number (``("n", value)``)."""
        kind = node[0]
        if kind == "Var":
            return asts[node[1]]
        if kind == "Const":
            return ("n", node[1])
        if kind == "Power":
            base = tr(node[1])
            if type(base) is tuple:
                raise _Unsupported
            return own(_mk_power(ref, base, numeral(node[2])))
        if kind == "Cmp":
            a, b = tr(node[2]), tr(node[3])
            if type(a) is tuple:  # a number on the left: Python reflects the operator
                raise _Unsupported
            if type(b) is tuple:
                b = number(b)
            return ("b", own((_mk_eq if node[1] == "==" else _CMP[node[1]])(ref, a, b)))
        a, b = tr(node[1]), tr(node[2])
        if kind == "Div":
            num = number(a) if type(a) is tuple else a
            den = number(b) if type(b) is tuple else b
            side.append(pair(_mk_distinct, den, numeral(0)))
            return own(_mk_div(ref, num, den))
        f = _BIN.get(kind)
        if f is None:
            raise _Unsupported
        ta, tb = type(a) is tuple, type(b) is tuple
        if ta and tb:
            if a[0] != "n" or b[0] != "n":
                raise _Unsupported
            x, y = a[1], b[1]
            return ("n", x + y if kind == "Add" else x - y if kind == "Sub" else x * y)
        if ta:
            a = number(a)
        if tb:
            b = number(b)
        return pair(f, a, b)

    try:
        raw = [tr(n) for n in nodes]
        exprs: list = []
        for r in raw:
            if type(r) is tuple:
                if r[0] == "b":
                    exprs.append(z3.BoolRef(r[1], ctx))
                else:
                    exprs.append(r[1])
            else:
                exprs.append(z3.ArithRef(r, ctx))
        sides = [z3.BoolRef(s, ctx) for s in side]
    except _Unsupported:
        return None
    finally:
        for a in held:
            _dec(ref, a)
        # ``tr`` is recursive: its closure cell holds the function itself, a reference
        # cycle (with every AST it reached) that only the GC would free
        tr = None  # type: ignore[assignment]  # noqa: F841  (drops the cycle, see above)
    return exprs, sides
