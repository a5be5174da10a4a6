"""Entry point of the ``puzzleforge`` command.

The top-level commands (families, generate, verify, show, score, demo) live in
``cli/*_commands.py``; each engine contributes a sub-command group through the
``ENGINE_APPS`` table, so engines never import each other and the CLI stays the only
place that knows them all.
"""
from __future__ import annotations

import importlib

import typer

from .errors import set_debug

__all__ = ["app", "main", "ENGINE_APPS", "COMMAND_MODULES"]

#: Sub-command group -> "module:attribute" of a Typer app (imported at start-up, so
#: those modules keep their heavy imports inside the commands).
ENGINE_APPS: dict[str, str] = {
    "zebra": "puzzleforge.zebra.cli:app",
    "grid": "puzzleforge.grid.cli:app",
    "crossnumber": "puzzleforge.crossnumber.cli:app",
    "spec": "puzzleforge.spec.cli:app",
}

#: Modules that add top-level commands to ``app`` through a ``register(app)`` function.
COMMAND_MODULES: tuple[str, ...] = (
    "puzzleforge.cli.family_commands",
    "puzzleforge.cli.dataset_commands",
    "puzzleforge.cli.demo_command",
    "puzzleforge.cli.serve_command",
)

app = typer.Typer(
    name="puzzleforge",
    help="Generate and solve verifiable logic puzzles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root(debug: bool = typer.Option(False, "--debug", help="Show tracebacks on errors.")) -> None:
    set_debug(debug)


def _mount() -> None:
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(app)
    for group, target in ENGINE_APPS.items():
        module_name, _, attribute = target.partition(":")
        sub = getattr(importlib.import_module(module_name), attribute)
        app.add_typer(sub, name=group)


_mount()


def main() -> None:
    try:
        app()
    except BrokenPipeError:       # output piped into `head` and the like: end quietly
        from .errors import quiet_broken_pipe

        raise SystemExit(quiet_broken_pipe()) from None


if __name__ == "__main__":
    main()
