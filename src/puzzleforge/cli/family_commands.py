"""``puzzleforge families``: what can be generated, with each family's parameters."""

from __future__ import annotations

import typer

from ..core.family import describe_params
from ..core.registry import family_names, get_family
from .errors import run_guarded

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("families")
    @run_guarded
    def families_command() -> None:
        """List the registered families and their parameters (name:type=default)."""
        from rich.console import Console  # here: other commands spare its ~2 MB
        from rich.table import Table

        table = Table(title="puzzleforge families")
        table.add_column("family", style="bold")
        table.add_column("summary")
        table.add_column("params (name: type = default)")
        for name in family_names():
            family = get_family(name)
            params = "\n".join(f"{n}: {t} = {d}" for n, t, d in describe_params(family.Params))
            table.add_row(name, family.summary, params)
        Console().print(table)
        typer.echo("Spec files (PuzzleClone YAML) are families too: pass their path.")
