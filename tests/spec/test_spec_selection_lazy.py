"""The lazily indexed candidate pool is the materialized one: same items, same random draws.

Why: selection.py no longer builds every candidate of a small pool when no per-item
filter applies; the selections (and so every puzzle) must stay those of the full list.
"""

from __future__ import annotations

import itertools
import random

import pytest

from puzzleforge.spec.selection import _LazyPool, select_indices


def _pools(rng: random.Random) -> list[list]:
    return [
        [(i, rng.randint(0, 9)) for i in range(rng.randint(1, 6))] for _ in range(rng.randint(1, 4))
    ]


@pytest.mark.parametrize("seed", range(30))
def test_lazy_pool_is_the_product_in_order(seed: int) -> None:
    pools = _pools(random.Random(seed))
    lazy = _LazyPool(pools, list)
    full = [list(t) for t in itertools.product(*pools)]
    assert len(lazy) == len(full)
    assert list(lazy) == full
    assert lazy[-1] == full[-1]
    with pytest.raises(IndexError):
        lazy[len(full)]


@pytest.mark.parametrize("seed", range(30))
def test_random_draws_match_the_materialized_list(seed: int) -> None:
    pools = _pools(random.Random(seed))
    lazy = _LazyPool(pools, list)
    full = [list(t) for t in itertools.product(*pools)]
    k = min(len(full), 1 + seed % 4)
    assert random.Random(seed).sample(lazy, k) == random.Random(seed).sample(full, k)
    assert random.Random(seed).choice(lazy) == random.Random(seed).choice(full)


def test_select_indices_unchanged_on_small_pools() -> None:
    # recorded with the materialized pool (before _LazyPool): two sources, dim 1 and 2
    assert select_indices(random.Random(7), [5, 4], [1, 1], 3) == [
        [[2], [2]],
        [[1], [0]],
        [[3], [0]],
    ]
    assert select_indices(random.Random(7), [4, 3], [2, 1], 2, dim=2) == [
        [[[1, 0], [2]], [[1, 2], [1]]],
        [[[0, 2], [1]], [[2, 3], [1]]],
    ]
