"""One generation attempt of a spec: variables -> symbols -> conditions -> solve -> queries -> text.

Why an interpreter over the compiled spec (and not generated Python source like the
original): every expression was compiled once by the whitelisting compiler when the spec
was loaded; an attempt only evaluates them in a fresh namespace, with one Z3 solver per
attempt, enumeration blocked on the symbols' constants, and every random draw from the
attempt's ``random.Random``. A failure of the random parameters (no solution, too many,
an assertion that does not hold, an impossible selection) is a ``Rejection`` with a
reason; an expression that raises is an ``ExprFailure`` naming its field and YAML line.

The steps live in mixins with one job each: ``sampling.py`` (variables, symbols,
conditions), ``solving.py`` (solver, enumeration, optimize), ``questions.py`` (queries,
options, text). ``Rejection``/``ExprFailure``/``ev`` are defined in ``outcome.py`` (no
import cycle) and re-exported here.
"""
from __future__ import annotations

import random
import threading
from typing import Any

import z3

from .budget import WorkBudget
from .configcodec import NOT_REPLAYABLE, NotReplayable, decode_config, decode_value, encode_value
from .operators import Runtime, Z3_EXPORTS
from .outcome import ExprFailure, Rejection, ev
from .questions import ask_queries, problem_text
from .safe import SAFE_BUILTINS, compile_expr
from .sampling import PRECHECK_COST_KEY, SamplingMixin
from .schema import Spec
from .solving import SolvingMixin

__all__ = ["Attempt", "run_attempt", "fresh_z3_context", "installed_z3_context", "SpecZ3Contexts", "Rejection", "ExprFailure", "AttemptResult",
           "ev", "encode_value", "decode_value"]


_BASE_ENV: dict[str, Any] = {}


def _base_env() -> dict[str, Any]:
    """A new namespace holding the builtins and Z3's names (one dict copy per attempt)."""
    if not _BASE_ENV:
        _BASE_ENV.update({"__builtins__": SAFE_BUILTINS}, **Z3_EXPORTS)
    return _BASE_ENV.copy()


class AttemptResult(dict):
    """problem, answer, parameters, config, solution, answers (list per query)."""



class Attempt(SamplingMixin, SolvingMixin):
    """The state of one attempt: namespace, random generator, config, assertions, work budget."""

    def __init__(self, spec: Spec, file_ops: dict[str, Any], rng: random.Random,
                 config: dict | None, use_spec_vars: set[str], budget: WorkBudget,
                 lambda_cache: dict) -> None:
        self.spec = spec
        self.rng = rng
        self.replay = config
        self._decoded: Any = None  # the replayed config as Python values (configcodec)
        self.use_spec_vars = use_spec_vars
        self.budget = budget
        self.config: dict[str, Any] = {}
        self.env: dict[str, Any] = _base_env()
        self._lambda_cache = lambda_cache
        self.rt = Runtime(rng, self.env, self._compile_lambda)
        self.env.update(self.rt.table())
        self.file_ops = file_ops
        self.assertions: list = []
        self.cond_text = ""
        self.var_pos: dict[str, tuple[float, float]] = {}
        self.sym_consts: list = []
        #: spec/audit.py sets a dict here: the attempt then solves on the Z3 paths only and
        #: records the problem it decided (assertions, projection, objective) in it
        self.capture: dict | None = None
        #: work units of this attempt's passed pre-check (spec/sampling.py), if one ran
        self.precheck_units: int | None = None
        self.env["conditions"] = ""
        self.env["queries"] = ""

    def _compile_lambda(self, source: str) -> Any:
        code = self._lambda_cache.get(source)
        if code is None:
            code = compile_expr(source, where="generate_random_list condition", file=self.spec.path)
            self._lambda_cache[source] = code
        return ev(code, self.env)

    def check_time(self) -> None:
        self.budget.check()  # spec/budget.py: deterministic work, wall clock only as safety net

    def from_config(self, key: str) -> tuple[bool, Any]:
        if self.replay is None or key in self.use_spec_vars or key not in self.replay:
            return False, None
        if self._decoded is None:
            # decoded once as a whole: jsonpickle's py/id back-references span the config
            try:
                self._decoded = decode_config(self.replay)
            except (NotReplayable, RecursionError) as exc:
                raise Rejection(NOT_REPLAYABLE, str(exc)) from None
            if not isinstance(self._decoded, dict):
                raise Rejection(NOT_REPLAYABLE, "the config is not a JSON object")
        return True, self._decoded[key]


def run_attempt(spec: Spec, file_ops: dict[str, Any], rng: random.Random, *,
                config: dict | None = None, use_spec_vars: set[str] | None = None,
                time_budget: float = 20.0, lambda_cache: dict | None = None,
                net_deadline: float | None = None) -> AttemptResult:
    """Run one attempt; raise Rejection / ExprFailure on failure (see ``fresh_z3_context``).

    ``time_budget``: idle-machine seconds of Z3 work (spec/budget.py); ``net_deadline``:
    the wall-clock safety net (``time.monotonic()`` value), past which SafetyNetFired.
    """
    return _run_attempt(spec, file_ops, rng, config=config, use_spec_vars=use_spec_vars,
                        time_budget=time_budget, lambda_cache=lambda_cache, net_deadline=net_deadline)


class installed_z3_context:
    """Install ``ctx`` as Z3's default context for the duration of a block (re-entrant)."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def __enter__(self) -> Any:
        self.previous = z3.z3._main_ctx
        z3.z3._main_ctx = self.ctx
        return self.ctx

    def __exit__(self, *exc: Any) -> None:
        z3.z3._main_ctx = self.previous


class fresh_z3_context(installed_z3_context):
    """A new Z3 context as Z3's default context for the duration of a block."""

    def __init__(self) -> None:
        super().__init__(z3.Context())


class SpecZ3Contexts:
    """The Z3 context a spec's ``generate`` calls run in: one reused per thread, or fresh.

    Why reuse: creating a context costs about as much as a whole small puzzle. Z3's model
    choice depends on the terms a context already holds, so a reused context is only
    allowed because no output depends on which model Z3 returns: enumeration returns the
    complete projected solution set in canonical (sorted) order, an optimal configuration
    is unique or re-derived in a fresh context, and the finite-domain path is exhaustive.
    The exception is ``post_generation``, whose scenario ``_sol`` *is* Z3's first model:
    such specs get a fresh context per call, so their puzzles stay a function of the seed.
    One context per thread because Z3 contexts are not thread-safe. (No allocator
    tuning: library code leaves the process's malloc settings alone.)
    """

    def __init__(self, spec: Spec) -> None:
        self.fresh = spec.post_generation is not None
        self._local = threading.local()

    def use(self) -> installed_z3_context:
        if self.fresh:
            return fresh_z3_context()
        ctx = getattr(self._local, "ctx", None)
        if ctx is None:
            ctx = self._local.ctx = z3.Context()
        return installed_z3_context(ctx)


def _run_attempt(spec: Spec, file_ops: dict[str, Any], rng: random.Random, *,
                 config: dict | None, use_spec_vars: set[str] | None,
                 time_budget: float, lambda_cache: dict | None,
                 net_deadline: float | None = None) -> AttemptResult:
    a = Attempt(spec, file_ops, rng, config, set(use_spec_vars or ()),
                WorkBudget.for_seconds(time_budget, net_deadline),
                lambda_cache if lambda_cache is not None else {})
    try:
        return _attempt_steps(a, spec)
    finally:
        if a.precheck_units is not None:  # the pre-check's trial rule (spec/sampling.py)
            cost = a._lambda_cache.setdefault(PRECHECK_COST_KEY, [0, 0])
            cost[0] += a.precheck_units
            cost[1] += a.budget.used
        # break the env <-> runtime cycles now so the attempt's Z3 terms (and with the
        # last of them the Z3 context) are freed at once, not at the next GC pass
        a.env.clear()
        a.rt.sym_config.clear()
        a.assertions.clear()
        a.sym_consts.clear()
        a.rt = None  # the runtime holds a bound method of the attempt: a cycle


def _attempt_steps(a: "Attempt", spec: Spec) -> AttemptResult:
    a.variables()
    a.symbols()
    a.conditions()
    a.solve()
    details = ask_queries(a) if spec.queries else []
    if not spec.queries:
        a.answers = []
        a.env["queries"] = ""
    problem = problem_text(a)
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
    )
