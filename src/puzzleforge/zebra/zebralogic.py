"""ZebraLogic style (``style="zebralogic"``): houses 1..N in a row, ZebraLogic's clue
kinds and wording, and records its tooling reads as they are.

Mapping (documented in docs/zebra.md): category 0 is the ordered category ``House``
with objects "1".."N" (k = N houses); the other K-1 categories are categorical lists
(the characteristics, M = K-1); clues are ZebraLogic's found-at / same-house (``pair``),
not-at / not-same (``not``) and the positional kinds over the houses (directly left /
right, somewhere left / right, next to, one between, two between). The record keeps
every puzzleforge field and adds ZebraLogic's ``size`` ("N*M"), ``puzzle`` (the text
without our answer instructions) and ``created_at``; ``solution`` is ``{header, rows}``
with ``header[0] == "House"`` and one row per house in order, as ZeroEval's grid-mode
scorer asserts. ``created_at`` is not a clock reading: it is derived from the puzzle's
seeded random stream (see ``created_at_from``), so the same seed gives the same bytes.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from .categories import Category
from .clues import Clue, NotClue, OrderClue, PairClue
from .cluetext import native_clue_text
from .model import ZebraPuzzle

__all__ = [
    "house_category",
    "created_at_from",
    "puzzle_body",
    "clue_text",
    "question_text",
    "record",
    "ZEBRALOGIC_KINDS",
    "ORDINALS",
]

#: Non-type-1 clue kinds drawn in this style (repeats weight the draw: positional clues
#: dominate ZebraLogic puzzles); type-1 "not" clues finish the grid as usual.
ZEBRALOGIC_KINDS = ("pos", "pos", "pair")

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

#: Fixed origin of ``created_at`` (ZebraLogicBench was published in July 2024).
_EPOCH = datetime(2024, 7, 1)


def house_category(k: int) -> Category:
    """The houses 1..k as an ordered category (ascending = left to right)."""
    return Category("ordinal", "House", tuple(str(i) for i in range(1, k + 1)), source="house")


def created_at_from(rng: random.Random) -> str:
    """A timestamp in ZebraLogic's format ("2024-07-11T01:21:46.521895") drawn from the
    puzzle's own seeded stream after generation: deterministic for a seed (a wall clock
    would make two runs of one command differ), within a year of 2024-07-01."""
    micros = rng.randrange(365 * 24 * 3600 * 1_000_000)
    return (_EPOCH + timedelta(microseconds=micros)).isoformat(timespec="microseconds")


def _is_name_list(cat: Category) -> bool:
    return cat.source.startswith("categorical/names/")


def _ref(p: ZebraPuzzle, obj: tuple[int, int], start: bool = False) -> str:
    """How a sentence names an object's person: a first name as it is, a house as "the
    person in the second house", anything else as "the person whose pet is cat"."""
    c, i = obj
    cat = p.categories[c]
    if c == 0:
        text = f"the person in the {ORDINALS[i]} house"
    elif _is_name_list(cat):
        text = cat.items[i]
    else:
        text = f"the person whose {cat.title} is {cat.items[i]}"
    return text[:1].upper() + text[1:] if start else text


def _list(words: list[str], last: str) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def clue_text(p: ZebraPuzzle, clue: Clue) -> str | None:
    """The ZebraLogic-style sentence of a clue, or None for a kind this style does not
    draw (the caller then uses the native sentence)."""
    if isinstance(clue, PairClue):
        x, y = clue.p
        if y[0] == 0:
            x, y = y, x
        if x[0] == 0:
            return f"{_ref(p, y, True)} lives in the {ORDINALS[x[1]]} house."
        return f"{_ref(p, x, True)} is {_ref(p, y)}."
    if isinstance(clue, NotClue):
        obj, others = clue.obj, list(clue.others)
        if others[0][0] == 0:
            houses = [ORDINALS[o[1]] for o in others]
            subject = _ref(p, obj, True)
            if len(houses) == 1:
                return f"{subject} does not live in the {houses[0]} house."
            if len(houses) == 2:
                return f"{subject} lives in neither the {houses[0]} nor the {houses[1]} house."
            return f"{subject} lives in none of the {_list(houses, 'and')} houses."
        names = [_ref(p, o) for o in others]
        subject = _ref(p, obj, True)
        if len(names) == 1:
            return f"{subject} is not {names[0]}."
        if len(names) == 2:
            return f"{subject} is neither {names[0]} nor {names[1]}."
        return f"{subject} is none of {_list(names, 'and')}."
    if isinstance(clue, OrderClue) and clue.cat == 0 and len(clue.objs) == 2:
        a, b = clue.objs
        A, B = _ref(p, a, True), _ref(p, b)
        rel = clue.rel
        if rel == "left1":
            return f"{A} lives directly left of {B}."
        if rel == "right1":
            return f"{A} lives directly right of {B}."
        if rel == "left":
            return f"{A} lives somewhere to the left of {B}."
        if rel == "right":
            return f"{A} lives somewhere to the right of {B}."
        if rel == "nextto":
            return f"{A} and {B} live next to each other."
        if rel == "onebetween":
            return f"There is one house between {_ref(p, a)} and {B}."
        if rel == "twobetween":
            return f"There are two houses between {_ref(p, a)} and {B}."
    return None


def intro(p: ZebraPuzzle) -> str:
    lines = [
        f"There are {p.k} houses, numbered 1 to {p.k} from left to right, as seen from "
        "across the street. Each house is occupied by a different person. Each house "
        "has a unique attribute for each of the following characteristics:"
    ]
    for cat in p.categories[1:]:
        lines.append(
            f" - Each person has a unique {cat.title}: " + ", ".join(f"`{x}`" for x in cat.items)
        )
    return "\n".join(lines)


def puzzle_body(p: ZebraPuzzle) -> str:
    """ZebraLogic's ``puzzle`` field: the framing, the characteristics and the clues."""
    lines = [intro(p), "", "## Clues:"]
    for clue in p.clues:
        text = clue_text(p, clue)
        if text is None:  # a kind ZebraLogic has no wording for: the native sentence
            text = native_clue_text(p, clue, plain=True)
        lines.append(f"{clue.cid}. {text}")
    return "\n".join(lines)


def mc_sentence(p: ZebraPuzzle) -> str:
    """The multiple-choice question (ZebraLogic mc mode's ``question`` field)."""
    q = p.question
    title = p.categories[int(q["cat"])].title
    return f"What is the {title} of the person who lives in House {int(q['obj'][1]) + 1}?"


def question_text(p: ZebraPuzzle) -> str:
    """What a solver is shown after the puzzle: the grid to fill as JSON, or the
    multiple-choice question with its lettered choices."""
    q = p.question or {"kind": "grid"}
    if q.get("kind") == "mc":
        choices = "\n".join(f"- ({chr(65 + n)}) {c}" for n, c in enumerate(q["choices"]))
        return (
            f"{mc_sentence(p)}\n\n{choices}\n\nAnswer with the letter and the value "
            'of the best choice, for example "### Answer: (A) value".'
        )
    if q.get("kind") == "cell":
        obj = (int(q["obj"][0]), int(q["obj"][1]))
        return (
            f"What is the {p.categories[int(q['cat'])].title} of the person who lives in "
            f"House {obj[1] + 1}? Answer with the value alone."
        )
    cols = ", ".join(f'"{h}"' for h in p.header()[1:])
    return (
        'Fill in the grid: answer with a JSON object {"solution": {"House 1": '
        '{"<characteristic>": "<value>", ...}, ...}} with one entry per house and '
        f"the characteristics {cols}."
    )


def record(p: ZebraPuzzle, puzzle_id: str, answer: str) -> dict[str, Any]:
    """The ZebraLogic record alone: grid mode ``{id, size, puzzle, solution, created_at}``,
    multiple-choice mode ``{id, puzzle, question, choices, answer, created_at}``."""
    q = p.question or {"kind": "grid"}
    if q.get("kind") == "mc":
        return {
            "id": puzzle_id,
            "puzzle": puzzle_body(p),
            "question": mc_sentence(p),
            "choices": list(q["choices"]),
            "answer": answer,
            "created_at": p.created_at,
        }
    return {
        "id": puzzle_id,
        "size": f"{p.k}*{p.K - 1}",
        "puzzle": puzzle_body(p),
        "solution": {"header": p.header(), "rows": p.rows()},
        "created_at": p.created_at,
    }
