"""Number kinds of the clue language: a test ``is_<kind>(n)`` and a generator over a range.

Why both: a clue like "prime" is used two ways by the solver. When a clue's value is
unknown, the generator lists every candidate of the right length (cheap for squares,
triangular numbers, ...); when candidates already come from the grid's digits, the test
filters them. Generators take an inclusive range ``[lo, hi]`` so the expression evaluator
can ask for exactly the values a sub-expression may take (the seed's "range limits").
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from itertools import pairwise, permutations
from math import isqrt

from .digitclues import DIGIT_TESTS

__all__ = [
    "KINDS",
    "is_prime",
    "digits_sum",
    "digits_product",
    "reverse_int",
    "jumbles",
    "persistence",
    "iroot",
    "is_power",
    "generate",
    "kind_test",
    "factorial",
]


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 3.3e24 (plenty for grid entries)."""
    if n < 2:
        return False
    small = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for p in small:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for a in small:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def iroot(n: int, k: int) -> int:
    """Largest r with r**k <= n (n >= 0)."""
    if n < 2:
        return n
    r = int(round(n ** (1.0 / k)))
    while r**k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


def is_square(n: int) -> bool:
    return n >= 0 and isqrt(n) ** 2 == n


def is_cube(n: int) -> bool:
    if n < 0:
        return is_cube(-n)
    return iroot(n, 3) ** 3 == n


def is_power(n: int, min_exp: int = 2) -> bool:
    """n = b**e for some b >= 2 and e >= min_exp (1 is not counted)."""
    if n < 4:
        return False
    e = min_exp
    while 2**e <= n:
        if iroot(n, e) ** e == n:
            return True
        e += 1
    return False


def is_triangular(n: int) -> bool:
    return n >= 0 and is_square(8 * n + 1)


def is_square_pyramidal(n: int) -> bool:
    k = iroot(3 * n, 3)
    return any(m >= 0 and m * (m + 1) * (2 * m + 1) // 6 == n for m in (k - 1, k, k + 1))


def _sequence(first: int, second: int, hi: int) -> list[int]:
    seq = [first, second]
    while seq[-1] <= hi:
        seq.append(seq[-1] + seq[-2])
    return seq


@cache
def _fib_set() -> frozenset[int]:
    return frozenset(_sequence(0, 1, 10**30))


@cache
def _lucas_set() -> frozenset[int]:
    return frozenset(_sequence(2, 1, 10**30))


def is_fibonacci(n: int) -> bool:
    return n in _fib_set()


def is_lucas(n: int) -> bool:
    return n in _lucas_set()


def digits_sum(n: int) -> int:
    return sum(int(c) for c in str(abs(n)))


def digits_product(n: int) -> int:
    p = 1
    for c in str(abs(n)):
        p *= int(c)
    return p


def reverse_int(n: int) -> int:
    return int(str(abs(n))[::-1]) * (-1 if n < 0 else 1)


def jumbles(n: int) -> list[int]:
    """Other arrangements of n's digits (no leading zero, n itself excluded)."""
    s = str(n)
    out = {int("".join(p)) for p in permutations(s) if p[0] != "0" or len(s) == 1}
    out.discard(n)
    return sorted(out)


def persistence(n: int) -> int:
    """Multiplicative persistence: how many digit products until one digit remains."""
    steps = 0
    while n >= 10:
        n = digits_product(n)
        steps += 1
    return steps


def is_palindrome(n: int) -> bool:
    s = str(n)
    return s == s[::-1]


_SQ = {str(d): d * d for d in range(10)}


@cache
def _happy_small(n: int) -> bool:
    seen = set()
    while n != 1 and n not in seen:
        seen.add(n)
        n = sum(_SQ[c] for c in str(n))
    return n == 1


def is_happy(n: int) -> bool:
    """Repeatedly summing the squares of the digits reaches 1."""
    if n < 1:
        return False
    return _happy_small(sum(_SQ[c] for c in str(n)))


@lru_cache(maxsize=8)
def _lucky_list(limit: int) -> tuple[int, ...]:
    nums = list(range(1, limit + 1, 2))
    i = 1
    while i < len(nums) and nums[i] <= len(nums):
        step = nums[i]
        del nums[step - 1 :: step]
        i += 1
    return tuple(nums)


def is_lucky(n: int) -> bool:
    if n < 1:
        return False
    limit = 1 << max(10, n.bit_length())
    lst = _lucky_list(limit)
    i = bisect_left(lst, n)
    return i < len(lst) and lst[i] == n


def ascending(n: int) -> bool:
    s = str(n)
    return all(a < b for a, b in pairwise(s))


def descending(n: int) -> bool:
    s = str(n)
    return all(a > b for a, b in pairwise(s))


def consecutive(n: int) -> bool:
    """Digits are consecutive (in some order), e.g. 4253."""
    d = sorted(int(c) for c in str(n))
    return all(b == a + 1 for a, b in pairwise(d))


@lru_cache(maxsize=65536)
def _factor_cached(n: int) -> tuple[int, ...]:
    out = []
    if n > 1 and is_prime(n):
        return (n,)
    for p in _sieve(max(2, isqrt(n))):
        if p * p > n:
            break
        if n % p == 0:
            while n % p == 0:
                out.append(p)
                n //= p
            if n > 1 and is_prime(n):
                break
    if n > 1:
        out.append(n)
    return tuple(out)


def _factor(n: int) -> list[int]:
    """Prime factors of n with multiplicity (trial division by sieved primes)."""
    if n < 2:
        return []
    return list(_factor_cached(n))


def divisors(n: int) -> list[int]:
    """All positive divisors of n > 0, increasing."""
    divs = [1]
    f = _factor(n)
    for p in sorted(set(f)):
        k = f.count(p)
        divs = [d * p**e for d in divs for e in range(k + 1)]
    return sorted(divs)


def distinct_prime_product(n: int, count: int) -> bool:
    """n is a product of exactly ``count`` distinct primes (square-free)."""
    if n < 2:
        return False
    f = _factor(n)
    return len(f) == count and len(set(f)) == count


def is_sum_consecutive_squares(n: int) -> bool:
    k = isqrt(max(0, (n - 1) // 2))
    return any(m >= 0 and m * m + (m + 1) * (m + 1) == n for m in (k - 1, k, k + 1))


def factorial(n: int) -> int:
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


# ---------------------------------------------------------------- generators


def _formula(f: Callable[[int], int], start: int = 0) -> Callable[[int, int], Iterator[int]]:
    """Generator for an increasing sequence f(start), f(start+1), ..."""

    def gen(lo: int, hi: int) -> Iterator[int]:
        k = start
        while True:
            v = f(k)
            if v > hi:
                return
            if v >= lo:
                yield v
            k += 1

    return gen


def _gen_squares(lo: int, hi: int) -> Iterator[int]:
    k = isqrt(max(lo, 0))
    if k * k < lo:
        k += 1
    while k * k <= hi:
        yield k * k
        k += 1


def _gen_cubes(lo: int, hi: int) -> Iterator[int]:
    k = iroot(max(lo, 0), 3)
    while k**3 <= hi:
        if k**3 >= lo:
            yield k**3
        k += 1


def _gen_triangular(lo: int, hi: int) -> Iterator[int]:
    k = max(0, (isqrt(8 * max(lo, 0) + 1) - 1) // 2 - 1)
    while k * (k + 1) // 2 <= hi:
        v = k * (k + 1) // 2
        if v >= lo:
            yield v
        k += 1


def _gen_powers(min_exp: int) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        found = set()
        e = min_exp
        while 2**e <= hi:
            b = max(2, iroot(max(lo, 0), e))
            while b**e <= hi:
                if b**e >= lo:
                    found.add(b**e)
                b += 1
            e += 1
        yield from sorted(found)

    return gen


def _gen_primes(lo: int, hi: int) -> Iterator[int]:
    lo = max(lo, 2)
    if hi < lo:
        return
    if hi - lo < 2000:
        for n in range(lo, hi + 1):
            if is_prime(n):
                yield n
        return
    if hi <= 2_000_000:
        sieve = _sieve(hi)
        i = bisect_left(sieve, lo)
        j = bisect_right(sieve, hi)
        yield from sieve[i:j]
        return
    n = lo
    while n <= hi:
        if is_prime(n):
            yield n
        n += 1


@lru_cache(maxsize=32)
def _sieve_cached(limit: int) -> tuple[int, ...]:
    flags = bytearray([1]) * (limit + 1)
    flags[0:2] = b"\x00\x00"
    for i in range(2, isqrt(limit) + 1):
        if flags[i]:
            flags[i * i :: i] = bytearray(len(range(i * i, limit + 1, i)))
    return tuple(i for i in range(limit + 1) if flags[i])


def _sieve(hi: int) -> tuple[int, ...]:
    limit = 1 << max(10, hi.bit_length())  # round up so the cache is reused
    return _sieve_cached(limit)


def _gen_list(values: Callable[[], frozenset[int]]) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        yield from sorted(v for v in values() if lo <= v <= hi)

    return gen


def _gen_filter(test: Callable[[int], bool]) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        for n in range(max(lo, 0), hi + 1):
            if test(n):
                yield n

    return gen


def _gen_integers(start: int) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        yield from range(max(lo, start), hi + 1)

    return gen


#: kind name -> (test, generator, whether generating by filtering a whole range)
KINDS: dict[str, tuple[Callable[[int], bool], Callable[[int, int], Iterator[int]], bool]] = {
    "even": (lambda n: n % 2 == 0, lambda lo, hi: iter(range(lo + (lo % 2), hi + 1, 2)), False),
    "odd": (lambda n: n % 2 == 1, lambda lo, hi: iter(range(lo + 1 - (lo % 2), hi + 1, 2)), False),
    "prime": (is_prime, _gen_primes, False),
    "square": (is_square, _gen_squares, False),
    "cube": (is_cube, _gen_cubes, False),
    "power": (is_power, _gen_powers(2), False),
    "power3": (lambda n: is_power(n, 3), _gen_powers(3), False),
    "triangular": (is_triangular, _gen_triangular, False),
    "squarepyramidal": (
        is_square_pyramidal,
        _formula(lambda k: k * (k + 1) * (2 * k + 1) // 6, 1),
        False,
    ),
    "fibonacci": (is_fibonacci, _gen_list(_fib_set), False),
    "lucas": (is_lucas, _gen_list(_lucas_set), False),
    "palindrome": (is_palindrome, _gen_filter(is_palindrome), True),
    "happy": (is_happy, _gen_filter(is_happy), True),
    "lucky": (is_lucky, _gen_filter(is_lucky), True),
    "ascending": (ascending, _gen_filter(ascending), True),
    "descending": (descending, _gen_filter(descending), True),
    "consecutive": (consecutive, _gen_filter(consecutive), True),
    "sumconsecutivesquares": (
        is_sum_consecutive_squares,
        _formula(lambda k: k * k + (k + 1) * (k + 1), 0),
        False,
    ),
    "product2primes": (
        lambda n: distinct_prime_product(n, 2),
        _gen_filter(lambda n: distinct_prime_product(n, 2)),
        True,
    ),
    "product3primes": (
        lambda n: distinct_prime_product(n, 3),
        _gen_filter(lambda n: distinct_prime_product(n, 3)),
        True,
    ),
    "product4primes": (
        lambda n: distinct_prime_product(n, 4),
        _gen_filter(lambda n: distinct_prime_product(n, 4)),
        True,
    ),
    "integer": (lambda n: True, _gen_integers(0), False),
    "natural": (lambda n: n >= 1, _gen_integers(1), False),
    "multiplier": (lambda n: n >= 2, _gen_integers(2), False),
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
        return _gen_filter(DIGIT_TESTS[kind])(lo, hi)
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
