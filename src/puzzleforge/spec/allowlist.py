"""The explicit tables of what a spec expression may name, call and read.

Why tables and not "a module's namespace minus a deny-list": z3's namespace re-exports
ctypes (raw memory access), global parameters (``set_param``, ``smtlib2_log`` writes files),
printing helpers (``solve``) and classes whose constructors take raw pointers; a deny-list
misses the next one. Everything a spec can reach is listed here by name:

* ``Z3_NAMES``: the Z3 term constructors, operators and predicates the PuzzleClone format
  uses (no solver, context, parameter, file or pointer API, no Z3 classes);
* ``BUILTIN_NAMES``: the safe Python builtins (bounded versions where the real one can
  allocate without bound or loop forever in C);
* ``ATTRIBUTES``: for each type, the attributes an expression may read (``x.name``, and
  format fields ``{0.name}``); a type not listed has no readable attributes. Subclasses
  inherit their bases' entries (a Z3 ``IntNumRef`` gets ``ExprRef``'s), so the lookup
  is per exact type, cached (spec/guards.py);
* ``MODULE_VIEWS``: read-only views (``ModuleView``) standing for ``math``, ``re``,
  ``itertools`` and the modules ``__import__('datetime')`` may name.

The spec operators (``get_faker``, ``generate_random_list``, ...) are added per attempt by
``operators.Runtime.table``; their results are plain lists, strings, numbers and Z3 terms.
"""
from __future__ import annotations

import builtins
import datetime
import decimal
import fractions
import functools
import inspect
import itertools
import math
import random
import re
import statistics
from collections.abc import Callable
from typing import Any

import z3

from . import bounded

__all__ = ["ModuleView", "Z3_NAMES", "z3_table", "bind_context", "BUILTIN_NAMES", "builtin_table",
           "ATTRIBUTES", "MODULE_VIEWS", "IMPORTABLE"]


class ModuleView:
    """A read-only namespace of chosen names (stands for a module; never the module itself).

    Why a class of its own: the guard lets an expression read exactly the names in the
    view, and nothing else (no ``__dict__``, no module object, no setting attributes).
    """

    __slots__ = ("_pf_name", "_pf_items")

    def __init__(self, name: str, items: dict[str, Any]) -> None:
        object.__setattr__(self, "_pf_name", name)
        object.__setattr__(self, "_pf_items", dict(items))

    def __getattr__(self, name: str) -> Any:  # engine code (trusted) reads views directly
        try:
            return self._pf_items[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"module view {self._pf_name} is read-only")

    def __repr__(self) -> str:
        return f"<module {self._pf_name}>"


# ---------------------------------------------------------------- Z3

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
    "IntVector": bounded.vector, "BoolVector": bounded.vector, "RealVector": bounded.vector,
    "Ints": bounded.names_call, "Bools": bounded.names_call, "Reals": bounded.names_call,
    "BitVecs": lambda fn: bounded.bv_width(1)(bounded.names_call(fn)),
    "Consts": bounded.names_call,
    "BitVec": bounded.bv_width(1), "BitVecVal": bounded.bv_width(1),
    "BitVecSort": bounded.bv_width(0), "Int2BV": bounded.bv_width(1),
    "ZeroExt": bounded.bv_width(0), "SignExt": bounded.bv_width(0), "Concat": bounded.bv_concat,
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


# ---------------------------------------------------------------- builtins

#: Builtins passed through unchanged (none allocates without bound from small inputs,
#: none reaches an object's internals).
BUILTIN_NAMES: tuple[str, ...] = (
    "abs", "all", "any", "bool", "chr", "dict", "divmod", "enumerate", "filter", "float",
    "frozenset", "hash", "int", "isinstance", "len", "list", "map", "max", "min", "next",
    "ord", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple", "zip",
    "repr", "callable", "bin", "hex", "oct", "complex", "id",
    "ValueError", "Exception", "KeyError", "IndexError", "TypeError", "ZeroDivisionError",
    "ArithmeticError", "LookupError", "StopIteration",
    "True", "False", "None",
)


def builtin_table() -> dict[str, Any]:
    """The ``__builtins__`` of spec expressions: the names above plus bounded replacements."""
    table: dict[str, Any] = {name: getattr(builtins, name) for name in BUILTIN_NAMES}
    table.update({
        "print": bounded.quiet_print,  # engine output is JSONL: expressions never print
        "range": bounded.safe_range,
        "pow": bounded.safe_pow,
        "iter": bounded.safe_iter,      # no iter(callable, sentinel): an endless C loop
        "format": bounded.safe_format_builtin,
        "hasattr": None,                # set by guards.py (answers from the allow-list)
        "math": MODULE_VIEWS["math"],
    })
    return table


# ---------------------------------------------------------------- modules


def _pick(module: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: getattr(module, n) for n in names if hasattr(module, n)}


_MATH_PLAIN = (
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "copysign", "cos",
    "cosh", "degrees", "dist", "e", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "floor",
    "fmod", "frexp", "fsum", "gamma", "gcd", "hypot", "inf", "isclose", "isfinite", "isinf",
    "isnan", "isqrt", "lcm", "ldexp", "lgamma", "log", "log10", "log1p", "log2", "modf", "nan",
    "nextafter", "pi", "pow", "radians", "remainder", "sin", "sinh", "sqrt", "tan", "tanh",
    "tau", "trunc", "ulp", "cbrt",
)

#: Standard-library views. ``itertools`` keeps only finite iterators (bounded wrappers for
#: ``count``/``cycle``/``repeat`` and the combinatorial ones), ``math`` bounds the
#: big-integer functions.
MODULE_VIEWS: dict[str, ModuleView] = {
    "math": ModuleView("math", {**_pick(math, _MATH_PLAIN), **bounded.MATH_BOUNDED}),
    "itertools": ModuleView("itertools", {
        **_pick(itertools, ("chain", "accumulate", "groupby", "islice", "starmap", "zip_longest",
                            "compress", "dropwhile", "takewhile", "filterfalse", "pairwise")),
        **bounded.ITERTOOLS_BOUNDED}),
    "re": ModuleView("re", {**_pick(re, (
        "compile", "match", "search", "fullmatch", "findall", "finditer", "split",
        "escape", "IGNORECASE", "MULTILINE", "DOTALL", "I", "M", "S")),
        "sub": bounded.re_sub(re.sub), "subn": bounded.re_sub(re.subn)}),
    "datetime": ModuleView("datetime", _pick(datetime, (
        "date", "datetime", "time", "timedelta", "timezone", "MINYEAR", "MAXYEAR"))),
    "functools": ModuleView("functools", {"reduce": functools.reduce,
                                          "cmp_to_key": functools.cmp_to_key}),
    "statistics": ModuleView("statistics", _pick(statistics, (
        "mean", "median", "mode", "stdev", "variance", "pstdev", "pvariance"))),
    "fractions": ModuleView("fractions", {"Fraction": fractions.Fraction}),
    "decimal": ModuleView("decimal", {"Decimal": decimal.Decimal}),
}

#: Modules a spec may name in ``__import__('<name>')`` (corpus-style specs import
#: ``datetime`` this way inside lambdas); each gives its read-only view.
IMPORTABLE = ("datetime", "math", "itertools", "functools", "statistics", "fractions",
              "decimal", "re")


# ---------------------------------------------------------------- attributes per type

_SEQ_READ = ("count", "index")
_STR = (
    "capitalize", "casefold", "count", "endswith", "find", "format", "format_map", "index",
    "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
    "isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "lower", "lstrip",
    "partition", "removeprefix", "removesuffix", "rfind", "rindex", "rpartition", "rsplit",
    "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "upper",
    "encode", "center", "ljust", "rjust", "zfill", "replace", "expandtabs",
)
_NUMBER = ("real", "imag", "conjugate", "numerator", "denominator", "bit_length",
           "bit_count", "as_integer_ratio", "is_integer")
_DATE = ("year", "month", "day", "weekday", "isoweekday", "isocalendar", "isoformat",
         "strftime", "replace", "toordinal", "ctime", "timetuple")
_TIME = ("hour", "minute", "second", "microsecond", "tzinfo", "fold")
#: Z3 terms: structure and value readers only (no ``ctx``, ``ast``, ``as_ast``,
#: ``translate``, ``use_pp``: those reach the context and raw pointers).
_Z3_EXPR = (
    "sort", "sort_kind", "decl", "num_args", "arg", "children", "eq", "hash", "get_id",
    "sexpr", "is_int", "is_real", "as_long", "as_string", "as_decimal", "as_fraction",
    "numerator", "denominator", "numerator_as_long", "denominator_as_long", "approx",
    "py_value", "size", "body", "num_vars", "var_name", "is_forall", "is_exists",
)

#: type -> attribute names an expression may read. ``str`` methods that can grow a string
#: and the list methods that grow a list are replaced by bounded versions (guards.py).
ATTRIBUTES: dict[type, tuple[str, ...]] = {
    str: _STR,
    list: _SEQ_READ + ("append", "extend", "insert", "pop", "remove", "reverse", "sort",
                       "copy", "clear"),
    tuple: _SEQ_READ,
    dict: ("get", "items", "keys", "values", "copy", "pop", "setdefault", "update", "popitem",
           "clear"),
    set: ("add", "discard", "remove", "pop", "copy", "union", "intersection", "difference",
          "symmetric_difference", "issubset", "issuperset", "isdisjoint", "update",
          "intersection_update", "difference_update", "symmetric_difference_update", "clear"),
    frozenset: ("copy", "union", "intersection", "difference", "symmetric_difference",
                "issubset", "issuperset", "isdisjoint"),
    range: ("start", "stop", "step", "count", "index"),
    bool: _NUMBER, int: _NUMBER, float: _NUMBER + ("hex",), complex: ("real", "imag", "conjugate"),
    fractions.Fraction: ("numerator", "denominator", "limit_denominator", "as_integer_ratio"),
    decimal.Decimal: ("quantize", "to_integral_value", "as_integer_ratio", "is_nan"),
    datetime.date: _DATE,
    datetime.datetime: _DATE + _TIME + ("date", "time", "timestamp"),
    datetime.time: _TIME + ("isoformat", "strftime", "replace"),
    datetime.timedelta: ("days", "seconds", "microseconds", "total_seconds"),
    re.Pattern: ("match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split",
                 "pattern", "flags", "groups"),
    re.Match: ("group", "groups", "groupdict", "start", "end", "span", "string"),
    random.Random: ("random", "randint", "randrange", "uniform", "choice", "sample",
                    "shuffle", "gauss", "normalvariate", "triangular"),
    z3.ExprRef: _Z3_EXPR,
    z3.FuncDeclRef: ("name", "arity", "domain", "range", "kind"),
    z3.SortRef: ("name", "kind", "is_int", "is_real", "subsort"),
    z3.ModelRef: ("evaluate", "eval", "decls"),
}
