"""``puzzleforge demo``: the main job in miniature, for a first look after ``make demo``.

One batch run (all cores, the same runner as ``puzzleforge generate``) writes a few
puzzles of every registered family and of the example spec files into one JSONL dataset;
every record is then re-derived and checked by ``verify``; a logic-grid PDF sheet is
written beside it. Prints where everything went and a per-family summary table.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections import Counter
from pathlib import Path

import orjson
import typer

from ..batch import BatchJob, Component, run_batch
from ..batch.job import family_ref
from ..batch.verify import verify_file
from ..core.registry import family_names
from .errors import run_guarded
from .options import SEED_MAX, SEED_MIN

__all__ = ["register", "demo_components"]

EXAMPLE_SPECS = Path(__file__).resolve().parents[3] / "examples" / "specs"


def demo_components(count: int) -> list[Component]:
    """Every registered family, plus the example spec files when they are present."""
    components = [Component(ref=name, count=count, name=name) for name in family_names()]
    if importlib.util.find_spec("puzzleforge.spec") is not None and EXAMPLE_SPECS.is_dir():
        for spec in sorted(EXAMPLE_SPECS.glob("*.yaml")):
            components.append(
                Component(ref=family_ref(str(spec)), count=count, name=f"spec:{spec.stem}")
            )
    return components


def _pdf_sheet(out_dir: Path, seed: int) -> Path | None:
    """A logic-grid sheet, when the zebra engine and the pdf extra are installed."""
    try:
        pdf = importlib.import_module("puzzleforge.zebra.pdf")
    except ImportError:
        return None
    from ..api import generate

    path = out_dir / "zebra-sheet.pdf"
    pdf.write_sheet(generate("zebra", seed=seed, K=4, k=4), path)
    return path


def register(app: typer.Typer) -> None:
    @app.command("demo")
    @run_guarded
    def demo(
        out: Path = typer.Option(Path("out"), "--out", help="Folder to write into."),
        count: int = typer.Option(4, "-n", min=1, help="Puzzles per family."),
        seed: int = typer.Option(
            1, "--seed", min=SEED_MIN, max=SEED_MAX, help="Base seed (same seed, same files)."
        ),
        workers: int = typer.Option(
            0, "--workers", min=0, help="Worker processes (0 = all cores)."
        ),
    ) -> None:
        """Generate a small verified dataset from every family plus a PDF sheet."""
        from rich.console import Console  # here: other commands spare its ~2 MB
        from rich.table import Table

        console = Console()
        out.mkdir(parents=True, exist_ok=True)
        dataset = out / "demo.jsonl"
        job = BatchJob(components=tuple(demo_components(count)), seed=seed, recipe="demo")
        with console.status(
            f"generating {job.total} puzzles from {len(job.components)} families..."
        ):
            summary = run_batch(job, dataset, workers=workers or None)
        with console.status("re-deriving and checking every record..."):
            report = verify_file(dataset, workers=workers or None)
            sheet = _pdf_sheet(out, seed)
        wrong_by_family = Counter(check.family for check in report.wrong)
        difficulty: dict[str, list[float]] = {}
        with dataset.open("rb") as lines:
            for line in lines:
                record = orjson.loads(line)
                name = record.get("meta", {}).get("component") or record["family"]
                difficulty.setdefault(name, []).append(float(record.get("difficulty") or 0))
        table = Table(title=f"puzzleforge demo: {count} puzzles per family, seed {seed}")
        for column in ("family", "records", "verified", "mean difficulty"):
            table.add_column(column)
        for comp in job.components:
            written = summary.per_component.get(comp.name, 0)
            scores = difficulty.get(comp.name, [])
            bad = wrong_by_family.get(comp.name, 0)
            mean = f"{sum(scores) / len(scores):.2f}" if scores else "-"
            table.add_row(comp.name, str(written), f"{written - bad}/{written}", mean)
        console.print(table)
        console.print(
            f"{summary.records_written} puzzles in {summary.wall_seconds:.1f} s "
            f"({summary.puzzles_per_second:.1f}/s); {report.correct}/{report.checked} verified."
        )
        console.print(f"Dataset: {dataset.resolve()}")
        console.print(f"Summary: {dataset.with_suffix('.summary.json').resolve()}")
        if sheet is not None:
            console.print(f"PDF sheet: {sheet.resolve()}")
        if report.wrong:
            raise typer.Exit(1)
