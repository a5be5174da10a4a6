"""The DSL's expression IR: parameters, variables, operators, aggregates, quantifiers.

Why eager IR: rule code runs once, when it is written; every constructor checks its
arguments right away (domain compatibility, Boolean vs integer use), so a misuse is
reported at the line that made it, and the IR is complete and printable before any size
is known. Lambdas given to quantifiers and aggregates are called once with a symbolic
binder; the grounder substitutes concrete entities later.

Modules: ``nodes`` (base classes, operator sugar), ``checks`` (rule-time checks),
``binders`` (binders, entity expressions), ``refs`` (constants, Params, Vars),
``logic`` (Boolean, comparison, arithmetic nodes), ``aggregates`` (Sum, CountTrue,
forall, exists), ``sets`` (entity sets, ``walk``). This package re-exports them all.

>>> from puzzleforge.grid import Grid, Param, Bool, forall
>>> n = Param("n", int)
>>> g = Grid(n, n)
>>> color = Bool.over(g.C, name="color")
>>> rule = forall(g.rows, lambda r: r.sum_of(color) == n // 2)
>>> rule.type
'bool'
"""

from __future__ import annotations

from .aggregates import (  # noqa: F401
    Aggregate,
    Card,
    CountTrue,
    Exists,
    ForAll,
    IndexIn,
    Quant,
    Sum,
    _apply,
    _binder_name,
    exists,
    forall,
)
from .binders import Attr, Binder, BinderSet, EntityFn, as_set
from .checks import _need, assert_no_pending  # noqa: F401
from .logic import (
    Add,
    And,
    Arith,
    Cmp,
    Div,
    Eq,
    Ge,
    Gt,
    If,
    Implies,
    Le,
    Lt,
    Mul,
    Ne,
    Not,
    Or,
    Sub,
)

# nodes first: the other modules subclass its classes. Private helpers (_need, _apply,
# _binder_name, assert_no_pending, short, walk) are re-exported for model.py and primitives.py.
from .nodes import Expr, Node, SetExpr, short  # noqa: F401
from .refs import (
    BoolConst,
    Const,
    ConstRef,
    EnumConst,
    IntConst,
    Param,
    Var,
    VarRef,
    lift,
)
from .sets import Before, Difference, GridSet, Range, Union, Windows, walk  # noqa: F401

__all__ = [
    "Node",
    "Expr",
    "SetExpr",
    "Param",
    "Var",
    "Const",
    "VarRef",
    "ConstRef",
    "Binder",
    "BoolConst",
    "IntConst",
    "EnumConst",
    "lift",
    "And",
    "Or",
    "Not",
    "Implies",
    "Eq",
    "Ne",
    "Lt",
    "Le",
    "Gt",
    "Ge",
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Sum",
    "CountTrue",
    "ForAll",
    "Exists",
    "forall",
    "exists",
    "EntityFn",
    "Attr",
    "Card",
    "IndexIn",
    "Cmp",
    "Arith",
    "Aggregate",
    "Quant",
    "GridSet",
    "Windows",
    "Union",
    "Difference",
    "BinderSet",
    "Range",
    "Before",
    "as_set",
    "If",
]
