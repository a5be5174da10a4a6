"""What the one CPU limit model costs: a batch attempt under ``--timeout-per-item`` (a
worker forked once per chunk, core/limitedworker.py) against the same attempts in place,
and a web hint in a fresh engine worker and in a warm one (web/warmpool.py) against the
same call in the request thread.

Usage: .venv/bin/python bench/limits_overhead.py [-n N]
Printed: CPU seconds (this process and its children: the batch's forked workers are
waited for; the web's engine workers are children of the fork server, so only wall time
is comparable there) and wall seconds for each pair; CPU is the steadier figure on a shared machine. The
records of each batch pair are compared byte for byte (the limit never changes them).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzleforge.batch import BatchJob, Component, run_batch  # noqa: E402


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _batch(family: str, n: int, params: dict, timeout: float | None, out: Path) -> tuple:
    job = BatchJob(components=(Component(family, n, params),), seed=1, timeout_per_item=timeout)
    cpu, wall = _cpu(), time.monotonic()
    run_batch(job, out, workers=1)
    return _cpu() - cpu, time.monotonic() - wall


def _web(n: int, play_workers: int) -> tuple:
    from fastapi.testclient import TestClient

    from puzzleforge.web import WebSettings, create_app
    from puzzleforge.web.crossnumber_adapter import example_files

    with TestClient(create_app(WebSettings(play_workers=play_workers))) as client:
        name = "powerplay" if "powerplay" in example_files() else sorted(example_files())[0]
        text = client.post("/api/crossnumber/example", json={"name": name}).json()["text"]
        job = client.post("/api/crossnumber/play", json={"text": text, "name": name + ".yaml"})
        job = job.json()
        while job["status"] == "running":
            time.sleep(0.05)
            job = client.get(f"/api/jobs/{job['id']}").json()
        token = job["result"]["token"]
        session = client.app.state.sessions.get(token)
        client.post(f"/api/crossnumber/{token}/hint", json={"values": {}})  # pool started
        cpu, wall = _cpu(), time.monotonic()
        for _ in range(n):
            client.post(f"/api/crossnumber/{token}/hint", json={"values": {}})
        worker = (_cpu() - cpu) / n, (time.monotonic() - wall) / n
        cpu, wall = _cpu(), time.monotonic()
        for _ in range(n):
            session.hint({})
        inline = (_cpu() - cpu) / n, (time.monotonic() - wall) / n
    return worker, inline


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100, help="attempts per batch run (default 100)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for family, params in (("latin", {"n": 5}), ("sudoku", {})):
            plain = _batch(family, args.n, params, None, Path(folder) / f"{family}-plain.jsonl")
            timed = _batch(family, args.n, params, 30.0, Path(folder) / f"{family}-timed.jsonl")
            same = (Path(folder) / f"{family}-plain.jsonl").read_bytes() == (
                Path(folder) / f"{family}-timed.jsonl"
            ).read_bytes()
            print(
                f"{family:8s} {args.n} attempts: in place {plain[0] / args.n * 1000:7.1f} ms CPU "
                f"({plain[1]:.1f} s wall); --timeout-per-item {timed[0] / args.n * 1000:7.1f} ms "
                f"CPU ({timed[1]:.1f} s wall); records identical: {same}"
            )
    for play_workers, how in ((0, "a fresh worker process per request"), (2, "a warm worker")):
        worker, inline = _web(max(1, args.n // 10), play_workers)
        print(
            f"web cross-number hint in {how} (play_workers={play_workers}): "
            f"{worker[1] * 1000:.0f} ms wall per request ({worker[0] * 1000:.1f} ms CPU in the "
            f"server process; the worker, a child of the fork server, is not counted); in the "
            f"request thread {inline[1] * 1000:.0f} ms wall, {inline[0] * 1000:.1f} ms CPU"
        )


if __name__ == "__main__":
    main()
