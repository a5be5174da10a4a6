"""Constraint terms built in Python, with Z3's exact construction rules, for the finite path.

Why: for a finite-domain spec most of an attempt's time went into building Z3 terms for
the condition and objective formulas and then walking the same terms back through the
C API (spec/finite.py). A ``Term`` stands for a symbol's constant while such a formula is
evaluated: its operators and the dispatching ``If``/``Sum``/``And``/... build the node
list ``finite.py`` evaluates, directly, hash-consed and argument-ordered exactly like the
Z3 DAG the same formula would have built (same nodes, same top-level conjuncts, same
node count), so every decision of the finite path comes out the same.

Only what mirrors Z3's semantics exactly is modelled: Bool and Int sorts, Python ``int``
numerals next to an Int term and ``bool`` next to a Bool term, the operators Z3's
ArithRef/BoolRef define. Anything else (a float, a sort mix Z3 would coerce, a Z3 term
mixed in, truth-testing or printing a term, an unmodelled function) raises ``Fallback``
and the caller evaluates the formula with Z3 instead.
"""
from __future__ import annotations

import dis
import types
from typing import Any

from .fastz3 import FAST_EXPORTS

__all__ = ["Fallback", "Builder", "Term", "DISPATCH", "dispatch_table", "global_names", "BOOL", "INT"]

BOOL, INT = "bool", "int"


class Fallback(Exception):
    """This evaluation is outside what ``Term`` models exactly: evaluate it with Z3."""


class Builder:
    """Hash-consed nodes (op, args) like finite.py's IR; leaves are ("const", ast id)."""

    __slots__ = ("nodes", "memo")

    def __init__(self) -> None:
        self.nodes: list[tuple] = []
        self.memo: dict[tuple, int] = {}

    def mk(self, op: str, args: Any) -> int:
        key = (op, args)
        i = self.memo.get(key)
        if i is None:
            i = self.memo[key] = len(self.nodes)
            self.nodes.append(key)
        return i


class Term:
    """A Bool or Int constraint term (a node of a ``Builder``) with Z3's Python operators."""

    __slots__ = ("b", "i", "s")

    def __init__(self, b: Builder, i: int, s: str) -> None:
        self.b = b
        self.i = i
        self.s = s

    # ---- helpers ----
    def _lift(self, other: Any, sort: str) -> int:
        return lift(self.b, other, sort)

    def _arith(self, op: str, other: Any, reflected: bool) -> Term:
        if self.s is not INT:
            raise Fallback("arithmetic on a Boolean term")
        o = self._lift(other, INT)
        return Term(self.b, self.b.mk(op, (o, self.i) if reflected else (self.i, o)), INT)

    def _cmp(self, op: str, other: Any) -> Term:
        if self.s is not INT:
            raise Fallback("ordering of a Boolean term")
        return Term(self.b, self.b.mk(op, (self.i, self._lift(other, INT))), BOOL)

    # ---- ArithRef ----
    def __add__(self, o: Any) -> Term:
        return self._arith("add", o, False)

    def __radd__(self, o: Any) -> Term:
        return self._arith("add", o, True)

    def __sub__(self, o: Any) -> Term:
        return self._arith("sub", o, False)

    def __rsub__(self, o: Any) -> Term:
        return self._arith("sub", o, True)

    def __mul__(self, o: Any) -> Term:
        return self._arith("mul", o, False)

    def __rmul__(self, o: Any) -> Term:
        return self._arith("mul", o, True)

    def __truediv__(self, o: Any) -> Term:  # Z3_mk_div on Int sorts: integer division
        return self._arith("div", o, False)

    def __rtruediv__(self, o: Any) -> Term:
        return self._arith("div", o, True)

    def __mod__(self, o: Any) -> Term:
        return self._arith("mod", o, False)

    def __rmod__(self, o: Any) -> Term:
        return self._arith("mod", o, True)

    def __neg__(self) -> Term:
        if self.s is not INT:
            raise Fallback("negation of a Boolean term")
        return Term(self.b, self.b.mk("neg", (self.i,)), INT)

    def __pos__(self) -> Term:
        if self.s is not INT:
            raise Fallback("unary plus of a Boolean term")
        return self

    def __le__(self, o: Any) -> Term:
        return self._cmp("le", o)

    def __lt__(self, o: Any) -> Term:
        return self._cmp("lt", o)

    def __ge__(self, o: Any) -> Term:
        return self._cmp("ge", o)

    def __gt__(self, o: Any) -> Term:
        return self._cmp("gt", o)

    # ---- ExprRef ----
    def __eq__(self, o: Any) -> Term:  # type: ignore[override]
        return Term(self.b, self.b.mk("eq", (self.i, self._lift(o, self.s))), BOOL)

    def __ne__(self, o: Any) -> Term:  # type: ignore[override]
        return Term(self.b, self.b.mk("distinct", (self.i, self._lift(o, self.s))), BOOL)

    # ---- BoolRef ----
    def __and__(self, o: Any) -> Term:
        return DISPATCH["And"](self, o)  # a Term: never the fallback

    def __or__(self, o: Any) -> Term:
        return DISPATCH["Or"](self, o)

    def __xor__(self, o: Any) -> Term:
        return DISPATCH["Xor"](self, o)

    def __invert__(self) -> Term:
        return DISPATCH["Not"](self)

    # ---- what Z3 answers differently, or not at all ----
    def __bool__(self) -> bool:
        raise Fallback("truth value of a term")

    def __hash__(self) -> int:
        raise Fallback("hash of a term")

    def __str__(self) -> str:
        raise Fallback("text of a term")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        raise Fallback("text of a term")


def lift(b: Builder, v: Any, sort: str) -> int:
    """Node of ``v`` as an argument of sort ``sort`` (Z3's coercion of Python values)."""
    t = type(v)
    if t is Term:
        if v.b is not b or v.s is not sort:
            raise Fallback("sort mismatch")
        return v.i
    if t is int and sort is INT:
        return b.mk("num", v)
    if t is bool and sort is BOOL:
        return b.mk("lit", v)
    raise Fallback(f"{t.__name__} next to a {sort} term")


def _args(args: tuple) -> Any:
    # z3's _get_args: one list/tuple argument stands for its items
    if len(args) == 1 and type(args[0]) in (list, tuple):
        return args[0]
    return args


def _first_term(items: Any) -> Term | None:
    for x in items:
        if type(x) is Term:
            return x
    return None


def _nary_bool(op: str, orig: Any) -> Any:
    def build(*args: Any) -> Any:
        items = _args(args)
        t = _first_term(items)
        if t is None:
            return orig(*args)
        b = t.b
        return Term(b, b.mk(op, tuple(lift(b, x, BOOL) for x in items)), BOOL)

    build.__name__ = orig.__name__
    return build


def _col_not(orig: Any) -> Any:
    def col_not(a: Any, ctx: Any = None) -> Any:
        if type(a) is not Term:
            return orig(a, ctx)
        if ctx is not None:
            raise Fallback("explicit context")
        return Term(a.b, a.b.mk("not", (lift(a.b, a, BOOL),)), BOOL)

    return col_not


def _binary_bool(op: str, orig: Any) -> Any:
    def build(a: Any, b: Any, ctx: Any = None) -> Any:
        t = a if type(a) is Term else b if type(b) is Term else None
        if t is None:
            return orig(a, b, ctx)
        if ctx is not None:
            raise Fallback("explicit context")
        return Term(t.b, t.b.mk(op, (lift(t.b, a, BOOL), lift(t.b, b, BOOL))), BOOL)

    build.__name__ = getattr(orig, "__name__", op)
    return build


def _col_if(orig: Any) -> Any:
    def col_if(c: Any, a: Any, b: Any, ctx: Any = None) -> Any:
        t = c if type(c) is Term else a if type(a) is Term else b if type(b) is Term else None
        if t is None:
            return orig(c, a, b, ctx)
        if ctx is not None:
            raise Fallback("explicit context")
        bl = t.b
        if t is c and c.s is BOOL and type(a) is int and type(b) is int:  # If(p, 3, 0): the usual
            return Term(bl, bl.mk("ite", (c.i, bl.mk("num", a), bl.mk("num", b))), INT)
        ci = lift(bl, c, BOOL)
        if type(a) is Term:
            s = a.s
        elif type(b) is Term:
            s = b.s
        else:  # two Python values: both int (Int) or both bool (Bool), as z3's _py2expr
            ta, tb = type(a), type(b)
            if ta is int and tb is int:
                s = INT
            elif ta is bool and tb is bool:
                s = BOOL
            else:
                raise Fallback("If branches of mixed Python types")
        return Term(bl, bl.mk("ite", (ci, lift(bl, a, s), lift(bl, b, s))), s)

    return col_if


def _col_sum(orig: Any) -> Any:
    def col_sum(*args: Any) -> Any:
        items = _args(args)
        t = _first_term(items)
        if t is None:
            return orig(*args)
        b = t.b
        return Term(b, b.mk("add", tuple(lift(b, x, INT) for x in items)), INT)

    return col_sum


def _col_distinct(orig: Any) -> Any:
    def col_distinct(*args: Any) -> Any:
        items = _args(args)
        t = _first_term(items)
        if t is None:
            return orig(*args)
        b = t.b
        return Term(b, b.mk("distinct", tuple(lift(b, x, t.s) for x in items)), BOOL)

    return col_distinct


def dispatch_table(base: dict[str, Any]) -> dict[str, Any]:
    """Spec-namespace names whose Z3 function a ``Term``-aware version replaces; with
    Python-only arguments each calls ``base``'s function (a space's bound ones,
    spec/z3space.py, so nothing falls back to z3's main context)."""
    return {
        "If": _col_if(base["If"]), "Sum": _col_sum(base["Sum"]),
        "And": _nary_bool("and", base["And"]), "Or": _nary_bool("or", base["Or"]),
        "Not": _col_not(base["Not"]), "Implies": _binary_bool("implies", base["Implies"]),
        "Xor": _binary_bool("xor", base["Xor"]), "Distinct": _col_distinct(base["Distinct"]),
    }


def _unbound_base() -> dict[str, Any]:
    import z3
    return {**{n: getattr(z3, n) for n in ("Implies", "Xor", "Distinct")}, **FAST_EXPORTS}


#: The table over z3's own functions (tests; the engine uses its space's, ``dispatch_table``).
DISPATCH: dict[str, Any] = dispatch_table(_unbound_base())

_NAME_OPS = {"LOAD_NAME", "LOAD_GLOBAL"}
#: Global names per code object (a pure function of the code: clearing changes nothing).
_NAMES_CACHE: dict[Any, tuple[str, ...]] = {}
_NAMES_MAX = 4096


def global_names(code: types.CodeType) -> tuple[str, ...]:
    """Names an expression's code (comprehensions and lambdas included) reads from its globals."""
    got = _NAMES_CACHE.get(code)
    if got is None:
        seen: dict[str, None] = {}
        stack = [code]
        while stack:
            c = stack.pop()
            for ins in dis.get_instructions(c):
                if ins.opname in _NAME_OPS:
                    seen[ins.argval] = None
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        if len(_NAMES_CACHE) >= _NAMES_MAX:  # code objects of every spec loaded: bounded
            _NAMES_CACHE.clear()
        got = _NAMES_CACHE[code] = tuple(seen)
    return got
