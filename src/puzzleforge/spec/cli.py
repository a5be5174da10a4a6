"""``puzzleforge spec ...``: generate puzzles from a PuzzleClone spec, replay configs, check specs.

Heavy imports (Z3, the spec engine) stay inside the commands so ``puzzleforge --help``
stays fast.
"""
from __future__ import annotations

from typing import List, Optional

import typer

from ..core.cliguard import run_guarded
from ..core.clioptions import SEED_HELP, SEED_MAX, SEED_MIN, positive_seconds

__all__ = ["app"]

app = typer.Typer(help="PuzzleClone YAML specs: generate, replay and check.", no_args_is_help=True,
                  add_completion=False, pretty_exceptions_enable=False)


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
                                 help="Attempts (fresh randomness) per puzzle."),
    max_seconds: float = typer.Option(
        120.0, "--max-seconds", callback=positive_seconds,
        help="Wall-clock safety net per puzzle: when it fires the run stops at that puzzle "
             "(it is never replaced by another), since what came out would depend on machine load."),
    attempt_seconds: float = typer.Option(
        15.0, "--attempt-seconds", callback=positive_seconds,
        help="Z3 work budget per attempt, in seconds of an idle machine. Counted in Z3 resource "
             "units, not time, so results do not depend on machine load (raise it for specs "
             "whose solving is hard)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary on stderr."),
    workers: int = typer.Option(1, "--workers", "-w", min=1,
                                help="Processes (the output does not depend on it)."),
    resume: bool = typer.Option(False, "--resume", help="With --out: continue an interrupted run."),
) -> None:
    """Generate N verified puzzles (JSONL of puzzle records) or replay configs.

    Generation is the batch runner (``puzzleforge generate SPEC``) with the spec's
    settings as params: the same seed gives the same records from both commands.
    """
    from .family import SpecParams

    SpecParams(attempts=attempts, attempt_seconds=attempt_seconds,
               max_seconds=max_seconds).validate()
    if config:
        from .replaycli import replay_configs

        replay_configs(spec, config, seed=seed, out=out, trust=trust,
                       use_spec_vars=tuple(use_spec_vars or ()), attempts=attempts,
                       attempt_seconds=attempt_seconds, max_seconds=max_seconds, quiet=quiet)
        return
    from .batchcli import generate_batch

    generate_batch(spec, n, seed, out=out, trust=trust, attempts=attempts,
                   attempt_seconds=attempt_seconds, max_seconds=max_seconds, quiet=quiet,
                   workers=workers, resume=resume)


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
