"""Solving an attempt's constraints: solver choice, checks, enumeration, post-generation, optimize.

Why a mixin of ``Attempt``: solving reads the attempt's assertions, symbol constants,
work budget and Z3 seed, and writes ``_solutions``/``_value``/``_sol`` into its namespace.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import z3
from z3 import z3core as zc

from .configcodec import encode_value
from .budget import NONLINEAR_UNITS_PER_MS, UNITS_PER_MS
from .fastz3 import add_block, collect_consts, const_ids, is_lia, is_nonlinear_int, is_nonlinear_real, read_model
from .finite import compile_finite, walk_finite
from .nonlinear import LATER_CHECK_MS, enumerate_nonlinear
from .operators import SolModel, solution_order_key as _order_key, z3_to_py
from .argmax import multiple_optima, needs_unique_optimum
from .outcome import ExprFailure, Rejection, ev, undecided
from .replaycheck import replayed_z3_seed

#: Work kept back from a nonlinear "one more?" check (it ends the attempt either way now:
#: undecided is a rejection; the reserve only keeps such attempts from using the last
#: units, so their cost stays what it was).
LATER_RESERVE_MS = 1500

__all__ = ["SolvingMixin"]


class _FallBack(Exception):
    """The specialised solver could not decide; use the general one."""



def _attained(objective: Any, value: Any) -> bool:
    """True when an Optimize objective's bound is a number that the model's value reaches."""
    bound, reached = _number(objective.value()), _number(value)
    return bound is not None and bound == reached


def _unattained(objective: Any, kind: str) -> Rejection:
    """The rejection for an objective with no optimum (unbounded, or a bound not reached).

    Why reject: with a strict inequality active at the bound (``x < 3``), Z3 reports
    ``c - epsilon`` and a model at an arbitrary point short of the supremum; the original
    tool answers with that point's value (38-linearprog: 1-4 units off, e.g. -15638.92
    for an infimum of -15640.82), which is not "the maximum" the question asks for, and
    no configuration has the supremum either. Such an attempt defines a question without
    a right answer, so it is retried with fresh randomness like "no solution".
    """
    bound = str(objective.value())
    if "oo" in bound:
        return Rejection("unbounded objective", f"the objective has no {kind[:3]}imum: it is unbounded ({bound})")
    return Rejection("optimum not attained",
                     f"a strict inequality bounds the objective: its {'supremum' if kind == 'maximize' else 'infimum'} "
                     f"({bound}) is approached but reached by no configuration, so the question has no exact answer")


def _number(e: Any) -> Fraction | None:
    """The exact value of a Z3 integer or rational numeral (None for other terms)."""
    if z3.is_int_value(e):
        return Fraction(e.as_long())
    if z3.is_rational_value(e):
        return e.as_fraction()
    return None


class SolvingMixin:
    """solve, enumerate and optimize (methods of ``Attempt``)."""

    # ---- solving ---------------------------------------------------------------------
    def _solver(self) -> Any:
        kinds = {c.sort().kind() for c in self.sym_consts}
        linear = bool(kinds) and kinds <= {z3.Z3_BOOL_SORT, z3.Z3_INT_SORT} and is_lia(self.assertions)
        s = z3.SolverFor("QF_LIA") if linear else z3.Solver()
        s.set("random_seed", self._z3_seed)
        return s

    def _remaining_ms(self) -> float:
        return self.budget.remaining_ms()

    def _check(self, solver: Any) -> Any:
        r = self.budget.run(solver)
        if r == z3.unknown:
            if self.budget.exhausted:
                raise Rejection("time limit", "solver work budget exhausted")
            raise Rejection("solver gave up", solver.reason_unknown())
        return r

    @staticmethod
    def _to_sol(model: Any) -> SolModel:
        """Every constant of ``model`` with its Python value, in the model's order.

        Read through the C API (``model.decls()`` / ``model[d]`` / ``d()`` built three
        wrapper objects per constant, 1 ms per attempt on 11-wine); values as ``z3_to_py``.
        """
        ctx = model.ctx
        cref, m = ctx.ref(), model.model
        values, consts = {}, {}
        for i in range(zc.Z3_model_get_num_consts(cref, m)):
            d = zc.Z3_model_get_const_decl(cref, m, i)
            c = z3.z3._to_expr_ref(zc.Z3_mk_app(cref, d, 0, None), ctx)  # holds a reference
            cid = c.get_id()
            a = zc.Z3_model_get_const_interp(cref, m, d)
            kind = zc.Z3_get_sort_kind(cref, zc.Z3_get_range(cref, d))
            if not a:  # no interpretation (as ``model[d]``: None)
                values[cid] = None
            elif kind == z3.Z3_INT_SORT and zc.Z3_is_numeral_ast(cref, a):
                values[cid] = int(zc.Z3_get_numeral_string(cref, a))
            elif kind == z3.Z3_BOOL_SORT and zc.Z3_get_bool_value(cref, a) != z3.Z3_L_UNDEF:
                values[cid] = zc.Z3_get_bool_value(cref, a) == z3.Z3_L_TRUE
            else:
                values[cid] = z3_to_py(z3.z3._to_expr_ref(a, ctx))
            consts[cid] = c
        return SolModel(values, consts, model)

    def enumerate(self, assertions: list, limit: int | None) -> list[SolModel]:
        """All solutions projected on the constants of ``assertions`` (bounded by ``limit``)."""
        # projected on the symbols' constants that occur in the constraints (the others
        # have no value, as in a Z3 model). Every projected constant gets a value, with
        # model completion when Z3 eliminated it as unconstrained: the set is then the
        # complete projected solution set whatever models Z3 returns (the original blocks
        # on the model's constants only, which undercounts when Z3 drops one)
        # the exhaustive path's walk over all symbols' constants finds the ones that
        # occur (spec/finite.py walk_finite), and is kept for _enumerate_finite
        walk = walk_finite(assertions, self.sym_consts) if self.sym_consts else None
        if walk is not None:
            consts, kinds = walk.consts, walk.kinds
        else:
            present = const_ids(assertions)
            consts = [c for c in self.sym_consts if c.get_id() in present] if self.sym_consts \
                else collect_consts(assertions)
            kinds = [c.sort().kind() for c in consts]
        self._finite_walk = walk
        if self.capture is not None:  # spec/audit.py re-checks this problem independently
            self.capture.update(kind="enumerate", assertions=list(assertions), consts=list(consts),
                                limit=limit)
        try:
            fast = self._enumerate_finite(assertions, limit, consts, kinds)
        finally:
            self._finite_walk = None
        if fast is not None:
            return fast
        linear_ok = all(k in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds) and is_lia(assertions)
        if not linear_ok:  # cubes, squares, products of unknowns: spec/nonlinear.py
            nonlinear = enumerate_nonlinear(self, assertions, limit, consts, kinds)
            if nonlinear is not None:
                return nonlinear
        # QF_LIA enumerates many models fast; QF_FD (bit-blasting) decides some hard
        # bounded instances in a fraction of the time: give each a short first check
        plans: list[str | None] = ["QF_LIA", "QF_FD", None] if linear_ok else [None]
        # nonlinear integers whose first model came easily (18-numbers): the "one more?"
        # check may run until LATER_RESERVE_MS before the deadline (at least
        # nonlinear.py's slice); left undecided it rejects the attempt as
        # "uniqueness undecided"
        later = LATER_RESERVE_MS if not linear_ok and all(
            k in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds) else None
        for i, logic in enumerate(plans):
            try:
                sols = self._enumerate(assertions, limit, consts, kinds, logic,
                                       first_timeout=2000 if i < len(plans) - 1 else None,
                                       later_reserve=later)
                ids = [c.get_id() for c in consts]
                sols.sort(key=lambda sol: [_order_key(sol.values.get(k)) for k in ids])
                return sols
            except _FallBack:
                continue
        raise Rejection("solver gave up", "no solver decided the constraints")

    def _enumerate_finite(self, assertions: list, limit: int | None, consts: list,
                          kinds: list) -> list[SolModel] | None:
        """All solutions by exhaustive evaluation (spec/finite.py), or None when it does not apply.

        Gives the same solutions, in the same (canonical) order, as the Z3 enumeration.
        The walk ``enumerate`` made of these assertions, if any, is evaluated instead of
        walking them again (the same result: see ``FiniteWalk``).
        """
        self.check_time()
        walk, self._finite_walk = getattr(self, "_finite_walk", None), None
        if walk is not None and walk.assertions is assertions and len(walk.consts) == len(consts) \
                and all(a is b for a, b in zip(walk.consts, consts)):
            res = walk.evaluate(limit)
        else:
            res = compile_finite(assertions, consts, kinds, limit=limit)
        if res is None:
            return None
        prob, _ = res
        if prob.too_many or (limit is not None and len(prob.rows) > limit):
            raise Rejection("too many solutions", f"more than max_solution = {limit}")
        return self._finite_sols(prob, consts, prob.rows)

    @staticmethod
    def _finite_sols(prob: Any, consts: list, rows: Any) -> list[SolModel]:
        if not prob.used:
            return [SolModel({}, {}) for _ in range(len(rows))]
        ids = [consts[c].get_id() for c in prob.used]
        cmap = {i: consts[c] for i, c in zip(ids, prob.used)}
        return [SolModel(dict(zip(ids, vals)), cmap) for vals in zip(*prob.row_values(rows))]

    def _enumerate(self, assertions: list, limit: int | None, consts: list, kinds: list,
                   logic: str | None, first_timeout: int | None = None,
                   later_reserve: int | None = None) -> list[SolModel]:
        solver = z3.SolverFor(logic) if logic else z3.Solver()
        solver.set("random_seed", self._z3_seed)
        solver.add(assertions)
        decl_asts = [c.decl().ast for c in consts]
        const_asts = [c.as_ast() for c in consts]
        ids = [c.get_id() for c in consts]
        all_consts = dict(zip(ids, consts))
        sols: list[SolModel] = []
        while True:
            self.check_time()
            budget = self._remaining_ms()
            if first_timeout and not sols:
                budget = min(budget, first_timeout)
            if later_reserve is not None and sols:
                budget = max(min(budget, LATER_CHECK_MS), budget - later_reserve)
            r = self.budget.run(solver, budget)
            if r == z3.unknown:
                if logic and (first_timeout and not sols or not self.budget.exhausted):
                    if self.budget.remaining() > 0:
                        raise _FallBack()
                if sols:
                    # the original ends its enumeration here and keeps the puzzle (its
                    # loop runs while check() == sat); without the proof that no other
                    # solution exists there is no puzzle (issue 23)
                    raise undecided(f"Z3 could not decide whether a solution beyond the "
                                    f"{len(sols)} found exists ({solver.reason_unknown()})")
                raise Rejection("time limit", "solver time budget exhausted")
            if r != z3.sat:
                break
            model = solver.model()
            values, raws = read_model(model, consts, decl_asts, kinds)
            keep = []
            if None in values:
                for j, v in enumerate(values):
                    if v is None:
                        e = model.eval(consts[j], model_completion=True)
                        keep.append(e)  # holds the AST alive until the block is asserted
                        raws[j] = e.as_ast()
                        values[j] = z3_to_py(e)
            sols.append(SolModel(dict(zip(ids, values)), all_consts, model))
            if limit is not None and len(sols) > limit:
                raise Rejection("too many solutions", f"more than max_solution = {limit}")
            if not add_block(solver, const_asts, raws):
                break
        return sols

    def solve(self) -> None:
        spec, env = self.spec, self.env
        found, seed = self.from_config("_z3_seed")
        self._z3_seed = replayed_z3_seed(seed) if found else self.rng.randrange(1 << 30)
        self.config["_z3_seed"] = self._z3_seed
        self.cond_num = self.assertion_count()
        self.budget_rate()
        if spec.post_generation is not None:
            pg = spec.post_generation
            need_sol = not all(self.from_config(k)[0] for k in pg["vars"]) or not pg["vars"]
            sols: list = []
            if need_sol or spec.calc_solution is False:
                solver = self._solver()
                solver.add(self.assertions)
                if self._check(solver) != z3.sat:
                    raise Rejection("no solution", "the scenario constraints have no solution")
                sols = [self._to_sol(solver.model())]
                env["_sol"] = sols[0]
            env["_solutions"] = sols
            self.config["_sol_id"] = 0
            env["_sol_id"] = 0
            for name, code in pg["vars"].items():
                ok, value = self.from_config(name)
                if not ok:
                    value = ev(code, env)
                env[name] = value
                self.config[name] = encode_value(value)
            if spec.calc_solution:
                post = list(self.assertions)
                for name, c in pg["conditions"].items():
                    d = ev(c["desc"], env) if c["desc"] is not None else ""
                    env[name] = d
                    before = len(self.assertions)
                    self.add_assertion(ev(c["formula"], env), c["formula"])
                    post.extend(self.assertions[before:])
                self.cond_num = len(self.assertions)
                env["_solutions"] = self.enumerate(self.assertions, spec.max_solution)
                if not env["_solutions"]:
                    raise Rejection("no solution", "no solution after post-generation constraints")
            else:
                self.cond_num = 0
        elif spec.optimize is not None:
            kind = str(ev(spec.optimize["type"], env)).strip()
            if kind not in ("minimize", "maximize"):
                raise ExprFailure(spec.optimize["type"], ValueError(f"optimize type '{kind}' is not minimize/maximize"))
            if self.column_optimize(kind):  # spec/columnmode.py: no Z3 term needed
                return
            target = ev(spec.optimize["formula"], env)
            if self.capture is not None:  # spec/audit.py re-checks this optimum independently
                self.capture.update(kind="optimize", assertions=list(self.assertions),
                                    target=target, direction=kind)
            if z3.is_expr(target) and z3.is_int(target) and self._optimize_finite(target, kind):
                return
            found = self._descend(target, kind) if z3.is_expr(target) and z3.is_int(target) else None
            if found is not None:
                model, value = found
                self._finish_optimum(model, value, target)
                return
            opt = z3.Optimize()
            opt.add(self.assertions)
            try:
                goal = (opt.minimize if kind == "minimize" else opt.maximize)(target)
            except z3.Z3Exception as exc:
                raise ExprFailure(spec.optimize["formula"], exc) from None
            r = self.budget.run(opt)
            if r == z3.unknown:
                raise Rejection("time limit", "optimizer gave up: " + opt.reason_unknown())
            if r != z3.sat:
                raise Rejection("no solution", "the optimization constraints have no solution")
            model = opt.model()
            value = model.evaluate(target, model_completion=True)
            if not _attained(goal, value):
                raise _unattained(goal, kind)
            self._finish_optimum(model, value, target, opt)
        elif spec.calc_solution:
            sols = self.column_enumerate(spec.max_solution)  # spec/columnmode.py
            if sols is None:
                sols = self.enumerate(self.assertions, spec.max_solution)
            if not sols:
                raise Rejection("no solution", "the constraints have no solution")
            env["_solutions"] = sols
        else:
            env["_solutions"] = []
            self.cond_num = 0

    def budget_rate(self) -> None:
        """Nonlinear problems keep a wall-clock share per check (spec/budget.py).

        Decided on the Z3 assertions present when solving starts. An attempt still in a
        column mode has none; if it then falls back to Z3 it keeps the default rate, as
        before this method existed. Known case: 62-queue's first attempts per family (a
        nonlinear Int problem the finite mode refuses for unbounded domains) run their
        checks on work units alone; after the mode's trial they are clocked. Open: making
        that consistent changes those attempts' outcomes, so it needs its own change.
        """
        if not self.assertions:
            return
        kinds = {c.sort().kind() for c in self.sym_consts}
        if z3.Z3_REAL_SORT in kinds and is_nonlinear_real(self.assertions):
            self.budget.use_rate(NONLINEAR_UNITS_PER_MS, clocked=True)  # spec/budget.py
        elif z3.Z3_INT_SORT in kinds and is_nonlinear_int(self.assertions):
            self.budget.use_rate(UNITS_PER_MS, clocked=True)

    def _optimize_finite(self, target: Any, kind: str) -> bool:
        """Optimum by exhaustive evaluation (spec/finite.py); False when it does not apply.

        Same outcome as the Z3 path: the optimum, ``multiple optima`` when two assignments
        of the constants reach it and the spec says ``max_solution: 1``, ``no solution``
        when nothing satisfies the constraints.
        """
        self.check_time()
        consts = self.sym_consts if self.sym_consts else collect_consts(list(self.assertions) + [target])
        kinds = [c.sort().kind() for c in consts]
        res = compile_finite(self.assertions, consts, kinds, objective=target)
        if res is None:
            return False
        prob, objv = res
        self._finite_optimum(prob, objv, consts, kind, target.ctx)
        return True

    def _finite_optimum(self, prob: Any, objv: Any, consts: list, kind: str, ctx: Any) -> None:
        """_value and _solutions from an exhaustive evaluation (or a rejection)."""
        if not len(prob.rows):
            raise Rejection("no solution", "the optimization constraints have no solution")
        best = int(objv.max() if kind == "maximize" else objv.min())
        hits = np.flatnonzero(objv == best)
        if len(hits) > 1 and needs_unique_optimum(self.spec):  # spec/argmax.py
            raise multiple_optima(best)
        # several optima allowed: the rows are in canonical order, so hits[0] is the
        # canonical optimal configuration
        self.env["_value"] = z3.IntVal(best, ctx)
        self.env["_solutions"] = self._finite_sols(prob, consts, prob.rows[hits])[0]

    def _descend(self, target: Any, kind: str, max_steps: int = 500) -> tuple | None:
        """Optimise an integer objective by strict improvement with one incremental solver.

        Why: Z3's Optimize can stall for seconds on piecewise objectives built from nested
        If terms (corpus spec 46-elevator) that a plain solver settles in a few steps.
        The optimum is the same; None (too many steps) falls back to Optimize.
        """
        s = self._solver()
        s.add(self.assertions)
        if self._check(s) != z3.sat:
            raise Rejection("no solution", "the optimization constraints have no solution")
        model = s.model()
        value = model.evaluate(target, model_completion=True)
        for _ in range(max_steps):
            s.push()
            s.add(target < value if kind == "minimize" else target > value)
            r = self._check(s)
            if r != z3.sat:
                s.pop()
                return model, value
            model = s.model()
            value = model.evaluate(target, model_completion=True)
            s.pop()
        return None

    def _finish_optimum(self, model: Any, value: Any, target: Any, holder: Any = None) -> None:
        """Store _value and one optimal configuration as _solutions.

        Several optimal configurations are a rejection (``multiple optima``) when the spec
        says ``max_solution: 1`` or its question reads the configuration (spec/argmax.py;
        stricter than the original, which only checks ``max_solution``), and a check Z3
        leaves undecided is ``uniqueness undecided``. Otherwise the configuration kept must
        not depend on the model Z3 returns in the reused context, so it is re-derived in
        a fresh context (``_canonical_optimum``).

        The value is the optimum that Optimize's bound states (a bound the model does not
        reach is rejected before, see ``_unattained``). ``holder``: the solved Optimize, which
        already holds the assertions, runs the multiple-optima check (only its sat/unsat
        answer is used) instead of a new solver re-asserting them.
        """
        env = self.env
        # projected on every constant of the problem, each with a value (model completion
        # for one Z3 eliminated), so the check does not depend on which model Z3 returned
        consts = collect_consts(list(self.assertions) + [target])
        vals = [model.eval(c, model_completion=True) for c in consts]
        sol = SolModel({c.get_id(): z3_to_py(v) for c, v in zip(consts, vals)},
                       {c.get_id(): c for c in consts}, model)
        if holder is not None:
            check = holder
        else:
            check = self._solver()
            check.add(self.assertions)
        check.add(target == value)
        block = [c != v for c, v in zip(consts, vals)]
        if block:
            check.add(z3.Or(block))
            r = self.budget.run(check)
            if r == z3.unknown:
                raise undecided(f"Z3 could not decide whether another configuration reaches the "
                                f"optimum {value} ({check.reason_unknown()})")
            if r == z3.sat:
                if needs_unique_optimum(self.spec):
                    raise multiple_optima(value)
                sol = self._canonical_optimum(consts, target, value)
        env["_value"] = value
        env["_solutions"] = sol

    def _canonical_optimum(self, consts: list, target: Any, value: Any) -> SolModel:
        """One optimal configuration that depends only on the attempt, not on context state.

        Why a fresh context: Z3's choice among several models depends on the terms its
        context already holds, and the family reuses one context across puzzles. A new
        context holding only this problem (translated), seeded with the attempt's Z3 seed,
        returns the same model whatever ran before.
        """
        ctx = z3.Context()
        solver = z3.Solver(ctx=ctx)
        solver.set("random_seed", self._z3_seed)
        solver.add([a.translate(ctx) for a in self.assertions])
        solver.add(target.translate(ctx) == value.translate(ctx))
        if self._check(solver) != z3.sat:
            raise Rejection("solver gave up", "the optimum could not be re-derived")
        m = solver.model()
        vals = {c.get_id(): z3_to_py(m.eval(c.translate(ctx), model_completion=True)) for c in consts}
        return SolModel(vals, {c.get_id(): c for c in consts}, None)
