"""Which format a pasted puzzle is in, and one entry point that reads any of them.

Why here and not in the CLI: the command line, the web app and tests all accept "a file
or a URL", so the decision (puzz.link URL, Janko text, or our own instance text) is made
once.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import InvalidDescription
from .janko import looks_like_janko

__all__ = ["detect_format", "read_any", "FORMATS"]

FORMATS = ("auto", "text", "url", "janko")


def detect_format(text: str) -> str:
    """``"url"``, ``"janko"`` or ``"text"`` (our instance text)."""
    s = text.strip()
    first = s.split("\n", 1)[0] if s else ""
    if s.startswith(("http://", "https://", "puzz.link", "pzv.jp")) or (
        "?" in first and "/" in first and " " not in first
    ):
        return "url"
    if looks_like_janko(s):
        return "janko"
    return "text"


def read_any(
    text: str, fmt: str = "auto", genre: str | None = None
) -> tuple[Any, Any, list | None]:
    """Any supported text -> (Genre, Instance, solution tokens given by the text or None)."""
    from ..genres import get_genre

    if fmt not in FORMATS:
        raise InvalidDescription(
            f"format {fmt!r}", field="format", expected="one of " + ", ".join(FORMATS)
        )
    kind = detect_format(text) if fmt == "auto" else fmt
    if kind == "url":
        from .puzzlink import decode_url

        inst = decode_url(text.strip())
        return get_genre(inst.genre), inst, None
    if kind == "janko":
        from .janko_genres import parse_janko

        inst, sol = parse_janko(text, genre)
        return get_genre(inst.genre), inst, sol
    from .. import api

    g, inst = api.parse_puzzle(text)
    return g, inst, None
