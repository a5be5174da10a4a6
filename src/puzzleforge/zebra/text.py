"""Puzzle text in English and Polish: intro, categories, clues, question, explanations.

Why constructions instead of word forms: object names come from data files and would
need declension in Polish ("pasuje do Janina" is wrong), so every Polish sentence keeps
names in the nominative ("**A** i **B** są parą", "obiekt **A**", comparisons with
"niż" and mathematical notation). Object names are highlighted as ``**name**``
(markdown bold); ``plain=True`` drops the stars for PDF rendering with its own bold.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .categories import format_number, plural_form
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
from .numerals import en_count, pl_count, pl_form

__all__ = [
    "clue_text",
    "puzzle_text",
    "question_text",
    "answer_text",
    "step_text",
    "steps_text",
    "intro_text",
    "LABELS",
]

LABELS = {
    "en": {
        "categories": "Categories",
        "clues": "Clues",
        "solution": "Solution",
        "question": "Question",
        "stars": "Difficulty",
        "step": "Step",
        "clue": "clue",
        "ordered": "ordered",
    },
    "pl": {
        "categories": "Kategorie",
        "clues": "Wskazówki",
        "solution": "Rozwiązanie",
        "question": "Pytanie",
        "stars": "Trudność",
        "step": "Krok",
        "clue": "wskazówka",
        "ordered": "uporządkowana",
    },
}


def _b(name: str, plain: bool) -> str:
    return name if plain else f"**{name}**"


def _list_en(names: Sequence[str], last: str = "and") -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def _list_pl(names: Sequence[str], last: str = "i") -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def clue_text(p: ZebraPuzzle, clue: Clue, *, lang: str | None = None, plain: bool = False) -> str:
    """One clue as a sentence."""
    lang = lang or p.lang
    if p.style == "zebralogic":
        from . import zebralogic

        text = zebralogic.clue_text(p, clue)
        if text is not None:
            return text
    n = lambda o: _b(p.name(o), plain)  # noqa: E731
    if lang == "pl":
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


def intro_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    if p.lang == "pl":
        cats = pl_count(p.K, "kategoria")
        objs = pl_count(p.k, "obiekt")
        return (
            f"Łamigłówka ma {cats} po {objs}. Każdy obiekt jednej kategorii tworzy parę "
            "z dokładnie jednym obiektem każdej innej kategorii, a żadne dwa obiekty "
            "jednej kategorii nie mają wspólnej pary. Kategorie uporządkowane wymieniono "
            "od najmniejszej do największej wartości; „wcześniej” i „przed” oznaczają "
            "mniejszą wartość, „dalej” i „za” większą."
        )
    return (
        f"This logic-grid puzzle has {en_count(p.K, 'category')} of "
        f"{en_count(p.k, 'object')} each. Every "
        "object of a category is paired with exactly one object of every other "
        "category, and no two objects of one category share a partner. Ordered "
        "categories are listed from the lowest to the highest value; 'left', 'lower' "
        "and 'before' mean a lower value, 'right' a higher one."
    )


def categories_text(p: ZebraPuzzle, *, plain: bool = False) -> list[str]:
    lab = LABELS[p.lang]
    out = []
    for cat in p.categories:
        mark = f" ({lab['ordered']})" if cat.ordered else ""
        if cat.groups:
            names = [f"{_b(x, plain)} ({g})" for x, g in zip(cat.items, cat.groups, strict=True)]
        else:
            names = [_b(x, plain) for x in cat.items]
        out.append(f"- {cat.title}{mark}: " + ", ".join(names))
    return out


def question_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    q = p.question or {"kind": "grid"}
    if p.style == "zebralogic":
        from .zebralogic import question_text as zl_question

        return zl_question(p)
    if q.get("kind") == "mc":
        obj = (int(q["obj"][0]), int(q["obj"][1]))
        title = p.categories[int(q["cat"])].title
        choices = "\n".join(f"- ({chr(65 + n)}) {c}" for n, c in enumerate(q["choices"]))
        if p.lang == "pl":
            return (
                f"Który obiekt z kategorii „{title}” tworzy parę z obiektem "
                f"{_b(p.name(obj), plain)}?\n\n{choices}\n\nOdpowiedz literą i nazwą "
                "najlepszej odpowiedzi, np. „### Answer: (A) nazwa”."
            )
        return (
            f"Which {title} is paired with {_b(p.name(obj), plain)}?\n\n{choices}\n\n"
            "Answer with the letter and the name of the best choice, for example "
            '"### Answer: (A) name".'
        )
    if q.get("kind") == "cell":
        obj = (int(q["obj"][0]), int(q["obj"][1]))
        title = p.categories[int(q["cat"])].title
        if p.lang == "pl":
            return (
                f"Który obiekt z kategorii „{title}” tworzy parę z obiektem "
                f"{_b(p.name(obj), plain)}? Odpowiedz samą nazwą."
            )
        return f"Which {title} is paired with {_b(p.name(obj), plain)}? Answer with its name."
    order = " ~ ".join(c.title for c in p.categories)
    if p.lang == "pl":
        return (
            f"Znajdź wszystkie pary. Odpowiedz jednym wierszem dla każdego obiektu "
            f"kategorii „{p.categories[0].title}” w postaci: {order}."
        )
    return (
        f"Find every pairing. Answer with one line per {p.categories[0].title}, "
        f"in the form: {order}."
    )


def puzzle_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    """The full question shown to a solver."""
    if p.style == "zebralogic":
        from .zebralogic import puzzle_body

        return puzzle_body(p) + "\n\n" + question_text(p)
    lab = LABELS[p.lang]
    lines = [intro_text(p, plain=plain), "", f"{lab['categories']}:"]
    lines += categories_text(p, plain=plain)
    lines += ["", f"{lab['clues']}:"]
    for clue in p.clues:
        lines.append(f"{clue.cid}. {clue_text(p, clue, plain=plain)}")
    lines += ["", f"{lab['question']}: {question_text(p, plain=plain)}"]
    return "\n".join(lines)


def answer_text(p: ZebraPuzzle) -> str:
    """Canonical answer: 'A ~ B ~ C' per entity, or the one object asked for."""
    q = p.question or {"kind": "grid"}
    if q.get("kind") in ("cell", "mc"):
        c0, i0 = int(q["obj"][0]), int(q["obj"][1])
        e = p.solution[c0].index(i0)
        c = int(q["cat"])
        return p.categories[c].items[p.solution[c][e]]
    return "\n".join(" ~ ".join(row) for row in p.rows())


def _cell_text(p: ZebraPuzzle, cell: Sequence[int], mark: str) -> str:
    c1, i1, c2, i2 = cell
    sign = "●" if mark == "o" else "✗"
    return f"{p.categories[c1].items[i1]} {sign} {p.categories[c2].items[i2]}"


RULE_TEXT = {
    "en": {
        "rule1": "Rule 1 (a pairing excludes the rest of its row and column)",
        "rule2": "Rule 2 (the only open cell of a line is the pairing)",
        "rule3": "Rule 3 (paired objects share their exclusions)",
        "rule4": "Rule 4 (the two objects' options in a third category exclude each other)",
        "rule5": "Rule 5 (lines confined to the same cells take them from the others)",
        "clue": "Clue",
        "guess": "Guess (assuming a pairing leads to a contradiction)",
        "using": "using",
        "gives": "gives",
        "assume": "assume",
        "follow": "then by the grid rules",
        "cannot": "cannot hold",
        "clash": "the grid contradicts itself at",
        "so": "so",
    },
    "pl": {
        "rule1": "Reguła 1 (para wyklucza resztę swojego wiersza i kolumny)",
        "rule2": "Reguła 2 (jedyna wolna kratka linii jest parą)",
        "rule3": "Reguła 3 (obiekty w parze mają wspólne wykluczenia)",
        "rule4": "Reguła 4 (możliwości obu obiektów w trzeciej kategorii wykluczają się)",
        "rule5": "Reguła 5 (linie ograniczone do tych samych kratek zabierają je innym)",
        "clue": "Wskazówka",
        "guess": "Zgadywanie (założenie pary prowadzi do sprzeczności)",
        "using": "na podstawie",
        "gives": "daje",
        "assume": "załóżmy",
        "follow": "następnie z reguł siatki",
        "cannot": "nie może być spełniona",
        "clash": "siatka jest sprzeczna w",
        "so": "więc",
    },
}


SHORT_RULE = {"en": "rule", "pl": "reguła"}


def _marks_text(p: ZebraPuzzle, marks: Sequence[dict[str, Any]]) -> str:
    return "; ".join(_cell_text(p, m["cell"], m["mark"]) for m in marks)


def _follow_text(p: ZebraPuzzle, follow: Sequence[dict[str, Any]]) -> str:
    """Bookkeeping marks in brief: the pairings it found by name, the crosses counted
    ("then by the grid rules: A ● B and 6 crosses")."""
    words = RULE_TEXT[p.lang]
    pairs = [m for m in follow if m["mark"] == "o"]
    crosses = len(follow) - len(pairs)
    bits = [_cell_text(p, m["cell"], "o") for m in pairs]
    if crosses:
        bits.append(pl_count(crosses, "krzyżyk") if p.lang == "pl" else en_count(crosses, "cross"))
    joined = (
        ", ".join(bits[:-1]) + (" i " if p.lang == "pl" else " and ") + bits[-1]
        if len(bits) > 1
        else bits[0]
    )
    return f"{words['follow']}: {joined}"


def _chain_step_text(p: ZebraPuzzle, step: dict[str, Any]) -> str:
    """One step inside a refutation: "clue 3 gives A ✗ B (then ...)"."""
    words = RULE_TEXT[p.lang]
    if step["rule"] == "clue":
        head = _clue_list(p.lang, step["clues"])
    else:
        head = f"{SHORT_RULE[p.lang]} {step['rule'][-1]}"
    text = f"{head} {words['gives']} {_marks_text(p, step['own'])}"
    if step.get("follow"):
        text += f" ({_follow_text(p, step['follow'])})"
    return text


def _empty_line(p: ZebraPuzzle, clash: Sequence[dict[str, Any]]):
    """((category, object), other category) when the clash is a whole line of crosses
    (an object left with no option in another category), else None."""
    if len(clash) != p.k or any(m["mark"] != "x" for m in clash):
        return None
    cells = [tuple(m["cell"]) for m in clash]
    for obj, other in (
        ((cells[0][0], cells[0][1]), cells[0][2]),
        ((cells[0][2], cells[0][3]), cells[0][0]),
    ):
        if all(obj in ((c[0], c[1]), (c[2], c[3])) for c in cells):
            return obj, other
    return None


def _refutation_text(p: ZebraPuzzle, step: dict[str, Any]) -> str:
    """A guess as its shortest refutation: the assumption, the steps the contradiction
    depends on, and the deduction that fails."""
    words = RULE_TEXT[p.lang]
    ref = step["refutation"]
    assumed = _cell_text(p, step["assumed"]["cell"], "o")
    parts = [
        f"{words['assume']} {assumed}"
        + (
            f" ({_follow_text(p, ref['assumption_follow'])})"
            if ref.get("assumption_follow")
            else ""
        )
    ]
    parts += [_chain_step_text(p, s) for s in ref["steps"]]
    failed = ref.get("failed") or {}
    if failed.get("rule") == "clue" and failed.get("clues"):
        end = f"{_clue_list(p.lang, failed['clues'])} {words['cannot']}"
    elif _empty_line(p, ref.get("clash") or []):
        (c, i), other = _empty_line(p, ref["clash"])
        name, title = p.categories[c].items[i], p.categories[other].title
        end = (
            f"dla obiektu {name} nie zostaje żadna możliwość w kategorii „{title}”"
            if p.lang == "pl"
            else f"{name} has no option left in {title}"
        )
    elif ref.get("clash"):
        end = f"{words['clash']}: {_marks_text(p, ref['clash'][:3])}"
    else:
        end = words["clash"].split(" w")[0] if p.lang == "pl" else "contradiction"
    parts.append(end)
    return "; ".join(parts)


def step_text(p: ZebraPuzzle, step: dict[str, Any], number: int | None = None) -> str:
    """One explained step as a line of text (a raw engine step or a readable one from
    ``readable.readable_steps``: then bookkeeping shows after the step's own marks and
    a guess shows its refutation)."""
    words = RULE_TEXT[p.lang]
    head = words[step["rule"]]
    if step["rule"] == "clue":
        head = _clue_list(p.lang, step["clues"], capital=True)
    parts = [head]
    if step.get("assumed") and step.get("refutation") is not None:
        parts.append(_refutation_text(p, step))
        parts.append(
            f"{words['so']} {_marks_text(p, step['own'])}"
            + (f", {_follow_text(p, step['follow'])}" if step.get("follow") else "")
        )
        prefix = f"{number}. " if number is not None else ""
        return prefix + parts[0] + ": " + ", ".join(parts[1:])
    if step.get("assumed"):
        n = len(step.get("chain") or [])
        clues = _clue_list(p.lang, step["clues"]) if step["clues"] else ""
        assumed = _cell_text(p, step["assumed"]["cell"], "o")
        if p.lang == "pl":
            why = (
                f"{words['assume']} {assumed}; po {pl_count(n, 'krok', 'loc')}"
                + (f" ({clues})" if clues else "")
                + " dochodzimy do sprzeczności"
            )
        else:
            why = (
                f"{words['assume']} {assumed}; after {en_count(n, 'deduction')}"
                + (f" ({clues})" if clues else "")
                + " the grid is contradictory"
            )
        parts.append(why)
    used = step.get("used") or []
    if used:
        parts.append(
            words["using"]
            + " "
            + "; ".join(_cell_text(p, u["cell"], u["mark"]) for u in used[:8])
            + (" …" if len(used) > 8 else "")
        )
    parts.append(words["gives"] + " " + _marks_text(p, step.get("own", step["marks"])))
    if step.get("follow"):
        parts.append(_follow_text(p, step["follow"]))
    prefix = f"{number}. " if number is not None else ""
    return prefix + ": ".join(parts[:1]) + (": " + ", ".join(parts[1:]) if len(parts) > 1 else "")


def _clue_list(lang: str, ids: Sequence[int], capital: bool = False) -> str:
    """'clue 3' / 'clues 3, 5' ('wskazówka 3' / 'wskazówki 3, 5'): the noun agrees with
    how many clues are listed."""
    if lang == "pl":
        noun = "wskazówka" if len(ids) == 1 else "wskazówki"
    else:
        noun = "clue" if len(ids) == 1 else "clues"
    if capital:
        noun = noun[0].upper() + noun[1:]
    return f"{noun} " + ", ".join(str(c) for c in ids)


def steps_text(p: ZebraPuzzle, steps: Sequence[dict[str, Any]]) -> str:
    return "\n".join(step_text(p, s, n) for n, s in enumerate(steps, start=1))
