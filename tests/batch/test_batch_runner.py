"""The runner: determinism across workers, dedupe, timeouts and retries, giving up, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzleforge.batch import BatchJob, Component, run_batch
from puzzleforge.core.errors import ConfigError, GenerationFailed
from puzzleforge.core.seeding import derive_seed

FAKE = "batch_fake_families"


def latin_job(n: int, seed: int = 11, **params) -> BatchJob:
    return BatchJob(components=(Component("latin", n, params or {"n": 5}),), seed=seed)


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_same_bytes_for_one_and_two_workers_and_any_chunking(tmp_path: Path) -> None:
    one = run_batch(latin_job(60), tmp_path / "one.jsonl", workers=1)
    two = run_batch(latin_job(60), tmp_path / "two.jsonl", workers=2, chunk_size=3)
    run_batch(latin_job(60), tmp_path / "odd.jsonl", workers=2, chunk_size=7)
    assert one.backend == "inline" and two.backend == "local"
    data = (tmp_path / "one.jsonl").read_bytes()
    assert data == (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "odd.jsonl").read_bytes()
    records = lines(tmp_path / "one.jsonl")
    assert [r["meta"]["index"] for r in records] == list(range(60))
    assert records[5]["seed"] == derive_seed(11, "latin", 5)
    assert all(
        r["meta"]["run_seed"] == 11 and r["meta"]["generator"].startswith("puzzleforge")
        for r in records
    )
    summary = json.loads((tmp_path / "two.summary.json").read_text())
    assert summary["records_total"] == 60 and summary["workers"] == 2
    assert summary["cpu_seconds"] > 0 and summary["wall_seconds"] > 0


def test_duplicates_are_dropped_replaced_and_counted(tmp_path: Path) -> None:
    job = BatchJob(components=(Component(f"{FAKE}:sometimes_slow", 30, {"distinct": 40}),), seed=1)
    summary = run_batch(job, tmp_path / "d.jsonl", workers=1)
    records = lines(tmp_path / "d.jsonl")
    questions = [r["question"] for r in records]
    assert len(records) == 30 and len(set(questions)) == 30
    assert summary.rejects.get("duplicate", 0) > 0  # 30 draws from 40: collisions
    assert records[-1]["meta"]["index"] == 29 + summary.rejects["duplicate"]


def test_exhausted_space_stops_instead_of_spinning(tmp_path: Path) -> None:
    job = BatchJob(components=(Component(f"{FAKE}:sometimes_slow", 10, {"distinct": 3}),), seed=1)
    with pytest.raises(GenerationFailed, match="no new puzzle") as err:
        run_batch(job, tmp_path / "e.jsonl", workers=1)
    assert not (tmp_path / "e.jsonl").exists()  # only a complete run publishes
    assert len(lines(tmp_path / "e.jsonl.partial")) == 3  # what it found is kept
    assert "the 3 record(s) made so far are in" in str(err.value)


def _first_busy_index(family: str, seed: int, share: float) -> int:
    """The first item whose first attempt the fake family makes busy (its rule: the
    attempt's rng draws below ``share``)."""
    from puzzleforge.core.seeding import make_rng

    index = 0
    while make_rng(derive_seed(seed, family, index, 0)).random() >= share:
        index += 1
    return index


@pytest.mark.parametrize("workers", [1, 2])
def test_an_attempt_past_its_cpu_limit_stops_the_run_at_that_item(
    tmp_path: Path, workers: int
) -> None:
    job = BatchJob(
        components=(Component(f"{FAKE}:spinning", 12, {"slow_share": 0.3, "slow_seconds": 30}),),
        seed=4,
        timeout_per_item=0.2,
    )
    first = _first_busy_index("spinning", 4, 0.3)
    assert 0 < first < 12
    with pytest.raises(GenerationFailed) as info:
        run_batch(job, tmp_path / "t.jsonl", workers=workers, chunk_size=2)
    err = info.value
    assert err.kind == "limit reached" and err.exit_code == 4
    seed = derive_seed(4, "spinning", first, 0)
    assert str(err).startswith(
        f"item {first}: item {first}, attempt 1 (seed {seed}) was stopped at its limit of "
        "0.2 CPU seconds (--timeout-per-item); the run stops here instead of trying another "
        "seed"
    ), str(err)
    # the items before it are kept (resume continues from there); none is skipped
    kept = lines(tmp_path / "t.jsonl.partial")
    assert [r["meta"]["index"] for r in kept] == list(range(first))
    assert not any(r["meta"].get("attempt") for r in kept)


def test_sleeping_is_not_cpu_time(tmp_path: Path) -> None:
    # attempts that wait (sleep) use no CPU: a CPU limit of 0.2 s does not stop 0.4 s naps
    job = BatchJob(
        components=(
            Component(f"{FAKE}:sometimes_slow", 6, {"slow_share": 0.5, "slow_seconds": 0.4}),
        ),
        seed=4,
        timeout_per_item=0.2,
    )
    summary = run_batch(job, tmp_path / "s.jsonl", workers=1)
    records = lines(tmp_path / "s.jsonl")
    assert [r["meta"]["index"] for r in records] == list(range(6))
    assert summary.rejects == {}
    plain = run_batch(
        BatchJob(components=job.components, seed=4), tmp_path / "plain.jsonl", workers=1
    )
    assert plain.records_written == 6
    assert (tmp_path / "s.jsonl").read_bytes() == (tmp_path / "plain.jsonl").read_bytes()


def test_work_stuck_in_c_is_stopped_by_the_workers_kernel_limit(tmp_path: Path) -> None:
    job = BatchJob(
        components=(Component(f"{FAKE}:native_spin", 4, {"slow_share": 1.0}),),
        seed=0,
        timeout_per_item=0.5,
    )
    with pytest.raises(GenerationFailed) as info:
        run_batch(job, tmp_path / "n.jsonl", workers=1)
    assert info.value.exit_code == 4
    assert str(info.value).startswith(
        "item 0: item 0, attempt 1 (seed "
    ) and "was stopped at its limit of 0.5 CPU seconds (--timeout-per-item)" in str(info.value)


def test_family_that_fails_everything_stops_with_a_clear_message(tmp_path: Path) -> None:
    job = BatchJob(components=(Component(f"{FAKE}:always_fails", 50),), seed=0)
    with pytest.raises(GenerationFailed) as err:
        run_batch(job, tmp_path / "f.jsonl", workers=2, chunk_size=4)
    text = str(err.value)
    assert "always_fails" in text and "generation_failed" in text and "no puzzle today" in text


def test_resume_cuts_a_torn_line_and_completes_identically(tmp_path: Path) -> None:
    reference = tmp_path / "ref.jsonl"
    run_batch(latin_job(40), reference, workers=1)
    partial = tmp_path / "p.jsonl"
    run_batch(latin_job(40), partial, workers=1)
    data = reference.read_bytes()
    cut = data.split(b"\n")
    partial.write_bytes(b"\n".join(cut[:17]) + b"\n" + cut[17][: len(cut[17]) // 2])
    summary = run_batch(latin_job(40), partial, workers=2, resume=True)
    assert partial.read_bytes() == data
    assert summary.resumed_from == 17 and summary.records_written == 23
    done = run_batch(latin_job(40), partial, workers=2, resume=True)  # nothing left to do
    assert done.records_written == 0 and partial.read_bytes() == data


def test_resume_refuses_a_different_command(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_batch(latin_job(5), out, workers=1)
    with pytest.raises(ConfigError, match="different command"):
        run_batch(latin_job(5, seed=12), out, workers=1, resume=True)
    with pytest.raises(ConfigError, match="n=2 is out of range"):
        run_batch(
            BatchJob((Component("latin", 5, {"n": 2}),), seed=1), tmp_path / "bad.jsonl", workers=1
        )


def test_a_second_writer_on_the_same_output_is_refused(tmp_path: Path) -> None:
    import fcntl

    out = tmp_path / "busy.jsonl"
    with open(tmp_path / "busy.lock", "a+b") as held:  # what a running generate holds
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(ConfigError, match="another puzzleforge run is writing"):
            run_batch(latin_job(3), out, workers=1, resume=True)
    run_batch(latin_job(3), out, workers=1)  # free again
    assert len(lines(out)) == 3


def test_a_generator_blocked_without_cpu_stops_the_run(tmp_path: Path, monkeypatch) -> None:
    # The error below is raised only by the runner's wall-clock backstop (a sleeping
    # generator uses no CPU, so its CPU limit never comes). How long that takes is
    # measured in bench/, not asserted.
    from puzzleforge.batch import dispatch
    from puzzleforge.core.limits import LimitExceeded

    monkeypatch.setattr(dispatch, "HARD_GRACE_SECONDS", 1.0)
    job = BatchJob(
        components=(Component(f"{FAKE}:stuck", 4, {"slow_seconds": 60.0}),),
        seed=0,
        timeout_per_item=0.1,
        max_attempts=1,
    )
    with pytest.raises(LimitExceeded, match="stuck without using CPU"):
        run_batch(job, tmp_path / "s.jsonl", workers=2, chunk_size=1)


def test_audit_while_generating_rejects_and_retries(tmp_path: Path) -> None:
    plain = BatchJob(components=(Component(f"{FAKE}:picky", 12),), seed=3)
    run_batch(plain, tmp_path / "plain.jsonl", workers=1)
    assert any(r["solution"]["k"] % 2 for r in lines(tmp_path / "plain.jsonl"))
    audited = BatchJob(components=(Component(f"{FAKE}:picky", 12),), seed=3, audit=True)
    summary = run_batch(audited, tmp_path / "audited.jsonl", workers=2, chunk_size=3)
    records = lines(tmp_path / "audited.jsonl")
    assert len(records) == 12 and all(r["solution"]["k"] % 2 == 0 for r in records)
    assert summary.rejects["audit_failed"] >= 1
