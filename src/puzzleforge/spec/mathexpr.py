"""Random arithmetic formulas in the format's serialized S-expression form.

Why: specs call ``generate_formulas``, ``build_system`` and ``get_formula_value`` and
store the serialized text (``"(Add (Var 0) (Mul (Const 3) (Var 1)))"``) in variables and
in the puzzle config, so the text form is part of the format. This module implements that
grammar from its documentation: nodes Var, Const, Add, Sub, Mul, Div, Power (x^2, x^3 of
a variable) and Cmp (``<= >= == < >``); LaTeX rendering; Z3 translation with a
non-zero-denominator side condition; evaluation.
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import z3

from .mathz3 import translate_real

__all__ = ["generate_formulas", "build_system", "get_formula_value", "parse_formula"]

_TOKEN = re.compile(r"[()]|[^()\s]+")
_CMP_OPS = ("<=", ">=", "==", "<", ">")
_CMP_LATEX = {"<=": r"\leq", ">=": r"\geq", "==": "=", "<": "<", ">": ">"}


def _number(text: str) -> int | float:
    if "." not in text and "e" not in text.lower():
        try:
            return int(text)
        except ValueError:
            pass
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a number") from None


def parse_formula(text: str, vars_num: int) -> tuple:
    """Parse serialized text into nested tuples: ('Var', i), ('Const', v), (op, a, b)..."""
    # the tokens of _TOKEN (parentheses, runs of other non-space characters) without the
    # regex: str.split's whitespace is the regex's \s (both str.isspace), and a third of
    # the parse's time was the regex
    tokens = str(text).replace("(", " ( ").replace(")", " ) ").split()
    stack: list[list] = []
    cur: list = []
    for tok in tokens:
        if tok == "(":
            stack.append(cur)
            cur = []
        elif tok == ")":
            if not stack:
                raise ValueError("unbalanced parentheses in formula")
            parent = stack.pop()
            parent.append(cur)
            cur = parent
        else:
            cur.append(tok)
    if stack or len(cur) != 1:
        raise ValueError(f"malformed formula: {text}")

    def build(part: Any) -> tuple:
        if not isinstance(part, list):
            return ("Const", _number(part))
        head = part[0] if part else ""
        if head == "Var":
            idx = int(part[1])
            if not 0 <= idx < vars_num:
                raise ValueError(f"variable index {idx} out of range for {vars_num} variables")
            return ("Var", idx)
        if head == "Const":
            return ("Const", _number(part[1]))
        if head in ("Add", "Sub", "Mul", "Div"):
            if len(part) != 3:
                raise ValueError(f"{head} takes two arguments")
            return (head, build(part[1]), build(part[2]))
        if head == "Power":
            base = build(part[1])
            exp = int(part[2])
            if base[0] != "Var" or exp < 1:
                raise ValueError("Power needs a variable base and a positive exponent")
            return ("Power", base, exp)
        if head == "Cmp":
            if len(part) != 4 or part[1] not in _CMP_LATEX:
                raise ValueError("Cmp takes an operator and two arguments")
            return ("Cmp", part[1], build(part[2]), build(part[3]))
        raise ValueError(f"unknown formula node '{head}'")

    tree = build(cur[0])
    del build  # the recursive closure is a reference cycle: free it now, not at a GC pass
    return tree


def _serialize(node: tuple) -> str:
    kind = node[0]
    if kind == "Var":
        return f"(Var {node[1]})"
    if kind == "Const":
        return f"(Const {node[1]})"
    if kind == "Power":
        return f"(Power {_serialize(node[1])} {node[2]})"
    if kind == "Cmp":
        return f"(Cmp {node[1]} {_serialize(node[2])} {_serialize(node[3])})"
    return f"({kind} {_serialize(node[1])} {_serialize(node[2])})"


def _gen(rng: random.Random, n: int, depth: int, max_depth: int, allow_const: bool,
         force_var: bool, allow_power: bool, max_const: int = 10) -> tuple:
    if depth >= max_depth:
        if force_var or not allow_const:
            return ("Var", rng.randint(0, n - 1))
        return rng.choice([("Var", rng.randint(0, n - 1)), ("Const", rng.randint(1, max_const))])
    ops = ["Add", "Sub", "Mul"] + (["Power"] if allow_power else [])
    weights = [4, 3, 2] + ([1] if allow_power else [])
    op = rng.choices(ops, weights=weights, k=1)[0]
    if op == "Power":
        return ("Power", ("Var", rng.randint(0, n - 1)), rng.choice([2, 3]))
    if op == "Mul":
        left = _gen(rng, n, depth + 1, max_depth, True, False, allow_power, max_const)
        if left[0] == "Const":
            right = _gen(rng, n, depth + 1, max_depth, False, True, allow_power, max_const)
        else:
            right = ("Const", rng.randint(2, max_const))
        return ("Mul", left, right)
    left = _gen(rng, n, depth + 1, max_depth, allow_const, False, allow_power, max_const)
    right = _gen(rng, n, depth + 1, max_depth, allow_const, False, allow_power, max_const)
    if left[0] == "Const" and right[0] == "Const":
        if rng.choice([True, False]):
            left = ("Var", rng.randint(0, n - 1))
        else:
            right = ("Var", rng.randint(0, n - 1))
    return (op, left, right)


def _gen_plain(rng: random.Random, n: int, max_depth: int, allow_power: bool,
               max_const: int = 10) -> tuple[Any, Any]:
    """``_gen(rng, n, 0, max_depth, True, False, allow_power)`` for a plain ``random.Random``,
    as (kind, text, packed linear form, LaTeX template) instead of a tree: returns
    ``(one, close)``, ``one()`` drawing one formula (the generator is made once for all
    the formulas of a call) and ``close()`` freeing it (its recursion is a reference cycle).

    Why: formula generation and the walks over its trees (serialising, linearising for
    spec/linear.py) were a third of a 38-linearprog attempt, and most attempts are
    rejected before anything needs the tree. This makes the very same draws in the same
    order through what the public methods call for a plain Random: ``randint(a, b)`` is
    ``a + _randbelow(b - a + 1)``, ``choice(s)`` is ``s[_randbelow(len(s))]``,
    ``choices(ops, weights)`` a bisection of ``random() * total`` in the cumulative
    weights, and ``_randbelow(m)`` is ``r = getrandbits(m.bit_length())`` until ``r < m``
    (written out at each draw). tests/spec/test_spec_mathz3.py compares both paths.

    kind: "V" (variable), "C" (constant), "E" (anything else); text: the serialized form;
    form: spec/linear.py's packed linear form (an int: lane 0 the constant, lane j+1 the
    coefficient of variable j; a constant is its value), None once a Power occurs;
    latex: ``_latex``'s text as a ``str.format`` template over the variable names.
    Every "E" or "V" node holds a variable (a constant pair gets one), so the kind alone
    tells a number from a form. A node just above the leaves draws its leaves inline
    (the same draws as the leaf calls; about half the calls are leaves).
    """
    grb, rand = rng.getrandbits, rng.random
    kn, kc, kc1 = n.bit_length(), max_const.bit_length(), (max_const - 1).bit_length()
    # choices' cumulative weights (4, 7, 9[, 10]): the bisection of random() * total in
    # them, written as comparisons (the same index: x < 4 -> Add, < 7 -> Sub, ...)
    total = 10.0 if allow_power else 9.0
    power = allow_power
    lane = _FORM_LANE

    # leaves are shared immutable tuples, made once per (n, max_const)
    leaves = _LEAVES.get((n, max_const))
    if leaves is None:
        if len(_LEAVES) >= 64:
            _LEAVES.clear()
        leaves = _LEAVES[(n, max_const)] = (
            [("V", f"(Var {r})", 1 << (lane * (r + 1)), f"{{{r}}}") for r in range(n)],
            [("C", f"(Const {v})", v, f"{v}") for v in range(max_const + 1)])
    var, const = leaves  # indexed directly (a list subscript is cheaper than a call)

    last = max_depth - 1  # a node at this depth has leaves as children: drawn inline

    def gen(depth: int, allow_const: bool, force_var: bool) -> tuple:
        if depth >= max_depth:
            r = grb(kn)
            while r >= n:
                r = grb(kn)
            if force_var or not allow_const:
                return var[r]
            c = grb(kc)
            while c >= max_const:
                c = grb(kc)
            b = grb(2)
            while b >= 2:
                b = grb(2)
            return const[1 + c] if b else var[r]
        x = rand() * total
        op = 0 if x < 4.0 else 1 if x < 7.0 else 2 if x < 9.0 or not power else 3  # Add Sub Mul Power
        if op == 3:
            r = grb(kn)
            while r >= n:
                r = grb(kn)
            b = grb(2)
            while b >= 2:
                b = grb(2)
            k = 3 if b else 2
            return ("E", f"(Power (Var {r}) {k})", None, f"{{{r}}}^{{{{{k}}}}}")
        if op == 2:
            if depth == last:  # gen(depth + 1, True, False), then gen(depth + 1, False, True)
                r = grb(kn)
                while r >= n:
                    r = grb(kn)
                c = grb(kc)
                while c >= max_const:
                    c = grb(kc)
                b = grb(2)
                while b >= 2:
                    b = grb(2)
                if b:
                    left = const[1 + c]
                    r = grb(kn)
                    while r >= n:
                        r = grb(kn)
                    right = var[r]
                else:
                    left = var[r]
                    r = grb(kc1)
                    while r >= max_const - 1:
                        r = grb(kc1)
                    right = const[2 + r]
            else:
                left = gen(depth + 1, True, False)
                if left[0] == "C":
                    right = gen(depth + 1, False, True)
                else:
                    r = grb(kc1)
                    while r >= max_const - 1:
                        r = grb(kc1)
                    right = const[2 + r]
            lf, rf = left[2], right[2]
            return ("E", f"(Mul {left[1]} {right[1]})", None if lf is None or rf is None else lf * rf,
                    f"{left[3]} \\cdot {right[3]}")
        if depth == last:  # two gen(depth + 1, allow_const, False)
            r = grb(kn)
            while r >= n:
                r = grb(kn)
            if allow_const:
                c = grb(kc)
                while c >= max_const:
                    c = grb(kc)
                b = grb(2)
                while b >= 2:
                    b = grb(2)
                left = const[1 + c] if b else var[r]
                r = grb(kn)
                while r >= n:
                    r = grb(kn)
                c = grb(kc)
                while c >= max_const:
                    c = grb(kc)
                b = grb(2)
                while b >= 2:
                    b = grb(2)
                right = const[1 + c] if b else var[r]
                if left[0] == "C" and right[0] == "C":  # two constants: one becomes a variable
                    b = grb(2)
                    while b >= 2:
                        b = grb(2)
                    r = grb(kn)
                    while r >= n:
                        r = grb(kn)
                    if b:
                        right = var[r]
                    else:
                        left = var[r]
            else:
                left = var[r]
                r = grb(kn)
                while r >= n:
                    r = grb(kn)
                right = var[r]
        else:  # inner children are operator nodes ("E"), never two constants
            left = gen(depth + 1, allow_const, False)
            right = gen(depth + 1, allow_const, False)
        lf, rf = left[2], right[2]
        if op:
            return ("E", f"(Sub {left[1]} {right[1]})", None if lf is None or rf is None else lf - rf,
                    f"({left[3]} - {right[3]})")
        return ("E", f"(Add {left[1]} {right[1]})", None if lf is None or rf is None else lf + rf,
                f"({left[3]} + {right[3]})")

    def one() -> tuple:
        return gen(0, True, False)

    def close() -> None:
        nonlocal gen
        gen = None  # type: ignore[assignment] - breaks the cycle, freed at once, not at a GC pass

    return one, close


#: Lane width of the packed forms (spec/linear.py reads them with the same width).
_FORM_LANE = 64
#: ``_gen_plain``'s leaf tuples (variables, constants) by (n, max_const): immutable, shared.
_LEAVES: dict[tuple[int, int], tuple] = {}
#: Packed forms of generated formulas by (text, number of variables), for spec/linear.py:
#: ("lin", packed) or ("row", op, packed). Only when no coefficient can reach 2**62.
GENERATED_FORMS: dict[tuple, tuple] = {}
_GENERATED_FORMS_MAX = 256
#: LaTeX templates of generated formulas by (text, number of variables): ``_latex`` of
#: the text's parse is ``template.format(*names)`` (the description needs no parse).
GENERATED_LATEX: dict[tuple, str] = {}


def _valid(node: tuple, allow_power: bool, used: set[int]) -> bool:
    kind = node[0]
    if kind == "Var":
        used.add(node[1])
        return True
    if kind == "Const":
        return True
    if kind == "Power":
        if not allow_power:
            return False
        used.add(node[1][1])
        return True
    if kind == "Cmp":
        return _valid(node[2], allow_power, used) and _valid(node[3], allow_power, used)
    if kind == "Mul" and node[1][0] != "Const" and node[2][0] != "Const":
        return False
    return _valid(node[1], allow_power, used) and _valid(node[2], allow_power, used)


def generate_formulas(rng: random.Random, formula_num: int, vars_num: int, is_cond: bool = False,
                      allow_power: bool = True, max_depth: int = 5) -> list[str]:
    """Up to ``formula_num`` distinct random formulas over ``vars_num`` variables."""
    if (type(rng) is random.Random and vars_num >= 1
            and random.Random._randbelow is random.Random._randbelow_with_getrandbits):
        one, close = _gen_plain(rng, vars_num, max_depth, allow_power)
        try:
            return _plain_formulas(rng, one, formula_num, vars_num, is_cond, max_depth)
        finally:
            close()
    out: list[str] = []
    attempts = 0
    while len(out) < formula_num and attempts < formula_num * 10:
        attempts += 1
        expr = _gen(rng, vars_num, 0, max_depth, True, False, allow_power)
        if is_cond:
            expr = ("Cmp", rng.choice(["<=", ">=", "==", "<", ">"]), expr, ("Const", 0))
        used: set[int] = set()
        if not _valid(expr, allow_power, used) or not used:
            continue
        text = _serialize(expr)
        if text not in out:
            out.append(text)
            _remember(text, vars_num, expr)  # build_system parses these texts next
    if not out:
        raise ValueError(f"no valid formula after {formula_num * 10} attempts")
    return out


def _plain_formulas(rng: random.Random, one: Any, formula_num: int, vars_num: int, is_cond: bool,
                    max_depth: int) -> list[str]:
    """``generate_formulas``'s loop over ``_gen_plain`` (a plain Random: the same draws)."""
    out: list[str] = []
    attempts = 0
    # packed forms only while no coefficient can reach 2**62: each level at most doubles
    # (Add, Sub) or multiplies by a constant (Mul) the largest one
    packed = max_depth >= 0 and (2 * 10) ** max_depth < 2 ** 62
    while len(out) < formula_num and attempts < formula_num * 10:
        attempts += 1
        # valid by construction (a Mul has a constant side, a Power only when allowed):
        # the one check left is that a variable occurs
        kind, text, form, latex = one()
        if is_cond:  # rng.choice of 5: _randbelow(5), written out
            r = rng.getrandbits(3)
            while r >= 5:
                r = rng.getrandbits(3)
            op = _CMP_OPS[r]
            text = f"(Cmp {op} {text} (Const 0))"
            latex = f"{latex} {_CMP_LATEX[op]} 0"
        if kind == "C":
            continue
        if text not in out:
            out.append(text)
            if len(GENERATED_LATEX) >= _GENERATED_FORMS_MAX:
                # drop the oldest entry, not all: clearing could drop this attempt's
                # earlier formulas, which then had to be parsed (a few % of attempts)
                del GENERATED_LATEX[next(iter(GENERATED_LATEX))]
            GENERATED_LATEX[(text, vars_num)] = latex
            if packed and form is not None:
                if len(GENERATED_FORMS) >= _GENERATED_FORMS_MAX:
                    del GENERATED_FORMS[next(iter(GENERATED_FORMS))]
                GENERATED_FORMS[(text, vars_num)] = ("row", op, form) if is_cond else ("lin", form)
    if not out:
        raise ValueError(f"no valid formula after {formula_num * 10} attempts")
    return out


def _to_z3(node: tuple, zs: list, side: list) -> Any:
    kind = node[0]
    if kind == "Var":
        return zs[node[1]]
    if kind == "Const":
        return node[1]
    if kind == "Power":
        base = _to_z3(node[1], zs, side)
        if not isinstance(base, z3.ExprRef):
            base = z3.RealVal(base)
        return base ** node[2]
    if kind == "Cmp":
        a, b = _to_z3(node[2], zs, side), _to_z3(node[3], zs, side)
        return {"<=": lambda: a <= b, ">=": lambda: a >= b, "==": lambda: a == b,
                "<": lambda: a < b, ">": lambda: a > b}[node[1]]()
    a, b = _to_z3(node[1], zs, side), _to_z3(node[2], zs, side)
    if kind == "Add":
        return a + b
    if kind == "Sub":
        return a - b
    if kind == "Mul":
        return a * b
    num = a if isinstance(a, z3.ExprRef) else z3.RealVal(a)
    den = b if isinstance(b, z3.ExprRef) else z3.RealVal(b)
    if z3.is_int(num):
        num = z3.ToReal(num)
    if z3.is_int(den):
        den = z3.ToReal(den)
    side.append(den != 0)
    return num / den


def _latex(node: tuple, names: list[str]) -> str:
    kind = node[0]
    if kind == "Var":
        return str(names[node[1]])
    if kind == "Const":
        return f"{node[1]}"
    if kind == "Power":
        return f"{_latex(node[1], names)}^{{{node[2]}}}"
    if kind == "Cmp":
        return f"{_latex(node[2], names)} {_CMP_LATEX[node[1]]} {_latex(node[3], names)}"
    if kind == "Add":
        return f"({_latex(node[1], names)} + {_latex(node[2], names)})"
    if kind == "Sub":
        return f"({_latex(node[1], names)} - {_latex(node[2], names)})"
    if kind == "Mul":
        return f"{_latex(node[1], names)} \\cdot {_latex(node[2], names)}"
    return f"\\frac{{{_latex(node[1], names)}}}{{{_latex(node[2], names)}}}"


def _value(node: tuple, values: list) -> Any:
    kind = node[0]
    if kind == "Var":
        return values[node[1]]
    if kind == "Const":
        return node[1]
    if kind == "Power":
        return _value(node[1], values) ** node[2]
    if kind == "Cmp":
        a, b = _value(node[2], values), _value(node[3], values)
        return {"<=": a <= b, ">=": a >= b, "==": a == b, "<": a < b, ">": a > b}[node[1]]
    a, b = _value(node[1], values), _value(node[2], values)
    if kind == "Add":
        return a + b
    if kind == "Sub":
        return a - b
    if kind == "Mul":
        return a * b
    if b == 0:
        raise ValueError("division by zero")
    return a / b


#: Recent build_system translations: specs call it several times per attempt with the
#: same formulas and variables (38-linearprog: 6 calls, 2 distinct). Keyed by the formula
#: texts, the variables' AST ids and their context; an entry keeps its variables alive,
#: so their ids cannot be reused.
_SYSTEMS: dict[tuple, tuple] = {}
_SYSTEMS_MAX = 8
#: Parsed formulas by (text, number of variables): the same text is parsed by several
#: build_system/get_formula_value calls of an attempt. Nodes are immutable tuples.
_PARSED: dict[tuple, tuple] = {}
_PARSED_MAX = 256
#: LaTeX text by (formula texts, names).
_LATEX: dict[tuple, str] = {}
_LATEX_MAX = 32


def _remember(text: str, n: int, node: tuple) -> None:
    """Record a generated formula's tree as its text's parse (the same tuple, see tests)."""
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[(text, n)] = node


def _parse_cached(text: Any, n: int) -> tuple:
    key = (str(text), n)
    node = _PARSED.get(key)
    if node is None:
        node = parse_formula(key[0], n)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = node
    return node


def _parsed(configs: list[str], n: int) -> list[tuple]:
    return [_parse_cached(c, n) for c in configs]


def _translate(nodes: list[tuple], zs: list) -> tuple[list, list]:
    """Z3 terms and side conditions: through the C API when it covers the formulas."""
    fast = translate_real(nodes, zs)
    if fast is not None:
        return fast
    exprs: list = []
    side: list = []
    for node in nodes:
        exprs.append(_to_z3(node, zs, side))
    return exprs, side


def _system_latex(configs: list[str], nodes: Any, names: list[str]) -> str:
    """The LaTeX of a system; ``nodes``: the parsed formulas, or a callable giving them."""
    key = (tuple(map(str, configs)), tuple(map(str, names)))
    text = _LATEX.get(key)
    if text is None:
        templates = [GENERATED_LATEX.get((c, len(names))) for c in key[0]]
        if all(t is not None for t in templates):
            parts = [t.format(*names) for t in templates]
        else:
            parts = [_latex(n, names) for n in (nodes() if callable(nodes) else nodes)]
        if len(parts) > 1:
            text = r"\begin{cases} " + r" \\ ".join(parts) + r" \end{cases}"
        else:
            text = parts[0]
        if len(_LATEX) >= _LATEX_MAX:
            _LATEX.clear()
        _LATEX[key] = text
    return text


class System(Mapping):
    """build_system's result: ``z3_expr``, ``z3_constraint``, ``latex_str``, each made on first use.

    Why lazy: a spec reads the terms in its conditions and the LaTeX text in its
    description, usually from separate calls (38-linearprog). Rejected attempts never
    render their LaTeX, and the description's call never builds Z3 terms.
    """

    _KEYS = ("z3_expr", "z3_constraint", "latex_str")

    def __init__(self, exprs: Any, side: Any, latex: Any) -> None:
        # exprs/side: lists, or one callable for both (returning (exprs, side)); latex: callable
        self._terms = (exprs, side) if not callable(exprs) else None
        self._make_terms = exprs if callable(exprs) else None
        self._latex = latex
        self._text: str | None = None

    def __getitem__(self, key: str) -> Any:
        if key == "latex_str":
            if self._text is None:
                self._text = self._latex()
            return self._text
        if key not in ("z3_expr", "z3_constraint"):
            raise KeyError(key)
        if self._terms is None:
            self._terms = self._make_terms()
        return self._terms[0] if key == "z3_expr" else self._terms[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return len(self._KEYS)

    def __repr__(self) -> str:
        return repr(dict(self))


def _z3_system(configs: list[str], zs: list, nodes: list[tuple]) -> tuple[list, list]:
    """The Z3 terms of a system (cached: see ``_SYSTEMS``)."""
    key = None
    if all(isinstance(v, z3.ExprRef) for v in zs):
        key = (tuple(str(c) for c in configs), tuple(v.get_id() for v in zs),
               id(zs[0].ctx) if zs else None)
    hit = _SYSTEMS.get(key) if key is not None else None
    if hit is not None and all(a.eq(b) for a, b in zip(hit[0], zs)):
        return list(hit[2]), list(hit[3])
    exprs, side = _translate(nodes, zs)
    if key is not None:
        if len(_SYSTEMS) >= _SYSTEMS_MAX:
            _SYSTEMS.pop(next(iter(_SYSTEMS)))
        _SYSTEMS[key] = (zs, nodes, tuple(exprs), tuple(side))
    return exprs, side


def build_system(configs: list[str], zvars: Any, var_names: list[str] | None = None) -> System:
    """Z3 expressions, side constraints and LaTeX text of a list of serialized formulas."""
    zs = list(zvars)
    names = list(var_names) if var_names else None  # the variables' names only if the text is read
    # parsed only when the terms (or a LaTeX text without a generator's template) are asked
    # for; a malformed formula fails there, inside the same spec expression
    return System(lambda: _z3_system(configs, zs, _parsed(configs, len(zs))), None, lambda: _system_latex(
        configs, lambda: _parsed(configs, len(zs)),
        names if names is not None else [v.decl().name() for v in zs]))


def get_formula_value(config: str, values: list) -> Any:
    """Value of a serialized formula for the given variable values ("Error: ..." on failure)."""
    node = _parse_cached(config, len(values))
    try:
        return _value(node, list(values))
    except (ValueError, ZeroDivisionError, TypeError, OverflowError) as exc:
        return f"Error: {exc}"
