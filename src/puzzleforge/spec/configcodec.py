"""The JSON form of a puzzle config: variable values, pools, index notation.

Why a module of its own: replaying a config must never execute text from it. Values are
encoded as plain JSON with jsonpickle's tags for tuples and sets (as the original's
configs), pools use the ``__i__`` index strings, and decoding only interprets those tags.
"""
from __future__ import annotations

from typing import Any

from .symbols import SymbolDict

__all__ = ["encode_value", "decode_value", "parse_index", "NotReplayable"]


def encode_value(value: Any) -> Any:
    """JSON form of a variable value; tuples/sets use jsonpickle's tags like the original."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, list):
        return [encode_value(v) for v in value]
    if isinstance(value, tuple):
        return {"py/tuple": [encode_value(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"py/set": [encode_value(v) for v in sorted(value, key=repr)]}
    if isinstance(value, dict) and not isinstance(value, SymbolDict):
        if all(isinstance(k, str) for k in value):
            return {k: encode_value(v) for k, v in value.items()}
    if isinstance(value, range):
        return [encode_value(v) for v in value]
    return {"py/repr": repr(value)}


class NotReplayable(Exception):
    pass


def decode_value(value: Any) -> Any:
    if isinstance(value, list):
        return [decode_value(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"py/tuple"}:
            return tuple(decode_value(v) for v in value["py/tuple"])
        if set(value) == {"py/set"}:
            return set(decode_value(v) for v in value["py/set"])
        if "py/repr" in value or any(str(k).startswith("py/") for k in value):
            raise NotReplayable()
        return {k: decode_value(v) for k, v in value.items()}
    return value


def parse_index(x: Any) -> Any:
    if isinstance(x, str) and len(x) > 4 and x.startswith("__") and x.endswith("__") and x[2:-2].lstrip("-").isdigit():
        return int(x[2:-2])
    if isinstance(x, list):
        return [parse_index(e) for e in x]
    return x


