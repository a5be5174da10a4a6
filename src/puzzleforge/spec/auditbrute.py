"""The audit by brute force: every assignment of a small finite domain, no solver search.

Why a module of its own (split from spec/audit.py): where every constant of the captured
problem is a Boolean or an integer with explicit numeric bounds and the product of the
domains is small (``audit_problem(method="auto")``), trying every assignment with Z3's
simplifier is a proof that shares no reasoning with the solver at all: not the engine's,
and not the fresh solver's of spec/audit.py. Finding the domains (bounds read from
top-level atoms) and counting, comparing and showing the solutions is its own job.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import z3

from .auditcapture import Problem, _literal, _z3_value
from .auditfresh import AuditOutcome, Fresh, undecided

__all__ = ["brute"]


def _int_bounds(assertions: list, consts: list) -> dict[int, list]:
    """Numeric bounds of integer constants from top-level atoms ``c <= k``, ``k < c`` ..."""
    ids = {c.get_id(): c for c in consts}
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    stack = list(assertions)
    while stack:
        e = stack.pop()
        if z3.is_and(e):
            stack.extend(e.children())
            continue
        if not z3.is_app(e) or e.num_args() != 2:
            continue
        k = e.decl().kind()
        a, b = e.arg(0), e.arg(1)
        flip = {
            z3.Z3_OP_LE: z3.Z3_OP_GE,
            z3.Z3_OP_GE: z3.Z3_OP_LE,
            z3.Z3_OP_LT: z3.Z3_OP_GT,
            z3.Z3_OP_GT: z3.Z3_OP_LT,
            z3.Z3_OP_EQ: z3.Z3_OP_EQ,
        }
        if k not in flip:
            continue
        if z3.is_int_value(a) and b.get_id() in ids:
            a, b, k = b, a, flip[k]
        if a.get_id() not in ids or not z3.is_int_value(b):
            continue
        i, v = a.get_id(), b.as_long()
        if k in (z3.Z3_OP_LE, z3.Z3_OP_EQ):
            hi[i] = min(hi.get(i, v), v)
        if k == z3.Z3_OP_LT:
            hi[i] = min(hi.get(i, v - 1), v - 1)
        if k in (z3.Z3_OP_GE, z3.Z3_OP_EQ):
            lo[i] = max(lo.get(i, v), v)
        if k == z3.Z3_OP_GT:
            lo[i] = max(lo.get(i, v + 1), v + 1)
    return {i: list(range(lo[i], hi[i] + 1)) for i in ids if i in lo and i in hi}


def _brute_domains(f: Fresh, limit: int) -> list[list] | None:
    """Every constant's candidate values (Z3 numerals), or None if not small and finite."""
    consts = [c for c in f.consts if c is not None]
    if len(consts) < len(f.consts) or {c.get_id() for c in f.all} - {c.get_id() for c in consts}:
        return None  # the constraints hold constants outside the answer's projection
    bounds = _int_bounds(f.assertions, consts)
    domains, size = [], 1
    for c in consts:
        if z3.is_bool(c):
            dom = [z3.BoolVal(False, f.ctx), z3.BoolVal(True, f.ctx)]
        elif z3.is_int(c) and c.get_id() in bounds:
            dom = [z3.IntVal(v, f.ctx) for v in bounds[c.get_id()]]
        else:
            return None
        size *= max(1, len(dom))
        if size > limit:
            return None
        domains.append(dom)
    return domains


def brute(problem: Problem, f: Fresh, limit: int) -> AuditOutcome | None:
    """All assignments evaluated by Z3's simplifier; None when the domain is not small."""
    domains = _brute_domains(f, limit)
    if domains is None:
        return None
    conj = z3.And(f.assertions + [z3.BoolVal(True, f.ctx)])
    objective = None
    if problem.kind == "optimize":
        # the definition ``objective == target`` (Z3 may print it either way round)
        eq = [
            a
            for a in f.assertions
            if z3.is_eq(a) and any(z3.eq(x, f.objective) for x in a.children())
        ]
        if len(eq) != 1:
            return None
        left, right = eq[0].children()
        objective = right if z3.eq(left, f.objective) else left
        conj = z3.And([a for a in f.assertions if not z3.eq(a, eq[0])] + [z3.BoolVal(True, f.ctx)])
    found: list[tuple[tuple[tuple[str, str], ...], Fraction | None]] = []
    for combo in itertools.product(*domains):
        if f.out_of_time():
            out = undecided("brute force", None, f)
            out.method = "brute"
            return out
        pairs = list(zip(f.consts, combo, strict=False))
        if not z3.is_true(z3.simplify(z3.substitute(conj, *pairs) if pairs else conj)):
            continue
        key = tuple(_literal(s, v) for s, v in zip(problem.sorts, combo, strict=False))
        if objective is None:
            found.append((key, None))
        else:
            val = z3.simplify(z3.substitute(objective, *pairs) if pairs else objective)
            found.append((key, _as_fraction(val)))
    names = problem.names
    if problem.kind == "enumerate":
        stored = {tuple(s) for s in problem.solutions}
        got = {k for k, _ in found}
        extra = sorted(got - stored)
        if extra:
            return AuditOutcome(
                "ambiguous",
                f"{len(got)} solutions by brute force, {len(stored)} stored; "
                f"another: {_show_key(names, extra[0])}",
                "brute",
            )
        if stored - got:
            return AuditOutcome(
                "wrong", "a stored solution is not a solution (brute force)", "brute"
            )
        return AuditOutcome(
            "pass",
            f"exactly {len(got)} solution(s) by brute force over {_count(domains)} assignments",
            "brute",
        )
    if not found:
        return AuditOutcome(
            "wrong", "no assignment satisfies the constraints (brute force)", "brute"
        )
    if problem.value is None:
        return AuditOutcome("error", "the captured problem has no optimum to compare", "brute")
    vals = [v for _, v in found if v is not None]
    best = max(vals) if problem.direction == "maximize" else min(vals)
    stored_best = _as_fraction(_z3_value(problem.value, f.ctx))
    if best != stored_best:
        return AuditOutcome(
            "wrong", f"the optimum is {best} by brute force, stored {stored_best}", "brute"
        )
    argmax = [k for k, v in found if v == best]
    if problem.argmax and len(argmax) > 1:
        other = next(
            (k for k in argmax if [tuple(x) for x in problem.solutions[:1]] != [k]), argmax[0]
        )
        return AuditOutcome(
            "ambiguous",
            f"{len(argmax)} configurations reach the optimum {best}; "
            f"another: {_show_key(names, other)}",
            "brute",
        )
    if problem.argmax and problem.solutions and tuple(problem.solutions[0]) != argmax[0]:
        return AuditOutcome(
            "wrong", "the stored configuration is not the optimal one (brute force)", "brute"
        )
    return AuditOutcome(
        "pass",
        f"optimum {best} by brute force over {_count(domains)} assignments"
        + (" (unique configuration)" if problem.argmax else ""),
        "brute",
    )


def _as_fraction(v: Any) -> Fraction:
    if z3.is_int_value(v):
        return Fraction(v.as_long())
    if z3.is_rational_value(v):
        return v.as_fraction()
    raise ValueError(f"not a number: {v}")


def _count(domains: list) -> int:
    n = 1
    for d in domains:
        n *= len(d)
    return n


def _show_key(names: list[str], key: tuple) -> str:
    return ", ".join(f"{n}={v[1]}" for n, v in zip(names, key, strict=False))
