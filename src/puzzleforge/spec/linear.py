"""Linear constraints over Real symbols as Python values, for the exact LP path (spec/lp.py).

Why: in a linear optimisation spec (38-linearprog) building the Z3 terms of the random
formulas and running Z3's Optimize were most of an attempt. While a condition or the
objective is evaluated, each Real symbol is bound to a ``Lin`` leaf; the operators Z3's
ArithRef defines build integer linear forms instead of terms, comparisons build ``Atom``
rows, ``And`` a ``Conj``. What is not an exact image of the Z3 semantics (a float, a
product of two unknowns, a division, ``!=``, ``Or``, truth-testing or printing a form)
raises ``Fallback`` and the caller evaluates with Z3 as before.

A form also remembers which symbols occur in it (``seen``, in the order a left-to-right
walk of the Z3 term would meet them), even with a zero coefficient (``x - x``): Z3 terms
keep such a constant, and the solution lists the constants that occur in the problem.
"""
from __future__ import annotations

import re
from operator import neg
from typing import Any

from . import mathexpr
from .terms import Fallback

__all__ = ["Lin", "Atom", "Conj", "LIN_DISPATCH", "lin_build_system", "rows_of"]


def _union(a: tuple, b: tuple) -> tuple:
    """``a`` then the items of ``b`` not in it: Z3's first-seen, left-to-right constant order."""
    if a is b or not b:
        return a
    if not a:
        return b
    extra = tuple(p for p in b if p not in a)
    return a + extra if extra else a


class Lin:
    """``coef . x + const`` with integer coefficients over the attempt's n Real symbols."""

    __slots__ = ("coef", "const", "seen", "const_ref", "pos")

    def __init__(self, coef: tuple[int, ...], const: int, seen: tuple, const_ref: Any = None,
                 pos: int | None = None) -> None:
        self.coef = coef
        self.const = const
        self.seen = seen
        self.const_ref = const_ref  # a leaf's Z3 constant (its name: build_system's LaTeX names)
        self.pos = pos  # a leaf's position in the coefficient vector

    # ---- arithmetic (ArithRef's operators) ----
    def _plus(self, o: Any, sign: int, reflected: bool) -> Lin:
        t = type(o)
        if t is Lin:
            if reflected:  # o - self
                return Lin(tuple(b - a for a, b in zip(self.coef, o.coef, strict=False)), o.const - self.const, _union(self.seen, o.seen))
            return Lin(tuple(a + sign * b for a, b in zip(self.coef, o.coef, strict=False)),
                       self.const + sign * o.const, _union(self.seen, o.seen))
        if t is int:
            if reflected and sign < 0:
                return Lin(tuple(-a for a in self.coef), o - self.const, self.seen)
            return Lin(self.coef, self.const + sign * o, self.seen)
        raise Fallback(f"{t.__name__} in a linear form")

    def __add__(self, o: Any) -> Lin:
        return self._plus(o, 1, False)

    def __radd__(self, o: Any) -> Lin:
        return self._plus(o, 1, False)

    def __sub__(self, o: Any) -> Lin:
        return self._plus(o, -1, False)

    def __rsub__(self, o: Any) -> Lin:
        return self._plus(o, -1, True)

    def __mul__(self, o: Any) -> Lin:
        if type(o) is int:
            return Lin(tuple(a * o for a in self.coef), self.const * o, self.seen)
        raise Fallback("product with an unknown or a non-integer")

    __rmul__ = __mul__

    def __neg__(self) -> Lin:
        return Lin(tuple(-a for a in self.coef), -self.const, self.seen)

    def __pos__(self) -> Lin:
        return self

    # ---- comparisons: a row ``coef . x (<=|<|==) rhs`` ----
    def _cmp(self, o: Any, kind: str, flip: bool) -> Atom:
        if type(o) is int:  # d = self - o, without making it
            if flip:  # d >= 0  <=>  -d <= 0
                return Atom(tuple(map(neg, self.coef)), self.const - o, kind, self.seen)
            return Atom(self.coef, o - self.const, kind, self.seen)
        if type(o) is not Lin:
            raise Fallback(f"comparison with a {type(o).__name__}")
        d = self._plus(o, -1, False)
        if flip:  # d >= 0  <=>  -d <= 0
            return Atom(tuple(map(neg, d.coef)), d.const, kind, d.seen)
        return Atom(d.coef, -d.const, kind, d.seen)

    def __le__(self, o: Any) -> Atom:
        return self._cmp(o, "le", False)

    def __lt__(self, o: Any) -> Atom:
        return self._cmp(o, "lt", False)

    def __ge__(self, o: Any) -> Atom:
        return self._cmp(o, "le", True)

    def __gt__(self, o: Any) -> Atom:
        return self._cmp(o, "lt", True)

    def __eq__(self, o: Any) -> Atom:  # type: ignore[override]
        return self._cmp(o, "eq", False)

    def __ne__(self, o: Any) -> Any:
        raise Fallback("!= is not a linear row")

    # ---- what Z3 answers differently ----
    def __bool__(self) -> bool:
        raise Fallback("truth value of a linear form")

    def __hash__(self) -> int:
        raise Fallback("hash of a linear form")

    def __str__(self) -> str:
        raise Fallback("text of a linear form")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        raise Fallback("text of a linear form")


class Atom:
    """One row ``coef . x (le|lt|eq) rhs`` (a Boolean term in Z3's view)."""

    __slots__ = ("coef", "rhs", "kind", "seen")

    def __init__(self, coef: tuple[int, ...], rhs: int, kind: str, seen: tuple) -> None:
        self.coef = coef
        self.rhs = rhs
        self.kind = kind
        self.seen = seen

    def rows(self) -> list[tuple]:
        return [(self.coef, self.rhs, self.kind)]

    def __bool__(self) -> bool:
        raise Fallback("truth value of a constraint")

    def __hash__(self) -> int:
        raise Fallback("hash of a constraint")

    def __str__(self) -> str:
        raise Fallback("text of a constraint")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        raise Fallback("text of a constraint")

    def __and__(self, o: Any) -> Any:
        raise Fallback("& on a constraint")

    __or__ = __rand__ = __ror__ = __xor__ = __rxor__ = __and__

    def __invert__(self) -> Any:
        raise Fallback("~ on a constraint")

    def __eq__(self, o: Any) -> Any:
        raise Fallback("== on a constraint")

    __ne__ = __eq__


class Conj(Atom):
    """``And`` of constraints: all its rows hold."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[tuple], seen: tuple) -> None:  # noqa: D107 - rows only
        self.parts = parts
        self.seen = seen

    def rows(self) -> list[tuple]:
        return self.parts


#: a Python ``False`` inside ``And``: the row 0 <= -1, which no point satisfies (its
#: empty coefficient vector is widened to the attempt's width by lpmode)
_FALSE_ROW = ((), -1, "le")


def rows_of(value: Any, n: int) -> list[tuple] | None:
    """The rows of one assertion (an Atom/Conj or a Python bool), or None if not one."""
    if isinstance(value, Atom):
        return value.rows()
    if type(value) is bool:
        return [] if value else [((0,) * n, -1, "le")]
    return None


def lin_and(*args: Any) -> Any:
    """``And`` over constraints (Z3's ``And``: one list argument stands for its items)."""
    items = args[0] if len(args) == 1 and type(args[0]) in (list, tuple) else args
    for x in items:
        if isinstance(x, (Atom, Lin)):
            break
    else:
        return _ORIG["And"](*args)
    parts: list[tuple] = []
    order: dict = {}  # the items' seen tuples folded with _union: first-seen order
    for x in items:
        if isinstance(x, Atom):
            parts.extend(x.rows())
            for p in x.seen:
                order[p] = None  # a key already present keeps its place
        elif type(x) is bool:
            if not x:
                parts.append(_FALSE_ROW)  # lpmode widens it to the attempt's width
        else:
            raise Fallback(f"And of a {type(x).__name__}")
    return Conj(parts, tuple(order))


def lin_sum(*args: Any) -> Any:
    """``Sum`` over linear forms (Z3's ``Sum``)."""
    items = args[0] if len(args) == 1 and type(args[0]) in (list, tuple) else args
    first = next((x for x in items if type(x) is Lin), None)
    if first is None:
        return _ORIG["Sum"](*args)
    total = Lin((0,) * len(first.coef), 0, ())
    for x in items:
        total = total + x
    return total


def _refuse(name: str) -> Any:
    def call(*args: Any, **kw: Any) -> Any:
        if any(isinstance(x, (Atom, Lin)) for x in _flat(args)):
            raise Fallback(f"{name} over linear rows")
        return _ORIG[name](*args, **kw)

    call.__name__ = name
    return call


def _flat(args: tuple) -> list:
    out: list = []
    for a in args:
        if type(a) in (list, tuple):
            out.extend(a)
        else:
            out.append(a)
    return out


def _orig() -> dict[str, Any]:
    from .operators import Z3_EXPORTS
    return {n: Z3_EXPORTS[n] for n in ("And", "Sum", "Or", "Not", "If", "Implies", "Xor", "Distinct")}


_ORIG = _orig()

#: Spec-namespace Z3 functions and their versions over linear forms.
LIN_DISPATCH: dict[str, Any] = {"And": lin_and, "Sum": lin_sum,
                                **{n: _refuse(n) for n in ("Or", "Not", "If", "Implies", "Xor", "Distinct")}}


#: Linear forms of parsed formulas by (formula text, number of variables): an attempt
#: asks for the same system several times (38-linearprog: 4 build_system calls, 2 systems).
_FORMS: dict[tuple, Any] = {}
_FORMS_MAX = 64
#: A linear form is packed into one Python int, one signed 64-bit lane per coefficient
#: (lane 0: the constant, lane j+1: variable j): adding forms or scaling one is then a
#: single integer operation. Generated formulas have coefficients far below 2**62.
_LANE = mathexpr._FORM_LANE  # the generator packs forms with the same lanes
_LANE_MASK = (1 << _LANE) - 1
_LANE_HALF = 1 << (_LANE - 1)
_LANE_LIMIT = 1 << 62
_VAR_TOKEN = re.compile(r"\(Var (\d+)\)")
_CMP_FLIP = {"<=": ">=", ">=": "<=", "==": "==", "<": ">", ">": "<"}
_CMP_NUM = {"<=": int.__le__, ">=": int.__ge__, "==": int.__eq__, "<": int.__lt__, ">": int.__gt__}


def _form(node: tuple) -> Any:
    """A parsed formula as mathexpr's Z3 translation would evaluate it, with packed forms.

    Returns an ``int`` (no variable), a ``bool`` (comparison of two numbers), ``("lin",
    packed, bound)`` or ``("row", op, packed, bound)`` (Python's ``op``, the form being
    left - right). ``bound`` bounds every coefficient and the constant in absolute value,
    so that no lane can overflow into the next (``Fallback`` past 2**62).
    """
    kind = node[0]
    if kind == "Var":
        return ("lin", 1 << (_LANE * (node[1] + 1)), 1)
    if kind == "Const":
        if type(node[1]) is not int:
            raise Fallback("a non-integer constant")
        return node[1]
    if kind == "Add" or kind == "Sub":
        a, b = _form(node[1]), _form(node[2])
        ta, tb = type(a) is int, type(b) is int
        if ta and tb:
            return a + b if kind == "Add" else a - b
        va, ba = (a, abs(a)) if ta else (a[1], a[2])
        vb, bb = (b, abs(b)) if tb else (b[1], b[2])
        bound = ba + bb
        if bound >= _LANE_LIMIT:
            raise Fallback("coefficients too large for the packed form")
        return ("lin", va + vb if kind == "Add" else va - vb, bound)
    if kind == "Mul":
        a, b = _form(node[1]), _form(node[2])
        if type(a) is int:
            a, b = b, a
        if type(a) is int:
            return a * b
        if type(b) is not int:
            raise Fallback("product of two unknowns")
        bound = a[2] * abs(b)
        if bound >= _LANE_LIMIT:
            raise Fallback("coefficients too large for the packed form")
        return ("lin", a[1] * b, bound)
    if kind == "Cmp":
        a, b = _form(node[2]), _form(node[3])
        op = node[1]
        if type(a) is int and type(b) is int:
            return _CMP_NUM[op](a, b)
        if type(a) is int:  # ``3 <= x`` is ``x >= 3`` in Python and in Z3
            a, b, op = b, a, _CMP_FLIP[op]
        vb, bb = (b, abs(b)) if type(b) is int else (b[1], b[2])
        bound = a[2] + bb
        if bound >= _LANE_LIMIT:
            raise Fallback("coefficients too large for the packed form")
        return ("row", op, a[1] - vb, bound)
    raise Fallback(f"{kind} in a linear formula")


def _unpack(packed: int, n: int) -> list[int]:
    """[constant, c_0, ..., c_n-1] of a packed form."""
    out = []
    for _ in range(n + 1):
        lane = packed & _LANE_MASK
        if lane >= _LANE_HALF:
            lane -= 1 << _LANE
        out.append(lane)
        packed = (packed - lane) >> _LANE
    if packed:  # a variable index beyond n cannot come from a parsed formula
        raise Fallback("a variable outside the system")
    return out


#: "(Var j)" for j < n, by n (``_first_seen``).
_NEEDLES: dict[int, tuple[str, ...]] = {}


def _first_seen(text: str, n: int) -> tuple[int, ...]:
    """The variables of a generated formula's text in first-occurrence order.

    The same as reading ``_VAR_TOKEN``'s matches left to right, for a text whose variables
    are written ``(Var j)`` with j < n (the generator's): one ``str.find`` per variable
    instead of a regex pass, an int per match and a dict (a third of ``build_system``).
    """
    needles = _NEEDLES.get(n)
    if needles is None:
        needles = _NEEDLES[n] = tuple(f"(Var {j})" for j in range(n))
    found = [(text.find(needle), j) for j, needle in enumerate(needles)]
    found.sort()
    return tuple([j for at, j in found if at >= 0])


def _forms(configs: list[str], nodes: Any, n: int) -> list:
    """The unpacked forms of ``configs``: (kind, op, [const, c_0, ...], variables first-seen).

    Generated formulas come with their packed form (mathexpr.GENERATED_FORMS); others are
    linearised from their parse (``nodes()``, parsed only then).
    """
    out = []
    parsed = None
    for i, text in enumerate(configs):
        key = (str(text), n)
        f = _FORMS.get(key)
        if f is None:
            g = mathexpr.GENERATED_FORMS.get(key)
            if g is not None:
                f = ("row", g[1], g[2], None) if g[0] == "row" else ("lin", g[1], None)
            else:
                if parsed is None:
                    parsed = nodes()
                f = _form(parsed[i])
            if type(f) is tuple:  # unpacked once
                coef = _unpack(f[-2], n)
                if g is not None:  # the generator's canonical text: "(Var j)" exactly
                    seen = _first_seen(key[0], n)
                else:
                    seen = tuple(dict.fromkeys(int(m) for m in _VAR_TOKEN.findall(key[0])))
                f = (f[0], f[1] if f[0] == "row" else None, coef, seen)
            if len(_FORMS) >= _FORMS_MAX:
                _FORMS.clear()
            _FORMS[key] = f
        out.append(f)
    return out


def _value_of(form: Any, leaves: list, direct: bool) -> Any:
    """A form over the build_system variables as a Lin/Atom over the attempt's symbols.

    ``direct``: the usual call, build_system(formulas, symbol) with the symbol's own
    leaves (leaf i is symbol i), so the form's coefficients are already the Lin's.
    """
    if type(form) is not tuple:
        return form  # int or bool, as the Z3 translation leaves them
    kind, op, coef, seen_vars = form
    if direct:
        lin = Lin(tuple(coef[1:]), coef[0], tuple(leaves[i].seen[0] for i in seen_vars))
        return lin if kind == "lin" else _LIN_CMP[op](lin, 0)
    width = len(leaves[0].coef)
    total = [0] * width
    const = coef[0]
    for i, c in enumerate(coef[1:]):
        if c:
            leaf = leaves[i]
            for j, v in enumerate(leaf.coef):
                if v:
                    total[j] += c * v
            const += c * leaf.const
    seen: tuple = ()
    for i in seen_vars:
        seen = _union(seen, leaves[i].seen)
    lin = Lin(tuple(total), const, seen)
    return lin if kind == "lin" else _LIN_CMP[op](lin, 0)


#: A comparison of a form with 0 by its formula operator.
_LIN_CMP = {"<=": Lin.__le__, ">=": Lin.__ge__, "==": Lin.__eq__, "<": Lin.__lt__, ">": Lin.__gt__}


#: Recent systems by (formula texts, id of the variables' container), each entry holding
#: the container so its id cannot be reused: 38-linearprog asks for each system twice.
_SYSTEMS: dict[tuple, tuple] = {}
_SYSTEMS_MAX = 8


def lin_build_system(configs: list[str], zvars: Any, var_names: list[str] | None = None) -> Any:
    """``build_system`` over linear leaves (same keys; no side conditions without Div)."""
    key = (tuple(map(str, configs)), id(zvars))
    hit = _SYSTEMS.get(key)
    if hit is not None and hit[0] is zvars:
        leaves, exprs = hit[1], hit[2]
    else:
        leaves = list(zvars)
        if not leaves or not all(type(v) is Lin for v in leaves):
            return mathexpr.build_system(configs, zvars, var_names)
        n = len(leaves)
        direct = n == len(leaves[0].coef) and all(leaf.pos == i for i, leaf in enumerate(leaves))
        exprs = [_value_of(f, leaves, direct) for f in _forms(configs, lambda: mathexpr._parsed(configs, n), n)]
        if len(_SYSTEMS) >= _SYSTEMS_MAX:
            _SYSTEMS.pop(next(iter(_SYSTEMS)))
        _SYSTEMS[key] = (zvars, leaves, exprs)
    names = list(var_names) if var_names else None  # the leaves' names only if the text is read
    return mathexpr.System(list(exprs), [], lambda: mathexpr._system_latex(
        configs, lambda: mathexpr._parsed(configs, len(leaves)),
        names if names is not None else [v.const_ref.decl().name() for v in leaves]))
