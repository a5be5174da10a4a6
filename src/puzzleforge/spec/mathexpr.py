"""Arithmetic formulas in the format's serialized S-expression form: grammar and meaning.

Why: specs call ``generate_formulas``, ``build_system`` and ``get_formula_value`` and
store the serialized text (``"(Add (Var 0) (Mul (Const 3) (Var 1)))"``) in variables and
in the puzzle config, so the text form is part of the format. This module implements that
grammar from its documentation: nodes Var, Const, Add, Sub, Mul, Div, Power (x^2, x^3 of
a variable) and Cmp (``<= >= == < >``); LaTeX rendering; Z3 translation with a
non-zero-denominator side condition; evaluation. The random generator of such texts
(``generate_formulas``) is spec/formulagen.py; it records what it already knows of each
text it makes (parse, LaTeX template, packed linear form) in this module's tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import z3

from .mathz3 import translate_real

__all__ = ["build_system", "get_formula_value", "parse_formula"]

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


def _build(part: Any, vars_num: int) -> tuple:
    """One node of a parsed formula as a tuple; module-level (not a closure in parse_formula)
    so the recursion makes no reference cycle to free."""
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
        return (head, _build(part[1], vars_num), _build(part[2], vars_num))
    if head == "Power":
        base = _build(part[1], vars_num)
        exp = int(part[2])
        if base[0] != "Var" or exp < 1:
            raise ValueError("Power needs a variable base and a positive exponent")
        return ("Power", base, exp)
    if head == "Cmp":
        if len(part) != 4 or part[1] not in _CMP_LATEX:
            raise ValueError("Cmp takes an operator and two arguments")
        return ("Cmp", part[1], _build(part[2], vars_num), _build(part[3], vars_num))
    raise ValueError(f"unknown formula node '{head}'")


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

    return _build(cur[0], vars_num)


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


#: Lane width of the packed forms (spec/linsystem.py reads them with the same width).
_FORM_LANE = 64
#: Packed forms of generated formulas by (text, number of variables), for spec/linsystem.py:
#: ("lin", packed) or ("row", op, packed). Only when no coefficient can reach 2**62.
GENERATED_FORMS: dict[tuple, tuple] = {}
_GENERATED_FORMS_MAX = 256
#: LaTeX templates of generated formulas by (text, number of variables): ``_latex`` of
#: the text's parse is ``template.format(*names)`` (the description needs no parse).
GENERATED_LATEX: dict[tuple, str] = {}


def _ctx_of(zs: list) -> Any:
    """The context of the formula's unknowns (None only for a formula without Z3 unknowns)."""
    return next((z.ctx for z in zs if isinstance(z, z3.ExprRef)), None)


def _to_z3(node: tuple, zs: list, side: list) -> Any:
    """One parsed formula as Z3 terms over ``zs`` (numbers made in the context of ``zs``)."""
    kind = node[0]
    if kind == "Var":
        return zs[node[1]]
    if kind == "Const":
        return node[1]
    if kind == "Power":
        base = _to_z3(node[1], zs, side)
        if not isinstance(base, z3.ExprRef):
            base = z3.RealVal(base, _ctx_of(zs))
        return base ** node[2]
    if kind == "Cmp":
        a, b = _to_z3(node[2], zs, side), _to_z3(node[3], zs, side)
        return {
            "<=": lambda: a <= b,
            ">=": lambda: a >= b,
            "==": lambda: a == b,
            "<": lambda: a < b,
            ">": lambda: a > b,
        }[node[1]]()
    a, b = _to_z3(node[1], zs, side), _to_z3(node[2], zs, side)
    if kind == "Add":
        return a + b
    if kind == "Sub":
        return a - b
    if kind == "Mul":
        return a * b
    num = a if isinstance(a, z3.ExprRef) else z3.RealVal(a, _ctx_of(zs))
    den = b if isinstance(b, z3.ExprRef) else z3.RealVal(b, _ctx_of(zs))
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
#: so their ids cannot be reused. Module-level but bounded, and output-neutral: a hit is
#: checked term for term (``eq``) and gives the very terms a new translation would.
#: Entries of one context at a time: an entry's terms keep their context alive, and a
#: spec that makes a fresh context per puzzle (37-equation) kept up to 8 finished
#: contexts (~17 MB each) in a process that makes many puzzles (~16 MB more per puzzle
#: up to ~210 MB, where a puzzle needs ~110).
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
            parts = [t.format(*names) for t in templates if t is not None]
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
            make = self._make_terms
            assert make is not None  # __init__ sets one of _terms and _make_terms
            self._terms = make()
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
        key = (
            tuple(str(c) for c in configs),
            tuple(v.get_id() for v in zs),
            id(zs[0].ctx) if zs else None,
        )
    hit = _SYSTEMS.get(key) if key is not None else None
    if hit is not None and all(a.eq(b) for a, b in zip(hit[0], zs, strict=False)):
        return list(hit[2]), list(hit[3])
    exprs, side = _translate(nodes, zs)
    if key is not None:
        if _SYSTEMS and next(iter(_SYSTEMS))[2] != key[2]:
            _SYSTEMS.clear()  # another context's entries (see _SYSTEMS)
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
    return System(
        lambda: _z3_system(configs, zs, _parsed(configs, len(zs))),
        None,
        lambda: _system_latex(
            configs,
            lambda: _parsed(configs, len(zs)),
            names if names is not None else [v.decl().name() for v in zs],
        ),
    )


def get_formula_value(config: str, values: list) -> Any:
    """Value of a serialized formula for the given variable values ("Error: ..." on failure)."""
    node = _parse_cached(config, len(values))
    try:
        return _value(node, list(values))
    except (ValueError, ZeroDivisionError, TypeError, OverflowError) as exc:
        return f"Error: {exc}"
