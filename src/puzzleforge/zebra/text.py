"""Puzzle text in English and Polish: intro, categories, clues, question, explanations.

Why constructions instead of word forms: object names come from data files and would
need declension in Polish ("pasuje do Janina" is wrong), so every Polish sentence keeps
names in the nominative ("**A** i **B** są parą", "obiekt **A**", comparisons with
"niż" and mathematical notation). Object names are highlighted as ``**name**``
(markdown bold); ``plain=True`` drops the stars for PDF rendering with its own bold.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from .categories import format_number
from .clues import Clue, EitherClue, GroupClue, IfThenClue, NotClue, OrderClue
from .model import ZebraPuzzle

__all__ = ["clue_text", "puzzle_text", "question_text", "answer_text", "step_text",
           "steps_text", "intro_text", "LABELS"]

LABELS = {
    "en": {"categories": "Categories", "clues": "Clues", "solution": "Solution",
           "question": "Question", "stars": "Difficulty", "step": "Step", "clue": "clue",
           "ordered": "ordered"},
    "pl": {"categories": "Kategorie", "clues": "Wskazówki", "solution": "Rozwiązanie",
           "question": "Pytanie", "stars": "Trudność", "step": "Krok", "clue": "wskazówka",
           "ordered": "uporządkowana"},
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
    n = lambda o: _b(p.name(o), plain)  # noqa: E731
    if lang == "pl":
        return _clue_pl(p, clue, n)
    return _clue_en(p, clue, n)


def _d_text(p: ZebraPuzzle, clue: OrderClue, lang: str) -> str:
    return format_number(Fraction(clue.d), lang)


def _clue_en(p: ZebraPuzzle, clue: Clue, n) -> str:
    if isinstance(clue, GroupClue):
        return (f"{n(clue.obj)} is paired with {clue.phrase} "
                f"(category {p.categories[clue.cat].title}).")
    if isinstance(clue, NotClue):
        others = [n(o) for o in clue.others]
        if len(others) == 1:
            return f"{n(clue.obj)} is not paired with {others[0]}."
        if len(others) == 2:
            return f"{n(clue.obj)} is paired with neither {others[0]} nor {others[1]}."
        return f"{n(clue.obj)} is paired with none of {_list_en(others)}."
    if isinstance(clue, IfThenClue):
        (a, b), (c, d), (e, f) = clue.p, clue.q, clue.r
        return (f"If {n(a)} is paired with {n(b)}, then {n(c)} is paired with {n(d)}; "
                f"otherwise {n(e)} is paired with {n(f)}.")
    if isinstance(clue, EitherClue):
        (a, b), (c, d) = clue.p, clue.q
        if clue.exclusive:
            return (f"Either {n(a)} is paired with {n(b)} or {n(c)} is paired with {n(d)}, "
                    "but not both.")
        return f"{n(a)} is paired with {n(b)}, or {n(c)} is paired with {n(d)} (or both)."
    if isinstance(clue, OrderClue):
        t = p.categories[clue.cat].title
        o = [n(x) for x in clue.objs]
        rel = clue.rel
        if rel == "chain":
            return f"By {t}: {o[0]} is lower than {o[1]}, and {o[1]} is lower than {o[2]}."
        if rel == "arith":
            d = _d_text(p, clue, "en")
            op = f"plus {d}" if clue.oper == "+" else f"times {d}"
            return f"By {t}: the value of {o[1]} is the value of {o[0]} {op}."
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
        if rel == "end":
            return f"By {t}, {o[0]} is at one of the two ends (lowest or highest)."
    raise ValueError(f"no English text for clue {clue!r}")


def _clue_pl(p: ZebraPuzzle, clue: Clue, n) -> str:
    if isinstance(clue, GroupClue):
        return (f"{n(clue.obj)} tworzy parę z obiektem kategorii "
                f"„{p.categories[clue.cat].title}” z grupy „{clue.phrase}”.")
    if isinstance(clue, NotClue):
        others = [n(o) for o in clue.others]
        if len(others) == 1:
            return f"{n(clue.obj)} i {others[0]} nie są parą."
        return f"{n(clue.obj)} nie tworzy pary z żadnym z obiektów: {_list_pl(others)}."
    if isinstance(clue, IfThenClue):
        (a, b), (c, d), (e, f) = clue.p, clue.q, clue.r
        return (f"Jeśli {n(a)} i {n(b)} są parą, to {n(c)} i {n(d)} są parą; "
                f"w przeciwnym razie parą są {n(e)} i {n(f)}.")
    if isinstance(clue, EitherClue):
        (a, b), (c, d) = clue.p, clue.q
        if clue.exclusive:
            return (f"Albo {n(a)} i {n(b)} są parą, albo {n(c)} i {n(d)} są parą "
                    "(dokładnie jedno z dwojga).")
        return (f"{n(a)} i {n(b)} są parą lub {n(c)} i {n(d)} są parą "
                "(co najmniej jedno z dwojga).")
    if isinstance(clue, OrderClue):
        t = f"„{p.categories[clue.cat].title}”"
        o = [n(x) for x in clue.objs]
        rel = clue.rel
        head = f"Pod względem kategorii {t}"
        if rel == "chain":
            return f"{head} zachodzi: {o[0]} < {o[1]} < {o[2]}."
        if rel == "arith":
            d = _d_text(p, clue, "pl")
            op = "+" if clue.oper == "+" else "·"
            return f"{head} zachodzi: {o[1]} = {o[0]} {op} {d}."
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
            return (f"{head} pomiędzy obiektami {o[0]} i {o[1]} stoi dokładnie jeden "
                    "inny obiekt.")
        if rel == "end":
            return f"{head} obiekt {o[0]} stoi na jednym z dwóch końców (pierwszy lub ostatni)."
    raise ValueError(f"brak polskiego tekstu dla wskazówki {clue!r}")


def _pl_count(n: int, one: str, few: str, many: str) -> str:
    """Polish numeral agreement: 1 obiekt, 2-4 obiekty, 5+ obiektów (12-14 many)."""
    if n == 1:
        return f"{n} {one}"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} {few}"
    return f"{n} {many}"


def intro_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    if p.lang == "pl":
        cats = _pl_count(p.K, "kategoria", "kategorie", "kategorii")
        objs = _pl_count(p.k, "obiekt", "obiekty", "obiektów")
        return (f"Łamigłówka ma {cats} po {objs}. Każdy obiekt jednej kategorii tworzy parę "
                "z dokładnie jednym obiektem każdej innej kategorii, a żadne dwa obiekty "
                "jednej kategorii nie mają wspólnej pary. Kategorie uporządkowane wymieniono "
                "od najmniejszej do największej wartości; „wcześniej” i „przed” oznaczają "
                "mniejszą wartość, „dalej” i „za” większą.")
    return (f"This logic-grid puzzle has {p.K} categories of {p.k} objects each. Every "
            "object of a category is paired with exactly one object of every other "
            "category, and no two objects of one category share a partner. Ordered "
            "categories are listed from the lowest to the highest value; 'left', 'lower' "
            "and 'before' mean a lower value, 'right' a higher one.")


def categories_text(p: ZebraPuzzle, *, plain: bool = False) -> list[str]:
    lab = LABELS[p.lang]
    out = []
    for cat in p.categories:
        mark = f" ({lab['ordered']})" if cat.ordered else ""
        if cat.groups:
            names = [f"{_b(x, plain)} ({g})" for x, g in zip(cat.items, cat.groups)]
        else:
            names = [_b(x, plain) for x in cat.items]
        out.append(f"- {cat.title}{mark}: " + ", ".join(names))
    return out


def question_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    q = p.question or {"kind": "grid"}
    if q.get("kind") == "cell":
        obj = (int(q["obj"][0]), int(q["obj"][1]))
        title = p.categories[int(q["cat"])].title
        if p.lang == "pl":
            return (f"Który obiekt z kategorii „{title}” tworzy parę z obiektem "
                    f"{_b(p.name(obj), plain)}? Odpowiedz samą nazwą.")
        return f"Which {title} is paired with {_b(p.name(obj), plain)}? Answer with its name."
    order = " ~ ".join(c.title for c in p.categories)
    if p.lang == "pl":
        return (f"Znajdź wszystkie pary. Odpowiedz jednym wierszem dla każdego obiektu "
                f"kategorii „{p.categories[0].title}” w postaci: {order}.")
    return (f"Find every pairing. Answer with one line per {p.categories[0].title}, "
            f"in the form: {order}.")


def puzzle_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    """The full question shown to a solver."""
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
    if q.get("kind") == "cell":
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
        "using": "using", "gives": "gives", "assume": "assume",
    },
    "pl": {
        "rule1": "Reguła 1 (para wyklucza resztę swojego wiersza i kolumny)",
        "rule2": "Reguła 2 (jedyna wolna kratka linii jest parą)",
        "rule3": "Reguła 3 (obiekty w parze mają wspólne wykluczenia)",
        "rule4": "Reguła 4 (możliwości obu obiektów w trzeciej kategorii wykluczają się)",
        "rule5": "Reguła 5 (linie ograniczone do tych samych kratek zabierają je innym)",
        "clue": "Wskazówka",
        "guess": "Zgadywanie (założenie pary prowadzi do sprzeczności)",
        "using": "na podstawie", "gives": "daje", "assume": "załóżmy",
    },
}


def step_text(p: ZebraPuzzle, step: dict[str, Any], number: int | None = None) -> str:
    """One explained step as a line of text."""
    words = RULE_TEXT[p.lang]
    head = words[step["rule"]]
    if step["rule"] == "clue":
        head += " " + ", ".join(str(c) for c in step["clues"])
    parts = [head]
    if step.get("assumed"):
        n = len(step.get("chain") or [])
        clues = ", ".join(map(str, step["clues"]))
        assumed = _cell_text(p, step['assumed']['cell'], 'o')
        if p.lang == "pl":
            why = (f"{words['assume']} {assumed}; po {n} krokach"
                   + (f" (wskazówki {clues})" if clues else "") + " dochodzimy do sprzeczności")
        else:
            why = (f"{words['assume']} {assumed}; after {n} deductions"
                   + (f" (clues {clues})" if clues else "") + " the grid is contradictory")
        parts.append(why)
    used = step.get("used") or []
    if used:
        parts.append(words["using"] + " " + "; ".join(_cell_text(p, u["cell"], u["mark"])
                                                      for u in used[:8])
                     + (" …" if len(used) > 8 else ""))
    parts.append(words["gives"] + " " + "; ".join(_cell_text(p, m["cell"], m["mark"])
                                                  for m in step["marks"]))
    prefix = f"{number}. " if number is not None else ""
    return prefix + ": ".join(parts[:1]) + (": " + ", ".join(parts[1:]) if len(parts) > 1 else "")


def steps_text(p: ZebraPuzzle, steps: Sequence[dict[str, Any]]) -> str:
    return "\n".join(step_text(p, s, n) for n, s in enumerate(steps, start=1))
