"""Randomised construction of an attempt: variables, symbols, derived symbols, conditions.

Why a mixin of ``Attempt``: these steps share the attempt's namespace (``env``), its
``random.Random`` and its config (replay) state; every random draw comes from the
attempt's generator, in the format's attribute order, so a puzzle is a function of its seed.
"""
from __future__ import annotations

import threading
from typing import Any

import z3

from .budget import rlimit_count
from .columnmode import ColumnMixin
from .configcodec import encode_value, parse_index
from .outcome import ExprFailure, Rejection, ev
from .replaycheck import check_replayed_variable, missing_value
from .safe import SafeCode
from .schema import Selection
from .selection import SelectionImpossible, as_config, select_indices
from .symbols import CondText, SymbolDict

__all__ = ["SamplingMixin", "PRECHECK_MS", "PRECHECK_COST_KEY", "sources_of", "select", "values_at"]

_MISSING = object()

#: Work slice (idle-machine ms of Z3 work, spec/budget.py) of the finite-domain pre-check.
PRECHECK_MS = 2000
#: After this many pre-checks of a spec without one contradiction found, stop pre-checking it.
_PRECHECK_TRIAL = 40
#: ... or after this many, if the pre-checks cost more work than all the solving they preceded.
_PRECHECK_MIN = 5
#: Key of the pre-check statistics in the family's per-spec cache (a tuple: never a source string).
_PRECHECK_KEY = ("puzzleforge.spec.sampling", "precheck")
#: Key of [work units of the passed pre-checks, work units of the attempts' solving after them].
PRECHECK_COST_KEY = ("puzzleforge.spec.sampling", "precheck-cost")
#: The pre-check's own Z3 context (one per thread): see ``precheck``.
_PRIVATE = threading.local()


def _precheck_context() -> Any:
    ctx = getattr(_PRIVATE, "ctx", None)
    if ctx is None:
        ctx = _PRIVATE.ctx = z3.Context()
    return ctx


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


# ---- selections (also used by spec/questions.py for choice options) -----------------
def sources_of(a: Any, sel: Selection) -> list[list]:
    """The selection's source lists, evaluated in the attempt's namespace."""
    out = []
    for code in sel.source:
        src = ev(code, a.env)
        out.append(list(src.to_list()) if isinstance(src, SymbolDict) else list(src))
    return out


def amounts_of(a: Any, sel: Selection) -> list[int]:
    """How many items each source contributes per selected entry (1 each by default)."""
    if sel.amount is None:
        return [1] * len(sel.source)
    out = []
    for code in sel.amount:
        v = ev(code, a.env)
        try:
            out.append(int(v))
        except (TypeError, ValueError) as exc:
            raise ExprFailure(code, exc) from None
    return out


def select(a: Any, sel: Selection, sources: list[list], domain: int, *, option: bool = False,
           accept: Any = None) -> list:
    """``domain`` entries drawn from ``sources`` with the attempt's generator (spec/selection.py)."""
    if domain <= 0:
        return []
    amounts = amounts_of(a, sel)
    env = a.env

    def resolve(code: SafeCode) -> Any:
        return ev(code, env)

    try:
        return select_indices(
            a.rng, [len(s) for s in sources], amounts, domain,
            domain_cond=True if option else sel.domain_cond, dim=sel.dim, dim_cond=sel.dim_cond,
            custom_cond=sel.custom_cond, order=sel.order, duplicate=sel.duplicate, resolve=resolve,
            accept=accept)
    except SelectionImpossible as exc:
        raise Rejection("random selection impossible", str(exc)) from None


def values_at(sources: list[list], item: list) -> list:
    """The source values at one selected entry's indices."""
    return [[src[i] for i in idx] for src, idx in zip(sources, item)]


class SamplingMixin(ColumnMixin):
    """variables -> symbols -> conditions (methods of ``Attempt``).

    Conditions of a finite-domain attempt are built as Python terms (``ColumnMixin``,
    spec/columnmode.py) and become Z3 terms only if the finite path cannot decide.
    """

    # ---- variables ---------------------------------------------------------------
    def variables(self) -> None:
        for name, kind_code in self.spec.operators.items():
            kind, code = kind_code
            self.env[name] = ev(code, self.env) if kind == "lambda" else self.file_ops[name]
        for name, v in self.spec.variables.items():
            found, value = self.from_config(name)
            if "formula" not in v and self.replay is not None:
                if found:
                    check_replayed_variable(name, v, value, self.env)
                elif name not in self.use_spec_vars:
                    raise missing_value(name)
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
        return sources_of(self, sel)

    def _select(self, sel: Selection, sources: list[list], domain: int, *, option: bool = False,
                accept: Any = None) -> list:
        return select(self, sel, sources, domain, option=option, accept=accept)

    _values = staticmethod(lambda sources, item: values_at(sources, item))

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
        self.column_start()
        for name, c in self.spec.conditions.items():
            self.check_time()
            if c["kind"] == "static":
                d = ev(c["desc"], env) if c["desc"] is not None else ""
                env[name] = d
                self.cond_text += d or ""
                env["conditions"] = self.cond_text
                self.condition_formula(c["formula"])
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
                self.condition_formula(c["formula"])
                text += ev(c["desc"], env) or ""
            obj = CondText(text, values, num)
            env[name] = obj
            self.cond_text += text
            env["conditions"] = self.cond_text
        env["conditions"] = self.cond_text
        if self._col is None:  # in the mode, exhaustive evaluation decides (or Z3 later)
            self.precheck()

    # ---- early rejection -------------------------------------------------------------
    def precheck(self) -> None:
        """Reject at once an attempt whose constraints contradict each other.

        Why: in several specs (29-dining2, 19-hobby, 8-stone, 58-sugar...) most random
        condition sets are jointly unsatisfiable, and the general path (QF_LIA first, then
        the fallbacks) can spend a second or more proving it. Bit-blasting (Z3's QF_FD, a
        SAT solver over the bounded integers) usually proves it in milliseconds (29-dining2:
        ~20x faster). Only an unsat answer is used: every path of ``solve`` rejects such an
        attempt with "no solution" anyway, so no accepted puzzle changes (the check draws
        nothing from the attempt's random generator and its model is never used); "sat" or
        "unknown" (unbounded integers, a slow instance, the time slice) falls through to the
        normal solving. Specs that never solve (``calc_solution: false`` without
        post_generation/optimize) are not checked, and a spec whose first checks found no
        contradiction stops being checked (pure overhead there): after _PRECHECK_TRIAL
        checks, or after _PRECHECK_MIN if the passed pre-checks cost more Z3 work units
        than all the solving of their attempts (11-wine: a 65,000-unit pre-check before
        about 10,000 units of solving, 40 times per process). Units, not the clock: like
        the check counts, the decision depends on what the process pre-checked before (the
        private context is shared), never on the machine's load. The attempt records its
        part (``precheck_units``, added up by spec/attempt.py).

        The check runs in a private Z3 context (the assertions are translated into it):
        the family reuses its Z3 context across attempts, and terms a solver creates there
        would shift which model Z3 returns later, so a pre-check in that context made a
        puzzle depend on whether earlier attempts had switched the pre-check off.
        """
        spec = self.spec
        if not self.assertions or not (spec.calc_solution or spec.post_generation is not None
                                       or spec.optimize is not None):
            return
        stats = self._lambda_cache.setdefault(_PRECHECK_KEY, [0, 0])  # [checks, contradictions]
        if stats[1] == 0 and stats[0] >= _PRECHECK_MIN:
            cost = self._lambda_cache.get(PRECHECK_COST_KEY)
            if stats[0] >= _PRECHECK_TRIAL or (cost is not None and cost[0] > cost[1]):
                return
        kinds = {c.sort().kind() for c in self.sym_consts}
        if not kinds <= {z3.Z3_BOOL_SORT, z3.Z3_INT_SORT}:
            return
        if self.budget.remaining() <= 0:
            return
        ctx = _precheck_context()
        solver = z3.SolverFor("QF_FD", ctx=ctx)
        solver.set("random_seed", 0)
        try:
            solver.add([a.translate(ctx) for a in self.assertions])
            before = rlimit_count(solver)
            result = self.budget.run(solver, PRECHECK_MS, charge=False)  # spec/budget.py
            spent = (rlimit_count(solver) - before) % (1 << 32)
        except z3.Z3Exception:
            return
        stats[0] += 1
        if result == z3.unsat:
            stats[1] += 1
            raise Rejection("no solution", "the constraints have no solution (finite-domain pre-check)")
        self.precheck_units = spent
