"""``build_system`` over linear leaves: generated formulas straight to ``Lin`` forms and rows.

Why a module of its own (split from spec/linear.py): the formulas ``build_system``
makes are known as parsed trees (spec/mathexpr.py), so their linear forms can be
computed without evaluating any operator at all: each formula becomes one packed integer
(a signed 64-bit lane per coefficient), then ``Lin`` forms and ``Atom`` rows over the
attempt's leaves, cached per formula text and per system. spec/linear.py defines the
forms and rows themselves; this is the fast road to them for generated systems.
"""

from __future__ import annotations

import re
from typing import Any

from . import mathexpr
from .linear import Lin, _union
from .terms import Fallback

__all__ = ["lin_build_system"]


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
        exprs = [
            _value_of(f, leaves, direct)
            for f in _forms(configs, lambda: mathexpr._parsed(configs, n), n)
        ]
        if len(_SYSTEMS) >= _SYSTEMS_MAX:
            _SYSTEMS.pop(next(iter(_SYSTEMS)))
        _SYSTEMS[key] = (zvars, leaves, exprs)
    names = list(var_names) if var_names else None  # the leaves' names only if the text is read
    return mathexpr.System(
        list(exprs),
        [],
        lambda: mathexpr._system_latex(
            configs,
            lambda: mathexpr._parsed(configs, len(leaves)),
            names if names is not None else [v.const_ref.decl().name() for v in leaves],
        ),
    )
