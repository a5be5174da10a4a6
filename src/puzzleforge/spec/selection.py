"""The format's randomisation workflow: domain / dimension / source selection with constraints.

Why not enumerate like the original: the original builds the full pool of candidate
combinations (a Cartesian product that explodes with ``amount`` and ``dim``) for every
derived symbol, dynamic condition and option set, then samples from it. We sample the
same distribution without building it: each source pool (permutations, combinations,
with or without repetition) is sampled directly and uniformly, a dimension group is a
uniformly drawn set of ``dim`` distinct group items in pool order, and constraints are
applied by rejection (uniform over the product, conditioned on the filters, equals
uniform over the filtered pool). Small pools (at most ``ENUMERATE_LIMIT`` candidates)
are enumerated exactly instead, which also proves impossibility instead of guessing.

Indices, not values, flow through here: custom constraints receive index lists, exactly
as the format documents (``l[domain][dim][field][amount]``).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Sequence as _SequenceABC
from typing import Any

__all__ = ["select_indices", "SelectionImpossible", "pool_size", "ENUMERATE_LIMIT", "as_config"]

ENUMERATE_LIMIT = 4096
MAX_ATTEMPTS = 1000


class SelectionImpossible(Exception):
    """No selection satisfies the constraints (or none was found within the bound)."""


class _LazyPool(_SequenceABC):
    """The enumerated candidate pool, item ``i`` built only when it is read.

    Why: without per-item filters the pool is the whole product of the group and extra
    choices (up to ENUMERATE_LIMIT items), and ``random.sample``/``choice`` read only
    ``len`` and the drawn indices, so building every item (53-daughter: ~1000 per
    attempt, a sixth of its attempt time) was wasted. Item ``i`` is the ``i``-th of
    ``itertools.product(*pools)`` (last pool fastest): the same sequence, so the same
    draws and the same selections.
    """

    def __init__(self, pools: Sequence[Sequence], build: Callable[[tuple], list]) -> None:
        self._pools = pools
        self._build = build
        self._len = math.prod(len(q) for q in pools)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i: int) -> list:  # type: ignore[override]
        if not isinstance(i, int):
            raise TypeError("integer index expected")
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        picks = []
        for q in reversed(self._pools):
            i, r = divmod(i, len(q))
            picks.append(q[r])
        picks.reverse()
        return self._build(tuple(picks))


def pool_size(n: int, k: int, order: bool, dup: bool) -> int:
    if k < 0:
        return 0
    if order and dup:
        return n**k
    if order:
        return math.perm(n, k) if k <= n else 0
    if dup:
        return math.comb(n + k - 1, k) if n > 0 or k == 0 else 0
    return math.comb(n, k) if k <= n else 0


@functools.lru_cache(maxsize=256)
def _enum_source(n: int, k: int, order: bool, dup: bool) -> tuple[tuple[int, ...], ...]:
    """Every selection of ``k`` of ``range(n)`` in itertools order (read-only, cached: a
    pure function of its key, and the same small pools recur attempt after attempt)."""
    r = range(n)
    it: Iterator[tuple[int, ...]]
    if order:
        it = itertools.product(r, repeat=k) if dup else itertools.permutations(r, k)
    else:
        it = itertools.combinations_with_replacement(r, k) if dup else itertools.combinations(r, k)
    return tuple(it)


def _sample_source(rng: random.Random, n: int, k: int, order: bool, dup: bool) -> tuple[int, ...]:
    if order and dup:
        return tuple(rng.randrange(n) for _ in range(k))
    if order:
        return tuple(rng.sample(range(n), k))
    if dup:
        picks = sorted(rng.sample(range(n + k - 1), k))
        return tuple(p - i for i, p in enumerate(picks))
    return tuple(sorted(rng.sample(range(n), k)))


def as_config(indices: Any) -> Any:
    """The config form of selected indices: every index ``i`` becomes the string ``__i__``."""
    t = type(indices)
    if t is int:  # the common leaf first
        return f"__{indices}__"
    if t is list or t is tuple or isinstance(indices, (list, tuple)):
        return [as_config(x) for x in indices]
    return f"__{indices}__"


def _group_combos(groups: list[list[int]], per_source: dict, dim: int) -> list[list]:
    """Per group, every ``dim``-set of its items (an item: one selection per source)."""
    out = []
    for g in groups:
        gpool = list(itertools.product(*(per_source[j] for j in g)))
        out.append(list(itertools.combinations(gpool, dim)))
    return out


def _regroup(groups: list[list[int]], assemble: Callable[[list, list], list]) -> Callable:
    """Picks of the flat source product (group order) as ``assemble``'s one-item groups."""
    cuts = []
    at = 0
    for g in groups:
        cuts.append((at, at + len(g)))
        at += len(g)

    def build(picks: tuple) -> list:
        return assemble([[picks[lo:hi]] for lo, hi in cuts], [])

    return build


def _to_hashable(x: Any) -> Any:
    """Nested lists and tuples as nested tuples (a set or dict key).

    Leaves are tested inline rather than by a call each: the domain check of a dynamic
    condition converts every drawn selection (17-classmate: ~115 nested items per check,
    ~2,000 checks per 64 attempts, 18 % of its CPU with a call per leaf)."""
    if isinstance(x, (list, tuple)):
        return tuple([_to_hashable(e) if isinstance(e, (list, tuple)) else e for e in x])
    return x


def _tolist(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_tolist(e) for e in x]
    return x


def select_indices(
    rng: random.Random,
    pool_lens: Sequence[int],
    amounts: Sequence[int],
    domain: int,
    *,
    domain_cond: bool = True,
    dim: int = 1,
    dim_cond: Sequence[Sequence[int]] = (),
    custom_cond: Sequence[dict] = (),
    order: Sequence[bool] | None = None,
    duplicate: Sequence[bool] | None = None,
    resolve: Callable[[Any], Any] | None = None,
    accept: Callable[[list], bool] | None = None,
) -> list:
    """Draw ``domain`` selections; return indices shaped ``[domain][dim][source][amount]``
    (the dim level is dropped when ``dim == 1``).

    ``custom_cond`` entries are ``{"scope", "fields", "constraint"}`` where ``constraint``
    is ``None`` (all unique) or a compiled expression that ``resolve`` turns into a
    callable or a boolean. ``accept`` (used for options) must hold for every selected item.
    """
    ns = len(pool_lens)
    if len(amounts) != ns:
        raise SelectionImpossible(f"{len(amounts)} amounts for {ns} sources")
    order = list(order) if order else [True] * ns
    duplicate = list(duplicate) if duplicate else [False] * ns
    lens = [int(n) for n in pool_lens]
    amounts = [int(a) for a in amounts]
    sizes = [pool_size(lens[j], amounts[j], order[j], duplicate[j]) for j in range(ns)]
    groups = [list(g) for g in dim_cond] if dim_cond else [list(range(ns))]
    covered = sorted({j for g in groups for j in g})
    dim_conds = [c for c in custom_cond if c["scope"] == "dim"]
    dom_conds = [c for c in custom_cond if c["scope"] == "domain"]
    extra = sorted({f for c in dim_conds for f in c["fields"]} - set(covered))
    resolved: dict[int, Any] = {}

    def constraint_of(i: int, cond: dict) -> Any:
        if i not in resolved:
            code = cond["constraint"]
            resolved[i] = None if code is None else (resolve(code) if resolve else code)
        return resolved[i]

    def apply(func: Any, arg: Any) -> bool:
        if func is None:
            return len(arg) == len(set(arg if type(arg) is tuple else _to_hashable(arg)))
        if isinstance(func, bool):
            return func
        if callable(func):
            return bool(func(arg))
        return bool(func)

    # a dimension constraint reads only its fields of each row: its verdict is memoised
    # per projection for this call (8-stone: 264 candidates a call, 4 distinct projections;
    # as options' ``accept`` verdicts are, below), so it runs once per distinct argument
    dim_fields = [[f for f in range(ns) if f in set(cond["fields"])] for cond in dim_conds]
    dim_memo: dict[tuple, bool] = {}

    def dim_ok(cand: list) -> bool:
        for i, cond in enumerate(dim_conds):
            idxs = dim_fields[i]
            key: tuple = (i, *[tuple([row[f] for f in idxs]) for row in cand])
            try:
                got = dim_memo.get(key)
            except TypeError:  # a list among the items: the nested-tuple form
                key = (i, *[tuple([_to_hashable(row[f]) for f in idxs]) for row in cand])
                got = dim_memo.get(key)
            if got is None:
                arg = [[_tolist(row[f]) for f in idxs] for row in cand]
                got = dim_memo[key] = apply(constraint_of(i, cond), arg)
            if not got:
                return False
        return True

    group_sizes = []
    for g in groups:
        s = 1
        for j in g:
            s *= sizes[j]
        group_sizes.append(s)
    total = 1
    for gs in group_sizes:
        total *= math.comb(gs, dim) if gs >= dim else 0
    for j in extra:
        total *= sizes[j] ** dim
    if total == 0:
        raise SelectionImpossible("a source pool is too small for the requested amount/dim")

    def assemble(group_choice: list, extra_choice: list) -> list:
        cand = [[None] * ns for _ in range(dim)]
        for g, combo in zip(groups, group_choice, strict=False):
            for k in range(dim):
                for pos, j in enumerate(g):
                    cand[k][j] = combo[k][pos]
        for j, per_dim in zip(extra, extra_choice, strict=False):
            for k in range(dim):
                cand[k][j] = per_dim[k]
        return cand

    item_cache: dict[Any, bool] = {}

    def item_ok(cand: list) -> bool:
        return dim_ok(cand)

    enumerated: Sequence | None = None
    if total <= ENUMERATE_LIMIT:
        per_source = {
            j: _enum_source(lens[j], amounts[j], order[j], duplicate[j]) for j in range(ns)
        }
        if dim == 1 and not dim_conds and accept is None:
            # every item kept, only the drawn ones read; with one item per group the pool
            # (the product over groups of the product of their sources) is the product of
            # the sources in group order, item for item: no group pool is built
            enumerated = _LazyPool(
                [per_source[j] for g in groups for j in g], _regroup(groups, assemble)
            )
        elif not dim_conds and accept is None:
            group_combos = _group_combos(groups, per_source, dim)
            extra_pools = [list(itertools.product(per_source[j], repeat=dim)) for j in extra]
            ng = len(group_combos)
            enumerated = _LazyPool(
                group_combos + extra_pools,
                lambda picks: assemble(list(picks[:ng]), list(picks[ng:])),
            )
        else:
            group_combos = _group_combos(groups, per_source, dim)
            extra_pools = [list(itertools.product(per_source[j], repeat=dim)) for j in extra]
            enumerated = []
            for gc in itertools.product(*group_combos):
                for ec in itertools.product(*extra_pools):
                    cand = assemble(list(gc), list(ec))
                    if item_ok(cand):
                        enumerated.append(cand)
        if domain_cond and len(enumerated) < domain:
            raise SelectionImpossible(
                f"only {len(enumerated)} distinct selections satisfy the constraints, "
                f"{domain} needed"
            )

    def draw_candidate() -> list:
        for _ in range(20000):
            gc = []
            for g in groups:
                chosen: set = set()
                combo: list = []
                while len(combo) < dim:
                    item = tuple(
                        _sample_source(rng, lens[j], amounts[j], order[j], duplicate[j]) for j in g
                    )
                    if item in chosen:
                        continue
                    chosen.add(item)
                    combo.append(item)
                combo.sort()
                gc.append(combo)
            ec = [
                [
                    _sample_source(rng, lens[j], amounts[j], order[j], duplicate[j])
                    for _ in range(dim)
                ]
                for j in extra
            ]
            cand = assemble(gc, ec)
            if item_ok(cand):
                return cand
        raise SelectionImpossible("no selection satisfied the dimension constraints in 20000 draws")

    def fill(cand: list) -> list:
        out = []
        for row in cand:
            out.append(
                [
                    list(v) if v is not None else rng.sample(range(lens[j]), amounts[j])
                    for j, v in enumerate(row)
                ]
            )
        return out

    def accepted(filled: list) -> bool:
        if accept is None:
            return True
        key = _to_hashable(filled)
        if key not in item_cache:
            item_cache[key] = bool(accept(filled))
        return item_cache[key]

    def domain_ok(chosen: list) -> bool:
        for i, cond in enumerate(dom_conds):
            arg = [[[row[f] for f in cond["fields"]] for row in comb] for comb in chosen]
            func = (
                constraint_of(len(dim_conds) + i, cond) if cond["constraint"] is not None else None
            )
            if not apply(func, _to_hashable(arg)):
                return False
        return True

    for _attempt in range(MAX_ATTEMPTS):
        if enumerated is not None and accept is not None:
            # scan the pool in random order, keeping the first acceptable items: a uniform
            # sample of the acceptable items that checks only as many as it needs
            shuffled = list(enumerated)
            rng.shuffle(shuffled)
            chosen = []
            for c in shuffled:
                f = fill(c)
                if accepted(f):
                    chosen.append(f)
                    if len(chosen) == domain:
                        break
            if len(chosen) < domain:
                raise SelectionImpossible(
                    f"only {len(chosen)} options of the required kind exist, {domain} needed"
                )
        elif enumerated is not None:
            if domain_cond:
                # rng.sample(enumerated, domain) reads the population only through len and
                # the drawn positions, except that for a small population it first copies
                # all of it (list(population)): drawing the positions from a range makes
                # the same random calls and picks the same items without building every
                # item of a lazy pool on each try of this loop
                picked = [enumerated[i] for i in rng.sample(range(len(enumerated)), domain)]
            else:
                picked = [rng.choice(enumerated) for _ in range(domain)] if enumerated else []
            chosen = [fill(c) for c in picked]
        else:
            chosen = []
            seen: set = set()
            draws = 0
            while len(chosen) < domain:
                draws += 1
                if draws > 5000 + 50 * domain:
                    raise SelectionImpossible(
                        f"found only {len(chosen)} of {domain} distinct acceptable selections"
                    )
                cand = draw_candidate()
                key = _to_hashable(cand)
                if domain_cond and key in seen:
                    continue
                filled = fill(cand)
                if accept is not None and not accepted(filled):
                    continue
                seen.add(key)
                chosen.append(filled)
        if domain_ok(chosen):
            if dim == 1:
                return [c[0] for c in chosen]
            return chosen
    raise SelectionImpossible(f"no selection met the domain constraints in {MAX_ATTEMPTS} attempts")
