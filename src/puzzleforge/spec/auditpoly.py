"""The captured constraints of an audit as SymPy polynomials (spec/auditalgebra.py).

Why a module of its own: reading the SMT-LIB text into polynomials over Q (Z3 parses the
text in a fresh context and decides nothing; every term is rebuilt with SymPy's exact
rational arithmetic) is separate from solving the system (spec/auditroots.py) and from
the audit's verdict (spec/auditalgebra.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp
import z3

from .auditcapture import Problem

__all__ = ["NotPolynomial", "System", "polynomial_system"]

#: Arithmetic operators read as polynomial arithmetic.
_OPS = (z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS, z3.Z3_OP_MUL, z3.Z3_OP_TO_REAL)
_CMP = {z3.Z3_OP_LE: "<=", z3.Z3_OP_LT: "<", z3.Z3_OP_GE: ">=", z3.Z3_OP_GT: ">"}


class NotPolynomial(Exception):
    """The constraints are not a conjunction of polynomial (in)equations."""


class System:
    """The captured constraints as SymPy polynomials over Q.

    ``gens``: one symbol per constant, the answer's first (``names``); ``equations``:
    polynomials equal to 0; ``conditions``: ``(op, p)`` meaning ``p op 0`` with ``op``
    one of ``< <= > >= !=``; ``integers``: positions of Int constants.
    """

    def __init__(self, problem: Problem) -> None:
        ctx = z3.Context()
        assertions = list(z3.parse_smt2_string(problem.smt2, ctx=ctx))
        consts: dict[str, Any] = {}
        for e in _walk(assertions):
            if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
                consts.setdefault(str(e), e)
        if any(n not in consts for n in problem.names):
            raise NotPolynomial("an answer constant is not in the constraints")
        order = list(problem.names) + sorted(n for n in consts if n not in problem.names)
        self.names = list(problem.names)
        self.gens = [sp.Symbol(f"x{k}") for k in range(len(order))]
        self.integers = []
        for k, n in enumerate(order):
            if consts[n].sort().kind() == z3.Z3_INT_SORT:
                self.integers.append(k)
            elif consts[n].sort().kind() != z3.Z3_REAL_SORT:
                raise NotPolynomial(f"{n} is neither Int nor Real")
        self._sym = {n: self.gens[k] for k, n in enumerate(order)}
        self._memo: dict[int, sp.Poly] = {}
        self.equations: list[sp.Poly] = []
        self.conditions: list[tuple[str, sp.Poly]] = []
        for atom in _conjuncts(assertions):
            self._atom(atom)

    def _atom(self, e: Any) -> None:
        if z3.is_true(e):
            return
        if z3.is_false(e):
            self.equations.append(self._const(1))
            return
        args = e.children()
        if z3.is_eq(e) and z3.is_arith(args[0]):
            self.equations.append(self.poly(args[0]) - self.poly(args[1]))
        elif z3.is_app(e) and e.decl().kind() in _CMP:
            self.conditions.append((_CMP[e.decl().kind()], self.poly(args[0]) - self.poly(args[1])))
        elif z3.is_not(e) and z3.is_eq(args[0]) and z3.is_arith(args[0].arg(0)):
            a, b = args[0].children()
            self.conditions.append(("!=", self.poly(a) - self.poly(b)))
        elif z3.is_distinct(e) and all(z3.is_arith(a) for a in args):
            ps = [self.poly(a) for a in args]
            for i in range(len(ps)):
                self.conditions.extend(("!=", ps[i] - q) for q in ps[i + 1 :])
        else:
            raise NotPolynomial(f"not a polynomial (in)equation: {str(e)[:80]}")

    def _const(self, v: Any) -> sp.Poly:
        return sp.Poly(sp.Rational(v), *self.gens, domain=sp.QQ)

    def poly(self, e: Any) -> sp.Poly:
        """A Z3 arithmetic term as a polynomial (memoised on the term: shared subterms)."""
        key = e.get_id()
        if key in self._memo:
            return self._memo[key]
        if z3.is_int_value(e) or z3.is_rational_value(e):
            f = Fraction(e.as_long()) if z3.is_int_value(e) else e.as_fraction()
            p = self._const(sp.Rational(f.numerator, f.denominator))
        elif z3.is_const(e) and str(e) in self._sym:
            p = sp.Poly(self._sym[str(e)], *self.gens, domain=sp.QQ)
        elif not z3.is_app(e):
            raise NotPolynomial(f"not a polynomial term: {str(e)[:80]}")
        else:
            p = self._op(e)
        self._memo[key] = p
        return p

    def _op(self, e: Any) -> sp.Poly:
        k = e.decl().kind()
        args = e.children()
        if k == z3.Z3_OP_POWER or k == z3.Z3_OP_DIV:
            n = _numeral(args[1])
            if k == z3.Z3_OP_DIV and n is not None and n != 0:
                return self.poly(args[0]) * sp.Rational(n.denominator, n.numerator)
            if k == z3.Z3_OP_POWER and n is not None and n.denominator == 1 and n >= 0:
                return self.poly(args[0]) ** int(n)
            raise NotPolynomial(f"not a polynomial operation: {str(e)[:80]}")
        if k not in _OPS:
            raise NotPolynomial(f"not a polynomial operation: {e.decl().name()}")
        ps = [self.poly(a) for a in args]
        if k == z3.Z3_OP_UMINUS:
            return -ps[0]
        if k == z3.Z3_OP_TO_REAL:
            return ps[0]
        out = ps[0]
        for q in ps[1:]:
            out = out + q if k == z3.Z3_OP_ADD else out - q if k == z3.Z3_OP_SUB else out * q
        return out

    def nonlinear(self) -> bool:
        return any(p.total_degree() > 1 for p in self.equations + [q for _, q in self.conditions])


def polynomial_system(problem: Problem) -> System | None:
    """The problem as a ``System`` when this audit applies to it, else None.

    Applies to enumerations over Int/Real constants, at least one Real, whose constraints
    are a conjunction of polynomial (in)equations with at least one equation and some
    nonlinear term (linear problems are Z3's; Int-only ones the brute force's and Z3's).
    """
    if problem.kind != "enumerate" or "real" not in problem.sorts:
        return None
    try:
        system = System(problem)
    except (NotPolynomial, z3.Z3Exception):
        return None
    return system if system.equations and system.nonlinear() else None


def _walk(exprs: list) -> list:
    seen: set[int] = set()
    out, stack = [], list(exprs)
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        out.append(e)
        if z3.is_app(e):
            stack.extend(e.children())
    return out


def _conjuncts(exprs: list) -> list:
    out, stack = [], list(reversed(exprs))
    while stack:
        e = stack.pop()
        if z3.is_and(e):
            stack.extend(reversed(e.children()))
        else:
            out.append(e)
    return out


def _numeral(e: Any) -> Fraction | None:
    if z3.is_int_value(e):
        return Fraction(e.as_long())
    if z3.is_rational_value(e):
        return e.as_fraction()
    return None
