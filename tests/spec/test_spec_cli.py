"""``puzzleforge spec generate`` / ``check``: JSONL output, stamping, replay, re-theming."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from puzzleforge.cli.main import app
from puzzleforge.core.puzzle import Puzzle
from puzzleforge.core.seeding import derive_seed

VASE = Path(__file__).resolve().parents[2] / "examples" / "specs" / "vase.yaml"


def test_generate_writes_stamped_verified_records(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    r = CliRunner().invoke(
        app, ["spec", "generate", str(VASE), "-n", "3", "--seed", "9", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 3
    for i, rec in enumerate(recs):
        p = Puzzle.from_record(rec)
        assert rec["family"] == "spec:vase" and rec["question"].startswith(
            rec["problem"].rstrip("\n") + "\nAnswer format: "
        )
        # one seed per item: the family retries inside generate (never a new seed per retry)
        assert rec["meta"]["index"] == i and "attempt" not in rec["meta"]
        assert p.seed == derive_seed(9, "spec:vase", i)
        assert "parameters" in rec and "config" in rec
    # the same command gives the same file
    out2 = tmp_path / "v2.jsonl"
    CliRunner().invoke(
        app, ["spec", "generate", str(VASE), "-n", "3", "--seed", "9", "--out", str(out2)]
    )
    assert out2.read_text() == out.read_text()

    # config replay rebuilds identical problems and answers
    r = CliRunner().invoke(app, ["spec", "generate", str(VASE), "--config", str(out), "-q"])
    assert r.exit_code == 0, r.output
    again = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    assert [(a["problem"], a["answer"]) for a in again] == [
        (b["problem"], b["answer"]) for b in recs
    ]

    # re-theming keeps everything but the named variables
    r = CliRunner().invoke(
        app,
        [
            "spec",
            "generate",
            str(VASE),
            "--config",
            str(out),
            "--use-spec-vars",
            "names",
            "-q",
            "--seed",
            "3",
        ],
    )
    assert r.exit_code == 0, r.output
    themed = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    assert [t["config"]["p_num"] for t in themed] == [b["config"]["p_num"] for b in recs]
    assert [t["config"]["speeches_s"] for t in themed] == [b["config"]["speeches_s"] for b in recs]


def test_check_summarises_a_spec() -> None:
    r = CliRunner().invoke(app, ["spec", "check", str(VASE)])
    assert r.exit_code == 0, r.output
    assert "spec:vase" in r.output and "sample puzzle ok" in r.output


def test_bad_config_is_one_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text("{not json\n")
    r = CliRunner().invoke(app, ["spec", "generate", str(VASE), "--config", str(bad)])
    assert r.exit_code == 2 and "not valid JSON" in r.output and "Traceback" not in r.output


def test_verify_says_when_the_spec_file_changed(tmp_path) -> None:
    """Records carry the spec's sha256: verify of a dataset whose spec file was edited
    afterwards names the file and both hashes instead of failing every record."""
    import shutil
    import subprocess
    import sys

    spec = tmp_path / "vase.yaml"
    shutil.copy(VASE, spec)
    cli = [sys.executable, "-m", "puzzleforge.cli.main"]
    made = subprocess.run(
        [*cli, "generate", "vase.yaml", "-n", "2", "--out", "w.jsonl", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    ok = subprocess.run(
        [*cli, "verify", "w.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert ok.returncode == 0 and "2/2 correct" in ok.stdout
    spec.write_text(spec.read_text() + "\n# edited\n")
    changed = subprocess.run(
        [*cli, "verify", "w.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert changed.returncode != 0
    assert (
        "the spec file vase.yaml has changed since this record was made"
        in changed.stdout + changed.stderr
    )
