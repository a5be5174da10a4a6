"""reasoning-gym builds puzzleforge families through its own factory, item for item equal
to puzzleforge.create_dataset, scored by the same output-reading scorer."""

from __future__ import annotations

import reasoning_gym

import puzzleforge
from puzzleforge.core.registry import family_names
from puzzleforge.integrations.reasoning_gym import PREFIX, register


def test_every_family_is_registered_and_items_agree() -> None:
    register()
    register()  # a second call changes nothing
    for family in family_names():
        assert PREFIX + family in reasoning_gym.factory.DATASETS
    ds = reasoning_gym.create_dataset("puzzleforge_unruly", seed=1, size=2, params={"size": "8x8"})
    ours = puzzleforge.create_dataset("unruly", size=2, seed=1, config={"size": "8x8"})
    assert len(ds) == 2 and [ds[i] for i in range(2)] == [ours[i] for i in range(2)]
    item = ds[1]
    assert ds.score_answer(f"<answer>\n{item['answer']}\n</answer>", item) == 1.0
    assert ds.score_answer(item["answer"].replace("0", "x", 1).replace("1", "0", 1), item) < 1.0
