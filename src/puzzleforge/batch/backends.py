"""Where chunks run: inline (1 worker), a local process pool, or a Ray cluster.

Why one tiny interface (submit / next_done / close): the runner's ordered-commit loop,
dedupe, resume and summary are written once and cannot differ between backends, which is
what makes the output byte-identical for 1 worker, W workers and Ray.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from typing import TYPE_CHECKING, Any

from ..core.errors import BackendUnavailable, ConfigError
from .worker import ChunkResult, ChunkTask, run_chunk

if TYPE_CHECKING:  # imported by the pool alone: a 1-worker run spares ~2 MB of modules
    import multiprocessing
    from concurrent.futures import Future

__all__ = [
    "Backend",
    "InlineBackend",
    "LocalPoolBackend",
    "RayBackend",
    "make_backend",
    "default_workers",
    "check_backend",
    "local_workers",
    "die_with_parent",
    "BACKENDS",
]

BACKENDS = ("local", "ray")


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - non-Linux
        return max(1, os.cpu_count() or 1)


def check_backend(backend: str, workers: int | None) -> None:
    """Clear errors for a bad backend name or worker count before anything starts."""
    if backend not in BACKENDS:
        raise ConfigError(
            f"unknown backend '{backend}'", field="--backend", expected="local or ray"
        )
    if workers is not None and workers < 1:
        raise ConfigError(
            f"--workers {workers}",
            field="--workers",
            expected="a number of processes >= 1 (omit it for all cores)",
        )


def local_workers(workers: int | None) -> int:
    """Processes of the local pool: ``workers`` capped at the cores this process may use.

    Why capped: the runs are CPU-bound, so more processes than cores only add memory and
    start-up time (1000 asked on 2 cores started 53 before), and the output does not depend
    on the worker count.
    """
    return min(workers or default_workers(), default_workers())


def die_with_parent(parent_pid: int) -> None:
    """Pool worker initializer: exit when the process that owns the pool is gone.

    Why: after ``kill -9`` of ``puzzleforge generate`` its workers kept running and kept the
    caller's pipes open. The kernel's parent-death signal (SIGKILL) is set, but a worker's
    parent is the fork server, and the fork server exits only when no client holds its
    "alive" pipe, which every worker does: so the watch thread is what ends them. It
    exits when the command is gone or a zombie (killed, not yet reaped by its caller),
    or when this worker was re-parented; the fork server and the resource tracker then
    end by themselves, and the caller's pipes reach end of file.
    """
    import signal
    import threading
    import time

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    ppid = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != ppid or not _alive(parent_pid):
                os._exit(1)

    threading.Thread(target=watch, name="puzzleforge-parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    """True while ``pid`` runs. A zombie counts as gone: a caller that reads the killed
    command's output to its end before it reaps the command (``communicate()``) would
    otherwise wait for ever on workers that wait for the reaping (Linux /proc)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - pid reused by another user's process
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):  # pragma: no cover - no /proc: not Linux
        return True
    return state not in (b"Z", b"X")


class Backend:
    """Run ChunkTasks; ``next_done`` returns (token, result) of some finished task."""

    workers: int = 1
    name: str = "inline"

    def submit(self, task: ChunkTask) -> int:
        raise NotImplementedError

    def next_done(self, timeout: float) -> tuple[int, ChunkResult] | None:
        raise NotImplementedError

    def close(self, cancel: bool = False) -> None:
        pass


class InlineBackend(Backend):
    """Runs tasks in this process, one at a time (no start-up cost, same bytes)."""

    def __init__(self) -> None:
        self._queue: deque[tuple[int, ChunkTask]] = deque()
        self._next = 0

    def submit(self, task: ChunkTask) -> int:
        self._next += 1
        self._queue.append((self._next, task))
        return self._next

    def next_done(self, timeout: float) -> tuple[int, ChunkResult] | None:
        if not self._queue:
            return None
        token, task = self._queue.popleft()
        return token, run_chunk(task)


def _warm() -> int:
    return os.getpid()


class LocalPoolBackend(Backend):
    """A process pool over the local cores (forkserver: no fork of a threaded parent)."""

    name = "local"

    def __init__(self, workers: int, preload: list[str] | None = None) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        ctx: multiprocessing.context.BaseContext
        try:
            ctx = multiprocessing.get_context("forkserver")
            # imported once in the fork server, so each worker starts with them loaded
            ctx.set_forkserver_preload(["puzzleforge.batch.worker", *(preload or [])])
        except ValueError:  # pragma: no cover - platforms without forkserver
            ctx = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=ctx,
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )
        self._futures: dict[Future, int] = {}
        self._next = 0

    def submit(self, task: ChunkTask) -> int:
        self._next += 1
        self._futures[self._pool.submit(run_chunk, task)] = self._next
        return self._next

    def next_done(self, timeout: float) -> tuple[int, ChunkResult] | None:
        if not self._futures:
            return None
        from concurrent.futures import FIRST_COMPLETED, wait

        done, _ = wait(list(self._futures), timeout=timeout, return_when=FIRST_COMPLETED)
        if not done:
            return None
        future = next(iter(done))
        token = self._futures.pop(future)
        return token, future.result()

    def close(self, cancel: bool = False) -> None:
        if cancel:
            # chunks already running would finish first: stop their processes instead. The
            # pool then marks every pending future broken by itself (cancelling them first
            # trips CPython's executor manager thread: InvalidStateError on a cancelled future)
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                if process.is_alive():
                    process.terminate()
            self._pool.shutdown(wait=True)
            return
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayBackend(Backend):
    """The same chunks as Ray tasks (``address='auto'`` joins a cluster; None starts one)."""

    name = "ray"

    def __init__(self, workers: int | None, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendUnavailable(
                "the Ray backend needs the 'ray' package",
                hint='Install it with: pip install "puzzleforge[ray]"',
            ) from None
        self._ray = ray
        self._owns = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if address:
                kwargs["address"] = address
            elif workers:
                kwargs["num_cpus"] = workers
            try:
                ray.init(**kwargs)
            except Exception as exc:  # noqa: BLE001 - Ray raises several types here
                raise BackendUnavailable(
                    f"cannot start or join a Ray cluster"
                    f"{' at ' + address if address else ''} ({type(exc).__name__}: {exc})",
                    hint="Start one with `ray start --head`, or omit --ray-address to run a "
                    "local cluster",
                ) from None
            self._owns = True
        self.workers = int(ray.cluster_resources().get("CPU", workers or 1))
        self._remote = ray.remote(num_cpus=1, max_retries=2)(run_chunk)
        self._refs: dict[Any, int] = {}
        self._next = 0

    def submit(self, task: ChunkTask) -> int:
        self._next += 1
        self._refs[self._remote.remote(task)] = self._next
        return self._next

    def next_done(self, timeout: float) -> tuple[int, ChunkResult] | None:
        if not self._refs:
            return None
        ready, _ = self._ray.wait(list(self._refs), num_returns=1, timeout=timeout)
        if not ready:
            return None
        ref = ready[0]
        token = self._refs.pop(ref)
        return token, self._ray.get(ref)

    def close(self, cancel: bool = False) -> None:
        if cancel:
            for ref in self._refs:
                # best effort on shutdown: a task that already ended cannot be cancelled
                with contextlib.suppress(Exception):  # noqa: BLE001
                    self._ray.cancel(ref, force=True)
        self._refs.clear()
        if self._owns:
            self._ray.shutdown()


def make_backend(
    backend: str,
    workers: int | None,
    ray_address: str | None = None,
    preload: list[str] | None = None,
) -> Backend:
    """Backend by name; ``workers`` None means all cores; ``preload``: modules to import in
    the local fork server (the families' modules)."""
    check_backend(backend, workers)
    if backend == "ray":
        return RayBackend(workers, ray_address)
    count = local_workers(workers)
    if count <= 1:
        return InlineBackend()
    return LocalPoolBackend(count, preload)
