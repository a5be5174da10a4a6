"""Value domains of the DSL: ``Bool``, ``Enum(values)`` and ranged ``Int(lo, hi)``.

Why plain frozen dataclasses: domains are compared, hashed and printed in the IR, and the
lowering asks each one how many values it has (``cardinality``) and how many bits a
binary encoding would need (``bit_width``) to choose an encoding.

>>> Int(1, 9).cardinality(), Int(1, 9).bit_width(), Bool.kind
(9, 4, 'bool')
>>> Enum(("<", ">")).values
('<', '>')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import InvalidSpec
from .sugar import SUGAR

__all__ = ["Domain", "BoolDomain", "Bool", "Enum", "Int", "IntSeq", "DSLError"]


class DSLError(InvalidSpec):
    """A rule written in the grid DSL is ill-formed (type, binder or parameter misuse)."""

    kind = "grid rule error"


class Domain:
    kind: str = "?"

    def over(self, entity_set: Any, name: str | None = None) -> Any:
        """``Bool.over(grid.C)``: a variable array over ``entity_set`` (seed sugar)."""
        # the IR's Var (grid/ir/refs.py imports this module: looked up, not imported)
        return SUGAR["Var"](name or f"{self.kind}_var", self, over=entity_set)

    def cardinality(self) -> float:
        raise NotImplementedError

    def bit_width(self) -> int:
        card = self.cardinality()
        if card == math.inf:
            raise DSLError(
                f"domain {self} is unbounded and has no bit width",
                expected="a closed range Int(lo, hi) before lowering",
            )
        return max(1, math.ceil(math.log2(card))) if card > 1 else 1

    def contains(self, value: Any) -> bool:
        raise NotImplementedError

    def value_list(self) -> list[Any]:
        raise DSLError(f"domain {self} cannot be enumerated", expected="a finite domain")


@dataclass(frozen=True)
class BoolDomain(Domain):
    kind: str = "bool"

    def cardinality(self) -> int:
        return 2

    def contains(self, value: Any) -> bool:
        return isinstance(value, bool) or value in (0, 1)

    def value_list(self) -> list[Any]:
        return [False, True]

    def __repr__(self) -> str:
        return "Bool"


Bool = BoolDomain()


@dataclass(frozen=True)
class Enum(Domain):
    values: tuple = ()
    kind: str = "enum"

    def __post_init__(self) -> None:
        if not isinstance(self.values, tuple):
            object.__setattr__(self, "values", tuple(self.values))
        if not self.values:
            raise DSLError("Enum() needs at least one value", expected="Enum(('a', 'b', ...))")
        if len(set(self.values)) != len(self.values):
            raise DSLError(f"Enum values repeat: {self.values}", expected="distinct values")

    def cardinality(self) -> int:
        return len(self.values)

    def contains(self, value: Any) -> bool:
        return value in self.values

    def value_list(self) -> list[Any]:
        return list(self.values)

    def __repr__(self) -> str:
        return f"Enum{self.values!r}"


@dataclass(frozen=True)
class Int(Domain):
    """Integers ``lo..hi`` inclusive; ``hi=None`` is half-open (allowed for params and
    SMT-LIB output, refused by the bit-level lowering which needs a finite range)."""

    lo: Any = 0
    hi: Any = None
    kind: str = "int"

    def __post_init__(self) -> None:
        lo, hi = self.lo, self.hi
        if isinstance(lo, int) and isinstance(hi, int) and hi < lo:
            raise DSLError(f"Int({lo}, {hi}) is empty", expected="lo <= hi")

    def resolved(self, resolve: Any) -> Int:
        """This range with symbolic bounds (Param expressions) evaluated by ``resolve``."""
        lo = resolve(self.lo) if not isinstance(self.lo, int) else self.lo
        hi = self.hi if self.hi is None or isinstance(self.hi, int) else resolve(self.hi)
        return Int(lo, hi)

    def cardinality(self) -> float:
        if self.hi is None:
            return math.inf
        if not isinstance(self.lo, int) or not isinstance(self.hi, int):
            raise DSLError(
                f"Int range {self} depends on parameters not yet bound",
                expected="the Params bound first (a genre's bind(instance) gives them)",
            )
        return self.hi - self.lo + 1

    def contains(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return value >= self.lo and (self.hi is None or value <= self.hi)

    def value_list(self) -> list[Any]:
        if self.cardinality() == math.inf:
            raise DSLError(f"Int({self.lo}, ∞) cannot be enumerated", expected="a closed range")
        return list(range(self.lo, self.hi + 1))

    def __repr__(self) -> str:
        hi = "∞" if self.hi is None else self.hi
        return f"Int({self.lo}, {hi})"


@dataclass(frozen=True)
class IntSeqDomain(Domain):
    """Tuples of non-negative integers (instance data such as Nonogram run lengths)."""

    kind: str = "seq"

    def cardinality(self) -> float:
        return math.inf

    def contains(self, value: Any) -> bool:
        return isinstance(value, tuple) and all(isinstance(v, int) and v >= 0 for v in value)

    def __repr__(self) -> str:
        return "IntSeq"


IntSeq = IntSeqDomain()
