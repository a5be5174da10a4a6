"""Genres of one's own, from one file of the DSL, usable from every grid command.

Why a file and a flag: a setter writes a genre as one ``Genre`` subclass (rules in the DSL,
text format, drawing) in a ``.py`` file and uses it at once with ``--genre-file``, without
editing the package. A genre file is Python and runs as Python: it is loaded only when the
user names it on the command line (``--genre-file``: the flag is the consent, as running
``python file.py`` is) or passes ``--trust`` (datasets: ``grid.family.load_genre_file_family``;
the web app started with ``serve --trust``); a dataset record alone never loads one.

What is checked on load, each failure a one-paragraph error naming the file: it exists and
ends in ``.py``; it imports; it defines exactly one ``Genre`` subclass (or names one as
``GENRE``); the genre's ``id`` is a new lowercase word (not a built-in genre's); it
overrides the hooks every genre needs (``build_rules``, ``parse``, ``format``,
``drawing``); and its rules build.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.errors import InvalidDescription
from .genre import Genre
from .genres import GENRES, register_genre

__all__ = ["load_genre_file", "load_genre_files", "file_sha256", "portable_path"]

_REQUIRED = ("build_rules", "parse", "format", "drawing")


def _fail(path: Path, message: str, expected: str) -> InvalidDescription:
    return InvalidDescription(message, file=str(path), field="--genre-file", expected=expected)


def load_genre_file(path: str | Path) -> Genre:
    """Import the genre defined in ``path``, register it and return it."""
    path = Path(path)
    if path.suffix != ".py" or not path.is_file():
        raise _fail(
            path,
            "no such genre file" if not path.exists() else "not a .py file",
            "a Python file that defines one Genre subclass",
        )
    module_name = f"puzzleforge_genre_file_{re.sub(r'[^0-9a-zA-Z_]', '_', path.stem)}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except Exception as exc:  # noqa: BLE001 - the user's file: report, never a traceback
        sys.modules.pop(module_name, None)
        line = (
            exc.lineno
            if isinstance(exc, SyntaxError)
            else next((f.lineno for f in reversed(_frames(exc)) if f.filename == str(path)), None)
        )
        raise InvalidDescription(
            f"the genre file failed to load: {type(exc).__name__}: {exc}",
            file=str(path),
            line=line,
            expected="a Python file that imports and defines a Genre",
        ) from None
    cls = _genre_class(path, module)
    genre = cls()
    _check(path, genre)
    if genre.id in GENRES:
        raise _fail(
            path,
            f"genre id '{genre.id}' is a built-in genre's",
            "an id of your own (a lowercase word not in `puzzleforge grid genres`)",
        )
    register_genre(genre, str(path))
    return genre


def file_sha256(path: str | Path) -> str:
    """The file's sha256 (a record names the version of the genre file it was made from)."""
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def portable_path(path: str | Path) -> str:
    """``path`` relative to the working directory (absolute only across drives), as spec
    records name their spec file: a dataset stays valid when the checkout moves."""
    import os

    resolved = Path(path).resolve()
    try:
        return os.path.relpath(resolved, Path.cwd())
    except ValueError:  # another drive (Windows)
        return str(resolved)


def load_genre_files(paths: Iterable[str | Path]) -> list[Genre]:
    return [load_genre_file(p) for p in paths]


def _frames(exc: BaseException) -> list[Any]:
    import traceback

    return traceback.extract_tb(exc.__traceback__)


def _genre_class(path: Path, module: Any) -> type:
    named = getattr(module, "GENRE", None)
    if isinstance(named, type) and issubclass(named, Genre):
        return named
    found = [
        v
        for v in vars(module).values()
        if isinstance(v, type)
        and issubclass(v, Genre)
        and v is not Genre
        and v.__module__ == module.__name__
    ]
    if len(found) != 1:
        raise _fail(
            path,
            f"the file defines {len(found)} Genre subclasses"
            + (f" ({', '.join(c.__name__ for c in found)})" if found else ""),
            "exactly one class deriving from puzzleforge.grid.genre.Genre, or GENRE = <class>",
        )
    return found[0]


def _check(path: Path, genre: Genre) -> None:
    if not isinstance(genre.id, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", genre.id):
        raise _fail(
            path,
            f"genre id {genre.id!r} is not a lowercase word",
            "id = 'mygenre' (letters, digits, underscores; starting with a letter)",
        )
    missing = [name for name in _REQUIRED if getattr(type(genre), name) is getattr(Genre, name)]
    if missing:
        raise _fail(
            path,
            f"genre '{genre.id}' does not define {', '.join(missing)}",
            "the hooks every genre needs: " + ", ".join(_REQUIRED),
        )
    try:
        genre.rules  # noqa: B018 - builds and checks the model once, now
    except Exception as exc:  # noqa: BLE001 - the DSL's own errors name the expression
        raise _fail(
            path,
            f"the rules of genre '{genre.id}' do not build: {exc}",
            "rules written in the grid DSL (docs/grid.md)",
        ) from None
