"""Trusted spec work (``--trust``: Python operator files) in a forked worker the kernel bounds.

Why: a trusted family runs the code of its ``.py`` operator files. Its CPU safety net
(``max_seconds``) is a CPU alarm, which stops Python-level loops only: an operator stuck
in one C call (``sum(range(10**12))``), or one that ignores signals, would hang whatever
called it (``verify --trust``, an audit's config replay). So a family loaded with
``worker=True`` (``SpecFamily.worker``: verify and ``generate --audit`` set it with
``--trust``; the Python API's default stays in process, see there why) runs every
``generate`` and replay capture in a worker forked once per family and process
(core/limitedworker.py): the kernel's RLIMIT_CPU stops it at
the net + ``CPU_GRACE`` CPU seconds, the parent kills it ``_HARD_GRACE`` seconds later if
its code ignores SIGXCPU, and past the wall-clock backstop (``wall_backstop``) if it
waits without using CPU. Each ends as ``SafetyNetFailed`` (exit status 4) naming the
spec, like the sandboxed worker of untrusted specs (spec/sandbox.py).

Why the same bytes as in place: the worker is forked from the process holding the
family, so it has the family's operator modules, caches and Z3 contexts, and keeps them
between calls in order; the caller's ``random.Random`` gets the worker's state back
after every call (also after a failed one). Inside a worker already (the batch runner's
chunk worker, a ``run_limited`` call) the work runs in place.

Not covered: an operator file's import-time code runs when the family is loaded
(``load_spec_family``), in the caller's process, as any Python import does; only the
functions it defines run in the worker.
"""

from __future__ import annotations

import functools
import pickle
import random
import time
from collections.abc import Callable
from typing import Any

from ..core.limitedworker import LimitedWorker
from ..core.limits import LimitExceeded, in_worker
from .oslock import CPU_GRACE
from .runerrors import SAFETY_NET, SafetyNetFailed, require_random, wall_backstop

__all__ = ["trusted_generate", "trusted_capture", "KILL_GRACE"]

#: Seconds past a call's wall-clock backstop before the worker is killed (as spec/sandbox.py).
KILL_GRACE = 3.0
#: How the worker's errors name the call (``_stopped`` rewords them).
_WHAT = "the call"


def _sendable(exc: Exception) -> Exception:
    """``exc`` if it pickles (the worker sends it back), else a RuntimeError saying it."""
    try:
        pickle.dumps(exc)
    except Exception:  # noqa: BLE001 - user code may raise anything
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _generate(
    family: Any, rng: random.Random, params: Any, config: Any, spec_vars: Any, deadline: float
) -> Any:
    return family.generate_in_process(
        params, rng, config=config, use_spec_vars=spec_vars, deadline=deadline
    )


def _call(family: Any, fn: Callable[..., Any], args: tuple, state: Any) -> tuple[str, Any, Any]:
    """One call inside the worker: ``("ok", result, rng state)`` or ``("err", exc, state)``.
    ``fn(family, rng, *args)`` with a random state, else ``fn(family, *args)``."""
    rng = None
    if state is not None:
        rng = random.Random()
        rng.setstate(state)
    try:
        result = fn(family, *args) if rng is None else fn(family, rng, *args)
    except Exception as exc:  # noqa: BLE001 - re-raised in the caller
        return ("err", _sendable(exc), None if rng is None else rng.getstate())
    return ("ok", result, None if rng is None else rng.getstate())


def _worker(family: Any) -> LimitedWorker:
    """The family's worker (forked on its first call, replaced after one is stopped)."""
    worker = family.__dict__.get("_trusted_worker")
    if worker is None:
        worker = family._trusted_worker = LimitedWorker(functools.partial(_call, family))
    return worker


def _run(
    family: Any,
    fn: Callable[..., Any],
    args: tuple,
    rng: random.Random | None,
    cpu: float,
    wall: float,
) -> Any:
    """``fn`` in the family's worker within ``cpu`` CPU seconds (wall: the backstop, s)."""
    state = rng.getstate() if rng is not None else None
    if in_worker():
        kind, value, state = _call(family, fn, args, state)
    else:
        kind, value, state = _worker(family).call(
            fn,
            args,
            state,
            cpu_seconds=cpu,
            what=_WHAT,
            wall_deadline=time.monotonic() + wall + KILL_GRACE,
        )
    if rng is not None:
        rng.setstate(state)
    if kind == "err":
        raise value
    return value


def _stopped(family: Any, exc: LimitExceeded, net: str) -> SafetyNetFailed:
    """The error of a worker stopped at its limit: the net, or the wall-clock backstop
    (the spec is the error's file)."""
    if "wall-clock backstop" in exc.problem:
        how = "was still busy past its wall-clock backstop, waiting on something without CPU"
    elif "was stopped at its limit" in exc.problem:
        how = (
            f"was stopped {CPU_GRACE:g} CPU seconds past its safety net ({net}), in work "
            "that nothing inside it could interrupt (a C call, or code that ignores signals)"
        )
    else:  # ended by a signal (memory) or without a result: said as such
        how = exc.problem.removeprefix(_WHAT + " ")
    return SafetyNetFailed(
        f"the spec's trusted worker (--trust) {how}; it was killed and no result is given",
        attempts=0,
        reasons={SAFETY_NET: 1},
        file=family.path,
    )


def trusted_generate(
    family: Any,
    params: Any,
    rng: random.Random,
    *,
    config: dict | None,
    use_spec_vars: tuple[str, ...],
    deadline: float,
) -> Any:
    """``family.generate_in_process`` in the family's worker; ``rng`` advances as in place."""
    require_random(rng, family.path, "trusted")
    net = float(params.max_seconds)
    try:
        return _run(
            family,
            _generate,
            (params, config, tuple(use_spec_vars), deadline),
            rng,
            net + CPU_GRACE,
            max(0.0, deadline - time.monotonic()),
        )
    except LimitExceeded as exc:
        raise _stopped(family, exc, f"max_seconds = {net:g} s of CPU per puzzle") from None


def trusted_capture(
    family: Any,
    capture: Callable[..., Any],
    config: dict,
    answer: str,
    params: dict,
    seconds: float,
) -> Any:
    """``capture(family, config, answer, params)`` (spec/auditcapture.py's
    ``capture_config``, passed in: that module calls this one) in the family's worker,
    within ``seconds`` CPU seconds (+ ``CPU_GRACE``): reaching it raises
    ``SafetyNetFailed`` (exit status 4), never a verdict on the record."""
    try:
        return _run(
            family,
            capture,
            (config, answer, params),
            None,
            seconds + CPU_GRACE,
            wall_backstop(seconds),
        )
    except LimitExceeded as exc:
        raise _stopped(family, exc, f"{seconds:g} CPU seconds for the audit's replay") from None
