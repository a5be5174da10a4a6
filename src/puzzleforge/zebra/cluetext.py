"""Clue sentences in the native wording, English and Polish.

Why a module of its own (split from zebra/text.py): every style needs them. The native
text (zebra/text.py) words every clue this way, and the ZebraLogic style
(zebra/zebralogic.py) uses its own wording only for the kinds ZebraLogic has, falling
back to these sentences for the rest. Both import this module, and neither imports
the other's dispatch, so the three stay free of import cycles. Why constructions
instead of word forms in Polish: see zebra/text.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .clues import (
    Clue,
    EitherClue,
    GroupClue,
    IfThenClue,
    NotClue,
    OrderClue,
    PairClue,
    atoms_compatible,
)
from .model import ZebraPuzzle
from .numerals import pl_form
from .numvalues import format_number, plural_form

__all__ = ["native_clue_text", "bold"]


def bold(name: str, plain: bool) -> str:
    """``name`` highlighted as markdown bold (``plain``: as it is, for the PDF's own bold)."""
    return name if plain else f"**{name}**"


def _list_en(names: Sequence[str], last: str = "and") -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def _list_pl(names: Sequence[str], last: str = "i") -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def native_clue_text(
    p: ZebraPuzzle, clue: Clue, *, lang: str | None = None, plain: bool = False
) -> str:
    """One clue as a sentence in the native wording (English or Polish, ``lang`` or the
    puzzle's own)."""
    n = lambda o: bold(p.name(o), plain)  # noqa: E731
    if (lang or p.lang) == "pl":
        return _clue_pl(p, clue, n)
    return _clue_en(p, clue, n)


def _d_text(p: ZebraPuzzle, clue: OrderClue, lang: str) -> str:
    return format_number(Fraction(clue.d), lang)


def _difference_en(p: ZebraPuzzle, clue: OrderClue) -> str:
    """The difference of an ``arith +d`` clue with the category's unit where the unit
    reads naturally after a number ("25 kg", "3 years", "$25"), else the bare number
    ("year @" would give "year 25", which is no difference)."""
    d = Fraction(clue.d)
    template = p.categories[clue.cat].template
    number = format_number(d, "en")
    if template.startswith("@ "):
        return plural_form(template, d, "en").replace("@", number)
    if template == "$@":
        return f"${number}"
    return number


def _shared_choice(a, b):
    """For two pairings that cannot both hold: (the shared object, its two alternative
    partners), e.g. A~B1 / A~B2 -> (A, B1, B2); None when they share nothing."""
    (x1, y1), (x2, y2) = a, b
    for s1, o1 in ((x1, y1), (y1, x1)):
        for s2, o2 in ((x2, y2), (y2, x2)):
            if s1 == s2 and o1[0] == o2[0] and o1 != o2:
                return s1, o1, o2
    return None


def _clue_en(p: ZebraPuzzle, clue: Clue, n) -> str:
    if isinstance(clue, PairClue):
        return f"{n(clue.p[0])} is paired with {n(clue.p[1])}."
    if isinstance(clue, GroupClue):
        return (
            f"{n(clue.obj)} is paired with {clue.phrase} (category {p.categories[clue.cat].title})."
        )
    if isinstance(clue, NotClue):
        others = [n(o) for o in clue.others]
        if len(others) == 1:
            return f"{n(clue.obj)} is not paired with {others[0]}."
        if len(others) == 2:
            return f"{n(clue.obj)} is paired with neither {others[0]} nor {others[1]}."
        return f"{n(clue.obj)} is paired with none of {_list_en(others)}."
    if isinstance(clue, IfThenClue):
        (a, b), (c, d), (e, f) = clue.p, clue.q, clue.r
        return (
            f"If {n(a)} is paired with {n(b)}, then {n(c)} is paired with {n(d)}; "
            f"otherwise {n(e)} is paired with {n(f)}."
        )
    if isinstance(clue, EitherClue):
        (a, b), (c, d) = clue.p, clue.q
        if not atoms_compatible(clue.p, clue.q):
            # both cannot hold: "either ... or" is exact, "(or both)" would be false
            shared = _shared_choice(clue.p, clue.q)
            if shared:
                x, y, z = shared
                return f"{n(x)} is paired with either {n(y)} or {n(z)}."
            return f"Either {n(a)} is paired with {n(b)} or {n(c)} is paired with {n(d)}."
        if clue.exclusive:
            return (
                f"Either {n(a)} is paired with {n(b)} or {n(c)} is paired with {n(d)}, "
                "but not both."
            )
        return f"{n(a)} is paired with {n(b)}, or {n(c)} is paired with {n(d)} (or both)."
    if isinstance(clue, OrderClue):
        t = p.categories[clue.cat].title
        o = [n(x) for x in clue.objs]
        rel = clue.rel
        if rel == "chain":
            return f"By {t}: {o[0]} is lower than {o[1]}, and {o[1]} is lower than {o[2]}."
        if rel == "arith":
            # value(objs[1]) = value(objs[0]) + d or * d, in category t; the objects
            # belong to other categories, so the sentence speaks of "the value paired
            # with" them (never "40 kg is 10 kg times 2")
            if clue.oper == "+":
                how = f"{_difference_en(p, clue)} more than"
            else:
                how = f"{_d_text(p, clue, 'en')} times"
            return f"By {t}: the value paired with {o[1]} is {how} the value paired with {o[0]}."
        if rel == "nextto":
            return f"By {t}, {o[0]} is right next to {o[1]}."
        if rel == "left1":
            return f"By {t}, {o[0]} is directly left of {o[1]}."
        if rel == "right1":
            return f"By {t}, {o[0]} is directly right of {o[1]}."
        if rel == "left":
            return f"By {t}, {o[0]} is somewhere left of {o[1]}."
        if rel == "right":
            return f"By {t}, {o[0]} is somewhere right of {o[1]}."
        if rel == "between":
            return f"By {t}, {o[0]} is somewhere between {o[1]} and {o[2]}."
        if rel == "onebetween":
            return f"By {t}, there is exactly one position between {o[0]} and {o[1]}."
        if rel == "twobetween":
            return f"By {t}, there are exactly two positions between {o[0]} and {o[1]}."
        if rel == "end":
            return f"By {t}, {o[0]} is at one of the two ends (lowest or highest)."
    raise ValueError(f"no English text for clue {clue!r}")


def _clue_pl(p: ZebraPuzzle, clue: Clue, n) -> str:
    if isinstance(clue, PairClue):
        return f"{n(clue.p[0])} i {n(clue.p[1])} są parą."
    if isinstance(clue, GroupClue):
        return (
            f"{n(clue.obj)} tworzy parę z obiektem kategorii "
            f"„{p.categories[clue.cat].title}” z grupy „{clue.phrase}”."
        )
    if isinstance(clue, NotClue):
        others = [n(o) for o in clue.others]
        if len(others) == 1:
            return f"{n(clue.obj)} i {others[0]} nie są parą."
        # "ani ..., ani ..." (the Polish idiom); "obiektem" keeps names nominative
        return (
            f"{n(clue.obj)} nie tworzy pary "
            + ", ".join(f"ani z obiektem {o}" for o in others)
            + "."
        )
    if isinstance(clue, IfThenClue):
        (a, b), (c, d), (e, f) = clue.p, clue.q, clue.r
        return (
            f"Jeśli {n(a)} i {n(b)} są parą, to {n(c)} i {n(d)} są parą; "
            f"w przeciwnym razie parą są {n(e)} i {n(f)}."
        )
    if isinstance(clue, EitherClue):
        (a, b), (c, d) = clue.p, clue.q
        if not atoms_compatible(clue.p, clue.q):
            shared = _shared_choice(clue.p, clue.q)
            if shared:
                x, y, z = shared
                return f"{n(x)} tworzy parę albo z obiektem {n(y)}, albo z obiektem {n(z)}."
            return f"Albo {n(a)} i {n(b)} są parą, albo {n(c)} i {n(d)} są parą."
        if clue.exclusive:
            return (
                f"Albo {n(a)} i {n(b)} są parą, albo {n(c)} i {n(d)} są parą "
                "(dokładnie jedno z dwojga)."
            )
        return f"{n(a)} i {n(b)} są parą lub {n(c)} i {n(d)} są parą (co najmniej jedno z dwojga)."
    if isinstance(clue, OrderClue):
        t = f"„{p.categories[clue.cat].title}”"
        o = [n(x) for x in clue.objs]
        rel = clue.rel
        head = f"Pod względem kategorii {t}"
        if rel == "chain":
            # words, not "A < B < C": the objects belong to other categories, and
            # "3 s < rok 1550" would read as a false comparison
            return (
                f"{head} obiekt {o[0]} stoi wcześniej niż obiekt {o[1]}, a obiekt "
                f"{o[1]} wcześniej niż obiekt {o[2]}."
            )
        if rel == "arith":
            amount = _d_text(p, clue, "pl")
            if clue.oper == "+":
                how = f"o {amount} większa"
            else:
                how = (
                    f"{amount} {pl_form(Fraction(clue.d), ('raz', 'razy', 'razy', 'raza'))} większa"
                )
            return (
                f"{head} wartość w parze z obiektem {o[1]} jest {how} niż wartość "
                f"w parze z obiektem {o[0]}."
            )
        if rel == "nextto":
            return f"{head} obiekty {o[0]} i {o[1]} sąsiadują ze sobą."
        if rel == "left1":
            return f"{head} obiekt {o[0]} stoi bezpośrednio przed obiektem {o[1]}."
        if rel == "right1":
            return f"{head} obiekt {o[0]} stoi bezpośrednio za obiektem {o[1]}."
        if rel == "left":
            return f"{head} obiekt {o[0]} stoi gdzieś wcześniej niż obiekt {o[1]}."
        if rel == "right":
            return f"{head} obiekt {o[0]} stoi gdzieś dalej niż obiekt {o[1]}."
        if rel == "between":
            return f"{head} obiekt {o[0]} stoi gdzieś pomiędzy obiektami {o[1]} i {o[2]}."
        if rel == "onebetween":
            return f"{head} pomiędzy obiektami {o[0]} i {o[1]} stoi dokładnie jeden inny obiekt."
        if rel == "twobetween":
            return f"{head} pomiędzy obiektami {o[0]} i {o[1]} stoją dokładnie dwa inne obiekty."
        if rel == "end":
            return f"{head} obiekt {o[0]} stoi na jednym z dwóch końców (pierwszy lub ostatni)."
    raise ValueError(f"brak polskiego tekstu dla wskazówki {clue!r}")
