"""Module-level engine calls the web pages hand to worker processes (web/workers.py).

Why a module of their own: a worker receives its function by reference (pickled by
name), so the calls must be plain module functions, not the closures the page handlers
used to run on threads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import grid_adapter as ga

__all__ = ["grid_generate", "grid_load"]


def _genre_files(paths: tuple[str, ...]) -> None:
    """Load the genre files the server loaded (``serve --trust``) into this worker too
    (each once per process: the worker is a fresh process that has not seen them)."""
    if paths:
        from ..grid.genrefile import load_genre_file

        for path in paths:
            if path not in _LOADED:
                load_genre_file(path)
                _LOADED.add(path)


_LOADED: set[str] = set()


def grid_generate(
    token: str,
    *,
    genre: str,
    size: str,
    seed: int,
    difficulty: str,
    progress: Callable[[float, str], None],
    genre_files: tuple[str, ...] = (),
) -> Any:
    """A new grid puzzle session (generated, proven unique)."""
    _genre_files(genre_files)
    progress(0.1, f"generating a {genre} puzzle and checking it is unique")
    return ga.generate_session(token, genre=genre, size=size, seed=seed, difficulty=difficulty)


def grid_load(token: str, text: str, time_limit: float, genre_files: tuple[str, ...] = ()) -> Any:
    """A pasted grid puzzle, solved (uniquely) before it is played."""
    _genre_files(genre_files)
    return ga.load_session(token, text, time_limit)
