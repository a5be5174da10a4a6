"""Model enumeration by a SAT solver: finite-domain constraints with many solutions.

Why: a spec whose symbols are Booleans, or integers that the constraints only compare with
constants (``x == 3``, ``x < n``, ``Sum([x == i for x in xs]) > 0``), is a propositional
problem. Enumerating its solutions through Z3 costs one incremental SMT check per model
(0.4-20 ms, plus the Python side of reading the model and adding the blocking clause):
thousands of models, or the ``max_solution + 1`` models that prove "too many solutions",
take seconds. Here the constraints become CNF once (integers one-hot: ``x == v`` becomes a
Boolean ``x=v`` with exactly one true per integer; Z3's own ``card2bv``/``bit-blast``/
``tseitin-cnf`` tactics for the cardinality sums and the clause form), and a SAT solver
(PySAT's MiniSat-based Glucose) enumerates the projected models with blocking clauses, each
in microseconds.

Exactness: nothing is approximated. The rewriting replaces each integer comparison by the
disjunction of the domain values that satisfy it, over a domain read from top-level bounds
of the constraints themselves, so every projected model of the CNF is a model of the
constraints and back; Tseitin's auxiliary variables are never projected. The SAT solver
decides each step completely (a conflict budget that runs out, or anything outside this
fragment, returns None and the caller uses Z3 as before). The set of solutions is the
same as Z3's enumeration gives; the caller sorts it into the same canonical order.
"""
from __future__ import annotations

from typing import Any, Sequence

import z3

__all__ = ["enumerate_sat", "sat_solutions"]

#: Largest integer domain encoded one-hot (beyond it the encoding grows past its use).
MAX_DOMAIN = 64
#: SAT conflicts allowed per solver call before the caller falls back to Z3 (a count, so
#: the outcome does not depend on machine load).
CONFLICT_BUDGET = 200_000
_TACTIC = ("simplify", "card2bv", "bit-blast", "tseitin-cnf")
_CMP = {z3.Z3_OP_EQ, z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT}
_FLIP = {z3.Z3_OP_EQ: z3.Z3_OP_EQ, z3.Z3_OP_LE: z3.Z3_OP_GE, z3.Z3_OP_LT: z3.Z3_OP_GT,
         z3.Z3_OP_GE: z3.Z3_OP_LE, z3.Z3_OP_GT: z3.Z3_OP_LT}


class _Outside(Exception):
    """The constraints are outside the fragment this path encodes exactly."""


def _holds(op: int, a: int, b: int) -> bool:
    return {z3.Z3_OP_EQ: a == b, z3.Z3_OP_LE: a <= b, z3.Z3_OP_LT: a < b,
            z3.Z3_OP_GE: a >= b, z3.Z3_OP_GT: a > b}[op]


def _const_cmp(e: Any, ints: dict[int, Any]) -> tuple[int, int, int] | None:
    """``(const id, op, value)`` of ``x op n`` / ``n op x`` over an integer constant."""
    if not z3.is_app(e) or e.decl().kind() not in _CMP or e.num_args() != 2:
        return None
    a, b = e.arg(0), e.arg(1)
    if a.get_id() in ints and z3.is_int_value(b):
        return a.get_id(), e.decl().kind(), b.as_long()
    if b.get_id() in ints and z3.is_int_value(a):
        return b.get_id(), _FLIP[e.decl().kind()], a.as_long()
    return None


def _conjuncts(assertions: Sequence[Any]) -> list[Any]:
    out, stack = [], list(reversed(list(assertions)))
    while stack:
        e = stack.pop()
        if z3.is_and(e):
            stack.extend(reversed(e.children()))
        else:
            out.append(e)
    return out


def _domains(assertions: Sequence[Any], ints: dict[int, Any]) -> dict[int, list[int]]:
    """Each integer constant's values from top-level bounds and value sets (else _Outside)."""
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    sets: dict[int, set[int]] = {}
    for e in _conjuncts(assertions):
        cmp = _const_cmp(e, ints)
        if cmp is not None:
            c, op, v = cmp
            if op == z3.Z3_OP_EQ:
                sets[c] = sets.get(c, {v}) & {v}
            elif op in (z3.Z3_OP_LE, z3.Z3_OP_LT):
                hi[c] = min(hi.get(c, v), v if op == z3.Z3_OP_LE else v - 1)
            else:
                lo[c] = max(lo.get(c, v), v if op == z3.Z3_OP_GE else v + 1)
        elif z3.is_or(e):
            parts = [_const_cmp(a, ints) for a in e.children()]
            if parts and all(p is not None and p[1] == z3.Z3_OP_EQ for p in parts) \
                    and len({p[0] for p in parts if p}) == 1:
                c = parts[0][0]  # type: ignore[index]
                vs = {p[2] for p in parts if p}
                sets[c] = sets[c] & vs if c in sets else vs
    out: dict[int, list[int]] = {}
    for c in ints:
        if c in sets:
            vals = sorted(v for v in sets[c] if lo.get(c, v) <= v <= hi.get(c, v))
        elif c in lo and c in hi:
            if hi[c] - lo[c] >= MAX_DOMAIN:
                raise _Outside("integer domain too large")
            vals = list(range(lo[c], hi[c] + 1))
        else:
            raise _Outside("integer constant without finite bounds")
        if len(vals) > MAX_DOMAIN:
            raise _Outside("integer domain too large")
        out[c] = vals
    return out


def _rewrite(e: Any, ints: dict[int, Any], onehot: dict[int, dict[int, Any]],
             memo: dict[int, Any]) -> Any:
    """``e`` with each integer comparison replaced by its one-hot disjunction."""
    key = e.get_id()
    got = memo.get(key)
    if got is not None:
        return got
    cmp = _const_cmp(e, ints)
    if cmp is not None:
        c, op, v = cmp
        lits = [b for val, b in onehot[c].items() if _holds(op, val, v)]
        out = z3.BoolVal(False, e.ctx) if not lits else lits[0] if len(lits) == 1 else z3.Or(lits)
    elif key in ints:
        raise _Outside("an integer constant outside a comparison with a number")
    elif z3.is_app(e) and e.num_args():
        kids = [_rewrite(a, ints, onehot, memo) for a in e.children()]
        out = e.decl()(*kids) if any(k is not a for k, a in zip(kids, e.children())) else e
    else:
        if z3.is_quantifier(e) or (z3.is_const(e) and not z3.is_bool(e) and not z3.is_int_value(e)):
            raise _Outside("a term this path does not encode")
        out = e
    memo[key] = out
    return out


def _lit(e: Any, var_of: dict[int, int]) -> int:
    neg = z3.is_not(e)
    if neg:
        e = e.arg(0)
    if not (z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED and z3.is_bool(e)):
        raise _Outside("the tactics left a formula that is not a clause")
    v = var_of.setdefault(e.get_id(), len(var_of) + 1)
    return -v if neg else v


def _cnf(assertions: Sequence[Any]) -> tuple[list[list[int]], dict[int, int]] | None:
    """Clauses (DIMACS ints) and the map from Boolean constant ids to variables, or None if unsat."""
    goal = z3.Goal(ctx=assertions[0].ctx)
    goal.add(*assertions)
    res = z3.Then(*_TACTIC, ctx=goal.ctx)(goal)
    if len(res) != 1:
        raise _Outside("the tactics split the goal")
    var_of: dict[int, int] = {}
    clauses: list[list[int]] = []
    for f in res[0]:
        if z3.is_false(f):
            return None
        if z3.is_true(f):
            continue
        clauses.append([_lit(a, var_of) for a in f.children()] if z3.is_or(f) else [_lit(f, var_of)])
    if res[0].inconsistent():
        return None
    return clauses, var_of


def enumerate_sat(assertions: Sequence[Any], consts: Sequence[Any], kinds: Sequence[int],
                  limit: int | None) -> list[list[Any]] | None:
    """Every solution projected on ``consts`` as value rows (unordered), or None when outside.

    More than ``limit`` solutions: the first ``limit + 1`` rows (the caller rejects).
    """
    if not assertions or not consts or any(k not in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds):
        return None
    try:
        from pysat.solvers import Glucose4
    except ImportError:  # pragma: no cover - python-sat is a dependency
        return None
    try:
        ctx = consts[0].ctx
        ints = {c.get_id(): c for c, k in zip(consts, kinds) if k == z3.Z3_INT_SORT}
        doms = _domains(assertions, ints)
        onehot: dict[int, dict[int, Any]] = {}
        extra: list[Any] = []
        for c, vals in doms.items():
            name = ints[c].decl().name()
            onehot[c] = {v: z3.Bool(f"{name}={v}#{c}", ctx) for v in vals}
            bits = list(onehot[c].values())
            if not bits:
                return []  # an empty domain: no solution
            extra.append(z3.Or(bits))
            extra += [z3.Or(z3.Not(a), z3.Not(b)) for i, a in enumerate(bits) for b in bits[i + 1:]]
        memo: dict[int, Any] = {}
        rewritten = [_rewrite(a, ints, onehot, memo) for a in assertions] + extra
        got = _cnf(rewritten)
    except (_Outside, z3.Z3Exception, RecursionError):
        return None
    if got is None:
        return []
    clauses, var_of = got
    # the projection: a Boolean constant, or an integer's one-hot literals
    proj: list[tuple[int, Any]] = []  # (kind, var or [(value, var)])
    for c, k in zip(consts, kinds):
        if k == z3.Z3_BOOL_SORT:
            proj.append((0, var_of.setdefault(c.get_id(), len(var_of) + 1)))
        else:
            proj.append((1, [(v, var_of.setdefault(b.get_id(), len(var_of) + 1))
                             for v, b in onehot[c.get_id()].items()]))
    rows: list[list[Any]] = []
    with Glucose4(bootstrap_with=clauses) as sat:
        n = len(var_of)
        sat.add_clause([n, -n]) if n else None  # every projected variable is known to the solver
        while True:
            sat.conf_budget(CONFLICT_BUDGET)
            ok = sat.solve_limited()
            if ok is None:
                return None  # undecided within the budget: Z3 decides instead
            if not ok:
                return rows
            model = sat.get_model()
            value = (lambda v: v <= len(model) and model[v - 1] > 0)
            row: list[Any] = []
            block: list[int] = []
            for kind, p in proj:
                if kind == 0:
                    t = value(p)
                    row.append(t)
                    block.append(-p if t else p)
                else:
                    on = [(val, v) for val, v in p if value(v)]
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


def sat_solutions(assertions: Sequence[Any], consts: Sequence[Any], kinds: Sequence[int],
                  limit: int | None) -> list[Any] | None:
    """The solutions as ``SolModel`` in the canonical order (as the Z3 enumeration sorts them).

    None when the constraints are outside this path; more than ``limit`` solutions raise
    the "too many solutions" rejection, as the Z3 enumeration does.
    """
    from .operators import SolModel, solution_order_key
    from .outcome import Rejection

    rows = enumerate_sat(assertions, consts, kinds, limit)
    if rows is None:
        return None
    if limit is not None and len(rows) > limit:
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    ids = [c.get_id() for c in consts]
    all_consts = dict(zip(ids, consts))
    rows.sort(key=lambda row: [solution_order_key(v) for v in row])
    return [SolModel(dict(zip(ids, row)), all_consts) for row in rows]
