"""Command-line values of plain types converted without pydantic; everything else as typer does.

Why: typer (0.2x) converts every option value that is not a Boolean flag through a pydantic
``TypeAdapter``, so every ``puzzleforge`` command imported pydantic and pydantic-core and
built an adapter per option: ~7.5 MB of a ``spec generate`` process whose whole peak is
~85-95 MB, against a reference program that runs in ~88 MB (issue 16 item 4, docs/spec.md
"Peak memory"). For the plain values this CLI's options take, what that adapter returns is
known in advance and the same as Python's own conversion:

- a ``str`` option given a ``str`` (that is valid UTF-8): the same string;
- an ``int`` option given an ``int`` (a default) or decimal digits (``-?(0|[1-9][0-9]*)``,
  at most 18 digits), inside its ``min``/``max``: ``int(value)``;
- a ``float`` option given a finite ``float`` (a default) or a plain decimal
  (``-?digits[.digits]``, at most 15 digits on each side), inside ``min``/``max``:
  ``float(value)`` (both round correctly, so the same float);
- a ``list`` of those, item by item, as a list.

Any other value, type or option setting (a ``parser``, ``clamp``, a ``Path``, a choice, an
out-of-range number, ``1e3``, `` 5``, ``007``...) goes to typer's own coercion, built on demand,
so its result and its error messages are exactly typer's. ``install`` replaces typer's
``build_runtime_param`` (a function typer looks up when a command first reads an option); if
a typer release renames it, nothing is replaced and typer works as it always did
(tests/core/test_cli_plainvalues.py then fails, saying pydantic came back).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, get_args, get_origin

__all__ = ["install", "plain_value"]

_INT = re.compile(r"-?(?:0|[1-9][0-9]{0,17})\Z")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,15})?\Z")
_NO = (False, None)


def _in_range(number: float, info: Any) -> bool:
    lo, hi = info.min, info.max
    return (lo is None or number >= lo) and (hi is None or number <= hi)


def _leaf(value: Any, annotation: Any, info: Any) -> tuple[bool, Any]:
    """(True, the value typer's adapter returns) for a plain value, else (False, None)."""
    if annotation is str:
        if type(value) is not str:
            return _NO
        try:
            value.encode("utf-8")  # lone surrogates: pydantic's rules, not ours
        except UnicodeEncodeError:
            return _NO
        return True, value
    if annotation is int:
        if type(value) is str and _INT.match(value):
            value = int(value)
        if type(value) is int and _in_range(value, info):
            return True, value
        return _NO
    if annotation is float:
        if type(value) is str and _FLOAT.match(value):
            value = float(value)
        if type(value) is float and math.isfinite(value) and _in_range(value, info):
            return True, value
    return _NO


def plain_value(value: Any, annotation: Any, info: Any) -> tuple[bool, Any]:
    """(True, converted) when ``value`` is plain for ``annotation`` and the option ``info``.

    ``info`` is typer's ``ParameterInfo`` (``min``, ``max``, ``clamp``, ``parser``); an
    option with a parser, a Click type (older typer) or ``clamp`` is never plain."""
    if any(getattr(info, name, None) for name in ("parser", "click_type", "clamp")):
        return _NO
    if get_origin(annotation) is list:
        (item_type,) = get_args(annotation) or (None,)
        if not isinstance(value, (list, tuple)):
            return _NO
        out = []
        for item in value:
            ok, got = _leaf(item, item_type, info)
            if not ok:
                return _NO
            out.append(got)
        return True, out
    return _leaf(value, annotation, info)


def install() -> bool:
    """Put the plain conversion in front of typer's; False (nothing changed) if typer differs."""
    try:
        import typer.core as tcore
        from typer._coercion import RuntimeParam
    except ImportError:
        return False
    found = getattr(tcore, "build_runtime_param", None)
    if found is None or getattr(found, "_plain_values", False):
        return found is not None
    original: Callable[[Any], Any] = found

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """A parameter whose plain values skip pydantic; others go to typer's coercion."""

        descriptor: Any = None

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            ok, got = plain_value(value, self.annotation, self.parameter_info)
            if ok:
                return got
            return original(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def build_runtime_param(descriptor: Any) -> Any:
        if descriptor.file_annotation is not None:
            return original(descriptor)
        return PlainRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
        )

    build_runtime_param._plain_values = True  # type: ignore[attr-defined]
    tcore.build_runtime_param = build_runtime_param
    return True
