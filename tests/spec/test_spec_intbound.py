"""Integer polynomial systems made finite by a bound (spec/intbound.py) and their audit
(spec/auditintbox.py), against brute force over boxes justified in each test.

Expected values never come from the code under test: every solution set is enumerated
by brute force over a box whose bound is proved in the test's docstring, or read from a
closed form.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from pathlib import Path

import pytest
import z3

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec.audit import audit_problem
from puzzleforge.spec.auditcapture import Problem
from puzzleforge.spec.auditintbox import audit_int_box
from puzzleforge.spec.intbound import enumerate_int_bound
from puzzleforge.spec.outcome import Rejection

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"
SEEDS = Path(__file__).resolve().parent / "data" / "corpus_seeds.json"


def _solve(build, names: str, limit: int | None = None):
    """``enumerate_int_bound`` on the constraints ``build(*consts)``: sorted value tuples."""
    ctx = z3.Context()
    consts = z3.Ints(names, ctx=ctx)
    got = enumerate_int_bound(build(*consts), consts, limit)
    if got is None:
        return None
    return sorted(tuple(s.values[c.get_id()] for c in consts) for s in got)


def _box(pred, bound: int) -> list[tuple[int, int]]:
    r = range(-bound, bound + 1)
    return sorted((x, y) for x in r for y in r if pred(x, y))


def _odd_power_bound(c: int, n: int) -> int:
    """For odd ``n`` and ``x**n - y**n == c != 0``, ``M = max(|x|, |y|)`` obeys
    ``n (M - 1)**(n - 1) <= |c|``: opposite signs give ``|x|**n + |y|**n >= M**n``, equal
    signs (``x != y``) ``M**n - (M - 1)**n``, and both are at least ``n (M - 1)**(n - 1)``
    (mean value theorem). ``x**n + y**n`` is ``x**n - (-y)**n``."""
    r = 0  # the least r with n r**(n-1) >= |c|: then M - 1 <= r
    while n * r ** (n - 1) < abs(c):
        r += 1
    return r + 1


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("sign", [-1, 1])
def test_sums_and_differences_of_odd_powers(n: int, sign: int) -> None:
    rng = random.Random(n * 10 + sign)
    values = [7, 19, 91, 1729, -26, 2, 4104]
    values += [rng.randint(-9, 9) ** n + sign * rng.randint(-9, 9) ** n for _ in range(4)]
    for c in values:
        if c == 0:
            continue

        def build(x, y, c=c):
            return [x**n + sign * y**n == c]

        bound = _odd_power_bound(c, n) + 1
        want = _box(lambda x, y, c=c: x**n + sign * y**n == c, bound)
        assert _solve(build, "x y") == want, (n, sign, c)


def test_difference_of_squares() -> None:
    """``(x - y)(x + y) = c``: both factors are nonzero integers of size at most ``|c|``,
    so ``|x|, |y| <= |c|``."""
    for c in (1, 15, 16, -12, 45, 97, -360):
        want = _box(lambda x, y, c=c: x * x - y * y == c, abs(c))
        assert _solve(lambda x, y, c=c: [x * x - y * y == c], "x y") == want, c


def _cubic_brute(a: int, b: int, c: int, d: int | None, q: int) -> list[tuple]:
    """``m + a == x**3, m + b == y**2, m + c == z**3`` (and ``m + d == q * w``), every
    unknown positive: ``z**3 - x**3 = c - a = C``; ``C > 0`` forces ``z > x >= 1`` and
    ``C >= z**3 - (z-1)**3 > 3 x**2``, so ``x <= isqrt(C // 3) + 1``; ``z`` is the exact
    cube root of ``x**3 + C``, ``m``, ``y``, ``w`` follow exactly."""
    out = []
    big = c - a
    assert big > 0
    for x in range(1, math.isqrt(big // 3) + 2):
        t = x**3 + big
        z = round(t ** (1 / 3))
        z = next((v for v in (z - 1, z, z + 1) if v**3 == t), None)
        m = x**3 - a
        if z is None or m <= 0:
            continue
        s = m + b
        if s <= 0 or math.isqrt(s) ** 2 != s:
            continue
        row = (m, x, math.isqrt(s), z)
        if d is not None:
            if (m + d) % q or (m + d) // q <= 0:
                continue
            row += ((m + d) // q,)
        out.append(row)
    return sorted(out)


def test_cubic_systems_with_linear_elimination_match_brute_force() -> None:
    """68-cubic's shape with drawn numbers, the conditions in shuffled order (the
    elimination then starts from another equation and needs sums/differences)."""
    rng = random.Random(68)
    checked = 0
    for _ in range(40):
        x1 = rng.randint(2, 8)
        x2, x3 = rng.randint(x1 + 5, x1 + 60), rng.randint(x1 + 1, x1 + 20)
        a = rng.randint(1, x1 * x1)
        b, c = x2 * x2 - x1**3 + a, x3**3 - x1**3 + a
        q = rng.choice([7, 13, 19])
        d = rng.randint(300, 800) * q - (x1**3 - a) if rng.random() < 0.7 else None

        def build(m, x, y, z, w, a=a, b=b, c=c, d=d, q=q):
            cs = [z3.And(m > 0, x > 0, y > 0, z > 0, w > 0)]
            cs += [m + a == x**3, m + b == y**2, m + c == z**3]
            if d is not None:
                cs.append(m + d == q * w)
            rng.shuffle(cs)
            return cs

        want = _cubic_brute(a, b, c, d, q)
        if d is None:  # w is free (only w > 0): infinitely many solutions, or none
            got = _solve(build, "m x y z w")
            assert got is None if want else got == []
            with pytest.raises(Rejection) if want else contextlib.nullcontext():
                _solve(build, "m x y z w", limit=1)
            continue
        assert _solve(build, "m x y z w") == want
        checked += 1
    assert checked >= 20


def test_shapes_it_must_not_claim() -> None:
    """Pell (no rational linear factor: infinitely many), a form that is a power of its
    linear factor (``(x - y)**3 = 8``: the whole line ``x - y = 2``), ``C = 0``, and an
    unknown nothing bounds: the backend gives None, the next backend decides."""
    assert _solve(lambda x, y: [x * x - 2 * y * y == 1, x > 0, y > 0], "x y") is None
    assert _solve(lambda x, y: [(x - y) ** 3 == 8], "x y") is None
    assert _solve(lambda x, y: [x**3 == y**3], "x y") is None
    assert _solve(lambda x, y, z: [x**3 - y**3 == 7, z * z > 4], "x y z") is None


def _problem(build, names: str, stored: list[tuple[int, ...]]) -> Problem:
    ctx = z3.Context()
    consts = z3.Ints(names, ctx=ctx)
    s = z3.Solver(ctx=ctx)
    s.add(build(*consts))
    sols = [[("int", str(v)) for v in row] for row in stored]
    return Problem("enumerate", s.to_smt2(), names.split(), ["int"] * len(consts), sols)


def test_audit_decides_by_its_own_box() -> None:
    """91 = 6**3 - 5**3 = 4**3 - (-3)**3 (and the same pairs swapped and negated: brute force
    over the proven box): the complete set passes, a missing one is ``ambiguous``, a
    non-solution ``wrong``; Pell is not claimed (the solver rounds find (17, 12) or stay
    undecided: never ``pass``)."""

    def build(x, y):
        return [x**3 - y**3 == 91]

    sols = _box(lambda x, y: x**3 - y**3 == 91, _odd_power_bound(91, 3) + 1)
    assert sols == [(-5, -6), (3, -4), (4, -3), (6, 5)]
    assert audit_int_box(_problem(build, "x y", sols), 60).status == "pass"
    assert audit_int_box(_problem(build, "x y", sols[:3]), 60).status == "ambiguous"
    assert audit_int_box(_problem(build, "x y", sols + [(1, 1)]), 60).status == "wrong"
    pell = _problem(lambda x, y: [x * x - 2 * y * y == 1, x > 0, y > 0], "x y", [(3, 2)])
    assert audit_int_box(pell, 60) is None  # no bounded eliminant: not claimed
    assert audit_problem(pell, 2.0).status in ("ambiguous", "undecided")


PELL_SPEC = """\
variables:
  k:
    type: int
    domain: "[1, 1]"
symbols:
  vars:
    source:
    - "['x', 'y']"
    type: int
conditions:
  positive:
    formula: And([v > 0 for v in vars])
  pell:
    formula: vars['x'] ** 2 - 2 * vars['y'] ** 2 == k
max_solution: 1
queries:
  q1:
    desc: k?
    ans_formula: k
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "x^2 - 2 y^2 = {k}. {q1}"
"""


def test_pell_spec_gives_no_puzzle(tmp_path: Path) -> None:
    from puzzleforge.spec.family import load_spec_family

    path = tmp_path / "pell.yaml"
    path.write_text(PELL_SPEC, encoding="utf-8")
    fam = load_spec_family(path, trust=True)
    with pytest.raises(GenerationFailed) as info:
        fam.generate(fam.Params(attempts=2), make_rng(1))
    assert set(info.value.reasons) <= {"too many solutions", "uniqueness undecided"}


def _cubic_config_brute(cfg: dict) -> set[int]:
    d = cfg["plus4"] if cfg["if_plus4"] else None
    a = cfg["plus1"]
    rows = _cubic_brute(
        a, a + cfg["plus2"], a + cfg["plus2"] + cfg["plus3"], None, cfg["divided_num"]
    )
    if d is not None:
        base = a + cfg["plus2"] + cfg["plus3"] + d
        q = cfg["divided_num"]
        rows = [r for r in rows if (r[0] + base) % q == 0 and (r[0] + base) // q > 0]
    return {r[0] for r in rows}


@pytest.mark.skipif(not CORPUS.exists(), reason="needs ../shared/corpus/puzzleclone")
def test_cubic_corpus_puzzles_are_brute_forced_audited_and_deterministic() -> None:
    """Five recorded 68-cubic seeds: the answer is the brute force's only X, the audit
    passes (by its own box), and a new family gives the same bytes."""
    from puzzleforge.spec.family import load_spec_family

    entries = json.loads(SEEDS.read_text(encoding="utf-8"))["68-cubic"]["seeds"][:5]
    fam = load_spec_family(CORPUS / "68-cubic.yaml", trust=True)
    again = load_spec_family(CORPUS / "68-cubic.yaml", trust=True)
    for e in entries:
        p = stamp(fam.generate(fam.Params(attempts=1), make_rng(e["seed"])), e["seed"])
        assert _cubic_config_brute(p.config) == {int(p.answer)} and p.answer == e["answer"]
        out = fam.audit_uniqueness(p, 60.0)
        assert (out.status, out.method) == ("pass", "int-box")
        q = stamp(again.generate(again.Params(attempts=1), make_rng(e["seed"])), e["seed"])
        assert q.to_json() == p.to_json()


def test_nonlinear_equations_gate() -> None:
    """The raw walk that lets the backend skip models with no nonlinear equation: a
    product or power in an equation counts, one in an inequality or a linear equation
    does not (the hand-made answers below)."""
    from puzzleforge.spec.nonlinear import nonlinear_equations

    ctx = z3.Context()
    x, y = z3.Ints("x y", ctx=ctx)
    assert nonlinear_equations([z3.And(x > 0, x * y == 6)])
    assert nonlinear_equations([x**2 == y + 1])
    assert not nonlinear_equations([x * y > 6, x - y == 1])
    assert not nonlinear_equations([z3.Or(x * y == 6, x == 1)])  # not a top-level equation


def test_two_squares_spec_is_proven() -> None:
    """tests/spec/data/unseen/two_squares.yaml: ``m + 50 = a**2, m + 71 = b**2`` over
    positive integers, so ``(b - a)(b + a) = 21 = 1 * 21 = 3 * 7``: ``(a, b) = (10, 11)``
    or ``(2, 5)``, and only ``a = 10`` gives ``m = a**2 - 50 > 0``: the answer is 50
    (until session 13 Z3's undecided check rejected every attempt)."""
    from puzzleforge.spec.family import load_spec_family

    path = Path(__file__).resolve().parent / "data" / "unseen" / "two_squares.yaml"
    fam = load_spec_family(path, trust=True)
    puzzle = fam.generate(fam.Params(attempts=1), make_rng(1))
    assert puzzle.answer == "50"
    assert fam.audit_uniqueness(puzzle, 60.0).status == "pass"


def test_audit_wide_box_and_ranged_variable() -> None:
    """A box too wide to scan (``x**3 - y**3 = 885248 = 1729 * 8**3``, the taxicab number
    times a cube: ``8**3 + 96**3 = 72**3 + 80**3``; the audit's box is
    ~2170 wide) is solved column by column; a variable no equation determines but numbers
    bound on both sides (``1 <= z <= 3``) is tried over its range, in generation as in the
    audit. Expected sets by brute force over the proved boxes."""
    c = 885248
    want = _box(lambda x, y: x**3 - y**3 == c, _odd_power_bound(c, 3) + 1)
    assert want == [(8, -96), (72, -80), (80, -72), (96, -8)]
    assert audit_int_box(_problem(lambda x, y: [x**3 - y**3 == c], "x y", want), 120).status == (
        "pass"
    )

    def ranged(x, y, z):
        return [x**3 - y**3 == 7, z >= 1, z <= 3]

    base = _box(lambda x, y: x**3 - y**3 == 7, _odd_power_bound(7, 3) + 1)
    assert base == [(-1, -2), (2, 1)]
    sols = sorted((x, y, z) for x, y in base for z in (1, 2, 3))
    assert _solve(ranged, "x y z") == sols
    assert audit_int_box(_problem(ranged, "x y z", sols), 60).status == "pass"
    assert audit_int_box(_problem(ranged, "x y z", sols[:-1]), 60).status == "ambiguous"


@pytest.mark.parametrize(
    ("form", "box"),
    [
        # x^2 + y^2 = c: |x|, |y| <= isqrt(c)
        (lambda x, y: x * x + y * y, lambda c: math.isqrt(c)),
        # x^2 + x y + y^2 >= (x^2 + y^2) / 2: |x|, |y| <= isqrt(2c)
        (lambda x, y: x * x + x * y + y * y, lambda c: math.isqrt(2 * c)),
        # x^2 + 3 y^2 = c: |x|, |y| <= isqrt(c)
        (lambda x, y: x * x + 3 * y * y, lambda c: math.isqrt(c)),
        # x^4 + y^4 = c: |x|, |y| <= c^(1/4) <= isqrt(c)
        (lambda x, y: x**4 + y**4, lambda c: math.isqrt(c)),
    ],
)
def test_definite_forms_match_brute_force(form, box) -> None:
    """Forms with no real linear factor and no zero direction (no divisor argument): the
    backend bounds ``max(|x|, |y|)`` by the form's minimum on the unit square's boundary."""
    for c in (1, 2, 3, 25, 50, 65, 97, 325, 1105, 4901):
        want = _box(lambda x, y, c=c: form(x, y) == c, box(c))
        assert _solve(lambda x, y, c=c: [form(x, y) == c], "x y") == want, c


def test_sum_of_squares_system_and_its_audit() -> None:
    """``m + 3 = x^2, 47 - m = y^2`` with positive unknowns: ``x^2 + y^2 = 50`` (so
    ``x, y <= 7``): the brute force over that box gives (m, x, y) = (22, 5, 5), (46, 7, 1);
    the audit agrees by its own box."""

    def build(m, x, y):
        return [m + 3 == x**2, 47 - m == y**2, m > 0, x > 0, y > 0]

    want = sorted(
        (x * x - 3, x, y)
        for x in range(1, 8)
        for y in range(1, 8)
        if x * x + y * y == 50 and x * x - 3 > 0
    )
    assert want == [(22, 5, 5), (46, 7, 1)]
    assert _solve(build, "m x y") == want
    assert audit_int_box(_problem(build, "m x y", want), 60).status == "pass"
    assert audit_int_box(_problem(build, "m x y", want[:1]), 60).status == "ambiguous"


def _line_cubic_brute(c: int) -> list[tuple[int, int]]:
    """``(x - y)(x^2 - 2y^2) = c != 0`` by brute force over ``|x|, |y| <= 4|c|``: ``d = x - y``
    divides ``c``, so ``0 < |d| <= |c|``; with ``x = y + d``, ``x^2 - 2y^2 = c / d`` reads
    ``(y - d)^2 = 2d^2 - c/d <= 3c^2``, so ``|y| <= |d| + 2|c| <= 3|c|`` and
    ``|x| <= |y| + |d| <= 4|c|``."""
    return _box(lambda x, y: (x - y) * (x * x - 2 * y * y) == c, 4 * abs(c))


def test_audit_divisor_lines_of_an_indefinite_cofactor() -> None:
    """``(x - y)(x^2 - 2y^2) = c``: the only linear factor's cofactor is Pell's indefinite
    form, so no box exists; generation (spec/intbound.py) and the audit (its own divisor
    lines) both give the brute-force set; a stored non-solution is ``wrong``, a missing
    one ``ambiguous``. ``x (x^2 - 2y^2) = c`` and ``y (y^2 - 2x^2) = c`` (lines with one
    coefficient zero): ``x`` divides ``c``, ``2y^2 = x^2 - c/x <= 2c^2``, so
    ``|x|, |y| <= |c|`` (and symmetrically)."""

    def cubic(x, y, c):
        return (x - y) * (x * x - 2 * y * y) - c

    for c in (1, 2, 14, 29, 34, -34, 56):
        want = _line_cubic_brute(c)
        assert want, c

        def build(x, y, c=c):
            return [cubic(x, y, c) == 0]

        assert _solve(build, "x y") == want, c
        assert audit_int_box(_problem(build, "x y", want), 60).status == "pass", c
        bad = want[:-1] + [(want[-1][0], want[-1][1] + 1)]
        assert audit_int_box(_problem(build, "x y", bad), 60).status == "wrong", c
        if len(want) > 1:
            assert audit_int_box(_problem(build, "x y", want[1:]), 60).status == "ambiguous"
    for c in (-28, 7, 12):
        for form in (
            lambda x, y: x * (x * x - 2 * y * y),
            lambda x, y: y * (y * y - 2 * x * x),
        ):
            want = _box(lambda x, y, c=c, form=form: form(x, y) == c, abs(c))

            def build(x, y, c=c, form=form):
                return [form(x, y) == c]

            assert _solve(build, "x y") == want, c
            assert audit_int_box(_problem(build, "x y", want), 60).status == "pass", c


def test_audit_divisor_lines_positive_unknowns(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``x, y > 0``: ``c = 29`` has the single solution (99, 70) (brute force above:
    the box ``|x|, |y| <= 116``), which ``verify``'s entry point (audit_problem) proves
    by the ``int-box`` method (before, the Z3 rounds stayed undecided); ``c = 42`` has two,
    (4, 1) and (8, 5): one stored is ``ambiguous``, a wrong one ``wrong``. Past the count
    of divisor lines the audit says ``undecided`` (56 has 8 divisors: 16 lines)."""
    from puzzleforge.spec import auditintbox

    def build(x, y, c):
        return [(x - y) * (x * x - 2 * y * y) == c, x > 0, y > 0]

    def positive(c):
        return [p for p in _line_cubic_brute(c) if p[0] > 0 and p[1] > 0]

    assert positive(29) == [(99, 70)] and positive(42) == [(4, 1), (8, 5)]
    one = _problem(lambda x, y: build(x, y, 29), "x y", [(99, 70)])
    assert _solve(lambda x, y: build(x, y, 29), "x y") == [(99, 70)]
    out = audit_problem(one, 30.0)
    assert (out.status, out.method) == ("pass", "int-box")
    assert _solve(lambda x, y: build(x, y, 42), "x y") == [(4, 1), (8, 5)]
    two = _problem(lambda x, y: build(x, y, 42), "x y", [(8, 5)])
    assert audit_int_box(two, 60).status == "ambiguous"
    off = _problem(lambda x, y: build(x, y, 42), "x y", [(4, 1), (8, 6)])
    assert audit_int_box(off, 60).status == "wrong"
    capped = _problem(lambda x, y: build(x, y, 56), "x y", positive(56))
    assert audit_int_box(capped, 60).status == "pass"
    monkeypatch.setattr(auditintbox, "MAX_DIVISOR_LINES", 15)
    assert audit_int_box(capped, 60).status == "undecided"


def test_audit_does_not_claim_a_whole_line() -> None:
    """``(x - y)^3 = 8``: the line ``x - y = 2`` is all solutions (infinitely many): the
    audit does not apply (None), as generation does not (above)."""
    whole = _problem(lambda x, y: [(x - y) ** 3 == 8], "x y", [(2, 0)])
    assert audit_int_box(whole, 60) is None


CUBIC_LINE_SPEC = """\
variables:
  k:
    type: int
    domain: "[29, 29]"
symbols:
  vars:
    source:
    - "['x', 'y']"
    type: int
conditions:
  positive:
    formula: And([v > 0 for v in vars])
  relation:
    formula: (vars['x'] - vars['y']) * (vars['x'] ** 2 - 2 * vars['y'] ** 2) == k
max_solution: 1
queries:
  q1:
    desc: What is x?
    ans_formula: get_value(_solutions[0], vars['x'])
    ans_text: str(_ans)
desc: "(x - y)(x^2 - 2y^2) = {k} with positive whole numbers x and y. {q1}"
"""


def test_indefinite_cofactor_spec_is_generated_and_verified(tmp_path: Path) -> None:
    """A spec of that shape (``c = 29``, x, y > 0: only (99, 70), brute force above): the
    puzzle's answer is 99 and its uniqueness audit passes by the divisor lines (before,
    generation proved it and ``verify`` said ``undecided``)."""
    from puzzleforge.spec.family import load_spec_family

    path = tmp_path / "cubic_line.yaml"
    path.write_text(CUBIC_LINE_SPEC, encoding="utf-8")
    fam = load_spec_family(path, trust=True)
    puzzle = fam.generate(fam.Params(attempts=1), make_rng(1))
    assert puzzle.answer == "99"
    out = fam.audit_uniqueness(puzzle, 60.0)
    assert (out.status, out.method) == ("pass", "int-box")
