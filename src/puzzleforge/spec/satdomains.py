"""Integer domains of a finite constraint set, read from its own top-level bounds.

Why a module of its own: the SAT enumeration (spec/satenum.py) needs, before any encoding,
the exact finite set of values each integer constant can take, read only from comparisons
with numbers that hold at top level (``x >= 2``, ``x != 5``, ``Or(x == 1, x == 3)``). That
analysis is a question of its own and is shared by the z3py walk and the raw-pointer walk.
Nothing is approximated: a constant without a finite domain of at most ``MAX_DOMAIN`` values
makes the whole set fall outside this path (``None``), and the caller uses Z3 instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

__all__ = [
    "MAX_DOMAIN",
    "CMP_OPS",
    "NE_OP",
    "FLIP",
    "Outside",
    "holds",
    "const_cmp",
    "pair_cmp",
    "conjuncts",
    "bounds_into",
    "value_set",
    "finish_domains",
    "domains",
]

#: Largest integer domain encoded one-hot (beyond it the encoding grows past its use).
MAX_DOMAIN = 64
CMP_OPS = {z3.Z3_OP_EQ, z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT}
NE_OP = z3.Z3_OP_DISTINCT  # x != n (Z3 writes it as a two-argument distinct)
FLIP = {
    NE_OP: NE_OP,
    z3.Z3_OP_EQ: z3.Z3_OP_EQ,
    z3.Z3_OP_LE: z3.Z3_OP_GE,
    z3.Z3_OP_LT: z3.Z3_OP_GT,
    z3.Z3_OP_GE: z3.Z3_OP_LE,
    z3.Z3_OP_GT: z3.Z3_OP_LT,
}


class Outside(Exception):
    """The constraints are outside the fragment this path encodes exactly."""


def holds(op: int, a: int, b: int) -> bool:
    return {
        NE_OP: a != b,
        z3.Z3_OP_EQ: a == b,
        z3.Z3_OP_LE: a <= b,
        z3.Z3_OP_LT: a < b,
        z3.Z3_OP_GE: a >= b,
        z3.Z3_OP_GT: a > b,
    }[op]


def const_cmp(e: Any, ints: dict[int, Any]) -> tuple[int, int, int] | None:
    """``(const id, op, value)`` of ``x op n`` / ``n op x`` over an integer constant."""
    if not z3.is_app(e) or e.decl().kind() not in FLIP or e.num_args() != 2:
        return None
    a, b = e.arg(0), e.arg(1)
    if a.get_id() in ints and z3.is_int_value(b):
        return a.get_id(), e.decl().kind(), b.as_long()
    if b.get_id() in ints and z3.is_int_value(a):
        return b.get_id(), FLIP[e.decl().kind()], a.as_long()
    return None


def pair_cmp(e: Any, ints: dict[int, Any]) -> tuple[int, list[int]] | None:
    """``(op, const ids)`` of ``x op y`` or ``Distinct(x, y, ...)`` over integer constants."""
    if not z3.is_app(e):
        return None
    op = e.decl().kind()
    if op not in CMP_OPS and op != z3.Z3_OP_DISTINCT:
        return None
    ids = [a.get_id() for a in e.children()]
    if (
        len(ids) < 2
        or any(i not in ints for i in ids)
        or (op != z3.Z3_OP_DISTINCT and len(ids) != 2)
    ):
        return None
    return op, ids


def conjuncts(assertions: Sequence[Any]) -> list[Any]:
    out, stack = [], list(reversed(list(assertions)))
    while stack:
        e = stack.pop()
        if z3.is_and(e):
            stack.extend(reversed(e.children()))
        else:
            out.append(e)
    return out


def bounds_into(
    cmp: tuple[int, int, int], lo: dict[int, int], hi: dict[int, int], sets: dict[int, set[int]]
) -> None:
    """Narrow a constant's bounds or value set by a top-level ``x op n``."""
    c, op, v = cmp
    if op == NE_OP:
        return  # not a bound (the rewriting keeps it as a constraint)
    if op == z3.Z3_OP_EQ:
        sets[c] = sets.get(c, {v}) & {v}
    elif op in (z3.Z3_OP_LE, z3.Z3_OP_LT):
        hi[c] = min(hi.get(c, v), v if op == z3.Z3_OP_LE else v - 1)
    else:
        lo[c] = max(lo.get(c, v), v if op == z3.Z3_OP_GE else v + 1)


def value_set(parts: list, sets: dict[int, set[int]]) -> None:
    """Narrow a constant's value set by a top-level ``Or(x == a, x == b, ...)``."""
    if (
        parts
        and all(p is not None and p[1] == z3.Z3_OP_EQ for p in parts)
        and len({p[0] for p in parts if p}) == 1
    ):
        c = parts[0][0]
        vs = {p[2] for p in parts if p}
        sets[c] = sets[c] & vs if c in sets else vs


def finish_domains(
    ints: dict[int, Any], lo: dict[int, int], hi: dict[int, int], sets: dict[int, set[int]]
) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for c in ints:
        if c in sets:
            vals = sorted(v for v in sets[c] if lo.get(c, v) <= v <= hi.get(c, v))
        elif c in lo and c in hi:
            if hi[c] - lo[c] >= MAX_DOMAIN:
                raise Outside("integer domain too large")
            vals = list(range(lo[c], hi[c] + 1))
        else:
            raise Outside("integer constant without finite bounds")
        if len(vals) > MAX_DOMAIN:
            raise Outside("integer domain too large")
        out[c] = vals
    return out


def domains(assertions: Sequence[Any], ints: dict[int, Any]) -> dict[int, list[int]]:
    """Each integer constant's values from top-level bounds and value sets (else Outside)."""
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    sets: dict[int, set[int]] = {}
    for e in conjuncts(assertions):
        cmp = const_cmp(e, ints)
        if cmp is not None:
            bounds_into(cmp, lo, hi, sets)
        elif z3.is_or(e):
            value_set([const_cmp(a, ints) for a in e.children()], sets)
    return finish_domains(ints, lo, hi, sets)
