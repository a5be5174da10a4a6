"""The drawing of a puzzle's categories (seeds/003, 2.2 and 3.1): K categories of k
objects, categorical lists by class and list weight, ordinal windows and numerical
values with a unit, redrawn until no object name repeats.

The databases they are drawn from are ``catdata.py``; the numerical values and how they
are written, ``numvalues.py`` (both re-exported here, where callers have always found
them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.errors import GenerationFailed
from .catdata import LANGS, CategoryFile, Database, Unit, load_database, parse_category_file
from .numvalues import (
    draw_numbers,
    format_number,
    object_name,
    plural_form,
    type3_candidates,
    weighted_choice,
)

__all__ = [
    "Category",
    "CategoryFile",
    "Database",
    "Unit",
    "load_database",
    "parse_category_file",
    "draw_categories",
    "draw_numbers",
    "type3_candidates",
    "format_number",
    "object_name",
    "plural_form",
    "LANGS",
    "weighted_choice",
]


@dataclass(frozen=True)
class Category:
    """One drawn category of a puzzle.

    ``items`` are the display names (ascending for ordinal and numerical categories);
    numerical categories also keep ``values`` (exact, as strings), the unit ``template``
    and the type-3 candidate relations ``relations`` ("+25", "*2").
    """

    kind: str
    title: str
    items: tuple[str, ...]
    source: str = ""
    values: tuple[str, ...] = ()
    template: str = ""
    relations: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()

    @property
    def ordered(self) -> bool:
        return self.kind != "categorical"

    def fractions(self) -> list[Fraction]:
        return [Fraction(v) for v in self.values]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "title": self.title,
            "items": list(self.items),
            "source": self.source,
        }
        if self.kind == "numerical":
            out.update(
                values=list(self.values), template=self.template, relations=list(self.relations)
            )
        if self.groups:
            out["groups"] = list(self.groups)
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Category:
        return cls(
            kind=raw["kind"],
            title=raw["title"],
            items=tuple(raw["items"]),
            source=raw.get("source", ""),
            values=tuple(raw.get("values", ())),
            template=raw.get("template", ""),
            relations=tuple(raw.get("relations", ())),
            groups=tuple(raw.get("groups", ())),
        )


def _draw_categorical(
    rng: random.Random, db: Database, count: int, k: int, taken: set[str]
) -> list[Category]:
    """``count`` categorical lists, each drawn by class weight and then by list weight.

    Why a class is usable only while it still has an untaken list of at least k objects
    (counting the lists already drawn in this call): the classes used to be chosen all
    up front, so a heavy class with few lists (Polish ``special_names`` has 3) could be
    chosen more often than it has lists and the list draw failed with "all weights are
    zero" (about once in 2,000 K=7-8 draws). ``without`` (seeds/003: small puzzles prefer
    distinct classes) still removes a chosen class from the preferred pool.
    """
    classes = sorted(db.class_weights)
    without = count < 6 and rng.random() < 0.75
    chosen_classes: list[str] = []
    pool = list(classes)
    remaining = {
        c: sum(
            1 for f in db.categorical if f.klass == c and len(f.items) >= k and f.key not in taken
        )
        for c in classes
    }
    for _ in range(count):
        usable = [c for c in pool if remaining[c] > 0]
        if not usable:
            usable = [c for c in classes if remaining[c] > 0]
        if not usable:
            raise GenerationFailed(
                f"only {len(chosen_classes)} categorical lists have at "
                f"least {k} objects; {count} were needed"
            )
        klass = weighted_choice(rng, usable, [db.class_weights[c] for c in usable])
        chosen_classes.append(klass)
        remaining[klass] -= 1
        if without and klass in pool and len(pool) > 1:
            pool.remove(klass)
    out = []
    for klass in chosen_classes:
        files = [
            f
            for f in db.categorical
            if f.klass == klass and len(f.items) >= k and f.key not in taken
        ]
        f = weighted_choice(rng, files, [x.weight for x in files])
        taken.add(f.key)
        picks = rng.sample(range(len(f.items)), k)
        items = tuple(f.items[i] for i in picks)
        groups = tuple(db.groups[f.groups[i]]["label"] for i in picks) if f.groups else ()
        out.append(Category("categorical", f.title, items, source=f.key, groups=groups))
    return out


def _draw_ordinal(rng: random.Random, db: Database, k: int, taken: set[str]) -> Category:
    files = [f for f in db.ordinal if len(f.items) >= k and f.key not in taken]
    if not files:
        raise GenerationFailed(f"no ordinal list with at least {k} objects left")
    f = weighted_choice(rng, files, [x.weight for x in files])
    taken.add(f.key)
    start = rng.randrange(len(f.items) - k + 1)
    return Category("ordinal", f.title, tuple(f.items[start : start + k]), source=f.key)


def _draw_numerical(rng: random.Random, db: Database, k: int, used_units: set[str]) -> Category:
    values = draw_numbers(rng, k)
    lo, hi = min(values), max(values)
    integral = all(v.denominator == 1 for v in values)
    units = [u for u in db.units if u.fits(values, lo, hi, integral)]
    fresh = [u for u in units if u.template not in used_units]
    units = fresh or units
    if not units:
        raise GenerationFailed("no numerical interpretation fits the drawn values")
    unit = weighted_choice(rng, units, [u.weight for u in units])
    used_units.add(unit.template)
    items = tuple(object_name(unit.template, v, db.lang) for v in values)
    return Category(
        "numerical",
        unit.title,
        items,
        source="numerical",
        values=tuple(str(v) for v in values),
        template=unit.template,
        relations=tuple(type3_candidates(values)),
    )


def draw_categories(
    rng: random.Random, K: int, k: int, lang: str = "en", kinds: Sequence[str] | None = None
) -> list[Category]:
    """Draw K categories of k objects: at least one categorical (it becomes category 0,
    the row keys of the answer) and one numerical, the rest by the kind weights; redrawn
    until no object name repeats anywhere (seeds/003, 2.1.36)."""
    db = load_database(lang)
    n_ordinal = sum(1 for f in db.ordinal if len(f.items) >= k)
    for _ in range(100):
        if kinds is None:
            chosen = ["categorical", "numerical"]
            for _ in range(K - 2):
                # an ordinal list is drawn without replacement: stop offering the kind
                # once every long-enough list is used (Polish k=8 has 7 of them)
                names = [
                    n
                    for n in sorted(db.kind_weights)
                    if n != "ordinal" or chosen.count("ordinal") < n_ordinal
                ]
                chosen.append(weighted_choice(rng, names, [db.kind_weights[n] for n in names]))
        else:
            chosen = list(kinds)
        taken: set[str] = set()
        used_units: set[str] = set()
        cats = _draw_categorical(rng, db, chosen.count("categorical"), k, taken)
        others = []
        for kind in chosen:
            if kind == "ordinal":
                others.append(_draw_ordinal(rng, db, k, taken))
            elif kind == "numerical":
                others.append(_draw_numerical(rng, db, k, used_units))
        rest = cats[1:] + others
        rng.shuffle(rest)
        result = [cats[0]] + rest
        names = [item.casefold() for c in result for item in c.items]
        titles = [c.title.casefold() for c in result]
        if len(set(names)) == len(names) and len(set(titles)) == len(titles):
            return result
    raise GenerationFailed("categories kept repeating object names in 100 draws")
