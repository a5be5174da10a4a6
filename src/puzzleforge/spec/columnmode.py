"""Conditions and objective of a finite-domain attempt as Python-built terms, Z3 only on demand.

Why: in a finite-domain spec (5-knapsack: 12 Booleans) building the Z3 terms of the
formulas, walking them back for spec/finite.py and a Z3 pre-check cost most of an
attempt. Here each condition formula is evaluated with the symbols bound to ``Term``
leaves (spec/terms.py), which build finite.py's node list directly; ``compile_terms``
then decides exactly as ``compile_finite`` would on the Z3 terms; a model with too many
assignments for that goes to SAT straight from the terms (spec/termsat.py) before Z3.

Exactness: a formula is evaluated this way only when every name it reads (lambdas of the
spec included) is a value, a symbol, a Term-aware Z3 function or a builtin whose result
on a term is the same as on a Z3 term or an error. Any error or ``Fallback`` while doing
so, a result that is not Boolean, and any case ``compile_terms`` refuses, abandons the
mode: the formulas evaluated so far are evaluated again with Z3, each with the values its
names had then (eligible formulas draw nothing and change nothing), so the Z3 path sees
exactly the assertions it always saw, and proceeds as before.
"""

from __future__ import annotations

import types
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import z3

from . import operators
from .eliminate import eliminated_rows
from .fastint import FastInt
from .finite import MAX_ASSIGNMENTS, compile_terms
from .linear import Lin, _union, rows_of
from .linsystem import lin_build_system
from .model import add_assertion, finite_optimum, finite_sols, precheck
from .operators import SolModel, solution_order_key
from .outcome import Rejection, ev
from .pureops import _MAKE_EXPR
from .rotation import rotated_rows
from .safe import SAFE_BUILTINS, SafeCode
from .terms import (
    BOOL,
    DISPATCH,
    INT,
    Builder,
    Fallback,
    Term,
    global_names,
)
from .termsat import term_domains, term_rows

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = [
    "column_start",
    "condition_formula",
    "column_abandon",
    "to_z3",
    "term_eval",
    "column_solved",
    "assertion_count",
    "optimize_terms",
    "enumerate_terms",
]

_MISSING = object()
#: Value types that are never a symbol constant (``convert`` returns them as they are).
_PLAIN = frozenset((str, int, bool, float, type(None)))


@contextmanager
def _bound(env: dict, binds: dict):
    """``env`` with ``binds`` in place (``_MISSING``: name absent), restored afterwards."""
    saved = {n: env.get(n, _MISSING) for n in binds}
    try:
        _assign(env, binds)
        yield env
    finally:
        _assign(env, saved)


def _assign(env: dict, values: dict) -> None:
    for n, v in values.items():
        if v is _MISSING:
            env.pop(n, None)
        else:
            env[n] = v


#: Per-spec statistics key (attempts in the mode, attempts it solved).
_STATS_KEY = ("puzzleforge.spec.columnmode", "stats")
#: After this many attempts of a spec without one solved in the mode, stop trying it.
_TRIAL = 20
_SORT_KIND = {BOOL: z3.Z3_BOOL_SORT, INT: z3.Z3_INT_SORT}
#: Builtins whose result on a term equals their result on a Z3 term, or is an error.
_PURE_BUILTINS = {
    id(v)
    for k, v in SAFE_BUILTINS.items()
    if callable(v) and k not in ("isinstance", "callable", "hasattr", "id", "__pf_import")
}


def col_event_count(events: Any, fact: str, num: int = 0) -> list:
    """``operators.gen_event_count_condition`` over Terms: the same construction, node for node.

    Why here: it is the operator corpus conditions call most (counts of true events);
    without a Term version every such spec left the mode at its first condition.
    """
    evs = operators._flatten_syms(events)
    if not any(type(e) is Term for e in evs):
        return operators.gen_event_count_condition(events, fact, num)
    if fact not in ("distinct", "most", "least", "equal"):
        raise Fallback(f"unknown fact {fact!r}")  # Z3 mode raises the operator's own error
    # every event is a Term here, so the Term versions never reach their Z3 fallbacks
    return operators.event_count(
        evs, fact, num, DISPATCH["Distinct"], DISPATCH["Sum"], DISPATCH["If"]
    )


#: make_expr's Z3 functions and their Term versions (its comparisons and arithmetic are
#: Python operators, which Terms define as Z3's terms do).
_MAKE_EXPR_TERMS = {
    fn: DISPATCH[name]
    for ops, name in (
        (("and", "&&"), "And"),
        (("or", "||"), "Or"),
        (("not", "!"), "Not"),
        (("implies", "=>"), "Implies"),
    )
    for fn in {_MAKE_EXPR[o][0] for o in ops}
}


def col_make_expr(op: Any, *operands: Any) -> Any:
    """``operators.make_expr`` over Terms: the same operator for each name, on Terms.

    Why: specs choose a condition's comparison by a drawn name (``make_expr(_sym[2], x,
    y)``, 17-classmate, 34-roommate); without a Term version every such spec left the
    mode at that condition. Arguments without a Term take the operator itself.
    """
    flat = [y for x in operands for y in (x if type(x) in (list, tuple) else (x,))]
    if not any(type(x) is Term for x in flat):
        return operators.make_expr(op, *operands)
    if type(op) is not str or op not in _MAKE_EXPR:
        raise Fallback("make_expr operator")  # Z3 mode raises the operator's own error
    fn, arity = _MAKE_EXPR[op]
    if arity is not None and len(operands) != arity:
        raise Fallback("make_expr arity")
    if op in ("add", "+"):
        return DISPATCH["Sum"](*operands)
    return _MAKE_EXPR_TERMS.get(fn, fn)(*operands)


#: Runtime operators with a Term version: name -> (the operator, its Term version).
_OPERATORS = {
    "gen_event_count_condition": (operators.gen_event_count_condition, col_event_count),
    "make_expr": (operators.make_expr, col_make_expr),
}
#: The same for the linear mode (Real symbols, spec/linear.py).
_LIN_OPERATORS = {"build_system": (operators.build_system, lin_build_system)}


class _State:
    """The attempt's terms: builder, assertion roots, the formulas evaluated (for Z3 replay)."""

    def __init__(self, symbols: set[str], derived: set[str], linear: bool = False) -> None:
        self.linear = linear  # Real symbols and linear rows (spec/linear.py, spec/lp.py)
        self.index: dict[int, int] = {}  # linear mode: symbol AST id -> position
        self.seen: tuple = ()  # linear mode: symbols met in the assertions, first-seen order
        self.b = Builder()
        self.roots: list[int] = []
        self.records: list[tuple[SafeCode, dict]] = []
        self.symbols = symbols
        self.derived = derived
        self.leaves: dict[int, Any] = {}  # Term (finite) or Lin (linear)
        self.sorts: dict[int, str] = {}
        self.dicts: dict[str, Any] = {}

    def leaf(self, c: Any) -> Any:
        pid = c._pf_id
        t: Any = self.leaves.get(pid)
        if t is None:
            if self.linear:
                pos = self.index[pid]
                unit = [0] * len(self.index)
                unit[pos] = 1
                t = Lin(tuple(unit), 0, (pid,), c, pos)
            else:
                t = Term(self.b, self.b.mk("const", pid), self.sorts[pid])
            self.leaves[pid] = t
        return t

    def convert(self, value: Any) -> Any:
        """Symbol constants inside nested lists/tuples (``_sym``, derived symbols) as leaves."""
        t = type(value)
        if t in _PLAIN:  # drawn names and numbers (most of ``_sym``): no attribute lookup
            return value
        if t is list or t is tuple:
            out = [self.convert(v) for v in value]
            return out if t is list else tuple(out)
        pid = getattr(value, "_pf_id", None)
        if pid is not None and pid in self.sorts and isinstance(value, z3.ExprRef):
            return self.leaf(value)
        return value


def _sort_kind(c: Any) -> int:
    """A symbol constant's sort kind: cached on the constant by z3space.Z3Space.symbol."""
    kind = getattr(c, "_pf_sort_kind", None)
    return c.sort().kind() if kind is None else kind


def column_start(a: Attempt) -> None:
    """Enter the mode when the attempt can only end on the finite path or Z3."""
    a.col = None
    spec = a.spec
    if spec.post_generation is not None or not (spec.calc_solution or spec.optimize is not None):
        return
    if not a.sym_consts or a.capture is not None:  # an audit replay: Z3 terms
        return
    stats = a.cache.setdefault(_STATS_KEY, [0, 0])
    if stats[0] >= _TRIAL and stats[1] == 0:
        return
    symbols = {n for n, s in spec.symbols.items() if s["kind"] == "defined"}
    derived = set(spec.symbols) - symbols
    if spec.optimize is not None and all(
        type(c) is z3.ArithRef and _sort_kind(c) == z3.Z3_REAL_SORT for c in a.sym_consts
    ):
        st = _State(symbols, derived, linear=True)
        st.index = {c._pf_id: i for i, c in enumerate(a.sym_consts)}
        st.sorts = {c._pf_id: "real" for c in a.sym_consts}
    else:
        sorts: dict[int, str] = {}
        for c in a.sym_consts:
            t = type(c)
            if t is z3.BoolRef:
                sorts[c._pf_id] = BOOL
            elif (t is FastInt or t is z3.ArithRef) and _sort_kind(c) == z3.Z3_INT_SORT:
                sorts[c._pf_id] = INT
            else:
                return
        st = _State(symbols, derived)
        st.sorts = sorts
    stats[0] += 1
    a.col = st


def column_solved(a: Attempt) -> None:
    """Count an attempt the mode decided (the trial rule in ``column_start``)."""
    a.cache[_STATS_KEY][1] += 1


def assertion_count(a: Attempt) -> int:
    """Number of assertions (the Term roots while in the mode)."""
    st = a.col
    return len(st.roots) if st is not None else len(a.assertions)


# ---- evaluation ------------------------------------------------------------------


def _swaps(a: Attempt, code: Any, st: _State) -> tuple[dict[str, Any], list[str]]:
    """Names to rebind for a Term evaluation, and all names read; Fallback if ineligible."""
    env = a.env
    exports = a.z3s.exports  # the space's bound Z3 functions, and their term versions
    ops: dict[str, tuple[Any, Any]]
    if st.linear:
        dispatch, ops = a.z3s.dispatch("linear"), _LIN_OPERATORS
    else:
        dispatch, ops = a.z3s.dispatch("terms"), _OPERATORS
    symbols, derived, dicts = st.symbols, st.derived, st.dicts
    swaps: dict[str, Any] = {}
    names: list[str] = []
    seen: set[Any] = set()
    stack = [code]
    while stack:
        c = stack.pop()
        if c in seen:
            continue
        seen.add(c)
        for n in global_names(c):
            names.append(n)
            if n in symbols:
                d = dicts.get(n)
                if d is None:
                    d = dicts[n] = env[n].mapped(st.leaf)
                swaps[n] = d
                continue
            v = env.get(n, _MISSING)
            if v is _MISSING:
                v = SAFE_BUILTINS.get(n, _MISSING)
                if v is _MISSING or not callable(v) or id(v) in _PURE_BUILTINS:
                    continue
                raise Fallback(f"builtin {n}")
            if n in dispatch and v is exports.get(n):
                swaps[n] = dispatch[n]
            elif n in ops and v is ops[n][0]:
                swaps[n] = ops[n][1]
            elif n == "_sym" or n in derived:
                swaps[n] = st.convert(v)
            elif callable(v):
                if id(v) in _PURE_BUILTINS:
                    continue
                if isinstance(v, types.FunctionType) and v.__code__.co_filename.startswith("<spec"):
                    stack.append(v.__code__)  # a spec lambda: its names count too
                    continue
                raise Fallback(f"function {n}")
    return swaps, names


def term_eval(a: Attempt, code: SafeCode) -> tuple[Any, dict]:
    """``code`` evaluated over Terms, and the values its names had (for a Z3 replay)."""
    st = a.col
    env = a.env
    swaps, names = _swaps(a, code.code, st)
    binds = {n: env.get(n, _MISSING) for n in names}
    saved = {n: binds[n] if n in binds else env.get(n, _MISSING) for n in swaps}
    _assign(env, swaps)  # _bound(env, swaps) written out: three per attempt
    try:
        value = code.run(env)
    except Exception as exc:  # noqa: BLE001 - any error: Z3 decides (and reports it)
        raise Fallback(str(exc)) from None
    finally:
        _assign(env, saved)
    return value, binds


def _term_roots(st: _State, value: Any, out: list) -> None:
    # the shapes _flatten_assertions accepts, nothing else
    if st.linear and not isinstance(value, (list, tuple)):
        rows = rows_of(value, len(st.index))
        if rows is None:
            raise Fallback("not a linear constraint")
        out.append(rows)  # one assertion: its rows
        if not isinstance(value, bool):
            st.seen = _union(st.seen, value.seen)
        return
    if isinstance(value, (list, tuple)):
        for v in value:
            _term_roots(st, v, out)
    elif isinstance(value, bool):
        out.append(st.b.mk("lit", value))
    elif type(value) is Term and value.s is BOOL and value.b is st.b:
        out.append(value.i)
    else:
        raise Fallback("not a Boolean term")


def condition_formula(a: Attempt, code: SafeCode) -> None:
    """Add one condition formula's assertions (as Terms in the mode, else Z3 terms)."""
    st = a.col
    if st is not None:
        try:
            value, binds = term_eval(a, code)
            roots: list[int] = []
            _term_roots(st, value, roots)
        except Fallback:
            column_abandon(a)
        else:
            st.roots.extend(roots)
            st.records.append((code, binds))
            return
    add_assertion(a, ev(code, a.env), code)


def column_abandon(a: Attempt) -> None:
    """Leave the mode: the formulas evaluated so far are evaluated again, with Z3."""
    st = a.col
    if st is None:
        return
    a.col = None
    env = a.env
    for code, binds in st.records:
        with _bound(env, binds):
            add_assertion(a, ev(code, env), code)


def to_z3(a: Attempt) -> None:
    """Abandon the mode at solving time: Z3 assertions, and the pre-check they skipped."""
    column_abandon(a)
    precheck(a)


def _projection(st: _State, consts: list) -> tuple[dict[int, int], list[int]]:
    index = {c._pf_id: i for i, c in enumerate(consts)}
    kinds = [_SORT_KIND[st.sorts[c._pf_id]] for c in consts]
    return index, kinds


# ---- solving ---------------------------------------------------------------------


def optimize_terms(a: Attempt, kind: str) -> bool:
    """The optimum over Terms on the finite path; False (Z3 assertions made) otherwise."""
    st = a.col
    if st is None:
        return False
    if st.linear:  # spec/lpmode.py (spec/backends.py ``optimize_terms`` sends it there)
        raise AssertionError("linear term models are optimised by spec/lpmode.py")
    try:
        target, _ = term_eval(a, a.spec.optimize["formula"])  # type: ignore[index]
    except Fallback:
        target = None
    if type(target) is not Term or target.s is not INT or target.b is not st.b:
        to_z3(a)
        return False
    a.check_time()
    consts = a.sym_consts
    index, kinds = _projection(st, consts)
    res = compile_terms(st.b.nodes, st.roots, target.i, index, kinds)
    if res is None:
        to_z3(a)
        return False
    column_solved(a)
    a.col = None  # done: no cycle through the attempt keeps the terms for the GC
    prob, objv = res
    finite_optimum(a, prob, objv, consts, kind, consts[0].ctx)
    return True


def enumerate_terms(a: Attempt, limit: int | None) -> list | None:
    """All solutions over Terms on the finite path; None (Z3 assertions made) otherwise."""
    st = a.col
    if st is None:
        return None
    nodes = st.b.nodes
    present: set[int] = set()
    seen: set[int] = set()
    stack = list(st.roots)
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        op, args = nodes[i]
        if op == "const":
            present.add(args)
        elif op != "num" and op != "lit":
            stack.extend(args)
    consts = [c for c in a.sym_consts if c._pf_id in present]
    index, kinds = _projection(st, consts)
    a.check_time()
    ids = [c._pf_id for c in consts]
    doms = term_domains(nodes, st.roots, ids, kinds)
    if doms is not None and doms[2] == 0:
        # an empty domain (contradictory bounds): no solution, as both backends below
        # would find after reading the same domains again
        column_solved(a)
        a.col = None
        return []
    # more assignments than exhaustive evaluation takes (its first test, made here once):
    # CNF from the terms (spec/termsat.py)
    big = doms is not None and doms[2] > MAX_ASSIGNMENTS
    res = None if big else compile_terms(nodes, st.roots, None, index, kinds, limit=limit)
    if res is None:
        a.check_time()
        # a round-table model: one seat fixed, the solutions rotated back (spec/rotation.py)
        rot = None if doms is None else rotated_rows(st.b, st.roots, ids, kinds, limit, doms)
        if rot is not None:
            rows, k = rot
            a.sym_fix = consts[k]  # the Z3 pre-check may fix it too
        else:
            rows = None if doms is None else term_rows(nodes, st.roots, ids, kinds, limit, doms)
        if rows is None:  # an unknown fixed by an equation, eliminated (spec/eliminate.py)
            rows = eliminated_rows(st.b, st.roots, ids, kinds, limit)
        if rows is None:
            to_z3(a)
            return None
        column_solved(a)
        a.col = None
        return _row_sols(rows, consts, limit)
    column_solved(a)
    a.col = None
    prob, _ = res
    if prob.too_many or (limit is not None and len(prob.rows) > limit):
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    return finite_sols(prob, consts, prob.rows)


def _row_sols(rows: list[list[Any]], consts: list, limit: int | None) -> list[SolModel]:
    """Solutions in the canonical order from the SAT path's value rows (or a rejection)."""
    if limit is not None and len(rows) > limit:
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    ids = [c.get_id() for c in consts]
    cmap = dict(zip(ids, consts, strict=True))
    rows.sort(key=lambda row: [solution_order_key(v) for v in row])
    return [SolModel(dict(zip(ids, row, strict=True)), cmap) for row in rows]
