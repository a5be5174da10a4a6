"""How each genre's Janko grids map onto our instances (and back).

Conventions (janko.at's, as far as its pages and public scrapers of them show; where a
genre admits several spellings we read all of them and write the first):

* every grid: whitespace-separated tokens, ``-`` (or ``.``) = empty.
* sudoku: digits (letters past 9); box from ``patterny`` x ``patternx`` (rows x cols).
* unruly, binairo: ``0``/``1`` (also ``w``/``b``).
* futoshiki: a (2n-1) x (2n-1) grid: cells on even rows/columns, signs between them:
  ``<``/``>`` (also ``«``/``»``) across, ``^``/``v`` (also ``A``/``V``) down, ``^``
  meaning the upper cell is smaller. An n x n grid without signs is accepted too.
* kakurasu: ``[rlabels]`` one line of row sums, ``[clabels]`` one line of column sums
  (the weights 1..n are implicit); the problem grid is all ``-``.
* skyscrapers: ``[clabels]`` two lines (top clues, bottom clues), ``[rlabels]`` two lines
  (left, right); the problem grid holds given heights. A (n+2) x (n+2) problem grid with
  the clues in its frame is accepted too.
* lightup (Akari): ``x`` (also ``#``, ``b``) a wall, ``0``-``4`` a numbered wall.
* nurikabe: island numbers. slitherlink: ``0``-``3``. masyu: ``w``/``b`` (also ``1``/``2``).
* starbattle: ``[areas]`` region labels per cell, ``stars k`` in the setup.

Solutions are read where a cell token is unambiguous (digits; 0/1 and shaded marks
``x # * 1`` for shading genres) and returned as our answer tokens, so a caller can check
that the unique solution we find is the published one.

This module is the entry point and the table of genres; the codecs themselves live in
one module per genre group (``janko_numbers``, ``janko_shading``, ``janko_loops``, on
the shared token helpers of ``janko_tokens``), so adding a genre is one reader, one
writer and one line in the names below.
"""

from __future__ import annotations

import re

from ...core.errors import InvalidDescription
from ..genre import Instance
from . import janko_loops, janko_numbers, janko_shading
from .janko import JankoDoc, read_doc, write_doc
from .janko_tokens import Reader, Writer

__all__ = ["from_doc", "to_doc", "parse_janko", "format_janko", "JANKO_NAMES", "janko_genre"]

#: Janko ``puzzle`` names (normalised: lower case, letters and digits only) -> our genre
JANKO_NAMES = {
    "sudoku": "sudoku",
    "futoshiki": "futoshiki",
    "kakurasu": "kakurasu",
    "akari": "lightup",
    "lightup": "lightup",
    "bijutsukan": "lightup",
    "nurikabe": "nurikabe",
    "slitherlink": "slitherlink",
    "slither": "slitherlink",
    "masyu": "masyu",
    "mashu": "masyu",
    "starbattle": "starbattle",
    "sternenschlacht": "starbattle",
    "skyscrapers": "skyscrapers",
    "skyscraper": "skyscrapers",
    "hochhaeuser": "skyscrapers",
    "wolkenkratzer": "skyscrapers",
    "towers": "skyscrapers",
    "building": "skyscrapers",
    "binairo": "binairo",
    "binaer": "binairo",
    "takuzu": "binairo",
    "binary": "binairo",
    "unruly": "unruly",
}
#: our genre -> the name we write
WRITE_NAME = {
    "sudoku": "sudoku",
    "futoshiki": "futoshiki",
    "kakurasu": "kakurasu",
    "lightup": "akari",
    "nurikabe": "nurikabe",
    "slitherlink": "slitherlink",
    "masyu": "masyu",
    "starbattle": "starbattle",
    "skyscrapers": "skyscrapers",
    "binairo": "binairo",
    "unruly": "unruly",
}
#: genres whose solution we write, and those among them written as shading marks
_WRITES_SOLUTION = (
    "sudoku",
    "futoshiki",
    "skyscrapers",
    "unruly",
    "binairo",
    "kakurasu",
    "nurikabe",
    "starbattle",
)
_SHADED_SOLUTION = ("kakurasu", "nurikabe", "starbattle")

_READERS: dict[str, Reader] = {
    **janko_numbers.READERS,
    **janko_shading.READERS,
    **janko_loops.READERS,
}
_WRITERS: dict[str, Writer] = {
    **janko_numbers.WRITERS,
    **janko_shading.WRITERS,
    **janko_loops.WRITERS,
}


def janko_genre(name: str) -> str:
    key = re.sub(r"[^a-z0-9]", "", name.lower().replace("ä", "ae"))
    genre = JANKO_NAMES.get(key)
    if genre is None:
        raise InvalidDescription(
            f"Janko puzzle type {name!r} is not one of our genres",
            field="puzzle",
            expected="one of " + ", ".join(sorted(JANKO_NAMES)) + " (or pass the genre)",
        )
    return genre


def from_doc(doc: JankoDoc, genre: str | None = None) -> tuple[Instance, list[list[str]] | None]:
    gid = genre or janko_genre(doc.fields.get("puzzle", "") or "?")
    reader = _READERS.get(gid)
    if reader is None:
        raise InvalidDescription(
            f"no Janko layout for {gid}", expected="a puzz.link URL or instance text"
        )
    return reader(doc)


def to_doc(inst: Instance, sol: dict | None = None, extra: dict | None = None) -> JankoDoc:
    if inst.genre not in WRITE_NAME:
        raise InvalidDescription(
            f"no Janko layout for {inst.genre}",
            expected="a puzz.link URL (puzzleforge grid url FILE) or instance text",
        )
    doc = JankoDoc()
    doc.fields["puzzle"] = WRITE_NAME[inst.genre]
    if inst.rows == inst.cols:
        doc.fields["size"] = str(inst.rows)
    else:
        doc.fields["rows"], doc.fields["cols"] = str(inst.rows), str(inst.cols)
    for k, v in (extra or {}).items():
        doc.fields[k] = str(v)
    _WRITERS[inst.genre](inst, doc)
    if sol is not None:
        from ..genres import get_genre

        g = get_genre(inst.genre)
        grid = g.answer_grid(inst, sol)
        if inst.genre in _SHADED_SOLUTION:
            grid = [["x" if t == "1" else "-" for t in row] for row in grid]
        if inst.genre in _WRITES_SOLUTION:
            doc.sections["solution"] = grid
    return doc


def parse_janko(text: str, genre: str | None = None) -> tuple[Instance, list[list[str]] | None]:
    """Janko text -> (Instance, the solution as our answer tokens or None).

    ``genre`` overrides the text's own ``puzzle`` field (needed when it is missing or a
    name we do not know).
    """
    return from_doc(read_doc(text), genre)


def format_janko(inst: Instance, solution: dict | None = None, **fields: str) -> str:
    """Instance (and optionally its solution) -> Janko text (new layout)."""
    return write_doc(to_doc(inst, solution, fields))
