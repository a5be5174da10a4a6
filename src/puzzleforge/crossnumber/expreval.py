"""Range-limited evaluation of clue expressions: the AST compiled to closures.

Why a module of its own (split from crossnumber/expr.py): evaluation has its own rules
(an expression is a generator of values; every call carries an inclusive range pushed down
through ``+ - * / ^ √ '`` to bound the generators, and a work budget so that a hopeless
enumeration is abandoned and retried later instead of hanging), independent of how the
text was read (exprparse.py). crossnumber/expr.py describes the language as a whole.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from . import kinds as nb
from .exprnodes import (
    FUNCTIONS_N,
    MAX_FACTORIAL,
    MAX_POW_BITS,
    Budget,
    Node,
    Unbounded,
    has_generator,
    has_other,
    refs,
)

# ------------------------------------------------------------------ evaluation

Env = dict
SV = Callable[[Env], "int | None"]
MV = Callable[[Env, "int | None", "int | None", Budget], Iterator[int]]


def _cdiv(a: int, b: int) -> int:
    return -((-a) // b)


def _in(v: int, lo: int | None, hi: int | None) -> bool:
    return (lo is None or v >= lo) and (hi is None or v <= hi)


def _ndigits(n: int) -> int:
    return len(str(abs(n)))


@dataclass
class Compiled:
    """An expression compiled to closures: ``values(env, lo, hi, budget)`` yields every
    value in range; ``single`` is set when the expression has no generator."""

    node: Node
    values: MV
    single: SV | None
    variables: frozenset[str] = field(default_factory=frozenset)
    clues: frozenset[str] = field(default_factory=frozenset)


def compile_expr(node: Node, *, nontrivial: bool = False) -> Compiled:
    """Compile an AST. ``nontrivial`` rejects operations whose result equals an operand
    (x*1, x+0, x^1, 1!, 2!) and reversals of palindromes, one-digit numbers and numbers
    ending in 0 -- the "every operation is non-trivial" rule of some puzzles."""
    if has_other(node):
        raise ValueError("'other' must be replaced by clue names before compiling")
    c = _Compiler(nontrivial)
    vs, cs = refs(node)
    if node.op == "cmp":

        def relation(env, lo, hi, budget):
            raise Unbounded("a relation has no value")

        return Compiled(node, relation, None, frozenset(vs), frozenset(cs))
    single = c.sv(node) if not has_generator(node) else None
    return Compiled(node, c.mv(node), single, frozenset(vs), frozenset(cs))


class _Compiler:
    def __init__(self, nontrivial: bool) -> None:
        self.nt = nontrivial

    # -- single-valued -------------------------------------------------
    def sv(self, n: Node) -> SV:
        op, nt = n.op, self.nt
        if op == "num":
            v = n.value
            assert isinstance(v, int)  # the tokenizer makes every number an int
            return lambda env: v
        if op in ("var", "clue"):
            key = n.value
            return lambda env: env[key]
        if op == "cmp":
            raise Unbounded("comparison used as a value")
        if op == "func" and n.value in FUNCTIONS_N:
            fs = [self.sv(a) for a in n.args]
            fn = _nary_fn(str(n.value))

            def nary(env):
                xs = [f(env) for f in fs]
                return None if any(x is None for x in xs) else fn(*xs)

            return nary
        if op in ("neg", "sqrt", "fact", "rev", "func"):
            a = self.sv(n.args[0])
            f = _unary_fn(op, n.value, nt)
            return lambda env: None if (x := a(env)) is None else f(x)
        if op == "^" and n.args[1].op == "/":
            return self._sv_fractional_power(n)
        a, b = self.sv(n.args[0]), self.sv(n.args[1])
        f2 = _binary_fn(op, nt)

        def binop(env):
            x = a(env)
            if x is None:
                return None
            y = b(env)
            if y is None:
                return None
            return f2(x, y)

        return binop

    def _sv_fractional_power(self, n: Node) -> SV:
        """``x^(p/q)`` read as normal algebra: the q-th root of x^p when that is a whole
        number (``9^(3/2)`` = 27), even when p/q itself is not whole; a whole p/q gives
        the ordinary power."""
        base = self.sv(n.args[0])
        num, den = self.sv(n.args[1].args[0]), self.sv(n.args[1].args[1])
        pw = _binary_fn("^", self.nt)

        def frac(env):
            x, p, q = base(env), num(env), den(env)
            if x is None or p is None or q is None or q <= 0 or p < 0 or x < 0:
                return None
            v = pw(x, p)
            if v is None:
                return None
            r = nb.iroot(v, q)
            if r**q != v or (self.nt and r == x):
                return None
            return r

        return frac

    # -- multi-valued --------------------------------------------------
    def mv(self, n: Node) -> MV:
        if not has_generator(n):
            s = self.sv(n)

            def one(env, lo, hi, budget):
                v = s(env)
                if v is not None and _in(v, lo, hi):
                    yield v

            return one
        op, nt = n.op, self.nt
        if op == "gen":
            kind = str(n.value)  # a number kind's name, e.g. "prime"

            def gen(env, lo, hi, budget):
                if hi is None:
                    raise Unbounded(f"#{kind} without an upper limit")
                lo2 = 0 if lo is None else max(lo, 0) if kind != "integer" else lo
                budget.spend(nb.generate_cost(kind, lo2, hi) // 4)
                for v in nb.generate(kind, lo2, hi):
                    budget.spend()
                    yield v

            return gen
        if op == "func" and n.value == "jumble":
            a = self.mv(n.args[0])

            def jum(env, lo, hi, budget):
                if has_generator(n.args[0]):
                    raise Unbounded("jumble of a generator")
                for x in a(env, None, None, budget):
                    for v in nb.jumbles(x):
                        budget.spend()
                        if _in(v, lo, hi):
                            yield v

            return jum
        if op == "neg":
            a = self.mv(n.args[0])
            return lambda env, lo, hi, budget: (
                -x for x in a(env, None if hi is None else -hi, None if lo is None else -lo, budget)
            )
        if op == "sqrt":
            a = self.mv(n.args[0])

            def sq(env, lo, hi, budget):
                l2 = None if lo is None else (max(lo, 0) ** 2)
                h2 = None if hi is None else (hi + 1) ** 2 - 1
                for x in a(env, l2, h2, budget):
                    if x >= 0:
                        r = math.isqrt(x)
                        if r * r == x and _in(r, lo, hi) and not (nt and r == x):
                            yield r

            return sq
        if op == "fact":
            a = self.mv(n.args[0])

            def fa(env, lo, hi, budget):
                for x in a(env, 0, MAX_FACTORIAL, budget):
                    v = nb.factorial(x)
                    if _in(v, lo, hi) and not (nt and v == x):
                        yield v

            return fa
        if op == "rev":
            a = self.mv(n.args[0])

            def rv(env, lo, hi, budget):
                if lo is not None and lo == hi and lo > 0:
                    t = nb.reverse_int(lo)
                    bounds = (t, t)
                elif hi is None:
                    raise Unbounded("reverse of a generator without limits")
                else:
                    dl = _ndigits(max(lo or 0, 0))
                    bounds = (10 ** (dl - 1) if dl > 1 else 0, 10 ** _ndigits(hi) - 1)
                for x in a(env, bounds[0], bounds[1], budget):
                    v = _rev(x, nt)
                    if v is not None and _in(v, lo, hi):
                        yield v

            return rv
        if op == "func" and n.value in FUNCTIONS_N:
            ms = [self.mv(a) for a in n.args]
            fn = _nary_fn(str(n.value))

            def nary_mv(env, lo, hi, budget):
                # every argument's values, unbounded: a generator argument usually defers
                # the constraint (Unbounded) until its operands are known
                for xs in product(*[list(m(env, None, None, budget)) for m in ms]):
                    budget.spend()
                    v = fn(*xs)
                    if v is not None and _in(v, lo, hi):
                        yield v

            return nary_mv
        if op == "func":
            a = self.mv(n.args[0])
            f = _unary_fn("func", n.value, nt)

            def fn(env, lo, hi, budget):
                for x in a(env, None, None, budget):
                    v = f(x)
                    if v is not None and _in(v, lo, hi):
                        yield v

            return fn
        return self._mv_binary(n)

    def _mv_binary(self, n: Node) -> MV:
        op, nt = n.op, self.nt
        A, B = n.args
        ga, gb = has_generator(A), has_generator(B)
        ma, mb = self.mv(A), self.mv(B)
        f2 = _binary_fn(op, nt)

        def emit(x, y, lo, hi):
            v = f2(x, y)
            if v is not None and _in(v, lo, hi):
                return v
            return None

        def sub(x, d):
            return None if x is None else x - d

        def gen_first_ranges(lo, hi, other, gen_is_left):
            """Range of the generator side given one value of the other side."""
            if op == "+":
                return sub(lo, other), sub(hi, other)
            if op == "-":
                if gen_is_left:
                    return (None if lo is None else lo + other), (
                        None if hi is None else hi + other
                    )
                return (None if hi is None else other - hi), (None if lo is None else other - lo)
            if op == "*":
                if other == 0:
                    return None
                if other > 0:
                    return (None if lo is None else _cdiv(lo, other)), (
                        None if hi is None else hi // other
                    )
                return (None if hi is None else _cdiv(hi, other)), (
                    None if lo is None else lo // other
                )
            if op == "/":
                if gen_is_left:
                    if other <= 0:
                        return None
                    return (None if lo is None else lo * other), (
                        None if hi is None else hi * other + other - 1
                    )
                if other <= 0:
                    return (None, None) if other < 0 else None
                lo1 = (
                    1 if lo is None or lo <= 0 else max(1, _cdiv(other, hi)) if hi and hi > 0 else 1
                )
                hi1 = other if lo is None or lo <= 0 else other // lo
                return lo1, hi1
            if op == "^":
                if gen_is_left:
                    if other <= 0:
                        return None
                    root_lo = None if lo is None or lo <= 0 else nb.iroot(lo - 1, other) + 1
                    root_hi = None if hi is None or hi < 0 else nb.iroot(hi, other)
                    return root_lo, root_hi
                if other >= 2 and hi is not None and hi >= 1:
                    return 0, int(math.log(hi, other)) + 1
                if other in (0, 1):
                    return 0, 3
                raise Unbounded("exponent generator without limits")
            raise Unbounded(f"generator under '{op}'")

        def values(env, lo, hi, budget):
            if ga and gb and op == "*" and lo is not None and lo == hi and lo > 0:
                # one target: try its divisors instead of enumerating both sides
                for d in nb.divisors(lo):
                    budget.spend()
                    if (
                        any(True for _ in ma(env, d, d, budget))
                        and any(True for _ in mb(env, lo // d, lo // d, budget))
                        and emit(d, lo // d, lo, hi) is not None
                    ):
                        yield lo
                        return
                return
            if ga and gb:
                if op not in ("+", "*") or hi is None:
                    raise Unbounded(f"generators on both sides of '{op}'")
                for x in ma(env, 0 if op == "+" else 1, hi, budget):
                    rng = gen_first_ranges(lo, hi, x, False)
                    if rng is None:
                        continue
                    for y in mb(env, rng[0], rng[1], budget):
                        v = emit(x, y, lo, hi)
                        if v is not None:
                            yield v
                return
            if ga:
                for y in mb(env, None, None, budget):
                    rng = gen_first_ranges(lo, hi, y, True)
                    if rng is None:
                        continue
                    for x in ma(env, rng[0], rng[1], budget):
                        v = emit(x, y, lo, hi)
                        if v is not None:
                            yield v
            else:
                for x in ma(env, None, None, budget):
                    rng = gen_first_ranges(lo, hi, x, False)
                    if rng is None:
                        continue
                    for y in mb(env, rng[0], rng[1], budget):
                        v = emit(x, y, lo, hi)
                        if v is not None:
                            yield v

        return values


def _rev(x: int, nt: bool) -> int | None:
    if x < 0:
        return None
    if nt and (x < 10 or x % 10 == 0 or nb.is_palindrome(x)):
        return None
    return nb.reverse_int(x)


def _unary_fn(op: str, name, nt: bool) -> Callable[[int], int | None]:
    if op == "neg":
        return lambda x: -x
    if op == "sqrt":

        def sq(x):
            if x < 0:
                return None
            r = math.isqrt(x)
            return r if r * r == x and not (nt and r == x) else None

        return sq
    if op == "fact":

        def fa(x):
            if x < 0 or x > MAX_FACTORIAL:
                return None
            v = nb.factorial(x)
            return None if nt and v == x else v

        return fa
    if op == "rev":
        return lambda x: _rev(x, nt)
    table = {
        "ds": lambda x: nb.digits_sum(x),
        "dp": lambda x: nb.digits_product(x),
        "dss": lambda x: sum(int(d) ** 2 for d in str(abs(x))),
        "abs": abs,
        "square": lambda x: x * x,
        "cube": lambda x: x**3,
        "mp": nb.persistence,
        "persistence": nb.persistence,
        "sqrt": _unary_fn("sqrt", None, nt),
        "jumble": lambda x: None,
    }
    return table[name]


#: Most primes $nextprimesum / $nextprimeproduct take (a bound on the work of one call).
MAX_NEXT_PRIMES = 100


@lru_cache(maxsize=1 << 16)
def _primes_after(n: int, k: int) -> tuple[int, ...]:
    """The k primes that follow n (cached: a clue's combinations repeat (n, k) often)."""
    out: list[int] = []
    p = n
    while len(out) < k:
        p += 1
        if nb.is_prime(p):
            out.append(p)
    return tuple(out)


def _digit_at(x: int, k: int) -> int | None:
    """``$digit(x, k)``: the k-th digit of x from the left (1 = first), -1 the last; no
    value when x has no such digit (a relation then fails, as for an inexact division)."""
    s = str(abs(x))
    if k == -1:
        return int(s[-1])
    return int(s[k - 1]) if 1 <= k <= len(s) else None


def _nary_fn(name: str) -> Callable[..., int | None]:
    """The functions of several arguments (exprnodes.FUNCTIONS_N)."""
    if name == "gcd":
        return lambda x, y: math.gcd(x, y)
    if name == "lcm":
        return lambda x, y: math.lcm(x, y)
    if name == "countdigits":
        return lambda x, lo, hi: sum(lo <= int(ch) <= hi for ch in str(abs(x)))
    if name == "digit":
        return _digit_at
    if name in ("nextprimesum", "nextprimeproduct"):
        add = name == "nextprimesum"

        def next_primes(n: int, k: int) -> int | None:
            if not 1 <= k <= MAX_NEXT_PRIMES or n > 10**9:
                return None
            ps = _primes_after(max(n, 1), k)
            return sum(ps) if add else math.prod(ps)

        return next_primes
    if name == "choose":
        return lambda n, k: math.comb(n, k) if 0 <= n <= 1000 and k >= 0 else None
    raise ValueError(name)


def _binary_fn(op: str, nt: bool) -> Callable[[int, int], int | None]:
    def chk(f):
        if not nt:
            return f

        def g(x, y):
            v = f(x, y)
            return None if v is None or v in (x, y) else v

        return g

    if op == "+":
        return chk(lambda x, y: x + y)
    if op == "-":
        return chk(lambda x, y: x - y)
    if op == "*":
        return chk(lambda x, y: x * y)
    if op == "/":
        return chk(lambda x, y: x // y if y != 0 and x % y == 0 else None)
    if op == "%":
        return chk(lambda x, y: x % y if y > 0 else None)
    if op == "^":

        def pw(x, y):
            if y < 0:
                return None
            if abs(x) > 1 and y * abs(x).bit_length() > MAX_POW_BITS:
                return None
            return x**y

        return chk(pw)
    raise ValueError(op)


def compare(op: str, a: int, b: int) -> bool:
    return {"=": a == b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "!=": a != b}[op]
