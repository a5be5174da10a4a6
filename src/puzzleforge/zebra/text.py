"""Puzzle text in English and Polish: intro, categories, clues, question, explanations.

Why constructions instead of word forms: object names come from data files and would
need declension in Polish ("pasuje do Janina" is wrong), so every Polish sentence keeps
names in the nominative ("**A** i **B** są parą", "obiekt **A**", comparisons with
"niż" and mathematical notation). Object names are highlighted as ``**name**``
(markdown bold); ``plain=True`` drops the stars for PDF rendering with its own bold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import zebralogic
from .clues import (
    Clue,
)
from .cluetext import bold, native_clue_text
from .model import ZebraPuzzle
from .numerals import en_count, pl_count

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


def clue_text(p: ZebraPuzzle, clue: Clue, *, lang: str | None = None, plain: bool = False) -> str:
    """One clue as a sentence (in the puzzle's style: ZebraLogic's wording where it has one)."""
    if p.style == "zebralogic":
        text = zebralogic.clue_text(p, clue)
        if text is not None:
            return text
    return native_clue_text(p, clue, lang=lang, plain=plain)


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
            names = [f"{bold(x, plain)} ({g})" for x, g in zip(cat.items, cat.groups, strict=True)]
        else:
            names = [bold(x, plain) for x in cat.items]
        out.append(f"- {cat.title}{mark}: " + ", ".join(names))
    return out


def question_text(p: ZebraPuzzle, *, plain: bool = False) -> str:
    q = p.question or {"kind": "grid"}
    if p.style == "zebralogic":
        return zebralogic.question_text(p)
    if q.get("kind") == "mc":
        obj = (int(q["obj"][0]), int(q["obj"][1]))
        title = p.categories[int(q["cat"])].title
        choices = "\n".join(f"- ({chr(65 + n)}) {c}" for n, c in enumerate(q["choices"]))
        if p.lang == "pl":
            return (
                f"Który obiekt z kategorii „{title}” tworzy parę z obiektem "
                f"{bold(p.name(obj), plain)}?\n\n{choices}\n\nOdpowiedz literą i nazwą "
                "najlepszej odpowiedzi, np. „### Answer: (A) nazwa”."
            )
        return (
            f"Which {title} is paired with {bold(p.name(obj), plain)}?\n\n{choices}\n\n"
            "Answer with the letter and the name of the best choice, for example "
            '"### Answer: (A) name".'
        )
    if q.get("kind") == "cell":
        obj = (int(q["obj"][0]), int(q["obj"][1]))
        title = p.categories[int(q["cat"])].title
        if p.lang == "pl":
            return (
                f"Który obiekt z kategorii „{title}” tworzy parę z obiektem "
                f"{bold(p.name(obj), plain)}? Odpowiedz samą nazwą."
            )
        return f"Which {title} is paired with {bold(p.name(obj), plain)}? Answer with its name."
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
        return zebralogic.puzzle_body(p) + "\n\n" + question_text(p)
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
