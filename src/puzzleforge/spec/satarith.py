"""Integer arithmetic inside the SAT encoding's comparisons (spec/satenum.py).

Why a module of its own: reading ``x - y == 1`` or ``Sum(If(b, x, 0)) >= 4`` as clauses
over one-hot integer values is a question of its own (which arithmetic is linear, how an
``If`` distributes its guard), separate from walking the Boolean structure. The encoder
(``satenum._RawEncoder``) asks this reader about a comparison it cannot read as a bound or
a comparison of two constants.

Exactness: each integer constant takes exactly one of its domain values (the encoder's
one-hot clauses), so ``x = sum(v * [x = v])`` holds in every model; a linear atom over two
integers is encoded by the value pairs that satisfy it, and any other comparison of
integer terms is the same comparison of its pseudo-Boolean form. Nothing is approximated;
what is not read here (a product of unknowns, a division, ...) raises ``Outside`` and the
caller leaves the problem to Z3.
"""

from __future__ import annotations

import weakref
from typing import Any

import z3

from .satdomains import NE_OP, Outside, holds
from .z3raw import RAW, ast_at

__all__ = ["ArithReader", "bool_and", "bool_not", "bool_or", "linear_rewrite"]

_API: Any = RAW
_INT_SORT = z3.Z3_INT_SORT
_LIN_OPS = {z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS, z3.Z3_OP_MUL}


def _nary(fn: Any, args: list, ctx: Any) -> Any:
    """``And``/``Or`` of Boolean terms through the C API (z3py's coercion costs ~20x more)."""
    arr = (z3.Ast * len(args))(*[a.as_ast() for a in args])
    return z3.BoolRef(fn(ctx.ref(), len(args), arr), ctx)


def bool_or(args: list, ctx: Any) -> Any:
    return _nary(z3.z3core.Z3_mk_or, args, ctx) if args else z3.BoolVal(False, ctx)


def bool_and(args: list, ctx: Any) -> Any:
    return _nary(z3.z3core.Z3_mk_and, args, ctx) if args else z3.BoolVal(True, ctx)


def bool_not(a: Any, ctx: Any) -> Any:
    return z3.BoolRef(z3.z3core.Z3_mk_not(ctx.ref(), a.as_ast()), ctx)


def linear_rewrite(
    op: int, atom: tuple[dict[int, int], int], onehot: dict[int, dict[int, Any]], ctx: Any
) -> Any:
    """The one-hot form of ``sum(coef * x) + k op 0`` over at most two integer constants.

    One constant: the disjunction of its values that satisfy the atom. Two: for each value
    ``v`` of the first, ``x = v`` implies one of the values of the second that satisfy it
    (a difference ``x - y == 1``, a sum ``x + y <= 4``): exact over the domains.
    """
    coefs, k = atom
    if not coefs:
        return z3.BoolVal(holds(op, k, 0), ctx)
    items = list(coefs.items())
    if len(items) == 1:
        ((c, a),) = items
        lits = [b for val, b in onehot[c].items() if holds(op, a * val + k, 0)]
        return lits[0] if len(lits) == 1 else bool_or(lits, ctx)
    (x, ax), (y, ay) = items
    return bool_and(
        [
            bool_or(
                [bool_not(bit, ctx)]
                + [onehot[y][w] for w in onehot[y] if holds(op, ax * v + ay * w + k, 0)],
                ctx,
            )
            for v, bit in onehot[x].items()
        ],
        ctx,
    )


class ArithReader:
    """Linear and pseudo-Boolean forms of integer terms, over the encoder's addresses."""

    def __init__(self, enc: Any) -> None:
        # a weak reference: the encoder holds this reader, and the cycle kept the encoder's
        # terms and their Z3 context (~17 MB each) alive until a GC pass (62-queue: up to
        # 13 contexts at once, peak RSS ~270 MB)
        self.enc = weakref.proxy(enc)

    def linear(self, p: int, depth: int = 0) -> tuple[dict[int, int], int] | None:
        """``p`` as (coefficient per integer constant, constant term), or None if not linear.

        Only sums, differences, negations and products by a number of integer constants
        and numbers (``x - y``, ``2 * x + 1``); anything else (an ``If``, a product of two
        constants) is not read here.
        """
        ci = self.enc.int_at.get(p)
        if ci is not None:
            return {ci: 1}, 0
        v = self.enc.int_value(p)
        if v is not None:
            return {}, v
        dk, n = self.enc.head(p)
        if depth > 8 or dk not in _LIN_OPS or not n:
            return None
        parts = []
        for a in self.enc.args(p, n):
            got = self.linear(a, depth + 1)
            if got is None:
                return None
            parts.append(got)
        if dk == z3.Z3_OP_MUL:  # at most one factor may hold constants
            coefs, k = parts[0]
            for c2, k2 in parts[1:]:
                if coefs and c2:
                    return None
                if not coefs:
                    coefs, k, c2, k2 = c2, k2, coefs, k
                coefs = {c: v * k2 for c, v in coefs.items()}
                k = k * k2
            return coefs, k
        signs = [1] * n
        if dk == z3.Z3_OP_SUB:
            signs = [1] + [-1] * (n - 1)
        elif dk == z3.Z3_OP_UMINUS:
            signs = [-1]
        out: dict[int, int] = {}
        total = 0
        for sign, (coefs, k) in zip(signs, parts, strict=True):
            total += sign * k
            for c, v in coefs.items():
                out[c] = out.get(c, 0) + sign * v
        return out, total

    def linear_atom(self, a: int, b: int) -> tuple[dict[int, int], int] | None:
        """``a - b`` as a linear form over at most two integer constants, else None."""
        la = self.linear(a)
        if la is None:
            return None
        lb = self.linear(b)
        if lb is None:
            return None
        coefs = dict(la[0])
        for c, v in lb[0].items():
            coefs[c] = coefs.get(c, 0) - v
        coefs = {c: v for c, v in coefs.items() if v}
        if len(coefs) > 2:
            return None
        return coefs, la[1] - lb[1]

    def is_int(self, p: int) -> bool:
        c = self.enc.c
        return bool(_API.get_sort_kind(c, _API.get_sort(c, p)) == _INT_SORT)

    def pseudo_boolean(
        self, p: int, onehot: dict[int, dict[int, Any]], memo: dict[int, int], depth: int = 0
    ) -> tuple[dict[int, int], int]:
        """``p`` as a weighted sum of Boolean terms plus a number: ({bool address: weight}, k).

        An integer constant is ``sum(v * [x = v])`` over its one-hot values (exactly one is
        true), an ``If(c, t, e)`` is ``c * t + (not c) * e`` with each Boolean of ``t``
        and ``e`` put under ``c`` or ``not c``; sums, differences, negations and products
        by a number combine. Anything else (a product of unknowns, a division) is Outside.
        """
        if depth > 64:
            raise Outside("an arithmetic term too deep to encode")
        ci = self.enc.int_at.get(p)
        if ci is not None:
            return {self.enc.wrap(b): v for v, b in onehot[ci].items() if v}, 0
        v = self.enc.int_value(p)
        if v is not None:
            return {}, v
        dk, n = self.enc.head(p)
        ctx = self.enc.ctx
        if dk == z3.Z3_OP_ITE and n == 3:
            cond, then, other = self.enc.args(p, 3)
            cnd = z3.BoolRef(ast_at(self.enc.rewrite(cond, onehot, memo)), ctx)
            out: dict[int, int] = {}
            k = 0
            for guard, arm in ((cnd, then), (bool_not(cnd, ctx), other)):
                terms, const = self.pseudo_boolean(arm, onehot, memo, depth + 1)
                if const:
                    g = self.enc.wrap(guard)
                    out[g] = out.get(g, 0) + const
                for b, w in terms.items():
                    key = self.enc.wrap(bool_and([guard, z3.BoolRef(ast_at(b), ctx)], ctx))
                    out[key] = out.get(key, 0) + w
            return out, k
        if dk not in _LIN_OPS or not n:
            raise Outside("an integer term this path does not encode")
        parts = [self.pseudo_boolean(a, onehot, memo, depth + 1) for a in self.enc.args(p, n)]
        if dk == z3.Z3_OP_MUL:
            terms, k = parts[0]
            for t2, k2 in parts[1:]:
                if terms and t2:
                    raise Outside("a product of unknowns")
                if not terms:
                    terms, k, t2, k2 = t2, k2, terms, k
                terms = {b: w * k2 for b, w in terms.items()}
                k = k * k2
            return terms, k
        signs = [1] * n
        if dk == z3.Z3_OP_SUB:
            signs = [1] + [-1] * (n - 1)
        elif dk == z3.Z3_OP_UMINUS:
            signs = [-1]
        acc: dict[int, int] = {}
        total = 0
        for sign, (terms, k) in zip(signs, parts, strict=True):
            total += sign * k
            for b, w in terms.items():
                acc[b] = acc.get(b, 0) + sign * w
        return acc, total

    def pb_compare(
        self, op: int, a: int, b: int, onehot: dict[int, dict[int, Any]], memo: dict[int, int]
    ) -> Any:
        """``a op b`` over integer terms as one pseudo-Boolean constraint (Z3's ``card2bv``
        turns it into clauses): ``sum(w * [b]) op k``."""
        ta, ka = self.pseudo_boolean(a, onehot, memo)
        tb, kb = self.pseudo_boolean(b, onehot, memo)
        terms = dict(ta)
        for t, w in tb.items():
            terms[t] = terms.get(t, 0) - w
        k = kb - ka
        ctx = self.enc.ctx
        items = [(t, w) for t, w in terms.items() if w]
        if not items:
            return z3.BoolVal(holds(op, 0, k), ctx)
        lhs = z3.Sum(
            [
                z3.If(z3.BoolRef(ast_at(t), ctx), z3.IntVal(w, ctx), z3.IntVal(0, ctx))
                for t, w in items
            ]
        )
        rhs = z3.IntVal(k, ctx)
        if op == NE_OP:
            return bool_not(lhs == rhs, ctx)
        return {
            z3.Z3_OP_EQ: lambda: lhs == rhs,
            z3.Z3_OP_LE: lambda: lhs <= rhs,
            z3.Z3_OP_LT: lambda: lhs < rhs,
            z3.Z3_OP_GE: lambda: lhs >= rhs,
            z3.Z3_OP_GT: lambda: lhs > rhs,
        }[op]()
