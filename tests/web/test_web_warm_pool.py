"""The warm pool of play workers (web/warmpool.py) against a real uvicorn server and real
worker processes.

What must hold: checks and hints are answered exactly by the same warm workers (no new
process per request); a runaway call is still stopped at its deadline, its worker is
killed and replaced, and the server answers other requests meanwhile and afterwards.
The runaway is ``sum(range(10**12))``: minutes of work inside one C call, where no
Python-level check runs, so only killing the process stops it. No assertion is about
wall time (the latency figures are in bench/limits_overhead.py).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from webserver import serving

from puzzleforge.web import WebSettings, create_app
from puzzleforge.web.errors import WebError

ROWS = ["11449", "49364", "46656"]  # powerplay's answer (examples/crossnumber/powerplay.yaml)
EXPECTED = {f"{r},{c}": d for r, row in enumerate(ROWS) for c, d in enumerate(row)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    app = create_app(WebSettings(data_dir=tmp_path_factory.mktemp("warm"), play_workers=2))
    with serving(app.state.settings, app=app) as url:
        yield url, app.state.workers


def _powerplay(url: str) -> str:
    text = httpx.post(f"{url}/api/crossnumber/example", json={"name": "powerplay"}, timeout=30)
    job = httpx.post(
        f"{url}/api/crossnumber/play",
        json={"text": text.json()["text"], "name": "powerplay.yaml"},
        timeout=60,
    ).json()
    deadline = time.monotonic() + 120
    while job["status"] == "running":
        assert time.monotonic() < deadline, "job did not finish"
        time.sleep(0.05)
        job = httpx.get(f"{url}/api/jobs/{job['id']}", timeout=30).json()
    assert job["status"] == "done", job
    return job["result"]["token"]


def _hint_is_exact(url: str, token: str) -> None:
    hint = httpx.post(f"{url}/api/crossnumber/{token}/hint", json={"values": {}}, timeout=60)
    assert hint.status_code == 200, hint.text
    assert hint.json()["kind"] == "step" and hint.json()["value"] == EXPECTED[hint.json()["cell"]]


def _gone(pid: int, seconds: float = 20.0) -> bool:
    """True once ``pid`` is no longer a live process (reaped, or a zombie)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split(") ", 1)[1].startswith("Z"):
                    return True
        except (FileNotFoundError, ProcessLookupError):
            return True
        time.sleep(0.05)
    return False


def _settled(workers: Any, count: int, seconds: float = 60.0) -> list[int]:
    """The pool's worker pids once ``count`` are up (replacements start in the background)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = workers.warm.pids()
        if len(pids) == count and all(os.path.exists(f"/proc/{p}") for p in pids):
            return sorted(pids)
        time.sleep(0.05)
    raise AssertionError(f"the pool did not come back to {count} workers: {workers.warm.pids()}")


def test_checks_and_hints_reuse_the_warm_workers(server: tuple[str, Any]) -> None:
    url, workers = server
    token = _powerplay(url)
    _hint_is_exact(url, token)
    before = _settled(workers, 2)
    for _ in range(5):
        _hint_is_exact(url, token)
        check = httpx.post(
            f"{url}/api/crossnumber/{token}/check", json={"values": EXPECTED}, timeout=60
        )
        assert check.json() == {"wrong": [], "filled": 15, "cells": 15, "solved": True}
    assert sorted(workers.warm.pids()) == before  # the same processes answered every call


def test_a_runaway_call_is_killed_and_replaced_while_the_server_answers(
    server: tuple[str, Any],
) -> None:
    url, workers = server
    token = _powerplay(url)
    _settled(workers, 2)
    replaced = workers.warm.replaced
    outcome: dict[str, Any] = {}

    def runaway() -> None:
        try:
            workers.run(sum, range(10**12), warm=True, seconds=1.0, what="a runaway sum")
        except WebError as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=runaway)
    thread.start()
    deadline = time.monotonic() + 30
    while len(workers.warm._busy) == 0 and thread.is_alive():  # noqa: SLF001 - wait for it
        assert time.monotonic() < deadline
        time.sleep(0.01)
    busy = [w.proc.pid for w in list(workers.warm._busy)]  # noqa: SLF001
    # while one worker is stuck in C, the other answers and so does the rest of the server
    _hint_is_exact(url, token)
    assert httpx.get(f"{url}/api/crossnumber/{token}/solution", timeout=30).json()["values"] == (
        EXPECTED
    )
    thread.join(60)
    assert not thread.is_alive()
    error = outcome["error"]
    assert error.status == 503
    assert str(error) == (
        "a runaway sum took longer than this server's limit of 1 s and was stopped; "
        "try a smaller puzzle"
    )
    assert len(busy) == 1 and _gone(busy[0])
    assert workers.warm.replaced == replaced + 1
    after = _settled(workers, 2)
    assert busy[0] not in after
    _hint_is_exact(url, token)
