"""A warm pool of killable worker processes for the web app's short calls (checks, hints).

Why a pool: a check or a hint is a few milliseconds of engine work, but starting a fresh
worker for it (web/workers.py: fork server round trip, unpickling, first imports) cost
about 0.3 s on an idle machine and over a second on a loaded one, every click. The pool
keeps ``size`` workers started from the same fork server (engines preloaded) and hands
each call to an idle one, so a call costs a pipe round trip.

Why it stays bounded: before each call the worker sets its soft ``RLIMIT_CPU`` to the CPU
time it has used so far plus the call's limit (the kernel's SIGXCPU ends it there, even
inside C), and the parent kills it at the call's wall-clock deadline. A worker that
overran, died or answered garbage is killed and replaced in the background; the request
gets 503 and the server goes on. Workers are retired after ``max_calls`` calls so memory
a call left behind does not accumulate. The limit only stops runaway work; it never
decides what a successful answer contains.
"""

from __future__ import annotations

import contextlib
import math
import resource
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from ..core.limits import Limits, _child_setup
from .errors import WebError

__all__ = ["WarmPool"]


def _serve(conn: Any, memory_mb: int | None) -> None:  # pragma: no cover - in the worker
    """The worker's loop: receive ``(fn, args, kwargs, cpu_seconds)``, run it under the
    CPU limit, send back ("ok", result) or ("err", exception); stop at end of pipe."""
    # The generous first CPU limit is replaced before every call; the memory limit and
    # the parent-death signal stay for the worker's life.
    _child_setup(Limits(cpu_seconds=1e9, memory_mb=memory_mb))
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)  # the kernel's limit ends the worker
    while True:
        try:
            fn, args, kwargs, cpu_seconds = conn.recv()
        except (EOFError, OSError):
            return
        usage = resource.getrusage(resource.RUSAGE_SELF)
        used = usage.ru_utime + usage.ru_stime
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = math.ceil(used + max(cpu_seconds, 0.0)) + 1
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        run_and_send(conn, fn, args, kwargs)


def run_and_send(conn: Any, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
    """Run ``fn`` and send ("ok", result) or ("err", exception) through ``conn``: the one
    reply protocol of the warm workers here and the one-shot workers of web/workers.py."""
    try:
        payload: tuple[str, Any] = ("ok", fn(*args, **kwargs))
    except BaseException as exc:  # noqa: BLE001 - handed to the parent
        payload = ("err", exc)
    try:
        conn.send(payload)
    except Exception as exc:  # noqa: BLE001 - an unpicklable result is our bug
        conn.send(("err", RuntimeError(f"the worker's result could not be sent back: {exc}")))


class _Worker:
    """One pool process and the parent's end of its pipe."""

    def __init__(self, ctx: Any, memory_mb: int | None) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(
            target=_serve, args=(child, memory_mb), daemon=True, name="pf-web-warm"
        )
        self.proc.start()
        child.close()
        self.calls = 0

    def kill(self) -> None:
        """End the process now and reap it (never blocks for long: SIGKILL)."""
        with contextlib.suppress(OSError):
            self.conn.close()
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5.0)


class WarmPool:
    """``size`` warm worker processes; ``run`` hands a call to an idle one under a CPU and
    wall-clock limit. ``context`` returns the multiprocessing context to start them from
    (the web app's fork server with the engines preloaded)."""

    def __init__(
        self,
        context: Callable[[], Any],
        size: int = 2,
        memory_mb: int | None = 4096,
        queue_seconds: float = 10.0,
        max_calls: int = 500,
    ) -> None:
        self._context = context
        self.size = size
        self.memory_mb = memory_mb
        self.queue_seconds = queue_seconds
        self.max_calls = max_calls
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting = 0
        self._cond = threading.Condition()
        self._closed = False
        self.replaced = 0  # workers killed and replaced (a figure for tests and benches)

    # --- workers -------------------------------------------------------------------
    def _start_one(self) -> None:
        """Start a worker (seconds the first time: the fork server imports the engines)
        and make it idle; the caller has counted it in ``_starting``."""
        worker: _Worker | None = None
        try:
            worker = _Worker(self._context(), self.memory_mb)
        finally:
            with self._cond:
                self._starting -= 1
                if worker is not None:
                    if self._closed:
                        worker.kill()
                    else:
                        self._idle.append(worker)
                self._cond.notify_all()

    def _replace_in_background(self) -> None:
        with self._cond:
            if self._closed:
                return
            self._starting += 1
        threading.Thread(target=self._start_safely, name="pf-web-warm-start", daemon=True).start()

    def _start_safely(self) -> None:
        # a failed start is not fatal: the next call starts a worker itself (or says why)
        with contextlib.suppress(Exception):
            self._start_one()

    def warm_up(self) -> None:
        """Start the missing workers in the background (the first request need not wait)."""
        with self._cond:
            missing = self.size - len(self._idle) - len(self._busy) - self._starting
        for _ in range(max(0, missing)):
            self._replace_in_background()

    def _acquire(self, wait: float) -> _Worker:
        deadline = time.monotonic() + wait
        start_here = False
        with self._cond:
            while True:
                if self._closed:
                    raise WebError("the server is shutting down", 503)
                if self._idle:
                    worker = self._idle.pop()
                    self._busy.add(worker)
                    return worker
                if len(self._busy) + self._starting < self.size:
                    self._starting += 1
                    start_here = True
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WebError(
                        "the server is busy with other puzzles; try again in a moment", 503
                    )
                self._cond.wait(left)
        if start_here:
            self._start_one()
        return self._acquire(max(0.0, deadline - time.monotonic()))

    def _release(self, worker: _Worker, healthy: bool) -> None:
        worker.calls += 1
        retire = not healthy or worker.calls >= self.max_calls
        with self._cond:
            self._busy.discard(worker)
            if not retire and not self._closed:
                self._idle.append(worker)
                self._cond.notify_all()
                return
        worker.kill()
        if not healthy:
            self.replaced += 1
        self._replace_in_background()

    # --- calls ---------------------------------------------------------------------
    def run(
        self,
        fn: Callable[..., Any],
        args: tuple,
        kwargs: dict,
        *,
        seconds: float,
        what: str = "this request",
    ) -> Any:
        """``fn(*args, **kwargs)`` in a warm worker within ``seconds`` of CPU and
        wall-clock time: its result, its exception re-raised here, or WebError 503 when
        the limit stopped it or no worker freed up within ``queue_seconds``. ``fn`` and
        its arguments must pickle (module-level functions, plain data)."""
        worker = self._acquire(self.queue_seconds)
        healthy = False
        deadline = time.monotonic() + seconds
        try:
            worker.conn.send((fn, args, kwargs, seconds))
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WebError(
                        f"{what} took longer than this server's limit of "
                        f"{seconds:g} s and was stopped; try a smaller puzzle",
                        503,
                    )
                if worker.conn.poll(min(left, 0.5)):
                    break
                if not worker.proc.is_alive() and not worker.conn.poll(0):
                    raise EOFError
            kind, value = worker.conn.recv()
            healthy = True
        except (EOFError, OSError):
            worker.proc.join(1.0)
            raise WebError(
                f"{what} was stopped by the server's CPU or memory limit (exit status "
                f"{worker.proc.exitcode}); try a smaller puzzle",
                503,
            ) from None
        finally:
            self._release(worker, healthy)
        if kind == "err":
            raise value
        return value

    def pids(self) -> list[int]:
        """Process ids of the live workers (idle and busy), for tests and benches."""
        with self._cond:
            workers = [*self._idle, *self._busy]
        return [w.proc.pid for w in workers if w.proc.pid is not None]

    def shutdown(self) -> None:
        """Kill every worker (the server is stopping)."""
        with self._cond:
            self._closed = True
            workers = [*self._idle, *self._busy]
            self._idle.clear()
            self._cond.notify_all()
        for worker in workers:
            worker.kill()
