"""A spec file from the shared corpus through generate (2 workers) and verify."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
SPEC = CORPUS / "puzzleclone" / "1-hamburger.yaml"


@pytest.mark.skipif(not SPEC.exists(), reason=f"shared corpus not found at {SPEC}")
def test_spec_file_family_generates_and_verifies(tmp_path: Path) -> None:
    cli = [sys.executable, "-m", "puzzleforge.cli.main"]
    made = subprocess.run(
        [
            *cli,
            "generate",
            str(SPEC),
            "-n",
            "6",
            "--seed",
            "3",
            "--out",
            "s.jsonl",
            "--workers",
            "2",
            "--chunk-size",
            "1",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    records = [json.loads(x) for x in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert len(records) == 6
    assert all(
        Path(r["meta"].get("source") or r["config"].get("source")).name == SPEC.name
        for r in records
    )
    checked = subprocess.run(
        [*cli, "verify", "s.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "6/6 correct" in checked.stdout
