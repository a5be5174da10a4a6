"""Category databases and the drawing of a puzzle's categories (seeds/003, 2.2 and 3.1).

Why data files: word lists change more often than code and translators edit them, so
each category is one text file (first line ``# <weight>``, optional ``# title: ...``,
then one object per line), folders of categorical lists are classes with weights
(``classes.yaml``), and numerical interpretations are a table (``units.yaml``) with
weights and validity conditions. Numerical values follow the weighted p, n, r tables
and the sanity restrictions of section 3.1.9.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, GenerationFailed, InvalidDescription
from ..core.yamlio import load_yaml
from .numerals import en_form, pl_form

__all__ = [
    "Category",
    "CategoryFile",
    "Database",
    "load_database",
    "draw_categories",
    "draw_numbers",
    "type3_candidates",
    "format_number",
    "LANGS",
    "weighted_choice",
]

LANGS = ("en", "pl")

#: seeds/003, 3.1.9: base value p, times factor n, increment / multiplier r.
P_TABLE = [
    (-40, 1),
    (-10, 1),
    (-5, 1),
    (0, 1),
    (1, 20),
    ("1.5", 5),
    (2, 10),
    ("2.5", 5),
    (3, 4),
    (4, 4),
    (5, 3),
    (6, 3),
    (7, 2),
    (8, 2),
    (9, 2),
    (10, 5),
    (20, 5),
    (50, 5),
    (100, 6),
    (1000, 6),
    (1500, 4),
    (1920, 1),
    (1950, 1),
    (1980, 1),
    (1990, 1),
    (2000, 4),
]
N_TABLE = [(1, 10), (2, 4), (3, 1)]
R_ADD = [
    ("0.5", 10),
    (1, 40),
    ("1.5", 5),
    (2, 15),
    ("2.5", 5),
    (3, 5),
    (4, 5),
    (5, 10),
    (10, 10),
    (15, 4),
    (25, 10),
    (50, 10),
    (100, 8),
    (200, 6),
    (250, 3),
    (500, 5),
    (1000, 5),
]
R_MUL = [("0.5", 10), (2, 10), (3, 5), (4, 4), (5, 3), (10, 2)]
SCHEMES = [("arithmetic", 10), ("geometric", 2), ("ascending", 4)]


def weighted_choice(rng: random.Random, items: Sequence[Any], weights: Sequence[float]) -> Any:
    """One weighted draw (explicit rng; no global state)."""
    total = float(sum(weights))
    if total <= 0:
        raise GenerationFailed("nothing to draw from (all weights are zero)")
    x = rng.random() * total
    acc = 0.0
    for item, w in zip(items, weights, strict=True):
        acc += w
        if x < acc:
            return item
    return items[-1]


def format_number(value: Fraction, lang: str = "en") -> str:
    """A value as people write it: 7, 7.5 (English) or 7,5 (Polish)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang == "pl" else text


@dataclass(frozen=True)
class CategoryFile:
    """One word list: its path key, class, weight, title and objects."""

    key: str
    klass: str
    weight: float
    title: str
    items: tuple[str, ...]
    groups: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unit:
    """A numerical interpretation: template with '@' for the number, weight, conditions."""

    template: str
    weight: float
    when: tuple[str, ...]
    title: str

    def fits(
        self,
        values: Sequence[Fraction],
        lo: Fraction | None = None,
        hi: Fraction | None = None,
        integral: bool | None = None,
    ) -> bool:
        """Whether every condition holds for the values (checked on min/max: every
        condition but ``int`` and ``has`` is a bound, so this is exact and cheap;
        ``lo``/``hi``/``integral`` may be passed when the caller checks many units)."""
        if not self.when:
            return True
        low = min(values) if lo is None else lo
        high = max(values) if hi is None else hi
        for name, arg in _parsed_conditions(self.when):
            if name == "int" and not (
                all(v.denominator == 1 for v in values) if integral is None else integral
            ):
                return False
            if name == "pos" and low <= 0:
                return False
            if name == "neg" and high >= 0:
                return False
            if name == "lt" and arg is not None and high >= arg:
                return False
            if name == "gt" and arg is not None and low <= arg:
                return False
            if name == "has" and arg not in values:
                return False
        return True


@cache
def _parsed_conditions(when: tuple[str, ...]) -> tuple[tuple[str, Fraction | None], ...]:
    """Conditions as (name, bound) pairs, parsed once per unit (draws call ``fits`` for
    every unit on every numerical category)."""
    out = []
    for cond in when:
        name, _, arg = cond.partition(" ")
        out.append((name, Fraction(arg) if arg else None))
    return tuple(out)


@dataclass
class Database:
    """Every category list and unit of one language."""

    lang: str
    class_weights: dict[str, float]
    kind_weights: dict[str, float]
    categorical: list[CategoryFile]
    ordinal: list[CategoryFile]
    units: list[Unit]
    labels: dict[str, str] = field(default_factory=dict)
    #: group id -> {"label": shown next to an object, "phrase": used in group clues}
    groups: dict[str, dict[str, str]] = field(default_factory=dict)


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


def _data_root() -> Path:
    return Path(str(resources.files("puzzleforge.zebra") / "data"))


def parse_category_file(path: Path, key: str, klass: str) -> CategoryFile:
    """Read one list file; errors name the file and line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or not lines[0].startswith("#"):
        raise InvalidDescription(
            "first line must be '# <weight>'",
            file=str(path),
            line=1,
            expected="a weight line such as '# 4'",
        )
    try:
        weight = float(lines[0][1:].strip())
    except ValueError:
        raise InvalidDescription(
            "weight is not a number", file=str(path), line=1, expected="'# <positive number>'"
        ) from None
    title = path.stem.replace("_", " ")
    items, groups = [], []
    for _n, line in enumerate(lines[1:], start=2):
        text = line.strip()
        if not text:
            continue
        if text.startswith("# title:"):
            title = text.split(":", 1)[1].strip()
            continue
        if text.startswith("#"):
            continue
        name, bar, group = text.partition("|")
        items.append(name.strip())
        groups.append(group.strip() if bar else "")
    if any(groups) and not all(groups):
        raise InvalidDescription(
            "some objects have a group and some do not",
            file=str(path),
            expected="'name | group' on every line of a grouped list",
        )
    return CategoryFile(
        key=key,
        klass=klass,
        weight=weight,
        title=title,
        items=tuple(items),
        groups=tuple(groups) if any(groups) else (),
    )


@cache
def load_database(lang: str = "en") -> Database:
    """Load (once per process) every list and unit of ``lang`` from the package data."""
    if lang not in LANGS:
        raise ConfigError(
            f"unknown language '{lang}'", field="lang", expected="one of " + ", ".join(LANGS)
        )
    root = _data_root() / lang
    meta = load_yaml(
        (root / "classes.yaml").read_text(encoding="utf-8"), file=str(root / "classes.yaml")
    )
    class_weights = {str(k): float(v) for k, v in meta["classes"].items()}
    kind_weights = {str(k): float(v) for k, v in meta["kinds"].items()}
    categorical = []
    for klass in sorted(class_weights):
        folder = root / "categorical" / klass
        for path in sorted(folder.glob("*.txt")):
            categorical.append(parse_category_file(path, f"categorical/{klass}/{path.stem}", klass))
    ordinal = [
        parse_category_file(p, f"ordinal/{p.stem}", "ordinal")
        for p in sorted((root / "ordinal").glob("*.txt"))
    ]
    units = []
    for _n, raw in enumerate(
        load_yaml((root / "units.yaml").read_text(encoding="utf-8"), file=str(root / "units.yaml"))
    ):
        units.append(
            Unit(
                template=str(raw["template"]),
                weight=float(raw["weight"]),
                when=tuple(str(w) for w in raw.get("when", [])),
                title=str(raw.get("title", raw["template"])),
            )
        )
    labels = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    groups = {
        str(k): {"label": str(v["label"]), "phrase": str(v["phrase"])}
        for k, v in (meta.get("groups") or {}).items()
    }
    for f in categorical:
        unknown = sorted({g for g in f.groups if g not in groups})
        if unknown:
            raise InvalidDescription(
                f"{f.key} uses undeclared groups {', '.join(unknown)}",
                file=str(root / "classes.yaml"),
                field="groups",
                expected="every group declared with a label and a phrase",
            )
    return Database(lang, class_weights, kind_weights, categorical, ordinal, units, labels, groups)


def _frac(x: Any) -> Fraction:
    return Fraction(str(x))


def draw_numbers(rng: random.Random, k: int) -> list[Fraction]:
    """k ascending values from the arithmetic / geometric / ascending schemes with the
    sanity restrictions of seeds/003, 3.1.9 (redrawn until they hold)."""
    for _ in range(200):
        scheme = weighted_choice(rng, [s for s, _ in SCHEMES], [w for _, w in SCHEMES])
        ps = [(p, w) for p, w in P_TABLE if scheme == "arithmetic" or _frac(p) > 0]
        p = _frac(weighted_choice(rng, [x for x, _ in ps], [w for _, w in ps]))
        n = Fraction(weighted_choice(rng, [x for x, _ in N_TABLE], [w for _, w in N_TABLE]))
        first = p * n
        if scheme == "arithmetic":
            rs = []
            for r, w in R_ADD:
                r = _frac(r)
                if -5 < first < 10 and r > 10:
                    continue
                if first > 100 and (first <= 1500 or first >= 2300) and r < 25:
                    continue
                if first >= 20 and r.denominator != 1:
                    continue
                rs.append((r, w))
            if not rs:
                continue
            r = weighted_choice(rng, [x for x, _ in rs], [w for _, w in rs])
            values = [first + r * i for i in range(k)]
        elif scheme == "geometric":
            rs = []
            for r, w in R_MUL:
                r = _frac(r)
                if r < 1 and (first.denominator != 1 or first.numerator % (2 ** (k - 1))):
                    continue
                if (
                    first > 50
                    and (first.denominator != 1 or first.numerator % 100)
                    and r not in (2, 10)
                ):
                    continue
                rs.append((r, w))
            if not rs:
                continue
            r = weighted_choice(rng, [x for x, _ in rs], [w for _, w in rs])
            values = [first * r**i for i in range(k)]
        else:
            step = first
            values = [first]
            for _ in range(k - 1):
                values.append(values[-1] + (step if rng.random() < 0.8 else 2 * step))
        values = sorted(values)
        if len(set(values)) == k and all(abs(v) < 10**7 for v in values):
            return values
    raise GenerationFailed("could not draw numerical values within 200 attempts")


def type3_candidates(values: Sequence[Fraction]) -> list[str]:
    """Relations ``x=y+d`` / ``x=y*d`` holding for at least min_free pairs (seeds/003,
    2.2.3), written "+d" / "*d".

    Counted on integers (the values times the lcm of their denominators): the same
    result as Fraction arithmetic, several times faster, which matters because every
    numerical category of every draw computes it.
    """
    k = len(values)
    min_free = (k - 1) // 2 + 1
    scale = 1
    for v in values:
        scale = scale * v.denominator // math.gcd(scale, v.denominator)
    ints = [v.numerator * (scale // v.denominator) for v in values]
    add: dict[int, int] = {}
    mul: dict[tuple[int, int], int] = {}
    for a in ints:
        for b in ints:
            if b > a:
                add[b - a] = add.get(b - a, 0) + 1
                if a > 0:
                    g = math.gcd(a, b)
                    key = (b // g, a // g)
                    mul[key] = mul.get(key, 0) + 1
    out = [f"+{Fraction(d, scale)}" for d, c in sorted(add.items()) if c >= min_free]
    ratios = sorted((Fraction(n, m), c) for (n, m), c in mul.items())
    out += [f"*{d}" for d, c in ratios if c >= min_free and d != 1]
    return out


def plural_form(template: str, value: Fraction, lang: str) -> str:
    """Resolve ``{one|few|many|fraction}`` (pl) or ``{one|other}`` (en) after a number
    (the agreement rules live in ``numerals``)."""
    start = template.find("{")
    if start < 0:
        return template
    end = template.find("}", start)
    forms = template[start + 1 : end].split("|")
    form = pl_form(value, forms) if lang == "pl" else en_form(value, forms)
    return template[:start] + form + template[end + 1 :]


def object_name(template: str, value: Fraction, lang: str) -> str:
    """Display name of a numerical object: the template with '@' replaced."""
    number = format_number(value, lang)
    if "@" not in template:
        return number
    return plural_form(template, value, lang).replace("@", number)


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


def ceil_div(a: float) -> int:
    return math.ceil(a)
