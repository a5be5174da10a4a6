"""The Family protocol and the helpers that turn user text into validated Params.

Why a protocol and not a base class: engines stay independent of each other and of the
core; anything with these attributes is a family. The batch runner, the CLI, the web app
and dataset export only call through it.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from .errors import ConfigError
from .puzzle import Puzzle

__all__ = ["Family", "build_params", "params_to_dict", "describe_params", "coerce_value"]


@runtime_checkable
class Family(Protocol):
    """What every engine, genre and spec file offers.

    Attributes
    ----------
    name:
        The id users type (``latin``, ``zebra``, ``sudoku``...).
    Params:
        A frozen dataclass; every field has a default so ``Params()`` is a small, fast
        puzzle. An optional ``validate()`` method raises ``ConfigError`` listing problems.
    summary:
        One line for ``puzzleforge families``.
    difficulty_doc:
        What the number in ``Puzzle.difficulty`` means for this family.

    ``generate(params, rng)`` is deterministic for a given ``random.Random`` state and
    raises ``GenerationFailed`` rather than returning ``None``. ``verify(puzzle, answer)``
    returns 1.0 for a correct answer, 0.0 for a wrong one and partial credit in between
    where the family defines it; it is tolerant of answer formatting and never raises on a
    malformed answer (that scores 0.0).

    Optional members (looked up with ``getattr``): ``capacity(params) -> int | None``, the
    most distinct puzzles the family can give for ``params`` (None: unbounded or unknown),
    so a batch asking for more fails at once instead of after thousands of duplicates;
    ``explain(puzzle) -> list[str]``, the step-by-step solution in words (grid genres,
    zebra, crossnumber), which the web app's dataset browser shows for any family that
    has it (found through the registry, never by importing an engine by name).
    """

    name: str
    Params: type
    summary: str
    difficulty_doc: str

    def generate(self, params: Any, rng: random.Random) -> Puzzle: ...

    def verify(self, puzzle: Puzzle, answer: str) -> float: ...


def _unwrap_optional(tp: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def coerce_value(text: Any, tp: Any) -> Any:
    """Convert a CLI/web string (or JSON value) to the field type ``tp``.

    >>> coerce_value("5", int), coerce_value("yes", bool), coerce_value("a,b", tuple[str, ...])
    (5, True, ('a', 'b'))
    """
    tp, optional = _unwrap_optional(tp)
    if optional and (
        text is None or (isinstance(text, str) and text.lower() in ("none", "null", ""))
    ):
        return None
    origin = typing.get_origin(tp)
    if tp is Any:
        return text
    if tp is bool:
        if isinstance(text, bool):
            return text
        lowered = str(text).strip().lower()
        if lowered in ("1", "true", "yes", "on", "y"):
            return True
        if lowered in ("0", "false", "no", "off", "n"):
            return False
        raise ValueError(f"{text!r} is not a boolean (use true/false)")
    if tp is int:
        if isinstance(text, bool):
            raise ValueError("a boolean is not an integer")
        if isinstance(text, int):
            return text
        if isinstance(text, float) and text.is_integer():
            return int(text)
        return int(str(text).strip())
    if tp is float:
        return float(text)
    if tp is str:
        return str(text)
    if origin is typing.Literal:
        allowed = typing.get_args(tp)
        for option in allowed:
            if str(option) == str(text):
                return option
        raise ValueError(f"{text!r} is not one of {', '.join(map(str, allowed))}")
    if origin in (tuple, list):
        args = typing.get_args(tp)
        inner = args[0] if args else str
        if isinstance(text, str):
            items = [t.strip() for t in text.split(",") if t.strip()]
        else:
            items = list(text)
        values = [coerce_value(item, inner) for item in items]
        return tuple(values) if origin is tuple else values
    return text


def build_params(
    params_cls: type,
    values: Mapping[str, Any] | None = None,
    *,
    family: str = "",
    source: str = "params",
) -> Any:
    """Build and validate a frozen Params dataclass from loose values.

    Every unknown key and every value that does not convert is reported at once, in one
    ``ConfigError`` naming the family, the field and the expected type.
    """
    values = dict(values or {})
    hints = typing.get_type_hints(params_cls)
    fields = {f.name: f for f in dataclasses.fields(params_cls)}
    problems: list[str] = []
    kwargs: dict[str, Any] = {}
    for key, raw in values.items():
        if key not in fields:
            known = ", ".join(fields) or "none"
            problems.append(f"unknown parameter '{key}' (known: {known})")
            continue
        try:
            kwargs[key] = coerce_value(raw, hints.get(key, Any))
        except (TypeError, ValueError) as exc:
            problems.append(f"'{key}'={raw!r}: {exc}; expected {_type_name(hints.get(key))}")
    if problems:
        raise ConfigError(
            "; ".join(problems),
            field=source,
            expected=f"parameters of family '{family}'" if family else None,
        )
    try:
        params = params_cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ConfigError(str(exc), field=source) from None
    validate: Callable[[], None] | None = getattr(params, "validate", None)
    if validate is not None:
        try:
            validate()
        except ConfigError as exc:
            raise exc.with_location(field=source) from None
    return params


def params_to_dict(params: Any) -> dict[str, Any]:
    """JSON-ready dict of a Params dataclass (tuples become lists)."""
    out = {}
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def _type_name(tp: Any) -> str:
    if tp is None:
        return "a value"
    tp, optional = _unwrap_optional(tp)
    if typing.get_origin(tp) is typing.Literal:
        name = "one of " + ", ".join(map(str, typing.get_args(tp)))
    elif typing.get_origin(tp) in (tuple, list):
        name = "a comma-separated list"
    else:
        name = getattr(tp, "__name__", str(tp))
    return name + (" or none" if optional else "")


def describe_params(params_cls: type) -> list[tuple[str, str, str]]:
    """(name, type, default) rows for ``puzzleforge families``."""
    hints = typing.get_type_hints(params_cls)
    rows = []
    for f in dataclasses.fields(params_cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = "required"
        rows.append((f.name, _type_name(hints.get(f.name)), repr(default)))
    return rows
