"""Generators of number kinds: the values of a kind in an inclusive range, increasing.

Why a module of its own: listing a kind cheaply (a formula, a sieve, a fixed sequence)
is a different job from testing one number (numtests.py); the solver lists a clue's
candidates with these when its value is still unknown, and the expression evaluator asks
for exactly the range a sub-expression may take.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from math import isqrt

from .numtests import iroot, is_prime, prime_sieve

__all__ = [
    "gen_formula",
    "gen_squares",
    "gen_cubes",
    "gen_triangular",
    "gen_powers",
    "gen_primes",
    "gen_list",
    "gen_filter",
    "gen_integers",
]


def gen_formula(f: Callable[[int], int], start: int = 0) -> Callable[[int, int], Iterator[int]]:
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


def gen_squares(lo: int, hi: int) -> Iterator[int]:
    k = isqrt(max(lo, 0))
    if k * k < lo:
        k += 1
    while k * k <= hi:
        yield k * k
        k += 1


def gen_cubes(lo: int, hi: int) -> Iterator[int]:
    k = iroot(max(lo, 0), 3)
    while k**3 <= hi:
        if k**3 >= lo:
            yield k**3
        k += 1


def gen_triangular(lo: int, hi: int) -> Iterator[int]:
    k = max(0, (isqrt(8 * max(lo, 0) + 1) - 1) // 2 - 1)
    while k * (k + 1) // 2 <= hi:
        v = k * (k + 1) // 2
        if v >= lo:
            yield v
        k += 1


def gen_powers(min_exp: int) -> Callable[[int, int], Iterator[int]]:
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


def gen_primes(lo: int, hi: int) -> Iterator[int]:
    lo = max(lo, 2)
    if hi < lo:
        return
    if hi - lo < 2000:
        for n in range(lo, hi + 1):
            if is_prime(n):
                yield n
        return
    if hi <= 2_000_000:
        sieve = prime_sieve(hi)
        i = bisect_left(sieve, lo)
        j = bisect_right(sieve, hi)
        yield from sieve[i:j]
        return
    n = lo
    while n <= hi:
        if is_prime(n):
            yield n
        n += 1


def gen_list(values: Callable[[], frozenset[int]]) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        yield from sorted(v for v in values() if lo <= v <= hi)

    return gen


def gen_filter(test: Callable[[int], bool]) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        for n in range(max(lo, 0), hi + 1):
            if test(n):
                yield n

    return gen


def gen_integers(start: int) -> Callable[[int, int], Iterator[int]]:
    def gen(lo: int, hi: int) -> Iterator[int]:
        yield from range(max(lo, start), hi + 1)

    return gen
