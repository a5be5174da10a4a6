"""Category databases: the word lists, ordinal lists and numerical interpretations of
one language, loaded once per process from the package data (seeds/003, 3.1).

Why data files: word lists change more often than code and translators edit them, so
each category is one text file (first line ``# <weight>``, optional ``# title: ...``,
then one object per line), folders of categorical lists are classes with weights
(``classes.yaml``), and numerical interpretations are a table (``units.yaml``) with
weights and validity conditions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from pathlib import Path

from ..core.errors import ConfigError, InvalidDescription
from ..core.yamlio import load_yaml

__all__ = [
    "LANGS",
    "CategoryFile",
    "Database",
    "Unit",
    "load_database",
    "parse_category_file",
]

LANGS = ("en", "pl")


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
