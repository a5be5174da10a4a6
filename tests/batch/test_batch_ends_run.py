"""An error marked ``ends_run`` stops a batch at its item; the records before it are kept.

Why: such an error (a spec error every item would meet, a wall-clock safety net whose
outcome depends on machine load) must not be counted and replaced by the next index, as
an ordinary failed item is: the dataset would then depend on the load of the machine.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from puzzleforge.batch import BatchJob, Component, run_batch
from puzzleforge.core.errors import GenerationFailed


def _item_seed(base: int, family: str, index: int) -> int:
    """derive_seed written out from its documentation (BLAKE2b-64 of 'seed/base/family/i')."""
    text = f"seed/{base}/{family}/{index}".encode()
    return int(hashlib.blake2b(text, digest_size=8).hexdigest(), 16) & ((1 << 63) - 1)


def test_the_run_stops_at_the_first_item_that_ends_it(tmp_path: Path) -> None:
    share = 0.2
    first = next(
        i for i in range(200) if random.Random(_item_seed(3, "ends_run", i)).random() < share
    )
    assert first > 0  # the seed is chosen so that records come before it
    job = BatchJob(
        components=(Component("batch_fake_families:ends_run", first + 10, {"slow_share": share}),),
        seed=3,
    )
    out = tmp_path / "d.jsonl"
    with pytest.raises(GenerationFailed) as err:
        run_batch(job, out, workers=1, chunk_size=3)
    assert str(err.value).startswith(f"item {first}: the safety net fired.")
    assert not out.exists()
    kept = [json.loads(x) for x in (tmp_path / "d.jsonl.partial").read_text().splitlines()]
    assert [r["meta"]["index"] for r in kept] == list(range(first))
    assert f"the {first} record(s) made so far are in" in str(err.value)


def test_an_audit_stopped_by_a_limit_stops_the_run_instead_of_rejecting(tmp_path: Path) -> None:
    # a rejection would try the next seed, so the dataset would depend on seconds
    family = "audit_at_limit"

    def k_of(index: int) -> int:  # Sometimes.generate: one random() draw, then k
        rng = random.Random(_item_seed(5, family, index))
        rng.random()
        return rng.randrange(1_000_000)

    first = next(i for i in range(40) if k_of(i) % 2)
    assert first > 0  # records come before it
    job = BatchJob(
        components=(Component(f"batch_fake_families:{family}", first + 5),), seed=5, audit=True
    )
    with pytest.raises(GenerationFailed) as err:
        run_batch(job, tmp_path / "a.jsonl", workers=1)
    assert str(err.value).startswith(
        f"item {first}: the audit's config replay was stopped at its limit."
    )
    assert err.value.exit_code == 4
    kept = [json.loads(x) for x in (tmp_path / "a.jsonl.partial").read_text().splitlines()]
    assert [r["meta"]["index"] for r in kept] == list(range(first))
