"""The only list of puzzle families: an explicit table of names to ``module:attribute``.

Why a table of strings: families load lazily (importing Z3 or the zebra databases costs
time) and no import has a side effect of registering anything. A new genre is one module
and one line here (a grid genre: its module and its line in ``grid.genres.GENRES``, then
its line here; tests/core/test_registry_lists.py checks the two agree). Contract tests
loop over ``family_names()``.

Paths are families too: a ``.yaml``/``.yml`` file is a PuzzleClone spec (or a batch
recipe, which the batch layer recognises first), a ``.py`` file a grid genre of one's own
(loaded only with ``--trust``: it is Python); the loader for each suffix is named here.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from .errors import UnknownFamily

__all__ = [
    "FAMILIES",
    "PATH_LOADERS",
    "CODE_SUFFIXES",
    "family_names",
    "get_family",
    "resolve_family",
    "family_for_record",
    "record_spec_path",
]

#: Family id -> "module:attribute" of an object implementing ``core.family.Family``.
FAMILIES: dict[str, str] = {
    "unruly": "puzzleforge.grid.family:unruly",
    "binairo": "puzzleforge.grid.family:binairo",
    "sudoku": "puzzleforge.grid.family:sudoku",
    "futoshiki": "puzzleforge.grid.family:futoshiki",
    "skyscrapers": "puzzleforge.grid.family:skyscrapers",
    "kakurasu": "puzzleforge.grid.family:kakurasu",
    "starbattle": "puzzleforge.grid.family:starbattle",
    "lightup": "puzzleforge.grid.family:lightup",
    "slitherlink": "puzzleforge.grid.family:slitherlink",
    "masyu": "puzzleforge.grid.family:masyu",
    "nurikabe": "puzzleforge.grid.family:nurikabe",
    "nonogram": "puzzleforge.grid.family:nonogram",
    "latin": "puzzleforge.builtin.latin:family",
    "zebra": "puzzleforge.zebra.family:family",
    "crossnumber": "puzzleforge.crossnumber.family:family",
}

#: File suffix -> "module:attribute" of a callable ``(path, **options) -> Family``.
PATH_LOADERS: dict[str, str] = {
    ".yaml": "puzzleforge.spec.family:load_spec_family",
    ".yml": "puzzleforge.spec.family:load_spec_family",
    # a grid genre file is Python: its loader refuses to run it without trust=True
    ".py": "puzzleforge.grid.family:load_genre_file_family",
}

#: Suffixes of families that are code: a record naming one loads it only with --trust.
CODE_SUFFIXES = frozenset({".py"})


def family_names() -> list[str]:
    """Registered family ids in table order."""
    return list(FAMILIES)


def _load(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute)


@cache
def get_family(name: str) -> Any:
    """The family registered under ``name`` (raises ``UnknownFamily`` naming the choices)."""
    target = FAMILIES.get(name)
    if target is None:
        raise UnknownFamily(
            f"no family named '{name}'",
            expected="one of " + ", ".join(FAMILIES) + ", or a path to a spec .yaml file",
        )
    return _load(target)


def resolve_family(name_or_path: str, **options: Any) -> Any:
    """A registered family by id, or the family a file defines (a spec .yaml)."""
    if name_or_path in FAMILIES:
        return get_family(name_or_path)
    suffix = Path(name_or_path).suffix.lower()
    if suffix in PATH_LOADERS:
        if not Path(name_or_path).exists():
            raise UnknownFamily(
                f"file '{name_or_path}' does not exist",
                expected="a registered family id or an existing spec file",
            )
        return _load(PATH_LOADERS[suffix])(name_or_path, **options)
    return get_family(name_or_path)


def family_for_record(record: dict[str, Any] | Any, *, trust: bool = False, **options: Any) -> Any:
    """The family that produced a dataset record (or Puzzle).

    Registered ids resolve directly; file-defined families (spec files, grid genre files)
    are rebuilt from ``config["source"]`` or ``meta["source"]``, the path of the file that
    defines them (relative paths are read from the working directory). A record is data
    from anywhere, so the path is checked first (record_spec_path) and nothing in a record
    or the environment grants trust: only the caller's ``trust=True`` (``verify/score
    --trust``: the person running it vouches for the files the dataset names) does. A spec
    is then loaded with its Python operator files (``customs/*.py``, as under ``spec
    generate --trust``), else untrusted (a spec that needs them raises TrustRequired). A
    grid genre file *is* Python: it is loaded only with trust, after its sha256 matches
    the record's; otherwise ``TrustRequired`` says which file the record names and why it
    is not loaded.
    """
    get = record.get if isinstance(record, dict) else lambda k, d=None: getattr(record, k, d)
    name = str(get("family", ""))
    if name in FAMILIES:
        return get_family(name)
    for field in ("config", "meta"):
        holder = get(field, None)
        if isinstance(holder, dict) and holder.get("source"):
            path = record_spec_path(holder["source"], field=f"{field}.source", family=name)
            trusted = trust is True
            if Path(path).suffix.lower() in CODE_SUFFIXES:
                return _code_family(path, name, get("meta", None), trusted, field)
            family = _load(PATH_LOADERS[Path(path).suffix.lower()])(path, trust=trusted, **options)
            _check_digest(family, get("meta", None), path)
            return family
    raise UnknownFamily(
        f"record of unknown family '{name[:80]}' carries no config.source",
        expected="a registered family id or a record made from a spec file",
    )


def _code_family(path: str, name: str, meta: Any, trusted: bool, field: str) -> Any:
    """The family of a record made from a code file (a grid genre .py): loaded only with
    trust, and only when the file is the version the record was made from (checked before
    the file runs)."""
    import hashlib

    from .errors import InvalidSpec, TrustRequired

    if not trusted:
        raise TrustRequired(
            f"record of family '{name[:60]}' names the grid genre file {path} ({field}.source); a "
            "genre file is Python code that runs when loaded, so verify, score and the web "
            "app never load it on a record's say-so",
            file=path,
            field="--trust",
            expected="--trust on the command if you trust that file",
        )
    want = meta.get("source_sha256") if isinstance(meta, dict) else None
    have = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if want and want != have:
        raise InvalidSpec(
            f"the genre file {path} has changed since this record was made "
            f"(its sha256 is {have[:16]}..., the record names {str(want)[:16]}...)",
            field="meta.source_sha256",
            expected="the genre file the dataset was generated from, unchanged",
        )
    return _load(PATH_LOADERS[Path(path).suffix.lower()])(path, trust=True)


def _check_digest(family: Any, meta: Any, path: str) -> None:
    """A record made from another version of the spec file cannot be rebuilt from this one:
    say so (both hashes) instead of reporting every puzzle as wrong."""
    want = meta.get("source_sha256") if isinstance(meta, dict) else None
    spec = getattr(family, "spec", None)
    have = getattr(spec, "digest", "")
    if want and have and want != have:
        from .errors import InvalidSpec

        raise InvalidSpec(
            f"the spec file {path} has changed since this record was made "
            f"(its sha256 is {have[:16]}..., the record names {str(want)[:16]}...)",
            field="meta.source_sha256",
            expected="the spec file the dataset was generated from, unchanged",
        )


def record_spec_path(source: Any, *, field: str = "meta.source", family: str = "") -> str:
    """The spec path a record names, checked: a .yaml/.yml regular file of at most 4 MB.

    Why: verify, score and the web app open whatever path a (possibly downloaded) record
    names; this refuses devices, directories, FIFOs, other file kinds and huge files with
    one clear paragraph instead of hanging, crashing or reading them.
    """
    from .errors import InvalidSpec
    from .yamlio import MAX_YAML_BYTES

    shown = repr(source)[:120]
    expected = (
        "the path of an existing spec .yaml/.yml file (or grid genre .py file), "
        "relative to the directory the dataset was generated in (run verify/score "
        "from there)"
    )
    where = f"record of family '{family[:60]}'" if family else "record"
    if not isinstance(source, str) or not source.strip() or "\x00" in source:
        raise InvalidSpec(
            f"{where}: {field} {shown} is not a file path", field=field, expected=expected
        )
    path = Path(source)
    if path.suffix.lower() not in PATH_LOADERS:
        raise InvalidSpec(
            f"{where}: {field} {shown} is not a spec file (.yaml or .yml) "
            "or a grid genre file (.py)",
            field=field,
            expected=expected,
        )
    try:
        info = path.stat()
    except OSError:
        raise InvalidSpec(
            f"{where}: {field} {shown} does not exist (relative to {Path.cwd()})",
            field=field,
            expected=expected,
        ) from None
    import stat as _stat

    if not _stat.S_ISREG(info.st_mode):
        raise InvalidSpec(
            f"{where}: {field} {shown} is not a regular file", field=field, expected=expected
        )
    if info.st_size > MAX_YAML_BYTES:
        raise InvalidSpec(
            f"{where}: {field} {shown} is {info.st_size:,} bytes (limit {MAX_YAML_BYTES:,})",
            field=field,
            expected=expected,
        )
    return str(path)
