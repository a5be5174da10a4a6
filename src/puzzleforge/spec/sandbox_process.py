"""The spec worker process as seen from the parent: start, pipes, replies, one per thread.

Why a module of its own (split from spec/sandbox.py): this is the transport, the same
for every kind of call: start ``python -I -B`` with an empty environment and the limits
of spec/oslock.py, write length-prefixed requests and read replies within a deadline
(non-blocking pipes and ``poll``, so a worker that stops reading or writing cannot block
the parent), unpickle replies as plain data only (a hostile worker cannot make the parent
run code), keep one persistent worker per thread, and reap workers at exit, after a
fork and when they are killed. spec/sandbox.py decides what to send (the spec's text,
the settings, the random state) and turns replies and failures into puzzles and errors.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import pickle
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
from typing import IO, Any

from ..core.cputime import AwakeClock, process_cpu_seconds
from ..core.errors import PuzzleForgeError
from .oslock import Limits

__all__ = [
    "SandboxFailed",
    "SpecWorkerDied",
    "Worker",
    "WorkerTimeout",
    "WorkerDead",
    "WorkerCpuLimit",
    "process_cpu_seconds",
    "thread_worker",
    "worker_info",
    "live_worker_pids",
    "shutdown_workers",
    "LIMITS",
    "START_SECONDS",
    "MAX_REPLY",
]


#: Seconds a new worker may take to import its modules and lock itself down.
START_SECONDS = 120.0
#: The largest reply accepted from a worker (a record is a few kB).
MAX_REPLY = 64 << 20
#: The limits of every worker.
LIMITS = Limits()
_HEADER = struct.Struct(">I")
#: Longest wait between two looks at a busy worker's CPU time.
_CPU_POLL = 0.25


_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from puzzleforge.spec.sandbox_worker import main; main()"
)


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


class Worker:
    """One worker process and its two pipes."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-I",
                "-B",
                "-c",
                _BOOT,
                _package_parent(),
                str(os.getpid()),
                pickle.dumps(asdict(LIMITS)).hex(),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={},
            cwd="/",
            close_fds=True,
            start_new_session=True,
        )
        self.pid = self.proc.pid
        if self.proc.stdin is None or self.proc.stdout is None:  # PIPE gives both
            raise SandboxFailed("the spec worker process was started without pipes")
        self.stdin: IO[bytes] = self.proc.stdin
        self.stdout: IO[bytes] = self.proc.stdout
        os.set_blocking(self.stdin.fileno(), False)  # writes wait in poll, with a deadline
        self.cpu = 0.0
        #: the worker's CPU time (process_cpu_seconds) past which the current call stops
        self._cpu_deadline: float | None = None
        #: the current call's awake clock (the wall-clock deadline counts awake time only)
        self._awake: AwakeClock | None = None
        #: keys of the specs whose text this worker has
        self.known: set[tuple[str, str]] = set()
        self._finalizer = weakref.finalize(self, _reap, self.proc, self.owner)
        _LIVE.add(self)
        try:
            hello = self._read(time.monotonic() + START_SECONDS)
        except WorkerTimeout:
            self.kill()
            raise SandboxFailed(
                f"the spec worker process did not start within {START_SECONDS:g} s",
                hint=_TRUST_HINT,
            ) from None
        except WorkerDead as exc:
            self.kill()
            raise SandboxFailed(
                f"the spec worker process exited while starting ({exc})", hint=_TRUST_HINT
            ) from None
        if not isinstance(hello, dict) or "ready" not in hello:
            self.kill()
            why = hello.get("fatal") if isinstance(hello, dict) else repr(hello)[:200]
            raise SandboxFailed(
                f"the spec worker cannot lock itself down: {why}",
                expected="Linux with seccomp (libseccomp and the pyseccomp package installed)",
                hint=_TRUST_HINT,
            )
        self.info = hello

    # ---- pipes -------------------------------------------------------------------------
    def send(self, obj: Any, deadline: float) -> None:
        """Write one request, within ``deadline`` (a worker that stops reading cannot
        block the parent: the pipe is written without blocking, as it drains)."""
        payload = pickle.dumps(obj, protocol=4)
        data = memoryview(_HEADER.pack(len(payload)) + payload)
        fd = self.stdin.fileno()
        while data:
            self._wait(fd, select.POLLOUT, deadline)
            try:
                n = os.write(fd, data[: 1 << 16])
            except BlockingIOError:
                continue
            except OSError as exc:  # BrokenPipeError: the worker is gone
                raise WorkerDead(f"pipe closed: {exc}") from None
            data = data[n:]

    def _wait(self, fd: int, event: int, deadline: float) -> None:
        """Wait until ``fd`` is ready (poll: no FD_SETSIZE limit, unlike select), within
        the wall-clock ``deadline`` and the call's CPU deadline."""
        poller = select.poll()
        poller.register(fd, event)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                # past in wall-clock time: a worker only starved of CPU is given its
                # run-queue wait (core/cputime.py AwakeClock); a stuck one is not
                if self._awake is None or self._awake.past(deadline):
                    raise WorkerTimeout()
                left = _CPU_POLL
            if self._cpu_deadline is not None:
                left = min(left, _CPU_POLL)
            if poller.poll(max(1, int(left * 1000))):
                return
            if self._cpu_deadline is not None:
                used = process_cpu_seconds(self.pid)
                if used is not None and used > self._cpu_deadline:
                    raise WorkerCpuLimit()

    def _read_exact(self, n: int, deadline: float) -> bytes:
        fd = self.stdout.fileno()
        chunks = []
        while n:
            self._wait(fd, select.POLLIN, deadline)
            chunk = os.read(fd, min(n, 1 << 20))
            if not chunk:
                raise WorkerDead(self._exit_text())
            chunks.append(chunk)
            n -= len(chunk)
        return b"".join(chunks)

    def _read(self, deadline: float) -> Any:
        size = _HEADER.unpack(self._read_exact(_HEADER.size, deadline))[0]
        if size > MAX_REPLY:
            raise WorkerDead(f"reply of {size:,} bytes (limit {MAX_REPLY:,})")
        try:
            return _plain_loads(self._read_exact(size, deadline))
        except (
            pickle.UnpicklingError,
            EOFError,
            ValueError,
            TypeError,
            MemoryError,
            RecursionError,
            struct.error,
        ) as exc:
            raise WorkerDead(f"unreadable reply: {exc}") from None

    def call(self, request: dict, deadline: float, cpu_seconds: float | None = None) -> dict:
        """Send ``request``, return the reply; ``WorkerTimeout`` past the wall-clock
        ``deadline``, ``WorkerCpuLimit`` once the worker has used ``cpu_seconds`` of CPU
        on this call (measured from outside, so it covers every step of the call)."""
        start = process_cpu_seconds(self.pid) if cpu_seconds is not None else None
        self._cpu_deadline = None if start is None else start + float(cpu_seconds or 0)
        self._awake = AwakeClock(self.pid)
        try:
            self.send(request, deadline)
            reply = self._read(deadline)
        finally:
            self._cpu_deadline = None
            self._awake = None
        if not isinstance(reply, dict):
            raise WorkerDead(f"reply is a {type(reply).__name__}, not a dict")
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


class WorkerTimeout(Exception):
    """The worker did not answer (or read) before the call's deadline."""


class WorkerCpuLimit(Exception):
    """The worker used the CPU time its call was given (the call's hard deadline)."""


class WorkerDead(Exception):
    """The worker is gone or sent something that is not a well-formed reply."""


_TRUST_HINT = "Specs you trust can run in this process with --trust (trust=True in the Python API)"
_LIVE: weakref.WeakSet[Worker] = weakref.WeakSet()
_local = threading.local()


def _reap(proc: subprocess.Popen[bytes], owner: int, kill: bool = False) -> None:
    """Stop a worker and collect its exit status (no zombie); only from its own parent."""
    if os.getpid() != owner:
        return
    for f in (proc.stdin, proc.stdout):
        if f is not None:
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
        for f in (w.stdin, w.stdout):
            with contextlib.suppress(OSError):
                f.close()
        w.proc.returncode = 0  # not ours to wait for
    _LIVE.clear()
    _local = threading.local()


atexit.register(shutdown_workers)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def thread_worker() -> Worker:
    """This thread's worker, started on first use (or after the last one died)."""
    w = getattr(_local, "worker", None)
    if w is None or w.proc.poll() is not None or w.owner != os.getpid():
        w = _local.worker = Worker()
    return w


def worker_info() -> dict:
    """This thread's worker: pid, uid, Landlock ABI, seccomp, rlimits (starts one)."""
    w = thread_worker()
    return {"pid": w.pid, "cpu": w.cpu, **{k: v for k, v in w.info.items() if k != "ready"}}


def live_worker_pids() -> list[int]:
    """The pids of the workers this process has running."""
    return sorted(w.pid for w in _LIVE if w.proc.poll() is None)
