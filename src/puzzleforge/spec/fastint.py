"""Integer Z3 terms whose comparison and arithmetic operators skip z3py's coercion.

Why: a spec condition such as ``And([Or(x == 0, x == 1, x == 2) for x in ...])`` spends
most of its time in z3py's operator methods, not in Z3: ``x == 0`` runs the generic
coercion (``_coerce_exprs``: sort lookups, a sort wrapper, ``IntVal``, an error check
after each C call), about 20 microseconds where the two C calls take two. 11-wine builds
about 130 such comparisons per attempt.

``FastInt`` is a ``z3.ArithRef`` (every isinstance check and every z3py function accepts
it) whose operators handle the two unambiguous cases themselves: the other operand is a
Python ``int`` or another ``FastInt`` of the same context. They make *the same C calls in
the same order* as z3py (a numeral from the decimal string, then the operation; the
reflected operators put the numeral first), so the terms, their AST ids and everything
that depends on them (Z3's first model, spec/solving.py) are unchanged. Anything else (a
float, a Bool, a Real, a term of another context, ``None``) goes to z3py's own method,
with its result and its error.

Symbol constants of type int are made ``FastInt`` (spec/symbols.py); the results of these
operators and of the fast ``If``/``Sum`` (spec/fastz3.py) are ``FastInt`` again, so
chains stay on this path.
"""

from __future__ import annotations

from typing import Any

import z3
from z3 import z3core as zc

from .z3raw import unchecked

__all__ = ["FastInt", "make_fast_int"]


_mk_numeral = zc.Z3_mk_numeral  # checked: a string is parsed (never fails on str(int))
_get_sort = unchecked("Z3_get_sort")  # this term's own sort: Int, the numeral's sort
_mk_eq = unchecked("Z3_mk_eq")
_mk_distinct = unchecked("Z3_mk_distinct")
_mk_lt = unchecked("Z3_mk_lt")
_mk_le = unchecked("Z3_mk_le")
_mk_gt = unchecked("Z3_mk_gt")
_mk_ge = unchecked("Z3_mk_ge")
_mk_add = unchecked("Z3_mk_add")
_mk_sub = unchecked("Z3_mk_sub")
_mk_mul = unchecked("Z3_mk_mul")

_BoolRef = z3.BoolRef
_ArithRef = z3.ArithRef
_Ast2 = z3.Ast * 2


class FastInt(z3.ArithRef):
    """An Int-sorted ArithRef with C-level operators for int / FastInt operands."""

    __hash__ = z3.ArithRef.__hash__  # defining __eq__ would otherwise unset it

    def _operand(self, other: Any) -> Any:
        """The raw AST of ``other`` as z3py's coercion would make it, or None (defer)."""
        t = type(other)
        if t is int:
            ref = self.ctx.ref()
            return _mk_numeral(ref, str(other), _get_sort(ref, self.ast))
        if t is FastInt and other.ctx is self.ctx:
            return other.ast
        return None

    def _rel(self, mk: Any, other: Any, fallback: Any) -> Any:
        b = self._operand(other)
        if b is None:
            return fallback(self, other)
        return _BoolRef(mk(self.ctx.ref(), self.ast, b), self.ctx)

    def _bin(self, mk: Any, other: Any, fallback: Any, reflected: bool = False) -> Any:
        b = self._operand(other)
        if b is None:
            return fallback(self, other)
        args = _Ast2()
        args[0], args[1] = (b, self.ast) if reflected else (self.ast, b)
        return FastInt(mk(self.ctx.ref(), 2, args), self.ctx)

    def __eq__(self, other: Any) -> Any:
        return self._rel(_mk_eq, other, z3.ExprRef.__eq__)

    def __ne__(self, other: Any) -> Any:
        b = self._operand(other)
        if b is None:
            return z3.ExprRef.__ne__(self, other)
        args = _Ast2()
        args[0], args[1] = self.ast, b
        return _BoolRef(_mk_distinct(self.ctx.ref(), 2, args), self.ctx)

    def __lt__(self, other: Any) -> Any:
        return self._rel(_mk_lt, other, _ArithRef.__lt__)

    def __le__(self, other: Any) -> Any:
        return self._rel(_mk_le, other, _ArithRef.__le__)

    def __gt__(self, other: Any) -> Any:
        return self._rel(_mk_gt, other, _ArithRef.__gt__)

    def __ge__(self, other: Any) -> Any:
        return self._rel(_mk_ge, other, _ArithRef.__ge__)

    def __add__(self, other: Any) -> Any:
        return self._bin(_mk_add, other, _ArithRef.__add__)

    def __radd__(self, other: Any) -> Any:
        return self._bin(_mk_add, other, _ArithRef.__radd__, reflected=True)

    def __sub__(self, other: Any) -> Any:
        return self._bin(_mk_sub, other, _ArithRef.__sub__)

    def __rsub__(self, other: Any) -> Any:
        return self._bin(_mk_sub, other, _ArithRef.__rsub__, reflected=True)

    def __mul__(self, other: Any) -> Any:
        return self._bin(_mk_mul, other, _ArithRef.__mul__)

    def __rmul__(self, other: Any) -> Any:
        return self._bin(_mk_mul, other, _ArithRef.__rmul__, reflected=True)


def make_fast_int(term: Any) -> Any:
    """``term`` as a FastInt when it is an Int-sorted plain ArithRef (else unchanged)."""
    if type(term) is _ArithRef and term.is_int():
        term.__class__ = FastInt
    return term
