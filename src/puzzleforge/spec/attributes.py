"""The attribute half of the spec allow-list: for each type, what an expression may read.

Why a module of its own (split from spec/allowlist.py): these tables answer "which
attributes of a value of type T may ``x.name`` (and a format field ``{0.name}``) read",
the question spec/guards.py asks on every attribute access; they change when a spec needs
a new method of a type, independently of which names a spec may call (spec/allowlist.py,
spec/z3names.py). A type not listed has no readable attributes; subclasses inherit their
bases' entries (a Z3 ``IntNumRef`` gets ``ExprRef``'s), looked up per exact type and cached
in spec/guards.py.
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import random
import re

import z3

__all__ = ["ATTRIBUTES"]


_SEQ_READ = ("count", "index")
_STR = (
    "capitalize",
    "casefold",
    "count",
    "endswith",
    "find",
    "format",
    "format_map",
    "index",
    "isalnum",
    "isalpha",
    "isascii",
    "isdecimal",
    "isdigit",
    "isidentifier",
    "islower",
    "isnumeric",
    "isprintable",
    "isspace",
    "istitle",
    "isupper",
    "join",
    "lower",
    "lstrip",
    "partition",
    "removeprefix",
    "removesuffix",
    "rfind",
    "rindex",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "swapcase",
    "title",
    "upper",
    "encode",
    "center",
    "ljust",
    "rjust",
    "zfill",
    "replace",
    "expandtabs",
)
_NUMBER = (
    "real",
    "imag",
    "conjugate",
    "numerator",
    "denominator",
    "bit_length",
    "bit_count",
    "as_integer_ratio",
    "is_integer",
)
_DATE = (
    "year",
    "month",
    "day",
    "weekday",
    "isoweekday",
    "isocalendar",
    "isoformat",
    "strftime",
    "replace",
    "toordinal",
    "ctime",
    "timetuple",
)
_TIME = ("hour", "minute", "second", "microsecond", "tzinfo", "fold")
#: Z3 terms: structure and value readers only (no ``ctx``, ``ast``, ``as_ast``,
#: ``translate``, ``use_pp``: those reach the context and raw pointers).
_Z3_EXPR = (
    "sort",
    "sort_kind",
    "decl",
    "num_args",
    "arg",
    "children",
    "eq",
    "hash",
    "get_id",
    "sexpr",
    "is_int",
    "is_real",
    "as_long",
    "as_string",
    "as_decimal",
    "as_fraction",
    "numerator",
    "denominator",
    "numerator_as_long",
    "denominator_as_long",
    "approx",
    "py_value",
    "size",
    "body",
    "num_vars",
    "var_name",
    "is_forall",
    "is_exists",
)

#: type -> attribute names an expression may read. ``str`` methods that can grow a string
#: and the list methods that grow a list are replaced by bounded versions (guards.py).
ATTRIBUTES: dict[type, tuple[str, ...]] = {
    str: _STR,
    list: _SEQ_READ
    + ("append", "extend", "insert", "pop", "remove", "reverse", "sort", "copy", "clear"),
    tuple: _SEQ_READ,
    dict: (
        "get",
        "items",
        "keys",
        "values",
        "copy",
        "pop",
        "setdefault",
        "update",
        "popitem",
        "clear",
    ),
    set: (
        "add",
        "discard",
        "remove",
        "pop",
        "copy",
        "union",
        "intersection",
        "difference",
        "symmetric_difference",
        "issubset",
        "issuperset",
        "isdisjoint",
        "update",
        "intersection_update",
        "difference_update",
        "symmetric_difference_update",
        "clear",
    ),
    frozenset: (
        "copy",
        "union",
        "intersection",
        "difference",
        "symmetric_difference",
        "issubset",
        "issuperset",
        "isdisjoint",
    ),
    range: ("start", "stop", "step", "count", "index"),
    bool: _NUMBER,
    int: _NUMBER,
    float: _NUMBER + ("hex",),
    complex: ("real", "imag", "conjugate"),
    fractions.Fraction: ("numerator", "denominator", "limit_denominator", "as_integer_ratio"),
    decimal.Decimal: ("quantize", "to_integral_value", "as_integer_ratio", "is_nan"),
    datetime.date: _DATE,
    datetime.datetime: _DATE + _TIME + ("date", "time", "timestamp"),
    datetime.time: _TIME + ("isoformat", "strftime", "replace"),
    datetime.timedelta: ("days", "seconds", "microseconds", "total_seconds"),
    re.Pattern: (
        "match",
        "search",
        "fullmatch",
        "findall",
        "finditer",
        "sub",
        "subn",
        "split",
        "pattern",
        "flags",
        "groups",
    ),
    re.Match: ("group", "groups", "groupdict", "start", "end", "span", "string"),
    random.Random: (
        "random",
        "randint",
        "randrange",
        "uniform",
        "choice",
        "sample",
        "shuffle",
        "gauss",
        "normalvariate",
        "triangular",
    ),
    z3.ExprRef: _Z3_EXPR,
    z3.FuncDeclRef: ("name", "arity", "domain", "range", "kind"),
    z3.SortRef: ("name", "kind", "is_int", "is_real", "subsort"),
    z3.ModelRef: ("evaluate", "eval", "decls"),
}
