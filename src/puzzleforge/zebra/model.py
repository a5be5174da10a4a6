"""The zebra puzzle object: categories, hidden solution, clues, rating and certificate.

Why a separate record: the generator, the text/PDF renderers, the CLI and the web app
exchange this one object, and it round-trips through the JSON kept in
``Puzzle.meta["zebra"]`` so ``verify``/``solve``/``pdf`` work on a dataset line alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .categories import Category
from .clues import Clue, clue_from_dict

__all__ = ["ZebraPuzzle", "stars_for"]


def stars_for(diff: float) -> int:
    """Stars of seeds/003, 2.3.3: <2 one, <5 two, <10 three, else four."""
    if diff < 2:
        return 1
    if diff < 5:
        return 2
    if diff < 10:
        return 3
    return 4


@dataclass
class ZebraPuzzle:
    """A logic-grid puzzle. ``solution[c][e]`` is the object of category c owned by
    entity e (entity e = object e of category 0)."""

    K: int
    k: int
    lang: str
    categories: list[Category]
    solution: list[list[int]]
    clues: list[Clue]
    question: dict[str, Any] = field(default_factory=lambda: {"kind": "grid"})
    rating: dict[str, Any] = field(default_factory=dict)
    certificate: dict[str, Any] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    #: "native" or "zebralogic" (houses in a row, ZebraLogic wording and record fields)
    style: str = "native"
    #: ZebraLogic's timestamp, derived from the seed (zebralogic style only)
    created_at: str = ""

    def numeric(self) -> dict[int, list[Fraction]]:
        return {
            c: cat.fractions() for c, cat in enumerate(self.categories) if cat.kind == "numerical"
        }

    def name(self, obj: tuple[int, int]) -> str:
        return self.categories[obj[0]].items[obj[1]]

    def rows(self) -> list[list[str]]:
        """One row per entity (category-0 order): the names of its objects."""
        return [
            [self.categories[c].items[self.solution[c][e]] for c in range(self.K)]
            for e in range(self.k)
        ]

    def header(self) -> list[str]:
        """Column names of the solution grid. ZebraLogic's: "House" first, then each
        characteristic with a capital letter (its scorer matches them by name)."""
        if self.style == "zebralogic":
            return ["House"] + [c.title[:1].upper() + c.title[1:] for c in self.categories[1:]]
        return [c.title for c in self.categories]

    def to_dict(self) -> dict[str, Any]:
        out = {
            "K": self.K,
            "k": self.k,
            "lang": self.lang,
            "categories": [c.to_dict() for c in self.categories],
            "solution": self.solution,
            "clues": [dict(c.to_dict(), id=c.cid) for c in self.clues],
            "question": self.question,
            "rating": self.rating,
            "certificate": self.certificate,
            "order": self.order,
        }
        if self.style != "native":
            # only then: native records stay byte-identical to earlier versions
            out.update(style=self.style, created_at=self.created_at)
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ZebraPuzzle:
        cats = [Category.from_dict(c) for c in raw["categories"]]
        numeric = {c: cat.fractions() for c, cat in enumerate(cats) if cat.kind == "numerical"}
        clues = []
        for n, rc in enumerate(raw["clues"]):
            clue = clue_from_dict(rc, k=int(raw["k"]), numeric=numeric)
            clue.cid = int(rc.get("id", n + 1))
            clues.append(clue)
        return cls(
            K=int(raw["K"]),
            k=int(raw["k"]),
            lang=raw.get("lang", "en"),
            categories=cats,
            solution=[list(map(int, r)) for r in raw["solution"]],
            clues=clues,
            question=dict(raw.get("question") or {"kind": "grid"}),
            rating=dict(raw.get("rating") or {}),
            certificate=dict(raw.get("certificate") or {}),
            order=list(raw.get("order") or []),
            style=str(raw.get("style") or "native"),
            created_at=str(raw.get("created_at") or ""),
        )
