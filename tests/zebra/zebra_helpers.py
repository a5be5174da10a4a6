"""Shared builders for the zebra tests (the document's sample puzzle, random clue sets)."""

from __future__ import annotations

import random
from fractions import Fraction

from puzzleforge.zebra.categories import Category, draw_categories
from puzzleforge.zebra.clues import EitherClue, IfThenClue, NotClue, make_order_clue
from puzzleforge.zebra.drawer import ClueDrawer
from puzzleforge.zebra.generator import CLUE_KINDS
from puzzleforge.zebra.model import ZebraPuzzle


def sample_puzzle() -> ZebraPuzzle:
    """seeds/003 section 1.1 (Figures 1-3): countries, names, temperatures."""
    cats = [
        Category("categorical", "kraj", ("Dania", "Rosja", "Rumunia", "Włochy")),
        Category("categorical", "imię", ("Tomasz", "Halina", "Janina", "Stanisław")),
        Category(
            "numerical",
            "temperatura",
            ("5 stopni C", "7,5 stopni C", "10 stopni C", "12,5 stopni C"),
            values=("5", "15/2", "10", "25/2"),
            template="@ stopni C",
            relations=("+5/2", "+5"),
        ),
    ]
    D, R, RU, W = ((0, i) for i in range(4))
    T, H, J, S = ((1, i) for i in range(4))
    t5, t75, t10, t125 = ((2, i) for i in range(4))
    clues = [
        NotClue(obj=D, others=(J,)),
        EitherClue(p=(T, t125), q=(H, t10)),
        make_order_clue("nextto", 2, [R, RU], k=4),
        EitherClue(p=(R, t75), q=(W, t10)),
        make_order_clue("nextto", 2, [W, RU], k=4),
        IfThenClue(p=(RU, S), q=(S, t75), r=(RU, t10)),
        EitherClue(p=(R, T), q=(T, t10)),
    ]
    for n, c in enumerate(clues, start=1):
        c.cid = n
    # Figure 3: Dania~Stanisław~5, Rosja~Tomasz~7.5, Rumunia~Halina~10, Włochy~Janina~12.5
    sol = [[0, 1, 2, 3], [3, 0, 1, 2], [0, 1, 2, 3]]
    return ZebraPuzzle(K=3, k=4, lang="pl", categories=cats, solution=sol, clues=clues)


def random_instance(seed: int, K: int, k: int, n_clues: int, kinds=CLUE_KINDS + ("not",)):
    """Random categories, a random hidden solution and clues true on it."""
    rng = random.Random(seed)
    cats = draw_categories(rng, K, k, "en")
    sol = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
    drawer = ClueDrawer(rng, cats, sol, K, k)
    clues = []
    while len(clues) < n_clues:
        clue = drawer.draw(rng.choice(list(kinds)))
        if clue is not None:
            clue.cid = len(clues) + 1
            clues.append(clue)
    return cats, sol, clues


def fractions(values):
    return [Fraction(v) for v in values]
