"""``puzzleforge spec ...``: the spec engine's commands (``check``).

``spec generate`` is added to this app by the CLI layer (cli/spec_commands.py), because
it is the batch runner, a layer above the engines. Heavy imports (Z3, the spec engine)
stay inside the commands so ``puzzleforge --help`` stays fast.
"""

from __future__ import annotations

import typer

from ..core.cliguard import run_guarded

__all__ = ["app"]

app = typer.Typer(
    help="PuzzleClone YAML specs: generate, replay and check.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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

    # a trusted spec's operator files run in a worker the kernel bounds (spec/trusted.py)
    family = load_spec_family(spec, trust=trust, worker=trust)
    s = family.spec
    typer.echo(f"{family.name}: {spec}")
    typer.echo(
        f"  variables: {len(s.variables)}  symbols: {len(s.symbols)}"
        f"  conditions: {len(s.conditions)}"
        f"  queries: {len(s.queries)}  operators: {len(s.operators)}"
    )
    kinds = ", ".join(
        f"{k}={q['kind'] if q['kind'] == 'open' else q['query_type']}" for k, q in s.queries.items()
    )
    typer.echo(
        f"  queries: {kinds or 'none'}; solving: "
        + (
            "post_generation"
            if s.post_generation
            else "optimize"
            if s.optimize
            else "enumerate"
            if s.calc_solution
            else "none"
        )
        + f"; max_solution={s.max_solution}"
    )
    try:
        puzzle = family.generate(SpecParams(attempts=tries, max_seconds=60), make_rng(0))
    except GenerationFailed as exc:
        typer.echo(
            f"  no puzzle in {exc.attempts} attempts; rejections: "
            + ", ".join(f"{k}: {v}" for k, v in sorted(exc.reasons.items(), key=lambda kv: -kv[1]))
        )
        raise typer.Exit(1) from None
    typer.echo(
        f"  sample puzzle ok after {puzzle.meta['attempts']} attempt(s); answer: {puzzle.answer}"
    )
