"""An unknown fixed by an equation, eliminated before the exhaustive evaluation.

Why: the exhaustive finite evaluator (spec/finitespace.py) and the SAT encoding
(spec/termsat.py) enumerate every unknown's values. An integer with a large domain, or with
no finite domain at all, puts a term model beyond both, although a top-level equation often
fixes it from the others: 49-toy's price (hundreds of values, ``price > m_i``,
``price <= sum(m)``) is ``Sum(If(buy[i] == 0, m_i, 0)) == g * price``, so every assignment
of the small ``buy`` unknowns (3^5-3^10) determines it. Such models went to Z3: the
term model evaluated again as Z3 terms, a bit-blasting pre-check (~12-15 ms, ~90 % of
them unsat) and the Z3 enumeration.

Shape: a term model (spec/terms.py nodes) with a top-level conjunct ``E == c * x``, ``E ==
x * c`` or ``E == x`` (either side), ``c`` a nonzero number, ``x`` an Int constant that
``E`` does not contain and ``E`` not a number (``x == 5`` is a domain bound, read as one).

Exact: ``x`` is replaced by ``E div c`` in every conjunct. The defining conjunct becomes
``c * (E div c) == E``, true exactly when ``c`` divides ``E`` (whatever the rounding of
``div``), and then ``E / c`` is the only value of ``x`` that satisfies it. So the solutions
of the rewritten model over the other constants, each with ``x = E / c``, are exactly the
solutions of the original one; ``x``'s own bounds are conjuncts like any other, evaluated
on ``E div c``. The evaluator computes ``E div c`` per solution as its objective. Nothing
else changes: outside the shape, or a rewritten model still too large for the evaluator,
returns None and the caller goes on to Z3 as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from .finitedomains import _conjuncts

__all__ = ["eliminated_rows", "MAX_TRIES"]

#: Definitions tried per model (each try is a rewrite and the evaluator's size test).
MAX_TRIES = 3


def _scaled_const(nodes: list[tuple], i: int, ints: set[int]) -> tuple[int, int] | None:
    """(x, c) when node ``i`` is ``x``, ``c * x`` or ``x * c`` for an Int constant x."""
    op, args = nodes[i]
    if op == "const":
        return (args, 1) if args in ints else None
    if op != "mul" or len(args) != 2:
        return None
    (pa, aa), (pb, ab) = nodes[args[0]], nodes[args[1]]
    if pa == "num" and pb == "const" and ab in ints and aa != 0:
        return ab, aa
    if pb == "num" and pa == "const" and aa in ints and ab != 0:
        return aa, ab
    return None


def _reaches(nodes: list[tuple], i: int, x: int) -> bool:
    """Whether the term at node ``i`` contains the constant ``x``."""
    seen: set[int] = set()
    stack = [i]
    while stack:
        k = stack.pop()
        if k in seen:
            continue
        seen.add(k)
        op, args = nodes[k]
        if op == "const":
            if args == x:
                return True
        elif op != "num" and op != "lit":
            stack.extend(args)
    return False


def _definitions(nodes: list[tuple], roots: Sequence[int], ints: set[int]) -> list[tuple]:
    """(x, E, c) for every defining conjunct ``E == c * x``, in conjunct order."""
    out = []
    for i in _conjuncts(nodes, roots):
        op, args = nodes[i]
        if op != "eq" or len(args) != 2:
            continue
        for side, other in ((args[1], args[0]), (args[0], args[1])):
            got = _scaled_const(nodes, side, ints)
            if got is None or nodes[other][0] == "num" or _reaches(nodes, other, got[0]):
                continue
            out.append((got[0], other, got[1]))  # both sides may qualify: both are tried
            if len(out) >= MAX_TRIES:
                return out
    return out


def _substitute(b: Any, roots: Sequence[int], x: int, repl: int) -> list[int]:
    """``roots`` with the constant ``x`` replaced by node ``repl`` (new nodes in ``b``)."""
    nodes = b.nodes
    memo: dict[int, int] = {}

    def walk(i: int) -> int:
        got = memo.get(i)
        if got is not None:
            return got
        op, args = nodes[i]
        if op == "const":
            r = repl if args == x else i
        elif op == "num" or op == "lit":
            r = i
        else:
            new = tuple([walk(a) for a in args])
            r = i if new == args else b.mk(op, new)
        memo[i] = r
        return r

    try:
        return [walk(r) for r in roots]
    finally:
        walk = None  # type: ignore[assignment]  # the recursive closure is a cycle: free it now


def eliminated_rows(
    b: Any, roots: Sequence[int], consts: Sequence[int], kinds: Sequence[int], limit: int | None
) -> list[list[Any]] | None:
    """Every solution as value rows over ``consts`` (const ids; ``kinds`` their Z3 sort
    kinds), found by the exhaustive evaluator after eliminating one defined unknown.

    ``b``: the model's spec/terms.py ``Builder`` (the rewrite adds nodes to it). More than
    ``limit`` solutions: more than ``limit`` rows (the caller rejects). None outside the
    shape or when the rewritten model is still beyond the evaluator.
    """
    from .finite import compile_terms

    ints = {c for c, k in zip(consts, kinds, strict=True) if k == z3.Z3_INT_SORT}
    if not ints:
        return None
    try:
        defs = _definitions(b.nodes, roots, ints)
        for x, e, c in defs:
            num = b.mk("num", c)
            repl = b.mk("div", (e, num))
            new_roots = _substitute(b, roots, x, repl)
            rest = [k for k in consts if k != x]
            index = {k: n for n, k in enumerate(rest)}
            rkinds = [kk for k, kk in zip(consts, kinds, strict=True) if k != x]
            res = compile_terms(b.nodes, new_roots, repl, index, rkinds, limit=limit)
            if res is None:
                continue
            prob, objv = res
            if len(prob.used) != len(rest):
                continue  # a constant left out of the rewritten model: rows would lack it
            cols = prob.row_values(prob.rows)
            pos = list(consts).index(x)
            out = []
            for j, xv in enumerate(objv.tolist()):
                row = [col[j] for col in cols]
                row.insert(pos, xv)
                out.append(row)
            return out
    except RecursionError:
        return None
    return None
