"""The end-of-run report: counts, rejects by reason, throughput, wall and CPU time.

Why a dataclass with ``to_dict``: the CLI prints it as a table and writes the same numbers
as JSON next to the output, so scripts and people read one source of truth.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

__all__ = ["Summary", "ProgressState", "sidecar", "write_json_atomic"]


@dataclass
class ProgressState:
    """What a progress display needs (records in the dataset so far, not this run only)."""

    done: int
    total: int
    rejects: int
    elapsed: float
    written_this_run: int

    @property
    def rate(self) -> float:
        return self.written_this_run / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None


@dataclass
class Summary:
    output: str
    format: str
    backend: str
    workers: int
    seed: int
    requested: int
    records_total: int = 0
    records_written: int = 0
    resumed_from: int = 0
    items_attempted: int = 0
    rejects: dict[str, int] = field(default_factory=dict)
    per_component: dict[str, int] = field(default_factory=dict)
    per_split: dict[str, int] = field(default_factory=dict)
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    worker_cpu_seconds: float = 0.0
    worker_busy_seconds: float = 0.0  # wall time workers spent inside chunks
    files: list[str] = field(default_factory=list)
    card: str = ""  # the dataset card (README.md) written beside the data
    job: dict[str, Any] = field(default_factory=dict)

    @property
    def puzzles_per_second(self) -> float:
        return self.records_written / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["puzzles_per_second"] = round(self.puzzles_per_second, 3)
        data["wall_seconds"] = round(self.wall_seconds, 3)
        data["cpu_seconds"] = round(self.cpu_seconds, 3)
        data["worker_cpu_seconds"] = round(self.worker_cpu_seconds, 3)
        data["worker_busy_seconds"] = round(self.worker_busy_seconds, 3)
        return data

    def lines(self) -> list[str]:
        """Human-readable lines (the CLI prints these)."""
        out = [
            f"records: {self.records_total}/{self.requested} in {self.output}"
            + (
                f" ({self.records_written} written now, {self.resumed_from} already there)"
                if self.resumed_from
                else ""
            ),
            f"throughput: {self.puzzles_per_second:.1f} puzzles/s; wall {self.wall_seconds:.2f} s; "
            f"CPU {self.cpu_seconds:.2f} s ({self.workers} worker(s), {self.backend})",
        ]
        if self.rejects:
            out.append(
                "rejected: " + ", ".join(f"{k} {v}" for k, v in sorted(self.rejects.items()))
            )
        else:
            out.append("rejected: none")
        if len(self.per_component) > 1:
            out.append(
                "components: " + ", ".join(f"{k} {v}" for k, v in self.per_component.items())
            )
        if self.per_split:
            out.append(
                "splits: " + ", ".join(f"{k} {v}" for k, v in sorted(self.per_split.items()))
            )
        if self.card:
            out.append(f"dataset card: {self.card}")
        return out


def sidecar(out: Path, suffix: str) -> Path:
    """``a.jsonl`` -> ``a.<suffix>``; a Parquet directory ``data`` -> ``data.<suffix>``."""
    base = out.stem if out.suffix in (".jsonl", ".json", ".parquet") else out.name
    return out.with_name(f"{base}.{suffix}")


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through core.safeoutput (regular files only, complete or not at all)."""
    from ..core.safeoutput import write_atomic

    write_atomic(path, orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
