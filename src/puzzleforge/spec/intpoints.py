"""Integer points of one-variable polynomials and of ``F(x, y) = C`` (spec/intbound.py).

``F`` a binary form with a rational linear factor (divisor lines), or with no zero
direction at all (a box from its minimum, ``_definite_points``).

Why a module of its own: these are the exact number-theoretic steps of the ``int-bound``
backend (step 3 of spec/intbound.py: a rational linear factor ``L`` of the binary form
``F`` divides ``C``; each divisor's line is searched by a polynomial in one integer), kept
apart from the system handling (elimination, propagation, the check). Integer
arithmetic and FLINT's exact factorisation and integer roots only; the work is counted
(``Work``), never timed.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm
from typing import Any

__all__ = [
    "GiveUp",
    "Work",
    "MAX_WORK",
    "MAX_C_BITS",
    "integral",
    "int_roots",
    "roots_in",
    "form_points",
]


def _flint() -> Any:
    """FLINT, imported on first use: a spec that never reaches this backend's number
    theory never loads it (peak memory, docs/spec.md "Peak memory")."""
    import flint

    return flint


#: Candidate points, divisor lines and elimination rows examined before giving up.
MAX_WORK = 200_000
#: Finest grid of the lower bound of a definite form on ``[-1, 1]``.
MAX_GRID = 4096
#: Largest constant ``C`` (in bits) whose divisors are enumerated (factoring cost).
MAX_C_BITS = 160


class GiveUp(Exception):
    """The shape does not fit, or the work bound was reached: the next backend decides."""


class Work:
    """A count of steps (candidates, divisor lines, rows): past ``MAX_WORK`` it gives up,
    so where the backend stops depends on the input only, never on the machine."""

    def __init__(self) -> None:
        self.left = MAX_WORK

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise GiveUp()


def integral(p: dict[tuple[int, ...], Fraction]) -> dict[tuple[int, ...], int]:
    """``p`` times the least common denominator of its coefficients (same zeros)."""
    den = 1
    for c in p.values():
        den = lcm(den, c.denominator)
    return {m: int(c * den) for m, c in p.items()}


def int_roots(coeffs: list[int]) -> list[int] | None:
    """Integer roots of ``sum coeffs[k] t^k`` (None: the zero polynomial)."""
    while coeffs and coeffs[-1] == 0:
        coeffs = coeffs[:-1]
    if not coeffs:
        return None
    if len(coeffs) == 1:
        return []
    return sorted(int(r) for r, _ in _flint().fmpz_poly(coeffs).roots())


def roots_in(p: dict[tuple[int, ...], Fraction], z: int) -> list[int] | None:
    """Integer roots of ``p``, a polynomial in variable ``z`` alone (None: zero)."""
    q = integral(p)
    deg = max((m[z] for m in q), default=0)
    coeffs = [0] * (deg + 1)
    for m, c in q.items():
        coeffs[m[z]] += c
    return int_roots(coeffs)


def _divisors(c: int, work: Work) -> list[int]:
    if c.bit_length() > MAX_C_BITS:
        raise GiveUp()
    primes = _flint().fmpz(c).factor()
    count = 1
    for _, e in primes:
        count *= int(e) + 1
    work.spend(count)
    divs = [1]
    for p, e in primes:
        divs = [d * int(p) ** k for d in divs for k in range(int(e) + 1)]
    return sorted(divs)


def _linear_factor(form: list[int]) -> tuple[int, int] | None:
    """A primitive rational linear factor ``(a, b)`` of ``sum form[j] x^j y^(n-j)``."""
    n = len(form) - 1
    if form[n] == 0:
        return 0, 1  # no x^n term: y divides the form
    _, factors = _flint().fmpz_poly(form).factor()
    for f, _ in factors:
        if f.degree() == 1:
            b, a = (int(v) for v in f.coeffs())  # a t + b, t = x / y
            g = gcd(a, b)
            return a // g, b // g
    return None


def _bezout(a: int, b: int) -> tuple[int, int]:
    """``u, v`` with ``u a + v b == 1`` (``gcd(a, b) == 1``)."""
    old_r, r, old_s, s, old_t, t = a, b, 1, 0, 0, 1
    while r:
        q = old_r // r
        old_r, r = r, old_r - q * r
        old_s, s = s, old_s - q * s
        old_t, t = t, old_t - q * t
    sign = 1 if old_r > 0 else -1
    return old_s * sign, old_t * sign


def form_points(
    p: dict[tuple[int, ...], Fraction], x: int, y: int, work: Work
) -> list[tuple[int, int]] | None:
    """Step 3: every integer point of ``p(x, y) = 0``, or None when not of the shape."""
    if not p:
        return None
    q = integral(p)
    zero = tuple(0 for _ in next(iter(q)))
    const = q.get(zero, 0)
    degrees = {sum(m) for m in q if m != zero}
    if const == 0 or len(degrees) != 1:
        return None
    n = degrees.pop()
    if n < 2:
        return None
    form = [0] * (n + 1)  # form[j]: coefficient of x^j y^(n-j)
    for m, c in q.items():
        if m != zero:
            form[m[x]] += c
    lin = _linear_factor(form)
    if lin is None:
        return _definite_points(form, -const, work)
    a, b = lin
    target = -const
    u, v = _bezout(a, b)
    out: list[tuple[int, int]] = []
    for d in _divisors(abs(target), work):
        for e in (d, -d):
            work.spend()
            x0, y0 = u * e, v * e
            xs, ys = _flint().fmpz_poly([x0, b]), _flint().fmpz_poly([y0, -a])
            poly = _flint().fmpz_poly([-target])
            for j, c in enumerate(form):
                if c:
                    poly += c * xs**j * ys ** (n - j)
            roots = int_roots([int(t) for t in poly.coeffs()])
            if roots is None:
                raise GiveUp()  # F == C along the whole line: infinitely many
            out.extend((x0 + b * k, y0 - a * k) for k in roots)
    return sorted(set(out))


def _grid_min(coeffs: list[int], work: Work) -> Fraction | None:
    """A positive lower bound of ``|g|`` on ``[-1, 1]`` (``g = sum coeffs[k] t^k``), or None.

    ``|g'| <= L = sum |k coeffs[k]|`` there, so every ``t`` within ``1/N`` of a grid point
    ``t_i = -1 + 2i/N`` has ``|g(t)| >= |g(t_i)| - L/N``; the grid is refined (``N`` up to
    ``MAX_GRID``) until that is positive, which happens exactly when ``g`` has no zero there.
    """
    lip = sum(abs(k * c) for k, c in enumerate(coeffs))
    n = 16
    while n <= MAX_GRID:
        work.spend(n + 1)
        low = None
        signs = set()
        for i in range(n + 1):
            t = Fraction(2 * i - n, n)
            v = Fraction(0)
            for c in reversed(coeffs):
                v = v * t + c
            signs.add((v > 0) - (v < 0))
            low = abs(v) if low is None else min(low, abs(v))
        if len(signs) > 1 or 0 in signs:
            return None  # a zero in [-1, 1] (a sign change): no positive bound exists
        assert low is not None
        bound = low - Fraction(lip, n)
        if bound > 0:
            return bound
        n *= 2
    return None


def _definite_points(form: list[int], target: int, work: Work) -> list[tuple[int, int]] | None:
    """Every integer point of ``F(x, y) = target`` for a form ``F`` with no zero direction.

    ``|F(x, y)| >= mu * max(|x|, |y|)^n`` with ``mu`` the least of the lower bounds of
    ``|F(t, 1)|`` and ``|F(1, s)|`` on ``[-1, 1]`` (``F(x, y) = y^n F(x/y, 1)`` when
    ``|x| <= |y|``, ``x^n F(1, y/x)`` otherwise), so ``max(|x|, |y|) <= B`` with
    ``mu B^n <= |target|``; each ``x`` in ``[-B, B]`` leaves a polynomial in ``y`` whose
    integer roots are the points. None when some direction is a zero (no bound).
    """
    n = len(form) - 1
    g_min = _grid_min(form, work)  # F(t, 1) = sum form[j] t^j
    h_min = _grid_min(list(reversed(form)), work) if g_min is not None else None
    if g_min is None or h_min is None:
        return None
    top = Fraction(abs(target)) / min(g_min, h_min)
    b = 0  # the largest b with b^n <= top
    step = 1 << ((int(top).bit_length() // n) + 1)
    while step:
        if (b + step) ** n <= top:
            b += step
        step >>= 1
    work.spend(2 * b + 1)
    out: list[tuple[int, int]] = []
    for xv in range(-b, b + 1):
        coeffs = [form[j] * xv**j for j in range(n + 1)]  # coefficient of y^(n - j)
        poly = list(reversed(coeffs))
        poly[0] -= target
        roots = int_roots(poly)
        if roots is None:
            raise GiveUp()  # cannot be: the form is nonzero in y for every x
        out.extend((xv, yv) for yv in roots)
    return sorted(out)
