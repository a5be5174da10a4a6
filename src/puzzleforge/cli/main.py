"""Entry point of the ``puzzleforge`` command.

The top-level commands (families, generate, verify, show, score, demo) live in
``cli/*_commands.py``; each engine contributes a sub-command group through the
``ENGINE_APPS`` table, so engines never import each other and the CLI stays the only
place that knows them all.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import typer

from ..core.cliguard import run_guarded
from ..core.errors import PuzzleForgeError
from ..core.limits import (
    ENV_CPU,
    ENV_MEMORY,
    Limits,
    current_limits,
    limit_from_text,
    run_limited,
    set_limits,
)
from .errors import set_debug
from .plainvalues import install as _install_plain_values

_install_plain_values()  # option values without pydantic (cli/plainvalues.py: why)

__all__ = ["app", "main", "ENGINE_APPS", "COMMAND_MODULES"]

#: Sub-command group -> "module:attribute" of a Typer app (imported at start-up, so
#: those modules keep their heavy imports inside the commands).
ENGINE_APPS: dict[str, str] = {
    "zebra": "puzzleforge.zebra.cli:app",
    "grid": "puzzleforge.grid.cli:app",
    "crossnumber": "puzzleforge.crossnumber.cli:app",
    "spec": "puzzleforge.cli.spec_commands:app",  # spec/cli.py's app + generate (batch)
}

#: Engine groups whose commands run in a CPU- and memory-bounded worker (core/limits.py).
#: ``spec`` is not among them: its generation runs untrusted code in its own locked-down
#: worker with a hard deadline per attempt (spec/sandbox.py) and Z3 work budgets.
BOUNDED_GROUPS: tuple[str, ...] = ("zebra", "grid", "crossnumber")

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


def _positive(value: float | None) -> float | None:
    if value is not None:
        try:
            limit_from_text(str(value), "limit")
        except PuzzleForgeError:
            raise typer.BadParameter(f"{value} is not a finite number > 0") from None
    return value


@app.callback()
def _root(
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks on errors."),
    cpu_limit: float | None = typer.Option(
        None,
        "--cpu-limit",
        callback=_positive,
        help=f"CPU seconds one grid/zebra/crossnumber command (per puzzle with -n) may "
        f"use before it is stopped with exit status 4 (default 300, or {ENV_CPU})",
    ),
    memory_limit: int | None = typer.Option(
        None,
        "--memory-limit",
        min=64,
        help=f"MB of memory such a command may use (default 4096, or {ENV_MEMORY})",
    ),
) -> None:
    set_debug(debug)
    # Every invocation starts from the environment and the defaults: a limit given to
    # an earlier command of the same process (an embedding program, CliRunner in tests)
    # must not carry over into this one.
    set_limits(None)
    if cpu_limit is not None or memory_limit is not None:
        base = current_limits()
        set_limits(
            Limits(
                cpu_seconds=cpu_limit or base.cpu_seconds, memory_mb=memory_limit or base.memory_mb
            )
        )


def bounded(func: Callable[..., Any], label: str) -> Callable[..., Any]:
    """``func`` (a command callback) run by ``run_limited`` under the current limits.

    The CPU limit counts per puzzle: a command with ``-n N`` gets N times the limit, and
    one with its own ``--time-limit S`` (crossnumber solve) gets at most S plus a margin,
    so the search's own limit speaks first and the worker's stops work outside it (parsing).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        limits = current_limits()
        count = kwargs.get("n")
        if isinstance(count, int) and count > 1:
            limits = limits.scaled(count)
        seconds = kwargs.get("time_limit")
        if isinstance(seconds, (int, float)) and seconds > 0:
            limits = replace(
                limits, cpu_seconds=min(limits.cpu_seconds, float(seconds) * 1.1 + 5.0)
            )
        return run_limited(func, *args, limits=limits, what=f"`puzzleforge {label}`", **kwargs)

    return run_guarded(wrapper)


def _mount() -> None:
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(app)
    for group, target in ENGINE_APPS.items():
        module_name, _, attribute = target.partition(":")
        sub = getattr(importlib.import_module(module_name), attribute)
        if group in BOUNDED_GROUPS:
            for info in sub.registered_commands:
                if info.callback is not None and not getattr(info.callback, "_bounded", False):
                    name = info.name or info.callback.__name__
                    info.callback = bounded(info.callback, f"{group} {name}")
                    info.callback._bounded = True
        app.add_typer(sub, name=group)


_mount()


def main() -> None:
    try:
        app()
    except BrokenPipeError:  # output piped into `head` and the like: end quietly
        from .errors import quiet_broken_pipe

        raise SystemExit(quiet_broken_pipe()) from None


if __name__ == "__main__":
    main()
