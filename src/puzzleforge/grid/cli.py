"""``puzzleforge grid ...``: generate, solve, rules, smtlib, hint, url for every grid genre.

Heavy imports (solvers, genres) stay inside the command functions so ``puzzleforge``
starts fast.
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..core.cliguard import run_guarded
from ..core.clioptions import SEED_HELP, SEED_MAX, SEED_MIN, fraction
from ..core.safeoutput import write_atomic
from ..core.textfiles import read_text_file

__all__ = ["app"]

app = typer.Typer(
    name="grid",
    help="Grid puzzles written in the LogicPuzzles DSL.",
    no_args_is_help=True,
    add_completion=False,
)


def _read(source: str) -> str:
    if source.startswith(("http://", "https://")) or source.startswith("puzz.link"):
        return source
    if source == "-":
        import sys

        return sys.stdin.read()
    return read_text_file(Path(source))


def _source_name(source: str) -> str:
    """How an error names where the puzzle came from (a file, stdin or the URL)."""
    if source == "-":
        return "<stdin>"
    if source.startswith(("http://", "https://")) or source.startswith("puzz.link"):
        return "the puzz.link URL"
    return source


def _parse(source: str, fmt: str = "auto", genre: str | None = None):
    """``(genre, instance, published solution)`` read from ``source``.

    Why here: the parsers know the field and line of a problem but not the file; every
    error about the puzzle text (size past the limits, unknown genre, bad rows) gets the
    file it came from, so the one paragraph names file, field and what was expected.
    """
    from ..core.errors import PuzzleForgeError
    from .formats.detect import read_any

    text = _read(source)
    try:
        return read_any(text, fmt, genre)
    except PuzzleForgeError as exc:
        raise exc.with_location(file=_source_name(source)) from None


GENRE_FILE_OPTION = typer.Option(
    [],
    "--genre-file",
    help="a genre of your own: a .py file defining one Genre subclass "
    "(Python: load only files you trust); repeatable",
)


def _load_genre_files(paths: list[Path]) -> None:
    if paths:
        from .genrefile import load_genre_files

        load_genre_files(paths)


def _pdf_sheet(inst, sol, **facts) -> bytes:
    """The PDF sheet bytes (needs fpdf2, the ``pdf`` extra)."""
    try:
        from .pdf import sheet_bytes
    except ImportError:
        from ..core.errors import ConfigError

        raise ConfigError(
            "PDF sheets need fpdf2", field="pdf", expected='pip install -e ".[pdf]"'
        ) from None
    return sheet_bytes(inst, sol, **facts)


@app.command("genres")
@run_guarded
def genres_command(genre_file: list[Path] = GENRE_FILE_OPTION) -> None:
    """List the grid genres (and those of --genre-file files)."""
    from .genres import genre_ids, get_genre

    _load_genre_files(genre_file)
    for gid in genre_ids():
        try:
            g = get_genre(gid)
            typer.echo(f"{gid:12s} {g.summary}")
        except ImportError:
            typer.echo(f"{gid:12s} (not available)")


@app.command("generate")
@run_guarded
def generate_command(
    genre: str = typer.Argument(..., help="genre id (unruly, sudoku, ...)"),
    size: str = typer.Option("", "--size", help="RxC, e.g. 10x10 (default: the genre's)"),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX, help=SEED_HELP),
    difficulty: str = typer.Option("any", "--difficulty", help="any, easy, medium, hard"),
    density: float | None = typer.Option(
        None, "--density", callback=fraction, help="target share of clues kept, 0 to 1"
    ),
    out: Path | None = typer.Option(None, "--out", help="write the instance text here"),
    svg: Path | None = typer.Option(None, "--svg", help="also write an SVG picture"),
    pdf: Path | None = typer.Option(
        None,
        "--pdf",
        help="also write a printable PDF sheet (with a solution page when --solution is given)",
    ),
    show_solution: bool = typer.Option(False, "--solution", help="print the solution too"),
    fmt: str = typer.Option(
        "text", "--format", help="text (instance text), janko (with its solution) or url"
    ),
    stars: int = typer.Option(
        0, "--stars", min=0, help="starbattle: stars per row/column/region (0 = by size)"
    ),
    genre_file: list[Path] = GENRE_FILE_OPTION,
) -> None:
    """Generate a puzzle with a unique solution."""
    _load_genre_files(genre_file)
    from . import api
    from .genres import get_genre

    if fmt not in ("text", "janko", "url"):
        from ..core.errors import ConfigError

        raise ConfigError(f"--format {fmt!r}", field="format", expected="text, janko or url")
    inst, sol, diff = api.generate(
        genre,
        size,
        seed,
        difficulty=difficulty,
        density=density,
        opts={"stars": stars} if stars else None,
    )
    g = get_genre(genre)
    if fmt == "janko":
        from .formats.janko_genres import format_janko

        text = format_janko(inst, sol)
    elif fmt == "url":
        text = api.to_url(inst) + "\n"
    else:
        text = g.format(inst)
    if out:
        write_atomic(out, text)
        typer.echo(f"wrote {out} ({inst.clue_count()} clues, difficulty {diff})")
    else:
        typer.echo(text, nl=False)
    if svg:
        write_atomic(svg, api.svg(inst), option="--svg")
    if pdf:
        write_atomic(
            pdf,
            _pdf_sheet(inst, sol if show_solution else None, seed=seed, difficulty=diff),
            option="--pdf",
        )
    typer.echo(api.text(inst, sol if show_solution else None), nl=False)
    typer.echo(f"difficulty {diff}")


@app.command("solve")
@run_guarded
def solve_command(
    source: str = typer.Argument(..., help="instance file, '-' for stdin, or a puzz.link URL"),
    limit: int = typer.Option(2, "--count", min=1, help="count solutions up to this many (>= 1)"),
    svg: Path | None = typer.Option(None, "--svg", help="write the solved picture"),
    pdf: Path | None = typer.Option(
        None, "--pdf", help="write a printable PDF sheet: the puzzle, then its (first) solution"
    ),
    forced: bool = typer.Option(False, "--forced", help="list cells fixed in every solution"),
    fmt: str = typer.Option(
        "auto", "--format", help="auto, text, url or janko (janko.at puzzle text)"
    ),
    genre: str | None = typer.Option(
        None, "--genre", help="genre of a Janko text without a known 'puzzle' name"
    ),
    genre_file: list[Path] = GENRE_FILE_OPTION,
) -> None:
    """Solve a puzzle, report whether the solution is unique, print it."""
    _load_genre_files(genre_file)
    from . import api

    g, inst, published = _parse(source, fmt, genre)
    comp = g.compile(inst)
    sols = comp.enumerate(inst.clues, max(1, limit))
    if not sols:
        typer.echo("no solution")
        raise typer.Exit(1)
    n = len(sols)
    if n >= limit and limit == 1:
        word = "at least one solution (--count 1 stops at the first; --count 2 checks uniqueness)"
    else:
        word = "unique solution" if n == 1 else f"{n}{'+' if n >= limit else ''} solutions"
    typer.echo(f"{g.id} {inst.rows}x{inst.cols}: {word}")
    typer.echo(api.text(inst, sols[0]), nl=False)
    typer.echo(g.answer_text(inst, sols[0]))
    if published is not None:
        same = published == g.answer_grid(inst, sols[0])
        typer.echo(f"the solution given in the Janko text {'matches' if same else 'DIFFERS'}")
    if svg:
        write_atomic(svg, api.svg(inst, sols[0]), option="--svg")
    if pdf:
        write_atomic(pdf, _pdf_sheet(inst, sols[0]), option="--pdf")
    if forced and n > 1:
        fixed = comp.forced(inst.clues)
        typer.echo(f"{len(fixed)} of {len(comp.answer)} entries are the same in every solution")


@app.command("rules")
@run_guarded
def rules_command(
    genre: str = typer.Argument(...), genre_file: list[Path] = GENRE_FILE_OPTION
) -> None:
    """Pretty-print a genre's rules (the IR before any size is bound)."""
    _load_genre_files(genre_file)
    from . import api

    typer.echo(api.rules_text(genre))


@app.command("smtlib")
@run_guarded
def smtlib_command(
    source: str = typer.Argument(..., help="instance file or URL"),
    out: Path | None = typer.Option(None, "--out"),
    check: bool = typer.Option(False, "--check", help="solve it with Z3 and compare with SAT"),
    genre_file: list[Path] = GENRE_FILE_OPTION,
) -> None:
    """Print the puzzle (rules + clues) as SMT-LIB 2."""
    _load_genre_files(genre_file)
    from .smtlib import solve_smtlib_z3, to_smtlib

    g, inst = _parse(source)[:2]
    comp = g.compile(inst)
    text = to_smtlib(comp, inst.clues)
    if out:
        write_atomic(out, text)
    else:
        typer.echo(text, nl=False)
    if check:
        z = solve_smtlib_z3(text, comp)
        s = comp.solve(inst.clues)
        same = z is not None and s is not None and g.answer_text(inst, z) == g.answer_text(inst, s)
        typer.echo(f"; z3 and SAT agree: {same}", err=True)
        if not same:
            raise typer.Exit(1)


@app.command("cnf")
@run_guarded
def cnf_command(
    source: str = typer.Argument(..., help="instance file or URL"),
    out: Path | None = typer.Option(None, "--out"),
    genre_file: list[Path] = GENRE_FILE_OPTION,
) -> None:
    """Print the puzzle (rules + clues as unit clauses) as DIMACS CNF, with an answer map."""
    _load_genre_files(genre_file)
    from .dimacs import to_dimacs

    g, inst = _parse(source)[:2]
    text = to_dimacs(g, inst)
    if out:
        write_atomic(out, text)
    else:
        typer.echo(text, nl=False)


@app.command("hint")
@run_guarded
def hint_command(
    source: str = typer.Argument(...), genre_file: list[Path] = GENRE_FILE_OPTION
) -> None:
    """The easiest deduction on the empty board, with its reason (rows and columns from 1)."""
    _load_genre_files(genre_file)
    from . import api

    _, inst = _parse(source)[:2]
    h = api.hint(inst)
    typer.echo(f"[{h.level}] {h.reason}" if h else "no deduction found")


@app.command("explain")
@run_guarded
def explain_command(
    source: str = typer.Argument(...),
    limit: int = typer.Option(0, "--limit", min=0, help="Stop after this many steps (0 = all)."),
    genre_file: list[Path] = GENRE_FILE_OPTION,
) -> None:
    """The step-by-step solution a person can follow: each step the easiest deduction left."""
    _load_genre_files(genre_file)
    from . import api

    _, inst = _parse(source)[:2]
    steps = api.explain(inst, limit or None)
    for number, step in enumerate(steps, start=1):
        typer.echo(f"{number:3d}. [{step.level}] {step.reason}")
    if not steps:
        typer.echo("no deduction found")


@app.command("url")
@run_guarded
def url_command(source: str = typer.Argument(...)) -> None:
    """Convert an instance file to a puzz.link URL (or a URL to instance text)."""
    from . import api

    g, inst = _parse(source)[:2]
    if source.startswith(("http://", "https://")):
        typer.echo(g.format(inst), nl=False)
    else:
        typer.echo(api.to_url(inst))
