"""One module per genre; ``GENRES`` maps genre id -> "module:class" (loaded lazily)."""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from ...core.errors import UnknownFamily

__all__ = ["GENRES", "get_genre", "genre_ids"]

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


def genre_ids() -> list[str]:
    return list(GENRES)


@lru_cache(maxsize=None)
def get_genre(name: str) -> Any:
    target = GENRES.get(name)
    if target is None:
        raise UnknownFamily(f"no grid genre named '{name}'", expected="one of " + ", ".join(GENRES))
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)()
