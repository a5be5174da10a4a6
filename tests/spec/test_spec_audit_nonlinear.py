"""The audit of a nonlinear real system: nlsat decides where Z3's default solver got stuck.

Why: item 42 of the issue-23 sweep (37-equation, seed 1) was proved unique by generation,
but the audit's fresh default solver ran on its "no other solution" check until the
wall-clock safety net (its nonlinear core stops counting work units: the rlimit bound
never fired), so the sweep reported it ``undecided``. The audit now tries Z3's nlsat
tactic first for nonlinear real problems. The system below is that item's, as captured
(SMT-LIB text of the replay); its number of real solutions comes from sympy's Groebner
basis (an independent computer-algebra source), not from Z3.
"""

from __future__ import annotations

from dataclasses import replace

import sympy as sp

from puzzleforge.spec.audit import audit_plans, audit_problem, audit_rounds
from puzzleforge.spec.auditcapture import Problem
from puzzleforge.spec.auditfresh import NLSAT

ITEM42 = """\
(declare-fun vars_z () Real)
(declare-fun vars_y () Real)
(declare-fun vars_x () Real)
(assert
 (let ((?x71 (- (- (* vars_x 6.0) (* 8.0 vars_z)) (- (+ vars_z 3.0) (+ vars_y 1.0)))))
(let ((?x62 (- (+ (- vars_z 5.0) (^ vars_z 2.0)) (- (+ 7.0 vars_x) (+ 4.0 vars_z)))))
(let ((?x56 (+ (- (^ vars_y 3.0) (^ vars_y 3.0)) (- (+ vars_y vars_y) (+ vars_y 2.0)))))
(let (($x76 (= (+ (+ ?x56 ?x62) (+ ?x71 (* (^ vars_z 2.0) 6.0))) 12743.0)))
(let ((?x42 (- (- (+ 1.0 vars_y) (^ vars_y 3.0)) (+ (+ vars_z vars_x) (* vars_x 4.0)))))
(let ((?x48 (- ?x42 (+ (+ (- 4.0 vars_y) (+ 6.0 vars_y)) (^ vars_z 3.0)))))
(let ((?x35 (^ vars_z 2.0)))
(let (($x51 (= (- ?x35 ?x48) 51823.0)))
(let ((?x15 (+ (+ (+ vars_z vars_x) (* vars_z 5.0)) (* (* vars_z 2.0) 2.0))))
(let ((?x23 (- ?x15 (- (^ vars_y 3.0) (- (- vars_x 7.0) (^ vars_y 2.0))))))
(let ((?x32 (- ?x23 (* (* (- (+ 9.0 vars_x) (* 3.0 vars_y)) 6.0) 10.0))))
(let (($x34 (= ?x32 21103.0)))
(and $x34 $x51 $x76))))))))))))))
"""


def _sympy_real_solutions() -> list[tuple[int, int, int]]:
    """The real solutions of ITEM42's system by a lex Groebner basis (sympy, not Z3)."""
    x, y, z = sp.symbols("x y z")
    eqs = [
        (z + x + 5 * z + 4 * z) - (y**3 - ((x - 7) - y**2)) - ((9 + x) - 3 * y) * 60 - 21103,
        z**2 - (((1 + y) - y**3 - (z + x + 4 * x)) - ((4 - y) + (6 + y) + z**3)) - 51823,
        (2 * y - (y + 2))
        + ((z - 5) + z**2 - ((7 + x) - (4 + z)))
        + ((6 * x - 8 * z) - ((z + 3) - (y + 1)) + 6 * z**2)
        - 12743,
    ]
    basis = sp.groebner(eqs, x, y, z, order="lex").exprs
    # shape position: x - f(z), y - g(z), h(z): one solution per real root of h
    assert [sp.Poly(g, x, y, z).degree_list()[:2] for g in basis] == [(1, 0), (0, 1), (0, 0)]
    out = []
    for root in sp.real_roots(sp.Poly(basis[2], z)):
        xv = sp.solve(basis[0].subs(z, root), x)[0]
        yv = sp.solve(basis[1].subs(z, root), y)[0]
        out.append((int(xv), int(yv), int(root)))
    return out


ONE = (
    "exactly 1 solution(s) (1 real solution(s) of the equations, 1 meeting every condition), "
    "proved by SymPy's lex Groebner basis"
)


def _problem(solutions: list) -> Problem:
    return Problem(
        "enumerate",
        ITEM42,
        ["vars_x", "vars_y", "vars_z"],
        ["real"] * 3,
        solutions,
        seed=231804403,
    )


def test_item42_has_one_real_solution_and_the_audit_proves_it() -> None:
    assert _sympy_real_solutions() == [(35, -31, 43)]
    stored = [[("real", "35/1"), ("real", "-31/1"), ("real", "43/1")]]
    problem = _problem(stored)
    assert audit_plans(problem) == [NLSAT, None]
    for method in ("solver", "auto"):
        # the Z3 plans alone (what the audit falls back to after the algebraic audit)
        out = audit_rounds(problem, 60.0, method, 4096)
        assert (out.status, out.detail, out.net_fired) == (
            "pass",
            "exactly 1 solution(s), proved by a fresh solver",
            False,
        )
        # the whole audit: SymPy's algebra decides first (spec/auditalgebra.py)
        out = audit_problem(problem, 60.0, method=method)
        assert (out.status, out.method, out.detail) == ("pass", "algebraic", ONE)


def test_item42_with_a_wrong_or_missing_solution_is_not_a_pass() -> None:
    wrong = _problem([[("real", "35/1"), ("real", "-31/1"), ("real", "44/1")]])
    out = audit_rounds(wrong, 60.0, "solver", 4096)
    assert out.status == "ambiguous"  # the true solution is one the record does not hold
    assert "vars_x=35, vars_y=-31, vars_z=43" in out.detail
    out = audit_problem(wrong, 60.0)  # the algebra: the one solution is not the stored one
    assert (out.status, out.detail) == (
        "wrong",
        "stored solution 1 is not a solution (1 real solution(s) of the equations, 1 meeting "
        "every condition: vars_x=35, vars_y=-31, vars_z=43)",
    )
    open_problem = replace(_problem([]), complete=False)
    out = audit_rounds(open_problem, 60.0, "solver", 4096)
    assert (out.status, out.detail) == (
        "pass",
        "exactly one solution, proved by a fresh solver (the replay's own check was undecided)",
    )
    out = audit_problem(open_problem, 60.0)
    assert (out.status, out.detail) == (
        "pass",
        "exactly one solution (1 real solution(s) of the equations, 1 meeting every "
        "condition), proved by SymPy",
    )


def test_linear_and_integer_problems_keep_their_plans() -> None:
    linear = Problem("enumerate", "(declare-fun r () Real)\n(assert (= (* 2.0 r) 3.0))\n")
    linear.names, linear.sorts = ["r"], ["real"]
    assert audit_plans(linear) == [None, "QF_NRA"]
    ints = Problem("enumerate", "(declare-fun n () Int)\n(assert (= (* n n) 4))\n")
    ints.names, ints.sorts = ["n"], ["int"]
    assert audit_plans(ints) == [None]
