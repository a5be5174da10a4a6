"""Checks for command-line values that click's ranges cannot express.

Why: ``typer.Option(min=...)`` covers whole numbers, but a float range lets NaN through
(every comparison with NaN is false) and infinity is rarely meant. These callbacks turn
such values into click's usual "Invalid value for '--time-limit': ..." usage error (exit
status 2) before any work starts. Integer bounds stay as ``min=``/``max=`` on the option.
In core because the engines' ``cli.py`` modules use them and must not import
``puzzleforge.cli``; ``puzzleforge.cli.options`` re-exports them.
"""

from __future__ import annotations

import math

import typer

from .seeding import SEED_MAX, SEED_MIN

__all__ = ["positive_seconds", "fraction", "SEED_MIN", "SEED_MAX", "SEED_HELP"]

SEED_HELP = "a whole number from -2**63 to 2**63-1"


def positive_seconds(value: float | None) -> float | None:
    """A finite number of seconds > 0 (None passes: the option was not given)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise typer.BadParameter(f"{value} is not a finite number of seconds > 0")
    return value


def fraction(value: float | None) -> float | None:
    """A share from 0 to 1 (None passes)."""
    if value is not None and not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise typer.BadParameter(f"{value} is not a share from 0 to 1")
    return value
