"""The algebraic audit of polynomial systems (spec/auditalgebra.py): SymPy decides.

Why: 37-equation is generated with an exact algebraic backend (FLINT) that proves systems
Z3 cannot solve, so the solver audit ended ``undecided`` on some of its puzzles. The
algebraic audit re-proves them with SymPy's lex Groebner basis and exact real roots,
sharing no code with generation. The systems below are small enough that their real
solutions are known in closed form (written next to each), so every expected outcome
comes from hand algebra, not from the code under test.
"""

from __future__ import annotations

from pathlib import Path

import sympy as sp

from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec.audit import audit_problem, audit_puzzle, capture_problem
from puzzleforge.spec.auditalgebra import audit_algebraic, polynomial_system
from puzzleforge.spec.auditcapture import Problem

# x^2 + y^2 = 25 and x + y = 7: (3, 4) and (4, 3) (y = 7 - x, x^2 - 7x + 12 = 0)
CIRCLE = """\
(declare-fun x () Real)
(declare-fun y () Real)
(assert (= (+ (^ x 2.0) (* y y)) 25.0))
(assert (= (+ x y) 7.0))
"""
HOW2 = "2 real solution(s) of the equations, 2 meeting every condition"


def _real(*vals: str) -> list[tuple[str, str]]:
    return [("real", v) for v in vals]


def _problem(smt2: str, names: list[str], sorts: list[str], solutions: list) -> Problem:
    return Problem("enumerate", smt2, names, sorts, solutions)


def _audit(smt2: str, stored: list, mixed: bool = False) -> tuple:
    """(status, detail, method) of the whole audit: ``x, y`` Real, or ``n`` Int, ``x`` Real."""
    names, sorts = (["n", "x"], ["int", "real"]) if mixed else (["x", "y"], ["real", "real"])
    out = audit_problem(_problem(smt2, names, sorts, stored), 60.0)
    return out.status, out.detail, out.method


def test_two_real_solutions_are_ambiguous() -> None:
    assert _audit(CIRCLE, [_real("3/1", "4/1")]) == (
        "ambiguous",
        f"another solution exists beyond the 1 the puzzle was made from ({HOW2}): x=4, y=3",
        "algebraic",
    )
    assert _audit(CIRCLE, [_real("3/1", "4/1"), _real("4", "3")]) == (
        "pass",
        f"exactly 2 solution(s) ({HOW2}), proved by SymPy's lex Groebner basis",
        "algebraic",
    )


def test_a_side_condition_leaves_one_and_a_wrong_answer_is_wrong() -> None:
    one = CIRCLE + "(assert (> x y))\n"  # only (4, 3)
    how = "2 real solution(s) of the equations, 1 meeting every condition"
    assert _audit(one, [_real("4/1", "3/1")]) == (
        "pass",
        f"exactly 1 solution(s) ({how}), proved by SymPy's lex Groebner basis",
        "algebraic",
    )
    assert _audit(one, [_real("3/1", "4/1")]) == (
        "wrong",
        f"stored solution 1 is not a solution ({how}: x=4, y=3)",
        "algebraic",
    )


def test_irrational_solutions_are_exact() -> None:
    # x^2 = 2, y = x^3 - x = x (x^2 - 1) = x: (sqrt 2, sqrt 2) and (-sqrt 2, -sqrt 2)
    smt2 = (
        "(declare-fun x () Real)\n(declare-fun y () Real)\n"
        "(assert (= (* x x) 2.0))\n(assert (= y (- (^ x 3.0) x)))\n"
    )
    root2 = "1.41421356237309504880"  # Z3's 20-digit rendering of an algebraic value
    status, detail, _ = _audit(smt2, [_real(root2, root2)])
    assert status == "ambiguous"
    assert detail.endswith("x~-1.41421356237, y~-1.41421356237")
    positive = smt2 + "(assert (>= y 0.0))\n"
    assert _audit(positive, [_real(root2, root2)])[0] == "pass"
    # 1.4142 is not sqrt 2 to 20 digits, and 3/2 is no approximation at all
    assert _audit(positive, [_real("1.41421356237309504881", root2)])[0] == "pass"
    assert _audit(positive, [_real("1.41421356237309504890", root2)])[0] == "wrong"
    assert _audit(positive, [_real("3/2", root2)])[0] == "wrong"


def test_not_in_shape_position_and_not_radical() -> None:
    # x^2 = 1, y^2 = 1: four points (+-1, +-1); the lex basis is not in shape position
    square = (
        "(declare-fun x () Real)\n(declare-fun y () Real)\n"
        "(assert (= (* x x) 1.0))\n(assert (= (* y y) 1.0))\n"
    )
    how = "4 real solution(s) of the equations, 1 meeting every condition"
    assert _audit(square + "(assert (> x 0.0))\n(assert (< y 0.0))\n", [_real("1", "-1")]) == (
        "pass",
        f"exactly 1 solution(s) ({how}), proved by SymPy's lex Groebner basis",
        "algebraic",
    )
    # x^2 = 0, y^4 = 0: one point (0, 0) of multiplicity 8 (the radical is (x, y))
    double = (
        "(declare-fun x () Real)\n(declare-fun y () Real)\n"
        "(assert (= (* x x) 0.0))\n(assert (= (^ y 4.0) 0.0))\n"
    )
    assert _audit(double, [_real("0", "0")])[:2] == (
        "pass",
        "exactly 1 solution(s) (1 real solution(s) of the equations, 1 meeting every "
        "condition), proved by SymPy's lex Groebner basis",
    )


def test_integer_constants_must_be_integers() -> None:
    # n^2 = x, x^2 = 16: x = 4, n = +-2 (x = -4 gives no real n)
    smt2 = (
        "(declare-fun n () Int)\n(declare-fun x () Real)\n"
        "(assert (= (to_real (* n n)) x))\n(assert (= (* x x) 16.0))\n"
    )
    stored = [[("int", "2"), ("real", "4/1")]]
    assert _audit(smt2, stored, mixed=True)[:2] == (
        "ambiguous",
        "another solution exists beyond the 1 the puzzle was made from (2 real solution(s) "
        "of the equations, 2 meeting every condition): n=-2, x=4",
    )
    assert _audit(smt2 + "(assert (> n 0))\n", stored, mixed=True)[0] == "pass"
    # x^2 = 4: x = 2, n = +-sqrt 2: two real solutions, no integer one
    four = smt2.replace("16.0", "4.0")
    assert _audit(four, stored, mixed=True)[:2] == (
        "wrong",
        "stored solution 1 is not a solution (2 real solution(s) of the equations, 0 meeting "
        "every condition: none)",
    )


def test_positive_dimensional_is_undecided_never_pass() -> None:
    # x^2 + y^2 = 1 alone: a circle, infinitely many solutions
    circle = (
        "(declare-fun x () Real)\n(declare-fun y () Real)\n(assert (= (+ (* x x) (* y y)) 1.0))\n"
    )
    problem = _problem(circle, ["x", "y"], ["real", "real"], [_real("1", "0")])
    out = audit_algebraic(problem, 60.0)
    assert out is not None
    assert (out.status, out.detail, out.budget_spent) == (
        "undecided",
        "SymPy's Groebner basis: the ideal is positive-dimensional (infinitely many complex "
        "solutions)",
        False,
    )
    # the solver rounds then run: they find another point of the circle
    assert audit_problem(problem, 10.0).status == "ambiguous"
    spent = audit_algebraic(problem, 0.0)
    assert spent is not None and (spent.status, spent.budget_spent) == ("undecided", True)


def test_where_it_does_not_apply() -> None:
    linear = _problem("(declare-fun r () Real)\n(assert (= (* 2.0 r) 3.0))\n", ["r"], ["real"], [])
    ints = _problem("(declare-fun n () Int)\n(assert (= (* n n) 4))\n", ["n"], ["int"], [])
    boolean = _problem(
        "(declare-fun r () Real)\n(declare-fun b () Bool)\n(assert (= (* r r) 4.0))\n"
        "(assert (or b (> r 0.0)))\n",
        ["r", "b"],
        ["real", "bool"],
        [],
    )
    assert [polynomial_system(p) for p in (linear, ints, boolean)] == [None, None, None]


def test_a_generated_37_equation_puzzle_passes(shared_corpus: Path) -> None:
    """Item 14 of the issue-23 sweep (seed 1, attempt 0): Z3's fresh solvers could not
    decide it in 20 CPU seconds; SymPy proves its one real solution."""
    from puzzleforge.spec.family import load_spec_family

    fam = load_spec_family(shared_corpus / "puzzleclone" / "37-equation.yaml")
    puzzle = fam.generate(fam.Params(attempts=1), make_rng(derive_seed(1, fam.name, 14, 0)))
    assert puzzle.answer == "20,12,-1,-22,41"
    out = audit_puzzle(fam, puzzle, 60.0, method="auto")
    assert (out.status, out.method) == ("pass", "algebraic")
    # independently of both: the stored answer satisfies every captured equation
    problem = capture_problem(fam, puzzle)
    system = polynomial_system(problem)
    assert system is not None and len(system.equations) == 6
    point = dict(zip(system.gens, (int(v) for v in puzzle.answer.split(",")), strict=True))
    assert [p.as_expr().subs(point) for p in system.equations] == [sp.Integer(0)] * 6
