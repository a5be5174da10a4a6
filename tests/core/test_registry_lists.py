"""The lists that name families and genres agree, so a genre cannot be half added.

The grid engine's one list of genres is ``grid.genres.GENRES``. The family registry
(core/registry.py, an explicit table because core imports no engine) carries one line per
genre; grid/family.py derives its families from GENRES, and the web dataset page finds a
record's explainer through the registry (``Family.explain``).
"""

from __future__ import annotations

import importlib

import puzzleforge.grid.family as grid_family
from puzzleforge.core.registry import FAMILIES, family_names
from puzzleforge.grid.genres import GENRES, get_genre
from puzzleforge.web.datasets import _explainer

GRID_TARGET = "puzzleforge.grid.family:"


def test_the_registry_has_exactly_the_grid_genres_in_their_order() -> None:
    registered = [name for name, target in FAMILIES.items() if target.startswith(GRID_TARGET)]
    assert registered == list(GENRES)
    assert all(FAMILIES[g] == GRID_TARGET + g for g in GENRES)


def test_every_genre_module_defines_the_genre_it_is_listed_as() -> None:
    for genre_id, target in GENRES.items():
        module, _, cls = target.partition(":")
        genre = getattr(importlib.import_module(f"puzzleforge.grid.genres.{module}"), cls)()
        assert genre.id == genre_id
        assert get_genre(genre_id).id == genre_id


def test_grid_family_module_exports_one_family_per_genre() -> None:
    assert grid_family.__all__ == ["GridFamily", *GENRES]
    for genre_id in GENRES:
        family = getattr(grid_family, genre_id)
        assert isinstance(family, grid_family.GridFamily) and family.name == genre_id


def test_the_web_explainer_reaches_every_grid_genre_through_the_registry() -> None:
    for genre_id in GENRES:
        explainer = _explainer({"family": genre_id, "meta": {"genre": genre_id}})
        assert explainer is not None and explainer.__self__.name == genre_id
    # a record that only claims a genre is not explained; latin has no explainer
    assert _explainer({"family": "nosuch", "meta": {"genre": "nosuch"}}) is None
    assert _explainer({"family": "latin", "meta": {"genre": "latin"}}) is None


def test_every_registered_family_loads_under_its_own_name() -> None:
    assert len(family_names()) == len(set(family_names())) == len(FAMILIES)
    for name in family_names():
        module_name, _, attribute = FAMILIES[name].partition(":")
        family = getattr(importlib.import_module(module_name), attribute)
        assert family.name == name
