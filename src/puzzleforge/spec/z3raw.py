"""Z3 AST accessors called with plain pointers: the DAG walks' inner loop.

Why: the z3core wrappers declare their arguments as ``ContextObj``/``Ast`` classes whose
``from_param`` is a Python method, so every accessor call runs two or three Python
functions before reaching C, and then an error check. Walking an attempt's constraints
(spec/finite.py, fastz3.py) makes a few thousand such calls, about a millisecond per
11-wine attempt. The same library functions, declared here with ``c_void_p``
arguments, take the context and AST pointers as Python integers.

Only accessors that cannot fail on a live AST of the given context are declared (the
walkers hold the terms they walk). If the library lacks a symbol or ctypes refuses the
declaration, ``RAW`` is None and the callers use the z3core wrappers.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

from z3 import z3core as zc
from z3.z3types import Ast, Sort, Symbol

__all__ = ["RAW", "RawAPI", "ptr", "ast_at", "unchecked"]


def unchecked(name: str) -> Any:
    """The ctypes function behind a z3core wrapper, without its error check (else the wrapper).

    For calls that cannot fail on the arguments their callers pass (a live AST of the
    right context, operands of the right sort), where the wrapper's ``Z3_get_error_code``
    after every call costs as much as the call itself.
    """
    wrapper = getattr(zc, name)
    try:
        return wrapper.__defaults__[-1].f
    except (AttributeError, IndexError, TypeError):
        return wrapper


_P = ctypes.c_void_p
_U = ctypes.c_uint
_I = ctypes.c_int

_SIGNATURES: dict[str, tuple] = {
    "Z3_get_ast_id": (_U, _P, _P),
    "Z3_get_ast_kind": (_I, _P, _P),
    "Z3_get_sort": (_P, _P, _P),
    "Z3_get_sort_kind": (_I, _P, _P),
    "Z3_to_app": (_P, _P, _P),
    "Z3_get_app_decl": (_P, _P, _P),
    "Z3_get_decl_kind": (_I, _P, _P),
    "Z3_get_app_num_args": (_U, _P, _P),
    "Z3_get_app_arg": (_P, _P, _P, _U),
    "Z3_get_quantifier_body": (_P, _P, _P),
    "Z3_get_numeral_string": (ctypes.c_char_p, _P, _P),
}


class RawAPI:
    """The accessors above as attributes, each a ctypes function over plain pointers.

    The library entry points are taken from z3core's own function objects (z3core
    deletes its library handle once it has declared them).
    """

    # one attribute per entry of _SIGNATURES, named without the "Z3_" prefix (set below)
    get_ast_id: Callable[..., int]
    get_ast_kind: Callable[..., int]
    get_sort: Callable[..., int]
    get_sort_kind: Callable[..., int]
    to_app: Callable[..., int]
    get_app_decl: Callable[..., int]
    get_decl_kind: Callable[..., int]
    get_app_num_args: Callable[..., int]
    get_app_arg: Callable[..., int]
    get_quantifier_body: Callable[..., int]
    get_numeral_string: Callable[..., bytes]

    def __init__(self) -> None:
        for name, (res, *args) in _SIGNATURES.items():
            entry = getattr(zc, name).__defaults__[-1].f
            address = ctypes.cast(entry, ctypes.c_void_p).value
            if not address:
                raise TypeError(f"no entry point for {name}")
            setattr(self, name[3:], ctypes.CFUNCTYPE(res, *args)(address))


def ptr(obj: Any) -> int:
    """The address held by a z3core pointer object (``ctx.ref()``, ``e.as_ast()``).

    Objects that ctypes returned hold it as their value; one built in Python
    (``Ast(address)``) only as ``_as_parameter_``.
    """
    v = obj.value
    if v is None:
        v = obj._as_parameter_
        if not isinstance(v, int):
            v = v.value
    return v


def ast_at(address: int) -> Any:
    """A z3core ``Ast`` for an address, holding it both ways (see ``ptr``)."""
    a = Ast(address)
    a.value = address
    return a


def _load() -> RawAPI | None:
    try:
        return RawAPI()
    except (
        AttributeError,
        IndexError,
        OSError,
        TypeError,
    ):  # an unusual z3 build: use the wrappers
        return None


RAW: RawAPI | None = _load()

#: ctypes keeps its array types (``Ast * n``, built by z3's Python API on every And/Or/
#: Sum of n arguments) through weak references only: once no array of a size is alive,
#: the next call builds a new type, and a type is a reference cycle that only the GC
#: frees. Holding the common sizes here keeps attempts free of cycles (the Z3 fallback
#: paths of the optimum and uniqueness checks, tests/spec/test_spec_lp.py).
_KEPT_ARRAY_TYPES = (
    tuple(Ast * n for n in range(129))
    + tuple(Sort * n for n in range(17))
    + tuple(Symbol * n for n in range(17))
)
