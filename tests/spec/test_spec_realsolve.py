"""The algebraic backend (spec/polysystem.py, spec/realsolve.py, spec/algebraic.py).

Expected values come from hand calculation (small systems whose solutions are known in
closed form) and, for random systems, from an independent computation: SymPy's
lexicographic Groebner basis and its exact real root isolation of the eliminant.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp
import z3

from puzzleforge.spec import realpoints
from puzzleforge.spec.algebraic import enumerate_algebraic
from puzzleforge.spec.outcome import Rejection
from puzzleforge.spec.polysystem import polynomial_system
from puzzleforge.spec.realpoints import RealPoint
from puzzleforge.spec.realsolve import Solved, solve_polynomials

pytest.importorskip("flint")


def _solve(assertions: list, consts: list) -> Solved | None:
    polys = polynomial_system(assertions, consts)
    assert polys is not None
    return solve_polynomials(polys, len(consts), [c.is_int() for c in consts])


def test_hand_solved_real_systems() -> None:
    x, y = z3.Reals("x y")
    # x^2 = 4, x + y = 3: (2, 1) and (-2, 5)
    got = _solve([x**2 == 4, x + y == 3], [x, y])
    assert got == Solved([(Fraction(-2), Fraction(5)), (Fraction(2), Fraction(1))])
    # x^3 = 8: the other two roots are complex
    assert _solve([x**3 == 8], [x]) == Solved([(Fraction(2),)])
    # x*y = 6, x + y = 5: (2, 3), (3, 2)
    got = _solve([x * y == 6, x + y == 5], [x, y])
    assert got == Solved([(Fraction(2), Fraction(3)), (Fraction(3), Fraction(2))])
    # rational non-integer: 4x^2 = 1, y = 2x -> (-1/2, -1), (1/2, 1)
    got = _solve([4 * x * x == 1, y == 2 * x], [x, y])
    assert got == Solved([(Fraction(-1, 2), Fraction(-1)), (Fraction(1, 2), Fraction(1))])
    # x^2 = 2: two irrational real roots, x = -+sqrt(2) = -+1.41421356237309...
    assert _solve([x**2 == 2], [x]) == Solved(
        None, 2, [RealPoint(("-1.4142135623",)), RealPoint(("1.4142135623",))]
    )
    # x^2 = 3, y = 2: an irrational coordinate next to a rational one (sqrt(3) = 1.7320508075688...)
    assert _solve([x**2 == 3, y == 2], [x, y]) == Solved(
        None,
        2,
        [RealPoint(("-1.7320508075", Fraction(2))), RealPoint(("1.7320508075", Fraction(2)))],
    )
    # x^2 = 1 and x = 3: no solution; x^2 = -1: none over the reals
    assert _solve([x**2 == 1, x == 3], [x]) == Solved([])
    assert _solve([x**2 == -1, y == x], [x, y]) == Solved([])
    # a double root counts once: (x - 3)^2 = 0
    assert _solve([x**2 - 6 * x + 9 == 0], [x]) == Solved([(Fraction(3),)])
    # one equation in two unknowns: infinitely many, not decided
    assert _solve([x**2 + y == 1], [x, y]) is None


def test_integer_systems() -> None:
    a, b = z3.Ints("a b")
    assert _solve([a * a == 2], [a]) == Solved([])  # the real roots are irrational
    got = _solve([a * a == 9, a + b == 1], [a, b])
    assert got == Solved([(Fraction(-3), Fraction(4)), (Fraction(3), Fraction(-2))])
    # 2a = 1 has a rational solution but no integer one
    assert _solve([a * a * 4 == 1, a * 2 == 1], [a]) == Solved([])


def test_shape_test() -> None:
    x, y = z3.Reals("x y")
    p = z3.Bool("p")
    assert polynomial_system([x * y > 1], [x, y]) is None  # not an equation
    assert polynomial_system([z3.Or(x == 1, x == 2)], [x]) is None
    assert polynomial_system([x == 1], [x, p]) is None  # a Bool unknown
    assert polynomial_system([x / y == 1], [x, y]) is None  # division by an unknown
    got = polynomial_system([z3.And(x**2 / 2 == 3 - y, z3.ToReal(z3.Int("k")) == 0)], [x, y])
    assert got is None  # k is not a constant of the projection
    got = polynomial_system([z3.And(x**2 / 2 == 3 - y)], [x, y])
    assert got == [{(2, 0): Fraction(1, 2), (0, 1): Fraction(1), (0, 0): Fraction(-3)}]


def test_backend_values_and_limit() -> None:
    x, y = z3.Reals("x y")
    sols = enumerate_algebraic([x**2 == 4, x + y == 3], [x, y], None)
    assert isinstance(sols, list)
    assert [[s[x], s[y]] for s in sols] == [[-2.0, 5.0], [2.0, 1.0]]
    with pytest.raises(Rejection, match="too many"):
        enumerate_algebraic([x**2 == 4, x + y == 3], [x, y], 1)
    sols = enumerate_algebraic([x**2 == 2, y == 1], [x, y], None)
    assert isinstance(sols, list)
    assert [[s[x], s[y]] for s in sols] == [[-1.4142135623, 1.0], [1.4142135623, 1.0]]
    assert enumerate_algebraic([x + y == 2, x - y == 0], [x, y], None) is None  # linear


def _sympy_real_count(polys: list, gens: list) -> int | None:
    """Distinct real solutions by SymPy: lex basis in shape position, real roots of the
    eliminant (None when the basis is not in shape position)."""
    g = sp.groebner(polys, *gens, order="lex")
    if list(g.exprs) == [1]:
        return 0
    last = gens[-1]
    uni = [p for p in g.exprs if p.free_symbols <= {last}]
    if len(uni) != 1 or len(g.exprs) != len(gens):
        return None
    for p, v in zip(g.exprs[:-1], gens[:-1], strict=True):
        lc = sp.Poly(p, v).LC()  # shape position: p = lc * v - g(last), lc a number
        if (
            sp.Poly(p, v).degree() != 1
            or lc.free_symbols
            or not (p - lc * v).free_symbols <= {last}
        ):
            return None
    return len(set(sp.Poly(sp.sqf_part(uni[0]), last).real_roots()))


def test_random_systems_against_sympy() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        n = rng.choice([2, 3])
        xs = z3.Reals(" ".join(f"v{i}" for i in range(n)))
        ss = sp.symbols(" ".join(f"v{i}" for i in range(n)))
        sol = [rng.randint(-5, 5) for _ in range(n)]
        eqs, polys = [], []
        for _i in range(n):
            # a power of one unknown plus a linear part: the shape of 37-equation's formulas
            k = rng.choice([2, 3])
            coef = [rng.randint(-3, 3) for _ in range(n)]
            j = rng.randrange(n)
            lhs_z = xs[j] ** k + sum(c * v for c, v in zip(coef, xs, strict=True))
            lhs_s = ss[j] ** k + sum(c * v for c, v in zip(coef, ss, strict=True))
            val = sol[j] ** k + sum(c * s for c, s in zip(coef, sol, strict=True))
            eqs.append(lhs_z == val)
            polys.append(sp.expand(lhs_s - val))
        got = _solve(eqs, list(xs))
        expected = _sympy_real_count(polys, list(ss))
        if got is None or expected is None:
            continue
        count = len(got.points) if got.points is not None else got.real_count
        assert count == expected, (eqs, got, expected)
        if got.points is not None:
            assert tuple(Fraction(s) for s in sol) in got.points
            for pt in got.points:  # each point checked by substitution
                assert all(sp.expand(p.subs(dict(zip(ss, pt, strict=True)))) == 0 for p in polys)
        checked += 1
    assert checked >= 30


# two irrational real solutions, x = +-sqrt(2) (closed form), y = x + 1
IRRATIONAL_SPEC = """\
variables:
  names:
    formula: "['x', 'y']"
symbols:
  r:
    source:
    - names
    type: float
conditions:
  system:
    formula: And(r['x'] * r['x'] == 2, r['y'] == r['x'] + 1)
queries:
  q1:
    desc: Solve for x and y.
    ans_formula: to_unique([[get_value(_model, r[n]) for n in names] for _model in _solutions])
    ans_text: str(_ans)
    ans_assertion: len(_ans) == 1
desc: "x * x = 2 and y = x + 1. {q1}"
max_solution: 1
"""


def test_proven_real_count_past_max_solution_rejects_without_z3(tmp_path, monkeypatch) -> None:
    """The algebra proves two distinct real solutions (Hermite's count; the equations are
    the whole model) and max_solution is 1: "too many solutions" before any Z3 backend."""
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import make_rng
    from puzzleforge.spec import backends
    from puzzleforge.spec.family import SpecParams, load_spec_family

    x, y = z3.Reals("x y")
    assert _solve([x * x == 2, y == x + 1], [x, y]) == Solved(
        None,
        2,
        [
            RealPoint(("-1.4142135623", "-0.4142135623")),
            RealPoint(("1.4142135623", "2.4142135623")),
        ],
    )
    with pytest.raises(Rejection, match="too many"):
        enumerate_algebraic([x * x == 2, y == x + 1], [x, y], 1)
    ran: list[str] = []

    def spy(b: backends.Backend) -> backends.Backend:
        def run(a, p, limit):  # type: ignore[no-untyped-def]
            ran.append(b.name)
            return b.run(a, p, limit)

        return backends.Backend(b.name, b.applies, run)

    monkeypatch.setattr(backends, "ENUMERATE", tuple(spy(b) for b in backends.ENUMERATE))
    path = tmp_path / "irrational.yaml"
    path.write_text(IRRATIONAL_SPEC, encoding="utf-8")
    family = load_spec_family(path, trust=True)  # in this process: the spy sees the backends
    with pytest.raises(GenerationFailed) as info:
        family.generate(SpecParams(attempts=1), make_rng(1))
    assert info.value.reasons == {"too many solutions": 1}
    assert ran[-1] == "algebraic"
    assert not any(name.startswith("z3") for name in ran)


def test_irrational_points_past_the_size_limit_pass_on_the_count(monkeypatch) -> None:
    """Past a work limit (here coefficient size, realpoints.MAX_BITS): only the number of
    real solutions is proven, as before the points were built."""
    x, y = z3.Reals("x y")
    monkeypatch.setattr(realpoints, "MAX_BITS", 1)
    assert _solve([x**2 == 2, y == 1], [x, y]) == Solved(None, 2, None)
    assert enumerate_algebraic([x**2 == 2, y == 1], [x, y], None) == 2


def _truncated(v: sp.Expr) -> str:
    """SymPy's value of ``v`` (exact when rational, else to 40 significant digits),
    truncated toward zero to 10 places."""
    value = v if v.is_Rational else sp.Float(sp.N(v, 40), 40)
    num = int(sp.floor(abs(value) * 10**10))
    whole, frac = divmod(num, 10**10)
    return f"{'-' if value < 0 else ''}{whole}.{frac:010d}"


def test_irrational_points_against_sympy() -> None:
    """Random systems with irrational real solutions: every point's decimals against
    SymPy's lexicographic basis in shape position, its exact real roots (``CRootOf``)
    and 40-digit evaluation of the other coordinates (an independent computation)."""
    rng = random.Random(11)
    checked = 0
    for _ in range(80):
        n = rng.choice([2, 3])
        xs = z3.Reals(" ".join(f"v{i}" for i in range(n)))
        ss = sp.symbols(" ".join(f"v{i}" for i in range(n)))
        eqs, polys = [], []
        for _i in range(n):
            k = rng.choice([2, 3])
            coef = [rng.randint(-3, 3) for _ in range(n)]
            j = rng.randrange(n)
            val = rng.randint(-6, 6)
            eqs.append(xs[j] ** k + sum(c * v for c, v in zip(coef, xs, strict=True)) == val)
            polys.append(ss[j] ** k + sum(c * v for c, v in zip(coef, ss, strict=True)) - val)
        got = _solve(eqs, list(xs))
        if got is None or got.real is None:
            continue
        g = sp.groebner(polys, *ss, order="lex")
        last = ss[-1]
        uni = [p for p in g.exprs if p.free_symbols <= {last}]
        if len(uni) != 1 or len(g.exprs) != n:
            continue
        back = {}
        for p, v in zip(g.exprs[:-1], ss[:-1], strict=True):
            sol = sp.solve(p, v)
            if len(sol) != 1 or not sol[0].free_symbols <= {last}:
                break
            back[v] = sol[0]
        else:
            expected = set()
            for t in sp.Poly(sp.sqf_part(uni[0]), last).real_roots():
                pt = [back[v].subs(last, t) if v in back else t for v in ss]
                expected.add(tuple(_truncated(c) for c in pt))
            decimals = {
                tuple(c if isinstance(c, str) else _truncated(sp.Rational(c)) for c in p.coords)
                for p in got.real
            }
            assert decimals == expected, (eqs, got)
            checked += 1
    assert checked >= 10
