"""The capture half of the audit: what the engine decided, as data free of its Z3 context.

Why a module of its own: spec/audit.py checks a ``Problem`` with a fresh solver; this
module makes that ``Problem`` by replaying a record's config on the plain Z3 paths
(``capture_config``, in the sandboxed worker for an untrusted spec) and writing the
decided constraints as SMT-LIB text, the constants the answer depends on and the
stored solutions (or the optimum) as exact ``(sort, text)`` values.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3

from .argmax import needs_unique_optimum
from .termwalk import walk_terms

__all__ = ["OBJECTIVE", "Problem", "capture_config", "capture_problem"]

#: The name the objective gets in the SMT-LIB text of an optimisation problem.
OBJECTIVE = "__pf_objective"
#: Work budget of the capturing replay, in idle-machine seconds (as generation's default).
REPLAY_SECONDS = 15.0
#: Wall-clock allowance of a sandboxed capture beyond the record's ``max_seconds``.
REPLAY_NET_SECONDS = 60.0


@dataclass
class Problem:
    """What the engine decided for one puzzle, in a form independent of its Z3 context.

    ``values`` are ``(sort, text)`` pairs: ``("bool", "true")``, ``("int", "-3")``,
    ``("real", "7/2")``; ``solutions`` holds one list per stored solution (enumeration),
    or the optimal configuration (optimisation), over ``names``.
    """

    kind: str  # "enumerate", "optimize" or "none" (nothing solved: nothing to prove)
    smt2: str = ""
    names: list[str] = field(default_factory=list)
    sorts: list[str] = field(default_factory=list)
    solutions: list[list[tuple[str, str]]] = field(default_factory=list)
    direction: str = ""
    value: tuple[str, str] | None = None
    argmax: bool = False
    #: The attempt's Z3 random seed (config ``_z3_seed``): the fresh solver searches as the
    #: engine's did, which decides some nonlinear checks an unseeded search does not.
    seed: int = 0
    #: False when the replay's own "one more solution?" check ended undecided (a nonlinear
    #: check keeps a wall-clock share, so a replay under load can miss the proof the
    #: generation made): ``solutions`` is then empty and the audit counts them itself.
    complete: bool = True


def _consts(exprs: list) -> list:
    """Uninterpreted constants of ``exprs``, first seen first (a plain walk of the DAG:
    the audit does not share the engine's C-level walkers)."""
    return [
        e for e in walk_terms(exprs) if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED
    ]


def _sort_name(c: Any) -> str:
    k = c.sort().kind()
    return {z3.Z3_BOOL_SORT: "bool", z3.Z3_INT_SORT: "int", z3.Z3_REAL_SORT: "real"}.get(k, "other")


def _literal(sort: str, v: Any) -> tuple[str, str]:
    """A Python or Z3 value as an exact ``(sort, text)`` pair."""
    if z3.is_expr(v):
        if z3.is_true(v) or z3.is_false(v):
            return ("bool", "true" if z3.is_true(v) else "false")
        if z3.is_int_value(v):
            return ("int", str(v.as_long()))
        if z3.is_rational_value(v):
            f = v.as_fraction()
            return ("real", f"{f.numerator}/{f.denominator}")
        if z3.is_algebraic_value(v):
            return ("real", v.as_decimal(20).rstrip("?"))
        raise ValueError(f"not a value: {v}")
    if isinstance(v, bool):
        return ("bool", "true" if v else "false")
    if isinstance(v, int):
        return (sort if sort in ("int", "real") else "int", str(v))
    f = Fraction(str(v))
    return ("real", f"{f.numerator}/{f.denominator}")


def _z3_value(pair: tuple[str, str], ctx: z3.Context) -> Any:
    sort, text = pair
    if sort == "bool":
        return z3.BoolVal(text == "true", ctx)
    if sort == "int":
        return z3.IntVal(int(text), ctx)
    return z3.RealVal(text, ctx)


def _smt2(assertions: list, extra: list) -> str:
    s = z3.Solver(ctx=(assertions or extra)[0].ctx)
    s.add(assertions)
    s.add(extra)
    return s.to_smt2()


def _solution_values(sol: Any, consts: list, sorts: list[str]) -> list[tuple[str, str]]:
    """A stored solution (SolModel) as exact values of ``consts`` (the model when it has one)."""
    model = getattr(sol, "_model", None)
    out = []
    for c, sort in zip(consts, sorts, strict=False):
        v = sol.values.get(c.get_id()) if hasattr(sol, "values") else None
        if model is not None and (sort == "real" or v is None):
            with contextlib.suppress(Exception):  # fall back to the Python value
                v = model.evaluate(c, model_completion=True)
        if v is None:
            raise ValueError(f"the stored solution has no value for {c}")
        out.append(_literal(sort, v))
    return out


def capture_problem(family: Any, puzzle: Any) -> Problem:
    """Replay ``puzzle.config`` on the Z3 paths and capture the problem it decided.

    An untrusted family's replay runs in its sandboxed worker (spec/sandbox.py: the
    replay evaluates the spec's expressions); a trusted one's in this process, or with
    ``family.worker`` in its forked worker (spec/trusted.py: its operator files may loop
    in C), within the same CPU net as the sandbox's. Raises whatever the replay raises
    (Rejection, ExprFailure...): the caller reports it.
    """
    params = getattr(puzzle, "params", None)
    params = params if isinstance(params, dict) else {}
    config = dict(puzzle.config or {})
    seconds = float(params.get("max_seconds", 120.0)) + REPLAY_NET_SECONDS
    if getattr(family, "trust", True):
        if not getattr(family, "worker", False):
            return capture_config(family, config, puzzle.answer, params)
        from .trusted import trusted_capture

        return trusted_capture(family, capture_config, config, puzzle.answer, params, seconds)
    from .sandbox import sandboxed_capture

    return _problem_from(sandboxed_capture(family, config, puzzle.answer, params, seconds))


def _problem_from(data: dict) -> Problem:
    """A Problem from the plain dict a worker sent (tuples and lists rebuilt, types checked)."""

    def pair(v: Any) -> tuple[str, str]:
        a, b = v
        return (str(a), str(b))

    value = data.get("value")
    return Problem(
        str(data["kind"]),
        str(data.get("smt2", "")),
        [str(x) for x in data.get("names", [])],
        [str(x) for x in data.get("sorts", [])],
        [[pair(v) for v in sol] for sol in data.get("solutions", [])],
        str(data.get("direction", "")),
        pair(value) if value is not None else None,
        bool(data.get("argmax", False)),
        int(data.get("seed", 0)),
        bool(data.get("complete", True)),
    )


def capture_config(family: Any, config: dict, answer: str, params: dict) -> Problem:
    """``capture_problem`` in this process (the sandboxed and the trusted worker).

    Runs in a fresh Z3 context of its own, freed when done.
    """
    from .attempt import Attempt, run_stages
    from .budget import WorkBudget
    from .outcome import UNDECIDED, Rejection
    from .z3space import Z3Space

    spec = family.spec
    seconds = float(params.get("attempt_seconds", REPLAY_SECONDS))
    a = Attempt(
        spec,
        family.file_ops,
        random.Random(0),
        dict(config or {}),
        set(),
        WorkBudget.for_seconds(seconds, time.monotonic() + 3600.0),
        {},
        Z3Space(),
    )
    a.capture = {}
    try:
        try:
            result = run_stages(a)
        except Rejection as exc:
            cap = a.capture
            if exc.reason != UNDECIDED or not cap or cap.get("kind") != "enumerate":
                raise
            # the problem is known; only the replay's proof is missing: the fresh
            # solver of the audit decides it (37-equation under load)
            consts = cap["consts"]
            return Problem(
                "enumerate",
                _smt2(cap["assertions"], []),
                [str(c) for c in consts],
                [_sort_name(c) for c in consts],
                [],
                seed=a.z3_seed,
                complete=False,
            )
        cap = a.capture
        if not cap:
            return Problem("none")
        if result["answer"] != answer:
            raise ValueError(
                f"the config replays to answer {result['answer']!r}, the record holds {answer!r}"
            )
        if cap["kind"] == "enumerate":
            consts = cap["consts"]
            sorts = [_sort_name(c) for c in consts]
            sols = a.env.get("_solutions") or []
            return Problem(
                "enumerate",
                _smt2(cap["assertions"], []),
                [str(c) for c in consts],
                sorts,
                [_solution_values(s, consts, sorts) for s in sols],
                seed=a.z3_seed,
            )
        target = cap["target"]
        consts = _consts(list(cap["assertions"]) + [target])
        sorts = [_sort_name(c) for c in consts]
        obj = z3.Const(OBJECTIVE, target.sort())
        smt2 = _smt2(cap["assertions"], [obj == target])
        value = _literal(_sort_name(target), a.env["_value"])
        best = a.env.get("_solutions")
        try:
            sol = [_solution_values(best, consts, sorts)] if best is not None else []
        except ValueError:
            sol = []
        return Problem(
            "optimize",
            smt2,
            [str(c) for c in consts],
            sorts,
            sol,
            cap["direction"],
            value,
            needs_unique_optimum(spec),
            a.z3_seed,
        )
    finally:
        a.env.clear()
        if a.rt is not None:
            a.rt.sym_config.clear()
        a.assertions.clear()
        a.sym_consts.clear()
        a.capture = None
        a.rt = None  # released: the attempt is not used again
