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


def _every_selection(n: int, k: int, order: bool, dup: bool) -> list[tuple]:
    r = range(n)
    if order:
        return list(itertools.product(r, repeat=k) if dup else itertools.permutations(r, k))
    if dup:
        return list(itertools.combinations_with_replacement(r, k))
    return list(itertools.combinations(r, k))


@pytest.mark.parametrize("seed", range(40))
def test_one_item_pools_are_the_source_product_in_group_order(seed: int) -> None:
    # dim 1, no filters: the pool is never built; the draws must be those of the
    # materialized pool (the product over groups, in group order, of their sources)
    rng = random.Random(seed)
    ns = rng.randint(1, 4)
    lens = [rng.randint(1, 5) for _ in range(ns)]
    amounts = [rng.randint(0, 2) for _ in range(ns)]
    order = [rng.random() < 0.5 for _ in range(ns)]
    dup = [rng.random() < 0.3 for _ in range(ns)]
    groups = [list(range(ns))]
    if ns > 1 and rng.random() < 0.5:
        cut = rng.randint(1, ns - 1)
        groups = [list(range(cut, ns)), list(range(cut))]  # groups out of source order
    flat = [j for g in groups for j in g]
    full = []
    for picks in itertools.product(
        *(_every_selection(lens[j], amounts[j], order[j], dup[j]) for j in flat)
    ):
        item: list = [None] * ns
        for j, p in zip(flat, picks, strict=True):
            item[j] = list(p)
        full.append(item)
    if not full:
        return
    domain = rng.randint(1, min(4, len(full)))
    got = select_indices(
        random.Random(seed),
        lens,
        amounts,
        domain,
        dim_cond=groups if len(groups) > 1 else (),
        order=order,
        duplicate=dup,
    )
    want = [full[i] for i in random.Random(seed).sample(range(len(full)), domain)]
    assert got == want
