"""Numeral agreement tables for English and Polish (one place for every counted noun).

Why a module of its own: counts appear in puzzle intros, explanation steps, the CLI
summary, unit names of numerical categories and the ZebraLogic text, and "after 1
deductions" / "po 1 krokach" came from each site guessing its own form. English has
two forms (1 / other); Polish has three for integers (1 / 2-4 except 12-14 / the rest)
plus the genitive singular after a fraction ("2,5 roku"), and a prepositional phrase
("po 1 kroku", "po 2 krokach") has its own case, so the tables below name the case.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = [
    "pl_form_index",
    "pl_form",
    "pl_count",
    "en_form",
    "en_count",
    "EN_NOUNS",
    "PL_NOUNS",
    "count_phrase",
]


def pl_form_index(value: Fraction | int) -> int:
    """Index of the Polish form after ``value``: 0 one (1), 1 few (2-4, 22-24, ... but
    not 12-14), 2 many (0, 5-21, 25-31, ...), 3 fraction (2,5 roku)."""
    value = Fraction(value)
    if value.denominator != 1:
        return 3
    n = abs(value.numerator)
    if n == 1:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def pl_form(value: Fraction | int, forms: tuple[str, ...] | list[str]) -> str:
    """The form for ``value`` from ``(one, few, many[, fraction])``; a missing fraction
    form falls back to the last given (as the unit tables of seeds/003 do)."""
    i = pl_form_index(value)
    return forms[i] if i < len(forms) else forms[-1]


def en_form(value: Fraction | int, forms: tuple[str, ...] | list[str]) -> str:
    """English: the first form for exactly 1, the last for everything else (0, 2, 1.5)."""
    return forms[0] if Fraction(value) == 1 else forms[-1]


#: English counted nouns: (singular, plural).
EN_NOUNS: dict[str, tuple[str, ...]] = {
    "category": ("category", "categories"),
    "object": ("object", "objects"),
    "deduction": ("deduction", "deductions"),
    "step": ("step", "steps"),
    "guess": ("guess", "guesses"),
    "clue": ("clue", "clues"),
    "house": ("house", "houses"),
    "cross": ("cross", "crosses"),
}

#: Polish counted nouns by case: "nom" after a bare number (1 krok, 2 kroki, 5 kroków),
#: "loc" after "po"/"w" with the locative (po 1 kroku, po 2 krokach, po 5 krokach).
PL_NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "kategoria": {"nom": ("kategoria", "kategorie", "kategorii")},
    "obiekt": {"nom": ("obiekt", "obiekty", "obiektów")},
    "krok": {"nom": ("krok", "kroki", "kroków"), "loc": ("kroku", "krokach", "krokach")},
    "zgadywanie": {"nom": ("zgadywanie", "zgadywania", "zgadywań")},
    "wskazówka": {"nom": ("wskazówka", "wskazówki", "wskazówek")},
    "dom": {"nom": ("dom", "domy", "domów")},
    "krzyżyk": {"nom": ("krzyżyk", "krzyżyki", "krzyżyków")},
}


def en_count(n: int, noun: str) -> str:
    """'1 deduction', '2 deductions' (noun from EN_NOUNS)."""
    return f"{n} {en_form(n, EN_NOUNS[noun])}"


def pl_count(n: int, noun: str, case: str = "nom") -> str:
    """'1 krok', '2 kroki', '5 kroków'; case 'loc': '1 kroku', '2 krokach'."""
    return f"{n} {pl_form(n, PL_NOUNS[noun][case])}"


def count_phrase(lang: str, n: int, en_noun: str, pl_noun: str, case: str = "nom") -> str:
    """A count in either language (the English noun has no case)."""
    return pl_count(n, pl_noun, case) if lang == "pl" else en_count(n, en_noun)
