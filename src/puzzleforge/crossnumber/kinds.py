"""Number kinds of the clue language: a test ``is_<kind>(n)`` and a generator over a range.

Why both: a clue like "prime" is used two ways by the solver. When a clue's value is
unknown, the generator lists every candidate of the right length (cheap for squares,
triangular numbers, ...); when candidates already come from the grid's digits, the test
filters them. Generators take an inclusive range ``[lo, hi]`` so the expression evaluator
can ask for exactly the values a sub-expression may take (the seed's "range limits").

The tests (and the digit arithmetic clues use) live in numtests.py, the generators in
numgen.py; this module pairs them by kind name (``KINDS``), resolves spellings
(``ALIASES``) and answers the solver's questions (``kind_test``, ``generate``,
``generate_cost``), re-exporting the digit functions callers reach as ``kinds.<name>``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .digitclues import DIGIT_TESTS
from .numgen import (
    gen_cubes,
    gen_filter,
    gen_formula,
    gen_integers,
    gen_list,
    gen_powers,
    gen_primes,
    gen_squares,
    gen_triangular,
)
from .numtests import (
    ascending,
    consecutive,
    descending,
    digits_product,
    digits_sum,
    distinct_prime_product,
    divisors,
    factorial,
    fib_set,
    iroot,
    is_cube,
    is_fibonacci,
    is_happy,
    is_lucas,
    is_lucky,
    is_palindrome,
    is_power,
    is_prime,
    is_square,
    is_square_pyramidal,
    is_sum_consecutive_squares,
    is_triangular,
    jumbles,
    lucas_set,
    persistence,
    reverse_int,
)

__all__ = [
    "KINDS",
    "ALIASES",
    "canonical_kind",
    "kind_test",
    "generate",
    "generate_cost",
    "DIGIT_RULE_COST",
    # re-exported from numtests.py (the expression evaluator and the parsers call them
    # as ``kinds.<name>``)
    "is_prime",
    "is_palindrome",
    "digits_sum",
    "digits_product",
    "distinct_prime_product",
    "divisors",
    "reverse_int",
    "jumbles",
    "persistence",
    "iroot",
    "is_power",
    "factorial",
]

#: clueparse.py adds a kind of its own with this name for the filtering generator
_gen_filter = gen_filter

#: kind name -> (test, generator, whether generating by filtering a whole range)
KINDS: dict[str, tuple[Callable[[int], bool], Callable[[int, int], Iterator[int]], bool]] = {
    "even": (lambda n: n % 2 == 0, lambda lo, hi: iter(range(lo + (lo % 2), hi + 1, 2)), False),
    "odd": (lambda n: n % 2 == 1, lambda lo, hi: iter(range(lo + 1 - (lo % 2), hi + 1, 2)), False),
    "prime": (is_prime, gen_primes, False),
    "square": (is_square, gen_squares, False),
    "cube": (is_cube, gen_cubes, False),
    "power": (is_power, gen_powers(2), False),
    "power3": (lambda n: is_power(n, 3), gen_powers(3), False),
    "triangular": (is_triangular, gen_triangular, False),
    "squarepyramidal": (
        is_square_pyramidal,
        gen_formula(lambda k: k * (k + 1) * (2 * k + 1) // 6, 1),
        False,
    ),
    "fibonacci": (is_fibonacci, gen_list(fib_set), False),
    "lucas": (is_lucas, gen_list(lucas_set), False),
    "palindrome": (is_palindrome, gen_filter(is_palindrome), True),
    "happy": (is_happy, gen_filter(is_happy), True),
    "lucky": (is_lucky, gen_filter(is_lucky), True),
    "ascending": (ascending, gen_filter(ascending), True),
    "descending": (descending, gen_filter(descending), True),
    "consecutive": (consecutive, gen_filter(consecutive), True),
    "sumconsecutivesquares": (
        is_sum_consecutive_squares,
        gen_formula(lambda k: k * k + (k + 1) * (k + 1), 0),
        False,
    ),
    "product2primes": (
        lambda n: distinct_prime_product(n, 2),
        gen_filter(lambda n: distinct_prime_product(n, 2)),
        True,
    ),
    "product3primes": (
        lambda n: distinct_prime_product(n, 3),
        gen_filter(lambda n: distinct_prime_product(n, 3)),
        True,
    ),
    "product4primes": (
        lambda n: distinct_prime_product(n, 4),
        gen_filter(lambda n: distinct_prime_product(n, 4)),
        True,
    ),
    "integer": (lambda n: True, gen_integers(0), False),
    "natural": (lambda n: n >= 1, gen_integers(1), False),
    "multiplier": (lambda n: n >= 2, gen_integers(2), False),
}

#: Accepted spellings -> canonical kind (lower-case, spaces/underscores/hyphens removed).
ALIASES: dict[str, str] = {
    "primes": "prime",
    "squares": "square",
    "cubes": "cube",
    "powers": "power",
    "triangle": "triangular",
    "triangulars": "triangular",
    "triangles": "triangular",
    "fib": "fibonacci",
    "lucasian": "lucas",
    "palindromic": "palindrome",
    "palindromes": "palindrome",
    "integers": "integer",
    "naturals": "natural",
    "sum2consecutivesquares": "sumconsecutivesquares",
    "sumof2consecutivesquares": "sumconsecutivesquares",
    "sumoftwoconsecutivesquares": "sumconsecutivesquares",
    "squarepyramidalnumber": "squarepyramidal",
    "lucasnumber": "lucas",
    "happynumber": "happy",
    "luckynumber": "lucky",
    "fibonaccinumber": "fibonacci",
    "pyramidal": "squarepyramidal",
    "squarepyramid": "squarepyramidal",
    "ascendingdigits": "ascending",
    "descendingdigits": "descending",
    "consecutivedigits": "consecutive",
    "powers3": "power3",
    "multipliers": "multiplier",
}


def canonical_kind(name: str) -> str | None:
    """Canonical kind for a spelling such as ``Triangular``, ``#squares``, ``power3``."""
    key = name.lower().lstrip("#").replace(" ", "").replace("_", "").replace("-", "")
    key = ALIASES.get(key, key)
    return key if key in KINDS else None


#: listing cost of a digit rule (digitclues.py): never listed by filtering a range
DIGIT_RULE_COST = 10**15


def kind_test(kind: str) -> Callable[[int], bool]:
    """The test of a number kind, or of a digit rule in words (digitclues.py: "all digits
    odd" is used by the solver wherever a number kind is)."""
    if kind not in KINDS:
        return DIGIT_TESTS[kind]
    return KINDS[kind][0]


def generate(kind: str, lo: int, hi: int) -> Iterator[int]:
    """Values of ``kind`` in the inclusive range [lo, hi], increasing."""
    if kind not in KINDS:
        return gen_filter(DIGIT_TESTS[kind])(lo, hi)
    return KINDS[kind][1](lo, hi)


def generate_cost(kind: str, lo: int, hi: int) -> int:
    """Rough work estimate of ``generate`` (filtering kinds scan the whole range). A digit
    rule is never listed up front: its cell constraint (digitcon.py) narrows the cells,
    and the entry is listed from them (so its cost is beyond any listing limit)."""
    if kind not in KINDS:
        return DIGIT_RULE_COST
    if KINDS[kind][2] or kind in ("even", "odd", "integer", "natural", "multiplier"):
        return max(0, hi - lo + 1)
    if kind == "prime":
        return max(0, hi - lo + 1) // 8
    return 0
