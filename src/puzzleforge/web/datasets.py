"""Dataset page: open a JSONL dataset, browse and search its puzzles.

Why server-side: datasets can hold hundreds of thousands of records; the browser asks
for one page of summaries at a time and one full record on demand. Files come either as
an upload (size-limited) or by name from the folder ``serve --data`` lists; a name from
the browser is looked up in that listing, never joined to a path, so there is no path
traversal.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from fastapi import APIRouter, File, Query, Request, UploadFile

from ..core.puzzle import RECORD_FIELDS
from ..core.registry import family_names, get_family
from .errors import WebError

__all__ = ["Dataset", "DatasetStore", "parse_jsonl", "router", "list_data_files"]

router = APIRouter()

MAX_LISTED_FILES = 200
PAGE_MAX = 200
EXPLANATION_KEYS = ("explanation", "steps", "explain", "reasoning", "solution_steps")


@dataclass
class Dataset:
    """Records of one opened file plus the problems found while reading it."""

    token: str
    name: str
    records: list[dict[str, Any]]
    problems: list[dict[str, Any]] = field(default_factory=list)
    families: list[str] = field(default_factory=list)
    _haystack: list[str] = field(default_factory=list, repr=False)

    def summary(self, index: int) -> dict[str, Any]:
        rec = self.records[index]
        question = str(rec.get("question", ""))
        return {
            "index": index,
            "id": rec.get("id", ""),
            "family": rec.get("family", ""),
            "difficulty": rec.get("difficulty"),
            "question": question[:160] + ("…" if len(question) > 160 else ""),
        }

    def search(self, query: str, family: str | None) -> list[int]:
        words = [w for w in query.lower().split() if w]
        hits = []
        for i, rec in enumerate(self.records):
            if family and rec.get("family") != family:
                continue
            if words and not all(w in self._haystack[i] for w in words):
                continue
            hits.append(i)
        return hits

    def view(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "name": self.name,
            "count": len(self.records),
            "families": self.families,
            "problems": self.problems[:50],
            "problem_count": len(self.problems),
        }


def _text(value: Any) -> str:
    return value if isinstance(value, str) else orjson.dumps(value).decode("utf-8")


def parse_jsonl(lines: Iterable[bytes], name: str, max_records: int) -> Dataset:
    """Read dataset lines, keeping good records and naming each bad line."""
    records: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if len(records) >= max_records:
            problems.append(
                {
                    "line": number,
                    "message": f"stopped after {max_records} records (the page's limit)",
                }
            )
            break
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            problems.append({"line": number, "message": f"not valid JSON ({exc})"})
            continue
        if not isinstance(rec, dict):
            problems.append({"line": number, "message": "not a JSON object"})
            continue
        missing = [k for k in ("family", "question", "answer") if k not in rec]
        if missing:
            problems.append({"line": number, "message": "record lacks " + ", ".join(missing)})
            continue
        rec["_line"] = number
        records.append(rec)
    if not records and not problems:
        problems.append({"line": None, "message": "the file holds no records"})
    families = sorted({str(r.get("family", "")) for r in records})
    haystack = [
        " ".join(
            (
                str(r.get("id", "")),
                str(r.get("family", "")),
                _text(r.get("question", "")),
                _text(r.get("answer", "")),
            )
        ).lower()
        for r in records
    ]
    return Dataset(
        token=uuid.uuid4().hex,
        name=name,
        records=records,
        problems=problems,
        families=families,
        _haystack=haystack,
    )


def find_explanation(rec: dict[str, Any]) -> Any:
    """The explanation a record carries (top level, in meta or in solution), if any."""
    holders = [rec, rec.get("meta"), rec.get("solution")]
    for holder in holders:
        if isinstance(holder, dict):
            for key in EXPLANATION_KEYS:
                if holder.get(key):
                    return holder[key]
    return None


#: Largest answer grid the page explains step by step (each step is a deduction search).
MAX_EXPLAIN_CELLS = 144


def _explainer(rec: dict[str, Any]) -> Any:
    """The family's ``explain`` (an optional Family member) for a record of a registered
    family, else None. Records of spec files are not loaded just to find out: spec
    families have no explainer."""
    family_id = str(rec.get("family", ""))
    if family_id not in family_names():
        return None
    return getattr(get_family(family_id), "explain", None)


def explain(rec: dict[str, Any]) -> list[str]:
    """Derive an explanation with the family's engine (raises WebError when none can)."""
    function = _explainer(rec)
    if function is None:
        raise WebError(
            f"no engine explanation is available for family '{str(rec.get('family'))[:40]}'", 404
        )
    cells = sum(
        len(line.split()) if " " in line else len(line)
        for line in str(rec.get("answer", "")).splitlines()
    )
    if cells > MAX_EXPLAIN_CELLS:  # keeps a request interactive (a step per cell)
        raise WebError(
            f"step-by-step explanations here are limited to {MAX_EXPLAIN_CELLS} "
            f"cells; this puzzle has {cells} (use `puzzleforge grid explain`)",
            413,
        )
    return function(rec)


#: Largest integer a JavaScript number holds exactly (2**53 - 1); bigger ones are rounded.
JS_SAFE = 2**53 - 1


def js_safe(value: Any) -> Any:
    """``value`` with every integer beyond JavaScript's exact range turned into its decimal
    string, so 64-bit seeds reach the page digit for digit (JSON numbers are doubles)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if abs(value) > JS_SAFE else value
    if isinstance(value, dict):
        return {k: js_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [js_safe(v) for v in value]
    return value


def full_record(ds: Dataset, index: int) -> dict[str, Any]:
    """One record for the page; the seed is always a string and any other integer beyond
    2**53 too (see ``js_safe``)."""
    return js_safe(_full_record(ds, index))


def _full_record(ds: Dataset, index: int) -> dict[str, Any]:
    rec = ds.records[index]
    extra = {k: v for k, v in rec.items() if k not in RECORD_FIELDS and k != "_line"}
    return {
        "index": index,
        "line": rec.get("_line"),
        "id": rec.get("id", ""),
        "family": rec.get("family", ""),
        "question": _text(rec.get("question", "")),
        "answer": _text(rec.get("answer", "")),
        "solution": rec.get("solution"),
        "difficulty": rec.get("difficulty"),
        "params": rec.get("params"),
        "seed": None if rec.get("seed") is None else str(rec.get("seed")),
        "config": rec.get("config"),
        "meta": rec.get("meta"),
        "extra": extra,
        "explanation": find_explanation(rec),
        "explainable": _explainer(rec) is not None,
    }


class DatasetStore:
    """The datasets opened in this server (a small LRU, bounded in count)."""

    def __init__(self, max_open: int) -> None:
        self._items: OrderedDict[str, Dataset] = OrderedDict()
        self._lock = threading.Lock()
        self._max = max_open

    def add(self, ds: Dataset) -> Dataset:
        with self._lock:
            self._items[ds.token] = ds
            while len(self._items) > self._max:
                self._items.popitem(last=False)
        return ds

    def get(self, token: str) -> Dataset:
        with self._lock:
            ds = self._items.get(token)
            if ds is not None:
                self._items.move_to_end(token)
        if ds is None:
            raise WebError("this dataset is no longer open on the server; open it again", 404)
        return ds


def list_data_files(data_dir: Path | None) -> list[dict[str, Any]]:
    """JSONL files under ``data_dir`` (two levels deep), as names relative to it."""
    if data_dir is None or not data_dir.is_dir():
        return []
    root = data_dir.resolve()
    found = []
    for pattern in ("*.jsonl", "*/*.jsonl"):
        for path in sorted(root.glob(pattern)):
            resolved = path.resolve()
            if path.is_file() and resolved.is_relative_to(root):
                found.append(
                    {"name": path.relative_to(root).as_posix(), "bytes": path.stat().st_size}
                )
            if len(found) >= MAX_LISTED_FILES:
                return found
    return found


def _state(request: Request) -> Any:
    return request.app.state


@router.get("/api/datasets/files")
def api_files(request: Request) -> dict[str, Any]:
    settings = _state(request).settings
    return {
        "folder": str(settings.data_dir) if settings.data_dir else None,
        "files": list_data_files(settings.data_dir),
    }


@router.post("/api/datasets/open")
def api_open(request: Request, payload: dict[str, Any]) -> dict[str, Any]:
    """Open a file from the listed folder by its listed name."""
    state = _state(request)
    name = payload.get("name")
    if not isinstance(name, str) or not name:
        raise WebError("give the name of a listed dataset file", field="name")
    listed = {f["name"] for f in list_data_files(state.settings.data_dir)}
    if name not in listed:
        raise WebError(f"'{name}' is not one of the listed dataset files", 404, field="name")
    path = state.settings.data_dir.resolve() / name
    if path.stat().st_size > state.settings.max_upload_bytes:
        raise WebError(
            f"'{name}' is larger than the limit of "
            f"{state.settings.max_upload_bytes // (1024 * 1024)} MB",
            413,
        )
    with path.open("rb") as handle:
        ds = parse_jsonl(handle, name, state.settings.max_records)
    return state.datasets.add(ds).view()


@router.post("/api/datasets/upload")
async def api_upload(request: Request, file: UploadFile = File(...)) -> dict[str, Any]:
    """Open an uploaded JSONL file (read in chunks, refused beyond the size limit)."""
    state = _state(request)
    limit = state.settings.max_upload_bytes
    chunks, size = [], 0
    while True:
        chunk = await file.read(1 << 20)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise WebError(f"the file is larger than the limit of {limit // (1024 * 1024)} MB", 413)
        chunks.append(chunk)
    data = b"".join(chunks)
    name = Path(file.filename or "upload.jsonl").name
    ds = parse_jsonl(data.splitlines(), name, state.settings.max_records)
    return state.datasets.add(ds).view()


@router.get("/api/datasets/{token}")
def api_dataset(request: Request, token: str) -> dict[str, Any]:
    return _state(request).datasets.get(token).view()


@router.get("/api/datasets/{token}/records")
def api_records(
    request: Request,
    token: str,
    q: str = Query("", max_length=200),
    family: str = Query("", max_length=200),
    offset: int = Query(0, ge=0),
    limit: int = Query(50, ge=1, le=PAGE_MAX),
) -> dict[str, Any]:
    ds = _state(request).datasets.get(token)
    hits = ds.search(q, family or None)
    page = hits[offset : offset + limit]
    return {
        "total": len(hits),
        "offset": offset,
        "limit": limit,
        "items": [ds.summary(i) for i in page],
    }


@router.get("/api/datasets/{token}/records/{index}")
def api_record(request: Request, token: str, index: int) -> dict[str, Any]:
    ds = _state(request).datasets.get(token)
    if not 0 <= index < len(ds.records):
        raise WebError(f"no record {index}; the dataset has {len(ds.records)}", 404)
    return full_record(ds, index)


@router.get("/api/datasets/{token}/records/{index}/explain")
async def api_explain(request: Request, token: str, index: int) -> dict[str, Any]:
    state = _state(request)
    ds = state.datasets.get(token)
    if not 0 <= index < len(ds.records):
        raise WebError(f"no record {index}; the dataset has {len(ds.records)}", 404)
    # in a killable worker under a deadline: a stuck explanation must not pin the server
    steps = await state.workers.run_async(explain, ds.records[index], what="explaining this record")
    return {"index": index, "steps": steps}
