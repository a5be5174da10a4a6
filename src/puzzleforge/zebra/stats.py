"""Statistics of the category databases (seeds/003, 2.4): counts, sizes, weights,
duplicate check and find-word.

Why: the word lists are data that people edit; these checks catch a duplicate object or
a list too short for k = 8 before a puzzle does.
"""

from __future__ import annotations

from collections import Counter

from .categories import load_database

__all__ = ["stats_lines", "duplicates", "find_word"]


def duplicates(lang: str) -> list[str]:
    """Lists in which an object name repeats (must be empty)."""
    db = load_database(lang)
    out = []
    for f in db.categorical + db.ordinal:
        counts = Counter(x.casefold() for x in f.items)
        rep = sorted(x for x, n in counts.items() if n > 1)
        if rep:
            out.append(f"{f.key}: {', '.join(rep)}")
    return out


def find_word(lang: str, word: str) -> list[str]:
    db = load_database(lang)
    hits = [
        f.key
        for f in db.categorical + db.ordinal
        if word.casefold() in (x.casefold() for x in f.items)
    ]
    return hits or [f"'{word}' does not occur in any {lang} list"]


def stats_lines(lang: str) -> list[str]:
    db = load_database(lang)
    lines = []
    for label, files in (("categorical", db.categorical), ("ordinal", db.ordinal)):
        sizes = [len(f.items) for f in files]
        lines.append(
            f"{label}: {len(files)} categories, {sum(sizes)} objects, mean "
            f"{sum(sizes) / max(1, len(sizes)):.2f}, min/max {min(sizes)}/{max(sizes)}"
        )
    lines.append("")
    total = sum(db.class_weights.values())
    lines.append("class            weight  share  categories")
    for klass, w in sorted(db.class_weights.items()):
        n = sum(1 for f in db.categorical if f.klass == klass)
        lines.append(f"{klass:<16} {w:>6g} {100 * w / total:5.1f}%  {n}")
    lines.append("")
    for label, files in (("categorical", db.categorical), ("ordinal", db.ordinal)):
        lines.append(f"{label} category                         objects weight")
        for f in files:
            lines.append(f"  {f.key:<40} {len(f.items):>4} {f.weight:>6g}")
    lines.append("")
    lines.append(f"numerical interpretations: {len(db.units)}")
    lines.append("kind weights: " + ", ".join(f"{k} {v:g}" for k, v in db.kind_weights.items()))
    dups = duplicates(lang)
    lines.append("duplicates: " + ("; ".join(dups) if dups else "none found"))
    return lines
