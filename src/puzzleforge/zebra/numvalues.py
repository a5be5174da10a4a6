"""Numerical categories' values and names: the weighted p, n, r tables and sanity
restrictions of seeds/003 3.1.9, the type-3 (arithmetic) relations the values admit,
and how a value is written ("7,5", "3 lata").

Why apart from the drawing of categories: these are number rules (which value sets
read naturally, which relations hold, plural agreement after a number), shared by the
category draw, the clue text and the tests' sentence parser.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..core.errors import GenerationFailed
from .numerals import en_form, pl_form

__all__ = [
    "draw_numbers",
    "format_number",
    "object_name",
    "plural_form",
    "type3_candidates",
    "weighted_choice",
]

#: seeds/003, 3.1.9: base value p, times factor n, increment / multiplier r.
P_TABLE = [
    (-40, 1),
    (-10, 1),
    (-5, 1),
    (0, 1),
    (1, 20),
    ("1.5", 5),
    (2, 10),
    ("2.5", 5),
    (3, 4),
    (4, 4),
    (5, 3),
    (6, 3),
    (7, 2),
    (8, 2),
    (9, 2),
    (10, 5),
    (20, 5),
    (50, 5),
    (100, 6),
    (1000, 6),
    (1500, 4),
    (1920, 1),
    (1950, 1),
    (1980, 1),
    (1990, 1),
    (2000, 4),
]
N_TABLE = [(1, 10), (2, 4), (3, 1)]
R_ADD = [
    ("0.5", 10),
    (1, 40),
    ("1.5", 5),
    (2, 15),
    ("2.5", 5),
    (3, 5),
    (4, 5),
    (5, 10),
    (10, 10),
    (15, 4),
    (25, 10),
    (50, 10),
    (100, 8),
    (200, 6),
    (250, 3),
    (500, 5),
    (1000, 5),
]
R_MUL = [("0.5", 10), (2, 10), (3, 5), (4, 4), (5, 3), (10, 2)]
SCHEMES = [("arithmetic", 10), ("geometric", 2), ("ascending", 4)]


def weighted_choice(rng: random.Random, items: Sequence[Any], weights: Sequence[float]) -> Any:
    """One weighted draw (explicit rng; no global state)."""
    total = float(sum(weights))
    if total <= 0:
        raise GenerationFailed("nothing to draw from (all weights are zero)")
    x = rng.random() * total
    acc = 0.0
    for item, w in zip(items, weights, strict=True):
        acc += w
        if x < acc:
            return item
    return items[-1]


def format_number(value: Fraction, lang: str = "en") -> str:
    """A value as people write it: 7, 7.5 (English) or 7,5 (Polish)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang == "pl" else text


def _frac(x: Any) -> Fraction:
    return Fraction(str(x))


def draw_numbers(rng: random.Random, k: int) -> list[Fraction]:
    """k ascending values from the arithmetic / geometric / ascending schemes with the
    sanity restrictions of seeds/003, 3.1.9 (redrawn until they hold)."""
    for _ in range(200):
        scheme = weighted_choice(rng, [s for s, _ in SCHEMES], [w for _, w in SCHEMES])
        ps = [(p, w) for p, w in P_TABLE if scheme == "arithmetic" or _frac(p) > 0]
        p = _frac(weighted_choice(rng, [x for x, _ in ps], [w for _, w in ps]))
        n = Fraction(weighted_choice(rng, [x for x, _ in N_TABLE], [w for _, w in N_TABLE]))
        first = p * n
        if scheme == "arithmetic":
            rs = []
            for r, w in R_ADD:
                r = _frac(r)
                if -5 < first < 10 and r > 10:
                    continue
                if first > 100 and (first <= 1500 or first >= 2300) and r < 25:
                    continue
                if first >= 20 and r.denominator != 1:
                    continue
                rs.append((r, w))
            if not rs:
                continue
            r = weighted_choice(rng, [x for x, _ in rs], [w for _, w in rs])
            values = [first + r * i for i in range(k)]
        elif scheme == "geometric":
            rs = []
            for r, w in R_MUL:
                r = _frac(r)
                if r < 1 and (first.denominator != 1 or first.numerator % (2 ** (k - 1))):
                    continue
                if (
                    first > 50
                    and (first.denominator != 1 or first.numerator % 100)
                    and r not in (2, 10)
                ):
                    continue
                rs.append((r, w))
            if not rs:
                continue
            r = weighted_choice(rng, [x for x, _ in rs], [w for _, w in rs])
            values = [first * r**i for i in range(k)]
        else:
            step = first
            values = [first]
            for _ in range(k - 1):
                values.append(values[-1] + (step if rng.random() < 0.8 else 2 * step))
        values = sorted(values)
        if len(set(values)) == k and all(abs(v) < 10**7 for v in values):
            return values
    raise GenerationFailed("could not draw numerical values within 200 attempts")


def type3_candidates(values: Sequence[Fraction]) -> list[str]:
    """Relations ``x=y+d`` / ``x=y*d`` holding for at least min_free pairs (seeds/003,
    2.2.3), written "+d" / "*d".

    Counted on integers (the values times the lcm of their denominators): the same
    result as Fraction arithmetic, several times faster, which matters because every
    numerical category of every draw computes it.
    """
    k = len(values)
    min_free = (k - 1) // 2 + 1
    scale = 1
    for v in values:
        scale = scale * v.denominator // math.gcd(scale, v.denominator)
    ints = [v.numerator * (scale // v.denominator) for v in values]
    add: dict[int, int] = {}
    mul: dict[tuple[int, int], int] = {}
    for a in ints:
        for b in ints:
            if b > a:
                add[b - a] = add.get(b - a, 0) + 1
                if a > 0:
                    g = math.gcd(a, b)
                    key = (b // g, a // g)
                    mul[key] = mul.get(key, 0) + 1
    out = [f"+{Fraction(d, scale)}" for d, c in sorted(add.items()) if c >= min_free]
    ratios = sorted((Fraction(n, m), c) for (n, m), c in mul.items())
    out += [f"*{d}" for d, c in ratios if c >= min_free and d != 1]
    return out


def plural_form(template: str, value: Fraction, lang: str) -> str:
    """Resolve ``{one|few|many|fraction}`` (pl) or ``{one|other}`` (en) after a number
    (the agreement rules live in ``numerals``)."""
    start = template.find("{")
    if start < 0:
        return template
    end = template.find("}", start)
    forms = template[start + 1 : end].split("|")
    form = pl_form(value, forms) if lang == "pl" else en_form(value, forms)
    return template[:start] + form + template[end + 1 :]


def object_name(template: str, value: Fraction, lang: str) -> str:
    """Display name of a numerical object: the template with '@' replaced."""
    number = format_number(value, lang)
    if "@" not in template:
        return number
    return plural_form(template, value, lang).replace("@", number)
