"""A forked worker that runs many calls one after another, each under its own CPU limit.

Why: ``run_limited`` (core/limits.py) forks a worker per call, which costs 10-20 ms of
fork, page faults and reaping each time: for ``--timeout-per-item`` that was a fork per
attempt, more than the attempt itself for small puzzles. This worker is forked once (it
inherits the target function and everything it holds: a loaded family, its caches, a
trusted spec's operator files) and then answers calls through a pipe. Before each call
it sets its soft ``RLIMIT_CPU`` to the CPU time it has used so far plus the call's limit,
so the kernel's SIGXCPU still stops work stuck in C at that call's limit. Its hard limit
cannot follow (a process may lower it, never raise it again), so the parent stands in
for it: it reads the worker's CPU time from ``/proc`` while it waits and sends SIGKILL
``_HARD_GRACE`` seconds past the call's limit, which stops code that ignores SIGXCPU
too; an optional wall-clock backstop kills a worker that waits without using CPU. The
parent turns a worker that died into ``LimitExceeded`` (exit status 4) and forks a
fresh one for the next call. Because one process runs the calls in order, state the
target keeps between calls (caches, a Z3 context) advances exactly as it would in place.

The limit only stops runaway work (the whole run then fails loudly); it never decides
what a call returns.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import resource
import selectors
import signal
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

from .cputime import AwakeClock, process_cpu_seconds
from .limits import (
    _HARD_GRACE,
    _MAX_REPLY,
    _STATE,
    ENV_CPU,
    ENV_MEMORY,
    LimitExceeded,
    Limits,
    _child_setup,
    _PipeText,
    _streams_before_fork,
)

__all__ = ["LimitedWorker"]

_HEADER = struct.Struct("<Q")
#: Seconds between two looks at a busy worker's CPU time (``_watch``).
_POLL_SECONDS = 0.5


def _read_exact(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd``, or None at end of file."""
    parts: list[bytes] = []
    while size:
        data = os.read(fd, min(size, 1 << 20))
        if not data:
            return None
        parts.append(data)
        size -= len(data)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class LimitedWorker:
    """Runs ``target(*args, **kwargs)`` calls in one forked worker process, each within
    ``cpu_seconds`` of CPU time; ``memory_mb`` bounds the worker's address space.

    Use as a context manager (or call ``close``): the worker ends with it, with this
    process (parent-death signal) and when its request pipe closes. Inside a worker
    already (``core.limits.in_worker``) or without ``fork``, calls run in place."""

    def __init__(self, target: Callable[..., Any], *, memory_mb: int | None = None) -> None:
        self.target = target
        self.memory_mb = memory_mb
        self._pid: int | None = None
        self._req_w = -1
        self._res_r = -1
        self._forwards: dict[int, Any] = {}
        self._owner = -1  # the process that forked the worker (only it may end it)
        self.forks = 0  # workers started (a figure for tests and benches)
        self._kill_at: float | None = None  # the worker's CPU seconds past which it is killed
        self._wall_deadline: float | None = None
        self._killed = ""  # why this process killed the worker: "cpu", "wall" or ""

    # --- the worker ------------------------------------------------------------------
    def _serve(self, req_r: int, res_w: int) -> None:  # pragma: no cover - in the child
        _child_setup(Limits(cpu_seconds=1e9, memory_mb=self.memory_mb))
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        while True:
            head = _read_exact(req_r, _HEADER.size)
            if head is None:
                return
            body = _read_exact(req_r, _HEADER.unpack(head)[0])
            if body is None:
                return
            args, kwargs, cpu = pickle.loads(body)
            usage = resource.getrusage(resource.RUSAGE_SELF)
            soft = max(1, math.ceil(usage.ru_utime + usage.ru_stime + cpu))
            hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
            if hard != resource.RLIM_INFINITY:
                soft = min(soft, hard)
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
            try:
                payload: tuple[str, Any] = ("ok", self.target(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the parent
                payload = ("err", exc)
            try:
                data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - an unpicklable result is our bug
                data = pickle.dumps(
                    ("err", RuntimeError(f"the worker's {payload[0]} could not be sent: {exc}"))
                )
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(BaseException):  # noqa: BLE001 - a closed reader
                    stream.flush()
            _write_all(res_w, _HEADER.pack(len(data)) + data)

    def _start(self) -> None:
        forward = _streams_before_fork()
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        pipes = {name: os.pipe() for name, _ in forward}
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            code = 0
            try:
                os.close(req_w)
                os.close(res_r)
                _STATE["in_worker"] = True
                for name, (r, w) in pipes.items():
                    os.close(r)
                    text = _PipeText(
                        os.fdopen(w, "wb"), encoding="utf-8", errors="replace", line_buffering=True
                    )
                    setattr(sys, name, text)
                self._serve(req_r, res_w)
            except BaseException:  # noqa: BLE001
                code = 70
            finally:
                os._exit(code)
        os.close(req_r)
        os.close(res_w)
        for _, (_, w) in pipes.items():
            os.close(w)
        self._pid, self._req_w, self._res_r = pid, req_w, res_r
        self._owner = os.getpid()
        self._forwards = {pipes[name][0]: stream for name, stream in forward}
        self.forks += 1

    # --- calls -------------------------------------------------------------------------
    def call(
        self,
        *args: Any,
        cpu_seconds: float,
        what: str,
        wall_deadline: float | None = None,
        **kwargs: Any,
    ) -> Any:
        """``target(*args, **kwargs)`` in the worker within ``cpu_seconds`` more CPU
        seconds: its result, its exception re-raised here, or ``LimitExceeded`` when the
        kernel (or this process, see ``_reply``) stopped the worker, which is then
        replaced on the next call. ``wall_deadline`` (a ``time.monotonic()`` value) is a
        backstop for work that waits without using CPU: past it the worker is killed."""
        if _STATE["in_worker"] or not hasattr(os, "fork"):
            return self.target(*args, **kwargs)
        if self._pid is None:
            self._start()
        assert self._pid is not None
        start = process_cpu_seconds(self._pid)
        # the kernel's SIGXCPU comes at the soft limit (the CPU used so far + the call's
        # limit, rounded up); the SIGKILL this process sends comes _HARD_GRACE later
        self._kill_at = None if start is None else math.ceil(start + cpu_seconds) + _HARD_GRACE
        self._wall_deadline = wall_deadline
        # the backstop counts the worker's awake time: a worker starved of CPU by a loaded
        # machine is not stuck (core/cputime.py AwakeClock)
        self._awake = AwakeClock(self._pid)
        self._killed = ""
        body = pickle.dumps((args, kwargs, cpu_seconds), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            _write_all(self._req_w, _HEADER.pack(len(body)) + body)
            data = self._reply()
        except BaseException:
            self.close()  # interrupted or dead: its state is unknown
            raise
        if data is None:
            self._died(cpu_seconds, what)
        kind, value = pickle.loads(data)  # type: ignore[arg-type]
        if kind == "err":
            raise value
        return value

    def _watch(self) -> None:
        """Kill the worker when it is past the call's CPU limit + _HARD_GRACE (it goes
        on only when its code ignores SIGXCPU: the soft limit is the kernel's, and the
        hard one cannot follow it up from call to call) or past the wall-clock backstop
        (counted in the worker's awake time)."""
        pid = self._pid
        if pid is None or self._killed:
            return
        if self._kill_at is not None:
            used = process_cpu_seconds(pid)
            if used is not None and used >= self._kill_at:
                self._killed = "cpu"
        deadline = self._wall_deadline
        if not self._killed and deadline is not None and self._awake.past(deadline):
            self._killed = "wall"
        if self._killed:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def _reply(self) -> bytes | None:
        """The next reply, forwarding the worker's output meanwhile; None if it died."""
        buf = bytearray()
        need: int | None = None
        watched = time.monotonic()
        sel = selectors.DefaultSelector()
        try:
            sel.register(self._res_r, selectors.EVENT_READ)
            for fd in self._forwards:
                sel.register(fd, selectors.EVENT_READ)
            while need is None or len(buf) < need:
                events = sel.select(_POLL_SECONDS)
                if not events or time.monotonic() >= watched + _POLL_SECONDS:
                    self._watch()  # also while the worker keeps printing
                    watched = time.monotonic()
                for key, _ in events:
                    data = os.read(key.fd, 1 << 16)
                    if key.fd != self._res_r:
                        if data:
                            self._forward(key.fd, data)
                        else:
                            sel.unregister(key.fd)
                        continue
                    if not data:
                        self._drain(sel)
                        return None
                    buf += data
                    if need is None and len(buf) >= _HEADER.size:
                        need = _HEADER.size + _HEADER.unpack(bytes(buf[: _HEADER.size]))[0]
                        if need > _MAX_REPLY:
                            raise LimitExceeded(
                                f"a result larger than {_MAX_REPLY >> 20} MB",
                                expected="a smaller input",
                            )
            self._drain(sel)
        finally:
            sel.close()
        return bytes(buf[_HEADER.size :])

    def _forward(self, fd: int, data: bytes) -> None:
        stream = self._forwards[fd]
        stream.write(data.decode("utf-8", "replace"))
        stream.flush()

    def _drain(self, sel: selectors.BaseSelector) -> None:
        """Forward output the worker wrote before its reply (already in the pipes)."""
        while True:
            ready = [key.fd for key, _ in sel.select(0) if key.fd != self._res_r]
            if not ready:
                return
            for fd in ready:
                data = os.read(fd, 1 << 16)
                if data:
                    self._forward(fd, data)
                else:
                    sel.unregister(fd)

    def _died(self, cpu_seconds: float, what: str) -> None:
        """Reap the dead worker and raise the error that says why it ended."""
        pid = self._pid
        self._pid = None
        self._close_fds()
        assert pid is not None
        _, status, usage = os.wait4(pid, 0)
        used = usage.ru_utime + usage.ru_stime
        if self._killed == "wall":
            raise LimitExceeded(
                f"{what} was still running past its wall-clock backstop after {used:.1f} "
                "CPU seconds (waiting on something without using CPU), and was killed",
                expected="work that finishes, or a larger limit",
            )
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig == signal.SIGXCPU or self._killed == "cpu":
                raise LimitExceeded(
                    f"{what} was stopped at its limit of {cpu_seconds:g} CPU seconds",
                    expected="a smaller input, or a larger limit (--cpu-limit SECONDS on "
                    f"the puzzleforge command, or {ENV_CPU})",
                )
            raise LimitExceeded(
                f"{what} was ended by signal {signal.Signals(sig).name} after {used:.1f} CPU "
                "seconds (the machine may have run out of memory)",
                expected="a smaller input, or more memory (--memory-limit MB on the "
                f"puzzleforge command, or {ENV_MEMORY})",
            )
        raise LimitExceeded(
            f"{what} ended without a result (exit status {os.WEXITSTATUS(status)}, "
            f"{used:.1f} CPU seconds)",
            expected="a smaller input",
        )

    # --- the end -----------------------------------------------------------------------
    def _close_fds(self) -> None:
        for fd in (self._req_w, self._res_r, *self._forwards):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._req_w = self._res_r = -1
        self._forwards = {}

    def close(self) -> None:
        """End the worker (its request pipe closes; SIGKILL if it does not go) and reap it."""
        pid = self._pid
        if pid is None or os.getpid() != self._owner:
            return  # no worker, or a copy of this object in another forked process
        self._pid = None
        self._close_fds()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)

    def __enter__(self) -> LimitedWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # a forgotten worker must not outlive its owner
        with contextlib.suppress(Exception):
            self.close()
