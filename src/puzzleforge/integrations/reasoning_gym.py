"""Make puzzleforge families buildable by ``reasoning_gym.create_dataset``.

Why: people who train with reasoning-gym build every dataset through its one factory and
score with each dataset's ``score_answer``. After ``register()`` each registered family is
available there as ``puzzleforge_<family>`` (prefixed: reasoning-gym has its own
``sudoku``, ``futoshiki``...), configured the reasoning-gym way::

    import reasoning_gym, puzzleforge.integrations.reasoning_gym as pf_rg
    pf_rg.register()
    ds = reasoning_gym.create_dataset("puzzleforge_unruly", seed=1, size=10,
                                      params={"size": "8x8"})
    ds.score_answer(model_output, ds[0])

Family parameters sit in ``params`` so none can collide with ``seed`` or ``size``. Items
and scores are exactly those of ``puzzleforge.create_dataset`` (the same records, the same
output-reading scorer), so both tools agree on every item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BackendUnavailable
from ..core.registry import family_names
from ..dataset import ProceduralDataset as _Ours
from ..dataset import score_answer

__all__ = ["register", "PREFIX"]

#: Prefix of the names registered in reasoning-gym.
PREFIX = "puzzleforge_"


@dataclass
class PuzzleforgeConfig:
    """reasoning-gym config: ``params`` are the family's own (``puzzleforge families``)."""

    family: str = "latin"
    seed: int | None = None
    size: int = 500
    params: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        if not isinstance(self.size, int) or self.size < 0:
            raise ValueError(f"size={self.size!r}; expected an integer >= 0")


def _config_for(family: str) -> type:
    """A config dataclass whose default family is ``family`` (reasoning-gym builds the
    config from keyword arguments alone, so the family must be its default)."""
    return dataclass(
        type(
            f"{family.title()}Config",
            (PuzzleforgeConfig,),
            {"__annotations__": {"family": str}, "family": family},
        )
    )


def register(families: list[str] | None = None) -> list[str]:
    """Register ``families`` (default: every registered family) in reasoning-gym; returns
    the names added. Calling it again is harmless."""
    try:
        from reasoning_gym.dataset import ProceduralDataset as RGDataset
        from reasoning_gym.factory import DATASETS, register_dataset
    except ImportError:
        raise BackendUnavailable(
            "reasoning-gym is not installed", hint="pip install reasoning-gym"
        ) from None

    class PuzzleforgeDataset(RGDataset):
        """One puzzleforge family behind reasoning-gym's dataset interface."""

        def __init__(self, config: PuzzleforgeConfig) -> None:
            super().__init__(config=config, seed=config.seed, size=config.size)
            self._ours = _Ours(config.family, config.size, int(self.seed), config.params)

        def __getitem__(self, idx: int) -> dict[str, Any]:
            return self._ours[idx]

        def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
            return score_answer(answer, entry)

    added = []
    for family in families or family_names():
        name = PREFIX + family
        if name not in DATASETS:
            register_dataset(name, PuzzleforgeDataset, _config_for(family))
            added.append(name)
    return added
