"""Explanations a person reads (issue 22, item 4): bookkeeping folded into its cause,
a guess shown as its shortest refutation, a 4x5 easy explanation in at most 30 steps.

The refutation check is independent of the engine: every assignment of the small grid
is enumerated, and none may agree with the marks known before the guess, the assumed
pairing and the clues the refutation cites (so the cited steps suffice)."""

from __future__ import annotations

from itertools import permutations, product

import pytest

import puzzleforge
from puzzleforge.zebra import explain, load
from puzzleforge.zebra.readable import BOOKKEEPING


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_easy_4x5_explanation_fits_a_page(lang: str) -> None:
    for seed in range(4):
        p = puzzleforge.generate("zebra", seed=seed, K=4, k=5, difficulty="easy", lang=lang)
        steps = explain(p)
        assert len(steps) <= 30, (seed, len(steps))
        assert not any(s["rule"] in BOOKKEEPING for s in steps[1:])
        assert len(explain(p, raw=True)) > len(steps)


def test_readable_steps_replay_the_same_marks() -> None:
    """Folding only regroups: the marks, in order, are the engine's own."""
    for seed in range(3):
        p = puzzleforge.generate("zebra", seed=seed, K=4, k=4)
        raw = [m for s in explain(p, raw=True) for m in s["marks"]]
        readable = explain(p)
        assert [m for s in readable for m in s["marks"]] == raw
        for s in readable:
            key = lambda m: (m["mark"], m["cell"])  # noqa: E731
            assert sorted(s["marks"], key=key) == sorted(s["own"] + s["follow"], key=key)


def _entities(K: int, k: int):
    """Every solution as ent[c][i] = the entity (index in category 0) owning object i."""
    for perms in product(permutations(range(k)), repeat=K - 1):
        sol = [list(range(k))] + [list(pm) for pm in perms]
        ent = [[0] * k for _ in range(K)]
        for c in range(K):
            for e in range(k):
                ent[c][sol[c][e]] = e
        yield sol, ent


def _agrees(ent, mark: dict) -> bool:
    c1, i1, c2, i2 = mark["cell"]
    paired = ent[c1][i1] == ent[c2][i2]
    return paired if mark["mark"] == "o" else not paired


@pytest.mark.parametrize("seed,K,k", [(1, 4, 4), (2, 4, 4), (5, 3, 4), (3, 4, 4)])
def test_refutations_are_short_and_suffice(seed: int, K: int, k: int) -> None:
    p = puzzleforge.generate("zebra", seed=seed, K=K, k=k)
    zp = load(p)
    by_id = {c.cid: c for c in zp.clues}
    sols = list(_entities(K, k))
    known: list[dict] = []
    guesses = 0
    for step in explain(p):
        if step["rule"] == "guess":
            guesses += 1
            ref = step["refutation"]
            assert len(ref["steps"]) <= len(step["chain"])
            cited = {c for s in ref["steps"] for c in s["clues"]} | set(ref["failed"]["clues"])
            assert cited <= set(step["clues"]) | set(ref["failed"]["clues"])
            facts = known + [step["assumed"]]
            for sol, ent in sols:
                if all(_agrees(ent, m) for m in facts):
                    assert not all(by_id[c].holds(sol) for c in cited), (
                        f"refutation of {step['assumed']} does not suffice: {step['text']}"
                    )
        known += step["marks"]
    assert guesses or seed == 5
