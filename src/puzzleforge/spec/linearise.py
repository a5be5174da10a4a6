"""Products with a small-domain factor rewritten as linear case splits (exact).

Why: a spec whose constraints multiply unknowns (62-queue: the people in a trapezoid
``(2*start + len - 1) * len``) is nonlinear integer arithmetic, and Z3's nonlinear
solver spends tens of milliseconds per check on it, one check per solution. When every
product has a factor that is an integer constant with a small domain given by top-level
bounds of the constraints (``len > 3``, ``len < 9``, ``Or(len == 4, len == 6)``), the
product equals ``Sum(If(len == d, d * rest, 0) for d in domain)``: linear integer
arithmetic, which Z3's QF_LIA decides several times faster (62-queue's enumerations
~3.6x less CPU in a measurement over random instances of its shape).

Exactness: the top-level bounds stay among the assertions, so in every model the factor
takes one of the domain's values and exactly one ``If`` contributes the product itself;
the rewritten constraints have the same models over the same constants. Integers only,
no floating point. Anything else nonlinear (a power, a division by an unknown, a product
of factors none of which is bounded), or a case split that would grow past
``MAX_NEW_TERMS``, leaves the constraints as they are (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from .satdomains import bounds_into, value_set
from .satenum import _API, _RawEncoder
from .z3raw import ast_at, ptr

__all__ = ["linearise_products", "MAX_FACTOR_DOMAIN", "MAX_NEW_TERMS"]

#: Largest domain of a factor split into cases.
MAX_FACTOR_DOMAIN = 16
#: Most ``If`` cases a rewrite may add (beyond it the linear form is no longer cheaper).
MAX_NEW_TERMS = 2048

_MUL = z3.Z3_OP_MUL
_DIVISION = {z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_DIV, z3.Z3_OP_REM}


class _Keep(Exception):
    """The constraints are left as they are."""


def _small_domains(
    enc: _RawEncoder, assertions: Sequence[Any], ints: dict[int, Any]
) -> dict[int, list[int]]:
    """The integer constants whose top-level bounds give at most MAX_FACTOR_DOMAIN values."""
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    sets: dict[int, set[int]] = {}
    for p in enc.conjuncts(assertions):
        dk, n = enc.head(p)
        cmp = enc.const_cmp(p, dk, n)
        if cmp is not None:
            bounds_into(cmp, lo, hi, sets)
        elif dk == z3.Z3_OP_OR:
            value_set([enc.const_cmp(a, *enc.head(a)) for a in enc.args(p, n)], sets)
    out: dict[int, list[int]] = {}
    for c in ints:
        if c in sets:
            vals = sorted(v for v in sets[c] if lo.get(c, v) <= v <= hi.get(c, v))
        elif c in lo and c in hi and hi[c] - lo[c] < MAX_FACTOR_DOMAIN:
            vals = list(range(lo[c], hi[c] + 1))
        else:
            continue
        if len(vals) <= MAX_FACTOR_DOMAIN:
            out[c] = vals
    return out


class _Rewriter:
    def __init__(self, enc: _RawEncoder, doms: dict[int, list[int]]) -> None:
        self.enc = enc
        self.doms = doms
        self.ctx = enc.ctx
        self.memo: dict[int, int] = {}
        self.added = 0

    def term(self, p: int) -> Any:
        return (
            z3.ArithRef(ast_at(p), self.ctx)
            if _API.get_sort_kind(self.enc.c, _API.get_sort(self.enc.c, p)) == z3.Z3_INT_SORT
            else z3.ExprRef(ast_at(p), self.ctx)
        )

    def product(self, factors: list[int]) -> int:
        """A linear term equal to the product of ``factors`` (already rewritten)."""
        enc = self.enc
        unknown = [f for f in factors if enc.int_value(f) is None]
        if len(unknown) <= 1:
            if len(factors) == 1:
                return factors[0]
            arr = (z3.Ast * len(factors))(*[ast_at(f) for f in factors])
            return enc.wrap(
                z3.ArithRef(z3.z3core.Z3_mk_mul(self.ctx.ref(), len(factors), arr), self.ctx)
            )
        split = next((f for f in unknown if enc.int_at.get(f) in self.doms), None)
        if split is None:
            raise _Keep("a product of unbounded unknowns")
        rest = list(factors)
        rest.remove(split)
        rest_p = self.product(rest)
        vals = self.doms[enc.int_at[split]]
        self.added += len(vals)
        if self.added > MAX_NEW_TERMS:
            raise _Keep("the case split grows too large")
        y, r = self.term(split), self.term(rest_p)
        cases = [z3.If(y == d, d * r, 0) for d in vals]
        return enc.wrap(z3.Sum(cases) if len(cases) > 1 else cases[0])

    def rewrite(self, p: int) -> int:
        got = self.memo.get(p)
        if got is not None:
            return got
        enc = self.enc
        kind = _API.get_ast_kind(enc.c, p)
        if kind == z3.Z3_QUANTIFIER_AST:
            raise _Keep("a quantifier")
        dk, n = enc.head(p)
        out = p
        if n:
            kids = enc.args(p, n)
            new = [self.rewrite(a) for a in kids]
            if dk == z3.Z3_OP_POWER and any(enc.int_value(a) is None for a in new):
                raise _Keep("a power of an unknown")
            if dk in _DIVISION and enc.int_value(new[-1]) is None:
                raise _Keep("a division by an unknown")
            if dk == _MUL and sum(1 for f in new if enc.int_value(f) is None) > 1:
                out = self.product(new)
            elif new != kids:
                arr = (z3.Ast * n)(*[ast_at(a) for a in new])
                out = enc.wrap(
                    z3.AstRef(z3.z3core.Z3_update_term(self.ctx.ref(), ast_at(p), n, arr), self.ctx)
                )
        self.memo[p] = out
        return out


def linearise_products(
    assertions: Sequence[Any], consts: Sequence[Any], kinds: Sequence[int]
) -> list[Any] | None:
    """The assertions with every product of unknowns split on a small-domain factor, or None.

    None when nothing needs it, when the shape is outside (see the module doc), or when
    spec/z3raw.py's accessors are unavailable.
    """
    if _API is None or not assertions or not consts:
        return None
    ints = {c.get_id(): c for c, k in zip(consts, kinds, strict=False) if k == z3.Z3_INT_SORT}
    if not ints:
        return None
    enc = _RawEncoder(consts[0].ctx, ints)
    doms = _small_domains(enc, assertions, ints)
    if not doms:
        return None
    rw = _Rewriter(enc, doms)
    try:
        out = [rw.rewrite(ptr(e.as_ast())) for e in assertions]
    except (_Keep, RecursionError):
        return None
    if not rw.added:
        return None
    # no product of unknowns, power of an unknown or division by one is left: linear
    # (Z3's is-qflia probe cannot say so: it refuses any subtraction)
    return [z3.BoolRef(ast_at(p), enc.ctx) for p in out]
