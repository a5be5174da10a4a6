"""Checks and hints of every play page run in the killable engine workers under their own
per-request deadline (``WebSettings.play_seconds``), against a real uvicorn on a free
port.

Two servers: one with the default deadline, where a check and a hint through the worker
give the exact answers (powerplay's published solution), and one whose play deadline is
1 microsecond. No worker can receive the pickled puzzle and answer within 1 us (sending it
through the pipe alone takes longer), so there every check and hint is stopped with a
clear 503 while the server keeps answering everything else: that is only possible if
they run in a worker under the deadline, not in the request thread. No assertion is
about wall time. test_web_warm_pool.py covers the warm workers themselves."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest
from webserver import serving

from puzzleforge.web import WebSettings

ROWS = ["11449", "49364", "46656"]  # powerplay's answer (examples/crossnumber/powerplay.yaml)
EXPECTED = {f"{r},{c}": d for r, row in enumerate(ROWS) for c, d in enumerate(row)}


@pytest.fixture(scope="module")
def normal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(WebSettings(data_dir=tmp_path_factory.mktemp("play"))) as url:
        yield url


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = WebSettings(data_dir=tmp_path_factory.mktemp("tight"), play_seconds=1e-6)
    with serving(settings) as url:
        yield url


def _job(server: str, path: str, body: dict) -> dict:
    job = httpx.post(f"{server}{path}", json=body, timeout=60).json()
    deadline = time.monotonic() + 120
    while job["status"] == "running":
        assert time.monotonic() < deadline, "job did not finish"
        time.sleep(0.05)
        job = httpx.get(f"{server}/api/jobs/{job['id']}", timeout=30).json()
    assert job["status"] == "done", job
    return job["result"]


def _powerplay(server: str) -> str:
    text = httpx.post(
        f"{server}/api/crossnumber/example", json={"name": "powerplay"}, timeout=30
    ).json()["text"]
    return _job(server, "/api/crossnumber/play", {"text": text, "name": "powerplay.yaml"})["token"]


def test_checks_and_hints_answer_exactly_through_the_worker(normal: str) -> None:
    token = _powerplay(normal)
    hint = httpx.post(
        f"{normal}/api/crossnumber/{token}/hint", json={"values": {}}, timeout=60
    ).json()
    assert hint["kind"] == "step" and hint["value"] == EXPECTED[hint["cell"]]
    check = httpx.post(
        f"{normal}/api/crossnumber/{token}/check", json={"values": EXPECTED}, timeout=60
    ).json()
    assert check == {"wrong": [], "filled": 15, "cells": 15, "solved": True}
    wrong = httpx.post(
        f"{normal}/api/crossnumber/{token}/check", json={"values": {"0,0": "7"}}, timeout=60
    ).json()
    assert wrong == {"wrong": ["0,0"], "filled": 1, "cells": 15, "solved": False}
    # a bad request is still a 400 naming the field, raised inside the worker
    bad = httpx.post(
        f"{normal}/api/crossnumber/{token}/check", json={"values": {"9,9": "1"}}, timeout=60
    )
    assert bad.status_code == 400 and "not a white cell" in bad.json()["error"]["message"]


@pytest.mark.parametrize(
    "page, path, body, what",
    [
        ("crossnumber", "hint", {"values": {}}, "finding a hint for this cross-number puzzle"),
        ("crossnumber", "check", {"values": {}}, "checking this cross-number puzzle"),
    ],
)
def test_a_play_request_past_its_deadline_is_stopped(
    tight: str, page: str, path: str, body: dict, what: str
) -> None:
    token = _powerplay(tight)
    response = httpx.post(f"{tight}/api/{page}/{token}/{path}", json=body, timeout=60)
    assert response.status_code == 503, response.text
    assert response.json()["error"]["message"].startswith(
        f"{what} took longer than this server's limit of 1e-06 s and was stopped"
    )
    # the server and the session are fine: the answer is still there
    solution = httpx.get(f"{tight}/api/crossnumber/{token}/solution", timeout=30)
    assert solution.status_code == 200 and solution.json()["values"] == EXPECTED


def test_grid_and_logic_grid_play_requests_use_the_deadline_too(tight: str) -> None:
    grid = _job(tight, "/api/grid/generate", {"genre": "unruly", "size": "6x6", "seed": 3})
    for path in ("check", "hint"):
        response = httpx.post(
            f"{tight}/api/grid/{grid['token']}/{path}", json={"values": {}}, timeout=60
        )
        assert response.status_code == 503, response.text
    zebra = _job(tight, "/api/logic-grid/generate", {"K": 3, "k": 4, "seed": 7})
    for path in ("check", "hint"):
        response = httpx.post(
            f"{tight}/api/logic-grid/{zebra['token']}/{path}", json={"marks": {}}, timeout=60
        )
        assert response.status_code == 503, response.text
    assert "took longer than this server's limit of 1e-06 s" in response.json()["error"]["message"]
