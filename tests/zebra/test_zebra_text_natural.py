"""Natural puzzle text (issue 22, item 2): agreement tables, no sentence from the list of
bad patterns, and every clue sentence parses back to its clue (zebra_text_parser).

Expected agreement forms are Polish and English grammar written out by hand here (not
computed by numerals.py): 1 krok, 2-4 kroki (not 12-14), 5+ kroków; "po" + locative:
po 1 kroku, po N krokach; a fraction takes the genitive singular (2,5 roku).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import pytest
from zebra_text_parser import _compatible, meaning_of_clue, parse

import puzzleforge
from puzzleforge.zebra import explain, load
from puzzleforge.zebra.categories import draw_categories, load_database, object_name
from puzzleforge.zebra.drawer import ClueDrawer
from puzzleforge.zebra.generator import CLUE_KINDS
from puzzleforge.zebra.model import ZebraPuzzle
from puzzleforge.zebra.numerals import en_count, pl_count, pl_form_index
from puzzleforge.zebra.text import clue_text, puzzle_text

# -- agreement tables --------------------------------------------------------------------

POLISH_FORM = {
    0: 2,
    1: 0,
    2: 1,
    3: 1,
    4: 1,
    5: 2,
    9: 2,
    11: 2,
    12: 2,
    13: 2,
    14: 2,
    15: 2,
    20: 2,
    21: 2,
    22: 1,
    23: 1,
    24: 1,
    25: 2,
    101: 2,
    102: 1,
    111: 2,
    112: 2,
    122: 1,
    1000: 2,
    1002: 1,
}


@pytest.mark.parametrize("n,form", sorted(POLISH_FORM.items()))
def test_polish_form_index(n: int, form: int) -> None:
    assert pl_form_index(n) == form
    assert pl_form_index(-n) == form


def test_polish_fraction_takes_the_fraction_form() -> None:
    assert pl_form_index(Fraction(5, 2)) == 3
    assert object_name("@ {rok|lata|lat|roku}", Fraction(5, 2), "pl") == "2,5 roku"
    assert object_name("@ {rok|lata|lat|roku}", Fraction(22), "pl") == "22 lata"
    assert object_name("@ {rok|lata|lat|roku}", Fraction(12), "pl") == "12 lat"


@pytest.mark.parametrize(
    "n,nom,loc",
    [
        (1, "1 krok", "1 kroku"),
        (2, "2 kroki", "2 krokach"),
        (4, "4 kroki", "4 krokach"),
        (5, "5 kroków", "5 krokach"),
        (12, "12 kroków", "12 krokach"),
        (22, "22 kroki", "22 krokach"),
        (0, "0 kroków", "0 krokach"),
    ],
)
def test_polish_counts(n: int, nom: str, loc: str) -> None:
    assert pl_count(n, "krok") == nom
    assert pl_count(n, "krok", "loc") == loc


@pytest.mark.parametrize(
    "n,text",
    [
        (0, "0 deductions"),
        (1, "1 deduction"),
        (2, "2 deductions"),
        (11, "11 deductions"),
        (21, "21 deductions"),
    ],
)
def test_english_counts(n: int, text: str) -> None:
    assert en_count(n, "deduction") == text
    assert en_count(1, "category") == "1 category" and en_count(3, "category") == "3 categories"


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_every_unit_names_its_number(lang: str) -> None:
    """No bare numbers as objects: every numerical template has a unit or a noun, and
    plural templates give all their forms (2 in English, 4 in Polish)."""
    for unit in load_database(lang).units:
        assert re.sub(r"[@\s\-]", "", unit.template), unit.template
        m = re.search(r"\{(.+?)\}", unit.template)
        if m:
            assert len(m.group(1).split("|")) == (4 if lang == "pl" else 2), unit.template


# -- bad patterns --------------------------------------------------------------------------

BAD = [
    (r"the value of", "arithmetic on quantities ('the value of 40 kg is ...')"),
    (r"\*\* [=<+·] |zachodzi:", "mathematical notation between objects"),
    (r"\*\*[-−]?\d+(?:[.,]\d+)?\*\*", "a bare number as an object"),
    (r"\b1 (?:deductions|steps|clues|guesses|categories|objects)\b", "English 1 + plural"),
    (
        r"\b(?:[02-9]|\d{2,}) (?:deduction|step|guess|category|object)(?![a-z])",
        "English plural count with a singular noun",
    ),
    (r"po 1 krokach", "Polish 1 + plural locative"),
    (r"po (?:[02-9]|\d{2,}) kroku\b", "Polish plural count with a singular locative"),
    (r"nie tworzy pary z żadnym z obiektów", "Polish list instead of 'ani ..., ani ...'"),
    (r"\((?:clues|wskazówki) \d+\)", "plural noun before one clue number"),
    (r"\((?:clue|wskazówka) \d+,", "singular noun before several clue numbers"),
    (r"(?:^|: )(?:Clues|Wskazówki) \d+:", "plural step head for one clue"),
]


def _bad(text: str) -> list[str]:
    return [why for pat, why in BAD if re.search(pat, text, flags=re.M)]


def test_bad_pattern_list_catches_the_issue_examples() -> None:
    """The patterns recognise the sentences quoted in issue 22."""
    for text in [
        "By weight: the value of **40 kg** is the value of **10 kg** times 2.",
        "Pod względem kategorii „cena” zachodzi: **20 zł** = **80 zł** · 25.",
        "**-3** is right next to **Alice**.",
        "**2** nie tworzy pary z **A**.",
        "assume A ● B; after 1 deductions the grid is contradictory",
        "załóżmy A ● B; po 1 krokach dochodzimy do sprzeczności",
        "**X** nie tworzy pary z żadnym z obiektów: **A** i **B**.",
    ]:
        assert _bad(text), text


def _check_puzzle(zp: ZebraPuzzle) -> None:
    text = puzzle_text(zp)
    assert _bad(text) == [], (_bad(text), text)
    for clue in zp.clues:
        sentence = clue_text(zp, clue)
        assert parse(zp, sentence) == meaning_of_clue(zp, clue), sentence
        if clue.kind == "ifthen":
            # no if-then whose "then" is impossible when its "if" holds
            assert _compatible(clue.p, clue.q), sentence


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_sample_puzzles_read_naturally(lang: str) -> None:
    """100 generated puzzles per language (issue 22's "Done when"; 3x4 and 4x4): the
    question and every step of the explanation are free of the bad patterns; each clue
    parses back to itself."""
    for seed in range(100):
        K, k = (3, 4) if seed % 2 else (4, 4)
        p = puzzleforge.generate("zebra", seed=seed, K=K, k=k, lang=lang)
        zp = load(p)
        _check_puzzle(zp)
        for step in explain(p):
            assert _bad(step["text"]) == [], step["text"]


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_drawn_clues_of_every_kind_round_trip(lang: str) -> None:
    """Clue drawing without solving (fast), over many category draws up to 6x6: every
    kind's sentence is free of the bad patterns and parses back to its clue."""
    kinds = list(CLUE_KINDS) + ["not"]
    seen: dict[str, int] = {}
    for seed in range(150):
        rng = random.Random(seed)
        K, k = 3 + seed % 4, 3 + (seed // 4) % 4
        cats = draw_categories(rng, K, k, lang)
        sol = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
        drawer = ClueDrawer(rng, cats, sol, K, k, lang)
        clues = []
        for kind in kinds:
            for _ in range(4):
                clue = drawer.draw(kind)
                if clue is not None and clue.holds(sol):
                    clues.append(clue)
                    seen[kind] = seen.get(kind, 0) + 1
        for n, clue in enumerate(clues, start=1):
            clue.cid = n
        _check_puzzle(ZebraPuzzle(K=K, k=k, lang=lang, categories=cats, solution=sol, clues=clues))
    assert set(seen) >= set(kinds) - {"group"}
