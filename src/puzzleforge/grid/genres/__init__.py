"""One module per genre; ``GENRES`` maps genre id -> "module:class" (loaded lazily)."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from ...core.errors import UnknownFamily

__all__ = ["GENRES", "get_genre", "genre_ids", "register_genre"]

GENRES: dict[str, str] = {
    "unruly": "unruly:Unruly",
    "binairo": "binairo:Binairo",
    "sudoku": "sudoku:Sudoku",
    "futoshiki": "futoshiki:Futoshiki",
    "skyscrapers": "skyscrapers:Skyscrapers",
    "kakurasu": "kakurasu:Kakurasu",
    "starbattle": "starbattle:StarBattle",
    "lightup": "lightup:LightUp",
    "slitherlink": "slitherlink:Slitherlink",
    "masyu": "masyu:Masyu",
    "nurikabe": "nurikabe:Nurikabe",
    "nonogram": "nonogram:Nonogram",
}


#: Genres loaded from the user's genre files (``--genre-file``), by id: file path, genre.
_FROM_FILES: dict[str, tuple[str, Any]] = {}


def genre_ids() -> list[str]:
    """Built-in genre ids, then those loaded from genre files in this process."""
    return list(GENRES) + [g for g in _FROM_FILES if g not in GENRES]


def register_genre(genre: Any, path: str) -> None:
    """Make a genre loaded from a file reachable by its id (``grid.genrefile``)."""
    _FROM_FILES[genre.id] = (path, genre)


def get_genre(name: str) -> Any:
    if name in _FROM_FILES:
        return _FROM_FILES[name][1]
    return _builtin_genre(name)


@cache
def _builtin_genre(name: str) -> Any:
    target = GENRES.get(name)
    if target is None:
        raise UnknownFamily(
            f"no grid genre named '{name}'",
            expected="one of "
            + ", ".join(genre_ids())
            + " (or load your own with --genre-file FILE.py)",
        )
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)()
