"""``puzzleforge crossnumber ...``: solve, check, show, generate cross-number puzzle files.

Heavy imports stay inside the commands so ``puzzleforge`` starts fast.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ..core.cliguard import run_guarded
from ..core.clioptions import SEED_HELP, SEED_MAX, SEED_MIN, positive_seconds

__all__ = ["app", "UNDECIDED_EXIT"]

#: Exit status when a limit stopped the search before it found or ruled out a solution
#: (1 is kept for a proven "no solution" or a wrong answer, 2 for bad input).
UNDECIDED_EXIT = 4

app = typer.Typer(
    name="crossnumber",
    help="Cross-number puzzles from declarative YAML files.",
    no_args_is_help=True,
    add_completion=False,
)


def _write_pdf(path: Path, model, solution) -> None:
    """Write the PDF sheet (needs fpdf2, the ``pdf`` extra)."""
    from ..core.safeoutput import write_atomic

    try:
        from .pdf import sheet_bytes
    except ImportError:
        from ..core.errors import ConfigError

        raise ConfigError(
            "PDF sheets need fpdf2", field="pdf", expected='pip install -e ".[pdf]"'
        ) from None
    write_atomic(path, sheet_bytes(model, solution), option="--pdf")


@app.command("solve")
@run_guarded
def solve_command(
    file: Path = typer.Argument(..., help="puzzle file (.yaml)"),
    steps: bool = typer.Option(False, "--steps", help="print the deductions step by step"),
    all_: bool = typer.Option(False, "--all", help="print every solution (up to --limit)"),
    limit: int = typer.Option(10, "--limit", min=1, help="stop after this many solutions (>= 1)"),
    as_json: bool = typer.Option(False, "--json", help="solutions and steps as JSON"),
    time_limit: float = typer.Option(
        120.0,
        "--time-limit",
        callback=positive_seconds,
        help="CPU seconds of search (> 0); reaching it ends as undecided (exit status 4)",
    ),
    pdf: Path | None = typer.Option(
        None, "--pdf", help="write a printable PDF sheet: the puzzle, then its (first) solution"
    ),
) -> None:
    """Solve a puzzle file: the grid, the solution count, optionally the steps."""
    from . import api

    model = api.load_puzzle(file)
    result = api.solve_puzzle(
        model, limit=max(limit, 2), time_limit=time_limit, steps=steps or as_json
    )
    if as_json:
        data = api.solution_json(model, result)
        if not steps:
            data.pop("steps")
        typer.echo(json.dumps(data, indent=2))
        return
    if steps:
        typer.echo(result.steps.text())
        if result.timed_out:
            typer.echo(
                f"(incomplete: the search stopped at --time-limit {time_limit:g} CPU s; "
                "the steps above end there)"
            )
        typer.echo("")
    count = f"{result.count}{'' if result.complete else '+'}"
    if result.count == 0 and not result.complete:
        # not a proof of "no solution": a limit stopped the search before it decided
        typer.echo(
            f"{model.title}: undecided: no solution found before the search stopped "
            f"(--time-limit {time_limit:g} CPU s or --limit; {result.seconds:.2f} s, "
            f"{result.nodes} search nodes); raise --time-limit to decide",
            err=True,
        )
        raise typer.Exit(UNDECIDED_EXIT)
    typer.echo(
        f"{model.title}: {count} solution{'s' if result.count != 1 else ''} "
        f"({result.seconds:.2f} s, {result.nodes} search nodes)"
    )
    shown = result.solutions if all_ else result.solutions[:1]
    for i, sol in enumerate(shown):
        if len(shown) > 1:
            typer.echo(f"\nSolution {i + 1}:")
        typer.echo(api.render_solution(model, sol))
        if sol.variables:
            typer.echo("variables: " + ", ".join(f"{k}={v}" for k, v in sol.variables.items()))
        if not model.mapped:
            typer.echo("clues: " + ", ".join(f"{c}->{e}" for c, e in sol.mapping.items()))
    if result.count > 1 and not all_:
        typer.echo(f"(not unique: {count} solutions; --all shows them)")
    if result.timed_out:
        typer.echo(
            f"{model.title}: the search stopped at --time-limit {time_limit:g} CPU s after "
            f"{result.count} solution{'s' if result.count != 1 else ''}: more may exist "
            "(uniqueness undecided); raise --time-limit to decide",
            err=True,
        )
    if pdf:
        _write_pdf(pdf, model, result.solutions[0] if result.solutions else None)
    if result.count == 0:
        raise typer.Exit(1)


@app.command("check")
@run_guarded
def check_command(
    file: Path = typer.Argument(..., help="puzzle file (.yaml)"),
    answer: str = typer.Argument(
        ..., help="grid rows ('455451/173096/...', a file, or '-'), or 'A1=4554,D2=57'"
    ),
) -> None:
    """Score an answer: 1.0 when it is a solution, else the fraction of right cells/entries."""
    import sys

    from . import api

    model = api.load_puzzle(file)
    text = answer
    if answer == "-":
        text = sys.stdin.read()
    elif Path(answer).is_file():
        text = Path(answer).read_text(encoding="utf-8")
    elif "/" in answer and "=" not in answer:
        text = "\n".join(answer.split("/"))
    result = api.solve_puzzle(model, limit=10, steps=False)
    if not result.solutions:
        typer.echo("the puzzle has no solution", err=True)
        raise typer.Exit(1)
    score = max(api.check_answer(model, s, text) for s in result.solutions)
    typer.echo(f"score: {score:.4f}" + ("  (correct)" if score == 1.0 else ""))
    if score < 1.0:
        raise typer.Exit(1)


@app.command("show")
@run_guarded
def show_command(file: Path = typer.Argument(..., help="puzzle file (.yaml)")) -> None:
    """Print the puzzle as a person would see it (grid with numbers, rules, clues)."""
    from . import api

    typer.echo(api.render_question(api.load_puzzle(file)))


@app.command("generate")
@run_guarded
def generate_command(
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX, help=SEED_HELP),
    size: int = typer.Option(
        3, "--size", min=3, max=5, help="grid side: 3, 4 or 5 (5 takes seconds)"
    ),
    out: Path | None = typer.Option(None, "--out", help="write the puzzle file here"),
    show_solution: bool = typer.Option(False, "--solution", help="print the solution too"),
    pdf: Path | None = typer.Option(
        None,
        "--pdf",
        help="also write a printable PDF sheet (with a solution page when --solution is given)",
    ),
) -> None:
    """Build a new small puzzle with a unique solution and print its puzzle file."""
    from ..core.seeding import make_rng
    from . import api
    from .generate import generate_puzzle

    text, model, result = generate_puzzle(make_rng(seed), size=size)
    if out:
        from ..core.safeoutput import write_atomic

        write_atomic(out, text)
        typer.echo(f"wrote {out}")
    else:
        typer.echo(text)
    if show_solution:
        typer.echo(api.render_solution(model, result.solutions[0]))
    if pdf:
        _write_pdf(pdf, model, result.solutions[0] if show_solution else None)
