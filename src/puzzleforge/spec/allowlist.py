"""The explicit tables of what a spec expression may name, call and read.

Why tables and not "a module's namespace minus a deny-list": z3's namespace re-exports
ctypes (raw memory access), global parameters (``set_param``, ``smtlib2_log`` writes files),
printing helpers (``solve``) and classes whose constructors take raw pointers; a deny-list
misses the next one. Everything a spec can reach is listed by name, in three modules, one
question each:

* here, ``BUILTIN_NAMES``: the safe Python builtins (bounded versions where the real one can
  allocate without bound or loop forever in C), and ``MODULE_VIEWS``: read-only views
  (``ModuleView``) standing for ``math``, ``re``, ``itertools`` and the modules
  ``__import__('datetime')`` may name;
* spec/z3names.py, ``Z3_NAMES``: the Z3 term constructors, operators and predicates the
  PuzzleClone format uses (no solver, context, parameter, file or pointer API, no Z3 classes);
* spec/attributes.py, ``ATTRIBUTES``: for each type, the attributes an expression may read
  (``x.name``, and format fields ``{0.name}``).

The spec operators (``get_faker``, ``generate_random_list``, ...) are added per attempt by
``operators.Runtime.table``; their results are plain lists, strings, numbers and Z3 terms.
"""

from __future__ import annotations

import builtins
import datetime
import decimal
import fractions
import functools
import itertools
import math
import re
import statistics
from typing import Any

from . import bounded, boundedlib

__all__ = ["ModuleView", "BUILTIN_NAMES", "builtin_table", "MODULE_VIEWS", "IMPORTABLE"]


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


# ---------------------------------------------------------------- builtins

#: Builtins passed through unchanged (none allocates without bound from small inputs,
#: none reaches an object's internals).
BUILTIN_NAMES: tuple[str, ...] = (
    "abs",
    "all",
    "any",
    "bool",
    "chr",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "frozenset",
    "hash",
    "int",
    "isinstance",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "ord",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "tuple",
    "zip",
    "repr",
    "callable",
    "bin",
    "hex",
    "oct",
    "complex",
    "id",
    "ValueError",
    "Exception",
    "KeyError",
    "IndexError",
    "TypeError",
    "ZeroDivisionError",
    "ArithmeticError",
    "LookupError",
    "StopIteration",
    "True",
    "False",
    "None",
)


def builtin_table() -> dict[str, Any]:
    """The ``__builtins__`` of spec expressions: the names above plus bounded replacements."""
    table: dict[str, Any] = {name: getattr(builtins, name) for name in BUILTIN_NAMES}
    table.update(
        {
            "print": bounded.quiet_print,  # engine output is JSONL: expressions never print
            "range": bounded.safe_range,
            "pow": bounded.safe_pow,
            "iter": bounded.safe_iter,  # no iter(callable, sentinel): an endless C loop
            "format": bounded.safe_format_builtin,
            "hasattr": None,  # set by guards.py (answers from the allow-list)
            "math": MODULE_VIEWS["math"],
        }
    )
    return table


# ---------------------------------------------------------------- modules


def _pick(module: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: getattr(module, n) for n in names if hasattr(module, n)}


_MATH_PLAIN = (
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "degrees",
    "dist",
    "e",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "floor",
    "fmod",
    "frexp",
    "fsum",
    "gamma",
    "gcd",
    "hypot",
    "inf",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "isqrt",
    "lcm",
    "ldexp",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "modf",
    "nan",
    "nextafter",
    "pi",
    "pow",
    "radians",
    "remainder",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "tau",
    "trunc",
    "ulp",
    "cbrt",
)

#: Standard-library views. ``itertools`` keeps only finite iterators (bounded wrappers for
#: ``count``/``cycle``/``repeat`` and the combinatorial ones), ``math`` bounds the
#: big-integer functions.
MODULE_VIEWS: dict[str, ModuleView] = {
    "math": ModuleView("math", {**_pick(math, _MATH_PLAIN), **boundedlib.MATH_BOUNDED}),
    "itertools": ModuleView(
        "itertools",
        {
            **_pick(
                itertools,
                (
                    "chain",
                    "accumulate",
                    "groupby",
                    "islice",
                    "starmap",
                    "zip_longest",
                    "compress",
                    "dropwhile",
                    "takewhile",
                    "filterfalse",
                    "pairwise",
                ),
            ),
            **boundedlib.ITERTOOLS_BOUNDED,
        },
    ),
    "re": ModuleView(
        "re",
        {
            **_pick(
                re,
                (
                    "compile",
                    "match",
                    "search",
                    "fullmatch",
                    "findall",
                    "finditer",
                    "split",
                    "escape",
                    "IGNORECASE",
                    "MULTILINE",
                    "DOTALL",
                    "I",
                    "M",
                    "S",
                ),
            ),
            "sub": bounded.re_sub(re.sub),
            "subn": bounded.re_sub(re.subn),
        },
    ),
    "datetime": ModuleView(
        "datetime",
        _pick(
            datetime, ("date", "datetime", "time", "timedelta", "timezone", "MINYEAR", "MAXYEAR")
        ),
    ),
    "functools": ModuleView(
        "functools", {"reduce": functools.reduce, "cmp_to_key": functools.cmp_to_key}
    ),
    "statistics": ModuleView(
        "statistics",
        _pick(statistics, ("mean", "median", "mode", "stdev", "variance", "pstdev", "pvariance")),
    ),
    "fractions": ModuleView("fractions", {"Fraction": fractions.Fraction}),
    "decimal": ModuleView("decimal", {"Decimal": decimal.Decimal}),
}

#: Modules a spec may name in ``__import__('<name>')`` (corpus-style specs import
#: ``datetime`` this way inside lambdas); each gives its read-only view.
IMPORTABLE = (
    "datetime",
    "math",
    "itertools",
    "functools",
    "statistics",
    "fractions",
    "decimal",
    "re",
)
