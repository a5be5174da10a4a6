"""The grid page takes a genre file (Tents, examples/genres/tents.py) only from a server
started with --trust: without it the upload is refused with the reason; with it the genre
is listed, its published-style puzzle loads (solved in an engine worker that loads the
file too) and is played through check and solution, and a puzzle of it is generated."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[2]
TENTS = ROOT / "examples" / "genres" / "tents.py"
PUZZLE = ROOT / "examples" / "genres" / "tents-8x8.txt"
#: The published-style instance's answer (tests/grid/test_grid_tents_file.py finds it by
#: brute force): tents at these cells, rows and columns from 0.
TENTS_AT = {(0, 0), (0, 4), (1, 7), (2, 1), (3, 3), (3, 5), (5, 0), (5, 5), (6, 2), (7, 5), (7, 7)}


def _client(trust: bool):
    from fastapi.testclient import TestClient

    from puzzleforge.web import WebSettings, create_app

    return TestClient(create_app(WebSettings(trust=trust)))


def test_without_trust_a_genre_file_is_refused() -> None:
    with _client(False) as client:
        got = client.post(
            "/api/grid/genre-file", json={"name": "tents.py", "text": TENTS.read_text()}
        )
        assert got.status_code == 403
        message = got.json()["error"]["message"]
        assert message.startswith(
            "this server was started without --trust, so it does not "
            "load genre files: a genre file is Python code"
        )


def test_with_trust_a_genre_file_is_loaded_played_and_generated() -> None:
    with _client(True) as client:
        got = client.post(
            "/api/grid/genre-file", json={"name": "tents.py", "text": TENTS.read_text()}
        )
        assert got.status_code == 200, got.text
        body = got.json()
        assert (body["id"], body["default_size"]) == ("tents", "8x8")
        assert "tents" in [g["id"] for g in body["genres"]]
        view = client.post("/api/grid/load", json={"text": PUZZLE.read_text()})
        assert view.status_code == 200, view.text
        view = view.json()
        assert (view["genre"], view["rows"], view["cols"], view["mode"]) == ("tents", 8, 8, "cell")
        token = view["token"]
        solution = client.get(f"/api/grid/{token}/solution").json()["values"]
        assert {k for k, v in solution.items() if v == "1"} == {f"{r},{c}" for r, c in TENTS_AT}
        marks = {f"{r},{c}": "1" for r, c in TENTS_AT}
        checked = client.post(f"/api/grid/{token}/check", json={"values": marks}).json()
        assert checked["wrong"] == [] and checked["solved"] is True
        wrong = client.post(f"/api/grid/{token}/check", json={"values": {"0,2": "1"}}).json()
        assert wrong["wrong"] == ["0,2"]
        job = client.post(
            "/api/grid/generate", json={"genre": "tents", "size": "6x6", "seed": 4}
        ).json()
        import time

        for _ in range(600):
            job = client.get(f"/api/jobs/{job['id']}").json()
            if job["status"] != "running":
                break
            time.sleep(0.1)
        assert job["status"] == "done", job
        assert job["result"]["genre"] == "tents" and job["result"]["text"].startswith("tents 6x6\n")
