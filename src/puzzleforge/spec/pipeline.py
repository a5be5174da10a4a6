"""One generation attempt of a spec: variables -> symbols -> conditions -> solve -> queries -> text.

Why an interpreter over the compiled spec (and not generated Python source like the
original): every expression was compiled once by the whitelisting compiler when the spec
was loaded; an attempt only evaluates them in a fresh namespace, with one Z3 solver per
attempt, enumeration blocked on the symbols' constants, and every random draw from the
attempt's ``random.Random``. A failure of the random parameters (no solution, too many,
an assertion that does not hold, an impossible selection) is a ``Rejection`` with a
reason; an expression that raises is an ``ExprFailure`` naming its field and YAML line.
"""
from __future__ import annotations

import os
import random
import time
from typing import Any

import z3

from .fastz3 import add_block, collect_consts, is_lia, read_model
from .operators import Runtime, SolModel, Z3_EXPORTS, z3_to_py
from .safe import SAFE_BUILTINS, SafeCode, compile_expr
from .schema import Selection, Spec
from .selection import SelectionImpossible, as_config, select_indices
from .configcodec import NotReplayable, decode_value, encode_value, parse_index
from .symbols import CondText, SymbolDict

__all__ = ["run_attempt", "fresh_z3_context", "Rejection", "ExprFailure", "AttemptResult", "encode_value", "decode_value"]


class Rejection(Exception):
    """The random parameters of this attempt do not give a valid puzzle."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}" if detail else reason)


class ExprFailure(Exception):
    """A spec expression raised while evaluating (names the field, line and source)."""

    def __init__(self, code: SafeCode, exc: BaseException) -> None:
        self.code = code
        self.exc = exc
        super().__init__(f"{code.where}: {type(exc).__name__}: {exc}")


class _FallBack(Exception):
    """The specialised solver could not decide; use the general one."""


class AttemptResult(dict):
    """problem, answer, parameters, config, solution, answers (list per query)."""


def ev(code: SafeCode, env: dict) -> Any:
    try:
        return code.run(env)
    except (Rejection, ExprFailure):
        raise
    except RecursionError as exc:
        raise ExprFailure(code, exc) from None
    except Exception as exc:  # noqa: BLE001 - any error of user code is reported with its location
        raise ExprFailure(code, exc) from None


def _flatten_assertions(value: Any, out: list) -> None:
    if isinstance(value, (list, tuple)):
        for v in value:
            _flatten_assertions(v, out)
    elif isinstance(value, bool):
        out.append(z3.BoolVal(value))
    elif isinstance(value, z3.BoolRef):
        out.append(value)
    elif isinstance(value, z3.ExprRef):
        raise TypeError(f"condition is a {value.sort()} expression, not a Boolean: {value}")
    else:
        raise TypeError(f"condition evaluates to {type(value).__name__}, not a Z3 Boolean or list of them")


class Attempt:
    def __init__(self, spec: Spec, file_ops: dict[str, Any], rng: random.Random,
                 config: dict | None, use_spec_vars: set[str], deadline: float,
                 lambda_cache: dict) -> None:
        self.spec = spec
        self.rng = rng
        self.replay = config
        self.use_spec_vars = use_spec_vars
        self.deadline = deadline
        self.config: dict[str, Any] = {}
        self.env: dict[str, Any] = {"__builtins__": SAFE_BUILTINS}
        self.env.update(Z3_EXPORTS)
        self._lambda_cache = lambda_cache
        self.rt = Runtime(rng, self.env, self._compile_lambda)
        self.env.update(self.rt.table())
        self.file_ops = file_ops
        self.assertions: list = []
        self.cond_text = ""
        self.var_pos: dict[str, tuple[float, float]] = {}
        self.sym_consts: list = []
        self.incomplete = False
        self.env["conditions"] = ""
        self.env["queries"] = ""

    def _compile_lambda(self, source: str) -> Any:
        code = self._lambda_cache.get(source)
        if code is None:
            code = compile_expr(source, where="generate_random_list condition", file=self.spec.path)
            self._lambda_cache[source] = code
        return ev(code, self.env)

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise Rejection("time limit", "the attempt exceeded its time budget")

    def from_config(self, key: str) -> tuple[bool, Any]:
        if self.replay is None or key in self.use_spec_vars or key not in self.replay:
            return False, None
        try:
            return True, decode_value(self.replay[key])
        except NotReplayable:
            return False, None

    # ---- variables ---------------------------------------------------------------
    def variables(self) -> None:
        for name, kind_code in self.spec.operators.items():
            kind, code = kind_code
            self.env[name] = ev(code, self.env) if kind == "lambda" else self.file_ops[name]
        for name, v in self.spec.variables.items():
            found, value = self.from_config(name)
            if found and v.get("diff_factor") and "formula" not in v:
                self._position(name, v, value)
            if not found:
                if "formula" in v:
                    value = ev(v["formula"], self.env)
                elif v["type"] in ("int",):
                    lo, hi = ev(v["lo"], self.env), ev(v["hi"], self.env)
                    try:
                        lo, hi = int(lo), int(hi)
                    except (TypeError, ValueError) as exc:
                        raise ExprFailure(v["lo"], exc) from None
                    if lo > hi:
                        raise Rejection("empty variable domain", f"{name}: [{lo}, {hi}]")
                    value = self.rng.randint(lo, hi)
                elif v["type"] in ("float", "real"):
                    lo, hi = ev(v["lo"], self.env), ev(v["hi"], self.env)
                    if lo > hi:
                        raise Rejection("empty variable domain", f"{name}: [{lo}, {hi}]")
                    value = self.rng.uniform(lo, hi)
                else:
                    choices = list(ev(v["choices"], self.env))
                    if not choices:
                        raise Rejection("empty variable domain", name)
                    value = choices[0] if len(choices) == 1 else self.rng.choice(choices)
            if not found and v.get("diff_factor") and "formula" not in v:
                self._position(name, v, value)
            self.env[name] = value
            self.config[name] = encode_value(value)

    def _position(self, name: str, v: dict, value: Any) -> None:
        """Where ``value`` sits in its domain (0..1), for the difficulty score."""
        try:
            if "lo" in v:
                lo, hi = float(ev(v["lo"], self.env)), float(ev(v["hi"], self.env))
                pos = 0.5 if hi <= lo else (float(value) - lo) / (hi - lo)
            else:
                choices = list(ev(v["choices"], self.env))
                pos = 0.5 if len(choices) < 2 else choices.index(value) / (len(choices) - 1)
        except (ExprFailure, ValueError, TypeError):
            return
        self.var_pos[name] = (min(1.0, max(0.0, pos)), float(v["diff_factor"]))

    # ---- selections ------------------------------------------------------------------
    def _sources(self, sel: Selection) -> list[list]:
        out = []
        for code in sel.source:
            src = ev(code, self.env)
            out.append(list(src.to_list()) if isinstance(src, SymbolDict) else list(src))
        return out

    def _amounts(self, sel: Selection) -> list[int]:
        if sel.amount is None:
            return [1] * len(sel.source)
        out = []
        for code in sel.amount:
            a = ev(code, self.env)
            try:
                out.append(int(a))
            except (TypeError, ValueError) as exc:
                raise ExprFailure(code, exc) from None
        return out

    def _select(self, sel: Selection, sources: list[list], domain: int, *, option: bool = False,
                accept: Any = None) -> list:
        if domain <= 0:
            return []
        amounts = self._amounts(sel)
        env = self.env

        def resolve(code: SafeCode) -> Any:
            return ev(code, env)

        dup = sel.duplicate
        order = sel.order
        try:
            return select_indices(
                self.rng, [len(s) for s in sources], amounts, domain,
                domain_cond=True if option else sel.domain_cond, dim=sel.dim, dim_cond=sel.dim_cond,
                custom_cond=sel.custom_cond, order=order, duplicate=dup, resolve=resolve, accept=accept)
        except SelectionImpossible as exc:
            raise Rejection("random selection impossible", str(exc)) from None

    @staticmethod
    def _values(sources: list[list], item: list) -> list:
        return [[src[i] for i in idx] for src, idx in zip(sources, item)]

    # ---- symbols -------------------------------------------------------------------
    def symbols(self) -> None:
        for name, s in self.spec.symbols.items():
            self.check_time()
            if s["kind"] == "defined":
                srcs = []
                for sname, code in zip(s["source_names"], s["source"]):
                    val = ev(code, self.env)
                    srcs.append((sname, list(val.to_list()) if isinstance(val, SymbolDict) else list(val)))
                sym = SymbolDict(name, srcs, s["attr"], s["types"])
                self.env[name] = sym
                for v in dict.values(sym):
                    if isinstance(v, dict):
                        self.sym_consts.extend(v.values())
                    else:
                        self.sym_consts.append(v)
                for key in sym._keys:
                    parts = sym.key_parts(key)
                    value = dict.__getitem__(sym, key)
                    descs = s["desc"] or []
                    if s["attr"] is None:
                        d = self._render_sym_desc(descs[0] if descs else None, parts)
                        self.rt.store(value, {"p": parts, "desc": d, "type": s["types"][0]})
                    else:
                        for i, a in enumerate(s["attr"]):
                            d = self._render_sym_desc(descs[i] if i < len(descs) else None, parts)
                            self.rt.store(value[a], {"p": parts, "desc": d, "type": s["types"][i]})
            elif s["kind"] == "derived":
                found, pool = self.from_config(name)
                syms, descs, vals = [], [], []
                self._derived(name, s, syms, descs, vals, 0,
                              pool["pool"] if found and isinstance(pool, dict) else None)
                self.config[name] = {"pool": self._last_pool}
                self.env[name] = syms
                self.rt.store(syms, {"desc": descs, "data": vals})
            else:
                found, stored = self.from_config(name)
                total = int(ev(s["total"], self.env))
                if found and isinstance(stored, dict) and "pool_domain" in stored:
                    pool_domain = [int(x) for x in stored["pool_domain"]]
                    pools = stored.get("pool", [])
                else:
                    per = []
                    for t in s["templates"]:
                        rng_ = None
                        if t["domain_raw"] is not None:
                            d = ev(t["domain"], self.env)
                            rng_ = list(d) if isinstance(d, (list, tuple)) else [int(d), int(d)]
                        per.append(rng_)
                    try:
                        pool_domain = self.rt.generate_random_list_with_total(len(s["templates"]), [0, total], total, per)
                    except Exception as exc:  # noqa: BLE001
                        raise Rejection("random selection impossible", str(exc)) from None
                    pools = None
                entry = {"pool_domain": pool_domain, "pool": []}
                syms, descs, vals = [], [], []
                index = 0
                for i, t in enumerate(s["templates"]):
                    index = self._derived(name, t, syms, descs, vals, index,
                                          pools[i] if pools is not None and i < len(pools) else None,
                                          domain=pool_domain[i])
                    entry["pool"].append(self._last_pool)
                self.config[name] = entry
                self.env[name] = syms
                self.rt.store(syms, {"desc": descs, "data": vals})

    def _render_sym_desc(self, code: SafeCode | None, parts: dict) -> Any:
        if code is None:
            return None
        env = self.env
        saved = {}
        for k, v in parts.items():
            key = "_" + str(k)
            saved[key] = env.get(key, _MISSING)
            env[key] = v
        try:
            return ev(code, env)
        except ExprFailure:
            return code.source  # the original keeps a defined symbol's desc as a raw template
        finally:
            for key, old in saved.items():
                if old is _MISSING:
                    env.pop(key, None)
                else:
                    env[key] = old

    def _derived(self, name: str, t: dict, syms: list, descs: list, vals: list, index: int,
                 stored_pool: Any, domain: int | None = None) -> int:
        sel: Selection = t["selection"]
        sources = self._sources(sel)
        if domain is None:
            domain = int(ev(t["domain"], self.env)) if t["domain"] is not None else 1
        if stored_pool is not None:
            indices = parse_index(stored_pool)
        else:
            indices = self._select(sel, sources, domain)
        self._last_pool = as_config(indices)
        env = self.env
        for item in indices:
            env["_index"] = index
            if sel.dim == 1:
                v = self._values(sources, item)
                env["_sym"] = v if t["has_amount"] else [x[0] for x in v]
                env["_ind"] = item if t["has_amount"] else [x[0] for x in item]
                s = ev(t["formula"], env)
                d = ev(t["desc"], env)
                syms.append(s)
                descs.append(d)
                vals.append(v)
                self.rt.store(s, {"desc": d, "data": env["_sym"]})
            else:
                ss, dd, vv = [], [], []
                for dim_item in item:
                    v = self._values(sources, dim_item)
                    env["_sym"] = v if t["has_amount"] else [x[0] for x in v]
                    env["_ind"] = dim_item if t["has_amount"] else [x[0] for x in dim_item]
                    s = ev(t["formula"], env)
                    d = ev(t["desc"], env)
                    ss.append(s)
                    dd.append(d)
                    vv.append(v)
                    self.rt.store(s, {"desc": d, "data": env["_sym"]})
                syms.append(ss)
                descs.append(dd)
                vals.append(vv)
            index += 1
        return index

    # ---- conditions ------------------------------------------------------------------
    def add_assertion(self, value: Any, code: SafeCode) -> None:
        try:
            _flatten_assertions(value, self.assertions)
        except TypeError as exc:
            raise ExprFailure(code, exc) from None

    def conditions(self) -> None:
        env = self.env
        for name, c in self.spec.conditions.items():
            self.check_time()
            if c["kind"] == "static":
                d = ev(c["desc"], env) if c["desc"] is not None else ""
                env[name] = d
                self.cond_text += d or ""
                env["conditions"] = self.cond_text
                self.add_assertion(ev(c["formula"], env), c["formula"])
                continue
            sel: Selection = c["selection"]
            found, stored = self.from_config(name)
            if found and isinstance(stored, dict) and "pool" in stored:
                num = int(stored.get("domain", len(stored["pool"])))
                indices = parse_index(stored["pool"])
                sources = self._sources(sel)
            else:
                if c["domain"] is not None:
                    lo, hi = ev(c["domain"][0], env), ev(c["domain"][1], env)
                    lo, hi = int(lo), int(hi)
                    if lo > hi:
                        raise Rejection("empty condition count range", f"{name}: [{lo}, {hi}]")
                    num = self.rng.randint(lo, hi)
                else:
                    num = 1
                sources = self._sources(sel)
                indices = self._select(sel, sources, num)
            self.config[name] = {"domain": num, "pool": as_config(indices)}
            values = [self._values(sources, item) for item in indices]
            text = ""
            for i, (item, v) in enumerate(zip(indices, values)):
                env["_index"] = i
                env["_sym"] = v if c["has_amount"] else [x[0] for x in v]
                env["_ind"] = item if c["has_amount"] else [x[0] for x in item]
                self.add_assertion(ev(c["formula"], env), c["formula"])
                text += ev(c["desc"], env) or ""
            obj = CondText(text, values, num)
            env[name] = obj
            self.cond_text += text
            env["conditions"] = self.cond_text
        env["conditions"] = self.cond_text

    # ---- solving ---------------------------------------------------------------------
    def _solver(self) -> Any:
        kinds = {c.sort().kind() for c in self.sym_consts}
        linear = bool(kinds) and kinds <= {z3.Z3_BOOL_SORT, z3.Z3_INT_SORT} and is_lia(self.assertions)
        s = z3.SolverFor("QF_LIA") if linear and os.environ.get("PUZZLEFORGE_SPEC_LIA", "1") == "1" else z3.Solver()
        s.set("random_seed", self._z3_seed)
        return s

    def _remaining_ms(self) -> int:
        return max(1, int((self.deadline - time.monotonic()) * 1000))

    def _check(self, solver: Any) -> Any:
        solver.set("timeout", self._remaining_ms())
        r = solver.check()
        if r == z3.unknown:
            reason = solver.reason_unknown()
            if "timeout" in reason or "canceled" in reason:
                raise Rejection("time limit", "solver time budget exhausted")
            raise Rejection("solver gave up", reason)
        return r

    def _to_sol(self, model: Any) -> SolModel:
        values, consts = {}, {}
        for d in model.decls():
            if d.arity() == 0:
                c = d()
                cid = c.get_id()
                values[cid] = z3_to_py(model[d])
                consts[cid] = c
        return SolModel(values, consts, model)

    def enumerate(self, assertions: list, limit: int | None) -> list[SolModel]:
        """All solutions projected on the constants of ``assertions`` (bounded by ``limit``)."""
        # projected on the symbols' constants: those absent from the constraints have no
        # value in a model, exactly as with the original's blocking over model decls
        consts = self.sym_consts if self.sym_consts else collect_consts(assertions)
        kinds = [c.sort().kind() for c in consts]
        linear_ok = all(k in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds) and is_lia(assertions)
        # QF_LIA enumerates many models fast; QF_FD (bit-blasting) decides some hard
        # bounded instances in a fraction of the time: give each a short first check
        plans: list[str | None] = ["QF_LIA", "QF_FD", None] if linear_ok else [None]
        for i, logic in enumerate(plans):
            try:
                return self._enumerate(assertions, limit, consts, kinds, logic,
                                       first_timeout=2000 if i < len(plans) - 1 else None)
            except _FallBack:
                continue
        raise Rejection("solver gave up", "no solver decided the constraints")

    def _enumerate(self, assertions: list, limit: int | None, consts: list, kinds: list,
                   logic: str | None, first_timeout: int | None = None) -> list[SolModel]:
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
            solver.set("timeout", budget)
            r = solver.check()
            if r == z3.unknown:
                reason = solver.reason_unknown()
                if logic and (first_timeout and not sols or
                              ("timeout" not in reason and "canceled" not in reason)):
                    if time.monotonic() < self.deadline:
                        raise _FallBack()
                if sols:
                    # As the original: an undecided check ends the enumeration (its loop
                    # runs while check() == sat). Recorded in meta as solver_incomplete.
                    self.incomplete = True
                    break
                raise Rejection("time limit", "solver time budget exhausted")
            if r != z3.sat:
                break
            model = solver.model()
            values, raws = read_model(model, consts, decl_asts, kinds)
            if None in values:
                vals = {i: v for i, v in zip(ids, values) if v is not None}
                cmap = {i: all_consts[i] for i in vals}
            else:
                vals = dict(zip(ids, values))
                cmap = all_consts
            sols.append(SolModel(vals, cmap, model))
            if limit is not None and len(sols) > limit:
                raise Rejection("too many solutions", f"more than max_solution = {limit}")
            if not add_block(solver, const_asts, raws):
                break
        return sols

    def solve(self) -> None:
        spec, env = self.spec, self.env
        found, seed = self.from_config("_z3_seed")
        self._z3_seed = int(seed) if found else self.rng.randrange(1 << 30)
        self.config["_z3_seed"] = self._z3_seed
        self.cond_num = len(self.assertions)
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
            target = ev(spec.optimize["formula"], env)
            found = self._descend(target, kind) if z3.is_expr(target) and z3.is_int(target) else None
            if found is not None:
                model, value = found
                self._finish_optimum(model, value, target)
                return
            opt = z3.Optimize()
            opt.set("timeout", self._remaining_ms())
            opt.add(self.assertions)
            try:
                (opt.minimize if kind == "minimize" else opt.maximize)(target)
            except z3.Z3Exception as exc:
                raise ExprFailure(spec.optimize["formula"], exc) from None
            r = opt.check()
            if r == z3.unknown:
                raise Rejection("time limit", "optimizer gave up: " + opt.reason_unknown())
            if r != z3.sat:
                raise Rejection("no solution", "the optimization constraints have no solution")
            model = opt.model()
            value = model.evaluate(target, model_completion=True)
            self._finish_optimum(model, value, target)
        elif spec.calc_solution:
            sols = self.enumerate(self.assertions, spec.max_solution)
            if not sols:
                raise Rejection("no solution", "the constraints have no solution")
            env["_solutions"] = sols
        else:
            env["_solutions"] = []
            self.cond_num = 0

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

    def _finish_optimum(self, model: Any, value: Any, target: Any) -> None:
        """Reject a second optimal solution (projected on the symbols); store _value/_solutions."""
        env = self.env
        sol = self._to_sol(model)
        check = self._solver()
        check.add(self.assertions)
        check.add(target == value)
        block = [c != model[c.decl()] for c in sol.consts.values()]
        if block:
            check.add(z3.Or(block))
            if self._check(check) == z3.sat:
                raise Rejection("multiple optima", f"more than one optimal solution with value {value}")
        env["_value"] = value
        env["_solutions"] = sol

    # ---- queries ---------------------------------------------------------------------
    def queries(self) -> list[dict]:
        env = self.env
        queries_text = ""
        answers: list[str] = []
        details: list[dict] = []
        self.config["_queries"] = {}
        for cnt, (name, q) in enumerate(self.spec.queries.items(), start=1):
            self.check_time()
            if q["kind"] == "open":
                ans = ev(q["ans_formula"], env)
                env["_ans"] = ans
                ok = ev(q["ans_assertion"], env)
                if not ok:
                    raise Rejection("answer assertion false",
                                    f"{name}: {q['ans_assertion'].source}")
                desc = (ev(q["desc"], env) or "") + "\n"
                env[name] = CondText(desc)
                queries_text += f"{cnt}. " + desc
                text = str(ev(q["ans_text"], env))
                answers.append(text)
                details.append({"query": name, "kind": "open", "answer": text})
                env["queries"] = queries_text
                continue
            desc = CondText((ev(q["desc"], env) or "") + "\n")
            env[name] = desc
            opts, texts, letters = self._choice(name, q)
            full = desc + "\n".join(texts) + "\n"
            env[name] = CondText(full)
            queries_text += f"{cnt}. " + full + "\n"
            answers.append(letters)
            details.append({"query": name, "kind": q["query_type"], "answer": letters,
                            "options": len(texts)})
            env["queries"] = queries_text
        env["queries"] = queries_text
        self.answers = answers
        return details

    def _valid(self, tpl: Any, opt: list, solutions: Any) -> bool:
        env = self.env
        env["_opt"] = opt
        sols = solutions if isinstance(solutions, list) else [solutions]
        code = tpl.opt_formula
        if tpl.cond == "all":
            for m in sols:
                env["_model"] = m
                if not ev(code, env):
                    return False
            return True
        for m in sols:
            env["_model"] = m
            if ev(code, env):
                return True
        return False

    def _options_for(self, tpl: Any, sources: list[list], count: int, want: bool) -> list:
        if count <= 0:
            return []
        solutions = self.env.get("_solutions", [])

        def accept(item: list) -> bool:
            return self._valid(tpl, self._values(sources, item[0]), solutions) == want

        idx = self._select(tpl.selection, sources, count, option=True, accept=accept)
        return idx

    def _choice(self, name: str, q: dict) -> tuple[list, list, str]:
        env = self.env
        opt_num = q["opt_num"]
        env["opt_num"] = opt_num
        tpls = q["templates"]
        select_type = q["select_type"]
        found, stored = self.from_config("_queries")
        stored_q = stored.get(name) if found and isinstance(stored, dict) else None
        multi = q["query_type"] == "multiple_choice"
        if stored_q is not None and "pool" in stored_q:
            entries = []
            for e in stored_q["pool"]:
                if isinstance(e, dict):
                    entries.append((int(e["template_id"]), parse_index(e["config"])))
                else:
                    entries.append((0, parse_index(e)))
            cfg = dict(stored_q)
        else:
            n_t = len(tpls)
            if q["multi"]:
                per = [list(t.count_range) if t.count_range else None for t in tpls]
                try:
                    pool_domain = self.rt.generate_random_list_with_total(n_t, [0, opt_num], opt_num, per)
                except Exception as exc:  # noqa: BLE001
                    raise Rejection("option generation failed", str(exc)) from None
            else:
                pool_domain = [opt_num]
            if multi:
                n_right = self.rng.randint(1, opt_num) if select_type else self.rng.randint(0, opt_num - 1)
            else:
                n_right = 1 if select_type else opt_num - 1
            try:
                wrong_split = self.rt.generate_random_list_with_total(
                    n_t, [0, opt_num], opt_num - n_right, [[0, v] for v in pool_domain])
            except Exception as exc:  # noqa: BLE001
                raise Rejection("option generation failed", str(exc)) from None
            right_split = [d - w for d, w in zip(pool_domain, wrong_split)]
            rights, wrongs = [], []
            for i, t in enumerate(tpls):
                sources = self._sources(t.selection)
                try:
                    r = self._options_for(t, sources, right_split[i], True)
                    w = self._options_for(t, sources, wrong_split[i], False)
                except Rejection as exc:
                    raise Rejection("not enough options", f"{name}: {exc.detail}") from None
                rights += [(i, x) for x in r]
                wrongs += [(i, x) for x in w]
            correct, incorrect = (rights, wrongs) if select_type else (wrongs, rights)
            if multi:
                entries = correct + incorrect
                self.rng.shuffle(entries)
            else:
                pos = self.rng.randint(0, opt_num - 1)
                entries = incorrect[:pos] + correct + incorrect[pos:]
            cfg = {"pool_domain": pool_domain, "pool": [
                {"template_id": i, "config": as_config(x)} if q["multi"] else as_config(x)
                for i, x in entries]}
        self.config["_queries"][name] = cfg
        texts, letters = [], ""
        solutions = env.get("_solutions", [])
        src_cache: dict[int, list] = {}
        for k, (tid, item) in enumerate(entries):
            t = tpls[tid]
            if tid not in src_cache:
                src_cache[tid] = self._sources(t.selection)
            opt = self._values(src_cache[tid], item)
            valid = self._valid(t, opt, solutions)
            if valid == select_type:
                letters += chr(65 + k)
            env["_opt"] = opt
            env["_index"] = k
            texts.append(chr(65 + k) + ". " + str(ev(t.opt_text, env)))
        if not multi and len(letters) != 1:
            raise Rejection("option check failed", f"{name}: {len(letters)} correct options")
        if multi and not letters:
            raise Rejection("option check failed", f"{name}: no correct option")
        return entries, texts, letters

    # ---- text --------------------------------------------------------------------------
    def problem(self) -> str:
        return str(ev(self.spec.desc, self.env))


_MISSING = object()


def run_attempt(spec: Spec, file_ops: dict[str, Any], rng: random.Random, *,
                config: dict | None = None, use_spec_vars: set[str] | None = None,
                time_budget: float = 20.0, lambda_cache: dict | None = None) -> AttemptResult:
    """Run one attempt; raise Rejection / ExprFailure on failure (see ``fresh_z3_context``)."""
    return _run_attempt(spec, file_ops, rng, config=config, use_spec_vars=use_spec_vars,
                        time_budget=time_budget, lambda_cache=lambda_cache)


class fresh_z3_context:
    """Install a new Z3 context as Z3's default context for the duration of a block.

    Why: Z3's choices (which model it returns first) depend on the identities of the
    terms already created in a context, so sharing one context would make a puzzle depend
    on whatever the process built before. A fresh context per ``generate`` call makes the
    puzzle a pure function of its random generator.
    """

    def __enter__(self) -> Any:
        self.ctx = z3.Context()
        self.previous = z3.z3._main_ctx
        z3.z3._main_ctx = self.ctx
        return self.ctx

    def __exit__(self, *exc: Any) -> None:
        z3.z3._main_ctx = self.previous


def _run_attempt(spec: Spec, file_ops: dict[str, Any], rng: random.Random, *,
                 config: dict | None, use_spec_vars: set[str] | None,
                 time_budget: float, lambda_cache: dict | None) -> AttemptResult:
    a = Attempt(spec, file_ops, rng, config, set(use_spec_vars or ()), time.monotonic() + time_budget,
                lambda_cache if lambda_cache is not None else {})
    try:
        return _attempt_steps(a, spec)
    finally:
        # break the env <-> runtime cycles now so the attempt's Z3 terms (and with the
        # last of them the Z3 context) are freed at once, not at the next GC pass
        a.env.clear()
        a.rt.sym_config.clear()
        a.assertions.clear()
        a.sym_consts.clear()


def _attempt_steps(a: "Attempt", spec: Spec) -> AttemptResult:
    a.variables()
    a.symbols()
    a.conditions()
    a.solve()
    details = a.queries() if spec.queries else []
    if not spec.queries:
        a.answers = []
        a.env["queries"] = ""
    problem = a.problem()
    sym_num, sym_types = 0, set()
    for name, s in spec.symbols.items():
        if s["kind"] == "defined":
            sym_num += len(a.env[name])
            sym_types.update(s["types"])
    sols = a.env.get("_solutions")
    n_sol = len(sols) if isinstance(sols, list) else 1
    return AttemptResult(
        problem=problem,
        answer="====".join(str(x) for x in a.answers),
        answers=list(a.answers),
        details=details,
        cond_num=int(a.cond_num),
        sym_num=sym_num,
        sym_type=sorted(sym_types),
        solutions=n_sol,
        config=a.config,
        var_pos=dict(a.var_pos),
        incomplete=a.incomplete,
    )
