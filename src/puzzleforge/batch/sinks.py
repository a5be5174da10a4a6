"""Where records go: an append-only JSONL journal (fsync per chunk), then standard formats.

Why a JSONL journal even for Parquet: Parquet files cannot be appended to, while a JSONL
file whose every committed chunk is flushed and fsynced survives ``kill -9`` with at most
a truncated last line, which ``scan_journal`` cuts off on ``--resume``. Parquet output is
written from the journal at the end, one shard per split, with ``solution``, ``params``,
``config``, ``meta`` (and family-specific extra fields) as JSON string columns so every
shard has the same schema and Hugging Face ``datasets`` loads them together.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..core.errors import BackendUnavailable, InvalidDescription

__all__ = [
    "JsonlJournal",
    "JournalState",
    "scan_journal",
    "iter_records",
    "write_parquet",
    "write_split_jsonl",
    "PARQUET_JSON_COLUMNS",
    "record_from_row",
]

#: Columns stored as JSON text in Parquet (their shape differs between families).
PARQUET_JSON_COLUMNS = ("solution", "params", "config", "meta", "extra")


class JsonlJournal:
    """Append records chunk by chunk; each ``commit`` is flushed and fsynced."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(path, "ab")  # noqa: SIM115 - closed in close()

    def commit(self, lines: list[str]) -> None:
        if not lines:
            return
        self._fh.write(("\n".join(lines) + "\n").encode("utf-8"))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()


@dataclass
class JournalState:
    """What a journal already holds: per component, count and last index; dedupe keys."""

    counts: dict[int, int] = field(default_factory=dict)
    last_index: dict[int, int] = field(default_factory=dict)
    qkeys: set[int] = field(default_factory=set)
    records: int = 0
    truncated_bytes: int = 0


def scan_journal(path: Path, component_of: dict[str, int], qkey: Any) -> JournalState:
    """Read a journal for ``--resume``: cut a torn last line, rebuild counts and dedupe keys.

    ``component_of`` maps ``meta.component`` (or "" for single-family runs) to its index.
    """
    state = JournalState()
    if not path.exists():
        return state
    _cut_torn_tail(path, state)
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                record = orjson.loads(raw)
                meta = record["meta"]
                comp = component_of[str(meta.get("component", ""))]
                index = int(meta["index"])
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                raise InvalidDescription(
                    "this line is not a record of the job being resumed",
                    file=str(path),
                    line=number,
                    expected="a journal written by the same generate command",
                ) from None
            state.counts[comp] = state.counts.get(comp, 0) + 1
            state.last_index[comp] = max(state.last_index.get(comp, -1), index)
            state.qkeys.add(qkey(record["question"]))
            state.records += 1
    return state


def _cut_torn_tail(path: Path, state: JournalState, block: int = 1 << 16) -> None:
    """Truncate the file after its last newline (a line cut by a crash), reading backwards."""
    with open(path, "rb+") as fh:
        size = fh.seek(0, os.SEEK_END)
        pos = size
        while pos > 0:
            start = max(0, pos - block)
            fh.seek(start)
            chunk = fh.read(pos - start)
            at = chunk.rfind(b"\n")
            if at >= 0:
                end = start + at + 1
                break
            pos = start
        else:
            end = 0
        if end < size:
            state.truncated_bytes = size - end
            fh.truncate(end)
            fh.flush()
            os.fsync(fh.fileno())


def iter_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line or row number, record) of a JSONL file, a Parquet file or a Parquet directory."""
    path = Path(path)
    if path.is_dir() or path.suffix == ".parquet":
        files = sorted(path.glob("*.parquet")) if path.is_dir() else [path]
        number = 0
        for file in files:
            try:
                import pyarrow.parquet as pq
            except ImportError:
                raise BackendUnavailable(
                    "reading Parquet needs pyarrow", hint='pip install "puzzleforge[parquet]"'
                ) from None
            import pyarrow as pa

            try:
                rows = pq.read_table(file).to_pylist()
            except (pa.ArrowException, OSError) as exc:
                raise InvalidDescription(
                    f"cannot read this Parquet file ({str(exc).rstrip('.')})",
                    file=str(file),
                    expected="a Parquet file written by puzzleforge generate --format parquet",
                ) from None
            for row in rows:
                number += 1
                try:
                    record = record_from_row(row)
                except (orjson.JSONDecodeError, TypeError, KeyError) as exc:
                    raise InvalidDescription(
                        f"row {number} does not hold a record ({type(exc).__name__}: {exc})",
                        file=str(file),
                        line=number,
                        expected="the columns puzzleforge writes (JSON text in solution, "
                        "params, config, meta, extra)",
                    ) from None
                yield number, record
        return
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                record = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise InvalidDescription(
                    f"not valid JSON ({exc})",
                    file=str(path),
                    line=number,
                    expected="one JSON object per line",
                ) from None
            if not isinstance(record, dict):
                raise InvalidDescription(
                    "a record must be a JSON object",
                    file=str(path),
                    line=number,
                    expected="one JSON object per line",
                )
            yield number, record


def _row(record: dict[str, Any]) -> dict[str, Any]:
    core = {
        "id",
        "family",
        "question",
        "answer",
        "difficulty",
        "seed",
        "solution",
        "params",
        "config",
        "meta",
    }
    extra = {k: v for k, v in record.items() if k not in core}
    meta = record.get("meta") or {}
    return {
        "id": record["id"],
        "family": record["family"],
        "question": record["question"],
        "answer": record["answer"],
        "difficulty": float(record.get("difficulty") or 0.0),
        "seed": int(record.get("seed") or 0),
        "index": int(meta.get("index", -1)),
        "split": str(meta.get("split", "")),
        "tier": str(meta.get("tier", "")),
        "solution": orjson.dumps(record.get("solution"), option=orjson.OPT_SORT_KEYS).decode(),
        "params": orjson.dumps(record.get("params") or {}, option=orjson.OPT_SORT_KEYS).decode(),
        "config": orjson.dumps(record.get("config") or {}, option=orjson.OPT_SORT_KEYS).decode(),
        "meta": orjson.dumps(meta, option=orjson.OPT_SORT_KEYS).decode(),
        "extra": orjson.dumps(extra, option=orjson.OPT_SORT_KEYS).decode(),
    }


def record_from_row(row: dict[str, Any]) -> dict[str, Any]:
    """Undo ``_row``: a Parquet row back to the JSONL record shape."""
    record: dict[str, Any] = {
        k: row[k] for k in ("id", "family", "question", "answer", "difficulty", "seed") if k in row
    }
    for key in ("solution", "params", "config", "meta"):
        value = row.get(key)
        record[key] = orjson.loads(value) if isinstance(value, str) else value
    extra = row.get("extra")
    if isinstance(extra, str):
        record.update(orjson.loads(extra))
    return record


#: The flat Parquet schema (nested fields as JSON strings), also listed in the dataset card.
PARQUET_COLUMNS = (
    ("id", "string"),
    ("family", "string"),
    ("question", "string"),
    ("answer", "string"),
    ("difficulty", "float64"),
    ("seed", "int64"),
    ("index", "int64"),
    ("split", "string"),
    ("tier", "string"),
    ("solution", "string"),
    ("params", "string"),
    ("config", "string"),
    ("meta", "string"),
    ("extra", "string"),
)


def write_parquet(journal: Path, out_dir: Path, *, rows_per_shard: int = 100_000) -> list[Path]:
    """Write the journal as ``<split>-00000-of-0000N.parquet`` shards (split 'train' if none)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BackendUnavailable(
            "Parquet output needs pyarrow", hint='pip install "puzzleforge[parquet]"'
        ) from None
    schema = pa.schema([(name, getattr(pa, dtype)()) for name, dtype in PARQUET_COLUMNS])
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.parquet.tmp"):  # left by a run killed while writing shards
        old.unlink()
    # stream: at most rows_per_shard rows per split in memory; shard totals known at the end
    buffers: dict[str, list[dict[str, Any]]] = {}
    parts: dict[str, list[Path]] = {}

    def flush(split: str) -> None:
        rows = buffers.pop(split, [])
        if rows:
            tmp = out_dir / f"{split}-{len(parts.setdefault(split, [])):05d}.parquet.tmp"
            pq.write_table(pa.Table.from_pylist(rows, schema=schema), tmp)
            parts[split].append(tmp)

    for _, record in iter_records(journal):
        row = _row(record)
        split = row["split"] or "train"
        buffers.setdefault(split, []).append(row)
        if len(buffers[split]) >= rows_per_shard:
            flush(split)
    for split in list(buffers):
        flush(split)
    # the earlier shards stay until every new one is complete
    names = {
        f"{split}-{s:05d}-of-{len(tmps):05d}.parquet"
        for split, tmps in parts.items()
        for s in range(len(tmps))
    }
    for old in out_dir.glob("*.parquet"):
        if old.name not in names:
            old.unlink()
    written = []
    for split, tmps in sorted(parts.items()):
        for s, tmp in enumerate(tmps):
            target = out_dir / f"{split}-{s:05d}-of-{len(tmps):05d}.parquet"
            os.replace(tmp, target)
            written.append(target)
    return written


def write_split_jsonl(journal: Path, out: Path | None = None) -> dict[str, Path]:
    """Write ``<stem>.<split>.jsonl`` next to ``out`` (default: the journal), one per split
    in meta.split, each through core.safeoutput (complete or untouched)."""
    from ..core.safeoutput import AtomicOutput

    base = out or journal
    handles: dict[str, Any] = {}
    writers: dict[str, AtomicOutput] = {}
    paths: dict[str, Path] = {}
    failed: BaseException | None = None
    try:
        with open(journal, "rb") as fh:
            for raw in fh:
                if not raw.strip():
                    continue
                split = str((orjson.loads(raw).get("meta") or {}).get("split", ""))
                if not split:
                    continue
                if split not in handles:
                    paths[split] = base.with_name(f"{base.stem}.{split}.jsonl")
                    writers[split] = AtomicOutput(paths[split], binary=True)
                    handles[split] = writers[split].__enter__()
                handles[split].write(raw if raw.endswith(b"\n") else raw + b"\n")
    except BaseException as exc:
        failed = exc
        raise
    finally:
        for writer in writers.values():
            if failed is None:
                writer.__exit__(None, None, None)
            else:
                writer.__exit__(type(failed), failed, None)
    return paths
