"""Runtime objects that spec expressions see: defined symbols and condition texts.

Why these shapes: specs index defined symbols like a dict (``buy[(name, food)]``), call
``.get('attr')`` and ``.to_list()``, iterate them as lists of Z3 constants, and read a
dynamic condition both as text (its description) and through ``.data`` (the values drawn
for it). These classes reproduce exactly that surface.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from itertools import product
from typing import Any

import z3

from .fastint import make_fast_int
from .guards import register_attributes

__all__ = ["SymbolDict", "CondText", "make_z3_var", "sort_kind", "forget_context"]

#: The symbol constants made in the current thread's current Z3 context (one context at a
#: time, like fastz3's numeral cache).
_VARS = threading.local()


def make_z3_var(name: str, type_name: str) -> Any:
    """The Z3 constant of a symbol in the current context (reused: the family's context is).

    Why a cache: a spec family reuses its Z3 context across puzzles and makes the same
    symbol constants every attempt; Z3 hash-conses them to the same AST anyway, so the
    cached wrapper is the very constant a new call would give, at a dict lookup's cost.
    """
    ctx = z3.main_ctx()
    slot: tuple[Any, dict[tuple[str, str], Any]] | None = getattr(_VARS, "slot", None)
    if slot is None or slot[0] is not ctx:
        slot = _VARS.slot = (ctx, {})  # a new context: drop the old one's constants
    key = (name, type_name)
    v = slot[1].get(key)
    if v is None:
        v = _make(name, type_name)
        v._pf_id = v.get_id()  # cached AST id: solution lookups skip a C call
        v._pf_sort_kind = v.sort().kind()  # cached sort kind (Z3_REAL_SORT...): no C calls per attempt
        slot[1][key] = v
    return v


def forget_context(ctx: Any) -> None:
    """Drop the cached constants of ``ctx`` (a fresh context whose block ended)."""
    slot = getattr(_VARS, "slot", None)
    if slot is not None and slot[0] is ctx:
        del _VARS.slot


def sort_kind(c: Any) -> int:
    """A constant's sort kind: the one ``make_z3_var`` cached on it, else asked of Z3.

    Why: the per-attempt questions "are all symbols Bool/Int?" read it for every symbol
    constant; through z3py that is three C calls and two wrapper objects each (58-sugar:
    ~7% of an attempt).
    """
    kind = getattr(c, "_pf_sort_kind", None)
    return c.sort().kind() if kind is None else kind


def _make(name: str, type_name: str) -> Any:
    t = type_name.lower()
    if t == "bool":
        return z3.Bool(name)
    if t in ("float", "real"):
        return z3.Real(name)
    if t in ("int", "enum"):
        return make_fast_int(z3.Int(name))  # C-level operators (spec/fastint.py)
    if t == "bitvec":
        return z3.BitVec(name, 8)
    if t.startswith("bv") and t[2:].isdigit():
        return z3.BitVec(name, int(t[2:]))
    raise ValueError(f"unsupported symbol type '{type_name}'")


class SymbolDict(dict):
    """A DefinedSymbol: keys from the Cartesian product of its sources -> Z3 constant(s).

    With ``attr`` each value is a dict attribute -> constant and ``get(attr)`` returns the
    constants of one attribute in key order. Iteration yields the constants (values).
    """

    def __init__(self, name: str, sources: list[tuple[str, list]], attr: list[str] | None,
                 types: list[str]) -> None:
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
                dict.__setitem__(self, key, make_z3_var(f"{name}_{kstr}", types[0]))
            else:
                dict.__setitem__(self, key, {a: make_z3_var(f"{name}_{kstr}_{a}", t)
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
