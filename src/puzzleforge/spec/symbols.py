"""Runtime objects that spec expressions see: defined symbols and condition texts.

Why these shapes: specs index defined symbols like a dict (``buy[(name, food)]``), call
``.get('attr')`` and ``.to_list()``, iterate them as lists of Z3 constants, and read a
dynamic condition both as text (its description) and through ``.data`` (the values drawn
for it). These classes reproduce exactly that surface.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

from .guards import register_attributes

__all__ = ["SymbolDict", "CondText", "sort_kind"]


def sort_kind(c: Any) -> int:
    """A constant's sort kind: the one ``Z3Space.symbol`` cached on it, else asked of Z3.

    Why: the per-attempt questions "are all symbols Bool/Int?" read it for every symbol
    constant; through z3py that is three C calls and two wrapper objects each (58-sugar:
    ~7% of an attempt).
    """
    kind = getattr(c, "_pf_sort_kind", None)
    return c.sort().kind() if kind is None else kind


class SymbolDict(dict):
    """A DefinedSymbol: keys from the Cartesian product of its sources -> Z3 constant(s).

    With ``attr`` each value is a dict attribute -> constant and ``get(attr)`` returns the
    constants of one attribute in key order. Iteration yields the constants (values).
    """

    def __init__(self, name: str, sources: list[tuple[str, list]], attr: list[str] | None,
                 types: list[str], space: Any) -> None:
        super().__init__()
        self._name = name
        self._attr = attr
        self._dimension = len(sources)
        self._source_names = [s[0] for s in sources]
        keys = list(product(*(s[1] for s in sources)))
        self._keys = [k[0] for k in keys] if self._dimension == 1 else keys
        for key in self._keys:
            kstr = "_".join(str(k) for k in key) if isinstance(key, tuple) else str(key)
            if attr is None:
                dict.__setitem__(self, key, space.symbol(f"{name}_{kstr}", types[0]))
            else:
                dict.__setitem__(self, key, {a: space.symbol(f"{name}_{kstr}_{a}", t)
                                             for a, t in zip(attr, types, strict=False)})

    def mapped(self, fn: Callable[[Any], Any]) -> SymbolDict:
        """The same symbol with every constant replaced by ``fn(constant)`` (spec/terms.py)."""
        new = SymbolDict.__new__(SymbolDict)
        new._name, new._attr, new._dimension = self._name, self._attr, self._dimension
        new._source_names, new._keys = self._source_names, self._keys
        for key, v in dict.items(self):
            dict.__setitem__(new, key, {a: fn(c) for a, c in v.items()} if isinstance(v, dict) else fn(v))
        return new

    def key_parts(self, key: Any) -> dict[str, Any]:
        if self._dimension == 1:
            return {self._source_names[0]: key}
        return {n: key[i] for i, n in enumerate(self._source_names)}

    def __getitem__(self, key: Any) -> Any:
        if self._dimension == 1:
            if isinstance(key, tuple) and len(key) == 1:
                key = key[0]
            return dict.__getitem__(self, key)
        if isinstance(key, list):
            key = tuple(key)
        if not isinstance(key, tuple):
            raise KeyError(f"symbol '{self._name}' has {self._dimension} sources: index it with a tuple")
        return dict.__getitem__(self, key)

    def get(self, attr: Any, default: Any = None) -> list:
        if self._attr is None:
            raise ValueError(f"symbol '{self._name}' has no attributes; iterate it or use to_list()")
        if attr not in self._attr:
            raise ValueError(f"symbol '{self._name}' has no attribute '{attr}' (has {', '.join(self._attr)})")
        return [v[attr] for v in self.values()]

    def to_list(self) -> list:
        if self._attr is None:
            return list(self.values())
        return [[v[a] for v in self.values()] for a in self._attr]

    def __iter__(self):
        return iter(self.to_list())

    def __len__(self) -> int:
        return len(self._keys)

    def __reduce__(self):  # symbols never leave a generation attempt
        raise TypeError("SymbolDict is not picklable")


class CondText(str):
    """A dynamic condition (or query) as its text, with the drawn values in ``.data``."""

    data: Any
    domain: int

    def __new__(cls, desc: str = "", data: Any = None, domain: int = 0) -> CondText:
        inst = super().__new__(cls, desc)
        inst.data = data if data is not None else []
        inst.domain = domain
        return inst

    @property
    def desc(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:
        return str.__str__(self)


register_attributes(SymbolDict, ("get", "to_list", "key_parts"))
register_attributes(CondText, ("data", "desc", "domain"))
