"""One generation attempt of a spec: plain state flowing through the pipeline's stages.

::

    spec (schema.py: loaded, validated, compiled once per family)
      |
      v
    Attempt (this module: the state of one attempt, a dataclass)
      |  1. sample_variables      sampling.py   variables (drawn, computed or replayed)
      |  2. sample_symbols        sampling.py   symbols -> Z3 constants, derived symbols
      |  3. build_conditions      conditions.py one constraint model: term model
      |                                         (columnmode.py) or Z3 model (model.py)
      |  4. solve                 solving.py    backends.py: one ordered list per question
      |                                         (finite, exact LP, Z3 logics) decides it
      |  5. ask_queries           questions.py  answers and options from the solutions
      v
    AttemptResult -> family.py (the record: Puzzle)

Why an interpreter over the compiled spec (and not generated Python source like the
original): every expression was compiled once by the whitelisting compiler when the spec
was loaded; an attempt only evaluates them in a fresh namespace, with one Z3 solver per
attempt, enumeration blocked on the symbols' constants, and every random draw from the
attempt's ``random.Random``. A failure of the random parameters (no solution, too many,
an assertion that does not hold, an impossible selection) is a ``Rejection`` with a
reason; an expression that raises is an ``ExprFailure`` naming its field and YAML line.
``Rejection``/``ExprFailure``/``ev`` are defined in ``outcome.py`` (no import cycle) and
re-exported here.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Any

from .budget import BUDGET_DECIDES_KEY, WorkBudget
from .columnmode import assertion_count as _assertion_count
from .conditions import build_conditions
from .configcodec import NOT_REPLAYABLE, NotReplayable, decode_config, decode_value, encode_value
from .model import PRECHECK_COST_KEY
from .model import add_assertion as _add_assertion
from .operators import Runtime
from .outcome import ExprFailure, Rejection, ev
from .questions import ask_queries, problem_text
from .safe import compile_expr
from .sampling import sample_symbols, sample_variables
from .schema import Spec
from .solving import solve
from .z3space import Z3Space

__all__ = [
    "Attempt",
    "run_attempt",
    "run_stages",
    "SpecZ3Contexts",
    "Rejection",
    "ExprFailure",
    "AttemptResult",
    "ev",
    "encode_value",
    "decode_value",
]


class AttemptResult(dict):
    """problem, answer, parameters, config, solution, answers (list per query)."""


@dataclass(eq=False)
class Attempt:
    """The state of one attempt; the stages (module functions) read and extend it.

    The first eight fields are the inputs; the rest is what the stages build.
    """

    spec: Spec
    file_ops: dict[str, Any]
    rng: random.Random
    #: the config being replayed (None when generating)
    replay: dict | None
    #: variables taken from the spec, not from the replayed config
    use_spec_vars: set[str]
    budget: WorkBudget
    #: the family's per-spec cache: compiled lambdas, trial statistics of the speed paths
    cache: dict
    #: the Z3 context every term and solver of the attempt is made in (spec/z3space.py)
    z3s: Z3Space
    env: dict[str, Any] = field(default_factory=dict)
    rt: Any = None
    config: dict[str, Any] = field(default_factory=dict)
    #: the Z3 model (spec/model.py); empty while the term model holds the conditions
    assertions: list = field(default_factory=list)
    #: the term model (spec/columnmode.py ``_State``), None outside it
    col: Any = None
    cond_text: str = ""
    cond_num: int = 0
    var_pos: dict[str, tuple[float, float]] = field(default_factory=dict)
    sym_consts: list = field(default_factory=list)
    z3_seed: int = 0
    answers: list = field(default_factory=list)
    #: spec/audit.py sets a dict here: the attempt then solves on the Z3 paths only and
    #: records the problem it decided (assertions, projection, objective) in it
    capture: dict | None = None
    #: work units of this attempt's passed pre-check (spec/model.py), if one ran
    precheck_units: int | None = None
    #: the replayed config as Python values (configcodec), decoded on first use
    decoded: Any = None
    #: (assertion list, its length, spec/finite.py's walk of it or None): the pre-check's
    #: finite walk (spec/model.py), reused by the solving stage's projection
    finite_walk: tuple | None = None
    #: an Int constant a rotation-invariant term model may fix to 0 (spec/rotation.py)
    sym_fix: Any = None

    def __post_init__(self) -> None:
        if not self.env:
            self.env = self.z3s.base_env()
        self.rt = Runtime(self.rng, self.env, self._compile_lambda)
        self.env.update(self.rt.table())
        self.env["conditions"] = ""
        self.env["queries"] = ""

    def _compile_lambda(self, source: str) -> Any:
        code = self.cache.get(source)
        if code is None:
            code = compile_expr(source, where="generate_random_list condition", file=self.spec.path)
            self.cache[source] = code
        return ev(code, self.env)

    def check_time(self) -> None:
        """Reject when the work budget is used up (spec/budget.py; the clock is only a
        safety net)."""
        self.budget.check()

    def from_config(self, key: str) -> tuple[bool, Any]:
        """(True, value) when ``key`` is replayed from the config, else (False, None)."""
        if self.replay is None or key in self.use_spec_vars or key not in self.replay:
            return False, None
        if self.decoded is None:
            # decoded once as a whole: jsonpickle's py/id back-references span the config
            try:
                self.decoded = decode_config(self.replay)
            except (NotReplayable, RecursionError) as exc:
                raise Rejection(NOT_REPLAYABLE, str(exc)) from None
            if not isinstance(self.decoded, dict):
                raise Rejection(NOT_REPLAYABLE, "the config is not a JSON object")
        return True, self.decoded[key]

    # the two model operations post-generation needs (spec/solving.py)
    def add_assertion(self, value: Any, code: Any) -> None:
        _add_assertion(self, value, code)

    def assertion_count(self) -> int:
        return _assertion_count(self)


def run_attempt(
    spec: Spec,
    file_ops: dict[str, Any],
    rng: random.Random,
    *,
    config: dict | None = None,
    use_spec_vars: set[str] | None = None,
    time_budget: float = 20.0,
    lambda_cache: dict | None = None,
    net_deadline: float | None = None,
    z3s: Z3Space | None = None,
) -> AttemptResult:
    """Run one attempt; raise Rejection / ExprFailure on failure.

    ``time_budget``: idle-machine seconds of Z3 work (spec/budget.py); ``net_deadline``:
    the wall-clock safety net (``time.monotonic()`` value), past which SafetyNetFired;
    ``z3s``: the Z3 context to work in (the family's, ``SpecZ3Contexts``; a new one if
    None).
    """
    return _run_attempt(
        spec,
        file_ops,
        rng,
        config=config,
        use_spec_vars=use_spec_vars,
        time_budget=time_budget,
        lambda_cache=lambda_cache,
        net_deadline=net_deadline,
        z3s=z3s if z3s is not None else Z3Space(),
    )


class SpecZ3Contexts:
    """The Z3 space (context) a spec's ``generate`` calls run in: one reused per thread, or fresh.

    Why reuse: creating a context costs about as much as a whole small puzzle. Z3's model
    choice depends on the terms a context already holds, so a reused context is only
    allowed because no output depends on which model Z3 returns: enumeration returns the
    complete projected solution set in canonical (sorted) order, an optimal configuration
    is unique or re-derived in a fresh context, and the finite-domain path is exhaustive.
    The exceptions get a fresh context per call, so their puzzles stay a function of the
    seed: ``post_generation``, whose scenario ``_sol`` *is* Z3's first model, and specs
    whose checks the work budget decides (nonlinear arithmetic, capped per check: where a
    check stops depends on the units it spends, which depend on the terms the context
    holds). The latter is known once an attempt solved such a problem (``budget_decides``,
    set in the family's cache); the call that finds it out in the shared context starts
    over in a fresh one (spec/budget.py ``FreshContextNeeded``), and the shared context is
    freed. The shared context also hosts the pre-check (spec/model.py): one context, not
    two (~17 MB of RSS each).
    One context per thread because Z3 contexts are not thread-safe. (No allocator
    tuning: library code leaves the process's malloc settings alone.)
    """

    def __init__(self, spec: Spec, cache: dict | None = None) -> None:
        self.fresh = spec.post_generation is not None
        #: the family's per-spec cache (``BUDGET_DECIDES_KEY`` is read from it)
        self.cache = cache if cache is not None else {}
        self._local = threading.local()

    def use(self) -> Z3Space:
        """The space of one ``generate`` call (explicit: z3's main context is left alone)."""
        if self.fresh or self.cache.get(BUDGET_DECIDES_KEY):
            self._local.space = None  # the shared context is not used again: freed
            return Z3Space()
        space = getattr(self._local, "space", None)
        if space is None:
            space = self._local.space = Z3Space(shared=True)
        return space


def _run_attempt(
    spec: Spec,
    file_ops: dict[str, Any],
    rng: random.Random,
    *,
    config: dict | None,
    use_spec_vars: set[str] | None,
    time_budget: float,
    lambda_cache: dict | None,
    net_deadline: float | None = None,
    z3s: Z3Space,
) -> AttemptResult:
    a = Attempt(
        spec,
        file_ops,
        rng,
        config,
        set(use_spec_vars or ()),
        WorkBudget.for_seconds(time_budget, net_deadline),
        lambda_cache if lambda_cache is not None else {},
        z3s,
    )
    try:
        return run_stages(a)
    finally:
        if a.precheck_units is not None:  # the pre-check's trial rule (spec/model.py)
            cost = a.cache.setdefault(PRECHECK_COST_KEY, [0, 0])
            cost[0] += a.precheck_units
            cost[1] += a.budget.used
        # break the env <-> runtime cycles now so the attempt's Z3 terms (and with the
        # last of them the Z3 context) are freed at once, not at the next GC pass
        a.env.clear()
        a.rt.sym_config.clear()
        a.assertions.clear()
        a.sym_consts.clear()
        a.col = None
        a.rt = None  # the runtime holds a bound method of the attempt: a cycle


def run_stages(a: Attempt) -> AttemptResult:
    """The pipeline: sample -> model -> solve -> questions -> the result record."""
    spec = a.spec
    sample_variables(a)
    sample_symbols(a)
    build_conditions(a)
    solve(a)
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


def _attempt_steps(a: Attempt, spec: Spec) -> AttemptResult:
    """``run_stages`` under its former name (spec/audit.py calls it)."""
    return run_stages(a)
