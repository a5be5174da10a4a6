"""Main of the locked-down spec worker process (the parent side is spec/sandbox.py
and spec/sandbox_process.py).

Started as ``python -I -B -c <bootstrap> <package dir> <parent pid>`` with an empty
environment. It imports everything an attempt needs, builds the Z3 and HiGHS objects
that create threads, then locks itself down (spec/oslock.py) and only then reads
requests: a request carries the spec's text (the worker opens no user file), the
generation settings and the random generator's state; the reply carries the puzzle as
plain data and the generator's state after the call, so the parent continues exactly as
if it had generated in process. Requests come from the parent (trusted) and are
unpickled normally; replies are plain data the parent unpickles with a class-restricted
unpickler (spec/sandbox_process.py), because this process is the one that may be hostile.

Frames on the pipes: 4-byte big-endian length, then a pickle.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import sys
import traceback
from typing import Any

#: Families kept (spec text -> built family): a batch of mixed specs reuses them.
_CACHE_SIZE = 16
_HEADER = struct.Struct(">I")


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _send(fd: int, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=4)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _receive(fd: int) -> bytes | None:
    """The next request's pickle (None when the parent closed the pipe)."""
    head = _read_exact(fd, _HEADER.size)
    if head is None:
        return None
    return _read_exact(fd, _HEADER.unpack(head)[0])


def _plain_error(exc: BaseException) -> dict:
    """An exception as plain data the parent rebuilds (spec/sandbox.py ``_rebuild_error``)."""
    from ..core.errors import PuzzleForgeError

    out: dict[str, Any] = {"type": type(exc).__name__}
    if isinstance(exc, PuzzleForgeError):
        out.update(
            problem=exc.problem,
            file=exc.file,
            field=exc.field,
            line=exc.line,
            expected=exc.expected,
            hint=exc.hint,
        )
        for key in ("attempts", "reasons", "detail"):
            if key in exc.__dict__:
                out[key] = exc.__dict__[key]
    else:
        out["problem"] = f"{type(exc).__name__}: {exc}"
        out["traceback"] = traceback.format_exc(limit=20)
    return out


def _warm_up() -> None:
    """Create what starts threads or loads libraries before the lock-down forbids it."""
    import z3

    from . import family, lp  # noqa: F401 - every module an attempt uses
    from .attempt import run_attempt  # noqa: F401

    # Z3 runs solver timeouts on a timer thread it keeps for reuse: start it now (the
    # lock-down forbids new threads to a non-root worker, RLIMIT_NPROC = 0)
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", 10_000)
    solver.add(z3.Int("x", ctx) > 0)
    solver.check()
    with contextlib.suppress(Exception):  # HiGHS missing: the specs that need it report it
        lp._highs()
    try:
        from .wordlists import get_faker  # type: ignore[attr-defined]

        get_faker("en_US")
    except Exception:  # noqa: BLE001 - only a warm-up
        pass


class _Families:
    """Built families by the parent's key (path + text digest), least recently used
    dropped first. The parent sends a spec's text only until the worker has it."""

    def __init__(self) -> None:
        self.items: dict[Any, Any] = {}

    def get(self, req: dict) -> Any:
        from pathlib import Path

        from .family import SpecFamily
        from .schema import parse_spec_text

        key = req["key"]
        fam = self.items.pop(key, None)
        if fam is None:
            text = req.get("text")
            if text is None:
                return None
            path = req["path"]
            fam = SpecFamily(
                path, trust=False, spec=parse_spec_text(text, path, root=Path(req["root"]))
            )
        self.items[key] = fam
        while len(self.items) > _CACHE_SIZE:
            self.items.pop(next(iter(self.items)))
        return fam


def _generate(families: _Families, req: dict) -> dict:
    import random
    import time

    from .family import SpecParams
    from .oslock import CPU_GRACE, set_cpu_limit

    fam = families.get(req)
    if fam is None:
        return {"need_text": True}
    rng = random.Random()
    rng.setstate(req["rng"])
    seconds = float(req["seconds"])  # to the wall-clock backstop
    params = SpecParams(**req["params"])
    # the hard deadline: the CPU safety net plus a grace, enforced by the kernel
    set_cpu_limit(min(seconds, params.max_seconds) + CPU_GRACE)
    try:
        puzzle = fam.generate_in_process(
            params,
            rng,
            config=req["config"],
            use_spec_vars=tuple(req["use_spec_vars"]),
            deadline=time.monotonic() + seconds,
        )
    except BaseException as exc:  # noqa: BLE001 - the generator's state goes back too
        return {"error": _plain_error(exc), "rng": rng.getstate()}
    return {"puzzle": dict(vars(puzzle)), "rng": rng.getstate()}


def _capture(families: _Families, req: dict) -> dict:
    """spec/audit.py's capture of a puzzle's decided problem (plain data back).

    Imported from spec/auditcapture.py, not spec/audit.py: the worker needs no checker
    (spec/audit.py loads SymPy for its algebraic audit)."""
    from dataclasses import asdict

    from .auditcapture import capture_config
    from .oslock import set_cpu_limit

    fam = families.get(req)
    if fam is None:
        return {"need_text": True}
    # the replay's CPU net (the wall-clock time left is only the backstop)
    set_cpu_limit(float(req.get("cpu_seconds", req["seconds"])) + 5.0)
    try:
        problem = capture_config(fam, req["config"], req["answer"], req["params"])
    except BaseException as exc:  # noqa: BLE001 - every failure goes back as data
        return {"error": _plain_error(exc)}
    return {"problem": asdict(problem)}


def main() -> None:
    """Serve requests on fds 0 (in) and 1 (out) until the parent closes the pipe."""
    parent = int(sys.argv[2])
    fd_in, fd_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # a stray print of spec code goes nowhere
        os.dup2(null, fd)
    os.close(null)
    try:
        from .oslock import Limits, lock_down

        limits = (
            Limits(**pickle.loads(bytes.fromhex(sys.argv[3]))) if len(sys.argv) > 3 else Limits()
        )
        _warm_up()
        applied = lock_down(limits, parent)
    except BaseException as exc:  # noqa: BLE001 - reported, then the worker exits
        _send(fd_out, {"fatal": f"{type(exc).__name__}: {exc}"})
        os._exit(3)
    _send(
        fd_out,
        {
            "ready": os.getpid(),
            "uid": applied.uid,
            "root": applied.root,
            "landlock": applied.landlock_abi,
            "seccomp": applied.seccomp,
            "rlimits": applied.rlimits,
        },
    )
    families = _Families()
    while True:
        body = _receive(fd_in)
        if body is None:
            os._exit(0)
        try:
            req = pickle.loads(body)  # from the parent: trusted
            if req.get("op") == "generate":
                reply = _generate(families, req)
            elif req.get("op") == "capture":
                reply = _capture(families, req)
            elif req.get("op") == "ping":
                reply = {"pong": os.getpid()}
            else:
                reply = {
                    "error": {"type": "RuntimeError", "problem": f"unknown op {req.get('op')!r}"}
                }
        except BaseException as exc:  # noqa: BLE001 - every failure goes back as data
            reply = {"error": _plain_error(exc)}
        import resource

        use = resource.getrusage(resource.RUSAGE_SELF)
        reply["cpu"] = use.ru_utime + use.ru_stime
        try:
            _send(fd_out, reply)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
            _send(
                fd_out,
                {
                    "error": {
                        "type": "RuntimeError",
                        "problem": f"the worker's reply cannot be sent: {exc}",
                    }
                },
            )
