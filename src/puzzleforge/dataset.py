"""Datasets in the style ML users know: ``create_dataset`` and ``score_answer``.

Why lazy and index-addressed: item ``i`` is built from ``derive_seed(seed, family, i)``
alone (the same seed the batch runner uses), so ``ds[123456]`` costs one puzzle, two
processes agree on every item, and a training loop can shard by index. Items are
``{"question", "answer", "metadata"}``; ``metadata`` carries the whole record, so
``score_answer(answer, entry)`` can rebuild the family and score with its ``verify``
(format-tolerant, partial credit where the family defines it).

>>> import puzzleforge
>>> ds = puzzleforge.create_dataset("latin", size=3, seed=1, n=4)
>>> len(ds), sorted(ds[0])
(3, ['answer', 'metadata', 'question'])
>>> puzzleforge.score_answer(ds[0]["answer"], ds[0])
1.0
>>> boards = puzzleforge.create_dataset("unruly", size=2, seed=1, config={"size": "6x6"})
>>> boards[0]["metadata"]["params"]["size"]
'6x6'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any, overload

from .core.errors import ConfigError, GenerationFailed
from .core.family import build_params
from .core.puzzle import Puzzle, stamp
from .core.registry import family_names, resolve_family
from .core.scoring import score_answer
from .core.seeding import derive_seed, make_rng

__all__ = ["ProceduralDataset", "create_dataset", "score_answer", "list_datasets"]

_ATTEMPTS = 4


class ProceduralDataset:
    """A sized, indexable, iterable dataset of one family (items built on demand).

    Item ``i`` equals record ``meta.index == i`` of ``puzzleforge generate`` with the same
    family, params and seed (the batch runner additionally drops duplicates).
    """

    def __init__(
        self,
        name: str,
        size: int,
        seed: int,
        params: Mapping[str, Any] | None = None,
        family_options: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(size, int) or size < 0:
            raise ConfigError(f"size={size!r}", field="size", expected="an integer >= 0")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError(f"seed={seed!r}", field="seed", expected="an integer")
        self.name = name
        self.size = size
        self.seed = seed
        self.family = resolve_family(name, **dict(family_options or {}))
        self.params = build_params(self.family.Params, dict(params or {}), family=self.family.name)
        self._item = lru_cache(maxsize=1024)(self._build)

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        if not isinstance(index, int):
            raise TypeError(f"dataset indices must be integers, not {type(index).__name__}")
        if index < 0:
            index += self.size
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} out of range for a dataset of {self.size}")
        return self._item(index)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for i in range(self.size):
            yield self[i]

    def puzzle(self, index: int) -> Puzzle:
        """The Puzzle behind item ``index`` (retries with the next derived seed, as batch does)."""
        reasons: dict[str, int] = {}
        # a family that retries inside generate (spec files) gets one seed, as in a batch
        attempts = 1 if getattr(self.family, "retries_itself", False) else _ATTEMPTS
        for attempt in range(attempts):
            seed = derive_seed(self.seed, self.family.name, index, attempt)
            try:
                puzzle = stamp(self.family.generate(self.params, make_rng(seed)), seed)
            except GenerationFailed as exc:
                reasons["generation_failed"] = reasons.get("generation_failed", 0) + 1
                last = exc
                continue
            puzzle.meta["index"] = index
            puzzle.meta["run_seed"] = self.seed
            if attempt:
                puzzle.meta["attempt"] = attempt
            return puzzle
        raise GenerationFailed(
            f"item {index} of '{self.name}' failed {attempts} attempts: {last}",
            attempts=attempts,
            reasons=reasons,
        )

    def _build(self, index: int) -> dict[str, Any]:
        record = self.puzzle(index).to_record()
        metadata = dict(record)
        metadata.pop("question")
        metadata["source_dataset"] = self.name
        metadata["source_index"] = index
        return {"question": record["question"], "answer": record["answer"], "metadata": metadata}

    def score_answer(self, answer: str | None, entry: Mapping[str, Any]) -> float:
        return score_answer(answer, entry)


def create_dataset(
    name: str,
    size: int = 100,
    seed: int = 0,
    *,
    config: Mapping[str, Any] | None = None,
    family_options: Mapping[str, Any] | None = None,
    **params: Any,
) -> ProceduralDataset:
    """A dataset of ``size`` puzzles of family ``name`` (an id or a spec file path).

    The family's parameters go in ``config`` (reasoning-gym style), where a parameter may
    share a name with the dataset's own arguments: ``create_dataset("unruly", size=3,
    config={"size": "8x8"})`` is three 8x8 boards. Keyword parameters (``n=4``) still work
    for names that do not collide; giving one name both ways is an error, not a guess.
    """
    merged = dict(config or {})
    both = sorted(set(merged) & set(params))
    if both:
        raise ConfigError(
            f"parameter(s) {', '.join(both)} given both in config= and as keywords",
            field=both[0],
            expected="each family parameter given once, preferably in config={...}",
        )
    merged.update(params)
    return ProceduralDataset(name, size, seed, merged, family_options)


def list_datasets() -> list[str]:
    """Registered family ids (spec files are datasets too, by path)."""
    return family_names()
