"""Matching's filtering (clues to entries one to one) keeps exactly the pairs that lie in
some complete matching; the expected sets come from enumerating every assignment."""

from __future__ import annotations

import random
from itertools import product

from puzzleforge.crossnumber.constraints import Matching


def _brute(doms: dict) -> dict | None:
    keys = sorted(doms)
    found = {k: set() for k in keys}
    any_match = False
    for combo in product(*(doms[k] for k in keys)):
        if len(set(combo)) == len(combo):
            any_match = True
            for k, e in zip(keys, combo, strict=True):
                found[k].add(e)
    return {k: sorted(v) for k, v in found.items()} if any_match else None


def test_supported_pairs_equal_every_complete_matching_on_random_graphs() -> None:
    rng = random.Random(21)
    for _ in range(400):
        n_keys, n_vals = rng.randint(1, 6), rng.randint(1, 7)
        doms = {
            ("m", f"K{i}"): sorted(rng.sample(range(n_vals), rng.randint(1, n_vals)))
            for i in range(n_keys)
        }
        want = _brute(doms)
        got = Matching.supported(doms)
        assert got == want, doms


def test_a_chain_that_forces_every_pair() -> None:
    doms = {("m", "A"): [1], ("m", "B"): [1, 2], ("m", "C"): [2, 3]}
    assert Matching.supported(doms) == {("m", "A"): [1], ("m", "B"): [2], ("m", "C"): [3]}
