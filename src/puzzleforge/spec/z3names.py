"""The Z3 half of the spec allow-list: which Z3 names a spec expression may call.

Why a module of its own (split from spec/allowlist.py): the Z3 table answers one question,
"which term constructors, operators and predicates of z3 may a spec reach, and which of them
need a bound on their size argument", and it changes when the PuzzleClone format grows a Z3
operator, independently of the Python builtins and standard-library views (spec/allowlist.py)
and of the per-type attribute tables (spec/attributes.py). Laid out one name a line, the
three tables together were past the 500-line module limit.

Deliberately absent, and why a deny-list would not do: z3's namespace re-exports ctypes
(raw memory access), global parameters (``set_param``, ``smtlib2_log`` writes files),
printing helpers (``solve``) and classes whose constructors take raw pointers.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import z3

from . import boundedlib

__all__ = ["Z3_NAMES", "z3_table", "bind_context"]


#: Z3 functions and constants by name. Constructors of terms, sorts and Boolean/arithmetic/
#: pseudo-Boolean operators, and predicates over terms. Deliberately absent: Solver,
#: Optimize, Context, set_param/get_param, open_log, solve/prove (print), parse_smt2_*,
#: tactics and probes, every Z3 class (their constructors take raw pointers), ctypes.
Z3_NAMES: tuple[str, ...] = (
    # Boolean and arithmetic operators
    "And", "Or", "Not", "Implies", "Xor", "If", "Sum", "Product", "Distinct", "Abs",
    "AtMost", "AtLeast", "PbEq", "PbLe", "PbGe", "ToReal", "ToInt", "IsInt", "Sqrt", "Cbrt",
    # constants and values
    "Int", "Ints", "IntVal", "IntVector", "Bool", "Bools", "BoolVal", "BoolVector", "Real",
    "Reals", "RealVal", "RealVector", "Q", "RatVal", "FreshInt", "FreshBool", "FreshReal",
    "Const", "Consts", "Function", "EnumSort",
    # sorts
    "IntSort", "BoolSort", "RealSort",
    # quantifiers and substitution
    "ForAll", "Exists", "substitute", "simplify",
    # predicates
    "is_true", "is_false", "is_int", "is_real", "is_bool", "is_expr", "is_const", "is_arith",
    "is_int_value", "is_rational_value", "is_algebraic_value", "is_add", "is_mul", "is_sub",
    "is_div", "is_idiv", "is_mod", "is_and", "is_or", "is_not", "is_implies", "is_eq",
    "is_distinct", "is_le", "is_lt", "is_ge", "is_gt", "is_app", "is_const", "is_to_real",
    "is_to_int", "is_quantifier", "is_sort",
    # check results and the exception type
    "sat", "unsat", "unknown", "Z3Exception",
    # bit-vectors (symbol types bv8 / bvN)
    "BitVec", "BitVecs", "BitVecVal", "BitVecSort", "UDiv", "URem", "SRem", "ULT", "ULE",
    "UGT", "UGE", "LShR", "Concat", "Extract", "ZeroExt", "SignExt", "RotateLeft",
    "RotateRight", "BV2Int", "Int2BV",
)

#: Z3 constructors whose size argument is bounded (a vector of 10**9 constants is a bomb).
_Z3_BOUNDED: dict[str, Callable[[Callable], Callable]] = {
    "IntVector": boundedlib.vector, "BoolVector": boundedlib.vector, "RealVector": boundedlib.vector,
    "Ints": boundedlib.names_call, "Bools": boundedlib.names_call, "Reals": boundedlib.names_call,
    "BitVecs": lambda fn: boundedlib.bv_width(1)(boundedlib.names_call(fn)),
    "Consts": boundedlib.names_call,
    "BitVec": boundedlib.bv_width(1), "BitVecVal": boundedlib.bv_width(1),
    "BitVecSort": boundedlib.bv_width(0), "Int2BV": boundedlib.bv_width(1),
    "ZeroExt": boundedlib.bv_width(0), "SignExt": boundedlib.bv_width(0), "Concat": boundedlib.bv_concat,
}


def z3_table(fast: dict[str, Any], ctx: Any = None) -> dict[str, Any]:
    """Name -> callable for every entry of Z3_NAMES (``fast`` versions where the engine has one).

    With ``ctx`` every function that would otherwise fall back to z3's global main context
    (a constructor, or an operator given only Python values) is bound to ``ctx``
    (``bind_context``): a spec family's terms all live in its own context, and library
    code never installs a context as z3's global one (issue 16 item 2).
    """
    out: dict[str, Any] = {}
    for name in Z3_NAMES:
        value = fast.get(name)
        if value is None:
            value = getattr(z3, name, None)
            if value is None:
                continue
        if ctx is not None:
            value = bind_context(name, value, ctx)
        wrap = _Z3_BOUNDED.get(name)
        out[name] = wrap(value) if wrap is not None else value
    return out


#: Z3 functions taking Boolean arguments and an optional trailing Context (``And(a, b, ctx)``).
_TRAILING_CONTEXT = frozenset(("And", "Or"))


def bind_context(name: str, fn: Callable, ctx: Any) -> Callable:
    """``fn`` with ``ctx`` as its context wherever z3 would use its global main context.

    Functions with a ``ctx`` parameter get it when the caller gives none (z3 lets the
    arguments' context win over it, so terms keep their own); ``And``/``Or`` get it as
    their trailing argument. Others take their context from their arguments only.
    """
    if name in _TRAILING_CONTEXT:
        def trailing(*args: Any) -> Any:
            return fn(*args, ctx)
        trailing.__name__ = name
        return trailing
    if not callable(fn) or isinstance(fn, type):
        return fn
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return fn
    if "ctx" not in params:
        return fn
    pos = params.index("ctx")

    def bound(*args: Any, **kw: Any) -> Any:
        if len(args) > pos:
            if args[pos] is None:
                args = (*args[:pos], ctx, *args[pos + 1:])
        elif kw.get("ctx") is None:
            kw["ctx"] = ctx
        return fn(*args, **kw)

    bound.__name__ = name
    bound.__doc__ = fn.__doc__
    return bound
