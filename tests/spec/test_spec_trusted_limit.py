"""Trusted spec generation (``--trust``: Python operator files) is bounded by the kernel
too. The batch runner (``spec generate --trust``, ``generate SPEC --trust``) runs a
trusted family's attempts in a worker forked once per chunk (core/limitedworker.py) whose
RLIMIT_CPU is set to the safety net (``max_seconds``) + ``NET_GRACE`` for each puzzle, so
an operator stuck inside one C call (``sum(range(10**12))``, where the CPU alarm never
runs) fails loudly (exit status 4) instead of hanging. The worker keeps the family's state
between calls: the records are byte-identical to generation in this process. Real
processes; no wall-clock assertion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.batch import BatchJob, Component, run_batch
from puzzleforge.cli.main import app
from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec.family import SpecParams, load_spec_family

BASE = (Path(__file__).parent / "data" / "base.yaml").read_text(encoding="utf-8")
SPIN = "def spin(x):\n    sum(range(10**12))\n    return 2 * x\n"
DOUBLE = "def double(x):\n    return 2 * x\n"


def _spec(tmp_path: Path, name: str, body: str) -> Path:
    (tmp_path / "customs").mkdir(exist_ok=True)
    (tmp_path / "customs" / f"{name}.py").write_text(body, encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"custom_operator:\n  {name}: customs/{name}.py\n"
        + BASE.replace('domain: "[2, 4]"', f'domain: "[2, {name}(2)]"'),
        encoding="utf-8",
    )
    return path


def test_trusted_batch_records_match_generation_in_process(tmp_path: Path) -> None:
    path = _spec(tmp_path, "double", DOUBLE)
    job = BatchJob(
        components=(Component(str(path), 4, {}, options={"trust": True}),), seed=1, dedupe=False
    )
    run_batch(job, tmp_path / "b.jsonl", workers=1)
    family = load_spec_family(path, trust=True)
    here = []
    for i in range(4):
        seed = derive_seed(1, family.name, i)
        here.append(stamp(family.generate(SpecParams(), make_rng(seed)), seed))
    got = (tmp_path / "b.jsonl").read_text().splitlines()
    assert [json.loads(x)["question"] for x in got] == [p.question for p in here]
    assert [json.loads(x)["answer"] for x in got] == [p.answer for p in here]


def test_an_operator_stuck_in_c_is_stopped_by_the_kernel(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "spin", SPIN)
    job = BatchJob(
        components=(Component(str(spec), 1, {"max_seconds": 0.1}, options={"trust": True}),),
        seed=0,
    )
    with pytest.raises(GenerationFailed) as info:
        run_batch(job, tmp_path / "s.jsonl", workers=1)
    seed = derive_seed(0, "spec:spin", 0)
    assert str(info.value).startswith(
        f"item 0: item 0, attempt 1 (seed {seed}) was stopped by the kernel 5 CPU seconds past "
        "its safety net (max_seconds = 0.1 s of CPU per puzzle), in work that nothing inside "
        "it could interrupt; no puzzle is given, and the run stops here."
    ), str(info.value)
    assert info.value.exit_code == 4


def test_the_cli_fails_loudly_with_exit_4(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "spin", SPIN)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(
        app,
        ["spec", "generate", str(spec), "--trust", "-n", "1", "--max-seconds", "0.1"]
        + ["-o", str(out)],
    )
    text = result.stdout + result.stderr
    assert result.exit_code == 4, text
    assert "error (limit reached): item 0: " in text and "stopped by the kernel" in text
    assert "Traceback" not in text and not out.exists()


def test_a_family_with_a_worker_gives_the_same_puzzles_and_rng_as_in_process(
    tmp_path: Path,
) -> None:
    path = _spec(tmp_path, "double", DOUBLE)
    here, there = (
        load_spec_family(path, trust=True),
        load_spec_family(path, trust=True, worker=True),
    )
    rng_here, rng_there = make_rng(5), make_rng(5)
    for _ in range(3):  # the same rng on: each call continues where the last one left it
        a = here.generate(SpecParams(), rng_here).to_json()
        b = there.generate(SpecParams(), rng_there).to_json()
        assert a == b
        assert rng_here.getstate() == rng_there.getstate()
    assert there._trusted_worker.forks == 1  # one worker ran every call ...
    assert "_trusted_worker" not in here.__dict__  # ... and none without worker=True


#: The record's regeneration by `verify --trust` met this stopped worker (the kernel's
#: SIGXCPU), or on a machine loaded ten times over its wall-clock backstop first.
_VERIFY_STOPPED = (
    "error (limit reached): {spec}: record 1: the spec's trusted worker (--trust) was "
    "stopped 5 CPU seconds past its safety net (max_seconds = 0.1 s of CPU per puzzle), in "
    "work that nothing inside it could interrupt (a C call, or code that ignores signals); "
    "it was killed and no result is given.",
    "error (limit reached): {spec}: record 1: the spec's trusted worker (--trust) was "
    "still busy past its wall-clock backstop, waiting on something without CPU; it was "
    "killed and no result is given.",
)


def test_verify_trust_stops_an_operator_stuck_in_c_with_exit_4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    spec = _spec(tmp_path, "double", DOUBLE)
    runner = CliRunner()
    made = runner.invoke(
        app,
        ["spec", "generate", "double.yaml", "--trust", "-n", "1", "--max-seconds", "0.1"]
        + ["-o", "d.jsonl"],
    )
    assert made.exit_code == 0, made.stdout + made.stderr
    # the operator file changes after the dataset was made (the spec's own text, which the
    # record's digest covers, does not): its regeneration now sits in one C call
    (tmp_path / "customs" / "double.py").write_text(
        "def double(x):\n    sum(range(10**12))\n    return 2 * x\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["verify", "d.jsonl", "--trust", "--workers", "1"])
    text = result.stdout + result.stderr
    assert result.exit_code == 4, text
    assert text.strip().splitlines()[-1] in [t.format(spec=spec.name) for t in _VERIFY_STOPPED]
    assert "Traceback" not in text


def test_a_trusted_spec_without_operator_files_generates_in_the_runners_process(
    tmp_path: Path,
) -> None:
    """No code of the user's runs (``trusted_code`` is False), so the batch runner's
    inline backend generates in its own process, without a forked worker (whose second
    process cost ~10-15 MB of peak memory), and the records are the same as with two
    pool workers and as generation by hand."""
    from puzzleforge.batch import worker

    path = tmp_path / "plain.yaml"
    path.write_text(BASE, encoding="utf-8")
    assert not load_spec_family(path, trust=True).trusted_code
    assert load_spec_family(_spec(tmp_path, "double", DOUBLE), trust=True).trusted_code

    def job() -> BatchJob:
        return BatchJob(
            components=(Component(str(path), 4, {}, options={"trust": True}),),
            seed=3,
            dedupe=False,
        )

    worker._FAMILY_CACHE.clear()
    run_batch(job(), tmp_path / "one.jsonl", workers=1)
    (family,) = [f for f in worker._FAMILY_CACHE.values() if f.path == str(path)]
    # generated here: the family's shared Z3 context was made in this process
    assert getattr(family._z3._local, "space", None) is not None
    run_batch(job(), tmp_path / "two.jsonl", workers=2)
    one = (tmp_path / "one.jsonl").read_bytes()
    assert one == (tmp_path / "two.jsonl").read_bytes()
    here = load_spec_family(path, trust=True)
    questions = []
    for i in range(4):
        seed = derive_seed(3, here.name, i)
        questions.append(here.generate(SpecParams(), make_rng(seed)).question)
    assert [json.loads(x)["question"] for x in one.decode().splitlines()] == questions
