"""Genre generators that make real puzzles: k-star Star Battle, clue-only Nonograms,
difficulty tiers that hold (checked by re-grading a fresh parse), graph-aware grading."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzleforge.core.errors import ConfigError
from puzzleforge.grid import api
from puzzleforge.grid.generator import generate_instance, tier_name
from puzzleforge.grid.genres import get_genre
from puzzleforge.grid.grading import _cut_cells, grade


def fresh(genre: str, inst):  # noqa: ANN001, ANN201 - small test helper
    """Re-parse the instance text: a new Instance, a new compiled session."""
    g = get_genre(genre)
    again = g.parse(g.format(inst))
    return g, again, g.compile(again)


def unique_in_fresh_solver(genre: str, inst, sol) -> bool:  # noqa: ANN001
    g, again, comp = fresh(genre, inst)
    status, sols = comp.is_unique(again.clues)
    return status == "unique" and g.answer_text(again, sols[0]) == g.answer_text(inst, sol)


# -- Star Battle -----------------------------------------------------------------------
@pytest.mark.parametrize("size,stars", [("6x6", 1), ("8x8", 1), ("9x9", 2), ("10x10", 2)])
def test_starbattle_stars_default_by_size_and_unique(size: str, stars: int) -> None:
    inst, sol, _ = api.generate("starbattle", size, 1)
    assert inst.opts["stars"] == stars
    assert f"stars={stars}" in get_genre("starbattle").format(inst).splitlines()[0]
    assert unique_in_fresh_solver("starbattle", inst, sol)
    per_region: dict = {}
    for c, v in sol["star"].items():
        per_region[inst.data["region"][c]] = per_region.get(inst.data["region"][c], 0) + v
    assert sorted(set(per_region.values())) == [stars] and len(per_region) == inst.rows


def test_starbattle_explicit_stars_and_limits() -> None:
    inst, sol, _ = api.generate("starbattle", "8x8", 2, opts={"stars": 2})
    assert inst.opts["stars"] == 2 and sum(sol["star"].values()) == 16
    assert unique_in_fresh_solver("starbattle", inst, sol)
    with pytest.raises(ConfigError, match="at least 12x12"):
        api.generate("starbattle", "10x10", 1, opts={"stars": 3})
    fam = get_genre("starbattle")
    from puzzleforge.grid.family import GridFamily

    params = GridFamily("starbattle").Params
    assert params().stars == 0  # by size
    assert fam.opts_from_params(params(size="10x10"), 10, 10) == {"stars": 2}
    with pytest.raises(ConfigError, match="stars=5"):
        params(stars=5).validate()


def test_starbattle_old_text_without_stars_reads_as_one_star() -> None:
    g = get_genre("starbattle")
    text = "starbattle 5x5\naabbb\naabbb\ncccdd\ncccdd\neeeee\n"
    inst = g.parse(text)
    assert inst.opts["stars"] == 1
    # brute force over one star per row and column (a permutation), no two touching, one per
    # region: 9 solutions, so the solver must say "multiple" and show two of them
    rows = text.splitlines()[1:]
    brute = {
        p
        for p in itertools.permutations(range(5))
        if all(abs(p[r] - p[r + 1]) > 1 for r in range(4))
        and len({rows[r][p[r]] for r in range(5)}) == 5
    }
    assert len(brute) == 9
    status, found = g.compile(inst).is_unique(inst.clues)
    assert status == "multiple" and len(found) == 2
    as_permutations = set()
    for solution in found:
        stars = sorted((c.r, c.c) for c, on in solution["star"].items() if on)
        assert [r for r, _ in stars] == [0, 1, 2, 3, 4]
        as_permutations.add(tuple(c for _, c in stars))
    assert len(as_permutations) == 2 and as_permutations <= brute


def test_starbattle_same_seed_same_bytes() -> None:
    g = get_genre("starbattle")
    a = g.format(api.generate("starbattle", "9x9", 4)[0])
    b = g.format(api.generate("starbattle", "9x9", 4)[0])
    c = g.format(api.generate("starbattle", "9x9", 5)[0])
    assert a == b and a != c


# -- Nonogram --------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["6x6", "8x8", "10x10"])
def test_nonogram_is_clue_only_and_unique(size: str) -> None:
    for seed in (1, 2, 3):
        inst, sol, _ = api.generate("nonogram", size, seed)
        assert not inst.clues.get("given")
        assert "givens" not in get_genre("nonogram").format(inst)
        assert unique_in_fresh_solver("nonogram", inst, sol)
        filled = sum(sol["fill"].values()) / (inst.rows * inst.cols)
        assert 0.15 < filled < 0.95


def test_nonogram_givens_only_on_request() -> None:
    inst, sol, _ = api.generate("nonogram", "6x6", 1, opts={"givens": True})
    assert unique_in_fresh_solver("nonogram", inst, sol)
    a = get_genre("nonogram").format(api.generate("nonogram", "8x8", 7)[0])
    assert a == get_genre("nonogram").format(api.generate("nonogram", "8x8", 7)[0])


# -- tiers -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "genre,size,tier,seed",
    [
        ("nurikabe", "6x6", "easy", 1),
        ("nurikabe", "6x6", "medium", 1),
        ("nurikabe", "6x6", "hard", 1),
        ("slitherlink", "6x6", "easy", 1),
        ("slitherlink", "6x6", "medium", 1),
        ("masyu", "6x6", "easy", 1),
        ("starbattle", "6x6", "easy", 1),
        ("nonogram", "6x6", "easy", 1),
        ("kakurasu", "6x6", "medium", 1),
    ],
)
def test_tier_is_met_and_regrades_the_same(genre: str, size: str, tier: str, seed: int) -> None:
    inst, sol, diff = api.generate(genre, size, seed, difficulty=tier)
    assert tier_name(diff) == tier
    _, again, comp = fresh(genre, inst)
    assert grade(comp, comp.assumptions(again.clues)) == diff
    assert unique_in_fresh_solver(genre, inst, sol)


def test_unreachable_tier_is_not_offered() -> None:
    from puzzleforge.core.errors import ConfigError

    g = get_genre("starbattle")
    with pytest.raises(ConfigError) as err:
        generate_instance(g, 5, 5, {"stars": 1}, random.Random(1), tier="hard", attempts=3)
    assert err.value.problem == (
        "starbattle is not offered as hard at 5x5: the unit placements and band counting "
        "finished every layout made (0 hard of 90)"
    )


@pytest.mark.parametrize("size,tier", [("8x8", "easy"), ("8x8", "medium"), ("8x8", "hard")])
def test_kakurasu_tiers_separate(size: str, tier: str) -> None:
    """Line solving in the closure: Kakurasu reaches every tier at 8x8 (before, every
    one graded 3.99)."""
    inst, sol, diff = api.generate("kakurasu", size, 1, difficulty=tier)
    assert tier_name(diff) == tier
    assert unique_in_fresh_solver("kakurasu", inst, sol)


# -- graph-aware grading ---------------------------------------------------------------
def test_graph_deductions_decide_what_unit_propagation_cannot() -> None:
    """A small-island Nurikabe: unit propagation of the CNF (which holds connectivity only
    lazily) fixes a fifth of the cells; with the island/connectivity deductions every cell
    is fixed, so the puzzle grades 1.0 instead of the old proxy's 3.x."""
    from puzzleforge.grid.grading import closure

    g = get_genre("nurikabe")
    inst = g.parse("nurikabe 6x6\n......\n1.1.1.\n.1....\n......\n.1.2.2\n......\n")
    comp = g.compile(inst)
    assert comp.is_unique(inst.clues)[0] == "unique"
    a = comp.assumptions(inst.clues)
    assert comp.answer_decided(comp.propagate(a)[1]) < 0.5
    ok, lits = closure(comp, a)
    assert ok and comp.answer_decided(lits) == 1.0
    assert grade(comp, a) == 1.0


def test_cut_cells_find_articulation_between_marked_cells() -> None:
    path = {(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)}  # cells as (row, col) inside grading
    assert _cut_cells(path, {(0, 0), (2, 2)}) == [(0, 1), (0, 2), (1, 2)]
    assert _cut_cells(path, {(0, 0), (0, 1)}) == []
    ring = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    assert _cut_cells(ring, {(0, 0), (2, 2)}) == []


@pytest.mark.parametrize("genre", ["nurikabe", "slitherlink", "masyu"])
def test_graph_deductions_never_contradict_the_solution(genre: str) -> None:
    """Soundness: from the clues plus any third of the true answer literals, the closure
    stays consistent and derives nothing false (a wrong deduction would mis-grade)."""
    from puzzleforge.grid.grading import closure

    g = get_genre(genre)
    for seed in (1, 2, 3):
        inst, sol, _ = api.generate(genre, "6x6", seed)
        again = g.parse(g.format(inst))
        comp = g.compile(again)
        a = comp.assumptions(again.clues)
        truth = set(comp.solution_lits(sol))
        rng = random.Random(seed)
        for _ in range(5):
            ok, lits = closure(comp, a + rng.sample(sorted(truth), len(truth) // 3))
            assert ok and not any(-lit in truth for lit in lits)
