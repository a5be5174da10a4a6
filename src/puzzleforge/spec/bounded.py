"""Bounded versions of the operations a spec expression could use to exhaust memory or CPU.

Why: a spec expression is one line of Python, but ``10 ** 10 ** 9``, ``'a' * 10 ** 10``,
``f"{x:>999999999}"``, ``math.factorial(10 ** 8)`` or ``sum(iter(int, 1))`` each run inside
one C call that no Python-level check can interrupt. Each such operation is replaced (by
the compiler for operators, by the allow-list for names and methods) with a version that
checks the size of its result *before* computing it, and raises ``ExprError`` with the
limit instead. The limits are far above anything a puzzle needs (corpus specs stay below
them by orders of magnitude). Loops written in Python (comprehensions) are not bounded
here: the worker process's deadline and memory limit stop those (spec/sandbox.py).

This module bounds the operators the compiler rewrites, the builtins and the methods of
str, list and re; the bounded versions of functions from other libraries' tables (Z3
constructors, ``math``, ``itertools``) are spec/boundedlib.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

__all__ = [
    "ExprError",
    "MAX_SEQUENCE",
    "MAX_EXPONENT",
    "MAX_INT_BITS",
    "MAX_FORMAT_WIDTH",
    "safe_pow",
    "safe_mul",
    "safe_lshift",
    "safe_mod",
    "safe_add",
    "safe_range",
    "safe_iter",
    "safe_sum",
    "safe_format_builtin",
    "check_format_spec",
    "quiet_print",
]

#: Largest list/string/range/iteration a spec expression may build in one operation.
MAX_SEQUENCE = 2_000_000
#: Largest exponent of an exact power (Fractions; integers are bounded by MAX_INT_BITS).
MAX_EXPONENT = 4096
#: Largest integer (in bits) one arithmetic operation may produce (~39 000 digits).
MAX_INT_BITS = 1 << 17
#: Largest width or precision in a format spec (``{x:>N}``, ``'%Nd'``).
MAX_FORMAT_WIDTH = 10_000


class ExprError(Exception):
    """An expression failed while running (wrapped with its source by the caller)."""


def _is_int(x: Any) -> bool:
    return type(x) is int  # bool excluded on purpose (True * 'a' is harmless)


def safe_pow(a: Any, b: Any, *mod: Any) -> Any:
    """``a ** b`` refusing exact results above MAX_INT_BITS (modular powers are small)."""
    if not mod and isinstance(b, int) and not isinstance(b, bool):
        if isinstance(a, int) and not isinstance(a, bool):
            if b > 0 and a not in (0, 1, -1) and (a.bit_length() - 1) * b > MAX_INT_BITS:
                raise ExprError(
                    f"{a if a.bit_length() < 64 else 'a large integer'} ** {b} is too "
                    f"large (limit {MAX_INT_BITS} bits)"
                )
        elif isinstance(a, Fraction) and abs(b) > MAX_EXPONENT and a not in (0, 1, -1):
            raise ExprError(f"exponent {b} is too large (limit {MAX_EXPONENT})")
    return pow(a, b, *mod)


def _seq_len(x: Any) -> int | None:
    if isinstance(x, (str, bytes, list, tuple)):
        return len(x)
    return None


def safe_mul(a: Any, b: Any) -> Any:
    """``a * b`` refusing sequence repetitions over MAX_SEQUENCE and integers over MAX_INT_BITS."""
    if isinstance(b, int) and not isinstance(b, bool):
        if _is_int(a):
            if a.bit_length() + b.bit_length() > MAX_INT_BITS:
                raise ExprError(f"product of integers is too large (limit {MAX_INT_BITS} bits)")
            return a * b
        n = _seq_len(a)
        if n is not None and n * b > MAX_SEQUENCE:
            raise ExprError(
                f"sequence repetition of {n} x {b} items is too large (limit {MAX_SEQUENCE})"
            )
    elif isinstance(a, int) and not isinstance(a, bool):
        n = _seq_len(b)
        if n is not None and n * a > MAX_SEQUENCE:
            raise ExprError(
                f"sequence repetition of {n} x {a} items is too large (limit {MAX_SEQUENCE})"
            )
    return a * b


def safe_lshift(a: Any, b: Any) -> Any:
    """``a << b`` refusing integers over MAX_INT_BITS."""
    if (
        isinstance(b, int)
        and isinstance(a, int)
        and a
        and b > 0
        and a.bit_length() + b > MAX_INT_BITS
    ):
        raise ExprError(f"shift by {b} bits is too large (limit {MAX_INT_BITS} bits)")
    return a << b


def safe_add(a: Any, b: Any) -> Any:
    """``a + b``; a concatenation longer than MAX_SEQUENCE is refused (doubling loops)."""
    r = a + b
    if type(r) in _SEQ_TYPES and len(r) > MAX_SEQUENCE:
        raise ExprError(f"concatenation of {len(r)} items is too large (limit {MAX_SEQUENCE})")
    return r


_SEQ_TYPES = frozenset((str, list, tuple, bytes))

_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def safe_mod(a: Any, b: Any) -> Any:
    """``a % b``; for ``str % args`` the widths and precisions are bounded, ``*`` refused."""
    if isinstance(a, (str, bytes)):
        text = a if isinstance(a, str) else a.decode("latin-1")
        for m in _PERCENT.finditer(text):
            for part in m.groups():
                if part == "*":
                    raise ExprError("'*' widths in %-formatting are not allowed")
                if part is not None and int(part) > MAX_FORMAT_WIDTH:
                    raise ExprError(
                        f"%-format width {part} is too large (limit {MAX_FORMAT_WIDTH})"
                    )
    return a % b


def safe_range(*args: Any) -> range:
    """``range`` of at most MAX_SEQUENCE items."""
    r = range(*args)
    if len(r) > MAX_SEQUENCE:
        raise ExprError(f"range of {len(r)} items is too large (limit {MAX_SEQUENCE})")
    return r


def safe_iter(obj: Any, *sentinel: Any) -> Any:
    """``iter(x)``; the two-argument form (an endless loop in C when misused) is refused."""
    if sentinel:
        raise ExprError("iter(callable, sentinel) is not allowed in a spec expression")
    return iter(obj)


_NUMERIC = (int, float, complex, Fraction, bool)


def safe_sum(iterable: Any, start: Any = 0) -> Any:
    """``sum``; summing sequences (``sum(lists, [])``, quadratic in C) is bounded."""
    if isinstance(start, _NUMERIC):
        return sum(iterable, start)
    total = start
    for item in iterable:
        total = safe_add(total, item)
    return total


_SPEC_NUMBER = re.compile(r"\d+")


def check_format_spec(spec: Any) -> Any:
    """Refuse a format spec whose width or precision exceeds MAX_FORMAT_WIDTH."""
    if isinstance(spec, str) and spec:
        for m in _SPEC_NUMBER.finditer(spec):
            if len(m.group()) > 5 or int(m.group()) > MAX_FORMAT_WIDTH:
                raise ExprError(
                    f"format width or precision {m.group()[:20]} is too large "
                    f"(limit {MAX_FORMAT_WIDTH})"
                )
    return spec


def safe_format_builtin(value: Any, spec: Any = "") -> str:
    """``format(value, spec)`` with the width bound."""
    return format(value, check_format_spec(spec))


def quiet_print(*args: Any, **kwargs: Any) -> None:
    """``print`` in a spec expression: engine output is JSONL, expressions never print."""


# ---------------------------------------------------------------- str and list methods


def _str_width(method: str) -> Callable[[str], Callable]:
    def bind(s: str) -> Callable:
        real = getattr(s, method)

        def call(width: Any, *rest: Any) -> Any:
            if isinstance(width, int) and width > MAX_SEQUENCE:
                raise ExprError(f"str.{method} width {width} is too large (limit {MAX_SEQUENCE})")
            return real(width, *rest)

        return call

    return bind


def _str_replace(s: str) -> Callable:
    def replace(old: Any, new: Any, count: int = -1) -> str:
        if isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
            hits = s.count(old) if old else len(s) + 1
            if count >= 0:
                hits = min(hits, count)
            if len(s) + hits * (len(new) - len(old)) > MAX_SEQUENCE:
                raise ExprError(f"str.replace result is too large (limit {MAX_SEQUENCE})")
        return s.replace(old, new, count)

    return replace


def _str_expandtabs(s: str) -> Callable:
    def expandtabs(tabsize: int = 8) -> str:
        if isinstance(tabsize, int) and s.count("\t") * tabsize + len(s) > MAX_SEQUENCE:
            raise ExprError(f"str.expandtabs result is too large (limit {MAX_SEQUENCE})")
        return s.expandtabs(tabsize)

    return expandtabs


def _str_join(s: str) -> Callable:
    def join(items: Iterable) -> str:
        items = list(items)
        total = len(s) * max(len(items) - 1, 0)
        for item in items:
            if isinstance(item, str):
                total += len(item)
        if total > MAX_SEQUENCE:
            raise ExprError(
                f"str.join result of {total} characters is too large (limit {MAX_SEQUENCE})"
            )
        return s.join(items)

    return join


def _list_grow(method: str) -> Callable[[list], Callable]:
    def bind(lst: list) -> Callable:
        real = getattr(lst, method)

        def call(*args: Any) -> Any:
            extra = 1
            if method == "extend" and args and hasattr(args[0], "__len__"):
                extra = len(args[0])
            if len(lst) + extra > MAX_SEQUENCE:
                raise ExprError(f"list.{method} would make a list longer than {MAX_SEQUENCE}")
            if method == "extend" and args and not hasattr(args[0], "__len__"):
                for item in args[0]:
                    if len(lst) >= MAX_SEQUENCE:
                        raise ExprError(f"list.extend would make a list longer than {MAX_SEQUENCE}")
                    lst.append(item)
                return None
            return real(*args)

        return call

    return bind


def re_sub(fn: Callable) -> Callable:
    """re.sub / re.subn with the result size bounded before the substitution runs."""

    def call(pattern: Any, repl: Any, string: Any, count: int = 0, flags: int = 0) -> Any:
        # at most len(string) + 1 matches, each replaced by repl (an upper bound)
        if (
            isinstance(repl, str)
            and isinstance(string, str)
            and len(string) + len(repl) * (count or len(string) + 1) > MAX_SEQUENCE
        ):
            raise ExprError(f"re.{fn.__name__} result could exceed {MAX_SEQUENCE} characters")
        return fn(pattern, repl, string, count, flags)

    call.__name__ = fn.__name__
    return call


def _pattern_sub(method: str) -> Callable[[Any], Callable]:
    def bind(pattern: Any) -> Callable:
        real = getattr(pattern, method)

        def call(repl: Any, string: Any, count: int = 0) -> Any:
            if (
                isinstance(repl, str)
                and isinstance(string, str)
                and len(string) + len(repl) * (count or len(string) + 1) > MAX_SEQUENCE
            ):
                raise ExprError(f"Pattern.{method} result could exceed {MAX_SEQUENCE} characters")
            return real(repl, string, count)

        return call

    return bind


#: (type, attribute) -> function of the object giving the bounded replacement.
METHOD_WRAPPERS: dict[tuple[type, str], Callable[[Any], Any]] = {
    **{(str, m): _str_width(m) for m in ("center", "ljust", "rjust", "zfill")},
    (str, "replace"): _str_replace,
    (str, "expandtabs"): _str_expandtabs,
    (str, "join"): _str_join,
    **{(list, m): _list_grow(m) for m in ("append", "extend", "insert")},
    (re.Pattern, "sub"): _pattern_sub("sub"),
    (re.Pattern, "subn"): _pattern_sub("subn"),
}
