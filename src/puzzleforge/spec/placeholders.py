"""Templates: splitting a PuzzleClone text template into text and ``{expression}`` parts.

Why a module of its own (split from spec/safe.py): reading a template is a parsing job
with its own rules (quotes and brackets inside a placeholder, ``!r`` conversions, format
specs, ``{{`` escapes, the original's string escapes), separate from deciding what an
expression may do (spec/safe.py checks and rewrites the tree this module builds). The
result is an f-string AST built without going through Python string quoting, so every
template the original accepts parses, whatever quotes and backslashes it mixes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..core.errors import InvalidSpec
from .escapes import unescape

__all__ = ["template_tree", "short"]


def short(text: str, limit: int = 160) -> str:
    """``text`` on one line, cut to ``limit`` characters (for error messages)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _code_chars(text: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """(index, character) of ``text`` from ``start`` with string literals left out (their
    quotes, escapes and contents), so that brackets and separators inside strings do not
    count. One scanner for both questions below."""
    i = start
    quote = None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
            elif text.startswith(quote, i):
                i += len(quote)
                quote = None
            else:
                i += 1
            continue
        if ch in "'\"":
            quote = text[i : i + 3] if text[i : i + 3] in ("'''", '"""') else ch
            i += len(quote)
            continue
        yield i, ch
        i += 1


def _find_close(text: str, start: int) -> int:
    """Index of the '}' closing the placeholder opened at ``start`` (quotes and brackets aware)."""
    depth = 0
    for i, ch in _code_chars(text, start + 1):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i if ch == "}" else -1
            depth -= 1
    return -1


def _split_field(body: str) -> tuple[str, str | None, str | None]:
    """Split a placeholder body into expression, conversion and format spec (top level only)."""
    depth = 0
    for i, ch in _code_chars(body):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif (
            depth == 0
            and ch == "!"
            and i + 1 < len(body)
            and body[i + 1] in "rsa"
            and (i + 2 == len(body) or body[i + 2] == ":")
        ):
            rest = body[i + 2 :]
            return body[:i], body[i + 1], (rest[1:] if rest.startswith(":") else None)
        elif depth == 0 and ch == ":" and not body[:i].lstrip().startswith("lambda"):
            return body[:i], None, body[i + 1 :]
    return body, None, None


def template_tree(text: str, where: str, file: str | None, line: int | None) -> ast.Expression:
    """Parse a template into an f-string AST without going through Python string quoting.

    Why: spec templates mix both quote characters and backslashes freely (the original
    wraps them in triple quotes and patches the ends); parsing placeholders ourselves
    accepts every template the original accepts, with any quoting.
    """
    parts: list[ast.expr] = []
    buf: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            if i + 1 < n and text[i + 1] == "{":
                buf.append("{")
                i += 2
                continue
            close = _find_close(text, i)
            if close < 0:
                raise InvalidSpec(
                    f"unclosed '{{' in template: {short(text)}",
                    file=file,
                    field=where,
                    line=line,
                    expected="text with {expression} placeholders",
                )
            expr_src, conv, spec = _split_field(text[i + 1 : close])
            if not expr_src.strip():
                raise InvalidSpec(
                    f"empty placeholder {{}} in template: {short(text)}",
                    file=file,
                    field=where,
                    line=line,
                    expected="an expression inside each {}",
                )
            try:
                node = ast.parse("(" + expr_src.strip().replace("\n", " ") + ")", mode="eval").body
            except SyntaxError as exc:
                raise InvalidSpec(
                    f"syntax error in placeholder {{{short(expr_src, 80)}}} ({exc.msg})",
                    file=file,
                    field=where,
                    line=line,
                    expected="a valid Python expression inside {}",
                ) from None
            if buf:
                parts.append(ast.Constant(unescape("".join(buf))))  # as the original's f-string
                buf = []
            fmt = ast.JoinedStr([ast.Constant(spec)]) if spec else None
            parts.append(
                ast.FormattedValue(
                    value=node, conversion=ord(conv) if conv else -1, format_spec=fmt
                )
            )
            i = close + 1
            continue
        if ch == "}" and i + 1 < n and text[i + 1] == "}":
            buf.append("}")
            i += 2
            continue
        buf.append(ch)
        i += 1
    if buf:
        parts.append(ast.Constant(unescape("".join(buf))))  # as the original's f-string
    return ast.Expression(body=ast.JoinedStr(values=parts))
