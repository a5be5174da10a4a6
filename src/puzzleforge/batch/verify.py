"""Re-derive and check every record of a dataset, in parallel.

Why re-derive rather than only score: a record could be internally consistent yet not be
what its (family, params, seed) produce (a hand edit, a generator drift between
versions). So each record is rebuilt from its family (by id or by ``meta.source`` file),
regenerated from (params, seed) and compared; the record's answer must score 1.0 against
the regenerated puzzle; and the family's independent ``audit`` runs when it has one.
A family with ``audit_uniqueness`` (spec files: spec/audit.py) also has each record's
uniqueness re-proved by a fresh solver bounded by ``audit_seconds``: "ambiguous" and
"wrong" are problems of the record, "undecided" is reported as its own category (never
as a pass), and both make the command fail.

Trust: records name spec files, which load untrusted; a spec with Python operator files
(``customs/*.py``) can be re-derived only when the person running verify passes
``trust=True`` (``puzzleforge verify --trust``), exactly as ``spec generate --trust``
made it. Without it the whole run stops at the first such spec with one paragraph naming
the dataset, the record, the spec, its operator file and the missing ``--trust``, instead
of failing every record of that spec with the same message. With it, the spec's
regeneration and audit replay run in a forked worker under the kernel's CPU limit
(``worker=True``, spec/trusted.py): operator code stuck in C stops the run (exit 4).
"""

from __future__ import annotations

import copy
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InvalidSpec, PuzzleForgeError, TrustRequired
from ..core.family import build_params
from ..core.limits import is_limit
from ..core.puzzle import Puzzle, earlier_ids, stamp
from ..core.registry import family_for_record
from ..core.seeding import make_rng
from .backends import die_with_parent, local_workers
from .sinks import iter_records

__all__ = ["RecordCheck", "check_record", "verify_file", "VerifyReport"]


@dataclass
class RecordCheck:
    number: int  # 1-based line (JSONL) or row (Parquet)
    id: str
    family: str
    problems: list[str] = field(default_factory=list)
    #: The uniqueness audit's outcome ("pass", "ambiguous", "wrong", "undecided", "error")
    #: and its detail; "" when the family has no such audit or auditing was off.
    uniqueness: str = ""
    uniqueness_detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def undecided(self) -> bool:
        return self.uniqueness == "undecided"


@dataclass
class VerifyReport:
    path: str
    checked: int = 0
    wrong: list[RecordCheck] = field(default_factory=list)
    #: Records whose uniqueness the audit could not decide in its seconds (not wrong, not proved).
    undecided: list[RecordCheck] = field(default_factory=list)
    #: Uniqueness audit outcomes by status.
    uniqueness: Counter = field(default_factory=Counter)

    @property
    def correct(self) -> int:
        return self.checked - len(self.wrong)


_CACHE: dict[str, Any] = {}


def _source(record: dict[str, Any]) -> str:
    meta, config = record.get("meta"), record.get("config")
    meta = meta if isinstance(meta, dict) else {}
    config = config if isinstance(config, dict) else {}
    return str(config.get("source") or meta.get("source") or "")


def _family(record: dict[str, Any], trust: bool = False) -> Any:
    key = f"{record.get('family')}|{_source(record)}|{trust}"
    if key not in _CACHE:
        # trusted code runs in a worker the kernel bounds (worker=True: a spec family's
        # generate and audit replay, spec/trusted.py), so a C-level loop fails loudly
        _CACHE[key] = family_for_record(record, trust=trust, **({"worker": True} if trust else {}))
    return _CACHE[key]


def _check_spec(
    path: Path, number: int, record: dict[str, Any], trust: bool, seen: set[str]
) -> None:
    """Stop the run (one paragraph) when a record's spec needs ``--trust`` that was not given,
    or names a Python operator file that is not there.

    Why here, in the parent, once per spec file: every record of that spec would fail the
    same way, and the person needs to learn which file runs Python code and what is
    missing (the flag, or the operator file), not read the same refusal per record.
    Without trust, loading stops before the operator file is even looked for, so nothing
    of it runs. Other load problems stay per record (check_record reports them).
    """
    if not isinstance(record, dict):
        return
    source = _source(record)
    if not source or source in seen:
        return
    seen.add(source)
    try:
        _family(record, trust)
    except TrustRequired as exc:
        what = str(exc).split(". Expected")[0]
        raise TrustRequired(
            f"record {number} was made from the spec {source}, which runs Python code: {what}",
            file=str(path),
            field="meta.source",
            expected=(
                f"`puzzleforge verify {path} --trust` to re-derive it, the same --trust "
                "the dataset was generated with (verify never trusts a spec on a "
                "record's word)"
            ),
            hint=f"Only pass --trust if you trust {source} and its operator files",
        ) from None
    except InvalidSpec as exc:
        if not str(exc.field or "").startswith("custom_operator."):
            return
        what = str(exc).split(". Expected")[0]
        raise InvalidSpec(
            f"record {number} was made from the spec {source}, whose Python operator file "
            f"cannot be used here: {what}",
            file=str(path),
            field="meta.source",
            expected=(exc.expected or "the operator file beside the spec")
            + " (run verify where the dataset was generated, with its customs/ folder)",
        ) from None
    except Exception:  # noqa: BLE001 - reported per record by check_record
        return


#: Bound of one record's uniqueness audit (``verify --audit-seconds``), in idle-machine
#: seconds of solver work.
AUDIT_SECONDS = 60.0


def check_record(
    number: int,
    record: dict[str, Any],
    *,
    audit: bool = True,
    audit_seconds: float = AUDIT_SECONDS,
    trust: bool = False,
) -> RecordCheck:
    """Every problem of one record (empty list: the record is right).

    ``trust`` (``verify --trust``) loads the record's spec with its Python operator
    files, or lets a record made from a grid genre file load that file (Python); without
    it such a record stops the whole run with one TrustRequired paragraph rather than a
    "cannot regenerate" line per record."""
    check = RecordCheck(number, str(record.get("id", "")), str(record.get("family", "")))
    try:
        family = _family(record, trust)
        stored = Puzzle.from_record(record)
        params = build_params(family.Params, stored.params, family=family.name)
        regenerated = stamp(family.generate(params, make_rng(stored.seed)), stored.seed)
    except TrustRequired:
        raise
    except Exception as exc:  # noqa: BLE001 - report, keep checking the other records
        if is_limit(exc):  # a CPU net fails the run loudly (exit 4): no verdict on seconds
            raise _at_record(exc, number) from None
        check.problems.append(f"cannot regenerate: {type(exc).__name__}: {exc}")
        return check
    if stored.id and stored.id != regenerated.id and stored.id not in earlier_ids(regenerated):
        check.problems.append(
            f"id {stored.id} is not the id of (family, params, seed) ({regenerated.id})"
        )
    if stored.question != regenerated.question:
        check.problems.append("question differs from the one (params, seed) generate")
    if stored.answer != regenerated.answer:
        check.problems.append(
            f"answer differs from the regenerated answer "
            f"({_short(stored.answer)!r} vs {_short(regenerated.answer)!r})"
        )
    try:
        score = float(family.verify(regenerated, stored.answer))
    except Exception as exc:  # noqa: BLE001
        score = 0.0
        check.problems.append(f"verify raised {type(exc).__name__}: {exc}")
    if score != 1.0:
        check.problems.append(f"stored answer scores {score:.3g} against the regenerated puzzle")
    auditor = getattr(family, "audit", None)
    if audit and auditor is not None:
        try:
            check.problems += [f"audit: {p}" for p in auditor(regenerated)]
        except Exception as exc:  # noqa: BLE001
            if is_limit(exc):
                raise _at_record(exc, number) from None
            check.problems.append(f"audit raised {type(exc).__name__}: {exc}")
    unique = getattr(family, "audit_uniqueness", None)
    if audit and unique is not None:
        try:
            outcome = unique(regenerated, audit_seconds)
            check.uniqueness, check.uniqueness_detail = outcome.status, outcome.detail
        except Exception as exc:  # noqa: BLE001
            if is_limit(exc):
                raise _at_record(exc, number) from None
            check.uniqueness, check.uniqueness_detail = "error", f"{type(exc).__name__}: {exc}"
        if check.uniqueness not in ("pass", "undecided"):
            check.problems.append(f"uniqueness {check.uniqueness}: {check.uniqueness_detail}")
    return check


def _at_record(exc: Exception, number: int) -> Exception:
    """``exc`` (a limit that stops the run) saying which record it stopped at."""
    if not isinstance(exc, PuzzleForgeError):
        return exc
    new = copy.copy(exc)
    new.problem = f"record {number}: {exc.problem}"
    new.args = (new._compose(),)
    return new


def _short(text: str, limit: int = 40) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _check_chunk(
    chunk: list[tuple[int, dict[str, Any]]],
    audit: bool,
    audit_seconds: float = AUDIT_SECONDS,
    trust: bool = False,
) -> list[RecordCheck]:
    return [
        check_record(n, r, audit=audit, audit_seconds=audit_seconds, trust=trust) for n, r in chunk
    ]


def _chunks(
    items: Iterator[tuple[int, dict[str, Any]]], size: int
) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    chunk: list[tuple[int, dict[str, Any]]] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def verify_file(
    path: str | Path,
    *,
    workers: int | None = None,
    audit: bool = True,
    chunk_size: int = 32,
    audit_seconds: float = AUDIT_SECONDS,
    on_progress: Callable[[int], None] | None = None,
    trust: bool = False,
) -> VerifyReport:
    """Check every record of a JSONL file / Parquet file or directory.

    ``trust``: load the specs the records name with their Python operator files; without
    it a spec that has such files stops the run with ``TrustRequired`` (one paragraph).
    """
    report = VerifyReport(str(path))
    seen: set[str] = set()

    def checked_records() -> Iterator[tuple[int, dict[str, Any]]]:
        for number, record in iter_records(Path(path)):
            _check_spec(Path(path), number, record, trust, seen)
            yield number, record

    records = checked_records()
    count = local_workers(workers)  # at most the cores; see backends.local_workers

    def take(results: list[RecordCheck]) -> None:
        for check in results:
            report.checked += 1
            if not check.ok:
                report.wrong.append(check)
            if check.uniqueness:
                report.uniqueness[check.uniqueness] += 1
            if check.undecided:
                report.undecided.append(check)
        if on_progress:
            on_progress(report.checked)

    if count <= 1:
        for chunk in _chunks(records, chunk_size):
            take(_check_chunk(chunk, audit, audit_seconds, trust))
        return report
    import multiprocessing  # the pool alone needs them (a 1-worker run spares ~2 MB)
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(
        max_workers=count, mp_context=ctx, initializer=die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        pending = []
        for chunk in _chunks(records, chunk_size):
            pending.append(pool.submit(_check_chunk, chunk, audit, audit_seconds, trust))
            if len(pending) >= 4 * count:
                take(pending.pop(0).result())
        for future in pending:
            take(future.result())
    report.wrong.sort(key=lambda c: c.number)
    report.undecided.sort(key=lambda c: c.number)
    return report
