"""``puzzleforge verify`` prints the same report for the same file, run after run (issue 23).

Why: a verify whose verdict moves with the machine's load cannot be trusted either way
(18-numbers once gave 2/3, then 1/3). Records of several corpus specs (an optimisation
whose question reads the configuration, a set answer, an LP over Reals, a finite
enumeration, a Z3 enumeration) go into one file, which two fresh processes verify; their
standard output must be byte-identical and every record must pass its uniqueness audit
(the audit's bound counts solver work, spec/audit.py). Small counts keep it fast; the
200-per-spec sweep is bench/spec_audit.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"
SPECS = ("46-elevator", "44-chess", "38-linearprog", "65-visit", "7-age")
PER_SPEC = 2


def _verify(path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge", "verify", str(path), "--workers", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )


@pytest.mark.skipif(not CORPUS.exists(), reason="needs ../shared/corpus/puzzleclone")
def test_verify_twice_prints_the_same_report(tmp_path: Path) -> None:
    lines: list[str] = []
    for stem in SPECS:
        out = tmp_path / f"{stem}.jsonl"
        r = CliRunner().invoke(
            app,
            [
                "spec",
                "generate",
                str(CORPUS / f"{stem}.yaml"),
                "-n",
                str(PER_SPEC),
                "--seed",
                "7",
                "--out",
                str(out),
                "-q",
                "--no-dedupe",
            ],
        )
        assert r.exit_code == 0, r.output
        lines += out.read_text(encoding="utf-8").splitlines()
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    total = len(SPECS) * PER_SPEC
    assert len(lines) == total
    first, second = _verify(mixed), _verify(mixed)
    assert (first.returncode, second.returncode) == (0, 0), first.stdout + first.stderr[-2000:]
    assert first.stdout == second.stdout
    assert first.stdout.splitlines() == [
        f"{total}/{total} correct in {mixed}",
        f"uniqueness audit: {total} pass",
    ]
