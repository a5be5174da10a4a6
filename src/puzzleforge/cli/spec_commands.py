"""``puzzleforge spec generate``: the batch runner with a spec's settings as its params.

Why no loop of its own: ``puzzleforge generate SPEC`` and ``puzzleforge spec generate
SPEC`` must give the same records for the same seed, so both are one loop, the batch
runner (batch/runner.py): item *i* uses ``derive_seed(seed, family, i)``, the spec family
retries rejected attempts inside its ``generate`` (``--attempts``), and a record's id
depends on the spec's content, its params, the seed and the index only. Why in the CLI
layer: the batch runner sits above the engines, which never import it; this module adds
the command to the spec engine's app (spec/cli.py). What stays here are the defaults of
this command: one worker, records handed on one at a time (printed to stdout as they
come when there is no ``--out``), and its one-line summary on stderr. ``--config``
replays stored configs instead (spec/replaycli.py), one record per config.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import typer

from ..core.cliguard import run_guarded
from ..core.clioptions import SEED_HELP, SEED_MAX, SEED_MIN, positive_seconds
from ..spec.cli import app

if TYPE_CHECKING:
    from ..batch import BatchJob

__all__ = ["app", "generate_batch", "spec_job"]


def spec_job(
    spec: str,
    n: int,
    seed: int,
    *,
    trust: bool,
    attempts: int,
    attempt_seconds: float,
    max_seconds: float,
    dedupe: bool = True,
) -> BatchJob:
    """The BatchJob of ``spec generate`` (``generate SPEC --param ...`` builds the same one)."""
    from ..batch import BatchJob, Component
    from ..batch.job import family_ref

    params = {"attempts": attempts, "attempt_seconds": attempt_seconds, "max_seconds": max_seconds}
    return BatchJob(
        components=(
            Component(
                ref=family_ref(spec),
                count=n,
                params=params,
                options={"trust": True} if trust else {},
            ),
        ),
        seed=seed,
        dedupe=dedupe,
    )


def generate_batch(
    spec: str,
    n: int,
    seed: int,
    *,
    out: str | None,
    trust: bool,
    attempts: int,
    attempt_seconds: float,
    max_seconds: float,
    quiet: bool,
    workers: int,
    resume: bool,
    dedupe: bool = True,
) -> None:
    """Run ``spec_job`` into ``out`` (or a temporary folder, printing each record to stdout)."""
    from ..batch import run_batch
    from ..core.errors import ConfigError, PuzzleForgeError
    from ..spec.family import load_spec_family

    if resume and out is None:
        raise ConfigError(
            "--resume continues a file",
            field="--resume",
            expected="--out FILE of the interrupted run",
        )
    name = load_spec_family(spec, trust=trust).name  # spec errors before anything starts
    job = spec_job(
        spec,
        n,
        seed,
        trust=trust,
        attempts=attempts,
        attempt_seconds=attempt_seconds,
        max_seconds=max_seconds,
        dedupe=dedupe,
    )
    reasons: Counter = Counter()  # rejected attempts inside the puzzles made, by reason
    made = 0

    def took(lines: list[str], echo: bool) -> None:
        nonlocal made
        made += len(lines)
        for line in lines:
            reasons.update((orjson.loads(line).get("meta") or {}).get("rejections") or {})
        if echo:
            sys.stdout.write("".join(line + "\n" for line in lines))
            sys.stdout.flush()

    summary = None
    try:
        if out is None:
            with tempfile.TemporaryDirectory(prefix="puzzleforge-spec-") as folder:
                try:
                    summary = run_batch(
                        job,
                        Path(folder) / "puzzles.jsonl",
                        workers=workers,
                        chunk_size=1,
                        on_records=lambda lines: took(lines, True),
                    )
                except PuzzleForgeError as exc:
                    if exc.hint and folder in exc.hint:  # the journal goes with the folder
                        exc.hint = f"the {made} puzzle(s) made before it were printed above"
                        exc.args = (exc._compose(),)
                    raise
        else:
            summary = run_batch(
                job,
                out,
                workers=workers,
                resume=resume,
                chunk_size=1,
                on_records=lambda lines: took(lines, False),
            )
    finally:
        if not quiet:
            skipped = dict(summary.rejects) if summary is not None else {}
            text = ", ".join(f"{k}: {v}" for k, v in reasons.most_common()) or "none"
            items = ", ".join(f"{k}: {v}" for k, v in sorted(skipped.items()))
            # the counts come from the records made; with none made, "none" would contradict
            # the error below, which lists the rejections of the item that failed
            typer.echo(
                f"{name}: {made} puzzle(s)"
                + (f"; rejected attempts on the way: {text}" if made else "")
                + (f"; items replaced: {items}" if items else ""),
                err=True,
            )


@app.command("generate")
@run_guarded
def generate(
    spec: str = typer.Argument(..., help="Path to a PuzzleClone .yaml spec."),
    n: int = typer.Option(1, "-n", "--count", min=1, help="Number of puzzles (>= 1)."),
    seed: int = typer.Option(
        0,
        "--seed",
        min=SEED_MIN,
        max=SEED_MAX,
        help="Base seed, " + SEED_HELP + " (item i uses derive_seed(seed, family, i)).",
    ),
    out: str | None = typer.Option(
        None, "--out", "-o", help="Output JSONL file (default: stdout)."
    ),
    trust: bool = typer.Option(False, "--trust", help="Allow custom operators from .py files."),
    config: str | None = typer.Option(
        None, "--config", help="Replay configs from a .json/.jsonl file."
    ),
    use_spec_vars: list[str] | None = typer.Option(
        None, "--use-spec-vars", help="With --config: re-randomise these variables (repeatable)."
    ),
    attempts: int = typer.Option(
        2000, "--attempts", min=1, help="Attempts (fresh randomness) per puzzle."
    ),
    max_seconds: float = typer.Option(
        120.0,
        "--max-seconds",
        callback=positive_seconds,
        help="CPU safety net per puzzle (CPU seconds): when it fires the run stops at that "
        "puzzle with exit status 4 (it is never replaced by another), since what came out "
        "would depend on the machine's speed.",
    ),
    attempt_seconds: float = typer.Option(
        15.0,
        "--attempt-seconds",
        callback=positive_seconds,
        help="Z3 work budget per attempt, in seconds of an idle machine. Counted in Z3 resource "
        "units, not time, so results do not depend on machine load (raise it for specs "
        "whose solving is hard).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary on stderr."),
    workers: int = typer.Option(
        1, "--workers", "-w", min=1, help="Processes (the output does not depend on it)."
    ),
    resume: bool = typer.Option(False, "--resume", help="With --out: continue an interrupted run."),
    no_dedupe: bool = typer.Option(
        False,
        "--no-dedupe",
        help="Keep puzzles whose question "
        "repeats an earlier one (default: drop them and take the "
        "next index, as `generate` does).",
    ),
) -> None:
    """Generate N verified puzzles (JSONL of puzzle records) or replay configs.

    Generation is the batch runner (``puzzleforge generate SPEC``) with the spec's
    settings as params: the same seed gives the same records from both commands.
    """
    from ..spec.family import SpecParams

    SpecParams(
        attempts=attempts, attempt_seconds=attempt_seconds, max_seconds=max_seconds
    ).validate()
    if config:
        from ..spec.replaycli import replay_configs

        replay_configs(
            spec,
            config,
            seed=seed,
            out=out,
            trust=trust,
            use_spec_vars=tuple(use_spec_vars or ()),
            attempts=attempts,
            attempt_seconds=attempt_seconds,
            max_seconds=max_seconds,
            quiet=quiet,
        )
        return
    generate_batch(
        spec,
        n,
        seed,
        out=out,
        trust=trust,
        attempts=attempts,
        attempt_seconds=attempt_seconds,
        max_seconds=max_seconds,
        quiet=quiet,
        workers=workers,
        resume=resume,
        dedupe=not no_dedupe,
    )
