"""One solution of a spec's constraints as plain Python values, and its canonical order.

Why a module of its own: every solving path (Z3, the exhaustive finite path, the exact
LP path, the nonlinear path) hands its solutions to the spec as ``SolModel`` objects
and sorts them with ``solution_order_key``; none of them needs the operator runtime of
spec/operators.py, which only reads solutions.
"""

from __future__ import annotations

from typing import Any

import z3

from .guards import register_attributes

__all__ = ["SolModel", "ValuesModel", "solution_order_key", "z3_to_py"]


def z3_to_py(value: Any) -> Any:
    """Python value of a Z3 numeral/boolean (floats for rationals, like the format)."""
    if value is None:
        return None
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    if z3.is_int_value(value):
        return value.as_long()
    if z3.is_rational_value(value):
        text = value.as_decimal(10)
        return float(text.rstrip("?"))
    if z3.is_algebraic_value(value):
        return float(value.approx(10).as_decimal(10).rstrip("?"))
    return value


def solution_order_key(value: Any) -> tuple:
    """Sort key of one value in the canonical solution order (absent < numbers < others).

    Why: every enumeration path (Z3, finite, nonlinear) sorts its solutions with this key,
    so ``_solutions`` does not depend on the order in which a solver found them.
    """
    if value is None:
        return (0,)
    if isinstance(value, (bool, int, float)):
        return (1, value)
    return (2, str(value))


class SolModel:
    """One solution: Z3 constants -> Python values, with the ``ModelRef`` access style.

    ``model[x]`` gives the value of constant ``x`` (or ``None`` when ``x`` does not occur
    in the constraints, as with a Z3 model); ``evaluate(expr)`` evaluates any expression.
    Values are plain Python so option formulas over thousands of solutions stay fast.
    """

    __slots__ = ("values", "consts", "_model")

    def __init__(self, values: dict[int, Any], consts: dict[int, Any], model: Any = None) -> None:
        self.values = values
        self.consts = consts
        self._model = model

    def __getitem__(self, key: Any) -> Any:
        try:
            return self.values[key._pf_id]  # symbol constants carry their AST id (SymbolDict)
        except (AttributeError, KeyError):
            pass
        try:
            return self.values[key.get_id()]  # constants are keyed by their (hash-consed) AST id
        except KeyError:
            pass
        except AttributeError:
            raise KeyError(key) from None
        if isinstance(key, z3.FuncDeclRef):
            return self.values.get(key().get_id()) if key.arity() == 0 else None
        if isinstance(key, z3.ExprRef) and not z3.is_const(key):
            return self.evaluate(key)
        return None

    def __contains__(self, key: Any) -> bool:
        return self[key] is not None

    def __iter__(self):
        return iter(self.consts.values())

    def __len__(self) -> int:
        return len(self.values)

    def evaluate(self, expr: Any, model_completion: bool = False) -> Any:
        if not isinstance(expr, z3.ExprRef):
            return expr
        if expr.get_id() in self.values:
            return self.values[expr.get_id()]
        if self._model is not None:
            return z3_to_py(self._model.evaluate(expr, model_completion=model_completion))
        pairs = [(c, _py_to_z3(self.values[k], c)) for k, c in self.consts.items()]
        return z3_to_py(z3.simplify(z3.substitute(expr, *pairs)))

    eval = evaluate

    def decls(self) -> list:
        return [c.decl() for c in self.consts.values()]

    def __repr__(self) -> str:
        return "[" + ", ".join(f"{c} = {self.values[k]}" for k, c in self.consts.items()) + "]"


register_attributes(SolModel, ("evaluate", "eval", "decls"))


class ValuesModel:
    """A Z3 model rebuilt from one solution's values, made only when a spec evaluates an
    expression that is not one of the solution's constants (``SolModel.evaluate``).

    Why: the Z3 enumeration kept the solver's ``ModelRef`` of every solution alive until
    the attempt ended, ~11 KB of Z3 memory each: 56-award enumerates 3,728 models in one
    attempt (~41 MB of its peak). ``collect_models`` (spec/modelloop.py) keeps this
    stand-in instead only where it evaluates exactly as the solver's model would: every
    constant is an Int or a Bool (its Python value is exact), the model interprets exactly
    the solution's constants and no function. Built once and kept, like the model it
    replaces (model completion adds to it as it would to that one).
    """

    __slots__ = ("values", "consts", "model")

    def __init__(self, values: dict[int, Any], consts: dict[int, Any]) -> None:
        self.values = values
        self.consts = consts
        self.model: Any = None

    def evaluate(self, expr: Any, model_completion: bool = False) -> Any:
        if self.model is None:
            self.model = z3.Model(expr.ctx)
            for k, c in self.consts.items():
                self.model.update_value(c, _py_to_z3(self.values[k], c))
        return self.model.evaluate(expr, model_completion=model_completion)

    eval = evaluate


def _py_to_z3(value: Any, like: Any) -> Any:
    if z3.is_bool(like):
        return z3.BoolVal(bool(value), like.ctx)
    if z3.is_int(like):
        return z3.IntVal(int(value), like.ctx)
    return z3.RealVal(value, like.ctx)
