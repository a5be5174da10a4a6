"""Constants, Params, variables and references to them; ``lift`` of Python values.

Why apart: these are the leaves of every rule; indexing checks (wrong entity kind,
scalar indexed, array used unindexed) happen here when the reference is written.
"""

from __future__ import annotations

import builtins
from typing import Any

from ..domains import Bool, Domain, DSLError
from ..sugar import register_sugar
from .binders import EntityFn, as_set
from .nodes import Expr, pretty_expr, short


class BoolConst(Expr):
    type = "bool"

    def __init__(self, value: bool) -> None:
        self.value = bool(value)
        self.domain = Bool

    def pretty(self, prec: int = 0) -> str:
        return "true" if self.value else "false"


class IntConst(Expr):
    type = "int"

    def __init__(self, value: int) -> None:
        self.value = int(value)

    def pretty(self, prec: int = 0) -> str:
        return str(self.value)


class EnumConst(Expr):
    type = "enum"

    def __init__(self, value: Any) -> None:
        self.value = value

    def pretty(self, prec: int = 0) -> str:
        return repr(self.value)


def lift(value: Any, where: str = "") -> Expr:
    """Python constants become IR constants; anything else must already be an Expr."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return BoolConst(value)
    if isinstance(value, int):
        return IntConst(value)
    if isinstance(value, str):
        return EnumConst(value)
    if isinstance(value, Var):
        return value.ref()
    from ..topology import Cell, Edge, Vertex

    if isinstance(value, (Cell, Edge, Vertex)):
        return EntityFn("entity", None, (value,), kind=type(value).__name__.lower())
    raise DSLError(
        f"{where or 'rule'}: {value!r} ({type(value).__name__}) is not a DSL expression",
        expected="an expression built from Vars, Params, constants and operators",
    )


class Param(Expr):
    """A symbolic integer (board size, box width...) resolved when a genre binds an
    instance (``Genre.bind``)."""

    type = "int"

    def __init__(self, name: str, pytype: builtins.type = int) -> None:
        if pytype not in (int, bool):
            raise DSLError(f"Param '{name}' has type {pytype!r}", expected="int or bool")
        self.name = name
        self.pytype = pytype
        if pytype is bool:
            self.type = "bool"
            self.domain = Bool

    def pretty(self, prec: int = 0) -> str:
        return self.name


class Var(Expr):
    """``Var(name, domain, over=set)``: an unknown of the puzzle, one per entity of ``over``.

    ``answer=False`` marks auxiliary variables that are not part of the solution (they are
    left out of uniqueness checks and answers).
    """

    domain: Domain  # always set (an Expr in general may have none)

    def __init__(self, name: str, domain: Domain, *, over: Any = None, answer: bool = True) -> None:
        if not isinstance(domain, Domain):
            raise DSLError(
                f"Var '{name}': {domain!r} is not a domain",
                expected="Bool, Enum(...) or Int(lo, hi)",
            )
        self.name = name
        self.domain = domain
        self.over = as_set(over) if over is not None else None
        self.answer = answer
        self.type = domain.kind

    def ref(self) -> VarRef:
        if self.over is not None:
            raise DSLError(
                f"Var '{self.name}' is an array over {self.over.elem}s; index it",
                expected=f"{self.name}[x] with x a {self.over.elem}",
            )
        return VarRef(self, None)

    def __getitem__(self, index: Any) -> VarRef:
        return VarRef(self, index)

    def get(self, index: Any, default: Any = False) -> VarRef:
        """``var[index]``, or ``default`` where ``index`` is off the board / not in ``over``."""
        return VarRef(self, index, default=default)

    def __call__(self, index: Any) -> VarRef:
        return VarRef(self, index)

    def pretty(self, prec: int = 0) -> str:
        return self.name


class Const(Var):
    """Instance data: ``Const(domain, value, over=set, name=...)``.

    The value is a constant, a mapping entity -> value, or left ``None`` and supplied by
    name as instance data (``inst.data[name]``). Grounding evaluates references to constants,
    so rules over them fold away (regions of Star Battle, walls of Light Up).
    """

    def __init__(
        self, domain: Domain, value: Any = None, *, over: Any = None, name: str | None = None
    ) -> None:
        super().__init__(name or "const", domain, over=over, answer=False)
        self.value = value

    def ref(self) -> VarRef:
        if self.over is not None:
            raise DSLError(
                f"Const '{self.name}' is an array over {self.over.elem}s; index it",
                expected=f"{self.name}[x]",
            )
        return ConstRef(self, None)

    def __getitem__(self, index: Any) -> VarRef:
        return ConstRef(self, index)

    def get(self, index: Any, default: Any = False) -> VarRef:
        return ConstRef(self, index, default=default)

    def __call__(self, index: Any) -> VarRef:
        return ConstRef(self, index)


class VarRef(Expr):
    def __init__(self, var: Var, index: Any, default: Any = None) -> None:
        self.var = var
        self.domain = var.domain
        self.type = var.domain.kind
        if index is None:
            if var.over is not None:
                raise DSLError(
                    f"Var '{var.name}' is an array over {var.over.elem}s; index it",
                    expected=f"{var.name}[x]",
                )
            self.index = None
        else:
            if var.over is None:
                raise DSLError(
                    f"Var '{var.name}' is a scalar and cannot be indexed",
                    expected=f"{var.name} used directly",
                )
            idx = lift(index, f"index of {var.name}")
            if idx.type != "entity":
                raise DSLError(
                    f"{var.name}[...] indexed by a {idx.type} expression ({short(idx)})",
                    expected=f"a {var.over.elem} (a binder of forall over {var.over.elem}s)",
                )
            want = var.over.elem
            if idx.kind and want and idx.kind != want and want != "any":
                raise DSLError(
                    f"{var.name} is defined over {want}s but indexed by a {idx.kind} "
                    f"({short(idx)})",
                    expected=f"a {want}",
                )
            self.index = idx
        self.default = None if default is None else lift(default)

    def children(self) -> tuple:
        return tuple(x for x in (self.index, self.default) if x is not None)

    def pretty(self, prec: int = 0) -> str:
        if self.index is None:
            return self.var.name
        text = f"{self.var.name}[{pretty_expr(self.index)}]"
        if self.default is not None:
            text += f"?{pretty_expr(self.default)}"
        return text


class ConstRef(VarRef):
    pass


register_sugar(Var)
