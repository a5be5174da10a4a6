"""``puzzleforge spec generate``: the batch runner with a spec's settings as its params.

Why no loop of its own: ``puzzleforge generate SPEC`` and ``puzzleforge spec generate
SPEC`` must give the same records for the same seed, so both are one loop, the batch
runner (batch/runner.py): item *i* uses ``derive_seed(seed, family, i)``, the spec family
retries rejected attempts inside its ``generate`` (``--attempts``), duplicates are dropped
and replaced by the next index, and a record's id depends on the spec's content, its
params, the seed and the index only. What stays here are the defaults of this command:
one worker, records handed on one at a time (printed to stdout as they come when there
is no ``--out``), and its one-line summary on stderr.
"""
from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
import typer

if TYPE_CHECKING:
    from ..batch import BatchJob

__all__ = ["generate_batch", "spec_job"]


def spec_job(spec: str, n: int, seed: int, *, trust: bool, attempts: int, attempt_seconds: float,
             max_seconds: float) -> "BatchJob":
    """The BatchJob of ``spec generate`` (``generate SPEC --param ...`` builds the same one)."""
    from ..batch import BatchJob, Component
    from ..batch.job import family_ref

    params = {"attempts": attempts, "attempt_seconds": attempt_seconds, "max_seconds": max_seconds}
    return BatchJob(components=(Component(ref=family_ref(spec), count=n, params=params,
                                          options={"trust": True} if trust else {}),),
                    seed=seed)


def generate_batch(spec: str, n: int, seed: int, *, out: str | None, trust: bool, attempts: int,
                   attempt_seconds: float, max_seconds: float, quiet: bool, workers: int,
                   resume: bool) -> None:
    """Run ``spec_job`` into ``out`` (or a temporary folder, printing each record to stdout)."""
    from ..batch import run_batch
    from ..core.errors import ConfigError, PuzzleForgeError
    from .family import load_spec_family

    if resume and out is None:
        raise ConfigError("--resume continues a file", field="--resume",
                          expected="--out FILE of the interrupted run")
    name = load_spec_family(spec, trust=trust).name  # spec errors before anything starts
    job = spec_job(spec, n, seed, trust=trust, attempts=attempts, attempt_seconds=attempt_seconds,
                   max_seconds=max_seconds)
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
                    summary = run_batch(job, Path(folder) / "puzzles.jsonl", workers=workers,
                                        chunk_size=1, on_records=lambda lines: took(lines, True))
                except PuzzleForgeError as exc:
                    if exc.hint and folder in exc.hint:  # the journal goes with the folder
                        exc.hint = f"the {made} puzzle(s) made before it were printed above"
                        exc.args = (exc._compose(),)
                    raise
        else:
            summary = run_batch(job, out, workers=workers, resume=resume, chunk_size=1,
                                on_records=lambda lines: took(lines, False))
    finally:
        if not quiet:
            skipped = dict(summary.rejects) if summary is not None else {}
            text = ", ".join(f"{k}: {v}" for k, v in reasons.most_common()) or "none"
            items = ", ".join(f"{k}: {v}" for k, v in sorted(skipped.items()))
            typer.echo(f"{name}: {made} puzzle(s); rejected attempts: {text}"
                       + (f"; items replaced: {items}" if items else ""), err=True)
