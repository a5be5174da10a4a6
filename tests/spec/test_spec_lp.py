"""The exact linear path (spec/lp.py, linear.py, linsystem.py, lpmode.py) against Z3.

Why these tests: the path replaces Z3's Optimize for linear Real specs, so every outcome
it reports (optimum and point, "optimum not attained", "no solution") must be the one Z3
reaches, on random problems with strict rows and equalities, and whole specs must give
byte-identical puzzles with and without it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
import z3

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec import columnmode, formulagen, intlinalg, lp, lpmode, mathexpr
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.linsystem import _forms
from puzzleforge.spec.solving import _attained, _number
from puzzleforge.spec.terms import Fallback

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "puzzleclone"


def _random_lp(rng: random.Random) -> tuple[list, list, int]:
    n = rng.randint(1, 5)
    rows = []
    for _ in range(rng.randint(0, 6)):
        a = [rng.choice([0, 0, rng.randint(-9, 9)]) for _ in range(n)]
        b = rng.randint(-30, 30)
        op = rng.choice(["le", "lt", "eq", "ge", "gt"])
        if op in ("ge", "gt"):
            a, b, op = [-v for v in a], -b, "le" if op == "ge" else "lt"
        rows.append((a, b, op))
    for j in range(n):  # boxed, as a spec's domain condition makes it
        e = [0] * n
        e[j] = 1
        m = rng.randint(1, 40)
        rows.append((e, m, "le"))
        rows.append(([-v for v in e], m, "le"))
    return rows, [rng.randint(-5, 5) for _ in range(n)], n


def _z3_rows(rows: list, xs: list) -> list:
    out = []
    for a, b, k in rows:
        lhs = z3.Sum([ai * x for ai, x in zip(a, xs, strict=True)]) if any(a) else z3.RealVal(0)
        out.append({"le": lhs <= b, "lt": lhs < b, "eq": lhs == b}[k])
    return out


def _z3_outcome(rows: list, c: list, n: int) -> tuple:
    xs = [z3.Real(f"x{j}") for j in range(n)]
    opt = z3.Optimize()
    opt.add(_z3_rows(rows, xs))
    goal = opt.maximize(z3.Sum([ci * x for ci, x in zip(c, xs, strict=True)]))
    if opt.check() == z3.unsat:
        return ("infeasible",)
    value = opt.model().evaluate(
        z3.Sum([ci * x for ci, x in zip(c, xs, strict=True)]), model_completion=True
    )
    if _attained(goal, value):
        return ("optimal", _number(value))
    return ("unattained",)


def test_certified_outcomes_are_z3s_outcomes():
    rng = random.Random(20261126)
    decided = 0
    for _ in range(600):
        rows, c, n = _random_lp(rng)
        got = lp.solve_lp(rows, c, n)
        if got is None:  # not proved: the caller asks Z3
            continue
        decided += 1
        want = _z3_outcome(rows, c, n)
        assert got.status == want[0], (rows, c)
        if got.status == "optimal":
            assert got.value == want[1]
            for a, b, k in rows:  # the point is feasible, strict rows strictly
                lhs = sum(Fraction(ai) * x for ai, x in zip(a, got.point, strict=True))
                assert {"le": lhs <= b, "lt": lhs < b, "eq": lhs == b}[k]
            assert sum(Fraction(ci) * x for ci, x in zip(c, got.point, strict=True)) == got.value
    assert decided >= 550  # the path decides nearly everything itself


def test_uniqueness_claims_hold():
    # unique=True: no other optimal point (Z3 finds none); False: Z3 finds another one
    rng = random.Random(7)
    checked = 0
    for _ in range(500):
        rows, c, n = _random_lp(rng)
        got = lp.solve_lp(rows, c, n)
        if got is None or got.status != "optimal" or got.unique is None:
            continue
        xs = [z3.Real(f"x{j}") for j in range(n)]
        s = z3.Solver()
        s.add(_z3_rows(rows, xs))
        s.add(z3.Sum([ci * x for ci, x in zip(c, xs, strict=True)]) == z3.RealVal(str(got.value)))
        s.add(z3.Or([x != z3.RealVal(str(v)) for x, v in zip(xs, got.point, strict=True)]))
        assert (s.check() == z3.unsat) == got.unique, (rows, c)
        checked += 1
    assert checked >= 120


def test_exact_solve_of_integer_systems():
    rng = random.Random(3)
    for _ in range(2000):
        n = rng.randint(1, 6)
        mat = [
            [rng.randint(-6, 6) if rng.random() < 0.7 else 0 for _ in range(n)] for _ in range(n)
        ]
        rhs = [rng.randint(-20, 20) for _ in range(n)]
        got = intlinalg._solve(mat, rhs)
        ref = intlinalg._solve_fraction(mat, rhs)
        assert (got is None) == (ref is None)
        if got is not None:
            x = [Fraction(v, got[1]) for v in got[0]]
            assert got[1] > 0
            assert all(
                sum(a * xi for a, xi in zip(row, x, strict=True)) == b
                for row, b in zip(mat, rhs, strict=True)
            )


def test_decimal_values_are_z3s():
    rng = random.Random(5)
    for _ in range(3000):
        v = Fraction(
            rng.randint(-(10**7), 10**7), rng.choice([1, 3, 7, 100, 3**9, rng.randint(1, 10**6)])
        )
        z = z3.RealVal(f"{v.numerator}/{v.denominator}").as_decimal(10)
        assert lpmode.decimal_float(v) == float(z.rstrip("?"))


def test_linear_forms_match_the_formula_and_refuse_overflow():
    rng = random.Random(9)
    for _ in range(200):
        n = rng.randint(1, 4)
        for text in formulagen.generate_formulas(rng, 3, n, is_cond=False, allow_power=False):
            node = mathexpr.parse_formula(text, n)
            mathexpr.GENERATED_FORMS.clear()  # linearise the parse, not the generator's record
            kind, _, coef, seen = _forms([text], lambda node=node: [node], n)[0]
            point = [rng.randint(-50, 50) for _ in range(n)]
            assert mathexpr._value(node, point) == coef[0] + sum(
                c * x for c, x in zip(coef[1:], point, strict=True)
            )
            assert list(seen) == list(
                dict.fromkeys(int(t) for t in text.split("(Var ")[1:] for t in [t.split(")")[0]])
            )
    huge = "(Mul (Mul (Var 0) (Const 4294967296)) (Const 4294967296))"
    with pytest.raises(Fallback):
        _forms([huge], lambda: [mathexpr.parse_formula(huge, 1)], 1)


def _generate(path: Path, count: int, seed: int, *, linear: bool) -> list[tuple[str, str]]:
    saved = lpmode.linear_optimize
    if not linear:  # the pure Z3 path: leave the mode at once

        def to_z3(a, kind):
            columnmode.to_z3(a)
            return False

        lpmode.linear_optimize = to_z3
    try:
        fam = load_spec_family(path)
        rng = make_rng(seed)
        out = []
        for _ in range(count):
            p = fam.generate(SpecParams(attempts=50), rng)
            out.append((p.question, p.answer))
        return out
    finally:
        lpmode.linear_optimize = saved


def test_linearprog_puzzles_are_the_z3_paths():
    spec = CORPUS / "38-linearprog.yaml"
    if not spec.exists():
        pytest.skip(f"corpus spec {spec} is absent (../shared not beside the checkout)")
    assert _generate(spec, 40, 11, linear=True) == _generate(spec, 40, 11, linear=False)


STRICT_SPEC = """\
variables:
  names:
    formula: "['x', 'y']"
  cap:
    type: int
    domain: "[1, 9]"
symbols:
  r:
    source:
    - names
    type: float
conditions:
  box:
    formula: And(r['x'] >= 0, r['y'] >= 0, r['x'] + r['y'] < cap, r['x'] <= 2 * cap)
optimize:
  type: maximize
  formula: r['x'] + r['y'] - 1
queries:
  q1:
    desc: Largest x + y - 1?
    ans_formula: _value
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "{q1}"
"""


def test_strict_bound_is_rejected_like_z3(tmp_path):
    # x + y < cap caps the objective: no optimum, on both paths, with the same reason
    path = tmp_path / "strict.yaml"
    path.write_text(STRICT_SPEC, encoding="utf-8")
    for linear in (True, False):
        with pytest.raises(
            GenerationFailed, match="rejections by reason: optimum not attained: 50[.]$"
        ):
            _generate(path, 1, 3, linear=linear)


# Specs of our own exercising the path's edges; each must give the same bytes with the
# linear path as with Z3 alone (or be handed back to Z3: floats, !=, products).
_EDGE_SPECS = {
    # a diet: minimise cost with an equality, random bounds, a strict row, Sum over a list
    "diet": """\
variables:
  names:
    formula: "['a', 'b', 'c']"
  need:
    type: int
    domain: "[5, 30]"
  cap:
    type: int
    domain: "[3, 12]"
symbols:
  q:
    source:
    - names
    type: float
conditions:
  box:
    formula: And([And(q[n] >= 0, q[n] <= cap) for n in names])
  total:
    formula: Sum([q[n] for n in names]) == need
  mix:
    formula: 2 * q['a'] - q['b'] < cap
optimize:
  type: minimize
  formula: 3 * q['a'] + 2 * q['b'] + 5 * q['c'] + 1
queries:
  q1:
    desc: Cheapest cost?
    ans_formula: _value
    ans_text: str(_ans)
    ans_assertion: 'True'
  q2:
    desc: How much of b then?
    ans_formula: get_value(_solutions, q['b'])
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "Need {need}, at most {cap} each. {q1} {q2}"
""",
    # several optima and max_solution 1: rejected unless the optimum is unique
    "unique": """\
variables:
  names:
    formula: "['x', 'y']"
  w:
    type: int
    domain: "[0, 2]"
symbols:
  r:
    source:
    - names
    type: float
conditions:
  box:
    formula: And(r['x'] >= 0, r['y'] >= 0, r['x'] + r['y'] <= 4, r['x'] <= 3)
max_solution: 1
optimize:
  type: maximize
  formula: w * r['x'] + r['y']
queries:
  q1:
    desc: Best?
    ans_formula: str(_value) + ' at ' + str(_solutions.evaluate(2 * r['x']))
    ans_text: _ans
    ans_assertion: 'True'
desc: "w = {w}. {q1}"
""",
    # outside the path: a float bound, a disequality, a product of unknowns
    "outside": """\
variables:
  names:
    formula: "['x', 'y']"
  k:
    type: int
    domain: "[0, 2]"
symbols:
  r:
    source:
    - names
    type: float
conditions:
  box:
    formula: And(r['x'] >= 0, r['y'] >= 0, r['x'] + r['y'] <= 2.5)
  odd:
    formula: "[r['x'] != 1, r['x'] * r['y'] >= 0] if k == 0 else r['x'] != r['y']"
optimize:
  type: maximize
  formula: r['x'] + 2 * r['y']
queries:
  q1:
    desc: Best?
    ans_formula: _value
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "{q1}"
""",
}


@pytest.mark.parametrize("name", sorted(_EDGE_SPECS))
def test_edge_specs_give_the_z3_paths_bytes(tmp_path, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(_EDGE_SPECS[name], encoding="utf-8")
    linear_path = _generate(path, 12, 5, linear=True)
    assert len(linear_path) == 12
    assert linear_path == _generate(path, 12, 5, linear=False)


def test_generated_first_seen_is_the_regex_order():
    # linsystem._first_seen (str.find per variable) stands for the regex walk on generated texts
    from puzzleforge.spec.linsystem import _VAR_TOKEN, _first_seen

    for seed in range(400):
        rng = random.Random(seed)
        n = rng.randint(1, 12)
        for text in formulagen.generate_formulas(
            rng, 4, n, is_cond=seed % 2 == 0, allow_power=seed % 3 == 0
        ):
            want = tuple(dict.fromkeys(int(m) for m in _VAR_TOKEN.findall(text)))
            assert _first_seen(text, n) == want, text


def test_formula_tokens_are_the_regex_tokens():
    # parse_formula splits on whitespace instead of the _TOKEN regex: the same tokens,
    # odd whitespace and stray characters included (so the same trees and errors)
    assert mathexpr.parse_formula(" (Add\t(Var 1)\n( Const  7 ))", 2) == (
        "Add",
        ("Var", 1),
        ("Const", 7),
    )
    rng = random.Random(5)
    alphabet = [
        "(",
        ")",
        " ",
        "\t",
        "\n",
        "\x1c",
        "\xa0",
        "\u2003",
        "\u3000",
        "\x85",
        "\u200b",
        "Var",
        "Add",
        "Const",
        "1",
        "-",
        ".",
        "e",
    ]
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert text.replace("(", " ( ").replace(")", " ) ").split() == mathexpr._TOKEN.findall(text)


def test_linearprog_attempts_leave_no_cycles():
    # each attempt's objects are freed by reference counting (no gen-0 GC passes, ~0.25 ms
    # a puzzle): recursive closures and the attempt <-> runtime link are broken when done
    import gc

    spec = CORPUS / "38-linearprog.yaml"
    if not spec.exists():
        pytest.skip(f"corpus spec {spec} is absent (../shared not beside the checkout)")
    fam = load_spec_family(spec)
    params = SpecParams(attempts=1, max_seconds=60)

    def run(first: int, count: int) -> None:
        for i in range(first, first + count):
            try:  # noqa: SIM105 - the comment below says why it is swallowed
                fam.generate(params, make_rng(i))
            except Exception:  # noqa: BLE001 - rejected attempts count too
                pass

    run(0, 5)  # caches and lazy imports
    gc.collect()
    saved = gc.get_debug()
    gc.disable()
    try:
        gc.set_debug(gc.DEBUG_SAVEALL)
        run(100, 20)
        gc.collect()
        garbage = list(gc.garbage)
        gc.garbage.clear()
    finally:
        gc.set_debug(saved)
        gc.enable()
    assert len(garbage) == 0, sorted({type(o).__name__ for o in garbage})


def test_unit_row_substitution_solves_like_elimination():
    # intlinalg._solve_units (unit rows fix their columns first) against plain elimination
    rng = random.Random(77)
    for _ in range(3000):
        n = rng.randint(1, 6)
        mat = []
        for _ in range(n):
            if rng.random() < 0.5:
                row = [0] * n
                row[rng.randrange(n)] = rng.choice([1, -1])
            else:
                row = [rng.choice([0, 0, rng.randint(-9, 9)]) for _ in range(n)]
            mat.append(row)
        rhs = [rng.randint(-20, 20) for _ in range(n)]
        a, b = intlinalg._solve_units(mat, rhs), intlinalg._solve(mat, rhs)
        assert (a is None) == (b is None), (mat, rhs)
        if a is not None:
            assert a[1] > 0 and [Fraction(v, a[1]) for v in a[0]] == [
                Fraction(v, b[1]) for v in b[0]
            ]


def test_small_solves_are_the_elimination():
    # intlinalg._solve writes out 1x1 and 2x2 systems: the same numerators and denominator as
    # the fraction-free elimination (each entry a minor; the denominator |det|)
    def bareiss(mat, rhs):
        n = len(mat)
        aug = [list(r) + [b] for r, b in zip(mat, rhs, strict=True)]
        prev = 1
        for k in range(n):
            p = next((r for r in range(k, n) if aug[r][k]), None)
            if p is None:
                return None
            aug[k], aug[p] = aug[p], aug[k]
            for r in range(n):
                if r != k:
                    aug[r] = [
                        (x * aug[k][k] - aug[r][k] * y) // prev
                        for x, y in zip(aug[r], aug[k], strict=True)
                    ]
            prev = aug[k][k]
        num = [aug[r][n] for r in range(n)]
        return (num, prev) if prev > 0 else ([-v for v in num], -prev)

    rng = random.Random(3)
    for _ in range(5000):
        n = rng.randint(1, 2)
        mat = [[rng.choice([0, rng.randint(-9, 9)]) for _ in range(n)] for _ in range(n)]
        rhs = [rng.randint(-30, 30) for _ in range(n)]
        got = intlinalg._solve(mat, rhs)
        want = bareiss(mat, rhs)
        assert (got is None and want is None) or (list(got[0]), got[1]) == want, (mat, rhs)
