"""Python string-literal escapes in the literal text of spec templates.

Why: the original renders every text template (``desc``, option texts, condition texts)
by pasting it into a Python f-string literal of generated code, so Python's escape
processing applies to the template's literal parts: a plain YAML scalar such as
``老师说：\\"你们当中有5人说对了\\"。`` prints with ``"``, ``\\n`` is a line break, ``\\\\`` one
backslash. Placeholders (``{...}``) are expressions and are not touched here. Unknown
escapes (``\\d``) stay as written, as Python leaves them.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["unescape"]

_SIMPLE = {
    "\n": "",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_ESCAPE = re.compile(
    r"\\(N\{[^}]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", re.DOTALL
)


def _one(m: re.Match) -> str:
    s = m.group(1)
    c = s[0]
    if c in _SIMPLE and len(s) == 1:
        return _SIMPLE[c]
    if c in "xuU" and len(s) > 1:
        code = int(s[1:], 16)
        return chr(code) if code <= 0x10FFFF else m.group(0)
    if c in "01234567":
        return chr(int(s, 8))
    if c == "N" and len(s) > 1:
        try:
            return unicodedata.lookup(s[2:-1])
        except KeyError:
            return m.group(0)
    return m.group(0)  # not an escape: the backslash stays


def unescape(text: str) -> str:
    """``text`` as a Python (non-raw) string literal with that content would read."""
    if "\\" not in text:
        return text
    return _ESCAPE.sub(_one, text)
