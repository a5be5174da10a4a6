"""The command error guard, re-exported from core/cliguard.py (its home, so that engine
``cli.py`` modules can use it without importing ``puzzleforge.cli``)."""

from __future__ import annotations

from ..core.cliguard import (
    BROKEN_PIPE_EXIT,
    debug_enabled,
    fail,
    quiet_broken_pipe,
    report,
    run_guarded,
    set_debug,
)

__all__ = [
    "run_guarded",
    "debug_enabled",
    "set_debug",
    "fail",
    "quiet_broken_pipe",
    "report",
    "BROKEN_PIPE_EXIT",
]
