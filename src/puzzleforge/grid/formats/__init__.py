"""Exchange formats of grid puzzles besides our own instance text.

* ``puzzlink``: puzz.link (pzprjs) URLs, for the genres puzz.link has.
* ``janko``: the text janko.at embeds in its puzzle pages (old ``begin``/``end`` and
  new ``[setup]``/``[problem]``/``[solution]`` layouts), for every genre Janko has.
* ``detect``: which of the three a text is.
"""

from __future__ import annotations

__all__ = ["decode_url", "encode_url", "parse_janko", "format_janko", "detect_format"]


def __getattr__(name: str):  # lazy: importing the package stays cheap
    if name in ("decode_url", "encode_url"):
        from . import puzzlink

        return getattr(puzzlink, name)
    if name in ("parse_janko", "format_janko"):
        from . import janko

        return getattr(janko, name)
    if name == "detect_format":
        from .detect import detect_format

        return detect_format
    raise AttributeError(name)
