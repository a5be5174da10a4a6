"""The JSON form of a puzzle config, in the original's (jsonpickle) format both ways.

Why a module of its own: replaying a config must never execute text from it. Values are
encoded as plain JSON with jsonpickle's tags, so the original reads our configs: tuples
and sets as ``py/tuple`` / ``py/set``, a dict with non-string keys (46-elevator's floor
counts) as ``py/reduce`` of ``builtins.dict`` over its items (jsonpickle rebuilds the int
keys; its plain-dict form would turn them into strings). Pools use the ``__i__`` index
strings. Decoding reads the original's configs too: ``py/id`` back-references (jsonpickle
numbers the root, then every list and plain dict in document order), ``py/reduce`` of
``builtins.dict`` / ``builtins.range``, and dicts whose keys are all the ``repr`` of
non-string literals (jsonpickle's ``keys=False`` form of ``{2: 4}`` is ``{"2": 4}``). Any
other ``py/`` tag (``py/repr``, ``py/object``) makes the config NotReplayable: it is
counted and skipped, never guessed.
"""

from __future__ import annotations

import ast
from typing import Any

from .symbols import SymbolDict

__all__ = [
    "encode_value",
    "decode_value",
    "decode_config",
    "parse_index",
    "NotReplayable",
    "NOT_REPLAYABLE",
]

#: The rejection reason of a replayed config holding a value this reader will not interpret.
NOT_REPLAYABLE = "config not replayable"


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
        if all(_literal_key(k) for k in value):
            return {
                "py/reduce": [
                    {"py/type": "builtins.dict"},
                    {"py/tuple": [[[encode_value(k), encode_value(v)] for k, v in value.items()]]},
                ]
            }
    if isinstance(value, range):
        return [encode_value(v) for v in value]
    return {"py/repr": repr(value)}


def _literal_key(key: Any) -> bool:
    """A dict key that round-trips through JSON and jsonpickle (numbers, tuples of them)."""
    if isinstance(key, tuple):
        return all(_literal_key(k) for k in key)
    return key is None or isinstance(key, (bool, int, float, str))


class NotReplayable(Exception):
    """A config value this reader will not interpret (``py/repr``, ``py/object``, ...)."""


_OBJECT_TAGS = ("py/tuple", "py/set", "py/id", "py/reduce")


def _key(text: str) -> Any:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text
    return value if _literal_key(value) and not isinstance(value, str) else text


def _reduce(value: dict, decode: Any) -> Any:
    try:
        func, args = value["py/reduce"][0], value["py/reduce"][1]
        kind = func.get("py/type") if isinstance(func, dict) else None
        argv = args.get("py/tuple") if isinstance(args, dict) else None
    except (IndexError, KeyError, TypeError, AttributeError):
        raise NotReplayable("malformed py/reduce") from None
    if kind == "builtins.dict" and isinstance(argv, list) and len(argv) <= 1:
        items = decode(argv[0]) if argv else []
        try:
            return {(tuple(k) if isinstance(k, list) else k): v for k, v in items}
        except (TypeError, ValueError):
            raise NotReplayable("py/reduce builtins.dict without (key, value) pairs") from None
    if kind == "builtins.range" and isinstance(argv, list) and all(type(a) is int for a in argv):
        return list(range(*argv))
    raise NotReplayable(f"py/reduce of {kind!r}")


def decode_config(config: Any) -> Any:
    """A whole config (as JSON-parsed) to Python values; ``py/id`` resolved document-wide."""
    objs: list = [config if not isinstance(config, (list, dict)) else None]

    def dec(value: Any, root: bool = False) -> Any:
        if isinstance(value, list):
            out: list = []
            if not root:
                objs.append(out)
            out.extend(dec(v) for v in value)
            return out
        if isinstance(value, dict):
            tags = [k for k in value if isinstance(k, str) and k.startswith("py/")]
            if tags:
                if len(value) != 1 or tags[0] not in _OBJECT_TAGS:
                    raise NotReplayable(f"config value tagged {tags[0]}")
                if "py/tuple" in value:
                    return tuple(dec(v) for v in value["py/tuple"])
                if "py/set" in value:
                    return set(dec(v) for v in value["py/set"])
                if "py/id" in value:
                    ref = value["py/id"]
                    if type(ref) is not int or not 0 <= ref < len(objs) or objs[ref] is None:
                        raise NotReplayable(f"py/id {ref!r} names no earlier list or dict")
                    return objs[ref]
                return _reduce(value, dec)
            out_d: dict = {}
            if root:
                objs[0] = out_d
            else:
                objs.append(out_d)
            for k, v in value.items():
                out_d[k] = dec(v)
            keys = list(out_d)
            if keys and all(isinstance(k, str) for k in keys):
                conv = [_key(k) for k in keys]
                if all(not isinstance(c, str) for c in conv):
                    # jsonpickle (keys=False) wrote non-string keys as their repr
                    return dict(zip(conv, out_d.values(), strict=False))
            return out_d
        return value

    return dec(config, root=True)


def decode_value(value: Any) -> Any:
    """One config value (tags interpreted; already-decoded values pass through)."""
    if isinstance(value, (list, dict)):
        return decode_config({"v": value})["v"]
    return value


def parse_index(x: Any) -> Any:
    if (
        isinstance(x, str)
        and len(x) > 4
        and x.startswith("__")
        and x.endswith("__")
        and x[2:-2].lstrip("-").isdigit()
    ):
        return int(x[2:-2])
    if isinstance(x, list):
        return [parse_index(e) for e in x]
    return x
