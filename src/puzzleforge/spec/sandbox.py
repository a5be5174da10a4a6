"""Untrusted spec generation in a locked-down worker process (the parent side).

Why a process when the evaluator already allows only listed names (spec/safe.py): that
is one wall; if it ever has a hole, a hostile spec (or a dataset record whose
``meta.source`` names one, re-run by ``puzzleforge verify``) would run with everything
this process may do. So without ``--trust`` a spec family's whole ``generate`` call
(sampling, formulas, solving, templates) runs in a worker that cannot write files, start
processes, open sockets, signal other processes or see the environment
(spec/oslock.py, spec/sandbox_worker.py), and this process writes the output.

Design:

* One persistent worker per thread (Z3 contexts are per thread anyway), started on first
  use as ``python -I -B`` with an empty environment, reused for every later call: no
  fork per attempt. It dies with its thread, at exit, with the parent (PR_SET_PDEATHSIG)
  and when its pipe closes; a forked child (process pools) forgets its parent's workers.
* A call sends the spec's text, the settings and the random generator's state, and gets
  back the puzzle as plain data plus the generator's state after the call, so the
  caller's ``rng`` continues exactly as in process: the same seed gives byte-identical
  records sandboxed or not.
* Each call has a hard deadline in CPU time (the one limit model, docs/limits.md): the
  worker sets its RLIMIT_CPU to the safety net (``max_seconds`` of CPU) plus
  ``CPU_GRACE``, so a C-level loop that no signal inside it interrupts
  (``sum(iter(int, 1))``) gets it killed by the kernel and ``SafetyNetFailed`` (exit 4)
  naming the spec; the next call starts a new worker. The parent's wall-clock wait
  (``WALL_BACKSTOP`` x the net plus ``KILL_GRACE``) is only a backstop for a worker
  that waits without using CPU.
* Replies are unpickled as plain data (and a few value types): a hostile worker cannot
  make the parent run code. The process handling (start, pipes, deadlines, reaping) is
  spec/sandbox_process.py; this module decides what a call sends and what its reply means.
* Fail closed: when the lock-down cannot be applied, ``SandboxFailed`` says so; nothing
  runs unsandboxed unless the caller passed ``--trust``.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict
from typing import Any

from ..core.errors import GenerationFailed, PuzzleForgeError
from ..core.puzzle import Puzzle
from . import sandbox_process
from .oslock import CPU_GRACE
from .runerrors import (
    SAFETY_NET,
    SafetyNetFailed,
    SpecExpressionError,
    UndecidedSpec,
    require_random,
    wall_backstop,
)
from .sandbox_process import (
    SandboxFailed,
    SpecWorkerDied,
    Worker,
    WorkerCpuLimit,
    WorkerDead,
    WorkerTimeout,
    live_worker_pids,
    shutdown_workers,
    thread_worker,
    worker_info,
)

__all__ = [
    "SandboxFailed",
    "SpecWorkerDied",
    "sandboxed_generate",
    "sandboxed_capture",
    "worker_info",
    "live_worker_pids",
    "shutdown_workers",
    "KILL_GRACE",
    "CPU_GRACE",
]

#: Seconds past a call's wall-clock backstop before the parent kills the worker (the
#: worker's own CPU alarm and RLIMIT_CPU stop work that uses CPU long before).
KILL_GRACE = 3.0
#: CPU_GRACE (spec/oslock.py): CPU seconds past a call's safety net before the kernel
#: stops the worker (RLIMIT_CPU, set by the worker for each call); its own CPU alarm
#: stops Python-level loops at the net + 1 s with a clean error first.


def _spec_text(family: Any) -> tuple[tuple[str, str], str]:
    """The spec's text and its key (path + digest), read once per family."""
    cached = family.__dict__.get("_sandbox_text")
    if cached is None:
        from ..core.digests import blake2b
        from ..core.yamlio import read_yaml_text

        text = read_yaml_text(family.path, what="spec", require_suffix=False)
        key = (family.path, blake2b(text.encode("utf-8"), digest_size=16).hexdigest())
        cached = family._sandbox_text = (key, text)
    return cached


#: Builtin errors a worker's call may end with that the caller handles as in process.
_SHAPE_ERRORS: dict[str, type[Exception]] = {
    e.__name__: e for e in (KeyError, IndexError, TypeError, ValueError, AttributeError)
}


def _rebuild_error(data: Any, family: Any) -> Exception:
    """A worker's error as this process's exception (class from a fixed table: ours, or
    one of the builtin shape errors a malformed config raises in process too)."""
    from ..core import errors

    if not isinstance(data, dict):
        return SpecWorkerDied(f"spec {family.path}: the worker sent an unreadable error")
    table = {name: getattr(errors, name) for name in errors.__all__}
    table["SafetyNetFailed"] = SafetyNetFailed
    table["UndecidedSpec"] = UndecidedSpec
    table["SpecExpressionError"] = SpecExpressionError
    cls = table.get(str(data.get("type")))
    text = lambda k: None if data.get(k) is None else str(data.get(k))  # noqa: E731
    line = data.get("line") if isinstance(data.get("line"), int) else None
    if cls is None and data.get("type") in _SHAPE_ERRORS:
        # a config value of the wrong shape fails the same way as in process (spec
        # generate --config reports it as a malformed config, not as our bug)
        name = str(data.get("type"))
        problem = (text("problem") or "").removeprefix(f"{name}: ")
        return _SHAPE_ERRORS[name](problem)
    if cls is None:
        return SpecWorkerDied(
            f"spec {family.path}: internal error in the spec worker: {text('problem')}",
            file=family.path,
        )
    problem, file, field = text("problem") or "", text("file"), text("field")
    expected, hint = text("expected"), text("hint")
    if issubclass(cls, GenerationFailed):
        reasons = data.get("reasons") if isinstance(data.get("reasons"), dict) else {}
        attempts = data.get("attempts") if isinstance(data.get("attempts"), int) else 0
        failed = cls(
            problem,
            attempts=attempts,
            reasons=reasons,
            file=file,
            field=field,
            line=line,
            expected=expected,
            hint=hint,
        )
        if isinstance(data.get("detail"), str):
            failed.detail = data["detail"]  # why a config replay was rejected, in words
        return failed
    try:
        return cls(problem, file=file, field=field, line=line, expected=expected, hint=hint)
    except TypeError:
        return PuzzleForgeError(
            problem, file=file, field=field, line=line, expected=expected, hint=hint
        )


def _call_for_spec(
    w: Worker, family: Any, request: dict, deadline: float, cpu_seconds: float | None = None
) -> dict:
    """Send ``request`` about ``family``'s spec: its text goes once per worker (specs
    reach 4 MB), again when the worker dropped it from its cache. ``request["seconds"]``
    is the time left to ``deadline``; the worker is waited for until the deadline plus
    ``KILL_GRACE`` + 1 s, and stopped (``WorkerCpuLimit``) once it used ``cpu_seconds``
    of CPU on the call."""
    key, text = _spec_text(family)
    request.update(key=key, path=family.path, root=str(family.spec.root))
    for _ in range(2):
        if key not in w.known:
            request["text"] = text
        request["seconds"] = max(0.001, deadline - time.monotonic())
        reply = w.call(request, deadline + 1.0 + KILL_GRACE, cpu_seconds)
        w.known.add(key)
        if not reply.get("need_text"):
            return reply
        w.known.discard(key)
    return reply


def _cpu_killed(family: Any, params: Any) -> str:
    return (
        f"spec {family.path}: the sandboxed worker was killed {CPU_GRACE:g} CPU seconds "
        f"past the safety net (max_seconds = {params.max_seconds:g} s of CPU per puzzle), "
        f"in a loop that nothing inside it could interrupt; no puzzle is given"
    )


def sandboxed_generate(
    family: Any,
    params: Any,
    rng: random.Random,
    *,
    config: dict | None,
    use_spec_vars: tuple[str, ...],
    deadline: float,
) -> Puzzle:
    """``family.generate`` run by this thread's worker; ``rng`` advances as in process."""
    require_random(rng, family.path, "sandboxed")
    request = {
        "op": "generate",
        "params": asdict(params),
        "rng": rng.getstate(),
        "config": config,
        "use_spec_vars": list(use_spec_vars),
    }
    w = thread_worker()
    try:
        reply = _call_for_spec(w, family, request, deadline, params.max_seconds + CPU_GRACE)
    except WorkerCpuLimit:
        w.kill()
        raise SafetyNetFailed(
            _cpu_killed(family, params), attempts=0, reasons={SAFETY_NET: 1}, file=family.path
        ) from None
    except WorkerTimeout:
        w.kill()
        raise SafetyNetFailed(
            f"spec {family.path}: the sandboxed worker was still busy {KILL_GRACE + 1:g} s past "
            f"its wall-clock backstop ({wall_backstop(params.max_seconds):g} s; the safety net "
            f"is max_seconds = {params.max_seconds:g} s of CPU per puzzle), waiting on something "
            f"without using CPU; it was killed and no puzzle is given",
            attempts=0,
            reasons={SAFETY_NET: 1},
            file=family.path,
        ) from None
    except WorkerDead as exc:
        w.kill()
        if "SIGXCPU" in str(exc):  # the kernel's CPU limit: the net, past every Python check
            raise SafetyNetFailed(
                _cpu_killed(family, params), attempts=0, reasons={SAFETY_NET: 1}, file=family.path
            ) from None
        raise SpecWorkerDied(
            f"spec {family.path}: the sandboxed worker died during generation ({exc}); a spec "
            f"that exhausts its memory ({sandbox_process.LIMITS.address_space >> 20} MB address "
            f"space) or CPU ends this way",
            file=family.path,
            hint="If the spec is yours and needs more, run it with --trust",
        ) from None
    except BaseException:
        w.kill()  # interrupted (Ctrl-C): the worker's state is unknown
        raise
    state = reply.get("rng")
    if "error" in reply:
        if state is not None:  # a failed call advanced the generator too
            try:
                rng.setstate(_as_state(state))
            except (TypeError, ValueError):
                w.kill()
                raise SpecWorkerDied(
                    f"spec {family.path}: malformed reply from the worker", file=family.path
                ) from None
        raise _rebuild_error(reply["error"], family)
    data = reply.get("puzzle")
    if not isinstance(data, dict):
        w.kill()
        raise SpecWorkerDied(
            f"spec {family.path}: the worker's reply holds no puzzle", file=family.path
        )
    try:
        rng.setstate(_as_state(state))
        puzzle = Puzzle(**{k: data[k] for k in _PUZZLE_FIELDS if k in data})
    except (TypeError, ValueError, KeyError) as exc:
        w.kill()
        raise SpecWorkerDied(
            f"spec {family.path}: malformed reply from the worker: {exc}", file=family.path
        ) from None
    if isinstance(puzzle.meta, dict) and "source" in puzzle.meta:
        puzzle.meta["source"] = family._source  # the parent's view of the path
    return puzzle


def sandboxed_capture(family: Any, config: dict, answer: str, params: dict, seconds: float) -> dict:
    """spec/audit.py's ``capture_config`` run by this thread's worker: the problem as a dict.

    Why in the worker: the capture replays the record's config, which evaluates the spec's
    expressions, and a spec named by a record is untrusted. ``seconds`` is a CPU net:
    reaching it raises ``SafetyNetFailed`` (exit status 4), never a verdict on the record.
    """
    request = {
        "op": "capture",
        "config": config,
        "answer": answer,
        "params": params,
        "cpu_seconds": seconds,
    }
    w = thread_worker()
    try:
        # the net is CPU time (a loaded machine does not meet it sooner); the wall-clock
        # deadline is only the backstop for a worker waiting without CPU
        reply = _call_for_spec(
            w, family, request, time.monotonic() + wall_backstop(seconds), seconds
        )
    except (WorkerTimeout, WorkerCpuLimit) as exc:
        w.kill()
        used = (
            f"used {seconds:g} CPU seconds"
            if isinstance(exc, WorkerCpuLimit)
            else f"was still waiting without CPU past {wall_backstop(seconds):g} s"
        )
        raise SafetyNetFailed(
            f"spec {family.path}: the audit's config replay {used} (its safety net); the "
            "worker was killed and the record was not judged",
            attempts=0,
            reasons={SAFETY_NET: 1},
            file=family.path,
        ) from None
    except WorkerDead as exc:
        w.kill()
        if "SIGXCPU" in str(exc):  # the kernel's CPU limit: the net, past every Python check
            raise SafetyNetFailed(
                f"spec {family.path}: the audit's config replay was stopped by the kernel "
                f"{CPU_GRACE:g} CPU seconds past its safety net of {seconds:g} CPU seconds; "
                "the record was not judged",
                attempts=0,
                reasons={SAFETY_NET: 1},
                file=family.path,
            ) from None
        raise SpecWorkerDied(
            f"spec {family.path}: the sandboxed worker died during the audit's "
            f"config replay ({exc})",
            file=family.path,
        ) from None
    except BaseException:
        w.kill()
        raise
    if "error" in reply:
        raise _rebuild_error(reply["error"], family)
    data = reply.get("problem")
    if not isinstance(data, dict):
        w.kill()
        raise SpecWorkerDied(
            f"spec {family.path}: the worker's reply holds no problem", file=family.path
        )
    return data


_PUZZLE_FIELDS = (
    "family",
    "question",
    "answer",
    "solution",
    "difficulty",
    "params",
    "seed",
    "config",
    "meta",
    "extra",
    "id",
)


def _as_state(state: Any) -> tuple:
    """The random state tuple of the reply, checked to be Random's own shape."""
    if (
        isinstance(state, tuple)
        and len(state) == 3
        and isinstance(state[1], tuple)
        and all(type(x) is int for x in state[1])
    ):
        return state
    raise ValueError("random state of the wrong shape")
