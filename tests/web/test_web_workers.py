"""Engine work of the web app runs in killable worker processes under a deadline
(web/workers.py), against a real uvicorn on a free port: a stuck explanation is stopped
with a clear 503 and the server keeps answering; 41 of them at once do not stop it; a
stuck grid paste is stopped the same way; normal requests still get their answer.

The server under test has a 10-second engine limit; no assertion is about wall time (a
hang would show as the pytest timeout)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import orjson
import pytest
from webserver import serving

import puzzleforge
from puzzleforge.web import WebSettings

REPO = Path(__file__).resolve().parents[2]
ABCD = REPO / "examples" / "crossnumber" / "abcd.yaml"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = WebSettings(
        data_dir=tmp_path_factory.mktemp("workers"),
        engine_seconds=10.0,
        engine_queue_seconds=2.0,
    )
    with serving(settings) as url:
        yield url


def _upload(server: str, records: list[dict]) -> str:
    body = b"".join(orjson.dumps(r) + b"\n" for r in records)
    response = httpx.post(
        f"{server}/api/datasets/upload", files={"file": ("d.jsonl", body)}, timeout=60
    )
    assert response.status_code == 200, response.text
    return response.json()["token"]


def _records() -> list[dict]:
    good = puzzleforge.generate("crossnumber", seed=1, mode="file").to_record()
    slow = orjson.loads(orjson.dumps(good))
    # four variables over 0..999999: within the size limits, but a search of minutes
    slow["meta"]["puzzle_file"] = ABCD.read_text(encoding="utf-8").replace(
        "  domain: primes\n  max: 2000\n", "  domain: 0..999999\n"
    )
    return [good, slow]


def test_a_stuck_explanation_is_stopped_and_the_server_answers(server: str) -> None:
    token = _upload(server, _records())
    response = httpx.get(f"{server}/api/datasets/{token}/records/1/explain", timeout=120)
    assert response.status_code == 503, response.text
    message = response.json()["error"]["message"]
    assert (
        message.startswith(
            "explaining this record took longer than this server's limit of 10 s and was stopped"
        )
        or "CPU or memory limit" in message
    )
    assert httpx.get(f"{server}/api/health", timeout=30).json()["ok"] is True
    steps = httpx.get(f"{server}/api/datasets/{token}/records/0/explain", timeout=120)
    assert steps.status_code == 200 and len(steps.json()["steps"]) > 3


def test_41_stuck_explanations_do_not_stop_the_server(server: str) -> None:
    token = _upload(server, _records())
    url = f"{server}/api/datasets/{token}/records/1/explain"
    with ThreadPoolExecutor(max_workers=41) as pool:
        futures = [pool.submit(httpx.get, url, timeout=300) for _ in range(41)]
        # while they are in flight, other requests are served
        assert httpx.get(f"{server}/api/health", timeout=60).status_code == 200
        assert httpx.get(f"{server}/grid", timeout=60).status_code == 200
        answers = [f.result() for f in futures]
    assert {a.status_code for a in answers} == {503}
    for answer in answers:
        message = answer.json()["error"]["message"]
        assert "busy" in message or "stopped" in message, message
    assert httpx.get(f"{server}/api/health", timeout=30).status_code == 200


def test_a_stuck_grid_paste_is_stopped(server: str) -> None:
    text = "nurikabe 12x12\n" + ("." * 12 + "\n") * 12  # no clue: endless search
    big = "https://puzz.link/p?nurikabe/100/100/3" + "z" * 499 + "y"
    for pasted in (text, big):
        response = httpx.post(f"{server}/api/grid/load", json={"text": pasted}, timeout=120)
        assert response.status_code in (400, 503), response.text
        assert "error" in response.json()
    assert httpx.get(f"{server}/api/health", timeout=30).status_code == 200


def test_jobs_run_in_workers_and_report_their_result(server: str) -> None:
    job = httpx.post(
        f"{server}/api/crossnumber/solve",
        json={"text": ABCD.read_text(encoding="utf-8"), "name": "abcd.yaml"},
        timeout=30,
    ).json()
    for _ in range(600):
        view = httpx.get(f"{server}/api/jobs/{job['id']}", timeout=30).json()
        if view["status"] != "running":
            break
        time.sleep(0.1)
    assert view["status"] == "done", view
    assert view["result"]["count"] == 1 and view["result"]["variables"] == {
        "A": 17,
        "B": 19,
        "C": 23,
        "D": 181,
    }
