"""Janko text: the puzzle data janko.at embeds in its pages, read and written.

Why: janko.at is the largest public archive of these genres, and its pages carry the
puzzle (and its solution) as text in ``<script id="data" type="application/x-janko">``.
Two layouts are in use and both are read:

* old: ``begin`` / ``puzzle sudoku`` / ``size 9`` / ``problem`` + grid rows /
  ``solution`` + grid rows / ``moves`` ... / ``end``;
* new: ``[setup]`` (``key value`` lines: puzzle, author, size or rows/cols, ...) then
  ``[problem]``, ``[solution]``, ``[areas]``, ``[rlabels]``, ``[clabels]``, ``[moves]``
  sections of token rows, closed by ``[end]``.

A whole saved HTML page is accepted too (the data block is cut out of it). We write the
new layout. Grid rows are whitespace-separated tokens, ``-`` meaning empty. How each
genre's tokens map onto our instances lives in ``janko_genres`` (with ``parse_janko`` and
``format_janko``, text to instance and back); this module only knows the document
structure, so it imports no genre knowledge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import InvalidDescription
from ..genre import Instance

__all__ = [
    "JankoDoc",
    "read_doc",
    "write_doc",
    "looks_like_janko",
    "solution_rows",
]

#: sections whose body is token rows (in the old layout: keys followed by grid lines)
GRID_KEYS = ("problem", "solution", "areas", "rlabels", "clabels", "labels", "moves", "nodes")
_SCRIPT = re.compile(r'<script[^>]*type="application/x-janko"[^>]*>(.*?)</script>', re.S | re.I)


@dataclass
class JankoDoc:
    """A Janko document: setup fields (lower-case keys) and grid sections (token rows)."""

    fields: dict = field(default_factory=dict)
    sections: dict = field(default_factory=dict)

    def get_int(self, key: str) -> int | None:
        v = self.fields.get(key)
        if v is None:
            return None
        try:
            return int(v.split()[0])
        except (ValueError, IndexError):
            raise InvalidDescription(
                f"Janko field {key} = {v!r}", field=key, expected="a whole number"
            ) from None

    def size(self) -> tuple[int, int]:
        """(rows, cols) from ``size`` or ``rows``/``cols``, else from the problem grid."""
        n = self.get_int("size")
        rows, cols = self.get_int("rows"), self.get_int("cols")
        from ..genre import check_side

        if rows is not None or cols is not None:
            check_side(rows or cols or 0, cols or rows or 0, field_name="rows/cols")
            return rows or cols or 0, cols or rows or 0
        if n is not None:
            check_side(n, n)
            return n, n
        grid = (
            self.sections.get("problem")
            or self.sections.get("solution")
            or self.sections.get("areas")
        )
        if not grid:
            raise InvalidDescription(
                "Janko text without size, rows/cols or a problem grid",
                expected="'size N' or 'rows R' and 'cols C' in the setup",
            )
        check_side(len(grid), len(grid[0]), field_name="problem")
        return len(grid), len(grid[0])


def looks_like_janko(text: str) -> bool:
    """Cheap test used by format detection: a Janko layout marker near the start."""
    head = [line.strip().lower() for line in text.strip().splitlines()[:60] if line.strip()]
    if not head:
        return False
    if "application/x-janko" in text[:200000].lower():
        return True
    return head[0] in ("begin", "[setup]") or (head[0].startswith("[") and "[problem]" in head)


def read_doc(text: str) -> JankoDoc:
    """Janko text (either layout, or a whole page) -> JankoDoc."""
    m = _SCRIPT.search(text)
    if m:
        text = m.group(1)
    lines = [line.strip() for line in text.replace("\r", "").split("\n")]
    lines = [line for line in lines if line and not line.startswith(("#", ";", "//"))]
    if not lines:
        raise InvalidDescription(
            "empty Janko text", expected="'[setup]' or 'begin' then the puzzle data"
        )
    doc = JankoDoc()
    if any(re.fullmatch(r"\[[A-Za-z0-9_-]+\]", line) for line in lines):
        _read_new(lines, doc)
    elif lines[0].lower() == "begin" or lines[0].split()[0].lower() in _FIELD_KEYS:
        _read_old(lines, doc)
    else:
        raise InvalidDescription(
            f"Janko text starting with {lines[0][:40]!r}",
            line=1,
            expected="'[setup]' (new layout) or 'begin' (old layout)",
        )
    if (
        "problem" not in doc.sections
        and "areas" not in doc.sections
        and not ({"rlabels", "clabels"} <= set(doc.sections))
    ):
        raise InvalidDescription(
            "Janko text without a [problem] section", expected="[problem] with the grid rows"
        )
    return doc


def _read_new(lines: list[str], doc: JankoDoc) -> None:
    section = None
    for i, line in enumerate(lines, 1):
        m = re.fullmatch(r"\[([A-Za-z0-9_-]+)\]", line)
        if m:
            section = m.group(1).lower()
            if section == "end":
                return
            if section != "setup":
                doc.sections.setdefault(section, [])
            continue
        if section is None:
            raise InvalidDescription(
                f"Janko line {line!r} before any [section]", line=i, expected="[setup] first"
            )
        if section == "setup":
            key, _, value = line.partition(" ")
            doc.fields[key.lower()] = value.strip()
        else:
            doc.sections[section].append(line.split())


def _read_old(lines: list[str], doc: JankoDoc) -> None:
    i = 1 if lines[0].lower() == "begin" else 0
    current = None
    while i < len(lines):
        words = lines[i].split()
        key = words[0].lower()
        if key == "end":
            return
        if key in GRID_KEYS and len(words) == 1:
            current = key
            doc.sections[current] = []
        elif current is not None and not _is_field_line(words):
            doc.sections[current].append(words)
        else:
            current = None
            doc.fields[key] = " ".join(words[1:])
        i += 1


_FIELD_KEYS = (
    "puzzle",
    "author",
    "solver",
    "source",
    "info",
    "unit",
    "size",
    "rows",
    "cols",
    "patternx",
    "patterny",
    "pattern",
    "stars",
    "title",
    "variant",
    "layout",
    "options",
    "mail",
    "pid",
    "date",
    "depth",
)


def _is_field_line(words: list[str]) -> bool:
    """In the old layout a grid ends where a ``key value`` line starts."""
    return (
        words[0].isalpha()
        and words[0].islower()
        and len(words[0]) > 2
        and (len(words) == 1 or words[0] in _FIELD_KEYS)
    )


def write_doc(doc: JankoDoc) -> str:
    """JankoDoc -> text in the new (bracketed) layout."""
    out = ["[setup]"] + [f"{k} {v}" for k, v in doc.fields.items()]
    for name, rows in doc.sections.items():
        out.append(f"[{name}]")
        out += [" ".join(r) for r in rows]
    out.append("[end]")
    return "\n".join(out) + "\n"


def solution_rows(inst: Instance, sol: dict) -> list[list[str]]:
    """Our answer grid for ``sol``, to compare with the solution a Janko text gives."""
    from ..genres import get_genre

    return get_genre(inst.genre).answer_grid(inst, sol)
