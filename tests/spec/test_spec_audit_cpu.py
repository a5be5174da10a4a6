"""The audit's CPU-time nets and rounds: a hanging plan no longer starves the other.

Why: Z3's nonlinear procedures do not count ``rlimit`` work, so the audit's only net was
wall-clock time, and under load its outcome (pass vs undecided) depended on the load;
and where nlsat hangs (37-equation items 50 and 63 of the issue-23 sweep) the default
solver, which decides them in seconds, only started after nlsat's whole share. The nets
now count the solving thread's CPU time (spec/auditfresh.py ``CpuWatch``) and the plans
run in rounds of rising shares (spec/audit.py ``audit_problem``). The system below is
item 63's, as captured; that it has exactly one solution comes from sympy's Groebner
basis (an independent computer-algebra source), not from Z3.
"""

from __future__ import annotations

import re

import sympy as sp

from puzzleforge.spec import audit
from puzzleforge.spec.audit import audit_plans, audit_problem
from puzzleforge.spec.auditcapture import Problem
from puzzleforge.spec.auditfresh import NLSAT

ITEM63 = """\
(declare-fun vars_q () Real)
(declare-fun vars_p () Real)
(declare-fun vars_s () Real)
(declare-fun vars_r () Real)
(assert
 (let ((?x117 (- (+ (* (* vars_q 3.0) 2.0) (* (- vars_p 10.0) 2.0)) (- (- (+ 3.0 vars_p) \
(- 1.0 vars_p)) (^ vars_q 3.0)))))
(let (($x120 (= (+ (- (^ vars_q 3.0) (^ vars_s 3.0)) ?x117) (- 120550.0))))
(let ((?x103 (- (- (- vars_p 1.0) (- vars_p 8.0)) (* (+ vars_q vars_q) 8.0))))
(let ((?x92 (+ (- (* 5.0 vars_r) (^ vars_s 2.0)) (+ (- 5.0 vars_r) (* vars_p 3.0)))))
(let ((?x85 (- (- (^ vars_s 2.0) (* 9.0 vars_r)) (- (^ vars_p 2.0) (+ vars_p vars_p)))))
(let ((?x105 (- (- ?x85 ?x92) (+ (* (- (* 5.0 vars_p) (+ vars_s 2.0)) 6.0) ?x103))))
(let (($x107 (= ?x105 (- 308.0))))
(let (($x80 (= (- (^ vars_s 3.0) (* (^ vars_q 2.0) 4.0)) 21816.0)))
(let ((?x70 (- (+ (- vars_s vars_s) (- 10.0 vars_q)) (+ (* vars_q 7.0) (+ vars_r 2.0)))))
(let ((?x63 (+ (+ (- vars_s vars_r) (- vars_s 8.0)) (- (* 1.0 vars_r) (- vars_q vars_q)))))
(let (($x74 (= (* (- ?x63 ?x70) 2.0) (- 580.0))))
(let ((?x46 (- (+ (+ 7.0 vars_r) (* vars_p 8.0)) (* (- vars_r vars_s) 10.0))))
(let ((?x54 (+ (- ?x46 (* (^ vars_q 2.0) 10.0)) (* (* (* (+ 7.0 vars_s) 8.0) 6.0) 10.0))))
(let (($x56 (= ?x54 5801.0)))
(let ((?x35 (+ (+ (^ vars_p 2.0) (* 6.0 vars_p)) (+ (* 2.0 vars_q) (^ vars_r 2.0)))))
(let ((?x28 (+ (* (- 1.0 vars_p) 7.0) (- (- vars_p 6.0) (^ vars_r 3.0)))))
(let ((?x20 (+ (+ (^ vars_q 3.0) (^ vars_r 3.0)) (* (- (^ vars_s 2.0) (+ vars_p 8.0)) 9.0))))
(let (($x39 (= (- ?x20 (+ ?x28 ?x35)) (- 236885.0))))
(and $x39 $x56 $x74 $x80 $x107 $x120))))))))))))))))))))
"""
STORED = [[("real", "35/1"), ("real", "-36/1"), ("real", "-46/1"), ("real", "30/1")]]


def _problem(solutions: list) -> Problem:
    return Problem(
        "enumerate",
        ITEM63,
        ["vars_p", "vars_q", "vars_r", "vars_s"],
        ["real"] * 4,
        solutions,
        seed=972975774,
    )


def _sympy_basis() -> list:
    """ITEM63's equations by hand, reduced to a lex Groebner basis by sympy (not Z3)."""
    p, q, r, s = sp.symbols("p q r s")
    eqs = [
        (q**3 - s**3) + ((6 * q + (p - 10) * 2) - (((3 + p) - (1 - p)) - q**3)) + 120550,
        ((s**2 - 9 * r) - (p**2 - 2 * p))
        - ((5 * r - s**2) + ((5 - r) + 3 * p))
        - ((5 * p - (s + 2)) * 6 + ((p - 1) - (p - 8)) - 16 * q)
        + 308,
        s**3 - 4 * q**2 - 21816,
        (((s - r) + (s - 8) + r) - ((10 - q) - (7 * q + (r + 2)))) * 2 + 580,
        ((7 + r) + 8 * p - (r - s) * 10) - 10 * q**2 + (7 + s) * 480 - 5801,
        ((q**3 + r**3) + (s**2 - (p + 8)) * 9)
        - (((1 - p) * 7 + ((p - 6) - r**3)) + (p**2 + 6 * p + 2 * q + r**2))
        + 236885,
    ]
    return [str(g) for g in sp.groebner(eqs, p, q, r, s, order="lex").exprs]


def test_item63_has_one_solution() -> None:
    # the basis of a zero-dimensional ideal with one point: exactly one solution
    assert _sympy_basis() == ["p - 35", "q + 36", "r + 46", "s - 30"]


def test_a_hanging_nlsat_no_longer_starves_the_default_solver() -> None:
    problem = _problem(STORED)
    assert audit_plans(problem) == [NLSAT, None]
    # nlsat alone: stopped by its CPU share (it counts no work units), reported as such
    out = audit._audit_once(problem, 0.3, NLSAT, "solver", 4096)
    assert (out.status, out.net_fired, out.budget_spent) == ("undecided", False, True)
    # how far it got before the share was spent (the first model or not) is not fixed
    assert re.fullmatch(
        r"enumerating \(found [01] of the 1 stored solutions\): the fresh solver could not "
        r"decide within its 0\.3 CPU seconds",
        out.detail,
    )
    # the solver rounds: nlsat's first round share is 1 CPU second, then the default decides
    for method in ("solver", "auto"):
        out = audit.audit_rounds(problem, 60.0, method, 4096)
        assert (out.status, out.detail, out.net_fired) == (
            "pass",
            "exactly 1 solution(s), proved by a fresh solver",
            False,
        )
    # the whole audit: SymPy's algebra (spec/auditalgebra.py) decides before the rounds
    out = audit_problem(problem, 60.0)
    assert (out.status, out.method) == ("pass", "algebraic")


def test_a_tiny_budget_reports_undecided() -> None:
    out = audit.audit_rounds(_problem(STORED), 1e-6, "solver", 4096)
    part = (
        "enumerating (found 0 of the 1 stored solutions): the fresh solver could not "
        "decide within its 5e-07 CPU seconds (its work units ran out)"
    )
    assert (out.status, out.detail, out.net_fired) == (
        "undecided",
        f"qfnra-nlsat: {part}; default solver: {part}",
        False,
    )
    assert audit_problem(_problem(STORED), 0.0).status == "undecided"
