"""``puzzleforge zebra ...``: generate, solve (explained), pdf, categories.

Heavy imports stay inside the commands so ``puzzleforge --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..core.cliguard import run_guarded
from ..core.clioptions import SEED_MAX, SEED_MIN

app = typer.Typer(help="Logic-grid (zebra) puzzles.", no_args_is_help=True, add_completion=False)


def _params(
    K: int,
    k: int,
    lang: str,
    difficulty: str | None,
    question: str,
    clues: str | None,
    style: str = "native",
) -> dict:
    out: dict = {"K": K, "k": k, "lang": lang, "question": question}
    if style != "native":
        out["style"] = style
    if difficulty:
        out["difficulty"] = difficulty
    if clues:
        out["clues"] = clues
    return out


@app.command("generate")
@run_guarded
def generate_cmd(
    seed: int = typer.Option(
        0, "--seed", min=SEED_MIN, max=SEED_MAX - 10_000, help="Seed (same seed, same puzzle)."
    ),
    n: int = typer.Option(
        1, "-n", min=1, max=10_000, help="How many puzzles (seeds seed, seed+1, ...), 1 to 10000."
    ),
    K: int = typer.Option(3, "--K", "-K", help="Number of categories (3..8)."),
    k: int = typer.Option(4, "--k", "-k", help="Objects per category (3..8)."),
    lang: str = typer.Option("en", "--lang", help="en or pl."),
    difficulty: str | None = typer.Option(
        None,
        "--difficulty",
        help="easy, medium, hard or expert; a tier a size does not reach is refused up "
        "front with the reason (zebra.tiers, docs/zebra.md 'Reachable tiers').",
    ),
    question: str = typer.Option("grid", "--question", help="grid, cell or mc."),
    style: str = typer.Option(
        "native",
        "--style",
        help="native or zebralogic (houses 1..k in a row, K-1 "
        "characteristics, ZebraLogic clue kinds and fields).",
    ),
    clues: str | None = typer.Option(None, "--clues", help="Comma list of clue kinds."),
    fmt: str = typer.Option(
        "text",
        "--format",
        help="text, json (record), jsonl, or zebralogic (the ZebraLogic "
        "record alone, for --style zebralogic).",
    ),
) -> None:
    """Generate puzzles and print them."""
    from . import generate

    if fmt not in ("text", "json", "jsonl", "zebralogic"):
        from ..core.errors import ConfigError

        raise ConfigError(
            f"--format {fmt!r}", field="--format", expected="text, json, jsonl or zebralogic"
        )
    for i in range(n):
        p = generate(seed=seed + i, **_params(K, k, lang, difficulty, question, clues, style))
        if fmt == "zebralogic":
            from ..core.errors import ConfigError
            from ..core.puzzle import canonical_json
            from . import load
            from .zebralogic import record

            zp = load(p)
            if zp.style != "zebralogic":
                raise ConfigError(
                    "--format zebralogic needs --style zebralogic",
                    field="--format",
                    expected="--style zebralogic",
                )
            typer.echo(canonical_json(record(zp, p.id, p.answer)))
        elif fmt in ("json", "jsonl"):
            typer.echo(p.to_json())
        else:
            stars = "*" * int(p.meta.get("stars") or 1)
            typer.echo(f"# zebra {K}x{k} seed {seed + i}  difficulty {p.difficulty} {stars}\n")
            typer.echo(p.question)
            typer.echo("\nAnswer:\n" + p.answer + "\n")


def _read_record(path: Path):
    from ..core.puzzle import Puzzle
    from ..core.textfiles import read_text_file

    text = read_text_file(path).strip()
    first = text.splitlines()[0] if text.startswith("{") and "\n{" in text else text
    return Puzzle.from_json(first, source=str(path))


@app.command("solve")
@run_guarded
def solve_cmd(
    file: Path = typer.Argument(..., help="A zebra record (JSON, or the first line of JSONL)."),
    fmt: str = typer.Option("text", "--format", help="text or json."),
) -> None:
    """Solve with the deduction engine and print the explained steps."""
    import json

    from . import explain, load

    record = _read_record(file)
    steps = explain(record)
    if fmt == "json":
        typer.echo(json.dumps(steps, ensure_ascii=False, indent=1))
        return
    zp = load(record)
    for step in steps:
        typer.echo(f"{step['n']}. {step['text']}")
    from .numerals import en_count

    guesses = sum(1 for s in steps if s["rule"] == "guess")
    typer.echo(f"\n{en_count(len(steps), 'step')}, {en_count(guesses, 'guess')}; solution:")
    from .text import answer_text

    typer.echo(
        "\n".join(" ~ ".join(r) for r in zp.rows())
        if zp.question.get("kind") != "cell"
        else answer_text(zp)
    )


@app.command("pdf")
@run_guarded
def pdf_cmd(
    out: Path = typer.Option(Path("zebra.pdf"), "--out", help="Sheet PDF path."),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX),
    K: int = typer.Option(3, "--K", "-K"),
    k: int = typer.Option(4, "--k", "-k"),
    lang: str = typer.Option("en", "--lang"),
    difficulty: str | None = typer.Option(None, "--difficulty"),
    file: Path | None = typer.Option(None, "--file", help="Render this record instead."),
    solution: Path | None = typer.Option(
        None, "--solution", help="Also write the step-by-step solution PDF."
    ),
    svg: Path | None = typer.Option(None, "--svg", help="Also write the grid as SVG."),
) -> None:
    """Write a printable PDF sheet (and optionally the step-by-step solution PDF)."""
    from . import generate, load, pdf_solution, svg_grid
    from .pdf import write_sheet

    record = (
        _read_record(file)
        if file
        else generate(seed=seed, **_params(K, k, lang, difficulty, "grid", None))
    )
    zp = load(record)
    from ..core.safeoutput import check_output_path, write_atomic

    for path, option in ((out, "--out"), (solution, "--solution"), (svg, "--svg")):
        if path is not None:
            check_output_path(path, option=option)  # before any work or any file written
    out.parent.mkdir(parents=True, exist_ok=True)
    write_sheet(zp, str(out))
    typer.echo(f"wrote {out}")
    if solution:
        solution.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(solution, pdf_solution(zp), option="--solution")
        typer.echo(f"wrote {solution}")
    if svg:
        svg.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(svg, svg_grid(zp), option="--svg")
        typer.echo(f"wrote {svg}")


@app.command("categories")
@run_guarded
def categories_cmd(
    lang: str = typer.Option("en", "--lang"),
    find: str | None = typer.Option(None, "--find", help="Where does this word occur?"),
) -> None:
    """Statistics of the category databases (counts, sizes, weights, duplicates)."""
    from .stats import find_word, stats_lines

    if find:
        typer.echo("\n".join(find_word(lang, find)))
        return
    typer.echo("\n".join(stats_lines(lang)))
