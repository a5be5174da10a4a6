"""A cross-number solve on the web page stopped by its CPU time limit says "undecided",
never "no solution" and never a cut step log as a result (issue 19), against a real
uvicorn and the real engine worker. The limit is 1e-9 CPU s, far under any search, so
the outcome does not depend on the machine's load."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from webserver import serving

from puzzleforge.web import WebSettings

ABCD = Path(__file__).resolve().parents[2] / "examples" / "crossnumber" / "abcd.yaml"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = WebSettings(data_dir=tmp_path_factory.mktemp("cn"), solve_time_limit=1e-9)
    with serving(settings) as url:
        yield url


def test_a_solve_stopped_at_its_limit_is_undecided_not_no_solution(server: str) -> None:
    job = httpx.post(
        f"{server}/api/crossnumber/solve",
        json={"text": ABCD.read_text(encoding="utf-8"), "name": "abcd.yaml"},
        timeout=60,
    ).json()
    deadline = time.monotonic() + 120
    while job["status"] == "running":
        assert time.monotonic() < deadline, "job did not finish"
        time.sleep(0.05)
        job = httpx.get(f"{server}/api/jobs/{job['id']}", timeout=30).json()
    assert job["status"] == "failed", job
    assert job["error"]["kind"] == "limit reached"
    assert job["error"]["message"] == (
        "undecided: the search stopped at this page's limit of 1e-09 CPU seconds (0 search "
        "nodes) before it found a solution or proved there is none. Expected a smaller "
        "puzzle, or `puzzleforge crossnumber solve FILE --time-limit SECONDS` with a larger "
        "limit."
    )
