"""The access hooks compiled spec code calls: attribute reads, format fields, ``hasattr``.

Why hooks and not only a compile-time check: whether ``x.name`` is safe depends on what
``x`` is at run time (``s.join`` on a string is fine, ``f.gi_frame`` on a generator is an
escape). The compiler (spec/safe.py) turns every ``x.name`` into ``guarded_getattr(x,
'name')``; this looks ``name`` up in the allow-list of ``type(x)`` (spec/attributes.py,
inherited along the MRO, cached per type) and refuses everything else, dunders and private
names included. ``str.format``/``format_map`` return a formatter whose fields (``{0.a[1]}``)
walk through the same two hooks, and whose format specs are width-bounded.

The cost is one dictionary lookup per attribute read (bench/spec_throughput.py).
"""

from __future__ import annotations

import _string  # the standard library's own format-field parser (string.Formatter uses it)
import string
from collections.abc import Callable
from typing import Any

from .allowlist import ModuleView
from .attributes import ATTRIBUTES
from .bounded import METHOD_WRAPPERS, ExprError, check_format_spec

__all__ = [
    "guarded_getattr",
    "guarded_getitem",
    "guarded_hasattr",
    "safe_format",
    "register_attributes",
    "allowed_attributes",
]

#: Extra entries registered by engine modules for their own types (symbols, solutions).
_EXTRA: dict[type, tuple[str, ...]] = {}
#: type -> {attribute: wrapper or None}, resolved along the MRO on first use.
_CACHE: dict[type, dict[str, Callable[[Any], Any] | None]] = {}


def register_attributes(cls: type, names: tuple[str, ...]) -> None:
    """Allow expressions to read ``names`` on ``cls`` (and its subclasses)."""
    for name in names:
        if name.startswith("_"):
            raise ValueError(f"private attribute {name!r} cannot be allowed")
    _EXTRA[cls] = tuple(names)
    _CACHE.clear()


def _resolve(cls: type) -> dict[str, Callable[[Any], Any] | None]:
    table: dict[str, Callable[[Any], Any] | None] = {}
    for base in reversed(cls.__mro__):
        for source in (ATTRIBUTES, _EXTRA):
            names = source.get(base)
            if names:
                for name in names:
                    table[name] = METHOD_WRAPPERS.get((base, name))
    if issubclass(cls, str):
        table["format"] = _bound_format
        table["format_map"] = _bound_format_map
    _CACHE[cls] = table
    return table


def allowed_attributes(cls: type) -> frozenset[str]:
    """The attribute names an expression may read on instances of ``cls``."""
    return frozenset(_CACHE.get(cls) or _resolve(cls))


def _refused(obj: Any, name: Any) -> ExprError:
    kind = type(obj).__name__
    if kind == "ModuleView" and not str(name).startswith("_"):
        return ExprError(
            f"'{name}' of module {obj._pf_name} is not allowed in a spec "
            "expression (not one of its allow-listed names)"
        )
    if isinstance(name, str) and name.startswith("_"):
        return ExprError(
            f"attribute '.{name}' is not allowed (private and dunder attributes are refused)"
        )
    return ExprError(
        f"attribute '.{name}' of a value of type {kind} is not allowed in a spec expression"
    )


def guarded_getattr(obj: Any, name: str) -> Any:
    """``obj.name`` if the allow-list of ``type(obj)`` has ``name``; ExprError otherwise."""
    cls = type(obj)
    if cls is ModuleView:
        try:
            return obj._pf_items[name]
        except KeyError:
            raise _refused(obj, name) from None
    table = _CACHE.get(cls)
    if table is None:
        table = _resolve(cls)
    try:
        wrap = table[name]
    except KeyError:
        raise _refused(obj, name) from None
    if wrap is None:
        return getattr(obj, name)
    return wrap(obj)


def guarded_hasattr(obj: Any, name: Any) -> bool:
    """``hasattr`` that answers from the allow-list (never runs a property it refuses)."""
    if not isinstance(name, str):
        raise TypeError("hasattr(): attribute name must be string")
    try:
        guarded_getattr(obj, name)
    except ExprError:
        return False
    except AttributeError:
        return False
    return True


def guarded_getitem(obj: Any, key: Any) -> Any:
    """``obj[key]`` for format fields (``{0[key]}``): private string keys are refused."""
    if isinstance(key, str) and key.startswith("_"):
        raise ExprError(f"format field key '[{key}]' is not allowed")
    return obj[key]


class _GuardedFormatter(string.Formatter):
    """``str.format`` whose fields walk through the guards and whose widths are bounded."""

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        first, rest = _string.formatter_field_name_split(field_name)
        if isinstance(first, str) and first.startswith("_"):
            raise ExprError(f"format field '{field_name}' is not allowed")
        obj = self.get_value(first, args, kwargs)
        for is_attr, key in rest:
            obj = guarded_getattr(obj, key) if is_attr else guarded_getitem(obj, key)
        return obj, first

    def format_field(self, value: Any, format_spec: str) -> Any:
        return format(value, check_format_spec(format_spec))


_FORMATTER = _GuardedFormatter()


def safe_format(template: Any, *args: Any, **kwargs: Any) -> str:
    """``template.format(*args, **kwargs)`` through the guarded formatter."""
    if not isinstance(template, str):
        raise ExprError("format() needs a string template")
    return _FORMATTER.vformat(template, args, kwargs)


def _bound_format(s: str) -> Callable[..., str]:
    def format(*args: Any, **kwargs: Any) -> str:  # noqa: A001 - stands for str.format
        return _FORMATTER.vformat(s, args, kwargs)

    return format


def _bound_format_map(s: str) -> Callable[[Any], str]:
    def format_map(mapping: Any) -> str:
        return _FORMATTER.vformat(s, (), mapping)

    return format_map
