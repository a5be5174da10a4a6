"""``kill -9`` a real ``puzzleforge generate`` mid-run (twice), resume, and get the dataset
an uninterrupted run writes: exactly N unique, valid records, no torn line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from puzzleforge.batch import BatchJob, Component, run_batch
from puzzleforge.batch.verify import verify_file

N = 150
ARGS = [
    "generate",
    "latin",
    "-n",
    str(N),
    "--seed",
    "5",
    "--param",
    "n=7",
    "--workers",
    "2",
    "--chunk-size",
    "3",
    "--quiet",
]


def _start(tmp_path: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "puzzleforge.cli.main", *ARGS, "--out", "k.jsonl", *extra],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _kill_when(proc: subprocess.Popen, path: Path, at_least: int) -> int:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= at_least:
            break
        if proc.poll() is not None:
            raise AssertionError(
                "generate finished before it could be killed: " + proc.stderr.read().decode()
            )
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the CLI and its pool workers, no cleanup
    proc.wait(timeout=30)
    return path.read_bytes().count(b"\n")


def test_kill_minus_nine_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "k.jsonl"
    journal = tmp_path / "k.jsonl.partial"  # records go here until the run completes
    killed_at = [_kill_when(_start(tmp_path), journal, 20)]
    assert not out.exists()
    killed_at.append(_kill_when(_start(tmp_path, "--resume"), journal, killed_at[0] + 40))
    assert killed_at[0] < N and killed_at[1] < N, killed_at
    done = subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", *ARGS, "--out", "k.jsonl", "--resume"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr

    data = out.read_bytes()
    assert data.endswith(b"\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "README.md",
        "k.job.json",
        "k.jsonl",
        "k.summary.json",
    ]
    records = [json.loads(line) for line in data.decode().splitlines()]
    assert len(records) == N
    assert len({r["id"] for r in records}) == N and len({r["question"] for r in records}) == N
    report = verify_file(out, workers=2, audit=False)
    assert report.checked == N and not report.wrong

    reference = tmp_path / "ref.jsonl"
    run_batch(BatchJob((Component("latin", N, {"n": "7"}),), seed=5), reference, workers=2)
    assert data == reference.read_bytes()
