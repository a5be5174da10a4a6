"""Bounded versions of library functions a spec may call: Z3 constructors, math, itertools.

Why a module of its own (split from spec/bounded.py): these wrap functions that the
allow-list tables hand out by name (spec/z3names.py, the ``math`` and ``itertools``
views of spec/allowlist.py, the operators' own permutations and combinations), each
checking the size of what it would build before building it (``IntVector('x', 10**9)``,
``math.factorial(10**8)``, ``itertools.product(range(99), repeat=99)``). spec/bounded.py
keeps the operators, builtins and methods the compiler and the guards substitute.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from typing import Any

from .bounded import MAX_INT_BITS, MAX_SEQUENCE, ExprError, safe_mul

__all__ = [
    "vector",
    "names_call",
    "bv_width",
    "bv_concat",
    "MAX_BV_WIDTH",
    "MAX_FACTORIAL",
    "MATH_BOUNDED",
    "ITERTOOLS_BOUNDED",
]

#: Largest n of math.factorial and k of math.comb / math.perm.
MAX_FACTORIAL = 20_000


# ---------------------------------------------------------------- z3 constructors


def vector(fn: Callable) -> Callable:
    """IntVector(prefix, n) and friends with n bounded."""

    def call(prefix: Any, sz: Any, *rest: Any, **kw: Any) -> Any:
        if isinstance(sz, int) and sz > 100_000:
            raise ExprError(f"a vector of {sz} constants is too large (limit 100000)")
        return fn(prefix, sz, *rest, **kw)

    call.__name__ = getattr(fn, "__name__", "vector")
    return call


def names_call(fn: Callable) -> Callable:
    """Ints('a b c') and friends with the number of names bounded."""

    def call(names: Any, *rest: Any, **kw: Any) -> Any:
        if isinstance(names, str) and len(names) > MAX_SEQUENCE:
            raise ExprError("too many constant names")
        return fn(names, *rest, **kw)

    call.__name__ = getattr(fn, "__name__", "names")
    return call


#: Widest bit-vector a spec may build (symbol types are bv8 .. bv64 in practice).
MAX_BV_WIDTH = 4096


def bv_width(position: int) -> Callable[[Callable], Callable]:
    """Bit-vector constructors with the width argument (at ``position``) bounded."""

    def wrap(fn: Callable) -> Callable:
        def call(*args: Any, **kw: Any) -> Any:
            if (
                len(args) > position
                and isinstance(args[position], int)
                and args[position] > MAX_BV_WIDTH
            ):
                raise ExprError(
                    f"bit-vector width {args[position]} is too large (limit {MAX_BV_WIDTH})"
                )
            return fn(*args, **kw)

        call.__name__ = getattr(fn, "__name__", "bitvec")
        return call

    return wrap


def bv_concat(fn: Callable) -> Callable:
    """Concat with the total width bounded (repeated doubling would reach 2**64 bits)."""

    def call(*args: Any) -> Any:
        parts = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        width = 0
        for part in parts:
            size = getattr(type(part), "size", None)
            if callable(size):
                width += part.size()
        if width > MAX_BV_WIDTH:
            raise ExprError(f"bit-vector width {width} is too large (limit {MAX_BV_WIDTH})")
        return fn(*args)

    call.__name__ = "Concat"
    return call


# ---------------------------------------------------------------- math


def _factorial(n: Any) -> int:
    if isinstance(n, int) and n > MAX_FACTORIAL:
        raise ExprError(f"factorial({n}) is too large (limit {MAX_FACTORIAL})")
    return math.factorial(n)


def _comb(n: Any, k: Any) -> int:
    if isinstance(n, int) and isinstance(k, int) and min(k, n - k) > MAX_FACTORIAL:
        raise ExprError(f"comb({n}, {k}) is too large (limit k <= {MAX_FACTORIAL})")
    return math.comb(n, k)


def _perm(n: Any, k: Any = None) -> int:
    if isinstance(n, int) and (k if k is not None else n) > MAX_FACTORIAL:
        raise ExprError(f"perm({n}, {k}) is too large (limit {MAX_FACTORIAL})")
    return math.perm(n, k)


def _prod(iterable: Iterable, *, start: Any = 1) -> Any:
    total = start
    for x in iterable:
        total = safe_mul(total, x)
    return total


def _lcm(*ints: Any) -> int:
    total = 1
    for x in ints:
        total = math.lcm(total, x)
        if total.bit_length() > MAX_INT_BITS:
            raise ExprError(f"lcm is too large (limit {MAX_INT_BITS} bits)")
    return total


MATH_BOUNDED: dict[str, Callable] = {
    "factorial": _factorial,
    "comb": _comb,
    "perm": _perm,
    "prod": _prod,
    "lcm": _lcm,
}


# ---------------------------------------------------------------- itertools


def _limited(it: Iterable, what: str) -> Iterable:
    for n, item in enumerate(it):
        if n >= MAX_SEQUENCE:
            raise ExprError(f"{what} ran past {MAX_SEQUENCE} items (endless iterators are bounded)")
        yield item


def _count(start: Any = 0, step: Any = 1) -> Iterable:
    return _limited(itertools.count(start, step), "itertools.count")


def _cycle(iterable: Iterable) -> Iterable:
    return _limited(itertools.cycle(iterable), "itertools.cycle")


def _repeat(obj: Any, times: Any = None) -> Iterable:
    if times is None:
        return _limited(itertools.repeat(obj), "itertools.repeat")
    if times > MAX_SEQUENCE:
        raise ExprError(f"itertools.repeat of {times} items is too large (limit {MAX_SEQUENCE})")
    return itertools.repeat(obj, times)


def _check_count(n: int, what: str) -> None:
    if n > MAX_SEQUENCE:
        raise ExprError(f"{what} would give {n} items (limit {MAX_SEQUENCE})")


def _product(*iterables: Iterable, repeat: int = 1) -> Iterable:
    pools = [tuple(p) for p in iterables]
    n = 1
    for p in pools:
        n *= len(p)
        if n > MAX_SEQUENCE:
            break
    if repeat > 0 and n > 1:
        _check_count(n ** min(repeat, 64), "itertools.product")
    return itertools.product(*pools, repeat=repeat)


def _permutations(iterable: Iterable, r: int | None = None) -> Iterable:
    pool = tuple(iterable)
    k = len(pool) if r is None else r
    if isinstance(k, int) and 0 <= k <= len(pool):
        n = 1
        for i in range(k):
            n *= len(pool) - i
            if n > MAX_SEQUENCE:
                break
        _check_count(n, "itertools.permutations")
    return itertools.permutations(pool, r)


def _capped_comb(n: int, k: int) -> int:
    """comb(n, k), or MAX_SEQUENCE + 1 once it is known to exceed MAX_SEQUENCE (cheap)."""
    k = min(k, n - k)
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
        if out > MAX_SEQUENCE:
            return MAX_SEQUENCE + 1
    return out


def _combinations(iterable: Iterable, r: int) -> Iterable:
    pool = tuple(iterable)
    if isinstance(r, int) and 0 <= r <= len(pool):
        _check_count(_capped_comb(len(pool), r), "itertools.combinations")
    return itertools.combinations(pool, r)


def _combinations_wr(iterable: Iterable, r: int) -> Iterable:
    pool = tuple(iterable)
    if isinstance(r, int) and r >= 0 and pool:
        _check_count(_capped_comb(len(pool) + r - 1, r), "itertools.combinations_with_replacement")
    return itertools.combinations_with_replacement(pool, r)


ITERTOOLS_BOUNDED: dict[str, Callable] = {
    "count": _count,
    "cycle": _cycle,
    "repeat": _repeat,
    "product": _product,
    "permutations": _permutations,
    "combinations": _combinations,
    "combinations_with_replacement": _combinations_wr,
}
