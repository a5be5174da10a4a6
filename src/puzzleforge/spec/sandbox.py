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
* The parent enforces a hard deadline per call (the safety net plus ``KILL_GRACE``): a
  C-level loop that no signal inside the worker interrupts (``sum(iter(int, 1))``) gets
  the worker killed and ``SafetyNetFailed`` naming the spec; the next call starts a new
  worker.
* Replies are unpickled by ``_PlainUnpickler``, which builds no object but plain data
  (and a few value types): a hostile worker cannot make the parent run code.
* Fail closed: when the lock-down cannot be applied, ``SandboxFailed`` says so; nothing
  runs unsandboxed unless the caller passed ``--trust``.
"""
from __future__ import annotations

import atexit
import contextlib
import io
import os
import pickle
import random
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..core.errors import GenerationFailed, PuzzleForgeError
from ..core.puzzle import Puzzle
from .oslock import Limits

__all__ = ["SandboxFailed", "SpecWorkerDied", "sandboxed_generate", "worker_info",
           "shutdown_workers", "KILL_GRACE", "LIMITS"]

#: Seconds past a call's safety net before the parent kills the worker (the worker's own
#: SIGALRM stops Python-level loops at the net + 1 s with a clean error first).
KILL_GRACE = 3.0
#: Seconds a new worker may take to import its modules and lock itself down.
START_SECONDS = 120.0
#: The largest reply accepted from a worker (a record is a few kB).
MAX_REPLY = 64 << 20
#: The limits of every worker.
LIMITS = Limits()
_HEADER = struct.Struct(">I")
_BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); "
         "from puzzleforge.spec.sandbox_worker import main; main()")


class SandboxFailed(PuzzleForgeError):
    """The worker process could not be started or locked down (nothing ran unsandboxed)."""

    kind = "sandbox unavailable"


class SpecWorkerDied(PuzzleForgeError):
    """The sandboxed worker died during a call (a crash, a memory or CPU limit)."""

    kind = "spec worker died"


class _PlainUnpickler(pickle.Unpickler):
    """Unpickles plain data only: dicts, lists, tuples, sets, strings, numbers, None.

    Why: the reply comes from the process that may run hostile code. Plain containers and
    scalars need no class lookup; the only classes allowed are inert value types.
    """

    _ALLOWED = {("fractions", "Fraction"), ("decimal", "Decimal"), ("builtins", "complex")}

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"the spec worker sent an object of class {module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("the spec worker sent a persistent reference")


def _plain_loads(data: bytes) -> Any:
    return _PlainUnpickler(io.BytesIO(data)).load()


def _package_parent() -> str:
    return str(Path(__file__).resolve().parents[2])


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-B", "-c", _BOOT, _package_parent(), str(os.getpid()),
             pickle.dumps(asdict(LIMITS)).hex()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={}, cwd="/", close_fds=True, start_new_session=True)
        self.pid = self.proc.pid
        os.set_blocking(self.proc.stdin.fileno(), False)  # writes wait in poll, with a deadline
        self.cpu = 0.0
        #: keys of the specs whose text this worker has
        self.known: set = set()
        self._finalizer = weakref.finalize(self, _reap, self.proc, self.owner)
        _LIVE.add(self)
        try:
            hello = self._read(time.monotonic() + START_SECONDS)
        except _Timeout:
            self.kill()
            raise SandboxFailed(f"the spec worker process did not start within {START_SECONDS:g} s",
                                hint=_TRUST_HINT) from None
        except _Dead as exc:
            self.kill()
            raise SandboxFailed(f"the spec worker process exited while starting ({exc})",
                                hint=_TRUST_HINT) from None
        if not isinstance(hello, dict) or "ready" not in hello:
            self.kill()
            why = hello.get("fatal") if isinstance(hello, dict) else repr(hello)[:200]
            raise SandboxFailed(f"the spec worker cannot lock itself down: {why}",
                                expected="Linux with seccomp (libseccomp and the pyseccomp "
                                         "package installed)", hint=_TRUST_HINT)
        self.info = hello

    # ---- pipes -------------------------------------------------------------------------
    def send(self, obj: Any, deadline: float) -> None:
        """Write one request, within ``deadline`` (a worker that stops reading cannot
        block the parent: the pipe is written without blocking, as it drains)."""
        payload = pickle.dumps(obj, protocol=4)
        data = memoryview(_HEADER.pack(len(payload)) + payload)
        fd = self.proc.stdin.fileno()
        while data:
            self._wait(fd, select.POLLOUT, deadline)
            try:
                n = os.write(fd, data[:1 << 16])
            except BlockingIOError:
                continue
            except OSError as exc:  # BrokenPipeError: the worker is gone
                raise _Dead(f"pipe closed: {exc}") from None
            data = data[n:]

    @staticmethod
    def _wait(fd: int, event: int, deadline: float) -> None:
        """Wait until ``fd`` is ready (poll: no FD_SETSIZE limit, unlike select)."""
        poller = select.poll()
        poller.register(fd, event)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Timeout()
            if poller.poll(max(1, int(left * 1000))):
                return

    def _read_exact(self, n: int, deadline: float) -> bytes:
        fd = self.proc.stdout.fileno()
        chunks = []
        while n:
            self._wait(fd, select.POLLIN, deadline)
            chunk = os.read(fd, min(n, 1 << 20))
            if not chunk:
                raise _Dead(self._exit_text())
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    def _read(self, deadline: float) -> Any:
        size = _HEADER.unpack(self._read_exact(_HEADER.size, deadline))[0]
        if size > MAX_REPLY:
            raise _Dead(f"reply of {size:,} bytes (limit {MAX_REPLY:,})")
        try:
            return _plain_loads(self._read_exact(size, deadline))
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError, MemoryError,
                RecursionError, struct.error) as exc:
            raise _Dead(f"unreadable reply: {exc}") from None

    def call(self, request: dict, deadline: float) -> dict:
        self.send(request, deadline)
        reply = self._read(deadline)
        if not isinstance(reply, dict):
            raise _Dead(f"reply is a {type(reply).__name__}, not a dict")
        cpu = reply.get("cpu")
        if isinstance(cpu, float):
            self.cpu = cpu
        return reply

    def _exit_text(self) -> str:
        try:
            code = self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            return "it closed its pipe"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"

    def kill(self) -> None:
        _LIVE.discard(self)
        self._finalizer.detach()
        _reap(self.proc, self.owner, kill=True)


class _Timeout(Exception):
    pass


class _Dead(Exception):
    pass


_TRUST_HINT = ("Specs you trust can run in this process with --trust (trust=True in the "
               "Python API)")
_LIVE: weakref.WeakSet[_Worker] = weakref.WeakSet()
_local = threading.local()


def _reap(proc: subprocess.Popen, owner: int, kill: bool = False) -> None:
    """Stop a worker and collect its exit status (no zombie); only from its own parent."""
    if os.getpid() != owner:
        return
    for f in (proc.stdin, proc.stdout):
        with contextlib.suppress(OSError):
            f.close()
    if kill:
        with contextlib.suppress(OSError):
            proc.kill()
    try:
        proc.wait(timeout=2.0)  # EOF on its stdin ends a healthy worker at once
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            proc.kill()
        proc.wait()


def shutdown_workers() -> None:
    """Stop every worker this process started (at exit; tests)."""
    for w in list(_LIVE):
        w.kill()
    _local.__dict__.pop("worker", None)


def _after_fork_in_child() -> None:
    # the parent's workers belong to the parent: close our copies of their pipes only
    global _local
    for w in list(_LIVE):
        w._finalizer.detach()
        for f in (w.proc.stdin, w.proc.stdout):
            with contextlib.suppress(OSError):
                f.close()
        w.proc.returncode = 0  # not ours to wait for
    _LIVE.clear()
    _local = threading.local()


atexit.register(shutdown_workers)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _worker() -> _Worker:
    w = getattr(_local, "worker", None)
    if w is None or w.proc.poll() is not None or w.owner != os.getpid():
        w = _local.worker = _Worker()
    return w


def worker_info() -> dict:
    """This thread's worker: pid, uid, Landlock ABI, seccomp, rlimits (starts one)."""
    w = _worker()
    return {"pid": w.pid, "cpu": w.cpu, **{k: v for k, v in w.info.items() if k != "ready"}}


def live_worker_pids() -> list[int]:
    """The pids of the workers this process has running."""
    return sorted(w.pid for w in _LIVE if w.proc.poll() is None)


def _spec_text(family: Any) -> tuple[tuple[str, str], str]:
    """The spec's text and its key (path + digest), read once per family."""
    cached = family.__dict__.get("_sandbox_text")
    if cached is None:
        import hashlib

        from ..core.yamlio import read_yaml_text

        text = read_yaml_text(family.path, what="spec", require_suffix=False)
        key = (family.path, hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest())
        cached = family._sandbox_text = (key, text)
    return cached


#: Builtin errors a worker's call may end with that the caller handles as in process.
_SHAPE_ERRORS: dict[str, type[Exception]] = {
    e.__name__: e for e in (KeyError, IndexError, TypeError, ValueError, AttributeError)}


def _rebuild_error(data: Any, family: Any) -> PuzzleForgeError:
    """A worker's error as this process's exception (class from a fixed table)."""
    from ..core import errors
    from .family import SafetyNetFailed, SpecExpressionError, UndecidedSpec

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
        return _SHAPE_ERRORS[name](problem)  # type: ignore[return-value]
    if cls is None:
        return SpecWorkerDied(f"spec {family.path}: internal error in the spec worker: "
                              f"{text('problem')}", file=family.path)
    kwargs = dict(file=text("file"), field=text("field"), line=line, expected=text("expected"),
                  hint=text("hint"))
    if issubclass(cls, GenerationFailed):
        reasons = data.get("reasons") if isinstance(data.get("reasons"), dict) else {}
        attempts = data.get("attempts") if isinstance(data.get("attempts"), int) else 0
        exc = cls(text("problem") or "", attempts=attempts, reasons=reasons, **kwargs)
        if isinstance(data.get("detail"), str):
            exc.detail = data["detail"]   # why a config replay was rejected, in words
    else:
        try:
            exc = cls(text("problem") or "", **kwargs)
        except TypeError:
            exc = PuzzleForgeError(text("problem") or "", **kwargs)
    return exc


def _call_for_spec(w: _Worker, family: Any, request: dict, deadline: float) -> dict:
    """Send ``request`` about ``family``'s spec: its text goes once per worker (specs
    reach 4 MB), again when the worker dropped it from its cache. ``request["seconds"]``
    is the time left to ``deadline``; the worker is waited for until the deadline plus
    ``KILL_GRACE`` + 1 s (its own alarm fires at the deadline + 1 s)."""
    key, text = _spec_text(family)
    request.update(key=key, path=family.path, root=str(family.spec.root))
    for _ in range(2):
        if key not in w.known:
            request["text"] = text
        request["seconds"] = max(0.001, deadline - time.monotonic())
        reply = w.call(request, deadline + 1.0 + KILL_GRACE)
        w.known.add(key)
        if not reply.get("need_text"):
            return reply
        w.known.discard(key)
    return reply


def sandboxed_generate(family: Any, params: Any, rng: random.Random, *, config: dict | None,
                       use_spec_vars: tuple[str, ...], deadline: float) -> Puzzle:
    """``family.generate`` run by this thread's worker; ``rng`` advances as in process."""
    from .family import SafetyNetFailed

    if not isinstance(rng, random.Random):
        raise GenerationFailed("generate needs a random.Random (its state is sent to the "
                               "sandboxed worker)", file=family.path)
    request = {"op": "generate", "params": asdict(params), "rng": rng.getstate(),
               "config": config, "use_spec_vars": list(use_spec_vars)}
    w = _worker()
    try:
        reply = _call_for_spec(w, family, request, deadline)
    except _Timeout:
        w.kill()
        raise SafetyNetFailed(
            f"spec {family.path}: the sandboxed worker was still busy {KILL_GRACE + 1:g} s past "
            f"the wall-clock safety net (max_seconds = {params.max_seconds:g} s per puzzle), a "
            f"loop that nothing inside it could interrupt; it was killed and no puzzle is given",
            attempts=0, reasons={"wall-clock safety net (max_seconds)": 1},
            file=family.path) from None
    except _Dead as exc:
        w.kill()
        raise SpecWorkerDied(
            f"spec {family.path}: the sandboxed worker died during generation ({exc}); a spec "
            f"that exhausts its memory ({LIMITS.address_space >> 20} MB address space) or CPU "
            f"ends this way", file=family.path,
            hint="If the spec is yours and needs more, run it with --trust") from None
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
                raise SpecWorkerDied(f"spec {family.path}: malformed reply from the worker",
                                     file=family.path) from None
        raise _rebuild_error(reply["error"], family)
    data = reply.get("puzzle")
    if not isinstance(data, dict):
        w.kill()
        raise SpecWorkerDied(f"spec {family.path}: the worker's reply holds no puzzle",
                             file=family.path)
    try:
        rng.setstate(_as_state(state))
        puzzle = Puzzle(**{k: data[k] for k in _PUZZLE_FIELDS if k in data})
    except (TypeError, ValueError, KeyError) as exc:
        w.kill()
        raise SpecWorkerDied(f"spec {family.path}: malformed reply from the worker: {exc}",
                             file=family.path) from None
    if isinstance(puzzle.meta, dict) and "source" in puzzle.meta:
        puzzle.meta["source"] = family._source  # the parent's view of the path
    return puzzle


def sandboxed_capture(family: Any, config: dict, answer: str, params: dict, seconds: float) -> dict:
    """spec/audit.py's ``capture_config`` run by this thread's worker: the problem as a dict.

    Why in the worker: the capture replays the record's config, which evaluates the spec's
    expressions, and a spec named by a record is untrusted.
    """
    request = {"op": "capture", "config": config, "answer": answer, "params": params}
    w = _worker()
    try:
        reply = _call_for_spec(w, family, request, time.monotonic() + seconds)
    except _Timeout:
        w.kill()
        raise SpecWorkerDied(f"spec {family.path}: the audit's config replay ran past "
                             f"{seconds:g} s; the worker was killed", file=family.path) from None
    except _Dead as exc:
        w.kill()
        raise SpecWorkerDied(f"spec {family.path}: the sandboxed worker died during the audit's "
                             f"config replay ({exc})", file=family.path) from None
    except BaseException:
        w.kill()
        raise
    if "error" in reply:
        raise _rebuild_error(reply["error"], family)
    data = reply.get("problem")
    if not isinstance(data, dict):
        w.kill()
        raise SpecWorkerDied(f"spec {family.path}: the worker's reply holds no problem",
                             file=family.path)
    return data


_PUZZLE_FIELDS = ("family", "question", "answer", "solution", "difficulty", "params", "seed",
                  "config", "meta", "extra", "id")


def _as_state(state: Any) -> tuple:
    """The random state tuple of the reply, checked to be Random's own shape."""
    if (isinstance(state, tuple) and len(state) == 3 and isinstance(state[1], tuple)
            and all(type(x) is int for x in state[1])):
        return state
    raise ValueError("random state of the wrong shape")
