"""``puzzleforge demo``: the main job in miniature, for a first look after ``make demo``.

Generates a few puzzles of every registered family (and of the example spec files when
the spec engine is present) into one JSONL file per family, verifies each record, writes
a logic-grid PDF sheet, and prints where everything went with a summary table.
"""
from __future__ import annotations

import importlib
import importlib.util
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from ..core.errors import PuzzleForgeError
from ..core.puzzle import stamp
from ..core.registry import family_names, resolve_family
from ..core.seeding import derive_seed, make_rng
from ..core.family import build_params
from .errors import run_guarded

__all__ = ["register"]

EXAMPLE_SPECS = Path(__file__).resolve().parents[3] / "examples" / "specs"


def _generate_family(target: str, count: int, seed: int, out_dir: Path) -> tuple[str, int, int, float, Path]:
    family = resolve_family(target)
    params = build_params(family.Params, {}, family=family.name)
    safe_name = family.name.replace(":", "-").replace("/", "-")
    path = out_dir / f"{safe_name}.jsonl"
    written = verified = 0
    start = time.perf_counter()
    with path.open("w", encoding="utf-8") as sink:
        for index in range(count):
            for attempt in range(5):
                item_seed = derive_seed(seed, family.name, index, attempt)
                try:
                    puzzle = stamp(family.generate(params, make_rng(item_seed)), item_seed)
                    break
                except PuzzleForgeError:
                    continue
            else:
                continue
            puzzle.meta["index"] = index
            sink.write(puzzle.to_json() + "\n")
            written += 1
            verified += family.verify(puzzle, puzzle.answer) == 1.0
    return family.name, written, verified, time.perf_counter() - start, path


def _pdf_sheet(out_dir: Path, seed: int) -> Path | None:
    try:
        pdf = importlib.import_module("puzzleforge.zebra.pdf")
        api = importlib.import_module("puzzleforge.api")
    except ImportError:
        return None
    puzzle = api.generate("zebra", seed=seed)
    path = out_dir / "zebra-sheet.pdf"
    pdf.write_sheet(puzzle, path)
    return path


def register(app: typer.Typer) -> None:
    @app.command("demo")
    @run_guarded
    def demo(
        out: Path = typer.Option(Path("out"), "--out", help="Folder to write into."),
        count: int = typer.Option(5, "-n", help="Puzzles per family."),
        seed: int = typer.Option(1, "--seed", help="Base seed (same seed, same files)."),
    ) -> None:
        """Generate a small verified dataset from every family plus a PDF sheet."""
        out.mkdir(parents=True, exist_ok=True)
        targets = list(family_names())
        if importlib.util.find_spec("puzzleforge.spec") is not None and EXAMPLE_SPECS.is_dir():
            targets += [str(p) for p in sorted(EXAMPLE_SPECS.glob("*.yaml"))]
        console = Console()
        table = Table(title=f"puzzleforge demo: {count} puzzles per family, seed {seed}")
        for column in ("family", "written", "verified", "seconds", "file"):
            table.add_column(column)
        with console.status("generating...") as status:
            for target in targets:
                status.update(f"generating {target}...")
                name, written, verified, seconds, path = _generate_family(target, count, seed, out)
                table.add_row(name, str(written), f"{verified}/{written}", f"{seconds:.2f}", str(path))
            status.update("writing the PDF sheet...")
            sheet = _pdf_sheet(out, seed)
        console.print(table)
        console.print(f"Datasets written to {out.resolve()}/")
        if sheet is not None:
            console.print(f"PDF sheet written to {sheet.resolve()}")
