"""The files beside an output that make a run resumable: the journal and the job file.

Why a job file: ``--resume`` must continue exactly the run that was started (same
families, params, seed, recipe and splits), or the dataset would mix two runs; the job
file holds the start's fingerprint, and a resume with another command is refused. Why a
journal: records are appended there (fsynced per chunk), so ``kill -9`` loses at most the
chunks in flight; ``--resume`` cuts a torn last line, rebuilds the dedupe set and
continues after the last committed index. A job file with no journal beside it means the
run completed (the journal was renamed over the output).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .. import __version__
from ..core.errors import ConfigError
from ..core.safeoutput import partial_path
from .job import BatchJob, normalised_params
from .sinks import JournalState, scan_journal
from .summary import sidecar, write_json_atomic
from .worker import question_key

__all__ = [
    "OutputFiles",
    "journal_path",
    "job_fingerprint",
    "check_resume",
    "open_journal",
    "drop_empty_start",
]


def journal_path(out: Path, fmt: str) -> Path:
    """The JSONL file records are appended to: ``<out>.partial`` for JSONL (renamed over
    ``out`` when the run completes), ``<out>.journal.jsonl`` beside a Parquet directory."""
    return partial_path(out) if fmt == "jsonl" else sidecar(out, "journal.jsonl")


@dataclass(frozen=True)
class OutputFiles:
    """Where one run of ``fmt`` into ``out`` keeps its state."""

    out: Path
    fmt: str
    journal: Path
    job_file: Path
    #: a completed JSONL output (its journal renamed over it); None for Parquet
    finished: Path | None

    @classmethod
    def of(cls, out: Path, fmt: str) -> OutputFiles:
        return cls(
            out=out,
            fmt=fmt,
            journal=journal_path(out, fmt),
            job_file=sidecar(out, "job.json"),
            finished=out if fmt == "jsonl" else None,
        )


def job_fingerprint(job: BatchJob, families: list[Any]) -> dict[str, Any]:
    """The job's fingerprint with each component's params as its family normalises them
    (``n=08`` and ``n=8`` are the same run)."""
    fingerprint = job.fingerprint()
    for entry, family in zip(fingerprint["components"], families, strict=True):
        entry["params"] = normalised_params(family, entry["params"])
    return fingerprint


def check_resume(files: OutputFiles, resume: bool, fingerprint: dict[str, Any]) -> bool:
    """Whether this run continues an earlier one (True only with ``resume`` and a job file).

    Raises ConfigError, before anything is written, when ``--resume`` would mix runs: the
    job file names another command, or an output exists without a job file.
    """
    continuing = bool(resume and files.job_file.exists())
    if continuing:
        stored = orjson.loads(files.job_file.read_bytes())
        if stored.get("fingerprint") != fingerprint:
            raise ConfigError(
                "--resume: this output was started by a different command (family, params, "
                "seed, recipe or splits differ)",
                file=str(files.job_file),
                expected="the same command as the run being resumed, or no --resume to start over",
            )
    elif resume and any(
        p is not None and p.exists() and p.stat().st_size > 0
        for p in (files.journal, files.finished)
    ):
        raise ConfigError(
            "--resume: the output exists but has no job file beside it",
            file=str(files.job_file),
            expected="an output written by puzzleforge generate",
        )
    return continuing


def open_journal(
    files: OutputFiles,
    job: BatchJob,
    fingerprint: dict[str, Any],
    continuing: bool,
) -> JournalState:
    """Make the journal and job file ready to append to; returns what the journal holds.

    A fresh run drops an earlier run's journal and job file; continuing a completed JSONL
    run copies the output to the journal (more records are appended to the copy).
    """
    journal = files.journal
    if continuing:
        if not journal.exists() and files.finished is not None and files.finished.exists():
            _copy_durably(files.finished, journal)  # continue a completed run (more records)
    else:
        _clear_for_fresh_start(files)
    if not journal.exists():
        journal.touch()  # before the job file: a job file without journal means "completed"
    if not continuing:
        write_json_atomic(
            files.job_file,
            {
                "fingerprint": fingerprint,
                "requested": job.total,
                "format": files.fmt,
                "generator": f"puzzleforge {__version__}",
            },
        )
    component_of = {c.name: k for k, c in enumerate(job.components)}
    return scan_journal(journal, component_of, question_key)


def _clear_for_fresh_start(files: OutputFiles) -> None:
    """A run without --resume starts over: drop an earlier run's journal and job file.

    The finished output itself (and its summary) stay untouched until this run completes.
    """
    for path in (files.journal, files.job_file):
        if path.exists():
            path.unlink()


def drop_empty_start(files: OutputFiles) -> None:
    """A fresh run that failed before its first record leaves nothing behind (its journal
    is empty and a --resume would only start over)."""
    try:
        if files.journal.stat().st_size == 0:
            files.journal.unlink()
            files.job_file.unlink(missing_ok=True)
    except FileNotFoundError:
        pass


def _copy_durably(source: Path, target: Path) -> None:
    """Copy a finished output to the journal (fsynced) so resuming never edits it in place."""
    with open(source, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
        dst.flush()
        os.fsync(dst.fileno())
