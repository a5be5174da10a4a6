"""Model enumeration by a SAT solver: finite-domain constraints with many solutions.

Why: a spec whose symbols are Booleans, or integers that the constraints only compare with
constants (``x == 3``, ``x < n``, ``Sum([x == i for x in xs]) > 0``), is a propositional
problem. Enumerating its solutions through Z3 costs one incremental SMT check per model
(0.4-20 ms, plus the Python side of reading the model and adding the blocking clause):
thousands of models, or the ``max_solution + 1`` models that prove "too many solutions",
take seconds. Here the constraints become CNF once (integers one-hot: ``x == v`` becomes a
Boolean ``x=v`` with exactly one true per integer; Z3's own ``card2bv``/``bit-blast``/
``tseitin-cnf`` tactics for the cardinality sums and the clause form), and a SAT solver
(PySAT's MiniSat 2.2) enumerates the projected models with blocking clauses, each in
microseconds.

Integer arithmetic inside a comparison is read too (the plain-pointer walk): a linear atom
over at most two integers (``x - y == 1``, ``x + y <= 4``, ``2 * x > y``) becomes, for each
value ``v`` of the first, ``x = v`` implies the values of the second that satisfy it; any
other comparison of integer terms (a sum over many integers, ``If(b, x, 0)`` terms, a
product by a number) becomes one pseudo-Boolean constraint ``sum(w * [bit]) op k``, each
integer being ``sum(v * [x = v])`` over its one-hot values and ``If(c, t, e)`` putting the
Booleans of ``t`` under ``c`` and those of ``e`` under ``not c``; ``card2bv`` turns it into
clauses. A cardinality sum of Booleans alone keeps its own form. Products of unknowns,
division and anything else stay outside.

Exactness: nothing is approximated. The rewriting replaces each integer comparison by the
disjunction of the domain values that satisfy it, over a domain read from top-level bounds
of the constraints themselves, so every projected model of the CNF is a model of the
constraints and back; Tseitin's auxiliary variables are never projected. The SAT solver
decides each step completely (a conflict budget that runs out, or anything outside this
fragment, returns None and the caller uses Z3 as before). The set of solutions is the
same as Z3's enumeration gives; the caller sorts it into the same canonical order.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import z3

from .satarith import ArithReader, bool_and, bool_not, bool_or, linear_rewrite
from .satdomains import (
    FLIP,
    Outside,
    bounds_into,
    const_cmp,
    domains,
    finish_domains,
    holds,
    pair_cmp,
    value_set,
)
from .z3raw import RAW, ast_at, ptr

__all__ = ["enumerate_sat", "sat_solutions", "solve_projected"]

#: SAT conflicts allowed per solver call before the caller falls back to Z3 (a count, so
#: the outcome does not depend on machine load).
CONFLICT_BUDGET = 200_000
_TACTIC = ("simplify", "card2bv", "bit-blast", "tseitin-cnf")
#: The plain-pointer accessors (spec/z3raw.py); None on an unusual z3 build (then the
#: wrapper walk below is used).
_API: Any = RAW
_NUM_AST, _APP_AST = z3.Z3_NUMERAL_AST, z3.Z3_APP_AST
_BOOL_SORT, _INT_SORT = z3.Z3_BOOL_SORT, z3.Z3_INT_SORT


def _pair_rewrite(op: int, xs: list[int], onehot: dict[int, dict[int, Any]], ctx: Any) -> Any:
    """The one-hot form of ``x op y`` or ``Distinct(x, y, ...)`` over integer constants."""
    if op == z3.Z3_OP_DISTINCT:  # no value taken twice
        return bool_and(
            [
                bool_or([bool_not(onehot[a][v], ctx), bool_not(onehot[b][v], ctx)], ctx)
                for i, a in enumerate(xs)
                for b in xs[i + 1 :]
                for v in onehot[a]
                if v in onehot[b]
            ],
            ctx,
        )
    a, b = xs  # x = a implies y takes one of the values b with a op b
    return bool_and(
        [
            bool_or(
                [bool_not(bit, ctx), *[onehot[b][w] for w in onehot[b] if holds(op, v, w)]], ctx
            )
            for v, bit in onehot[a].items()
        ],
        ctx,
    )


def _rewrite(
    e: Any, ints: dict[int, Any], onehot: dict[int, dict[int, Any]], memo: dict[int, Any]
) -> Any:
    """``e`` with each integer comparison replaced by its one-hot disjunction."""
    key = e.get_id()
    got = memo.get(key)
    if got is not None:
        return got
    cmp = const_cmp(e, ints)
    pair = None if cmp is not None else pair_cmp(e, ints)
    ctx = e.ctx
    if cmp is not None:
        c, op, v = cmp
        lits = [b for val, b in onehot[c].items() if holds(op, val, v)]
        out = lits[0] if len(lits) == 1 else bool_or(lits, ctx)
    elif pair is not None:
        out = _pair_rewrite(*pair, onehot, ctx)
    elif key in ints:
        raise Outside("an integer constant outside a comparison with a number")
    elif z3.is_app(e) and e.num_args():
        kids = [_rewrite(a, ints, onehot, memo) for a in e.children()]
        out = (
            e.decl()(*kids)
            if any(k is not a for k, a in zip(kids, e.children(), strict=False))
            else e
        )
    else:
        if z3.is_quantifier(e) or (z3.is_const(e) and not z3.is_bool(e) and not z3.is_int_value(e)):
            raise Outside("a term this path does not encode")
        out = e
    memo[key] = out
    return out


class _RawEncoder:
    """``domains`` and ``_rewrite`` over plain AST addresses (spec/z3raw.py).

    Why: walking the constraints through z3py's wrappers (``children()``, ``decl()``,
    ``is_app``: a Python object and several checked calls per node) and rebuilding every
    node through ``FuncDeclRef.__call__`` cost most of a SAT-decided attempt (44-chess:
    ~80% of its CPU). The same walk over addresses makes one unchecked C call per question
    and rebuilds only the nodes whose arguments changed (``Z3_update_term``), so the
    rewritten terms are the very ASTs the wrapper walk builds (terms are hash-consed).
    """

    def __init__(self, ctx: Any, ints: dict[int, Any]) -> None:
        self.ctx = ctx
        self.c = ptr(ctx.ref())
        self.int_at = {ptr(x.as_ast()): i for i, x in ints.items()}
        self.keep: list[Any] = []  # the wrappers that hold the new terms alive
        self.arith = ArithReader(self)

    def int_value(self, p: int) -> int | None:
        c = self.c
        if (
            _API.get_ast_kind(c, p) != _NUM_AST
            or _API.get_sort_kind(c, _API.get_sort(c, p)) != _INT_SORT
        ):
            return None
        return int(_API.get_numeral_string(c, p))

    def head(self, p: int) -> tuple[int, int]:
        """(decl kind, number of arguments) of an application, (-1, 0) for anything else."""
        c = self.c
        if _API.get_ast_kind(c, p) != _APP_AST:
            return -1, 0
        return _API.get_decl_kind(c, _API.get_app_decl(c, p)), _API.get_app_num_args(c, p)

    def args(self, p: int, n: int) -> list[int]:
        c, arg = self.c, _API.get_app_arg
        return [arg(c, p, i) for i in range(n)]

    def const_cmp(self, p: int, dk: int, n: int) -> tuple[int, int, int] | None:
        if dk not in FLIP or n != 2:
            return None
        a, b = self.args(p, 2)
        ia = self.int_at.get(a)
        if ia is not None:
            v = self.int_value(b)
            if v is not None:
                return ia, dk, v
        ib = self.int_at.get(b)
        if ib is not None:
            v = self.int_value(a)
            if v is not None:
                return ib, FLIP[dk], v
        return None

    def conjuncts(self, assertions: Sequence[Any]) -> list[int]:
        out: list[int] = []
        stack = [ptr(e.as_ast()) for e in reversed(list(assertions))]
        while stack:
            p = stack.pop()
            dk, n = self.head(p)
            if dk == z3.Z3_OP_AND:
                stack.extend(reversed(self.args(p, n)))
            else:
                out.append(p)
        return out

    def domains(self, assertions: Sequence[Any], ints: dict[int, Any]) -> dict[int, list[int]]:
        """``domains`` of the module, over addresses (the same bounds, the same order)."""
        lo: dict[int, int] = {}
        hi: dict[int, int] = {}
        sets: dict[int, set[int]] = {}
        if ints:
            for p in self.conjuncts(assertions):
                dk, n = self.head(p)
                cmp = self.const_cmp(p, dk, n)
                if cmp is not None:
                    bounds_into(cmp, lo, hi, sets)
                elif dk == z3.Z3_OP_OR:
                    parts = [self.const_cmp(a, *self.head(a)) for a in self.args(p, n)]
                    value_set(parts, sets)
        return finish_domains(ints, lo, hi, sets)

    def wrap(self, out: Any) -> int:
        self.keep.append(out)
        return ptr(out.as_ast())

    def rewrite(self, p: int, onehot: dict[int, dict[int, Any]], memo: dict[int, int]) -> int:
        """``_rewrite`` of the module, over addresses."""
        got = memo.get(p)
        if got is not None:
            return got
        c, ctx = self.c, self.ctx
        kind = _API.get_ast_kind(c, p)
        if kind == _NUM_AST:
            if _API.get_sort_kind(c, _API.get_sort(c, p)) != _INT_SORT:
                raise Outside("a term this path does not encode")
            memo[p] = p
            return p
        if kind != _APP_AST:
            raise Outside("a term this path does not encode")
        dk, n = self.head(p)
        cmp = self.const_cmp(p, dk, n)
        pair: list[int] | None = None
        atom: tuple[dict[int, int], int] | None = None
        pb: Any = None
        if cmp is None and dk in FLIP and n >= 2 and (dk == z3.Z3_OP_DISTINCT or n == 2):
            xs = self.args(p, n)
            if all(a in self.int_at for a in xs):
                pair = [self.int_at[a] for a in xs]
            elif n == 2:
                atom = self.arith.linear_atom(xs[0], xs[1])
                if atom is None and self.arith.is_int(xs[0]):
                    try:  # cardinality sums of Booleans stay as they are (card2bv)
                        pb = self.generic(p, n, onehot, memo)
                    except Outside:  # an integer inside arithmetic: pseudo-Boolean form
                        pb = self.arith.pb_compare(dk, xs[0], xs[1], onehot, memo)
        if cmp is not None:
            ci, op, v = cmp
            lits = [b for val, b in onehot[ci].items() if holds(op, val, v)]
            out = self.wrap(lits[0] if len(lits) == 1 else bool_or(lits, ctx))
        elif pair is not None:
            out = self.wrap(_pair_rewrite(dk, pair, onehot, ctx))
        elif atom is not None:
            out = self.wrap(linear_rewrite(dk, atom, onehot, ctx))
        elif pb is not None:
            out = pb if isinstance(pb, int) else self.wrap(pb)
        elif p in self.int_at:
            raise Outside("an integer constant outside a comparison with a number")
        elif n:
            out = self.generic(p, n, onehot, memo)
        else:
            if _API.get_sort_kind(c, _API.get_sort(c, p)) != _BOOL_SORT:
                raise Outside("a term this path does not encode")
            out = p
        memo[p] = out
        return out

    def generic(
        self, p: int, n: int, onehot: dict[int, dict[int, Any]], memo: dict[int, int]
    ) -> int:
        """``p`` with its arguments rewritten (the node itself is not one this path reads)."""
        kids = self.args(p, n)
        new = [self.rewrite(a, onehot, memo) for a in kids]
        if new == kids:
            return p
        arr = (z3.Ast * n)(*[ast_at(a) for a in new])
        ctx = self.ctx
        return self.wrap(z3.AstRef(z3.z3core.Z3_update_term(ctx.ref(), ast_at(p), n, arr), ctx))

    def encode(self, assertions: Sequence[Any], onehot: dict[int, dict[int, Any]]) -> list[Any]:
        memo: dict[int, int] = {}
        out = [self.rewrite(ptr(e.as_ast()), onehot, memo) for e in assertions]
        return [z3.BoolRef(ast_at(p), self.ctx) for p in out]


def _cnf(assertions: Sequence[Any]) -> tuple[list[list[int]], dict[str, int]] | None:
    """Clauses (DIMACS ints) and the map from Boolean constant names to variables, or None if unsat.

    Read from Z3's own DIMACS text of the goal (one call, not one Python object per literal).
    """
    goal = z3.Goal(ctx=assertions[0].ctx)
    goal.add(*assertions)
    res = z3.Then(*_TACTIC, ctx=goal.ctx)(goal)
    if len(res) != 1:
        raise Outside("the tactics split the goal")
    sub = res[0]
    if sub.inconsistent():
        return None
    # arithmetic the tactics could not turn into Boolean structure (an integer-valued If,
    # a product...) would be printed as an opaque variable: refuse instead
    if not z3.Probe("is-propositional", ctx=goal.ctx)(sub):
        raise Outside("the tactics left arithmetic")
    if len(sub) == 0:
        return [], {}
    clauses: list[list[int]] = []
    var_of: dict[str, int] = {}
    for line in sub.dimacs().splitlines():
        if not line or line.startswith("p "):
            continue
        if line.startswith("c "):
            _, num, name = line.split(" ", 2)
            var_of[name] = int(num)
            continue
        lits = [int(t) for t in line.split()]
        if not lits or lits[-1] != 0:
            raise Outside("the tactics left a formula that is not a clause")
        if len(lits) == 1:  # the empty clause: false
            return None
        clauses.append(lits[:-1])
    return clauses, var_of


def _encode(assertions: Sequence[Any], consts: Sequence[Any], kinds: Sequence[int]) -> Any:
    """(clauses, variable per Boolean name, one-hot Booleans per integer), False when the
    constraints are unsatisfiable on their face, or None when outside this path."""
    if (
        not assertions
        or not consts
        or any(k not in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds)
    ):
        return None
    try:
        ctx = consts[0].ctx
        ints = {c.get_id(): c for c, k in zip(consts, kinds, strict=False) if k == z3.Z3_INT_SORT}
        raw = _RawEncoder(ctx, ints) if RAW is not None else None
        doms = raw.domains(assertions, ints) if raw is not None else domains(assertions, ints)
        onehot: dict[int, dict[int, Any]] = {}
        extra: list[Any] = []
        for c, vals in doms.items():
            name = ints[c].decl().name()
            onehot[c] = {v: z3.Bool(f"{name}={v}#{c}", ctx) for v in vals}
            bits = list(onehot[c].values())
            if not bits:
                return False  # an empty domain: no solution
            extra.append(z3.Or(bits))  # at least one value; at most one: clauses below
        if raw is not None:
            rewritten = raw.encode(assertions, onehot) + extra
        else:
            memo: dict[int, Any] = {}
            rewritten = [_rewrite(a, ints, onehot, memo) for a in assertions] + extra
        got = _cnf(rewritten)
    except (Outside, z3.Z3Exception, RecursionError):
        return None
    if got is None:
        return False
    return got[0], got[1], onehot


def enumerate_sat(
    assertions: Sequence[Any], consts: Sequence[Any], kinds: Sequence[int], limit: int | None
) -> list[list[Any]] | None:
    """Every solution projected on ``consts`` as value rows (unordered), or None when outside.

    More than ``limit`` solutions: the first ``limit + 1`` rows (the caller rejects).
    """
    enc = _encode(assertions, consts, kinds)
    if enc is None:
        return None
    if enc is False:
        return []
    clauses, var_of, onehot = enc
    top = max((abs(x) for cl in clauses for x in cl), default=0)
    top = max(top, max(var_of.values(), default=0))

    def var(c: Any) -> int:
        nonlocal top
        name = c.decl().name()
        if name not in var_of:  # a projected constant the CNF does not constrain
            top += 1
            var_of[name] = top
        return var_of[name]

    # the projection: a Boolean constant, or an integer's one-hot literals
    proj: list[tuple[int, Any]] = []  # (kind, var or [(value, var)])
    for c, k in zip(consts, kinds, strict=False):
        if k == z3.Z3_BOOL_SORT:
            proj.append((0, var(c)))
        else:
            proj.append((1, [(v, var(b)) for v, b in onehot[c.get_id()].items()]))
    return solve_projected(clauses, proj, limit)


def load_clauses(sat: Any, clauses: list[list[int]]) -> None:
    """Add ``clauses`` to a PySAT MiniSat 2.2 solver, one C call each.

    Why: ``Minisat22(bootstrap_with=...)`` and ``append_formula`` add each clause through
    the Python method ``add_clause`` (a wrapper over the same C call); on the term SAT
    path's 700-4,300 clauses a model that wrapper was ~25 % of loading them. The same
    clauses in the same order, so the same solver state. A PySAT without the C entry
    takes its public method.
    """
    try:  # PySAT's C extension, the module its solver classes call
        add = importlib.import_module("pysolvers").minisat22_add_cl
    except (ImportError, AttributeError):  # pragma: no cover - another PySAT layout
        add = None
    handle = getattr(sat, "minisat", None)
    if handle is None or add is None:  # pragma: no cover - another PySAT layout
        for clause in clauses:
            sat.add_clause(clause)
        return
    for clause in clauses:  # a clause found conflicting leaves MiniSat unsatisfiable
        add(handle, clause)


def solve_projected(
    clauses: list[list[int]],
    proj: list[tuple[int, Any]],
    limit: int | None,
    amo: bool = True,
    budget: int = CONFLICT_BUDGET,
) -> list[list[Any]] | None:
    """Every model of ``clauses`` projected on ``proj`` as value rows (unordered).

    ``proj``: per projected constant ``(0, variable)`` for a Boolean, or ``(1, [(value,
    variable), ...])`` for an integer's one-hot variables (with ``amo``, "at most one of
    them true" is added here). More than ``limit`` rows: the first ``limit + 1``. None when the
    conflict budget ran out (the caller's Z3 path decides). Shared with spec/termsat.py.
    """
    # MiniSat 2.2 rather than Glucose 4.1: enumeration is hundreds of incremental calls on a
    # small instance, each ended by one blocking clause, where Glucose's restart and
    # clause-database policies cost more than they save (the same models; on captured
    # enumerations 7-age 235 -> 135 ms, 17-classmate 38 -> 23 ms, never slower elsewhere)
    try:
        from pysat.solvers import Minisat22
    except ImportError:  # pragma: no cover - python-sat is a dependency
        return None
    if amo:
        clauses = list(clauses)
        for kind, p in proj:
            if kind == 1:
                lits = [v for _, v in p]
                clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
    rows: list[list[Any]] = []
    with Minisat22() as sat:
        load_clauses(sat, clauses)
        while True:
            sat.conf_budget(budget)
            ok = sat.solve_limited()
            if ok is None:
                return None  # undecided within the budget: Z3 decides instead
            if not ok:
                return rows
            # model[v - 1] is v or -v (read by index, not as a set); a variable in no
            # clause yet is past its end, and false
            model = sat.get_model()
            n = len(model)
            row: list[Any] = []
            block: list[int] = []
            for kind, p in proj:
                if kind == 0:
                    t = p <= n and model[p - 1] > 0
                    row.append(t)
                    block.append(-p if t else p)
                else:
                    on = [(val, v) for val, v in p if v <= n and model[v - 1] > 0]
                    if len(on) != 1:  # the exactly-one clauses make this impossible
                        return None
                    row.append(on[0][0])
                    block.append(-on[0][1])
            rows.append(row)
            if limit is not None and len(rows) > limit:
                return rows
            if not block:
                return rows
            sat.add_clause(block)


def sat_solutions(
    assertions: Sequence[Any], consts: Sequence[Any], kinds: Sequence[int], limit: int | None
) -> list[Any] | None:
    """The solutions as ``SolModel`` in the canonical order (as the Z3 enumeration sorts them).

    None when the constraints are outside this path; more than ``limit`` solutions raise
    the "too many solutions" rejection, as the Z3 enumeration does.
    """
    from .operators import SolModel
    from .outcome import Rejection

    rows = enumerate_sat(assertions, consts, kinds, limit)
    if rows is None:
        return None
    if limit is not None and len(rows) > limit:
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    ids = [c.get_id() for c in consts]
    all_consts = dict(zip(ids, consts, strict=False))
    # every value is a bool or an int, whose solution_order_key is (1, value): the rows
    # themselves sort in the same order, without a key tuple per value (2,880 rows of 35
    # values on 1-hamburger: ~6 MB of keys at the attempt's peak)
    rows.sort()
    return [SolModel(dict(zip(ids, row, strict=False)), all_consts) for row in rows]
