"""Limits and locations of one web-app instance, in one frozen object.

Why explicit limits: the server accepts files and numbers from a browser; every size is
bounded here so a pasted 2 GB file or a 50x50 logic grid is refused with a message
instead of eating the machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["WebSettings"]


@dataclass(frozen=True)
class WebSettings:
    """Settings of a web-app instance (every field has a safe default).

    ``data_dir`` is the only folder whose ``.jsonl`` files the dataset page lists; a
    dataset is opened by its listed name, never by a path from the browser.
    """

    data_dir: Path | None = None
    max_upload_bytes: int = 64 * 1024 * 1024
    max_puzzle_file_bytes: int = 256 * 1024
    max_datasets_open: int = 8
    max_records: int = 200_000
    max_jobs: int = 32
    job_workers: int = 2
    solve_time_limit: float = 30.0
    #: wall-clock and CPU seconds of one engine call (solve, generate, explain) in its
    #: worker process (web/workers.py); past it the worker is killed and the answer is 503
    engine_seconds: float = 120.0
    engine_memory_mb: int = 4096
    #: wall-clock and CPU seconds of one check or hint (a play request) in its worker
    #: process; past it the worker is killed and the answer is 503
    play_seconds: float = 30.0
    #: warm worker processes kept for checks and hints (web/warmpool.py): a call is a pipe
    #: round trip instead of a process start; one that overruns is killed and replaced
    #: (0: a fresh worker process per check or hint, as before the pool)
    play_workers: int = 2
    #: engine calls running at once (more wait up to ``engine_queue_seconds``, then 503)
    engine_slots: int = 2
    engine_queue_seconds: float = 10.0
    #: request threads that may wait for engine calls (explain, paste a grid)
    engine_request_threads: int = 8
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]", "testserver")
    #: ``serve --trust``: the grid page may load grid genre files (Python code, run on the
    #: server when loaded); without it every genre-file upload is refused with the reason
    trust: bool = False
