"""Module-level engine calls the web pages hand to worker processes (web/workers.py).

Why a module of their own: a worker receives its function by reference (pickled by
name), so the calls must be plain module functions, not the closures the page handlers
used to run on threads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from . import grid_adapter as ga

__all__ = ["grid_generate", "grid_load", "play_call", "play_in_worker", "PLAY_METHODS"]


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


#: What a page may ask of a session it is playing (anything else is refused).
PLAY_METHODS = ("check", "hint")


def play_call(
    session: Any, method: str, marks: Any, genre_files: tuple[str, ...] = ()
) -> dict[str, Any]:
    """``session.check(marks)`` or ``session.hint(marks)`` in a worker.

    Why a worker: a hint is a deduction search (a cross-number hint on a 12x12 board
    takes seconds, a grid hint compiles and propagates the board), so it gets the same
    killable process and deadline as a solve; the server thread only waits.
    """
    if method not in PLAY_METHODS:
        raise ValueError(f"not a play call: {method!r}")
    _genre_files(genre_files)
    return getattr(session, method)(marks)


async def play_in_worker(
    state: Any, session: Any, method: str, marks: Any, *, what: str
) -> dict[str, Any]:
    """Run ``play_call`` for a page handler: in a warm engine worker (web/warmpool.py), within the
    per-request deadline ``settings.play_seconds`` (503 past it), with the genre files
    the server loaded. The session is sent without the caches it built in the server
    (the worker rebuilds what it needs), so only plain puzzle data crosses."""
    if isinstance(session, ga.GridSession):
        session = dataclasses.replace(session)  # drops _answer_cache (compiled rules)
    return await state.workers.run_async(
        play_call,
        session,
        method,
        marks,
        tuple(getattr(state, "genre_files", ())),
        what=what,
        seconds=state.settings.play_seconds,
        warm=True,
    )
