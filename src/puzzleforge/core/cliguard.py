"""Turn any failure into one clear paragraph on stderr and a non-zero exit.

Why: engines raise ``PuzzleForgeError`` with file/field/line; only a command decides how
to show it. ``--debug`` (or PUZZLEFORGE_DEBUG=1) adds the traceback. Why in core: the
top-level CLI and each engine's ``cli.py`` share this guard, and engines may import core
but never ``puzzleforge.cli`` (which imports them: tests/core/test_import_layers.py).
``puzzleforge.cli.errors`` re-exports it.
"""

from __future__ import annotations

import functools
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from .errors import PuzzleForgeError

__all__ = [
    "run_guarded",
    "debug_enabled",
    "set_debug",
    "fail",
    "quiet_broken_pipe",
    "BROKEN_PIPE_EXIT",
]

F = TypeVar("F", bound=Callable[..., Any])
_DEBUG = {"on": False}


def set_debug(flag: bool) -> None:
    _DEBUG["on"] = flag


def debug_enabled() -> bool:
    return _DEBUG["on"] or os.environ.get("PUZZLEFORGE_DEBUG") == "1"


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``message`` as the error paragraph and return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


#: Exit status after the reader of our output went away (``| head``): 128 + SIGPIPE, what
#: a shell reports for a command killed by a broken pipe.
BROKEN_PIPE_EXIT = 141


def quiet_broken_pipe() -> int:
    """The reader of stdout closed the pipe: stop writing, say nothing, exit 141.

    Why redirect: Python flushes stdout again at exit, which would raise a second
    BrokenPipeError and print "Exception ignored ...".
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return BROKEN_PIPE_EXIT


def report(exc: BaseException) -> int:
    """Print ``exc`` for a person; return the exit code."""
    if isinstance(exc, BrokenPipeError):
        return quiet_broken_pipe()
    if debug_enabled():
        traceback.print_exception(exc, file=sys.stderr)
    if isinstance(exc, PuzzleForgeError):
        typer.echo(f"error ({exc.kind}): {exc}", err=True)
        return int(getattr(exc, "exit_code", 2))
    if isinstance(exc, UnicodeDecodeError):
        byte = exc.object[exc.start : exc.start + 1]
        typer.echo(
            f"error (file): the input is not UTF-8 text (byte {byte!r} "
            f"at position {exc.start}). Expected a UTF-8 text file.",
            err=True,
        )
        return 2
    if isinstance(exc, MemoryError):
        typer.echo(
            "error (out of memory): this input needs more memory than the machine has. "
            "Expected a smaller input (see the size limits in the docs).",
            err=True,
        )
        return 2
    if isinstance(exc, KeyboardInterrupt):
        typer.echo("interrupted", err=True)
        return 130
    if isinstance(exc, OSError):
        name = getattr(exc, "filename", None)
        where = f"{name}: " if name else ""
        typer.echo(f"error (file): {where}{exc.strerror or exc}.", err=True)
        return 2
    typer.echo(
        f"error (internal): {type(exc).__name__}: {exc}. This is a bug in puzzleforge; "
        "rerun with --debug for the traceback and report it.",
        err=True,
    )
    return 3


def run_guarded(func: F) -> F:
    """Decorator for commands: PuzzleForgeError and OSError become a paragraph + exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - the one place that catches everything
            raise typer.Exit(report(exc)) from None

    return wrapper  # type: ignore[return-value]
