"""``puzzleforge spec ...``: generate puzzles from a PuzzleClone spec, replay configs, check specs.

Heavy imports (Z3, the spec engine) stay inside the commands so ``puzzleforge --help``
stays fast.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..core.cliguard import run_guarded
from ..core.clioptions import SEED_HELP, SEED_MAX, SEED_MIN, positive_seconds

__all__ = ["app"]

app = typer.Typer(help="PuzzleClone YAML specs: generate, replay and check.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)


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
                raise InvalidDescription(f"line {n} is not valid JSON ({exc})", file=source, line=n,
                                         expected="one JSON object per line") from None
    for n, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise InvalidDescription(f"item {n} is not a JSON object", file=source, line=n)
        cfg = item.get("config", item) if ("config" in item and isinstance(item.get("config"), dict)) else item
        out.append(cfg)
    return out


@app.command("generate")
@run_guarded
def generate(
    spec: str = typer.Argument(..., help="Path to a PuzzleClone .yaml spec."),
    n: int = typer.Option(1, "-n", "--count", min=1, help="Number of puzzles (>= 1)."),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX,
                             help="Base seed, " + SEED_HELP + " (item i uses "
                                  "derive_seed(seed, family, i))."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Output JSONL file (default: stdout)."),
    trust: bool = typer.Option(False, "--trust", help="Allow custom operators from .py files."),
    config: Optional[str] = typer.Option(None, "--config", help="Replay configs from a .json/.jsonl file."),
    use_spec_vars: Optional[List[str]] = typer.Option(
        None, "--use-spec-vars", help="With --config: re-randomise these variables (repeatable)."),
    attempts: int = typer.Option(2000, "--attempts", min=1,
                                 help="Attempts (fresh seeds) per puzzle."),
    max_seconds: float = typer.Option(
        120.0, "--max-seconds", callback=positive_seconds,
        help="Wall-clock safety net per puzzle: when it fires the puzzle is reported as failed "
             "(never replaced by another), since what came out would depend on machine load."),
    attempt_seconds: float = typer.Option(
        15.0, "--attempt-seconds", callback=positive_seconds,
        help="Z3 work budget per attempt, in seconds of an idle machine. Counted in Z3 resource "
             "units, not time, so results do not depend on machine load (raise it for specs "
             "whose solving is hard)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary on stderr."),
) -> None:
    """Generate N verified puzzles (JSONL of puzzle records) or replay configs."""
    import sys
    import time
    from collections import Counter

    from ..core.errors import GenerationFailed
    from ..core.puzzle import stamp
    from ..core.seeding import derive_seed, make_rng
    from .family import (SAFETY_NET, SafetyNetFailed, SpecParams, UndecidedSpec, load_spec_family,
                         stop_if_undecided)

    family = load_spec_family(spec, trust=trust)
    params = SpecParams(attempts=1, attempt_seconds=attempt_seconds, max_seconds=max_seconds)
    params.validate()
    reasons: Counter = Counter()
    lines: list[str] = []
    failed = 0
    start = time.monotonic()
    from ..core.safeoutput import StreamOutput

    # the existing --out file is replaced only by a complete run (records stream to .partial)
    sink = StreamOutput(out) if out else None
    extra_vars = tuple(use_spec_vars or ())
    recent: list[tuple] = []
    netted: list[int] = []  # items the wall-clock safety net stopped (load-dependent)
    stopped = None  # UndecidedSpec: the spec's uniqueness checks stay undecided (issue 23)
    skipped: list[tuple[int, str]] = []  # configs that could not be replayed: (number, why)
    try:
        if config:
            configs = _read_configs(config)
            n = len(configs)
            for i, cfg in enumerate(configs):
                s = derive_seed(seed, family.name, i)
                try:
                    puzzle = family.generate(SpecParams(attempts=attempts if extra_vars else 1,
                                                        attempt_seconds=attempt_seconds,
                                                        max_seconds=max_seconds),
                                             make_rng(s), config=cfg, use_spec_vars=extra_vars)
                except SafetyNetFailed as exc:
                    reasons.update(exc.reasons)
                    netted.append(i)
                    failed += 1
                    continue
                except GenerationFailed as exc:  # this config cannot be replayed: skip, count
                    reasons.update(exc.reasons)
                    skipped.append((i + 1, getattr(exc, "detail", "")
                                    or ", ".join(sorted(exc.reasons)) or str(exc)))
                    continue
                except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                    # a config entry of the wrong shape (a pool that is not a list, ...)
                    reasons["malformed config"] += 1
                    skipped.append((i + 1, f"malformed config: {type(exc).__name__}: {exc}"))
                    continue
                stamp(puzzle, s)
                _emit(puzzle, family, sink, lines)
        else:
            for i in range(n):
                deadline = time.monotonic() + max_seconds
                done = False
                item_reasons: Counter = Counter()  # this puzzle's rejections (undecided limit)
                for attempt in range(attempts):
                    if time.monotonic() > deadline:
                        reasons[SAFETY_NET] += 1
                        netted.append(i)
                        break
                    s = derive_seed(seed, family.name, i, attempt)
                    try:
                        puzzle = family.generate(params, make_rng(s), deadline=deadline)
                    except SafetyNetFailed as exc:
                        reasons.update(exc.reasons)
                        netted.append(i)
                        break
                    except GenerationFailed as exc:
                        reasons.update(exc.reasons)
                        item_reasons.update(exc.reasons)
                        try:
                            stop_if_undecided(item_reasons, spec, attempt + 1)
                        except UndecidedSpec as stop:
                            stopped = stop
                            break
                        recent.append(tuple(sorted(exc.reasons)))
                        if not lines and len(recent) >= 5 and len(set(recent[-5:])) == 1 and \
                                all(k.startswith("error in ") for k in recent[-1]):
                            # the same expression error every time: let the family report it
                            family.generate(SpecParams(attempts=10, attempt_seconds=attempt_seconds,
                                                       max_seconds=max_seconds), make_rng(s))
                        continue
                    puzzle.meta["attempt"] = attempt
                    stamp(puzzle, s)
                    _emit(puzzle, family, sink, lines)
                    done = True
                    break
                if not done:
                    failed += 1
                if stopped is not None:
                    break
        if sink and not failed and stopped is None:
            sink.commit()
    finally:
        if sink:
            kept = sink.close()
    elapsed = time.monotonic() - start
    made = len(lines)
    if not quiet:
        summary = ", ".join(f"{k}: {v}" for k, v in reasons.most_common()) or "none"
        typer.echo(f"{family.name}: {made} puzzle(s), {failed} failed, {elapsed:.2f}s "
                   f"({made / elapsed if elapsed > 0 else 0:.1f}/s); rejections: {summary}", err=True)
    if stopped is not None:
        raise stopped
    if skipped and not failed:
        shown = "; ".join(f"#{k} ({why})" for k, why in skipped[:20])
        more = f"; and {len(skipped) - 20} more" if len(skipped) > 20 else ""
        typer.echo(f"error: {len(skipped)} of {n} config(s) in {config} could not be replayed and "
                   f"were skipped (numbered from 1): {shown}{more}. The other {made} were written.",
                   err=True)
        raise typer.Exit(2)
    if failed:
        net = ""
        if netted:
            net = (f"; the wall-clock safety net (--max-seconds {max_seconds:g}) stopped item(s) "
                   f"{', '.join(map(str, netted))}, so this output depends on machine load: raise "
                   f"--max-seconds or rerun on a less loaded machine")
        raise GenerationFailed(
            f"{failed} of {n} puzzle(s) could not be generated within {attempts} attempts / "
            f"{max_seconds}s each; rejections by reason: "
            + (", ".join(f"{k}: {v}" for k, v in reasons.most_common()) or "none") + net
            + (f"; config(s) skipped as not replayable: {', '.join(f'#{k}' for k, _ in skipped)}"
               if skipped else ""),
            attempts=attempts, reasons=dict(reasons), file=spec,
            hint=(f"{out} was left unchanged; the {made} puzzle(s) made are in {sink.partial}"
                  if sink is not None and kept else None))
    sys.stdout.flush()


def _emit(puzzle, family, sink, lines: list[str]) -> None:
    """Write one record now: flushed (and fsynced to a file) so a killed run keeps it."""
    import os
    import sys

    from ..core.errors import PuzzleForgeError

    if family.verify(puzzle, puzzle.answer) != 1.0:
        raise PuzzleForgeError("internal check failed: the stored answer does not verify",
                               file=family.path)
    text = puzzle.to_json()
    stream = sink if sink is not None else sys.stdout
    stream.write(text + "\n")
    stream.flush()
    if sink is not None:
        os.fsync(sink.fileno())
    lines.append(text)


@app.command("check")
@run_guarded
def check(
    spec: str = typer.Argument(..., help="Path to a PuzzleClone .yaml spec."),
    trust: bool = typer.Option(False, "--trust", help="Allow custom operators from .py files."),
    tries: int = typer.Option(50, "--tries", min=1, help="Attempts used to try one puzzle."),
) -> None:
    """Validate a spec (schema, names, expressions) and try to generate one puzzle."""
    from ..core.errors import GenerationFailed
    from ..core.seeding import make_rng
    from .family import SpecParams, load_spec_family

    family = load_spec_family(spec, trust=trust)
    s = family.spec
    typer.echo(f"{family.name}: {spec}")
    typer.echo(f"  variables: {len(s.variables)}  symbols: {len(s.symbols)}  conditions: {len(s.conditions)}"
               f"  queries: {len(s.queries)}  operators: {len(s.operators)}")
    kinds = ", ".join(f"{k}={q['kind'] if q['kind'] == 'open' else q['query_type']}" for k, q in s.queries.items())
    typer.echo(f"  queries: {kinds or 'none'}; solving: "
               + ("post_generation" if s.post_generation else "optimize" if s.optimize
                  else "enumerate" if s.calc_solution else "none") + f"; max_solution={s.max_solution}")
    try:
        puzzle = family.generate(SpecParams(attempts=tries, max_seconds=60), make_rng(0))
    except GenerationFailed as exc:
        typer.echo(f"  no puzzle in {exc.attempts} attempts; rejections: "
                   + ", ".join(f"{k}: {v}" for k, v in sorted(exc.reasons.items(), key=lambda kv: -kv[1])))
        raise typer.Exit(1)
    typer.echo(f"  sample puzzle ok after {puzzle.meta['attempts']} attempt(s); answer: {puzzle.answer}")
