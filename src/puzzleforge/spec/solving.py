"""Stage 4 of an attempt: solve the constraint model (post-generation, optimum, or all solutions).

Functions over the attempt's state (spec/attempt.py ``Attempt``). Which backend decides
is chosen in spec/backends.py, one ordered list per question; this module sets the
attempt's Z3 seed and work rate, runs the spec's solving mode, and writes ``_solutions``,
``_value`` and ``_sol`` into the namespace for the questions stage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import z3

from .backends import budget_rate, enumerate_solutions, optimize_terms, optimize_z3
from .configcodec import encode_value
from .optimum import attained as _attained  # noqa: F401 - tests import them here
from .optimum import number as _number  # noqa: F401 - tests import them here
from .outcome import ExprFailure, Rejection, ev
from .replaycheck import replayed_z3_seed
from .z3calls import new_solver, to_sol, z3_check

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["solve"]


def solve(a: Attempt) -> None:
    """Decide the attempt's model as its spec asks; a Rejection when it defines no puzzle."""
    spec = a.spec
    found, seed = a.from_config("_z3_seed")
    a.z3_seed = replayed_z3_seed(seed) if found else a.rng.randrange(1 << 30)
    a.config["_z3_seed"] = a.z3_seed
    a.cond_num = a.assertion_count()
    budget_rate(a)
    if spec.post_generation is not None:
        _post_generation(a)
    elif spec.optimize is not None:
        _optimize(a)
    elif spec.calc_solution:
        sols = enumerate_solutions(a, None, spec.max_solution)
        if not sols:
            raise Rejection("no solution", "the constraints have no solution")
        a.env["_solutions"] = sols
    else:
        a.env["_solutions"] = []
        a.cond_num = 0


def _optimize(a: Attempt) -> None:
    env, opt = a.env, a.spec.optimize
    assert opt is not None
    kind = str(ev(opt["type"], env)).strip()
    if kind not in ("minimize", "maximize"):
        raise ExprFailure(
            opt["type"], ValueError(f"optimize type '{kind}' is not minimize/maximize")
        )
    if optimize_terms(a, kind):  # the term model's backends: no Z3 term needed
        return
    target = ev(opt["formula"], env)
    if a.capture is not None:  # spec/audit.py re-checks this optimum independently
        a.capture.update(
            kind="optimize", assertions=list(a.assertions), target=target, direction=kind
        )
    optimize_z3(a, target, kind)


def _post_generation(a: Attempt) -> None:
    """Z3's first model is the scenario ``_sol``; post variables and conditions follow."""
    spec, env = a.spec, a.env
    pg = spec.post_generation
    assert pg is not None
    need_sol = not all(a.from_config(k)[0] for k in pg["vars"]) or not pg["vars"]
    sols: list = []
    if need_sol or spec.calc_solution is False:
        solver = new_solver(a)
        solver.add(a.assertions)
        if z3_check(a, solver) != z3.sat:
            raise Rejection("no solution", "the scenario constraints have no solution")
        sols = [to_sol(solver.model())]
        env["_sol"] = sols[0]
    env["_solutions"] = sols
    a.config["_sol_id"] = 0
    env["_sol_id"] = 0
    for name, code in pg["vars"].items():
        ok, value = a.from_config(name)
        if not ok:
            value = ev(code, env)
        env[name] = value
        a.config[name] = encode_value(value)
    if spec.calc_solution:
        post = list(a.assertions)
        for name, c in pg["conditions"].items():
            d = ev(c["desc"], env) if c["desc"] is not None else ""
            env[name] = d
            before = len(a.assertions)
            a.add_assertion(ev(c["formula"], env), c["formula"])
            post.extend(a.assertions[before:])
        a.cond_num = len(a.assertions)
        env["_solutions"] = enumerate_solutions(a, a.assertions, spec.max_solution)
        if not env["_solutions"]:
            raise Rejection("no solution", "no solution after post-generation constraints")
    else:
        a.cond_num = 0
