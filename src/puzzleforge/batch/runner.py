"""Run a BatchJob: chunks out to a backend, records committed in index order, resumable.

Why commit in index order: chunks finish in any order on W workers or a cluster, but the
runner only appends a chunk once every earlier chunk is in, so the file (not just the file
sorted by index) is byte-identical for 1 worker, W workers and Ray, dedupe keeps the
lowest index deterministically, and the journal is always a prefix of the final dataset.
A crash loses at most the chunks in flight or waiting; ``--resume`` cuts a torn last
line, rebuilds the dedupe set and continues after the last committed index.

Items whose every attempt failed, and duplicates (same canonical question), are replaced
by continuing the index stream past N; a family that produces nothing new for a long run
of items stops with GenerationFailed naming the reasons instead of spinning. An error
marked ``ends_run`` (a spec error, a wall-clock safety net whose outcome would depend on
machine load) stops the run at its item: the records before it stay in the journal.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import os
import shutil
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from .. import __version__
from ..core.cputime import cpu_seconds
from ..core.errors import ConfigError, GenerationFailed, PuzzleForgeError
from ..core.limits import LimitExceeded
from ..core.safeoutput import check_output_dir, check_output_path, fsync_dir, partial_path
from .backends import Backend, check_backend, make_backend
from .card import write_card
from .job import BatchJob, normalised_params
from .sinks import JsonlJournal, scan_journal, write_parquet, write_split_jsonl
from .summary import ProgressState, Summary, sidecar, write_json_atomic
from .worker import ChunkResult, ChunkTask, question_key

__all__ = [
    "run_batch",
    "journal_path",
    "check_run_options",
    "FAILED_ITEMS_LIMIT",
    "BAD_ITEMS_LIMIT",
    "MAX_CHUNK_SIZE",
]

#: Stop when this many consecutive items failed every attempt (the family fails everything).
FAILED_ITEMS_LIMIT = 20
#: Stop when this many consecutive items were all rejected (duplicates: space exhausted).
BAD_ITEMS_LIMIT = 2000
#: A chunk counts as stuck (blocked without using CPU) after HARD_WALL_FACTOR x (items x
#: attempts x --timeout-per-item) wall-clock seconds plus HARD_GRACE_SECONDS.
HARD_WALL_FACTOR = 10
HARD_GRACE_SECONDS = 60.0
#: Largest --chunk-size (items a worker takes at once); the automatic size stays <= 256.
MAX_CHUNK_SIZE = 100_000

ProgressCallback = Callable[[ProgressState], None]
#: Called with each run of records once they are committed to the journal, in index order.
RecordsCallback = Callable[[list[str]], None]


def journal_path(out: Path, fmt: str) -> Path:
    """The JSONL file records are appended to: ``<out>.partial`` for JSONL (renamed over
    ``out`` when the run completes), ``<out>.journal.jsonl`` beside a Parquet directory."""
    return partial_path(out) if fmt == "jsonl" else sidecar(out, "journal.jsonl")


def _auto_chunk(total: int, workers: int) -> int:
    return max(1, min(256, -(-total // (workers * 16))))


class _Run:
    def __init__(
        self,
        job: BatchJob,
        backend: Backend,
        journal: JsonlJournal,
        summary: Summary,
        chunk_size: int | None,
        on_progress: ProgressCallback | None,
        on_records: RecordsCallback | None = None,
    ) -> None:
        self.job, self.backend, self.journal, self.summary = job, backend, journal, summary
        self.chunk_size = chunk_size
        self.on_progress = on_progress
        self.on_records = on_records
        self.seen: set[int] = set()
        self.started = time.monotonic()
        self.last_progress = 0.0
        self.done = 0
        self.reject_count = 0

    def _progress(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.on_progress and (force or now - self.last_progress >= 0.2):
            self.last_progress = now
            self.on_progress(
                ProgressState(
                    self.done,
                    self.job.total,
                    self.reject_count,
                    now - self.started,
                    self.summary.records_written,
                )
            )

    def _commit(self, lines: list[str]) -> None:
        """Append committed records to the journal (fsynced), then hand them to ``on_records``."""
        self.journal.commit(lines)
        if self.on_records is not None and lines:
            self.on_records(lines)

    def _reject(self, reason: str, n: int = 1) -> None:
        self.summary.rejects[reason] = self.summary.rejects.get(reason, 0) + n
        self.reject_count += n

    def component(self, k: int, family: Any, have: int, next_index: int) -> None:
        comp = self.job.components[k]
        accepted = have
        if accepted >= comp.count:
            return
        workers = max(1, self.backend.workers)
        size = self.chunk_size or _auto_chunk(comp.count - have, workers)
        task_base = ChunkTask(
            indices=(),
            component=comp.payload(),
            component_index=k,
            base_seed=self.job.component_seed(k),
            max_attempts=self.job.max_attempts,
            timeout=self.job.timeout_per_item,
            audit=self.job.audit,
            splits=tuple((s.name, s.fraction) for s in self.job.splits),
            provenance={
                "generator": f"puzzleforge {__version__}",
                "run_seed": self.job.seed,
                "recipe": Path(self.job.recipe).name if self.job.recipe else None,
            },
        )
        buffered: dict[int, ChunkResult] = {}
        mine: dict[int, float] = {}  # token -> submit time, this component's chunks only
        # last resort for a chunk blocked without using CPU (the CPU limit of each attempt
        # stops every attempt that works; waiting on something does not count): generous,
        # so a loaded machine's stretched wall time never trips it
        hard = (
            HARD_WALL_FACTOR * size * self.job.max_attempts * self.job.timeout_per_item
            + HARD_GRACE_SECONDS
            if self.job.timeout_per_item
            else None
        )
        in_flight = 0
        submit_at = commit_at = next_index
        committed_items = accepted_now = 0
        consecutive_failed = consecutive_bad = 0
        last_error = ""
        failure_reasons: dict[str, int] = {}
        while accepted < comp.count:
            remaining = comp.count - accepted
            yield_rate = max(0.05, accepted_now / committed_items) if committed_items else 1.0
            while (
                in_flight < 2 * workers
                and len(buffered) < 4 * workers
                and ((submit_at - commit_at) * yield_rate < remaining + size or in_flight == 0)
            ):
                indices = tuple(range(submit_at, submit_at + size))
                mine[self.backend.submit(dataclasses.replace(task_base, indices=indices))] = (
                    time.monotonic()
                )
                submit_at += size
                in_flight += 1
            got = self.backend.next_done(timeout=0.25)
            if got is not None and got[0] in mine:
                token, result = got
                mine.pop(token, None)
                in_flight -= 1
                buffered[result.first_index] = result
                self.summary.worker_cpu_seconds += result.cpu_seconds
                self.summary.worker_busy_seconds += result.wall_seconds
            if hard is not None and mine and time.monotonic() - min(mine.values()) > hard:
                raise LimitExceeded(
                    f"family '{family.name}': a chunk of {size} items ran for over {hard:.0f} s "
                    f"of wall-clock time although each attempt has "
                    f"{self.job.timeout_per_item:g} CPU seconds; the generator is stuck "
                    "without using CPU (waiting on something), which the CPU limit of "
                    "--timeout-per-item does not count",
                    hint="Check what the family waits for, or lower the params",
                )
            while commit_at in buffered and accepted < comp.count:
                result = buffered.pop(commit_at)
                commit_at += len(result.items)
                lines: list[str] = []
                for item in result.items:
                    if accepted >= comp.count:
                        break
                    committed_items += 1
                    self.summary.items_attempted += 1
                    for reason, n in item.rejects.items():
                        self._reject(reason, n)
                    if item.stop:  # an error no later item can avoid (or load-dependent)
                        self._commit(lines)
                        self.summary.records_written += len(lines)
                        self.done += len(lines)
                        stopped = GenerationFailed(
                            f"item {item.index}: {item.stop}", reasons=dict(item.rejects)
                        )
                        stopped.kind = item.stop_kind or stopped.kind  # shown as the cause's kind
                        if item.stop_exit:  # and exits as the cause would (4: a limit)
                            stopped.exit_code = item.stop_exit  # type: ignore[attr-defined]
                        raise stopped
                    if item.line is None:
                        self._reject("item_failed")
                        consecutive_failed += 1
                        consecutive_bad += 1
                        last_error = item.error
                        for reason, n in item.rejects.items():
                            failure_reasons[reason] = failure_reasons.get(reason, 0) + n
                    elif self.job.dedupe and item.qkey in self.seen:
                        self._reject("duplicate")
                        consecutive_failed = 0
                        consecutive_bad += 1
                    else:
                        self.seen.add(item.qkey)
                        lines.append(item.line)
                        accepted += 1
                        accepted_now += 1
                        consecutive_failed = consecutive_bad = 0
                    if (
                        consecutive_failed >= FAILED_ITEMS_LIMIT
                        or consecutive_bad >= BAD_ITEMS_LIMIT
                    ):
                        self._commit(lines)
                        self._stop(
                            family, consecutive_failed, consecutive_bad, failure_reasons, last_error
                        )
                self._commit(lines)
                self.summary.records_written += len(lines)
                self.done += len(lines)
                self.summary.per_component[comp.name or family.name] = accepted
            self._progress()
        self._progress(force=True)

    def _stop(
        self, family: Any, failed: int, bad: int, reasons: dict[str, int], last_error: str
    ) -> None:
        if failed >= FAILED_ITEMS_LIMIT:
            detail = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) or "no reason given"
            tries = (
                ""
                if getattr(family, "retries_itself", False)
                else f", every one of its {self.job.max_attempts} attempts"
            )
            raise GenerationFailed(
                f"family '{family.name}' failed {failed} items in a row{tries} (rejects: "
                f"{detail}; last: {last_error}); stopping instead of spinning",
                reasons=reasons,
                hint="Check the params, or run "
                "`puzzleforge generate` with -n 1 --debug to see one failure",
            )
        raise GenerationFailed(
            f"family '{family.name}' produced no new puzzle in {bad} items in a row "
            "(all duplicates of earlier ones)",
            hint="The parameter space looks exhausted: ask for fewer puzzles, widen the params, "
            "or keep duplicates (--no-dedupe)",
        )


def _clear_for_fresh_start(out: Path, fmt: str, journal: Path) -> None:
    """A run without --resume starts over: drop an earlier run's journal and job file.

    The finished output itself (and its summary) stay untouched until this run completes.
    """
    for path in (journal, sidecar(out, "job.json")):
        if path.exists():
            path.unlink()


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
    with _output_lock(out):
        return _run_locked(
            job,
            families,
            out,
            fmt,
            workers,
            backend,
            resume,
            ray_address,
            chunk_size,
            on_progress,
            on_records,
        )


@contextmanager
def _output_lock(out: Path) -> Iterator[None]:
    """One writer per output: a second run (or a --resume while the first still runs) would
    interleave chunks. flock is released by the kernel even on kill -9; the lock file is
    removed when the run ends (a stale one after kill -9 is simply reused)."""
    lock_path = sidecar(out, "lock")
    for _ in range(50):
        fh = open(lock_path, "a+b")  # noqa: SIM115 - closed below
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            raise ConfigError(
                "another puzzleforge run is writing this output now",
                file=str(out),
                expected="one run per output; wait for it or choose another --out",
            ) from None
        try:
            same = os.stat(lock_path).st_ino == os.fstat(fh.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        fh.close()  # the previous holder removed it while we waited: take the new one
    else:  # pragma: no cover - 50 writers racing
        raise ConfigError(
            "the output's lock keeps changing", file=str(out), expected="one run per output"
        )
    try:
        yield
    finally:
        # while still holding it: no one else owns this inode
        lock_path.unlink(missing_ok=True)
        fh.close()


def _run_locked(
    job: BatchJob,
    families: list[Any],
    out: Path,
    fmt: str,
    workers: int | None,
    backend: str,
    resume: bool,
    ray_address: str | None,
    chunk_size: int | None,
    on_progress: ProgressCallback | None,
    on_records: RecordsCallback | None = None,
) -> Summary:
    wall0, cpu0 = time.monotonic(), time.process_time()
    tree_cpu0 = cpu_seconds()  # with children: the inline backend's sandboxed spec workers
    journal = journal_path(out, fmt)
    job_file = sidecar(out, "job.json")
    fingerprint = job.fingerprint()
    for entry, family in zip(fingerprint["components"], families, strict=True):
        entry["params"] = normalised_params(family, entry["params"])  # "n=08" == "n=8"
    component_of = {c.name: k for k, c in enumerate(job.components)}
    finished = out if fmt == "jsonl" else None  # a completed JSONL output (journal renamed)
    continuing = bool(resume and job_file.exists())
    if continuing:
        stored = orjson.loads(job_file.read_bytes())
        if stored.get("fingerprint") != fingerprint:
            raise ConfigError(
                "--resume: this output was started by a different command (family, params, "
                "seed, recipe or splits differ)",
                file=str(job_file),
                expected="the same command as the run being resumed, or no --resume to start over",
            )
    elif resume and any(
        p is not None and p.exists() and p.stat().st_size > 0 for p in (journal, finished)
    ):
        raise ConfigError(
            "--resume: the output exists but has no job file beside it",
            file=str(job_file),
            expected="an output written by puzzleforge generate",
        )
    preload = sorted({type(f).__module__ for f in families} - {"__main__"})
    # the backend starts before any file is written: a backend that cannot start (no Ray,
    # a bad --ray-address) is a failed start and leaves nothing behind
    chosen = make_backend(backend, workers, ray_address, preload)
    try:
        if continuing:
            if not journal.exists() and finished is not None and finished.exists():
                _copy_durably(finished, journal)  # continue a completed run (more records)
        else:
            _clear_for_fresh_start(out, fmt, journal)
        if not journal.exists():
            journal.touch()  # before the job file: a job file without journal means "completed"
        if not continuing:
            write_json_atomic(
                job_file,
                {
                    "fingerprint": fingerprint,
                    "requested": job.total,
                    "format": fmt,
                    "generator": f"puzzleforge {__version__}",
                },
            )
        state = scan_journal(journal, component_of, question_key)
    except BaseException:
        chosen.close(cancel=True)
        raise
    summary = Summary(
        output=str(out),
        format=fmt,
        backend=chosen.name,
        workers=chosen.workers,
        seed=job.seed,
        requested=job.total,
        resumed_from=state.records,
        job=fingerprint,
    )
    sink = JsonlJournal(journal)
    run = _Run(job, chosen, sink, summary, chunk_size, on_progress, on_records)
    run.seen = state.qkeys
    run.done = state.records
    for k, comp in enumerate(job.components):
        summary.per_component[comp.name or families[k].name] = state.counts.get(k, 0)
    completed = False
    try:
        for k, family in enumerate(families):
            run.component(k, family, state.counts.get(k, 0), state.last_index.get(k, -1) + 1)
        completed = True
    except PuzzleForgeError as exc:
        if fmt == "jsonl" and run.done:
            note = (
                f"{out} was left as it was; the {run.done} record(s) made so far are in "
                f"{journal} (--resume continues from them)"
            )
            exc.hint = f"{exc.hint.rstrip('.')}. {note}" if exc.hint else note
            exc.args = (exc._compose(),)
        raise
    finally:
        sink.close()
        chosen.close(cancel=not completed)
        if not completed and not continuing and run.done == 0:
            _drop_empty_start(journal, job_file)
    summary.records_total = run.done
    if job.splits:
        summary.per_split = _count_splits(journal)
    files: list[Path]
    if fmt == "parquet":
        files = write_parquet(journal, out)
    else:
        files = [out]
        if job.splits:
            files += list(write_split_jsonl(journal, out).values())
        with contextlib.suppress(FileNotFoundError):  # a replaced file keeps its permissions
            os.chmod(journal, stat.S_IMODE(os.stat(out).st_mode))
        os.replace(journal, out)
        fsync_dir(out.parent)
    summary.card = str(write_card(job, out, fmt, files, summary.per_component, summary.per_split))
    summary.files = [str(p) for p in files]
    summary.wall_seconds = time.monotonic() - wall0
    summary.cpu_seconds = summary.worker_cpu_seconds + (time.process_time() - cpu0)
    if chosen.name == "inline":
        summary.cpu_seconds = cpu_seconds() - tree_cpu0
    write_json_atomic(sidecar(out, "summary.json"), summary.to_dict())
    return summary


def _drop_empty_start(journal: Path, job_file: Path) -> None:
    """A fresh run that failed before its first record leaves nothing behind (its journal
    is empty and a --resume would only start over)."""
    try:
        if journal.stat().st_size == 0:
            journal.unlink()
            job_file.unlink(missing_ok=True)
    except FileNotFoundError:
        pass


def _copy_durably(source: Path, target: Path) -> None:
    """Copy a finished output to the journal (fsynced) so resuming never edits it in place."""
    with open(source, "rb") as src, open(target, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
        dst.flush()
        os.fsync(dst.fileno())


def _count_splits(journal: Path) -> dict[str, int]:
    counts: dict[str, int] = {}
    with open(journal, "rb") as fh:
        for raw in fh:
            if raw.strip():
                split = str((orjson.loads(raw).get("meta") or {}).get("split", ""))
                counts[split] = counts.get(split, 0) + 1
    return counts
