"""The worked examples of seeds/003 behave as the document describes: the section 1.1
sample puzzle (Figures 1-3) and the clue examples of 2.1.15-2.1.20 (their use_clue
rules 2.1.21-2.1.26 and texts)."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from zebra_helpers import sample_puzzle  # noqa: E402

from puzzleforge.zebra.clues import EitherClue, IfThenClue, NotClue, make_order_clue  # noqa: E402
from puzzleforge.zebra.engine import Engine  # noqa: E402
from puzzleforge.zebra.exact import ExactChecker  # noqa: E402
from puzzleforge.zebra.grid import NO, UNKNOWN, YES, Grid  # noqa: E402
from puzzleforge.zebra.text import answer_text, clue_text, puzzle_text  # noqa: E402


def test_sample_puzzle_of_section_1_1() -> None:
    p = sample_puzzle()
    assert all(c.holds(p.solution) for c in p.clues)
    checker = ExactChecker(3, 4)
    for n, c in enumerate(p.clues):
        checker.add_clue(c, n)
    assert checker.solutions(list(range(7)), limit=3) == [p.solution]
    assert checker.certify(list(range(7)), p.solution)["all_clues_necessary"]
    checker.close()
    out = Engine(3, 4, p.clues).run(guessing=True)
    assert out.solved and out.solution() == p.solution
    # Figure 3, in our answer format
    assert answer_text(p).splitlines() == [
        "Dania ~ Stanisław ~ 5 stopni C",
        "Rosja ~ Tomasz ~ 7,5 stopni C",
        "Rumunia ~ Halina ~ 10 stopni C",
        "Włochy ~ Janina ~ 12,5 stopni C",
    ]
    text = puzzle_text(p)
    assert "**Dania** i **Janina** nie są parą." in text
    assert "pasuje do" not in text  # no ungrammatical nominative after "do"


def test_type1_examples_exclude_their_squares() -> None:
    # {'typ': 1, 'K1': 1, 'i1': 0, 'K2': 3, 'i2': 3, 'i3': 2}
    g = Grid(4, 3)
    NotClue(obj=(1, 0), others=((3, 2), (3, 1))).propagate(g)
    assert g.state(1, 0, 3, 2) == NO and g.state(1, 0, 3, 1) == NO
    assert g.state(1, 0, 3, 0) == UNKNOWN


def test_type2_chain_crosses_out_the_ends() -> None:
    """2.1.22: two lowest values out for the largest object, lowest and highest for the
    middle one, two highest for the smallest; different categories cannot match."""
    k = 5
    clue = make_order_clue("chain", 3, [(2, 2), (1, 3), (0, 1)], k=k)  # low < mid < high
    g = Grid(4, k)
    clue.propagate(g)
    low, mid, high = (2, 2), (1, 3), (0, 1)
    assert [g.state(*high, 3, v) for v in range(k)] == [NO, NO, UNKNOWN, UNKNOWN, UNKNOWN]
    assert [g.state(*mid, 3, v) for v in range(k)] == [NO, UNKNOWN, UNKNOWN, UNKNOWN, NO]
    assert [g.state(*low, 3, v) for v in range(k)] == [UNKNOWN, UNKNOWN, UNKNOWN, NO, NO]
    assert g.state(*low, *mid) == NO and g.state(*mid, *high) == NO


def test_type3_arith_excludes_squares_without_partner() -> None:
    values = [Fraction(v) for v in (100, 200, 300, 900)]
    # 'K2,i2 = K1,i1 * 9' over a numerical category 3 with values 100, 200, 300, 900
    clue = make_order_clue("arith", 3, [(1, 0), (0, 2)], k=4, values=values, oper="*", d="3")
    g = Grid(4, 4)
    clue.propagate(g)
    # only 100 -> 300 and 300 -> 900 are triples: A in {100, 300}, B in {300, 900}
    assert [g.state(1, 0, 3, v) for v in range(4)] == [UNKNOWN, NO, UNKNOWN, NO]
    assert [g.state(0, 2, 3, v) for v in range(4)] == [NO, NO, UNKNOWN, UNKNOWN]
    assert g.state(1, 0, 0, 2) == NO


def test_type4_rules() -> None:
    P, Q, R = ((1, 1), (2, 0)), ((0, 2), (2, 2)), ((0, 0), (1, 2))
    clue = IfThenClue(p=P, q=Q, r=R)
    g = Grid(3, 4)
    g.exclude(0, 2, 2, 2)  # Q excluded -> P excluded -> R confirmed
    clue.propagate(g)
    assert g.state(1, 1, 2, 0) == NO and g.state(0, 0, 1, 2) == YES
    g = Grid(3, 4)
    g.confirm(1, 1, 2, 0)  # P -> Q
    clue.propagate(g)
    assert g.state(0, 2, 2, 2) == YES
    g = Grid(3, 4)
    g.exclude(0, 0, 1, 2)  # R excluded -> P confirmed -> Q confirmed
    clue.propagate(g)
    assert g.state(1, 1, 2, 0) == YES and g.state(0, 2, 2, 2) == YES
    g = Grid(3, 4)
    g.exclude(0, 2, 2, 2)
    g.exclude(0, 0, 1, 2)
    assert clue.contradicts(g)


def test_type5_same_box_and_either_rules() -> None:
    # first example: same box (K1=K3, K2=K4): cells that would exclude both are X
    clue = EitherClue(p=((1, 3), (3, 0)), q=((1, 0), (3, 2)))
    g = Grid(4, 4)
    clue.propagate(g)
    assert g.state(1, 3, 3, 2) == NO and g.state(1, 0, 3, 0) == NO
    g.exclude(1, 3, 3, 0)
    clue.propagate(g)
    assert g.state(1, 0, 3, 2) == YES
    excl = EitherClue(p=((1, 2), (2, 0)), q=((0, 0), (2, 2)), exclusive=True)
    g = Grid(3, 4)
    g.confirm(1, 2, 2, 0)
    excl.propagate(g)
    assert g.state(0, 0, 2, 2) == NO


def test_type6_next_to_in_one_or_two_categories() -> None:
    k = 4
    # {'typ': 6, 'K1': 1, 'i1': 1, 'K2': 2, 'i2': 1, 'K6': 3}
    clue = make_order_clue("nextto", 3, [(1, 1), (2, 1)], k=k)
    g = Grid(4, k)
    for v in (1, 2, 3):
        g.exclude(1, 1, 3, v)  # first object sits at position 0
    clue.propagate(g)
    assert [g.state(2, 1, 3, v) for v in range(k)] == [NO, UNKNOWN, NO, NO]
    assert g.state(1, 1, 2, 1) == NO
    # {'typ': 6, 'K1': 2, 'i1': 3, 'K2': 2, 'i2': 0, 'K6': 3}: same category
    same = make_order_clue("nextto", 3, [(2, 3), (2, 0)], k=k)
    g = Grid(4, k)
    same.propagate(g)
    assert all(g.state(2, 3, 3, v) == UNKNOWN for v in range(k))


def test_every_clue_type_has_text_in_both_languages() -> None:
    p = sample_puzzle()
    clues = [
        NotClue(obj=(0, 0), others=((1, 1), (1, 2), (1, 3))),
        make_order_clue("chain", 2, [(0, 0), (1, 1), (0, 2)], k=4),
        make_order_clue(
            "arith", 2, [(0, 0), (1, 1)], k=4, values=p.categories[2].fractions(), oper="+", d="5/2"
        ),
        IfThenClue(p=((0, 0), (1, 0)), q=((0, 1), (1, 1)), r=((0, 2), (2, 2))),
        EitherClue(p=((0, 0), (1, 0)), q=((0, 1), (1, 1)), exclusive=True),
    ] + [
        make_order_clue(rel, 2, [(0, 0), (1, 1), (0, 2)][:n], k=4)
        for rel, n in (
            ("nextto", 2),
            ("left1", 2),
            ("right1", 2),
            ("left", 2),
            ("right", 2),
            ("between", 3),
            ("onebetween", 2),
            ("end", 1),
        )
    ]
    for clue in clues:
        en, pl = clue_text(p, clue, lang="en"), clue_text(p, clue, lang="pl")
        assert en.endswith(".") and pl.endswith(".")
        assert "**Dania**" in en and "**Dania**" in pl
    assert clue_text(p, clues[2], lang="pl") == (
        "Pod względem kategorii „temperatura” wartość w parze z obiektem **Halina** jest "
        "o 2,5 większa niż wartość w parze z obiektem **Dania**."
    )
    assert clue_text(p, clues[2], lang="en") == (
        "By temperatura: the value paired with **Halina** is 2.5 stopni C more than the "
        "value paired with **Dania**."
    )


def test_grouped_category_clue() -> None:
    """Grouped categories: "X is paired with a woman" restricts X to the group."""
    from puzzleforge.zebra.categories import Category
    from puzzleforge.zebra.clues import GroupClue
    from puzzleforge.zebra.model import ZebraPuzzle

    cats = [
        Category(
            "categorical",
            "person",
            ("Alice", "Bob", "Carol", "Dave"),
            groups=("woman", "man", "woman", "man"),
        ),
        Category("categorical", "pet", ("cat", "dog", "owl", "eel")),
    ]
    clue = GroupClue(obj=(1, 2), cat=0, members=(0, 2), label="woman", phrase="a woman")
    g = Grid(2, 4)
    clue.propagate(g)
    assert [g.state(1, 2, 0, v) for v in range(4)] == [UNKNOWN, NO, UNKNOWN, NO]
    assert clue.holds([[0, 1, 2, 3], [0, 2, 1, 3]]) is False  # owl is Bob's (entity 1)
    assert clue.holds([[0, 1, 2, 3], [2, 0, 1, 3]]) is True  # owl is Alice's
    p = ZebraPuzzle(
        K=2, k=4, lang="en", categories=cats, solution=[[0, 1, 2, 3], [0, 1, 2, 3]], clues=[clue]
    )
    assert clue_text(p, clue) == "**owl** is paired with a woman (category person)."
    assert "**Alice** (woman)" in puzzle_text(p)
    assert "z grupy" in clue_text(p, clue, lang="pl")
