"""``puzzleforge spec generate --config``: rebuild puzzles from stored configs, one per config.

Why apart from generation: a replay is no generation loop (no retries with fresh
randomness, no dedupe: config *i* gives record *i* or is skipped and counted), so it does
not go through the batch runner; its output is as safe (records stream to ``.partial``
and the ``--out`` file is replaced only by a complete run). Configs are parsed as JSON
only: no text from the file is ever executed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

__all__ = ["replay_configs"]


def replay_configs(
    spec: str,
    config: str,
    *,
    seed: int,
    out: str | None,
    trust: bool,
    use_spec_vars: tuple[str, ...],
    attempts: int,
    attempt_seconds: float,
    max_seconds: float,
    quiet: bool,
) -> None:
    """Replay every config of ``config`` (a .json, a .jsonl of records, or inline JSON).

    Config *i* uses ``derive_seed(seed, family, i)`` (re-randomised variables draw from
    it); a config that cannot be replayed is skipped, counted and named at the end.
    """
    import sys
    import time
    from collections import Counter

    from ..core.errors import GenerationFailed
    from ..core.puzzle import stamp
    from ..core.safeoutput import StreamOutput
    from ..core.seeding import derive_seed, make_rng
    from .family import SafetyNetFailed, SpecParams, load_spec_family

    # a trusted spec's operator files run in a worker the kernel bounds (spec/trusted.py)
    family = load_spec_family(spec, trust=trust, worker=trust)
    reasons: Counter = Counter()
    lines: list[str] = []
    failed = 0
    start = time.monotonic()
    # the existing --out file is replaced only by a complete run (records stream to .partial)
    sink = StreamOutput(out) if out else None
    netted: list[int] = []  # configs the CPU safety net stopped (speed-dependent)
    skipped: list[tuple[int, str]] = []  # configs that could not be replayed: (number, why)
    n = 0
    try:
        configs = _read_configs(config)
        n = len(configs)
        for i, cfg in enumerate(configs):
            s = derive_seed(seed, family.name, i)
            try:
                puzzle = family.generate(
                    SpecParams(
                        attempts=attempts if use_spec_vars else 1,
                        attempt_seconds=attempt_seconds,
                        max_seconds=max_seconds,
                    ),
                    make_rng(s),
                    config=cfg,
                    use_spec_vars=use_spec_vars,
                )
            except SafetyNetFailed as exc:
                reasons.update(exc.reasons)
                netted.append(i)
                failed += 1
                continue
            except GenerationFailed as exc:  # this config cannot be replayed: skip, count
                reasons.update(exc.reasons)
                skipped.append(
                    (
                        i + 1,
                        getattr(exc, "detail", "") or ", ".join(sorted(exc.reasons)) or str(exc),
                    )
                )
                continue
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                # a config entry of the wrong shape (a pool that is not a list, ...)
                reasons["malformed config"] += 1
                skipped.append((i + 1, f"malformed config: {type(exc).__name__}: {exc}"))
                continue
            stamp(puzzle, s)
            _emit(puzzle, family, sink, lines)
        if sink and not failed:
            sink.commit()
    finally:
        if sink:
            kept = sink.close()
    elapsed = time.monotonic() - start
    made = len(lines)
    if not quiet:
        summary = ", ".join(f"{k}: {v}" for k, v in reasons.most_common()) or "none"
        typer.echo(
            f"{family.name}: {made} puzzle(s), {failed} failed, {elapsed:.2f}s "
            f"({made / elapsed if elapsed > 0 else 0:.1f}/s); rejections: {summary}",
            err=True,
        )
    if skipped and not failed:
        shown = "; ".join(f"#{k} ({why})" for k, why in skipped[:20])
        more = f"; and {len(skipped) - 20} more" if len(skipped) > 20 else ""
        typer.echo(
            f"error: {len(skipped)} of {n} config(s) in {config} could not be replayed and "
            f"were skipped (numbered from 1): {shown}{more}. The other {made} were written.",
            err=True,
        )
        raise typer.Exit(2)
    if failed:
        raise SafetyNetFailed(
            f"{failed} of {n} config(s) could not be replayed within {max_seconds:g} CPU seconds "
            f"each: the safety net (--max-seconds {max_seconds:g}) stopped config(s) "
            f"{', '.join(str(i + 1) for i in netted)}, so this output would depend on the "
            f"machine's speed: raise --max-seconds"
            + (
                f"; config(s) skipped as not replayable: {', '.join(f'#{k}' for k, _ in skipped)}"
                if skipped
                else ""
            ),
            attempts=attempts,
            reasons=dict(reasons),
            file=spec,
            hint=(
                f"{out} was left unchanged; the {made} puzzle(s) made are in {sink.partial}"
                if sink is not None and kept
                else None
            ),
        )
    sys.stdout.flush()


def _read_configs(source: str) -> list[dict]:
    """Configs from a .json file (one config), a .jsonl of records, or inline JSON text.

    Only JSON is parsed; no text from the file is ever executed.
    """
    import orjson

    from ..core.errors import InvalidDescription

    path = Path(source)
    text = path.read_text(encoding="utf-8") if path.exists() else source
    out: list[dict] = []
    stripped = text.strip()
    if not stripped:
        raise InvalidDescription("config input is empty", file=source, expected="JSON or JSONL")
    try:
        whole = orjson.loads(stripped)
        items = [whole] if isinstance(whole, dict) else None
    except orjson.JSONDecodeError:
        items = None
    if items is None:
        items = []
        for n, line in enumerate(stripped.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append(orjson.loads(line))
            except orjson.JSONDecodeError as exc:
                raise InvalidDescription(
                    f"line {n} is not valid JSON ({exc})",
                    file=source,
                    line=n,
                    expected="one JSON object per line",
                ) from None
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InvalidDescription(f"item {n} is not a JSON object", file=source, line=n)
        cfg = (
            item.get("config", item)
            if ("config" in item and isinstance(item.get("config"), dict))
            else item
        )
        out.append(cfg)
    return out


def _emit(puzzle: Any, family: Any, sink: Any, lines: list[str]) -> None:
    """Write one record now: flushed (and fsynced to a file) so a killed run keeps it."""
    import os
    import sys

    from ..core.errors import PuzzleForgeError

    if family.verify(puzzle, puzzle.answer) != 1.0:
        raise PuzzleForgeError(
            "internal check failed: the stored answer does not verify", file=family.path
        )
    text = puzzle.to_json()
    stream = sink if sink is not None else sys.stdout
    stream.write(text + "\n")
    stream.flush()
    if sink is not None:
        os.fsync(sink.fileno())
    lines.append(text)
