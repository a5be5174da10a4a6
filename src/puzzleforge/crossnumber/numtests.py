"""Tests and digit arithmetic on whole numbers: ``is_<kind>(n)``, digit sums and
products, reversals, factors.

Why a module of its own: these are plain number theory with no knowledge of clues or
ranges; the number kinds (kinds.py) pair each test with a generator (numgen.py), and the
expression evaluator calls the digit functions directly (through kinds.py).
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache, lru_cache
from itertools import pairwise, permutations
from math import isqrt

__all__ = [
    "is_prime",
    "iroot",
    "is_square",
    "is_cube",
    "is_power",
    "is_triangular",
    "is_square_pyramidal",
    "fib_set",
    "lucas_set",
    "is_fibonacci",
    "is_lucas",
    "digits_sum",
    "digits_product",
    "reverse_int",
    "jumbles",
    "persistence",
    "is_palindrome",
    "is_happy",
    "is_lucky",
    "ascending",
    "descending",
    "consecutive",
    "divisors",
    "distinct_prime_product",
    "is_sum_consecutive_squares",
    "factorial",
    "prime_sieve",
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
def fib_set() -> frozenset[int]:
    return frozenset(_sequence(0, 1, 10**30))


@cache
def lucas_set() -> frozenset[int]:
    return frozenset(_sequence(2, 1, 10**30))


def is_fibonacci(n: int) -> bool:
    return n in fib_set()


def is_lucas(n: int) -> bool:
    return n in lucas_set()


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


@lru_cache(maxsize=32)
def _sieve_cached(limit: int) -> tuple[int, ...]:
    flags = bytearray([1]) * (limit + 1)
    flags[0:2] = b"\x00\x00"
    for i in range(2, isqrt(limit) + 1):
        if flags[i]:
            flags[i * i :: i] = bytearray(len(range(i * i, limit + 1, i)))
    return tuple(i for i in range(limit + 1) if flags[i])


def prime_sieve(hi: int) -> tuple[int, ...]:
    """The primes up to at least ``hi``, increasing (shared by factoring and listing primes)."""
    limit = 1 << max(10, hi.bit_length())  # round up so the cache is reused
    return _sieve_cached(limit)


@lru_cache(maxsize=65536)
def _factor_cached(n: int) -> tuple[int, ...]:
    out = []
    if n > 1 and is_prime(n):
        return (n,)
    for p in prime_sieve(max(2, isqrt(n))):
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
