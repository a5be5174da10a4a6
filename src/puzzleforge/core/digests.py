"""BLAKE2b and SHA-256 from CPython's built-in modules, without hashlib's OpenSSL.

Why: ``import hashlib`` loads OpenSSL's libcrypto (~3.3 MB of resident memory) even when
only BLAKE2b (seeds, core/seeding.py) and SHA-256 (spec digests) are used, and CPython has
both built in (hashlib itself takes BLAKE2b from ``_blake2``; random.py takes SHA-512 from
``_sha512`` for the same reason). Peak memory of ``spec generate`` is a target
(docs/spec.md "Peak memory"). The digests are the same bytes either way; a Python built
without these modules gets hashlib's.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["blake2b", "sha256"]


def _builtin(modules: tuple[str, ...], name: str) -> Any:
    """The constructor ``name`` from the first built-in module that has it, else hashlib's."""
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    import hashlib  # pragma: no cover - a Python built without them

    return getattr(hashlib, name)  # pragma: no cover


blake2b = _builtin(("_blake2",), "blake2b")
sha256 = _builtin(("_sha2", "_sha256"), "sha256")  # Python 3.12+, 3.11
