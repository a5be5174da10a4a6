"""Command-line value checks, re-exported from core/clioptions.py (their home, so that
engine ``cli.py`` modules can use them without importing ``puzzleforge.cli``)."""

from __future__ import annotations

from ..core.clioptions import SEED_HELP, SEED_MAX, SEED_MIN, fraction, positive_seconds

__all__ = ["positive_seconds", "fraction", "SEED_MIN", "SEED_MAX", "SEED_HELP"]
