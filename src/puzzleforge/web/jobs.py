"""Background jobs with progress, so a page can show a bar while a puzzle is generated.

The engine work of a job runs in a killable worker process (web/workers.py); the job
thread only waits for it, at most the engine deadline.

Why threads and polling: generation is CPU-bound but short (seconds); a small thread pool
keeps the server responsive and a ``GET /api/jobs/{id}`` poll needs no websocket or
extra asset. The number of jobs kept is bounded; the oldest finished ones are dropped.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .errors import WebError, error_payload

__all__ = ["Job", "JobStore", "Progress"]

#: A callback a job body calls with (fraction 0..1, short message).
Progress = Callable[[float, str], None]


@dataclass
class Job:
    id: str
    kind: str
    status: str = "running"  # running | done | failed
    progress: float = 0.0
    message: str = "starting"
    result: Any = None
    error: dict[str, Any] | None = None
    created: float = field(default_factory=time.monotonic)

    def view(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "status": self.status,
            "progress": round(self.progress, 3),
            "message": self.message,
        }
        if self.status == "done":
            data["result"] = self.result
        if self.status == "failed":
            data["error"] = self.error
        return data


class JobStore:
    """A bounded set of jobs run on a small thread pool."""

    def __init__(self, workers: int = 2, max_jobs: int = 32) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pf-web-job")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._max = max_jobs

    def submit(self, kind: str, body: Callable[[Progress], Any]) -> Job:
        """Start ``body(progress)`` in the background and return its job."""
        with self._lock:
            running = sum(1 for j in self._jobs.values() if j.status == "running")
            if running >= self._max:
                raise WebError("too many jobs are running; wait for one to finish", 429)
            self._evict()
            job = Job(id=uuid.uuid4().hex, kind=kind)
            self._jobs[job.id] = job

        def report(fraction: float, message: str) -> None:
            job.progress = max(job.progress, min(1.0, max(0.0, float(fraction))))
            job.message = message

        def run() -> None:
            try:
                job.result = body(report)
                job.progress, job.message, job.status = 1.0, "done", "done"
            except BaseException as exc:  # noqa: BLE001 - reported to the page, logged by payload
                job.error = error_payload(exc)["error"]
                job.message, job.status = "failed", "failed"
                if job.error["kind"] == "internal error":
                    import logging

                    logging.getLogger("puzzleforge.web").exception(
                        "job %s failed", job.id, exc_info=exc
                    )

        self._pool.submit(run)
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise WebError("no such job (it may have expired); generate again", 404)
        return job

    def _evict(self) -> None:
        finished = sorted(
            (j for j in self._jobs.values() if j.status != "running"), key=lambda j: j.created
        )
        while len(self._jobs) >= self._max and finished:
            self._jobs.pop(finished.pop(0).id, None)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
