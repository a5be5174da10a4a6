"""Chunks of items out to a backend, their records committed in index order.

Why commit in index order: chunks finish in any order on W workers or a cluster, but the
dispatcher only appends a chunk once every earlier chunk is in, so the file (not just the
file sorted by index) is byte-identical for 1 worker, W workers and Ray, dedupe keeps the
lowest index deterministically, and the journal is always a prefix of the final dataset.

Items whose every attempt failed, and duplicates (same canonical question), are replaced
by continuing the index stream past N; a family that produces nothing new for a long run
of items stops with GenerationFailed naming the reasons instead of spinning. An error
marked ``ends_run`` (a spec error, a wall-clock safety net whose outcome would depend on
machine load) stops the run at its item: the records before it stay in the journal.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import GenerationFailed
from ..core.limits import LimitExceeded
from .backends import Backend
from .job import BatchJob
from .sinks import JsonlJournal
from .summary import ProgressState, Summary
from .worker import ChunkResult, ChunkTask, ItemResult

__all__ = [
    "Dispatcher",
    "ProgressCallback",
    "RecordsCallback",
    "FAILED_ITEMS_LIMIT",
    "BAD_ITEMS_LIMIT",
    "HARD_WALL_FACTOR",
    "HARD_GRACE_SECONDS",
]

#: Stop when this many consecutive items failed every attempt (the family fails everything).
FAILED_ITEMS_LIMIT = 20
#: Stop when this many consecutive items were all rejected (duplicates: space exhausted).
BAD_ITEMS_LIMIT = 2000
#: A chunk counts as stuck (blocked without using CPU) after HARD_WALL_FACTOR x (items x
#: attempts x --timeout-per-item) wall-clock seconds plus HARD_GRACE_SECONDS.
HARD_WALL_FACTOR = 10
HARD_GRACE_SECONDS = 60.0

ProgressCallback = Callable[[ProgressState], None]
#: Called with each run of records once they are committed to the journal, in index order.
RecordsCallback = Callable[[list[str]], None]


def auto_chunk(total: int, workers: int) -> int:
    """Items per chunk when --chunk-size is not given: about 16 chunks per worker (so
    the pool stays busy to the end), at most 256 (so a crash loses little)."""
    return max(1, min(256, -(-total // (workers * 16))))


@dataclass
class _Tally:
    """How one component's committed items went so far: what its stop rules and the
    submission pace read."""

    accepted: int
    committed_items: int = 0
    accepted_now: int = 0
    consecutive_failed: int = 0
    consecutive_bad: int = 0
    last_error: str = ""
    failure_reasons: dict[str, int] = field(default_factory=dict)


class Dispatcher:
    """Runs the components of one job in turn over one backend, into one journal.

    Why one object for all components: the dedupe set (``seen``), the records done and
    the rejects span the whole run, and resuming fills them from the journal first.
    """

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

    def _task_template(self, k: int) -> ChunkTask:
        """Everything a chunk of component ``k`` carries but its indices."""
        return ChunkTask(
            indices=(),
            component=self.job.components[k].payload(),
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

    def _stuck_after(self, size: int) -> float | None:
        """Wall-clock seconds after which a chunk of ``size`` items counts as stuck.

        The last resort for a chunk blocked without using CPU (the CPU limit of each
        attempt stops every attempt that works; waiting on something does not count):
        generous, so a loaded machine's stretched wall time never trips it.
        """
        if not self.job.timeout_per_item:
            return None
        return (
            HARD_WALL_FACTOR * size * self.job.max_attempts * self.job.timeout_per_item
            + HARD_GRACE_SECONDS
        )

    def run_component(self, k: int, family: Any, have: int, next_index: int) -> None:
        """Generate component ``k`` until it has its count, starting at item ``next_index``
        with ``have`` records already in the journal."""
        comp = self.job.components[k]
        tally = _Tally(accepted=have)
        if tally.accepted >= comp.count:
            return
        workers = max(1, self.backend.workers)
        size = self.chunk_size or auto_chunk(comp.count - have, workers)
        task_base = self._task_template(k)
        buffered: dict[int, ChunkResult] = {}
        mine: dict[int, float] = {}  # token -> submit time, this component's chunks only
        hard = self._stuck_after(size)
        in_flight = 0
        submit_at = commit_at = next_index
        while tally.accepted < comp.count:
            remaining = comp.count - tally.accepted
            yield_rate = (
                max(0.05, tally.accepted_now / tally.committed_items)
                if tally.committed_items
                else 1.0
            )
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
            while commit_at in buffered and tally.accepted < comp.count:
                result = buffered.pop(commit_at)
                commit_at += len(result.items)
                self._commit_chunk(result, comp.count, comp.name or family.name, family, tally)
            self._progress()
        self._progress(force=True)

    def _commit_chunk(
        self, result: ChunkResult, count: int, name: str, family: Any, tally: _Tally
    ) -> None:
        """Take a chunk's items in index order (up to the component's ``count``) and
        commit the accepted records."""
        lines: list[str] = []
        for item in result.items:
            if tally.accepted >= count:
                break
            self._take(item, family, tally, lines)
        self._commit(lines)
        self.summary.records_written += len(lines)
        self.done += len(lines)
        self.summary.per_component[name] = tally.accepted

    def _take(self, item: ItemResult, family: Any, tally: _Tally, lines: list[str]) -> None:
        """Accept, reject or stop at one item; ``lines`` collects this chunk's records."""
        tally.committed_items += 1
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
            tally.consecutive_failed += 1
            tally.consecutive_bad += 1
            tally.last_error = item.error
            for reason, n in item.rejects.items():
                tally.failure_reasons[reason] = tally.failure_reasons.get(reason, 0) + n
        elif self.job.dedupe and item.qkey in self.seen:
            self._reject("duplicate")
            tally.consecutive_failed = 0
            tally.consecutive_bad += 1
        else:
            self.seen.add(item.qkey)
            lines.append(item.line)
            tally.accepted += 1
            tally.accepted_now += 1
            tally.consecutive_failed = tally.consecutive_bad = 0
        if (
            tally.consecutive_failed >= FAILED_ITEMS_LIMIT
            or tally.consecutive_bad >= BAD_ITEMS_LIMIT
        ):
            self._commit(lines)
            raise self._give_up(family, tally)

    def _give_up(self, family: Any, tally: _Tally) -> GenerationFailed:
        """The error that stops a family failing (or repeating) item after item."""
        failed, bad, reasons = (
            tally.consecutive_failed,
            tally.consecutive_bad,
            tally.failure_reasons,
        )
        if failed >= FAILED_ITEMS_LIMIT:
            detail = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) or "no reason given"
            tries = (
                ""
                if getattr(family, "retries_itself", False)
                else f", every one of its {self.job.max_attempts} attempts"
            )
            return GenerationFailed(
                f"family '{family.name}' failed {failed} items in a row{tries} (rejects: "
                f"{detail}; last: {tally.last_error}); stopping instead of spinning",
                reasons=reasons,
                hint="Check the params, or run "
                "`puzzleforge generate` with -n 1 --debug to see one failure",
            )
        return GenerationFailed(
            f"family '{family.name}' produced no new puzzle in {bad} items in a row "
            "(all duplicates of earlier ones)",
            hint="The parameter space looks exhausted: ask for fewer puzzles, widen the params, "
            "or keep duplicates (--no-dedupe)",
        )
