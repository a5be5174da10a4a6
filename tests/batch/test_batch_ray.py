"""The Ray backend on a real local Ray cluster: same bytes as one local worker."""

from __future__ import annotations

from pathlib import Path

import pytest
import ray

from puzzleforge.batch import BatchJob, Component, run_batch

pytestmark = [pytest.mark.ray, pytest.mark.timeout(240)]


def test_ray_backend_matches_local_output(tmp_path: Path) -> None:
    job = BatchJob((Component("latin", 40, {"n": 6}),), seed=13)
    run_batch(job, tmp_path / "local.jsonl", workers=1)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONHASHSEED": "random"}},
    )
    try:
        summary = run_batch(job, tmp_path / "ray.jsonl", backend="ray", chunk_size=3)
        assert summary.backend == "ray" and summary.workers == 2
        assert summary.records_total == 40
        resumed = run_batch(job, tmp_path / "ray.jsonl", backend="ray", resume=True)
        assert resumed.records_written == 0
    finally:
        ray.shutdown()
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
