"""The spec operators with no per-attempt state: conditions over events, solutions, names.

Why a module of its own: these operators are pure functions of their arguments (Z3
terms, solutions, lists); spec/operators.py keeps what depends on one generation
attempt (its ``random.Random``, symbol metadata, counters) and puts both into the
table a spec's expressions see.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

import z3

from . import mathexpr
from .fastz3 import fast_if, fast_sum
from .solmodel import SolModel, z3_to_py

__all__ = ["OperatorError", "build_system", "event_count", "find_always_TF_combined_events",
           "find_always_TF_events", "gen_event_count_condition", "gen_multi_event_count_condition",
           "get_TF_events_for_each_solution", "get_value", "get_var_name", "generate_var_names",
           "make_expr", "to_hashable", "to_unique"]


class OperatorError(Exception):
    """A built-in operator was called with arguments it cannot work with."""


#: Largest count a spec operator builds in one call (letters, names, list sizes, groups).
MAX_OPERATOR_ITEMS = 100_000


def _bounded(what: str, value: Any, limit: int = MAX_OPERATOR_ITEMS) -> int:
    """``int(value)``, refusing counts above ``limit`` (an operator asked for 10**9 items)."""
    n = int(value)
    if n > limit:
        raise OperatorError(f"{what}: {n} is too large (limit {limit})")
    return n


def _flatten_syms(events: Any) -> list:
    if hasattr(events, "to_list") and callable(events.to_list):
        return list(events.to_list())
    if isinstance(events, dict):
        return list(events.values())
    return list(events)


def build_system(configs: Any, vars: Any, var_names: Any = None) -> Mapping:  # noqa: A002 - documented name
    """Z3 expressions, side constraints and LaTeX of serialized formulas (documented signature)."""
    return mathexpr.build_system(list(configs), vars, var_names)


def get_value(sol: Any, vars: Any) -> Any:  # noqa: A002 - the documented keyword is ``vars``
    """Value(s) of Z3 constant(s) ``vars`` in solution ``sol`` (lists map elementwise)."""
    var = vars
    if type(sol) is SolModel and hasattr(var, "_pf_id"):
        return sol.values.get(var._pf_id)
    if isinstance(var, (list, tuple)):
        return [get_value(sol, item) for item in var]
    if isinstance(var, dict) or hasattr(var, "to_list"):
        return [get_value(sol, item) for item in list(var)]
    if isinstance(sol, SolModel):
        return sol[var]
    if isinstance(sol, (list, tuple)) and sol and isinstance(sol[0], SolModel):
        return sol[0][var]
    if isinstance(sol, z3.ModelRef):
        return z3_to_py(sol[var.decl()] if z3.is_const(var) else sol.evaluate(var))
    raise OperatorError(f"get_value: {type(sol).__name__} is not a solution")


def to_unique(l: Any) -> Any:  # noqa: E741 - the documented parameter name
    """Remove duplicates, keeping the first occurrence (works on unhashable items too)."""
    items = l
    if not isinstance(items, (list, tuple)):
        return items
    out: list = []
    seen: set = set()
    for item in items:
        k = to_hashable(item)
        try:
            if k in seen:
                continue
            seen.add(k)
        except TypeError:
            if item in out:
                continue
        out.append(item)
    return out


def to_hashable(element: Any) -> Any:
    if isinstance(element, list):
        return tuple(to_hashable(e) for e in element)
    return element


def gen_event_count_condition(events: Any, fact: str, num: int = 0) -> list:
    """[at most / at least / exactly ``num`` of ``events`` true] or [Distinct(events)]."""
    return event_count(_flatten_syms(events), fact, num, z3.Distinct, fast_sum, fast_if)


def event_count(evs: list, fact: str, num: int, distinct: Any, total: Any, ite: Any) -> list:
    """The construction of gen_event_count_condition over given term primitives.

    Why the primitives are parameters: spec/columnmode.py builds the very same terms over
    its own Term objects (col_distinct, col_sum, col_if), node for node.
    """
    n = len(evs)
    num = 0 if num <= 0 else min(num, n)
    if fact == "distinct":
        return [distinct(*evs)]
    count = total([ite(v, 1, 0) for v in evs])
    if fact == "most":
        return [count <= num]
    if fact == "least":
        return [count >= num]
    if fact == "equal":
        return [count == num]
    raise OperatorError(f"gen_event_count_condition: unknown fact '{fact}' "
                        "(expected most, least, equal or distinct)")


def gen_multi_event_count_condition(events: Any, op: str, target: Any) -> list:
    """op 'wc': exactly target[i] groups of ``events`` have i true events."""
    if op != "wc":
        raise OperatorError(f"gen_multi_event_count_condition: unknown op '{op}'")
    # the fast constructors (spec/fastz3.py) make the same terms as z3.Sum/z3.If with
    # the same C calls, without z3py's argument coercion (8-stone: a quarter of an attempt)
    counts = [fast_sum([fast_if(e, 1, 0) for e in group]) for group in events]
    out = []
    for i, required in enumerate(target):
        if required < 0:
            raise OperatorError(f"gen_multi_event_count_condition: negative target {required}")
        if required:
            out.append(fast_sum([fast_if(c == i, 1, 0) for c in counts]) == required)
    return out


_MAKE_EXPR: dict[str, tuple[Callable, int | None]] = {}
for _names, _fn, _arity in (
    (("eq", "=="), lambda x, y: x == y, 2), (("neq", "!=", "ne"), lambda x, y: x != y, 2),
    (("gt", ">"), lambda x, y: x > y, 2), (("ge", ">="), lambda x, y: x >= y, 2),
    (("lt", "<"), lambda x, y: x < y, 2), (("le", "<="), lambda x, y: x <= y, 2),
    (("and", "&&"), z3.And, None), (("or", "||"), z3.Or, None), (("not", "!"), z3.Not, 1),
    (("implies", "=>"), z3.Implies, 2), (("add", "+"), lambda *a: z3.Sum(*a), None),
    (("sub", "-"), lambda x, y: x - y, 2), (("mul", "*"), lambda x, y: x * y, 2),
    (("div", "/"), lambda x, y: x / y, 2),
):
    for _n in _names:
        _MAKE_EXPR[_n] = (_fn, _arity)


def make_expr(op: str, *operands: Any) -> Any:
    """Z3 expression for an operator name (eq/neq/gt/ge/lt/le, and/or/not/implies,
    add/sub/mul/div)."""
    if op not in _MAKE_EXPR:
        raise OperatorError(f"make_expr: unsupported operator '{op}'")
    fn, arity = _MAKE_EXPR[op]
    if arity is not None and len(operands) != arity:
        raise OperatorError(f"make_expr: operator '{op}' takes {arity} operand(s)")
    return fn(*operands)


def get_TF_events_for_each_solution(events: Any, solutions: Any, require: bool = True) -> list:
    evs = _flatten_syms(events)
    return [[v for v in evs if model[v] == require or model[v] is None] for model in solutions]


def find_always_TF_events(events: Any, solutions: Any, require: bool = True) -> tuple[list, list]:
    yes: list = []
    no: list = []
    for e in _flatten_syms(events):
        (yes if all(m[e] == require for m in solutions) else no).append(e)
    return yes, no


def find_always_TF_combined_events(events: Any, solutions: Any, require: bool = True, num: int = 2) -> list:
    return [c for c in itertools.combinations(_flatten_syms(events), num)
            if all(all(m[e] == require for e in c) for m in solutions)]


def generate_var_names(n: int) -> list[str]:
    n = _bounded("generate_var_names", n)
    if n <= 3:
        return ["x", "y", "z"][:n]
    if n <= 11:
        return ["p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"][:n]
    return [f"x{i}" for i in range(1, n + 1)]


def get_var_name(z3_var: Any) -> str:
    return z3_var.decl().name()
