"""``puzzleforge generate | verify | show | score``: datasets from the command line.

Why in the CLI layer: the batch package never prints; here its progress callbacks become
a live bar on a terminal (only for runs slower than a second) or plain periodic lines in
logs, and its Summary becomes the table and JSON file users read.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

import typer

from ..batch.runner import MAX_CHUNK_SIZE
from ..core.seeding import SEED_MAX, SEED_MIN
from .errors import run_guarded

__all__ = ["register", "parse_param_pairs"]

TRUST_HELP = (
    "Load grid genre .py files (a family given as a .py file, or named by the "
    "records) and spec files' Python operator files (customs/*.py): they are "
    "Python code. Only for files you trust."
)


def parse_param_pairs(pairs: list[str]) -> dict[str, str]:
    """``["n=5", "backend=sat"]`` -> dict; a pair without '=' is a ConfigError."""
    from ..core.errors import ConfigError

    out: dict[str, str] = {}
    bad = [p for p in pairs if "=" not in p or not p.split("=", 1)[0].strip()]
    if bad:
        raise ConfigError(
            f"cannot read --param {', '.join(repr(b) for b in bad)}",
            field="--param",
            expected="key=value, e.g. --param n=6",
        )
    for pair in pairs:
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


class _Progress:
    """A rich bar on a TTY (started after 1 s), plain lines every few seconds otherwise."""

    def __init__(
        self,
        label: str,
        total: int,
        *,
        delay: float = 1.0,
        every: float = 5.0,
        rejects: bool = True,
    ) -> None:
        self.label, self.total, self.show_rejects = label, total, rejects
        self.tty = sys.stderr.isatty()
        self.delay, self.every = delay, every
        self.started = time.monotonic()
        self.last_line = self.started
        self._bar: Any = None
        self._task: Any = None

    def update(
        self, done: int, rejects: int = 0, rate: float = 0.0, eta: float | None = None
    ) -> None:
        now = time.monotonic()
        if now - self.started < self.delay:
            return
        if self.tty:
            if self._bar is None:
                from rich.console import Console
                from rich.progress import (
                    BarColumn,
                    MofNCompleteColumn,
                    Progress,
                    TextColumn,
                    TimeElapsedColumn,
                    TimeRemainingColumn,
                )

                self._bar = Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}/s"),
                    TextColumn("rejects {task.fields[rejects]}" if self.show_rejects else ""),
                    TimeElapsedColumn(),
                    TextColumn("ETA"),
                    TimeRemainingColumn(),
                    console=Console(stderr=True),
                    transient=False,
                )
                self._bar.start()
                self._task = self._bar.add_task(
                    self.label, total=self.total or None, rate="0", rejects=0
                )
            self._bar.update(self._task, completed=done, rate=f"{rate:.1f}", rejects=rejects)
        elif now - self.last_line >= self.every:
            self.last_line = now
            eta_text = f", ETA {eta:.0f} s" if eta is not None else ""
            total = f"/{self.total}" if self.total else ""
            rejected = f", rejects {rejects}" if self.show_rejects else ""
            typer.echo(f"{self.label}: {done}{total} ({rate:.1f}/s{rejected}{eta_text})", err=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def _generate(
    target: str,
    n: int | None,
    seed: int | None,
    out: Path,
    params: list[str],
    workers: int | None,
    backend: str,
    ray_address: str | None,
    fmt: str,
    resume: bool,
    timeout: float | None,
    chunk_size: int | None,
    max_attempts: int | None,
    quiet: bool,
    audit: bool = False,
    trust: bool = False,
    dedupe: bool = True,
) -> None:
    from ..batch import BatchJob, Component, is_recipe, load_recipe, run_batch
    from ..batch.backends import default_workers
    from ..batch.job import DEFAULT_MAX_ATTEMPTS, family_ref
    from ..batch.runner import check_run_options
    from ..core.errors import ConfigError
    from ..core.registry import resolve_family

    if n is not None and n < 1:
        raise ConfigError(f"-n {n}", field="-n", expected="a count >= 1")
    check_run_options(fmt, backend, workers, chunk_size)
    if backend == "local" and workers is not None and workers > default_workers() and not quiet:
        typer.echo(
            f"note: --workers {workers} capped at {default_workers()}, the cores this "
            "process may use (the output does not depend on it)",
            err=True,
        )
    if is_recipe(target):
        if params:
            raise ConfigError(
                "--param does not apply to a recipe",
                field="--param",
                expected="params inside the recipe's components",
            )
        job = load_recipe(target, n=n, seed=seed, timeout_per_item=timeout)
        if max_attempts is not None:
            job = dataclasses.replace(job, max_attempts=max_attempts)
    else:
        if n is None:
            raise ConfigError("how many puzzles?", field="-n", expected="-n N (N >= 1)")
        # a clear UnknownFamily / TrustRequired error before anything starts
        options = {"trust": True} if trust else {}
        resolve_family(target, **options)
        job = BatchJob(
            components=(
                Component(
                    ref=family_ref(target),
                    count=n,
                    params=parse_param_pairs(params),
                    options=options,
                ),
            ),
            seed=seed or 0,
            max_attempts=max_attempts or DEFAULT_MAX_ATTEMPTS,
            timeout_per_item=timeout,
        )
    if audit:
        job = dataclasses.replace(job, audit=True)
    if not dedupe:
        job = dataclasses.replace(job, dedupe=False)
    progress = _Progress(f"generate {Path(target).name}", job.total)
    try:
        summary = run_batch(
            job,
            out,
            fmt=fmt,
            workers=workers,
            backend=backend,
            resume=resume,
            ray_address=ray_address,
            chunk_size=chunk_size,
            on_progress=None
            if quiet
            else (lambda s: progress.update(s.done, s.rejects, s.rate, s.eta)),
        )
    finally:
        progress.close()
    if not quiet:
        for line in summary.lines():
            typer.echo(line)
        from ..batch.summary import sidecar

        typer.echo(f"summary: {sidecar(out, 'summary.json')}")


def _show(path: Path, index: int, record_id: str | None) -> None:
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table

    from ..batch.sinks import iter_records
    from ..core.errors import InvalidDescription
    from ..core.puzzle import canonical_json

    chosen = None
    count = 0
    for position, (_, record) in enumerate(iter_records(path)):
        count += 1
        if (record_id is not None and str(record.get("id")) == record_id) or (
            record_id is None and position == index
        ):
            chosen = record
            break
    if chosen is None:
        what = f"id {record_id}" if record_id is not None else f"index {index}"
        raise InvalidDescription(
            f"no record with {what} ({count} records read)",
            file=str(path),
            expected="--index from 0 to the number of records - 1, or an existing --id",
        )
    console = Console()
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold")
    head.add_column()
    meta = chosen.get("meta") or {}
    head.add_row("family", str(chosen.get("family")))
    head.add_row("id", str(chosen.get("id")))
    head.add_row("difficulty", str(chosen.get("difficulty")))
    head.add_row("params", canonical_json(chosen.get("params") or {}))
    head.add_row("seed", str(chosen.get("seed")))
    for key in ("index", "tier", "split", "source"):
        if key in meta:
            head.add_row(key, str(meta[key]))
    console.print(head)
    console.print(Panel(str(chosen.get("question", "")), title="question", title_align="left"))
    console.print(
        Panel(
            str(chosen.get("answer", "")), title="answer", title_align="left", border_style="green"
        )
    )


def register(app: typer.Typer) -> None:
    @app.command("generate")
    @run_guarded
    def generate_command(
        family: str = typer.Argument(..., help="Family id, spec .yaml file, or recipe .yaml."),
        n: int | None = typer.Option(
            None, "-n", "--count", min=1, help="Number of puzzles (>= 1)."
        ),
        seed: int | None = typer.Option(
            None,
            "--seed",
            min=SEED_MIN,
            max=SEED_MAX,
            help="Run seed, a 64-bit integer (default 0, or the recipe's seed).",
        ),
        out: Path = typer.Option(
            ..., "--out", "-o", help="Output .jsonl file (or directory for --format parquet)."
        ),
        param: list[str] = typer.Option(
            [], "--param", "-p", help="Family parameter key=value (repeatable)."
        ),
        workers: int | None = typer.Option(
            None,
            "--workers",
            "-w",
            min=1,
            help="Processes (default and maximum: the cores this process may use).",
        ),
        backend: str = typer.Option("local", "--backend", help="local or ray."),
        ray_address: str | None = typer.Option(
            None, "--ray-address", help="Ray cluster address ('auto'); default starts a local one."
        ),
        fmt: str = typer.Option("jsonl", "--format", help="jsonl or parquet."),
        resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run."),
        timeout: float | None = typer.Option(
            None,
            "--timeout-per-item",
            help="CPU seconds per attempt (a runaway stop: an attempt that reaches it "
            "stops the run with exit status 4; docs/limits.md).",
        ),
        chunk_size: int | None = typer.Option(
            None, "--chunk-size", min=1, max=MAX_CHUNK_SIZE, help="Items per chunk."
        ),
        max_attempts: int | None = typer.Option(
            None,
            "--max-attempts",
            min=1,
            help="Attempts per item, each with a new "
            "seed (default 4; spec files retry inside "
            "instead: --param attempts=N).",
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress or summary."),
        audit: bool = typer.Option(
            False, "--audit", help="Also run each family's exact audit while generating (slower)."
        ),
        trust: bool = typer.Option(False, "--trust", help=TRUST_HELP),
        no_dedupe: bool = typer.Option(
            False,
            "--no-dedupe",
            help="Keep puzzles whose question "
            "repeats an earlier one (default: drop them and take "
            "the next index).",
        ),
    ) -> None:
        """Generate a dataset: N verified puzzles, deterministic for the seed."""
        _generate(
            family,
            n,
            seed,
            out,
            param,
            workers,
            backend,
            ray_address,
            fmt,
            resume,
            timeout,
            chunk_size,
            max_attempts,
            quiet,
            audit,
            trust,
            not no_dedupe,
        )

    @app.command("verify")
    @run_guarded
    def verify_command(
        path: Path = typer.Argument(..., help="Dataset (.jsonl, .parquet or a Parquet dir)."),
        workers: int | None = typer.Option(
            None, "--workers", "-w", min=1, help="Processes (at most the cores)."
        ),
        no_audit: bool = typer.Option(False, "--no-audit", help="Skip the families' audits."),
        audit_seconds: float = typer.Option(
            60.0,
            "--audit-seconds",
            help="Bound of each spec record's uniqueness audit (a fresh solver), in "
            "idle-machine seconds of solver work (counted, so the report is the same on a busy "
            "machine; a wall-clock net of 3x stays); a record it cannot decide within it is "
            "reported 'undecided', never as a pass, and the command exits 1.",
        ),
        trust: bool = typer.Option(False, "--trust", help=TRUST_HELP),
    ) -> None:
        """Re-derive every record and check its answer; exit 1 if any is wrong or undecided."""
        from ..batch.verify import verify_file
        from ..core.errors import ConfigError

        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", str(path))
        if not audit_seconds > 0:
            raise ConfigError(
                f"--audit-seconds must be > 0, got {audit_seconds:g}",
                field="--audit-seconds",
                expected="a positive number of seconds",
            )
        progress = _Progress(f"verify {path.name}", 0, rejects=False)
        try:
            report = verify_file(
                path,
                workers=workers,
                audit=not no_audit,
                audit_seconds=audit_seconds,
                trust=trust,
                on_progress=lambda done: progress.update(
                    done, rate=done / max(1e-9, time.monotonic() - progress.started)
                ),
            )
        finally:
            progress.close()
        for check in report.wrong:
            typer.echo(
                f"record {check.number} (id {check.id}, {check.family}): "
                + "; ".join(check.problems)
            )
        for check in report.undecided:
            typer.echo(
                f"record {check.number} (id {check.id}, {check.family}): uniqueness "
                f"undecided: {check.uniqueness_detail}"
            )
        typer.echo(f"{report.correct}/{report.checked} correct in {path}")
        if report.uniqueness:
            typer.echo(
                "uniqueness audit: "
                + ", ".join(
                    f"{report.uniqueness.get(k, 0)} {k}"
                    for k in ("pass", "ambiguous", "wrong", "undecided", "error")
                    if k == "pass" or report.uniqueness.get(k, 0)
                )
            )
        if report.wrong or report.undecided or report.checked == 0:
            raise typer.Exit(1)

    @app.command("show")
    @run_guarded
    def show_command(
        path: Path = typer.Argument(..., help="Dataset file."),
        index: int = typer.Option(0, "--index", "-i", min=0, help="0-based record position."),
        record_id: str | None = typer.Option(None, "--id", help="Record id instead."),
    ) -> None:
        """Pretty-print one puzzle with its answer."""
        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", str(path))
        _show(path, index, record_id)

    @app.command("score")
    @run_guarded
    def score_command(
        dataset: Path = typer.Argument(..., help="Dataset the answers are for."),
        answers: Path = typer.Argument(..., help='JSONL of {"id": ..., "answer": ...}.'),
        json_out: Path | None = typer.Option(
            None,
            "--json",
            help="Where to write the JSON report (default ANSWERS.scores.json; '-' prints it).",
        ),
        trust: bool = typer.Option(False, "--trust", help=TRUST_HELP),
    ) -> None:
        """Score a model's answers: accuracy and mean partial credit per family and tier."""
        from rich.console import Console
        from rich.table import Table

        from ..batch.scoring import score_file
        from ..batch.summary import write_json_atomic

        for p in (dataset, answers):
            if not p.exists():
                raise FileNotFoundError(2, "No such file or directory", str(p))
        report = score_file(dataset, answers, trust=trust)
        data = report.to_dict()
        table = Table(title=f"scores of {answers.name} on {dataset.name}")
        for col in ("group", "name", "n", "correct", "accuracy", "mean score"):
            table.add_column(col, justify="right" if col not in ("group", "name") else "left")
        rows = [("family", k, g) for k, g in data["by_family"].items()]
        rows += [("tier", k, g) for k, g in data["by_tier"].items()]
        rows.append(("all", "", data["overall"]))
        for group, name, g in rows:
            table.add_row(
                group,
                name,
                str(g["n"]),
                str(g["correct"]),
                f"{g['accuracy']:.3f}",
                f"{g['mean_score']:.3f}",
            )
        Console().print(table)
        if report.missing or report.unknown_ids:
            typer.echo(
                f"{report.missing} record(s) had no answer (scored 0); "
                f"{report.unknown_ids} answer id(s) are not in the dataset"
            )
        if str(json_out) == "-":
            import orjson

            typer.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
            return
        target = json_out or answers.with_name(answers.stem + ".scores.json")
        write_json_atomic(target, data)
        typer.echo(f"json: {target}")
