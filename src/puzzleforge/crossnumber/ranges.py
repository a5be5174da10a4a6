"""Sets of numbers as puzzle files write them: ``0..16``, ``1-6``, ``[1, 3, 5]``, ``"2,4,6"``.

Why its own module: the file model (digits, cell values, variable domains) and the grid rules
(``count of digit 1..3``) read the same notation, and the grid rules sit below the model.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.errors import InvalidSpec

__all__ = ["parse_range", "MAX_DOMAIN_VALUES", "domain_too_large"]

#: Most values a variable domain or a cell-value set may hold (docs/limits.md): the solver
#: keeps each domain as a set, so a larger one is refused before any work starts.
MAX_DOMAIN_VALUES = 1_000_000


def domain_too_large(what: str, size: int, file, fld, line) -> InvalidSpec:
    return InvalidSpec(
        f"{what} holds {size} values, more than the {MAX_DOMAIN_VALUES:,} a domain may hold",
        file=file,
        field=fld,
        line=line,
        expected=f"at most {MAX_DOMAIN_VALUES:,} values (docs/limits.md)",
    )


def parse_range(value: Any, *, what: str, file, fld, line) -> list[int]:
    """``0..16``, ``1-6``, ``[1, 3, 5]``, ``"2,4,6"`` -> sorted ints (at most
    ``MAX_DOMAIN_VALUES`` of them)."""
    if isinstance(value, bool):
        raise InvalidSpec(
            f"{what}: {value!r} is not a set of numbers",
            file=file,
            field=fld,
            line=line,
            expected="a range like 0..9 or 1-6, or a list of integers",
        )
    if isinstance(value, int):
        return [value]
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(parse_range(v, what=what, file=file, fld=fld, line=line))
        return sorted(set(out))
    s = str(value).strip()
    m = re.fullmatch(r"(-?\d+)\s*(?:\.\.|-|to)\s*(-?\d+)", s)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            raise InvalidSpec(
                f"{what}: range {s} is empty",
                file=file,
                field=fld,
                line=line,
                expected="lo..hi with lo <= hi",
            )
        if hi - lo + 1 > MAX_DOMAIN_VALUES:
            raise domain_too_large(f"{what}: range {s}", hi - lo + 1, file, fld, line)
        return list(range(lo, hi + 1))
    if re.fullmatch(r"[\d\s,]+", s):
        return sorted({int(x) for x in re.split(r"[\s,]+", s) if x})
    raise InvalidSpec(
        f"{what}: cannot read {s!r} as numbers",
        file=file,
        field=fld,
        line=line,
        expected="a range like 0..9 or 1-6, or a list of integers",
    )
