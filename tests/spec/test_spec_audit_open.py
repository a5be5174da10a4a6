"""The audit of a record whose replay could not finish its own uniqueness proof.

Why: a nonlinear "one more solution?" check keeps a wall-clock share, so replaying a
record on a busy machine can end ``uniqueness undecided`` where the generation proved the
answer unique (37-equation under load 20). The capture then hands the problem over with
no stored solutions (``complete=False``) and the fresh solver counts the solutions
itself. The problems below are written by hand, their solution counts known by algebra.
"""

from __future__ import annotations

from dataclasses import asdict

import pytest

from puzzleforge.spec.audit import audit_problem
from puzzleforge.spec.auditcapture import Problem, _problem_from

DECL = "(declare-fun x () Int)\n"


@pytest.mark.parametrize(
    ("constraints", "status", "detail"),
    [
        (
            "(assert (= (* x x) 49))\n(assert (> x 0))\n",
            "pass",
            "exactly one solution, proved by a fresh solver (the replay's own check was undecided)",
        ),
        (
            "(assert (= (* x x) 49))\n",
            "undecided",
            "at least two solutions, and the replay ended undecided before saying how many the "
            "puzzle was made from",
        ),
        ("(assert (= (* x x) 50))\n", "wrong", "the constraints have no solution"),
    ],
)
def test_open_problem_is_counted_by_the_fresh_solver(
    constraints: str, status: str, detail: str
) -> None:
    problem = Problem("enumerate", DECL + constraints, ["x"], ["int"], [], complete=False)
    for method in ("solver", "auto"):  # never brute-forced: there is no stored set to compare
        out = audit_problem(problem, 30.0, method=method)
        assert (out.status, out.detail) == (status, detail)


def test_open_problem_crosses_the_worker_boundary_as_data() -> None:
    problem = Problem(
        "enumerate", DECL + "(assert (= x 3))\n", ["x"], ["int"], [], seed=7, complete=False
    )
    back = _problem_from(asdict(problem))
    assert back == problem
    assert _problem_from({**asdict(problem), "complete": True}).complete is True
    assert (
        _problem_from({k: v for k, v in asdict(problem).items() if k != "complete"}).complete
        is True
    )
