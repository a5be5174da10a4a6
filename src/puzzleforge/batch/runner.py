"""Run a BatchJob: check the options, lock the output, dispatch, publish, summarise.

Why a thin runner: each step is a module with one job. ``outputlock.py`` keeps one writer
per output; ``resume.py`` owns the journal and the job file that make ``--resume``
continue exactly the run that was started; ``dispatch.py`` sends chunks to a backend and
commits their records in index order (byte-identical output for 1 worker, W workers and
Ray); ``publish.py`` turns the completed journal into the output files and card. A crash
loses at most the chunks in flight or waiting; ``--resume`` continues after the last
committed index.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..core.cputime import cpu_seconds
from ..core.errors import ConfigError, PuzzleForgeError
from ..core.safeoutput import check_output_dir, check_output_path
from .backends import check_backend, make_backend
from .dispatch import (
    BAD_ITEMS_LIMIT,
    FAILED_ITEMS_LIMIT,
    Dispatcher,
    ProgressCallback,
    RecordsCallback,
)
from .job import BatchJob
from .outputlock import output_lock
from .publish import publish
from .resume import (
    OutputFiles,
    check_resume,
    drop_empty_start,
    job_fingerprint,
    journal_path,
    open_journal,
)
from .sinks import JsonlJournal
from .summary import Summary, sidecar, write_json_atomic

__all__ = [
    "run_batch",
    "journal_path",
    "check_run_options",
    "FAILED_ITEMS_LIMIT",
    "BAD_ITEMS_LIMIT",
    "MAX_CHUNK_SIZE",
]

#: Largest --chunk-size (items a worker takes at once); the automatic size stays <= 256.
MAX_CHUNK_SIZE = 100_000


def check_run_options(fmt: str, backend: str, workers: int | None, chunk_size: int | None) -> None:
    """Every run option checked before any file is touched (a failed start leaves nothing)."""
    if fmt not in ("jsonl", "parquet"):
        raise ConfigError(f"unknown format '{fmt}'", field="--format", expected="jsonl or parquet")
    check_backend(backend, workers)
    if chunk_size is not None and not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise ConfigError(
            f"--chunk-size {chunk_size}",
            field="--chunk-size",
            expected=f"a whole number of items from 1 to {MAX_CHUNK_SIZE}",
        )


def run_batch(
    job: BatchJob,
    out: str | Path,
    *,
    fmt: str = "jsonl",
    workers: int | None = None,
    backend: str = "local",
    resume: bool = False,
    ray_address: str | None = None,
    chunk_size: int | None = None,
    on_progress: ProgressCallback | None = None,
    on_records: RecordsCallback | None = None,
) -> Summary:
    """Generate ``job`` into ``out``; returns the Summary (also written as JSON beside it).

    ``fmt`` is ``jsonl`` (``out`` is the file) or ``parquet`` (``out`` is a directory of
    ``<split>-NNNNN-of-NNNNN.parquet`` shards). ``workers`` None means all cores.

    Records go to a journal (``<out>.partial`` for JSONL, ``<out>.journal.jsonl`` for
    Parquet) fsynced per chunk, so ``kill -9`` keeps them for ``--resume``; ``out`` itself is
    replaced only when the run completes, so a failed run never destroys an earlier dataset.
    ``on_records`` receives the records as they are committed (``spec generate`` prints
    them to stdout as they come).
    """
    out = Path(out)
    check_run_options(fmt, backend, workers, chunk_size)
    if fmt == "jsonl":
        out = check_output_path(out)
    else:
        check_output_dir(out)
    families = job.validate()
    out.parent.mkdir(parents=True, exist_ok=True)
    with output_lock(out):
        return _run_locked(
            job,
            families,
            OutputFiles.of(out, fmt),
            workers,
            backend,
            resume,
            ray_address,
            chunk_size,
            on_progress,
            on_records,
        )


def _run_locked(
    job: BatchJob,
    families: list[Any],
    files: OutputFiles,
    workers: int | None,
    backend: str,
    resume: bool,
    ray_address: str | None,
    chunk_size: int | None,
    on_progress: ProgressCallback | None,
    on_records: RecordsCallback | None = None,
) -> Summary:
    """The run itself, with the output locked: every file it writes is beside ``out``."""
    wall0, cpu0 = time.monotonic(), time.process_time()
    tree_cpu0 = cpu_seconds()  # with children: the inline backend's sandboxed spec workers
    out = files.out
    fingerprint = job_fingerprint(job, families)
    continuing = check_resume(files, resume, fingerprint)
    preload = sorted({type(f).__module__ for f in families} - {"__main__"})
    # the backend starts before any file is written: a backend that cannot start (no Ray,
    # a bad --ray-address) is a failed start and leaves nothing behind
    chosen = make_backend(backend, workers, ray_address, preload)
    try:
        state = open_journal(files, job, fingerprint, continuing)
    except BaseException:
        chosen.close(cancel=True)
        raise
    summary = Summary(
        output=str(out),
        format=files.fmt,
        backend=chosen.name,
        workers=chosen.workers,
        seed=job.seed,
        requested=job.total,
        resumed_from=state.records,
        job=fingerprint,
    )
    sink = JsonlJournal(files.journal)
    run = Dispatcher(job, chosen, sink, summary, chunk_size, on_progress, on_records)
    run.seen = state.qkeys
    run.done = state.records
    for k, comp in enumerate(job.components):
        summary.per_component[comp.name or families[k].name] = state.counts.get(k, 0)
    completed = False
    try:
        for k, family in enumerate(families):
            run.run_component(k, family, state.counts.get(k, 0), state.last_index.get(k, -1) + 1)
        completed = True
    except PuzzleForgeError as exc:
        if files.fmt == "jsonl" and run.done:
            note = (
                f"{out} was left as it was; the {run.done} record(s) made so far are in "
                f"{files.journal} (--resume continues from them)"
            )
            exc.hint = f"{exc.hint.rstrip('.')}. {note}" if exc.hint else note
            exc.args = (exc._compose(),)
        raise
    finally:
        sink.close()
        chosen.close(cancel=not completed)
        if not completed and not continuing and run.done == 0:
            drop_empty_start(files)
    summary.records_total = run.done
    publish(job, files, summary)
    summary.wall_seconds = time.monotonic() - wall0
    summary.cpu_seconds = summary.worker_cpu_seconds + (time.process_time() - cpu0)
    if chosen.name == "inline":
        summary.cpu_seconds = cpu_seconds() - tree_cpu0
    write_json_atomic(sidecar(out, "summary.json"), summary.to_dict())
    return summary
