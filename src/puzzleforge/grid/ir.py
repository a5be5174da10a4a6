"""The DSL's expression IR: parameters, variables, operators, aggregates, quantifiers.

Why eager IR: rule code runs once, when it is written; every constructor checks its
arguments right away (domain compatibility, Boolean vs integer use), so a misuse is
reported at the line that made it, and the IR is complete and printable before any size
is known. Lambdas given to quantifiers and aggregates are called once with a symbolic
binder; the grounder substitutes concrete entities later.

>>> from puzzleforge.grid import Grid, Param, Bool, forall
>>> n = Param("n", int)
>>> g = Grid(n, n)
>>> color = Bool.over(g.C, name="color")
>>> rule = forall(g.rows, lambda r: r.sum_of(color) == n // 2)
>>> rule.type
'bool'
"""
from __future__ import annotations

import inspect
import threading
from typing import Any, Callable, Iterable

from .domains import Bool, BoolDomain, Domain, DSLError, Enum, Int

__all__ = [
    "Node", "Expr", "SetExpr", "Param", "Var", "Const", "VarRef", "ConstRef", "Binder",
    "BoolConst", "IntConst", "EnumConst", "lift",
    "And", "Or", "Not", "Implies", "Eq", "Ne", "Lt", "Le", "Gt", "Ge",
    "Add", "Sub", "Mul", "Div", "Sum", "CountTrue", "ForAll", "Exists", "forall", "exists",
    "EntityFn", "Attr", "Card", "IndexIn", "Cmp", "Arith", "Aggregate", "Quant",
    "GridSet", "Windows", "Union", "Difference", "BinderSet", "Range", "Before", "as_set",
    "If",
]

_chain = threading.local()


class Node:
    """Base of every IR node (expressions and entity sets)."""

    def children(self) -> tuple:
        return ()

    def __iter__(self):
        raise DSLError(f"{type(self).__name__} is symbolic and cannot be iterated in Python",
                       expected="forall(S, lambda x: ...) or S.sum_of(...) instead of a for loop")


# =========================================================================================
# expressions
# =========================================================================================
class Expr(Node):
    """A typed expression. ``type`` is 'bool', 'int', 'enum' or 'entity'."""

    type: str = "?"
    kind: str | None = None          # entity kind for 'entity' expressions
    domain: Domain | None = None

    __hash__ = object.__hash__

    # logical sugar ------------------------------------------------------------------
    def __and__(self, other: Any) -> "Expr":
        return And(self, other)

    def __rand__(self, other: Any) -> "Expr":
        return And(other, self)

    def __or__(self, other: Any) -> "Expr":
        return Or(self, other)

    def __ror__(self, other: Any) -> "Expr":
        return Or(other, self)

    def __invert__(self) -> "Expr":
        return Not(self)

    def __rshift__(self, other: Any) -> "Expr":
        return Implies(self, other)

    # comparisons ----------------------------------------------------------------------
    def __eq__(self, other: Any) -> "Expr":  # type: ignore[override]
        return Eq(self, other)

    def __ne__(self, other: Any) -> "Expr":  # type: ignore[override]
        return Ne(self, other)

    def __lt__(self, other: Any) -> "Expr":
        return Lt(self, other)

    def __le__(self, other: Any) -> "Expr":
        return Le(self, other)

    def __gt__(self, other: Any) -> "Expr":
        return Gt(self, other)

    def __ge__(self, other: Any) -> "Expr":
        return Ge(self, other)

    # arithmetic -----------------------------------------------------------------------
    def __add__(self, other: Any) -> "Expr":
        return Add(self, other)

    def __radd__(self, other: Any) -> "Expr":
        return Add(other, self)

    def __sub__(self, other: Any) -> "Expr":
        return Sub(self, other)

    def __rsub__(self, other: Any) -> "Expr":
        return Sub(other, self)

    def __mul__(self, other: Any) -> "Expr":
        return Mul(self, other)

    def __rmul__(self, other: Any) -> "Expr":
        return Mul(other, self)

    def __floordiv__(self, other: Any) -> "Expr":
        return Div(self, other)

    def __rfloordiv__(self, other: Any) -> "Expr":
        return Div(other, self)

    def __truediv__(self, other: Any) -> "Expr":
        return Div(self, other)

    def __neg__(self) -> "Expr":
        return Sub(0, self)

    def __bool__(self) -> bool:
        raise DSLError(
            f"a DSL expression ({short(self)}) was used as a Python truth value",
            expected="&, |, ~, Implies(...) instead of and/or/not/if inside rules")

    def __repr__(self) -> str:
        from .pretty import pretty_expr

        return pretty_expr(self)


def short(expr: Any) -> str:
    try:
        from .pretty import pretty_expr

        text = pretty_expr(expr)
    except Exception:  # noqa: BLE001 - only for error messages
        text = type(expr).__name__
    return text if len(text) < 80 else text[:77] + "..."


class BoolConst(Expr):
    type = "bool"

    def __init__(self, value: bool) -> None:
        self.value = bool(value)
        self.domain = Bool


class IntConst(Expr):
    type = "int"

    def __init__(self, value: int) -> None:
        self.value = int(value)


class EnumConst(Expr):
    type = "enum"

    def __init__(self, value: Any) -> None:
        self.value = value


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
    from .topology import Cell, Edge, Vertex

    if isinstance(value, (Cell, Edge, Vertex)):
        return EntityFn("entity", None, (value,), kind=type(value).__name__.lower())
    raise DSLError(f"{where or 'rule'}: {value!r} ({type(value).__name__}) is not a DSL expression",
                   expected="an expression built from Vars, Params, constants and operators")


class Param(Expr):
    """A symbolic integer (board size, box width...) resolved by ``Model.bind``."""

    type = "int"

    def __init__(self, name: str, pytype: type = int) -> None:
        if pytype not in (int, bool):
            raise DSLError(f"Param '{name}' has type {pytype!r}", expected="int or bool")
        self.name = name
        self.pytype = pytype
        if pytype is bool:
            self.type = "bool"
            self.domain = Bool


class Var(Expr):
    """``Var(name, domain, over=set)``: an unknown of the puzzle, one per entity of ``over``.

    ``answer=False`` marks auxiliary variables that are not part of the solution (they are
    left out of uniqueness checks and answers).
    """

    def __init__(self, name: str, domain: Domain, *, over: Any = None, answer: bool = True) -> None:
        if not isinstance(domain, Domain):
            raise DSLError(f"Var '{name}': {domain!r} is not a domain", expected="Bool, Enum(...) or Int(lo, hi)")
        self.name = name
        self.domain = domain
        self.over = as_set(over) if over is not None else None
        self.answer = answer
        self.type = domain.kind

    def ref(self) -> "VarRef":
        if self.over is not None:
            raise DSLError(f"Var '{self.name}' is an array over {self.over.elem}s; index it",
                           expected=f"{self.name}[x] with x a {self.over.elem}")
        return VarRef(self, None)

    def __getitem__(self, index: Any) -> "VarRef":
        return VarRef(self, index)

    def get(self, index: Any, default: Any = False) -> "VarRef":
        """``var[index]``, or ``default`` where ``index`` is off the board / not in ``over``."""
        return VarRef(self, index, default=default)

    def __call__(self, index: Any) -> "VarRef":
        return VarRef(self, index)


class Const(Var):
    """Instance data: ``Const(domain, value, over=set, name=...)``.

    The value is a constant, a mapping entity -> value, or left ``None`` and supplied by
    name to ``Model.bind(data={name: ...})``. Grounding evaluates references to constants,
    so rules over them fold away (regions of Star Battle, walls of Light Up).
    """

    def __init__(self, domain: Domain, value: Any = None, *, over: Any = None,
                 name: str | None = None) -> None:
        super().__init__(name or "const", domain, over=over, answer=False)
        self.value = value

    def ref(self) -> "VarRef":
        if self.over is not None:
            raise DSLError(f"Const '{self.name}' is an array over {self.over.elem}s; index it",
                           expected=f"{self.name}[x]")
        return ConstRef(self, None)

    def __getitem__(self, index: Any) -> "VarRef":
        return ConstRef(self, index)

    def get(self, index: Any, default: Any = False) -> "VarRef":
        return ConstRef(self, index, default=default)

    def __call__(self, index: Any) -> "VarRef":
        return ConstRef(self, index)


class VarRef(Expr):
    def __init__(self, var: Var, index: Any, default: Any = None) -> None:
        self.var = var
        self.domain = var.domain
        self.type = var.domain.kind
        if index is None:
            if var.over is not None:
                raise DSLError(f"Var '{var.name}' is an array over {var.over.elem}s; index it",
                               expected=f"{var.name}[x]")
            self.index = None
        else:
            if var.over is None:
                raise DSLError(f"Var '{var.name}' is a scalar and cannot be indexed",
                               expected=f"{var.name} used directly")
            idx = lift(index, f"index of {var.name}")
            if idx.type != "entity":
                raise DSLError(f"{var.name}[...] indexed by a {idx.type} expression ({short(idx)})",
                               expected=f"a {var.over.elem} (a binder of forall over {var.over.elem}s)")
            want = var.over.elem
            if idx.kind and want and idx.kind != want and want != "any":
                raise DSLError(f"{var.name} is defined over {want}s but indexed by a {idx.kind} "
                               f"({short(idx)})", expected=f"a {want}")
            self.index = idx
        self.default = None if default is None else lift(default)

    def children(self) -> tuple:
        return tuple(x for x in (self.index, self.default) if x is not None)


class ConstRef(VarRef):
    pass


class Binder(Expr):
    """The symbolic element a quantifier or aggregate ranges over."""

    def __init__(self, name: str, elem: str) -> None:
        self.name = name
        self.elem = elem
        if elem == "int":
            self.type = "int"
        else:
            self.type = "entity"
            self.kind = elem

    # a binder over lines (rows, windows...) is itself an entity set
    def _set(self) -> "SetExpr":
        if not self.elem.startswith("line"):
            raise DSLError(f"binder '{self.name}' ranges over {self.elem}s, not over sets",
                           expected="set operations on a row/column/window binder")
        return BinderSet(self)

    def sum_of(self, key: Any) -> Expr:
        return self._set().sum_of(key)

    def count_true(self, key: Any) -> Expr:
        return self._set().count_true(key)

    def all(self, key: Any) -> Expr:
        return self._set().all(key)

    def any(self, key: Any) -> Expr:
        return self._set().any(key)

    def windows(self, k: Any) -> "SetExpr":
        return self._set().windows(k)

    def size(self) -> Expr:
        return self._set().size()

    def index(self, e: Any) -> Expr:
        return self._set().index(e)

    def before(self, e: Any) -> "SetExpr":
        return self._set().before(e)

    @property
    def r(self) -> Expr:
        return Attr(self, "r")

    @property
    def c(self) -> Expr:
        return Attr(self, "c")


class EntityFn(Expr):
    """An entity computed from others: ``grid.cell(i, j)``, the cells beside an edge..."""

    type = "entity"

    def __init__(self, fn: str, grid: Any, args: tuple, kind: str) -> None:
        self.fn, self.grid, self.args, self.kind = fn, grid, args, kind

    def children(self) -> tuple:
        return tuple(a for a in self.args if isinstance(a, Node))

    @property
    def r(self) -> Expr:
        return Attr(self, "r")

    @property
    def c(self) -> Expr:
        return Attr(self, "c")


class Attr(Expr):
    """Row (``.r``) or column (``.c``) index of a cell or vertex."""

    type = "int"

    def __init__(self, entity: Expr, name: str) -> None:
        if entity.type != "entity":
            raise DSLError(f".{name} of a non-entity {short(entity)}", expected="a cell or vertex")
        self.entity, self.name = entity, name

    def children(self) -> tuple:
        return (self.entity,)


# ----------------------------------------------------------------------------- logic ---
def _need(expr: Expr, types: tuple, op: str) -> Expr:
    if expr.type not in types:
        kinds = " or ".join({"bool": "Boolean", "int": "integer", "enum": "enum",
                             "entity": "entity"}[t] for t in types)
        raise DSLError(f"{op} expects {kinds} arguments, got {expr.type} expression {short(expr)}",
                       expected=f"{kinds} operands for {op}")
    return expr


class And(Expr):
    type = "bool"

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        self.args = tuple(_need(lift(a, "And"), ("bool",), "And") for a in args)

    def children(self) -> tuple:
        return self.args


class Or(Expr):
    type = "bool"

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        self.args = tuple(_need(lift(a, "Or"), ("bool",), "Or") for a in args)

    def children(self) -> tuple:
        return self.args


class Not(Expr):
    type = "bool"

    def __init__(self, arg: Any) -> None:
        self.arg = _need(lift(arg, "Not"), ("bool",), "Not")

    def children(self) -> tuple:
        return (self.arg,)


class Implies(Expr):
    type = "bool"

    def __init__(self, a: Any, b: Any) -> None:
        self.a = _need(lift(a, "Implies"), ("bool",), "Implies")
        self.b = _need(lift(b, "Implies"), ("bool",), "Implies")

    def children(self) -> tuple:
        return (self.a, self.b)


class If(Expr):
    """``If(cond, then, else)``: an integer (or Boolean) chosen by a condition."""

    def __init__(self, cond: Any, then: Any, other: Any) -> None:
        self.cond = _need(lift(cond, "If"), ("bool",), "If")
        self.then, self.other = lift(then, "If"), lift(other, "If")
        num = {"bool", "int"}
        if self.then.type in num and self.other.type in num:
            self.type = "bool" if self.then.type == self.other.type == "bool" else "int"
        else:
            raise DSLError("If branches must be integer or Boolean", expected="If(c, int, int)")

    def children(self) -> tuple:
        return (self.cond, self.then, self.other)


class Cmp(Expr):
    type = "bool"
    op = "?"
    symbol = "?"

    def __init__(self, a: Any, b: Any) -> None:
        a, b = lift(a, self.op), lift(b, self.op)
        _check_pending(a)
        self.a, self.b = a, b
        ordered = self.op in ("Lt", "Le", "Gt", "Ge")
        ta, tb = a.type, b.type
        if ta == "entity" or tb == "entity":
            if not (ta == tb == "entity" and self.op in ("Eq", "Ne")):
                raise DSLError(f"{self.op} compares an entity with a {tb if ta == 'entity' else ta}: "
                               f"{short(a)} vs {short(b)}", expected="two entities (Eq/Ne only)")
        elif ta == "enum" or tb == "enum":
            if ordered:
                raise DSLError(f"{self.op} orders enum values ({short(a)} vs {short(b)})",
                               expected="Eq/Ne on enums")
            if ta != tb:
                other = b if ta == "enum" else a
                raise DSLError(f"domain mismatch: enum compared with {other.type} {short(other)}",
                               expected="an enum value of the same domain")
            for x, y in ((a, b), (b, a)):
                if isinstance(x, EnumConst) and isinstance(y.domain, Enum) and not y.domain.contains(x.value):
                    raise DSLError(f"{x.value!r} is not a value of {y.domain!r} ({short(y)})",
                                   expected=f"one of {y.domain.values}")
        elif ordered and (ta == "bool" and tb == "bool"):
            raise DSLError(f"{self.op} orders two Booleans ({short(a)}, {short(b)})",
                           expected="integers (use Implies for Boolean order)")

    def children(self) -> tuple:
        return (self.a, self.b)

    def __bool__(self) -> bool:
        # Python evaluates ``0 < x < 3`` as ``(0 < x) and (x < 3)``: remember this comparison
        # so the next one sharing the middle operand becomes And(first, second).
        if self.op in ("Lt", "Le", "Gt", "Ge"):
            _chain.pending = self
            return True
        return Expr.__bool__(self)


def _check_pending(new_left: Expr) -> None:
    pending = getattr(_chain, "pending", None)
    if pending is not None and not (new_left is pending.a or new_left is pending.b):
        _chain.pending = None
        raise DSLError(f"comparison {short(pending)} was used as a Python truth value",
                       expected="& / | / Implies between comparisons (chains like 0 < x < 3 are fine)")


def _chained(node: Cmp) -> Expr:
    pending = getattr(_chain, "pending", None)
    if pending is not None:
        _chain.pending = None
        return And(pending, node)
    return node


def assert_no_pending(where: str) -> None:
    pending = getattr(_chain, "pending", None)
    if pending is not None:
        _chain.pending = None
        raise DSLError(f"{where}: comparison {short(pending)} was used as a Python truth value",
                       expected="& / | / Implies instead of and/or/if")


def _cmp_factory(name: str, symbol: str) -> Callable[..., Expr]:
    cls = type(name, (Cmp,), {"op": name, "symbol": symbol})

    def make(a: Any, b: Any) -> Expr:
        return _chained(cls(a, b))

    make.__name__ = name
    make.__doc__ = f"{name}(a, b): a {symbol} b."
    make.node_class = cls  # type: ignore[attr-defined]
    return make


Eq = _cmp_factory("Eq", "==")
Ne = _cmp_factory("Ne", "!=")
Lt = _cmp_factory("Lt", "<")
Le = _cmp_factory("Le", "<=")
Gt = _cmp_factory("Gt", ">")
Ge = _cmp_factory("Ge", ">=")


# ------------------------------------------------------------------------ arithmetic ---
class Arith(Expr):
    type = "int"
    op = "?"

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        self.args = tuple(_need(lift(a, self.op), ("int", "bool"), self.op) for a in args)
        if self.op in ("Sub", "Mul", "Div") and len(self.args) != 2:
            raise DSLError(f"{self.op} takes two arguments, got {len(self.args)}", expected="two")

    def children(self) -> tuple:
        return self.args


class Add(Arith):
    op = "Add"


class Sub(Arith):
    op = "Sub"


class Mul(Arith):
    op = "Mul"


class Div(Arith):
    """Floor division (Python ``//``); the divisor must be a constant after binding."""

    op = "Div"


# ----------------------------------------------------------------- binders & lambdas ---
def _binder_name(fn: Any, default: str) -> str:
    if isinstance(fn, Node) or not callable(fn):
        return default
    try:
        params = list(inspect.signature(fn).parameters)
        return params[0] if params else default
    except (TypeError, ValueError):
        return default


def _apply(fn: Any, binder: Binder, what: str, want: tuple) -> Expr:
    if isinstance(fn, Var):
        body = fn[binder]
    elif isinstance(fn, Expr):
        body = fn  # a constant key, e.g. Sum(S, 1)
    elif callable(fn):
        body = fn(binder)
    else:
        raise DSLError(f"{what}: key {fn!r} is neither a lambda nor a Var",
                       expected="lambda x: <expression> or a Var")
    assert_no_pending(what)
    if isinstance(body, bool) and not isinstance(body, Expr):
        raise DSLError(f"{what}: the lambda returned the Python value {body!r}, not a rule",
                       expected="an expression built with DSL operators (& | ~ Implies ==)")
    body = lift(body, what)
    return _need(body, want, what)


class Aggregate(Expr):
    type = "int"
    op = "?"

    def __init__(self, scope: Any, key: Any) -> None:
        self.scope = as_set(scope)
        self.binder = Binder(_binder_name(key, "x"), self.scope.elem)
        want = ("bool",) if self.op == "CountTrue" else ("int", "bool")
        self.body = _apply(key, self.binder, self.op, want)

    def children(self) -> tuple:
        return (self.scope, self.body)


class Sum(Aggregate):
    """``Sum(S, key=λ)``: sum of an integer (or 0/1 Boolean) over the entities of S."""

    op = "Sum"

    def __init__(self, scope: Any, key: Any = None) -> None:
        super().__init__(scope, key)


class CountTrue(Aggregate):
    op = "CountTrue"

    def __init__(self, scope: Any, key: Any = None) -> None:
        super().__init__(scope, key)


class Quant(Expr):
    type = "bool"
    op = "?"

    def __init__(self, scope: Any, fn: Any) -> None:
        self.scope = as_set(scope)
        self.binder = Binder(_binder_name(fn, "x"), self.scope.elem)
        self.body = _apply(fn, self.binder, self.op.lower(), ("bool",))

    def children(self) -> tuple:
        return (self.scope, self.body)


class ForAll(Quant):
    op = "ForAll"


class Exists(Quant):
    op = "Exists"


def forall(scope: Any, fn: Callable[[Any], Any]) -> Expr:
    """``forall(S, λ x: body)``: body holds for every element of S."""
    return ForAll(scope, fn)


def exists(scope: Any, fn: Callable[[Any], Any]) -> Expr:
    return Exists(scope, fn)


class Card(Expr):
    """|S| as an integer (known once params are bound)."""

    type = "int"

    def __init__(self, scope: Any) -> None:
        self.scope = as_set(scope)

    def children(self) -> tuple:
        return (self.scope,)


class IndexIn(Expr):
    """Position (0-based) of an entity inside an ordered set (a row, a sight line)."""

    type = "int"

    def __init__(self, scope: Any, entity: Any) -> None:
        self.scope = as_set(scope)
        self.entity = _need(lift(entity), ("entity",), "index")

    def children(self) -> tuple:
        return (self.scope, self.entity)


# =========================================================================================
# entity sets
# =========================================================================================
class SetExpr(Node):
    """A symbolic set of entities; ``elem`` names what it contains ('cell', 'edge',
    'vertex', 'line' for sets of sets such as rows, 'int' for ranges)."""

    elem: str = "?"

    def sum_of(self, key: Any) -> Expr:
        return Sum(self, key)

    def count_true(self, key: Any) -> Expr:
        return CountTrue(self, key)

    def all(self, key: Any) -> Expr:
        return ForAll(self, key)

    def any(self, key: Any) -> Expr:
        return Exists(self, key)

    def windows(self, k: Any) -> "SetExpr":
        return Windows(self, k)

    def size(self) -> Expr:
        return Card(self)

    def index(self, e: Any) -> Expr:
        return IndexIn(self, e)

    def before(self, e: Any) -> "SetExpr":
        return Before(self, e)

    def __or__(self, other: Any) -> "SetExpr":
        return Union(self, other)

    def __sub__(self, other: Any) -> "SetExpr":
        return Difference(self, other)

    def __len__(self) -> int:
        raise DSLError("len() of a symbolic set is unknown until params are bound",
                       expected="S.size() (an integer expression)")

    def __repr__(self) -> str:
        from .pretty import pretty_set

        return pretty_set(self)


def as_set(value: Any) -> SetExpr:
    if isinstance(value, SetExpr):
        return value
    if isinstance(value, Binder):
        return value._set()
    raise DSLError(f"{value!r} is not an entity set",
                   expected="grid.C, grid.rows, a row binder, windows(k), ...")


class GridSet(SetExpr):
    """A set the grid computes: ``fn`` names it (C, E, V, rows, cols, row, col, boxes...)."""

    def __init__(self, grid: Any, fn: str, args: tuple = (), elem: str = "cell") -> None:
        self.grid, self.fn, self.args, self.elem = grid, fn, tuple(args), elem

    def children(self) -> tuple:
        return tuple(a for a in self.args if isinstance(a, Node))


class Windows(SetExpr):
    elem = "line"

    def __init__(self, base: Any, k: Any) -> None:
        self.base = as_set(base)
        self.k = _need(lift(k), ("int",), "windows")

    def children(self) -> tuple:
        return (self.base, self.k)


class Union(SetExpr):
    def __init__(self, left: Any, right: Any) -> None:
        self.left, self.right = as_set(left), as_set(right)
        if self.left.elem != self.right.elem:
            raise DSLError(f"union of {self.left.elem}s and {self.right.elem}s",
                           expected="sets of the same kind (use a ClueSpec per kind otherwise)")
        self.elem = self.left.elem

    def children(self) -> tuple:
        return (self.left, self.right)


class Difference(SetExpr):
    def __init__(self, left: Any, right: Any) -> None:
        self.left, self.right = as_set(left), as_set(right)
        self.elem = self.left.elem

    def children(self) -> tuple:
        return (self.left, self.right)


class BinderSet(SetExpr):
    def __init__(self, binder: Binder) -> None:
        self.binder = binder
        self.elem = binder.elem.split(":", 1)[1] if ":" in binder.elem else "cell"

    def children(self) -> tuple:
        return (self.binder,)


class Range(SetExpr):
    """Integers ``lo <= i < hi`` (bounds may be Param expressions)."""

    elem = "int"

    def __init__(self, lo: Any, hi: Any = None) -> None:
        if hi is None:
            lo, hi = 0, lo
        self.lo = _need(lift(lo), ("int",), "Range")
        self.hi = _need(lift(hi), ("int",), "Range")

    def children(self) -> tuple:
        return (self.lo, self.hi)


class Before(SetExpr):
    """The entities of an ordered set that come before ``entity`` in it."""

    def __init__(self, scope: Any, entity: Any) -> None:
        self.scope = as_set(scope)
        self.entity = _need(lift(entity), ("entity",), "before")
        self.elem = self.scope.elem

    def children(self) -> tuple:
        return (self.scope, self.entity)


def walk(node: Any) -> Iterable[Node]:
    """Every node under ``node`` (pre-order), including sets and grid size params."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (GridSet, EntityFn)) and n.grid is not None:
            stack.extend(x for x in (n.grid.nR, n.grid.nC) if isinstance(x, Node))
        if isinstance(n, VarRef) and n.var.over is not None:
            stack.append(n.var.over)
        stack.extend(reversed(n.children()))
