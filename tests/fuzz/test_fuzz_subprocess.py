"""Fuzz through the real ``puzzleforge`` process (a few examples: each costs an interpreter
start): the same checks as in process, plus the real exit status and stderr of the
command, and no stray file in its working folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fuzzkit import ALLOWED_EXITS, fuzz_settings, mutated, snapshot
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_crossnumber import PUZZLES
from test_fuzz_grid import urls


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", "--cpu-limit", "20", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )


def _check(done: subprocess.CompletedProcess) -> None:
    text = done.stdout + done.stderr
    assert done.returncode in ALLOWED_EXITS, (done.returncode, text[-2000:])
    assert "Traceback" not in text and "internal" not in text.lower(), text[-2000:]
    if done.returncode == 2 and "Usage:" not in done.stderr:
        assert done.stderr.startswith("error") and "\n\n" not in done.stderr.strip(), done.stderr


@fuzz_settings(3, quick=2)
@given(data=st.data(), url=urls())
def test_real_process(tmp_path: Path, data: st.DataObject, url: str) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "p.yaml"
    path.write_text(data.draw(mutated(PUZZLES["abcd.yaml"])), encoding="utf-8")
    before = snapshot(folder)
    _check(_run(folder, "crossnumber", "solve", "p.yaml", "--time-limit", "5"))
    _check(_run(folder, "grid", "solve", url))
    assert snapshot(folder) == before
