"""One generation loop: ``spec generate`` is the batch runner, and ids are stable.

Through the real ``python -m puzzleforge``: ``generate SPEC`` and ``spec generate SPEC``
with the same seed write the same bytes (to a file, and to stdout); a record's id is the
documented hash of (family, the spec file's sha256, params, item seed) with the item seed
derived from (run seed, family, index), so no retry count enters it; a spec error stops
the run at once and leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VASE = ROOT / "examples" / "specs" / "vase.yaml"


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=600,
    )


def _item_seed(base: int, family: str, index: int) -> int:
    """derive_seed written out from its documentation (BLAKE2b-64 of 'seed/base/family/i')."""
    text = f"seed/{base}/{family}/{index}".encode()
    return int(hashlib.blake2b(text, digest_size=8).hexdigest(), 16) & ((1 << 63) - 1)


def test_both_commands_write_the_same_records(tmp_path: Path) -> None:
    shutil.copy(VASE, tmp_path / "vase.yaml")
    a = _run(
        tmp_path,
        "generate",
        "vase.yaml",
        "-n",
        "4",
        "--seed",
        "11",
        "--out",
        "a.jsonl",
        "--param",
        "attempts=300",
        "--param",
        "attempt_seconds=20",
        "-q",
    )
    b = _run(
        tmp_path,
        "spec",
        "generate",
        "vase.yaml",
        "-n",
        "4",
        "--seed",
        "11",
        "--out",
        "b.jsonl",
        "--attempts",
        "300",
        "--attempt-seconds",
        "20",
        "-q",
    )
    c = _run(
        tmp_path,
        "spec",
        "generate",
        "vase.yaml",
        "-n",
        "4",
        "--seed",
        "11",
        "--attempts",
        "300",
        "--attempt-seconds",
        "20",
        "-q",
    )
    assert a.returncode == b.returncode == c.returncode == 0, (a.stderr, b.stderr, c.stderr)
    first = (tmp_path / "a.jsonl").read_bytes()
    assert first.count(b"\n") == 4
    assert (tmp_path / "b.jsonl").read_bytes() == first
    assert c.stdout == first
    params = [json.loads(x)["params"] for x in first.splitlines()]
    assert params == [{"attempt_seconds": 20.0, "attempts": 300, "max_seconds": 120.0}] * 4


def test_ids_depend_on_content_params_seed_and_index_only(tmp_path: Path) -> None:
    spec = tmp_path / "vase.yaml"
    shutil.copy(VASE, spec)
    assert (
        _run(
            tmp_path,
            "spec",
            "generate",
            "vase.yaml",
            "-n",
            "3",
            "--seed",
            "2",
            "--out",
            "one.jsonl",
            "-q",
        ).returncode
        == 0
    )
    digest = hashlib.sha256(spec.read_bytes()).hexdigest()
    records = [json.loads(x) for x in (tmp_path / "one.jsonl").read_text().splitlines()]
    for rec in records:
        seed = _item_seed(2, "spec:vase", rec["meta"]["index"])
        params = json.dumps(rec["params"], sort_keys=True, separators=(",", ":"))
        text = f"puzzle/spec:vase/{digest}/{params}/{seed}".encode()
        assert rec["seed"] == seed
        assert rec["meta"]["source_sha256"] == digest
        assert rec["id"] == hashlib.blake2b(text, digest_size=10).hexdigest()
    # the same spec with another byte: the same puzzles, other ids (its content is in them)
    spec.write_text(spec.read_text() + "\n# edited\n")
    assert (
        _run(
            tmp_path,
            "spec",
            "generate",
            "vase.yaml",
            "-n",
            "3",
            "--seed",
            "2",
            "--out",
            "two.jsonl",
            "-q",
        ).returncode
        == 0
    )
    again = [json.loads(x) for x in (tmp_path / "two.jsonl").read_text().splitlines()]
    assert [r["question"] for r in again] == [r["question"] for r in records]
    assert not {r["id"] for r in again} & {r["id"] for r in records}


def test_a_spec_error_stops_the_run_and_leaves_nothing(tmp_path: Path) -> None:
    text = VASE.read_text().replace(
        "gen_event_count_condition(names_s, 'equal', 1)",
        "\"gen_event_count_condition(names_s, 'equal', 1 // (p_num - p_num))\"",
    )
    (tmp_path / "bad.yaml").write_text(text)
    done = _run(tmp_path, "spec", "generate", "bad.yaml", "-n", "3", "--out", "o.jsonl", "-q")
    assert done.returncode == 2
    err = done.stderr.decode()
    assert err.startswith("error (invalid spec): item 0: ") and "Traceback" not in err
    assert "field 'conditions.one_culprit.formula': expression failed: ZeroDivisionError" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml"]


def test_records_with_the_earlier_id_still_verify(tmp_path: Path) -> None:
    # a dataset made before ids hashed the spec's content: same puzzles, ids of
    # (family, params, seed) alone; verify accepts them, and still refuses a wrong id
    shutil.copy(VASE, tmp_path / "vase.yaml")
    assert (
        _run(
            tmp_path,
            "spec",
            "generate",
            "vase.yaml",
            "-n",
            "2",
            "--seed",
            "6",
            "--out",
            "new.jsonl",
            "-q",
        ).returncode
        == 0
    )
    records = [json.loads(x) for x in (tmp_path / "new.jsonl").read_text().splitlines()]
    for rec in records:
        params = json.dumps(rec["params"], sort_keys=True, separators=(",", ":"))
        text = f"puzzle/spec:vase/{params}/{rec['seed']}".encode()
        rec["id"] = hashlib.blake2b(text, digest_size=10).hexdigest()
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    done = _run(tmp_path, "verify", "old.jsonl", "--no-audit")
    assert done.returncode == 0 and "2/2 correct" in done.stdout.decode(), done.stdout
    records[1]["id"] = "0" * 20
    (tmp_path / "bad.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    done = _run(tmp_path, "verify", "bad.jsonl", "--no-audit")
    assert done.returncode == 1 and f"id {'0' * 20} is not the id of" in done.stdout.decode()
