"""The work one process does: generate a chunk of item indices of one component.

Why here and not in the runner: the same function runs in a local pool process, in a Ray
task and inline (1 worker), so every backend produces the very same bytes. Families are
rebuilt from their ref once per process and cached. An attempt that raises or whose
stored answer does not verify is retried with the next derived seed and counted by reason
(unless the family retries inside its own ``generate``: ``retries_itself``, spec files).
An error marked ``ends_run`` (core/errors.py) ends the item and tells the runner to stop.

``--timeout-per-item S`` is the one CPU limit model of docs/limits.md: each attempt runs
in a worker forked once per chunk (core/limitedworker.py) under S CPU seconds, a CPU alarm
for Python loops and the kernel's RLIMIT_CPU (set per attempt) for work stuck in C. An
attempt that reaches it is not retried: the run stops at that item with ``LimitExceeded``
(exit status 4), because which puzzle came out instead would depend on the machine's
speed. A family that runs its work in a worker of its own (spec files without --trust)
gets S as its per-puzzle net instead.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.alarm import cpu_alarm
from ..core.cputime import cpu_seconds
from ..core.errors import GenerationFailed, PuzzleForgeError
from ..core.family import build_params
from ..core.limitedworker import LimitedWorker
from ..core.limits import LimitExceeded, Limits, is_limit, run_limited
from ..core.puzzle import stamp
from ..core.seeding import derive_seed, make_rng, stable_hash
from .job import Component, load_family_ref

__all__ = [
    "ChunkTask",
    "ItemResult",
    "ChunkResult",
    "run_chunk",
    "question_key",
    "structural_key",
    "split_for",
]

_FAMILY_CACHE: dict[str, Any] = {}


@dataclass(frozen=True)
class ChunkTask:
    """Plain data sent to a worker: which component, which indices, and the run settings."""

    component: dict[str, Any]  # Component.payload()
    component_index: int
    base_seed: int  # the component's base seed
    indices: tuple[int, ...]
    max_attempts: int
    timeout: float | None
    splits: tuple[tuple[str, float], ...]
    provenance: dict[str, Any]  # generator version, run seed, recipe...
    audit: bool = False  # run family.audit too; a finding rejects the attempt


@dataclass
class ItemResult:
    index: int
    line: str | None  # the JSON record, or None when every attempt failed
    qkey: int = 0  # dedupe key (canonical question hash)
    rejects: dict[str, int] = field(default_factory=dict)
    error: str = ""  # last failure message when line is None
    stop: str = ""  # an error that ends the run (PuzzleForgeError.ends_run)
    stop_kind: str = ""  # its kind ("invalid spec", "generation failed", ...)
    stop_exit: int = 0  # its exit status (4: a limit stopped it), 0: the runner's default


@dataclass
class ChunkResult:
    component_index: int
    first_index: int
    items: list[ItemResult]
    cpu_seconds: float
    wall_seconds: float


class _ItemTimeout(BaseException):
    """Raised by the CPU alarm inside a family's generate (a BaseException so a family's
    own ``except Exception`` cannot swallow it)."""


def _raise_timeout() -> None:
    raise _ItemTimeout()


def _family(ref: str, options: dict[str, Any]) -> Any:
    # the working directory and the file's version are part of the key: a spec family
    # records its file's path relative to the first (meta.source) and hashes its content,
    # and one process may run several batches (from other folders, after an edit)
    try:
        st = os.stat(ref)
        version = f"{st.st_mtime_ns}:{st.st_size}"
    except OSError:  # a registered id or module:attribute, not a file
        version = ""
    key = "|".join((ref, repr(sorted(options.items())), os.getcwd(), version))
    family = _FAMILY_CACHE.get(key)
    if family is None:
        family = _FAMILY_CACHE[key] = load_family_ref(ref, options)
    return family


def question_key(question: str) -> int:
    """Dedupe key: hash of the question with whitespace runs collapsed (12 bytes)."""
    return int(stable_hash("q", " ".join(question.split()), digest_size=12), 16)


def structural_key(family: Any, puzzle: Any) -> str:
    """What decides the split: ``family.structural_key(puzzle)`` if the family defines one
    (e.g. a zebra puzzle up to renaming), else the whitespace-normalised question."""
    custom = getattr(family, "structural_key", None)
    if custom is not None:
        return str(custom(puzzle))
    return puzzle.family + "\n" + " ".join(puzzle.question.split()).lower()


def split_for(key: str, splits: tuple[tuple[str, float], ...]) -> str:
    """The split a structural key falls in (stable hash bucket against cumulative shares)."""
    bucket = int(stable_hash("split", key, digest_size=8), 16) / float(1 << 64)
    acc = 0.0
    for name, fraction in splits:
        acc += fraction
        if bucket < acc:
            return name
    return splits[-1][0]


def _reason(exc: BaseException) -> str:
    if isinstance(exc, GenerationFailed):
        return "generation_failed"
    if isinstance(exc, PuzzleForgeError):
        return exc.kind.replace(" ", "_")
    return "error:" + type(exc).__name__


def _limited_attempt(family: Any, params: Any, seed: int, timeout: float | None, what: str) -> Any:
    """One attempt inside its forked worker: the CPU alarm stops a Python-level loop at
    ``timeout`` (the worker's RLIMIT_CPU, a second or two later, stops work stuck in C).
    ``timeout`` None: the family's own net does that (a trusted spec's ``max_seconds``)."""
    if timeout is None:
        return stamp(family.generate(params, make_rng(seed)), seed)
    try:
        with cpu_alarm(timeout, _raise_timeout):
            return stamp(family.generate(params, make_rng(seed)), seed)
    except _ItemTimeout:
        raise LimitExceeded(f"{what} was stopped at its limit") from None


#: CPU seconds past a family's own safety net (``max_seconds``) before the kernel stops
#: the worker its attempts run in (the family's CPU alarm stops Python loops first).
NET_GRACE = 5.0
#: Wall-clock backstop of such a worker, in multiples of that limit: only for work that
#: waits without using CPU (as spec/runerrors.py's WALL_BACKSTOP for the sandbox).
NET_WALL_BACKSTOP = 10.0


def _bounds_itself(family: Any, params: Any) -> bool:
    """True for a family that bounds each puzzle itself in a worker of its own whose CPU
    this process's limits would not see (spec files without --trust: ``max_seconds``)."""
    return bool(
        getattr(family, "retries_itself", False)
        and hasattr(params, "max_seconds")
        and getattr(family, "sandboxed", False)
    )


def _own_net(family: Any, params: Any) -> bool:
    """True for a family with a CPU safety net of its own (``max_seconds``) that runs
    code of the user's in this process (spec files with --trust and ``.py`` operator
    files: ``trusted_code``): its attempts go to a worker whose RLIMIT_CPU is that net +
    ``NET_GRACE``, so work stuck in C (an operator file's endless C call, where the
    family's CPU alarm never runs) still ends, loudly. A trusted spec without operator
    files runs in place (its CPU alarm is its net), as the Python API runs it: no second
    process and its ~10-15 MB of peak memory (docs/spec.md) for code that is all ours;
    ``--timeout-per-item`` still puts every attempt in a bounded worker."""
    return (
        hasattr(params, "max_seconds")
        and not _bounds_itself(family, params)
        and bool(getattr(family, "trusted_code", True))
    )


def _attempt(
    family: Any,
    params: Any,
    seed: int,
    timeout: float | None,
    what: str,
    worker: LimitedWorker | None = None,
) -> Any:
    if timeout and hasattr(params, "max_seconds"):
        # the timeout is that family's own net
        params = dataclasses.replace(params, max_seconds=min(params.max_seconds, timeout))
    if _bounds_itself(family, params) or (not timeout and not _own_net(family, params)):
        return stamp(family.generate(params, make_rng(seed)), seed)
    if _own_net(family, params):
        net = float(params.max_seconds)
        try:
            if worker is None:
                return run_limited(
                    _limited_attempt,
                    family,
                    params,
                    seed,
                    None,
                    what,
                    limits=Limits(cpu_seconds=net + NET_GRACE, memory_mb=None),
                    what=what,
                )
            return worker.call(
                seed,
                None,
                what,
                cpu_seconds=net + NET_GRACE,
                what=what,
                wall_deadline=time.monotonic() + NET_WALL_BACKSTOP * (net + NET_GRACE),
            )
        except LimitExceeded as exc:
            if "wall-clock backstop" in exc.problem:
                raise LimitExceeded(
                    f"{what} was still running {NET_WALL_BACKSTOP:g} x its CPU limit in "
                    f"wall-clock time ({NET_WALL_BACKSTOP * (net + NET_GRACE):g} s), waiting "
                    "on something without using CPU; it was killed, no puzzle is given, and "
                    "the run stops here",
                    expected="a spec whose operators finish",
                ) from None
            if "was stopped at its limit" not in exc.problem:
                raise
            raise LimitExceeded(
                f"{what} was stopped by the kernel {NET_GRACE:g} CPU seconds past its safety "
                f"net (max_seconds = {net:g} s of CPU per puzzle), in work that nothing inside "
                "it could interrupt; no puzzle is given, and the run stops here",
                expected="a larger --max-seconds, or a spec whose operators finish",
            ) from None
    assert timeout is not None  # the other cases returned above
    try:
        # memory is left to the caller's limits: a worker's address space can already be
        # large (Z3, Arrow), and this limit is about CPU time
        if worker is not None:  # the chunk's worker, forked once (core/limitedworker.py)
            return worker.call(seed, timeout, what, cpu_seconds=timeout, what=what)
        return run_limited(
            _limited_attempt,
            family,
            params,
            seed,
            timeout,
            what,
            limits=Limits(cpu_seconds=timeout, memory_mb=None),
            what=what,
        )
    except LimitExceeded as exc:
        if "was stopped at its limit" not in exc.problem:
            raise  # died otherwise (out of memory, a signal): said as such
        raise LimitExceeded(
            f"{what} was stopped at its limit of {timeout:g} CPU seconds "
            "(--timeout-per-item); the run stops here instead of trying another seed, "
            "because which puzzle came out would depend on the machine's speed",
            expected="a larger --timeout-per-item (CPU seconds per attempt) or smaller params",
        ) from None


def run_item(
    family: Any, params: Any, task: ChunkTask, index: int, worker: LimitedWorker | None = None
) -> ItemResult:
    """Generate item ``index`` with retries; the record carries its provenance in meta.
    ``worker``: where attempts run under ``--timeout-per-item`` (else a fork each)."""
    comp = task.component
    rejects: dict[str, int] = {}
    error = ""
    # a family that retries inside generate (spec files) is never retried with another seed
    attempts = 1 if getattr(family, "retries_itself", False) else task.max_attempts
    for attempt in range(attempts):
        seed = derive_seed(task.base_seed, family.name, index, attempt)
        try:
            what = f"item {index}, attempt {attempt + 1} (seed {seed})"
            puzzle = _attempt(family, params, seed, task.timeout, what, worker)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001 - any generator failure is a counted reject
            reason = _reason(exc)
            rejects[reason] = rejects.get(reason, 0) + 1
            error = f"{type(exc).__name__}: {exc}"
            if getattr(exc, "ends_run", False):  # no later item can do better: stop the run
                return ItemResult(
                    index,
                    None,
                    0,
                    rejects,
                    error,
                    stop=str(exc),
                    stop_kind=str(getattr(exc, "kind", "")),
                    stop_exit=int(getattr(exc, "exit_code", 0) or 0),
                )
            continue
        try:
            score = float(family.verify(puzzle, puzzle.answer))
        except Exception as exc:  # noqa: BLE001
            score, error = 0.0, f"verify raised {type(exc).__name__}: {exc}"
        if score != 1.0:
            rejects["answer_does_not_verify"] = rejects.get("answer_does_not_verify", 0) + 1
            error = error or f"stored answer scored {score}"
            continue
        auditor = getattr(family, "audit", None) if task.audit else None
        if auditor is not None:
            try:
                findings = list(auditor(puzzle))
            except Exception as exc:  # noqa: BLE001
                if is_limit(exc):  # a limit is no finding: rejecting would depend on seconds
                    rejects["limit_reached"] = rejects.get("limit_reached", 0) + 1
                    return ItemResult(
                        index,
                        None,
                        0,
                        rejects,
                        f"{type(exc).__name__}: {exc}",
                        stop=str(exc),
                        stop_kind=str(getattr(exc, "kind", "")),
                        stop_exit=int(getattr(exc, "exit_code", 0) or 0),
                    )
                findings = [f"audit raised {type(exc).__name__}: {exc}"]
            if findings:
                rejects["audit_failed"] = rejects.get("audit_failed", 0) + 1
                error = "; ".join(map(str, findings))
                continue
        meta = puzzle.meta
        meta["index"] = index
        meta["run_seed"] = task.provenance.get("run_seed")
        meta["generator"] = task.provenance.get("generator")
        if attempt:
            meta["attempt"] = attempt
        if comp.get("name"):
            meta["component"] = comp["name"]
        want = comp.get("tier")
        if want and meta.get("tier") != want:  # a recipe's tier is a target, never a label
            key = f"tier_{meta.get('tier') or 'unrated'}_not_{want}"
            rejects[key] = rejects.get(key, 0) + 1
            error = f"came out {meta.get('tier') or 'unrated'}, not {want}"
            continue
        if task.provenance.get("recipe"):
            meta["recipe"] = task.provenance["recipe"]
        if task.splits:
            meta["split"] = split_for(structural_key(family, puzzle), task.splits)
        return ItemResult(index, puzzle.to_json(), question_key(puzzle.question), rejects)
    return ItemResult(index, None, 0, rejects, error)


@functools.cache
def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None (another C library, or no ctypes)."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, ImportError):  # pragma: no cover - not glibc
        return None
    trim.argtypes = [ctypes.c_size_t]
    return trim


def release_free_heap() -> None:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim(0)``).

    Why between items: a family generating in this process (a trusted spec without
    operator files, see ``_own_net``) frees an item's Z3 terms and solver state when the
    item ends, but glibc keeps the freed pages, and a heap fragmented by one item's
    large blocks grows with the next one's: 37-equation's process went from ~92 MB
    after one puzzle to ~168 MB after ten (~90 MB with this call after each item). It
    changes no setting (unlike ``mallopt``) and no value a puzzle is made of.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Generate every index of ``task`` (the function every backend calls)."""
    # cpu_seconds: this process and its children (the sandboxed spec worker does the work)
    wall0, cpu0 = time.monotonic(), cpu_seconds()
    comp = task.component
    options = comp.get("options") or {}
    if task.audit and options.get("trust"):
        # the audit's replay runs here, outside the chunk's worker: a trusted family
        # then runs it in a bounded worker of its own (spec/trusted.py)
        options = {**options, "worker": True}
    family = _family(comp["ref"], options)
    params = build_params(
        family.Params, Component(**comp).family_params(family), family=family.name
    )
    if (task.timeout and not _bounds_itself(family, params)) or _own_net(family, params):
        # one forked worker runs every attempt of the chunk, each under its own CPU limit
        # (a fork per attempt cost 10-20 ms); its family and caches advance as in place
        with LimitedWorker(functools.partial(_limited_attempt, family, params)) as worker:
            items = [run_item(family, params, task, i, worker) for i in task.indices]
    else:
        items = []
        for i in task.indices:
            items.append(run_item(family, params, task, i))
            release_free_heap()  # the item's freed pages (see there why)
    return ChunkResult(
        task.component_index,
        task.indices[0] if task.indices else 0,
        items,
        cpu_seconds() - cpu0,
        time.monotonic() - wall0,
    )
