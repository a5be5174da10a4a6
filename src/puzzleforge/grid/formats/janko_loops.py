"""Janko codecs of the loop genres: Slitherlink and Masyu.

Why these together: both draw one loop and carry their clues as one token per cell
(Slitherlink's edge counts 0-3, Masyu's white and black pearls); a loop is not a grid
of cell tokens, so no published solution is read back for them.
"""

from __future__ import annotations

from ..genre import Instance
from .janko import JankoDoc
from .janko_tokens import Reader, Writer, cell_clue_reader, cell_clue_writer, cells_section

__all__ = ["READERS", "WRITERS"]

_EDGE_COUNTS = {"0": 0, "1": 1, "2": 2, "3": 3}
#: pearl tokens, lower-cased before the lookup
_PEARLS = {"w": "W", "o": "W", "1": "W", "b": "B", "x": "B", "2": "B", "*": "B"}


def _write_masyu(inst: Instance, doc: JankoDoc) -> None:
    p = inst.clues.get("pearl", {})
    doc.sections["problem"] = cells_section(
        inst, lambda c: {"W": "w", "B": "b"}[p[c]] if c in p else "-"
    )


READERS: dict[str, Reader] = {
    "slitherlink": cell_clue_reader("slitherlink", "number", lambda t: _EDGE_COUNTS[t]),
    "masyu": cell_clue_reader("masyu", "pearl", lambda t: _PEARLS[t.lower()]),
}
WRITERS: dict[str, Writer] = {
    "slitherlink": cell_clue_writer("number"),
    "masyu": _write_masyu,
}
