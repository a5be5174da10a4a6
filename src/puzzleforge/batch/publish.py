"""Turn a completed run's journal into the output people use: files, card, split counts.

Why only at the end: the output is replaced only when the run completes, so a failed or
killed run never destroys an earlier dataset; until then every record is in the journal
(batch/resume.py). JSONL: the journal is renamed over the output (keeping a replaced
file's permissions), plus one file per split; Parquet: shards written from the journal.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

import orjson

from ..core.safeoutput import fsync_dir
from .card import write_card
from .job import BatchJob
from .resume import OutputFiles
from .sinks import write_parquet, write_split_jsonl
from .summary import Summary

__all__ = ["publish"]


def publish(job: BatchJob, files: OutputFiles, summary: Summary) -> None:
    """Write the final output of a completed run from its journal; fills in the summary's
    ``per_split``, ``files`` and ``card``."""
    journal, out = files.journal, files.out
    if job.splits:
        summary.per_split = _count_splits(journal)
    written: list[Path]
    if files.fmt == "parquet":
        written = write_parquet(journal, out)
    else:
        written = [out]
        if job.splits:
            written += list(write_split_jsonl(journal, out).values())
        with contextlib.suppress(FileNotFoundError):  # a replaced file keeps its permissions
            os.chmod(journal, stat.S_IMODE(os.stat(out).st_mode))
        os.replace(journal, out)
        fsync_dir(out.parent)
    summary.card = str(
        write_card(job, out, files.fmt, written, summary.per_component, summary.per_split)
    )
    summary.files = [str(p) for p in written]


def _count_splits(journal: Path) -> dict[str, int]:
    """Records per split (``meta.split``; "" for records without one)."""
    counts: dict[str, int] = {}
    with open(journal, "rb") as fh:
        for raw in fh:
            if raw.strip():
                split = str((orjson.loads(raw).get("meta") or {}).get("split", ""))
                counts[split] = counts.get(split, 0) + 1
    return counts
