"""Engine work of the web app in killable worker processes, each under a deadline.

Why processes: a solve, a generation or an explanation can run for minutes inside C (a
SAT call, Z3, a big-integer loop) where a thread can be neither interrupted nor killed;
with threads, two stuck jobs pinned both job workers and 41 stuck ``explain`` requests
took every request thread of the server. A process can be killed: each call runs in a
fresh worker forked from a clean fork server (``multiprocessing`` "forkserver", started
once with the engines preloaded, so a call costs milliseconds and never inherits a lock
another server thread held), under ``RLIMIT_CPU``/``RLIMIT_AS`` and a wall-clock deadline
after which the parent kills it and answers 503. At most ``slots`` calls run at once; a
call that finds every slot busy for more than ``queue_seconds`` is refused with 503 at once,
so waiting requests never exhaust the server's threads.

The deadline only stops runaway work (the request fails loudly); it never decides what a
successful answer contains.
"""

from __future__ import annotations

import functools
import multiprocessing
import threading
import time
from collections.abc import Callable
from typing import Any

from ..core.limits import Limits, _child_setup
from .errors import WebError
from .warmpool import WarmPool, run_and_send

__all__ = ["EngineWorkers", "PRELOAD"]

#: Modules the fork server imports once, so each worker starts with the engines loaded.
PRELOAD = [
    "puzzleforge.web.grid_adapter",
    "puzzleforge.web.zebra_adapter",
    "puzzleforge.web.crossnumber_adapter",
    "puzzleforge.web.datasets",
]

_CONTEXT: dict[str, Any] = {}
_CONTEXT_LOCK = threading.Lock()


def _context() -> Any:
    with _CONTEXT_LOCK:
        if "ctx" not in _CONTEXT:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(PRELOAD)
            _CONTEXT["ctx"] = ctx
        return _CONTEXT["ctx"]


def _worker(
    conn: Any,
    fn: Callable[..., Any],
    args: tuple,
    kwargs: dict,
    limits: Limits,
    with_progress: bool,
) -> None:  # pragma: no cover - in the worker
    """Run ``fn`` (with a ``progress`` callback that reports through ``conn`` when asked);
    send back ("ok", result) or ("err", exception)."""
    _child_setup(limits)

    def progress(fraction: float, message: str) -> None:
        conn.send(("progress", float(fraction), str(message)))

    if with_progress:
        kwargs = {**kwargs, "progress": progress}
    run_and_send(conn, fn, args, kwargs)
    conn.close()


class EngineWorkers:
    """Runs engine calls in worker processes: ``slots`` at a time, each within
    ``seconds`` of wall-clock time and CPU time, ``memory_mb`` of memory."""

    def __init__(
        self,
        slots: int = 2,
        seconds: float = 120.0,
        memory_mb: int = 4096,
        queue_seconds: float = 10.0,
        request_threads: int = 8,
        warm_workers: int = 2,
    ) -> None:
        self._slots = threading.BoundedSemaphore(slots)
        self.seconds = seconds
        self.memory_mb = memory_mb
        self.queue_seconds = queue_seconds
        self._live: set[Any] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.request_threads = request_threads
        self._limiter: Any = None
        #: warm workers for short calls (checks, hints): no process start per call
        self.warm = WarmPool(_context, warm_workers, memory_mb, queue_seconds)

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        what: str = "this request",
        progress: Callable[[float, str], None] | None = None,
        seconds: float | None = None,
        warm: bool = False,
        **kwargs: Any,
    ) -> Any:
        """``fn(*args, **kwargs)`` in a worker (with ``progress=`` a callback forwarding to
        ``progress`` when one is given); its result, or its exception
        re-raised here, or WebError 503 when the deadline passed or no slot freed up.
        ``fn`` and its arguments must pickle (module-level functions, plain data).
        ``warm``: a short call without progress, run by a worker of the warm pool
        (web/warmpool.py) under the same CPU and wall-clock limit, not a fresh process."""
        limit = float(seconds or self.seconds)
        if warm and self.warm.size > 0:
            if self._closed:
                raise WebError("the server is shutting down", 503)
            return self.warm.run(fn, args, kwargs, seconds=limit, what=what)
        if not self._slots.acquire(timeout=self.queue_seconds):
            raise WebError("the server is busy with other puzzles; try again in a moment", 503)
        try:
            return self._run(fn, args, kwargs, what, progress, limit)
        finally:
            self._slots.release()

    def _run(
        self,
        fn: Callable[..., Any],
        args: tuple,
        kwargs: dict,
        what: str,
        progress: Callable[[float, str], None] | None,
        limit: float,
    ) -> Any:
        if self._closed:
            raise WebError("the server is shutting down", 503)
        ctx = _context()
        receiver, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(
            target=_worker,
            daemon=True,
            name="pf-web-engine",
            args=(
                sender,
                fn,
                args,
                kwargs,
                Limits(cpu_seconds=limit, memory_mb=self.memory_mb),
                progress is not None,
            ),
        )
        with self._lock:
            proc.start()
            self._live.add(proc)
        sender.close()
        deadline = time.monotonic() + limit
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WebError(
                        f"{what} took longer than this server's limit of "
                        f"{limit:g} s and was stopped; try a smaller puzzle",
                        503,
                    )
                if not receiver.poll(min(left, 0.5)):
                    if not proc.is_alive() and not receiver.poll(0):
                        raise WebError(
                            f"{what} was stopped by the server's CPU or memory "
                            f"limit (exit status {proc.exitcode}); try a smaller "
                            "puzzle",
                            503,
                        )
                    continue
                try:
                    message = receiver.recv()
                except EOFError:
                    proc.join(1.0)
                    raise WebError(
                        f"{what} was stopped by the server's CPU or memory "
                        f"limit (exit status {proc.exitcode}); try a smaller "
                        "puzzle",
                        503,
                    ) from None
                if message[0] == "progress":
                    if progress is not None:
                        progress(message[1], message[2])
                    continue
                if message[0] == "err":
                    raise message[1]
                return message[1]
        finally:
            receiver.close()
            if proc.is_alive():
                proc.kill()
            proc.join(5.0)
            with self._lock:
                self._live.discard(proc)

    def warm_up(self) -> None:
        """Start the fork server now, in the background (it imports the engines once, a
        few seconds), so the first request does not wait for it."""

        def start() -> None:
            try:
                _context()
                from multiprocessing import forkserver

                forkserver.ensure_running()
                self.warm.warm_up()
            except Exception:  # noqa: BLE001 - the first call will start it (or say why)
                pass

        threading.Thread(target=start, name="pf-web-forkserver", daemon=True).start()

    async def run_async(
        self, fn: Callable[..., Any], *args: Any, what: str = "this request", **kwargs: Any
    ) -> Any:
        """``run`` from an async endpoint, on a thread of this object's own anyio
        CapacityLimiter (``request_threads``), so waiting engine requests never take the
        threads the server's other requests run on; 503 at once when all are waiting."""
        import asyncio

        import anyio
        import anyio.to_thread

        loop = asyncio.get_running_loop()
        if self._limiter is None or self._limiter[0] is not loop:  # one per event loop
            self._limiter = (loop, anyio.CapacityLimiter(self.request_threads))
        limiter = self._limiter[1]
        if limiter.available_tokens < 1:
            raise WebError("the server is busy with other puzzles; try again in a moment", 503)
        call = functools.partial(self.run, fn, *args, what=what, **kwargs)
        return await anyio.to_thread.run_sync(call, limiter=limiter)

    def shutdown(self) -> None:
        """Kill every running worker (the server is stopping)."""
        self._closed = True
        self.warm.shutdown()
        with self._lock:
            live = list(self._live)
        for proc in live:
            if proc.is_alive():
                proc.kill()
