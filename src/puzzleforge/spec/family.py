"""A spec file as a puzzleforge Family: load once, generate verified puzzles, score answers.

Why a family per file: the batch runner, the CLI and the web app only know the Family
protocol; a spec is rebuilt cheaply from its path in every worker process (the object
pickles as ``load_spec_family(path, trust)``). Generation retries rejected attempts with
fresh randomness up to ``Params.attempts`` and reports rejections by reason; an
expression that fails on every attempt is a spec error with its field and YAML line.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.alarm import cpu_alarm
from ..core.difficulty import DifficultyScale, apply_scale
from ..core.errors import ConfigError
from ..core.family import params_to_dict
from ..core.limits import is_limit
from ..core.puzzle import Puzzle
from .answers import question_with_format
from .answers import score_answer as _score_by_format
from .attempt import ExprFailure, Rejection, SpecZ3Contexts, run_attempt
from .budget import FreshContextNeeded, SafetyNetFired
from .operatorfiles import load_file_operators
from .runerrors import (
    SAFETY_NET,
    UNDECIDED_LIMIT,
    WALL_BACKSTOP,
    SafetyNetFailed,
    SpecExpressionError,
    UndecidedSpec,
    raise_generation_failure,
    stop_if_undecided,
    wall_backstop,
)
from .schema import Spec, load_spec
from .z3space import Z3Space

__all__ = [
    "load_spec_family",
    "SpecFamily",
    "SpecParams",
    "SafetyNetFailed",
    "UndecidedSpec",
    "SpecExpressionError",
    "SAFETY_NET",
    "WALL_BACKSTOP",
    "wall_backstop",
    "score_answer",
    "DIFFICULTY_DOC",
    "UNDECIDED_LIMIT",
    "stop_if_undecided",
]

#: Wall-clock safety net of an audit's config replay (a check, not generation).
AUDIT_NET_SECONDS = 3600.0
#: Attempts that must all fail with an expression error before it counts as a spec
#: error (the run stops). Not fewer: 50-card3's post-generation expression fails on
#: about half its attempts by the luck of the draw (an IndexError on an empty list), so
#: five in a row (the earlier rule) stopped 3% of its items, nearly every 200-puzzle run.
SPEC_ERROR_ATTEMPTS = 20

DIFFICULTY_DOC = (
    "Mean of four scales in [0, 1], rounded to 3 places: the diff_factor-weighted position "
    "of each variable in its domain (1 - position for a negative factor; 0.5 when no "
    "variable has a diff_factor), cond_num/(cond_num+20), sym_num/(sym_num+20) and "
    "len(problem)/(len(problem)+500). That mean is meta.rating; its quarters are the tiers."
)
#: The PuzzleClone difficulty is already in [0, 1]: its quarters are the four tiers.
SPEC_SCALE = DifficultyScale((0.0, 0.25, 0.5, 0.75, 1.0), "PuzzleClone difficulty")


@dataclass(frozen=True)
class SpecParams:
    """Generation settings of a spec family (the spec itself fixes the puzzle's meaning)."""

    attempts: int = 2000
    #: Z3 work per attempt, in idle-machine seconds: a deterministic budget of Z3 resource
    #: units (spec/budget.py), so which attempts succeed does not depend on machine load.
    attempt_seconds: float = 15.0
    #: CPU safety net per puzzle (CPU seconds of the process doing the work: the sandboxed
    #: worker, or this one with --trust): when it fires, generation stops with
    #: SafetyNetFailed, exit status 4 (never a quietly different puzzle).
    max_seconds: float = 120.0

    def validate(self) -> None:
        problems = []
        if self.attempts < 1:
            problems.append("attempts must be >= 1")
        if self.attempt_seconds <= 0:
            problems.append("attempt_seconds must be > 0")
        if self.max_seconds <= 0:
            problems.append("max_seconds must be > 0")
        if problems:
            raise ConfigError("; ".join(problems))


def _without_traceback(exc: ExprFailure) -> ExprFailure:
    """``exc`` with the tracebacks of it and of the exceptions chained to it dropped.

    Why: a failure is kept only for its field, type and message (the run's report), but
    its tracebacks hold the attempt's frames, whose ``f_back`` leads to the retry loop
    that keeps it: a reference cycle that held the attempt's Z3 context (~17 MB) until a
    GC pass, alive next to the contexts made after it.
    """
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = None
        todo += [e.__cause__, e.__context__, getattr(e, "exc", None)]
    return exc


def _net_fired() -> None:
    raise SafetyNetFired()


def _difficulty(result: dict, problem: str) -> float:
    pos = result.get("var_pos") or {}
    weight = sum(abs(f) for _, f in pos.values())
    if weight:
        vars_scale = sum(abs(f) * (p if f > 0 else 1 - p) for p, f in pos.values()) / weight
    else:
        vars_scale = 0.5
    c, s, n = result["cond_num"], result["sym_num"], len(problem)
    return round((vars_scale + c / (c + 20) + s / (s + 20) + n / (n + 500)) / 4, 3)


def _portable_source(path: str) -> str:
    """``path`` relative to the working directory (absolute only across drives)."""
    resolved = Path(path).resolve()
    try:
        return os.path.relpath(resolved, Path.cwd())
    except ValueError:  # another drive (Windows)
        return str(resolved)


class SpecFamily:
    """The Family of one spec file."""

    Params = SpecParams
    difficulty_doc = DIFFICULTY_DOC
    #: ``generate`` retries rejected attempts itself (``Params.attempts``, one wall-clock
    #: net per puzzle), so a batch never retries an item with another seed: a record's
    #: seed is always its item's, and its id never depends on a retry count.
    retries_itself = True

    def __init__(
        self,
        path: str | Path,
        trust: bool = False,
        *,
        spec: Spec | None = None,
        worker: bool = False,
    ) -> None:
        self.path = str(path)
        self.trust = trust
        #: A trusted family's ``generate`` and audit replay run in a forked worker the
        #: kernel bounds (spec/trusted.py) when set; ``verify --trust`` and ``generate
        #: --audit --trust`` set it. Off by default, so the Python API runs trusted work
        #: in this process, where benches measure its CPU time and peak memory, tests
        #: read its caches and a debugger steps into operator files; there a CPU alarm
        #: stops Python-level loops, and work stuck in C runs until the caller stops it
        #: (the batch runner runs it in a bounded worker of its own, batch/worker.py).
        self.worker = bool(worker)
        # ``spec``: already parsed (the sandbox worker parses the text the parent sent)
        self.spec = spec if spec is not None else load_spec(self.path)
        self.file_ops = load_file_operators(self.spec, trust)
        self.name = "spec:" + Path(self.path).stem
        # meta.source: relative to the working directory, so a dataset stays valid when the
        # checkout moves (resolved once: ~0.1 ms per puzzle)
        self._source = _portable_source(self.path)
        self.summary = f"PuzzleClone spec {self.path}"
        self._lambda_cache: dict = {}
        self._z3 = SpecZ3Contexts(self.spec, self._lambda_cache)

    def __reduce__(self):
        return (_rebuild, (self.path, self.trust, self.worker))

    # ---- generation ------------------------------------------------------------------
    def generate(
        self,
        params: SpecParams | None = None,
        rng: random.Random | None = None,
        *,
        config: dict | None = None,
        use_spec_vars: tuple[str, ...] = (),
        deadline: float | None = None,
    ) -> Puzzle:
        """One verified puzzle. Its safety net is ``params.max_seconds`` of CPU time (of the
        process doing the work). ``deadline`` (a ``time.monotonic()`` value) is the
        wall-clock backstop for work waiting without CPU when the caller owns one;
        otherwise ``wall_backstop(max_seconds)`` from now.

        Without ``trust`` the whole call runs in a locked-down worker process
        (spec/sandbox.py); with it, in this process, or with ``worker`` in a forked worker
        whose CPU the kernel bounds (spec/trusted.py: operator files may loop in C, where
        the CPU alarm never runs). Every way gives the same result byte for byte, and
        ``rng`` advances as in place.
        """
        params = params or SpecParams()
        if rng is None:
            raise ConfigError("generate needs an explicit random.Random")
        if deadline is None:
            deadline = time.monotonic() + wall_backstop(params.max_seconds)
        if not self.trust:
            from .sandbox import sandboxed_generate

            return sandboxed_generate(
                self,
                params,
                rng,
                config=config,
                use_spec_vars=tuple(use_spec_vars),
                deadline=deadline,
            )
        if not self.worker:
            return self.generate_in_process(
                params, rng, config=config, use_spec_vars=use_spec_vars, deadline=deadline
            )
        from .trusted import trusted_generate

        return trusted_generate(
            self,
            params,
            rng,
            config=config,
            use_spec_vars=tuple(use_spec_vars),
            deadline=deadline,
        )

    @property
    def trusted_code(self) -> bool:
        """True when ``generate`` runs code of the spec's ``.py`` operator files (``--trust``).

        The batch runner runs such a family's attempts in a forked worker the kernel
        bounds (batch/worker.py); a trusted spec without operator files runs only the
        engine, whose Z3 and SAT work the budgets bound and whose Python loops the CPU
        net stops, so it generates in the runner's process: a second process cost
        ~10-15 MB of peak memory (docs/spec.md, "Peak memory against the reference")."""
        return bool(self.file_ops)

    @property
    def sandboxed(self) -> bool:
        """True when ``generate`` runs in the locked-down worker (spec/sandbox.py), which
        enforces the CPU net in the kernel; a trusted family runs in the caller's process
        (or in its own worker, which runs calls in place inside another worker), and the
        batch runner then runs it in a worker of its own (batch/worker.py)."""
        return not self.trust

    def generate_in_process(
        self,
        params: SpecParams,
        rng: random.Random,
        *,
        config: dict | None = None,
        use_spec_vars: tuple[str, ...] = (),
        deadline: float,
    ) -> Puzzle:
        """``generate`` in this process (the sandbox worker and the trusted worker).

        A call in the family's shared Z3 context that meets an attempt whose checks the
        budget decides is made again from its start in a fresh context
        (``FreshContextNeeded``, spec/budget.py): the same puzzle as any later call's.
        """
        state = rng.getstate()
        try:
            return self._generate(params, rng, config, use_spec_vars, deadline, self._z3.use())
        except FreshContextNeeded:
            rng.setstate(state)
        return self._generate(params, rng, config, use_spec_vars, deadline, self._z3.use())

    def _generate(
        self,
        params: SpecParams,
        rng: random.Random,
        config: dict | None,
        use_spec_vars: tuple[str, ...],
        deadline: float,
        z3s: Z3Space,
    ) -> Puzzle:
        reasons: Counter = Counter()
        failures: dict[str, ExprFailure] = {}
        attempts = 0
        replay_detail = ""
        cpu_end = time.process_time() + params.max_seconds  # the CPU safety net
        for attempt in range(params.attempts):
            attempts += 1
            sub = random.Random(rng.getrandbits(64))
            try:
                if time.process_time() > cpu_end or time.monotonic() > deadline:
                    raise SafetyNetFired()
                # pure-Python runaway work (operators, selections) is not counted by the
                # Z3 work budget: the CPU net stops it loudly (core/alarm.py keeps a
                # caller's timer); Z3's own timeouts follow the wall-clock backstop
                with cpu_alarm(max(0.001, cpu_end - time.process_time()) + 1.0, _net_fired):
                    result = run_attempt(
                        self.spec,
                        self.file_ops,
                        sub,
                        config=config,
                        use_spec_vars=set(use_spec_vars),
                        time_budget=params.attempt_seconds,
                        lambda_cache=self._lambda_cache,
                        net_deadline=deadline,
                        z3s=z3s,
                    )
            except SafetyNetFired:
                reasons[SAFETY_NET] += 1
                raise SafetyNetFailed(
                    f"spec {self.path}: the safety net (max_seconds = "
                    f"{params.max_seconds:g} s of CPU per puzzle) fired in attempt {attempts}; "
                    f"no puzzle is given, because which one came out next would depend on the "
                    f"machine's speed. Raise --max-seconds.",
                    attempts=attempts,
                    reasons=dict(reasons),
                    file=self.path,
                ) from None
            except Rejection as exc:
                reasons[exc.reason] += 1
                if config is not None and not use_spec_vars:
                    replay_detail = str(exc)  # why this config gives no puzzle
                    break
                stop_if_undecided(reasons, self.path, attempts)
                continue
            except ExprFailure as exc:
                key = f"error in {exc.code.where}"
                reasons[key] += 1
                # kept without tracebacks: their frames (and this one, through f_back) would
                # make a reference cycle that holds the attempt's Z3 context until a GC pass
                failures.setdefault(key, _without_traceback(exc))
                if config is not None and not use_spec_vars:
                    break
                if attempt >= SPEC_ERROR_ATTEMPTS - 1 and sum(reasons.values()) == sum(
                    reasons[k] for k in failures
                ):
                    break  # the same spec error every time: report it instead of retrying
                continue
            except RecursionError:
                reasons["recursion limit"] += 1
                continue
            return apply_scale(self._puzzle(params, result, attempts, reasons), SPEC_SCALE)
        raise_generation_failure(
            self.path, attempts, reasons, failures, replay=config is not None, detail=replay_detail
        )
        raise AssertionError("unreachable")

    def _puzzle(self, params: SpecParams, result: dict, attempts: int, reasons: Counter) -> Puzzle:
        problem = result["problem"]
        difficulty = _difficulty(result, problem)
        parameters = {
            "cond_num": result["cond_num"],
            "sym_num": result["sym_num"],
            "sym_type": result["sym_type"],
            "difficulty": difficulty,
        }
        return Puzzle(
            family=self.name,
            question=question_with_format(problem, result["details"]),  # + the answer format
            answer=result["answer"],
            solution={
                "answers": result["answers"],
                "queries": result["details"],
                "solution_count": result["solutions"],
            },
            difficulty=difficulty,
            params=params_to_dict(params),
            seed=0,
            config=result["config"],
            meta={
                "source": self._source,
                "source_sha256": self.spec.digest,
                "engine": "spec",
                "attempts": attempts,
                "rejections": dict(reasons),
            },
            extra={"problem": problem, "parameters": parameters},
        )

    # ---- scoring ---------------------------------------------------------------------
    def verify(self, puzzle: Puzzle, answer: str) -> float:
        try:  # the query's answer format; records made before formats give the query kind
            kinds = [
                q.get("format") or q.get("kind", "open")
                for q in (puzzle.solution or {}).get("queries", [])
            ]
        except AttributeError:
            kinds = []
        return score_answer(str(puzzle.answer), answer, kinds)

    def audit_uniqueness(self, puzzle: Puzzle, seconds: float = 60.0) -> Any:
        """Re-prove the puzzle's uniqueness with a fresh solver bounded by ``seconds``
        (spec/audit.py): an ``AuditOutcome`` whose status is pass, ambiguous, wrong,
        undecided or error."""
        from .audit import audit_puzzle

        return audit_puzzle(self, puzzle, seconds)

    def audit(self, puzzle: Puzzle) -> list[str]:
        """Replay the puzzle from its config and compare problem and answer."""
        try:
            # the replay spends the same Z3 work units whatever the load; its wall-clock
            # safety net is generous so that a loaded machine does not fail the audit
            again = self.generate(
                SpecParams(attempts=1),
                random.Random(0),
                config=puzzle.config,
                deadline=time.monotonic() + AUDIT_NET_SECONDS,
            )
        except Exception as exc:  # noqa: BLE001 - an audit reports, never raises...
            if is_limit(exc):
                raise  # ...except a limit: a finding would make the outcome depend on seconds
            return [f"config replay failed: {exc}"]
        problems = []
        # records made before the answer-format sentence hold the bare problem text
        if puzzle.question not in (again.question, again.extra.get("problem")):
            problems.append("config replay gives a different problem text")
        if again.answer != puzzle.answer:
            problems.append(
                f"config replay gives answer {again.answer!r}, stored {puzzle.answer!r}"
            )
        return problems


def score_answer(expected: str, given: Any, kinds: list[str] | None = None) -> float:
    """Score ``given`` against the canonical answer; ``kinds`` holds each query's answer
    format (spec/answers.py) or, for records made before formats, its kind.

    >>> score_answer("B", " b ")
    1.0
    >>> score_answer("AC", "A, C", ["multiple_choice"])
    1.0
    >>> score_answer("12.50", "12.5")
    1.0
    """
    return _score_by_format(expected, given, kinds)


def load_spec_family(path: str | Path, trust: bool = False, **options: Any) -> SpecFamily:
    """The Family defined by a PuzzleClone spec file (registry PATH_LOADERS target).

    ``trust`` (Python operator files) comes only from the caller: ``--trust`` on the
    command line or the Python API. Nothing in the environment grants it, and families
    rebuilt from dataset records (registry.family_for_record) have it only when the
    person verifying passes it (``verify --trust``). ``worker=True``: trusted work runs
    in a forked worker the kernel bounds (``SpecFamily.worker``); other options are
    ignored (they belong to other loaders).
    """
    return SpecFamily(path, trust=bool(trust), worker=bool(options.get("worker")))


def _rebuild(path: str, trust: bool, worker: bool) -> SpecFamily:
    """Unpickle a family (``SpecFamily.__reduce__``): rebuilt from its file."""
    return SpecFamily(path, trust=trust, worker=worker)
