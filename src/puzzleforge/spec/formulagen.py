"""Random arithmetic formulas in the format's serialized S-expression form: the generator.

Why a module of its own: ``generate_formulas`` draws random formula trees (and, for a
plain ``random.Random``, the same formulas through a faster generator that builds
their text, packed linear form and LaTeX template in one pass); spec/mathexpr.py owns
the grammar the texts are written in (parsing, LaTeX, Z3 translation, evaluation) and
the records of generated formulas that this module fills for it and spec/linsystem.py.
"""

from __future__ import annotations

import random
from typing import Any

from .mathexpr import (
    _CMP_LATEX,
    _CMP_OPS,
    _FORM_LANE,
    _GENERATED_FORMS_MAX,
    GENERATED_FORMS,
    GENERATED_LATEX,
    _remember,
    _serialize,
)

__all__ = ["generate_formulas"]


def _gen(
    rng: random.Random,
    n: int,
    depth: int,
    max_depth: int,
    allow_const: bool,
    force_var: bool,
    allow_power: bool,
    max_const: int = 10,
) -> tuple:
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


def _gen_plain(
    rng: random.Random, n: int, max_depth: int, allow_power: bool, max_const: int = 10
) -> tuple[Any, Any]:
    """``_gen(rng, n, 0, max_depth, True, False, allow_power)`` for a plain ``random.Random``,
    as (kind, text, packed linear form, LaTeX template) instead of a tree: returns
    ``(one, close)``, ``one()`` drawing one formula (the generator is made once for all
    the formulas of a call) and ``close()`` freeing it (its recursion is a reference cycle).

    Why: formula generation and the walks over its trees (serialising, linearising for
    spec/linsystem.py) were a third of a 38-linearprog attempt, and most attempts are
    rejected before anything needs the tree. This makes the very same draws in the same
    order through what the public methods call for a plain Random: ``randint(a, b)`` is
    ``a + _randbelow(b - a + 1)``, ``choice(s)`` is ``s[_randbelow(len(s))]``,
    ``choices(ops, weights)`` a bisection of ``random() * total`` in the cumulative
    weights, and ``_randbelow(m)`` is ``r = getrandbits(m.bit_length())`` until ``r < m``
    (written out at each draw). tests/spec/test_spec_mathz3.py compares both paths.

    kind: "V" (variable), "C" (constant), "E" (anything else); text: the serialized form;
    form: spec/linsystem.py's packed linear form (an int: lane 0 the constant, lane j+1 the
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
            [("C", f"(Const {v})", v, f"{v}") for v in range(max_const + 1)],
        )
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
        op = (
            0 if x < 4.0 else 1 if x < 7.0 else 2 if x < 9.0 or not power else 3
        )  # Add Sub Mul Power
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
            return (
                "E",
                f"(Mul {left[1]} {right[1]})",
                None if lf is None or rf is None else lf * rf,
                f"{left[3]} \\cdot {right[3]}",
            )
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
            return (
                "E",
                f"(Sub {left[1]} {right[1]})",
                None if lf is None or rf is None else lf - rf,
                f"({left[3]} - {right[3]})",
            )
        return (
            "E",
            f"(Add {left[1]} {right[1]})",
            None if lf is None or rf is None else lf + rf,
            f"({left[3]} + {right[3]})",
        )

    def one() -> tuple:
        return gen(0, True, False)

    def close() -> None:
        nonlocal gen
        gen = None  # type: ignore[assignment]  # breaks the cycle, freed at once, not at a GC pass

    return one, close


#: ``_gen_plain``'s leaf tuples (variables, constants) by (n, max_const): immutable, shared.
_LEAVES: dict[tuple[int, int], tuple] = {}


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


def generate_formulas(
    rng: random.Random,
    formula_num: int,
    vars_num: int,
    is_cond: bool = False,
    allow_power: bool = True,
    max_depth: int = 5,
) -> list[str]:
    """Up to ``formula_num`` distinct random formulas over ``vars_num`` variables."""
    if (
        type(rng) is random.Random
        and vars_num >= 1
        and random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
    ):
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


def _plain_formulas(
    rng: random.Random, one: Any, formula_num: int, vars_num: int, is_cond: bool, max_depth: int
) -> list[str]:
    """``generate_formulas``'s loop over ``_gen_plain`` (a plain Random: the same draws)."""
    out: list[str] = []
    attempts = 0
    # packed forms only while no coefficient can reach 2**62: each level at most doubles
    # (Add, Sub) or multiplies by a constant (Mul) the largest one
    packed = max_depth >= 0 and (2 * 10) ** max_depth < 2**62
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
