"""A spec's custom operators from ``.py`` files: trust first, then find, load and bind them.

Why a module of its own (split from spec/family.py): loading an operator file runs
Python code from disk, so it has rules of its own that have nothing to do with
generating puzzles: it needs ``--trust`` (checked before the file is even looked for),
the path is searched where specs keep ``customs/`` (the working directory, the spec's
folder, its parent; an absolute path from the author's machine falls back to the
project's ``customs/``), a file that fails to import is the spec's error with its field
and line, and the module's random draws are bound to the puzzle seed
(``bind_trusted_module``: the attempt's ``random.Random``, set by ``operators.Runtime``).
"""

from __future__ import annotations

import importlib.util
import random
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidSpec, TrustRequired

if TYPE_CHECKING:  # annotations only: the schema imports the operators, which import this
    from .schema import Spec

__all__ = ["load_file_operators", "bind_trusted_module", "set_active_rng"]


_ACTIVE = threading.local()


def _active_rng() -> random.Random:
    rng = getattr(_ACTIVE, "rng", None)
    if rng is None:  # called outside an attempt (e.g. at import time of a trusted file)
        rng = _ACTIVE.rng = random.Random(0)
    return rng


def set_active_rng(rng: random.Random) -> None:
    """Make ``rng`` (an attempt's generator) what trusted operator files draw from."""
    _ACTIVE.rng = rng


class _RandomModuleProxy:
    """Stands for the ``random`` module inside a trusted operator file.

    Why: custom operator files (``customs/*.py``) draw from the global ``random`` module;
    routed to the current attempt's ``random.Random``, their draws become part of the
    puzzle's seed like every other draw (same seed => same puzzle, and ``verify`` can
    regenerate the record).
    """

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            method = getattr(_active_rng(), name, None)
            if method is not None and callable(method):
                return method
        return getattr(random, name)


_RANDOM_PROXY = _RandomModuleProxy()


def _quiet_print(*args: Any, **kwargs: Any) -> None:
    """``print`` inside trusted operator files: their debug output must not mix with JSONL."""


def bind_trusted_module(module: Any) -> None:
    """Route a trusted operator file's randomness to the attempt's rng and mute its prints."""
    inst = getattr(random, "_inst", None)
    names = vars(module)
    for name, value in list(names.items()):
        if value is random:
            names[name] = _RANDOM_PROXY
        elif inst is not None and getattr(value, "__self__", None) is inst and callable(value):
            method = value.__name__
            names[name] = (lambda m: lambda *a, **k: getattr(_active_rng(), m)(*a, **k))(method)
    names["print"] = _quiet_print


def _resolve_operator_file(spec: Spec, name: str, rel: str) -> Path:
    """Where operator file ``rel`` is: the project root, the spec's folder or its parent."""
    here = Path(spec.path).resolve().parent
    # the project root (working directory), the spec's folder, and the folder holding a
    # specs/ folder (customs/ usually sits beside specs/)
    candidates = [Path.cwd() / rel, here / rel, here.parent / rel]
    for c in candidates:
        if c.is_file():
            return c
    line = spec.lines.get(("custom_operator", name))
    if Path(rel).is_absolute():
        # an absolute path from the author's machine: the project's customs/ folder may
        # hold the same file (public specs ship it there)
        base = Path(rel).name
        for c in (
            Path.cwd() / "customs" / base,
            here / "customs" / base,
            here.parent / "customs" / base,
        ):
            if c.is_file():
                return c
        raise InvalidSpec(
            f"operator file '{rel}' not found (an absolute path that does not exist "
            f"here, and no customs/{base} in the project either)",
            file=spec.path,
            field=f"custom_operator.{name}",
            line=line,
            expected="a path relative to the project root, e.g. customs/" + base,
        )
    raise InvalidSpec(
        f"operator file '{rel}' not found",
        file=spec.path,
        field=f"custom_operator.{name}",
        line=line,
        expected="a path relative to the working directory (project root) or to the spec's folder",
    )


def load_file_operators(spec: Spec, trust: bool) -> dict[str, Any]:
    """The functions of the spec's ``.py`` operator files, by operator name (trusted only)."""
    out: dict[str, Any] = {}
    for name, (kind, rel) in spec.operators.items():
        if kind != "file":
            continue
        line = spec.lines.get(("custom_operator", name))
        if not trust:  # checked before the file is even looked for
            raise TrustRequired(
                f"operator '{name}' runs Python code from '{rel}'",
                file=spec.path,
                field=f"custom_operator.{name}",
                line=line,
                expected="--trust on `puzzleforge spec generate`, `generate`, `verify` or "
                "`score` (or trust=True in the Python API) to allow Python operator "
                "files; the web app never trusts a spec a dataset record names",
                hint="Only pass --trust for specs you trust",
            )
        path = _resolve_operator_file(spec, name, rel)
        mod_spec = importlib.util.spec_from_file_location(f"puzzleforge_spec_op_{path.stem}", path)
        if mod_spec is None or mod_spec.loader is None:
            raise InvalidSpec(
                f"cannot load operator file '{rel}'",
                file=spec.path,
                field=f"custom_operator.{name}",
                line=line,
            )
        module = importlib.util.module_from_spec(mod_spec)
        try:
            mod_spec.loader.exec_module(module)
        except Exception as exc:  # noqa: BLE001 - trusted user code failing to import
            raise InvalidSpec(
                f"operator file '{rel}' failed to load: {type(exc).__name__}: {exc}",
                file=spec.path,
                field=f"custom_operator.{name}",
                line=line,
            ) from None
        bind_trusted_module(module)  # its random draws follow the puzzle seed; prints muted
        func = getattr(module, name, None)
        if func is None:
            raise InvalidSpec(
                f"operator file '{rel}' defines no '{name}'",
                file=spec.path,
                field=f"custom_operator.{name}",
                line=line,
                expected=f"a function named {name} in the file",
            )
        out[name] = func
    return out
