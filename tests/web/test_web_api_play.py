"""API tests of the logic-grid and grid-genre endpoints: validation, check, hint, reveal."""

from __future__ import annotations

import re
import time

import pytest


def _wait(client, job: dict) -> dict:
    deadline = time.monotonic() + 60
    while job["status"] == "running":
        assert time.monotonic() < deadline, "job did not finish"
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job


@pytest.fixture()
def zebra_view(api_client):
    job = api_client.post("/api/logic-grid/generate", json={"K": 3, "k": 4, "seed": 7}).json()
    job = _wait(api_client, job)
    assert job["status"] == "done", job
    return job["result"]


def test_logic_grid_same_seed_as_the_family(api_client, zebra_view) -> None:
    import puzzleforge

    record = puzzleforge.generate("zebra", seed=7, K=3, k=4)
    names = [c["items"] for c in zebra_view["categories"]]
    assert names == [c["items"] for c in record.meta["zebra"]["categories"]]
    assert len(zebra_view["clues"]) == len(record.meta["zebra"]["clues"])


def test_logic_grid_hints_solve_and_check_flags_wrong_marks(api_client, zebra_view) -> None:
    token = zebra_view["token"]
    marks: dict[str, str] = {}
    for _ in range(300):
        hint = api_client.post(f"/api/logic-grid/{token}/hint", json={"marks": marks}).json()
        if hint["kind"] != "step":
            break
        assert hint["step"]["marks"] and hint["step"]["reason"]
        for mark in hint["step"]["marks"]:
            marks[mark["cell"]] = mark["mark"]
    assert hint["kind"] == "solved"
    assert (
        api_client.post(f"/api/logic-grid/{token}/check", json={"marks": marks}).json()["solved"]
        is True
    )
    flipped = dict(marks)
    cell = next(iter(flipped))
    flipped[cell] = "x" if flipped[cell] == "o" else "o"
    result = api_client.post(f"/api/logic-grid/{token}/check", json={"marks": flipped}).json()
    assert result["wrong"] == [cell] and not result["solved"]
    hint = api_client.post(f"/api/logic-grid/{token}/hint", json={"marks": flipped}).json()
    assert hint["kind"] == "wrong" and hint["wrong"] == [cell]


@pytest.mark.parametrize(
    ("marks", "status", "message"),
    [
        ({"9.0.1.0": "x"}, 400, "field 'marks': cell 9.0.1.0 is outside the 3x4 grid."),
        ({"0.0.0.0": "x"}, 400, "field 'marks': cell 0.0.0.0 is outside the 3x4 grid."),
        (
            {"a.b": "x"},
            400,
            "field 'marks': 'a.b' is not a grid cell. Expected keys like 0.1.2.3 "
            "(category, object, category, object).",
        ),
        ({"0.0.1.0": "maybe"}, 422, "marks.0.0.1.0: Input should be 'x' or 'o'"),
    ],
)
def test_logic_grid_bad_marks_are_refused(api_client, zebra_view, marks, status, message) -> None:
    response = api_client.post(
        f"/api/logic-grid/{zebra_view['token']}/check", json={"marks": marks}
    )
    assert response.status_code == status
    assert response.json()["error"]["message"] == message


def test_logic_grid_rename_refuses_duplicates(api_client, zebra_view) -> None:
    cats = zebra_view["categories"]
    cats[0]["items"][1] = cats[0]["items"][0]
    response = api_client.post(
        f"/api/logic-grid/{zebra_view['token']}/rename", json={"categories": cats}
    )
    assert response.status_code == 400
    assert "must not repeat" in response.json()["error"]["message"]


def test_logic_grid_sizes_are_bounded(api_client) -> None:
    response = api_client.post("/api/logic-grid/generate", json={"K": 9, "k": 4})
    assert response.status_code == 422


def test_unknown_token_is_a_message(api_client) -> None:
    response = api_client.post("/api/logic-grid/nope/check", json={"marks": {}})
    assert response.status_code == 404
    assert "generate or load it again" in response.json()["error"]["message"]


def test_unruly_generate_hint_to_solution_and_reveal(api_client) -> None:
    job = api_client.post(
        "/api/grid/generate", json={"genre": "unruly", "size": "6x6", "seed": 3}
    ).json()
    view = _wait(api_client, job)["result"]
    assert view["binary"] and view["playable"] and view["rows"] == 6
    token = view["token"]
    values: dict[str, str] = {}
    for _ in range(40):
        hint = api_client.post(f"/api/grid/{token}/hint", json={"values": values}).json()
        if hint["kind"] != "step":
            break
        assert "must be" in hint["reason"]
        values[hint["cell"]] = hint["value"]
    assert hint["kind"] == "solved"
    solution = api_client.get(f"/api/grid/{token}/solution").json()["values"]
    assert all(solution[k] == v for k, v in values.items())


def test_grid_load_errors_name_the_line_and_sizes_are_bounded(api_client) -> None:
    bad = api_client.post("/api/grid/load", json={"text": "unruly 4x4\n1...\n"}).json()
    assert bad["error"]["line"] == 3
    unknown = api_client.post("/api/grid/generate", json={"genre": "../../etc", "size": "6x6"})
    assert unknown.status_code == 400
    job = api_client.post("/api/grid/generate", json={"genre": "unruly", "size": "40x40"}).json()
    failed = _wait(api_client, job)
    assert failed["status"] == "failed" and "limit" in failed["error"]["message"]


def test_crossnumber_solves_an_example_and_reports_the_bad_line(api_client) -> None:
    from puzzleforge.web.crossnumber_adapter import example_files

    assert "powerplay" in example_files()
    text = api_client.post("/api/crossnumber/example", json={"name": "powerplay"}).json()["text"]
    job = _wait(
        api_client,
        api_client.post(
            "/api/crossnumber/solve", json={"text": text, "name": "powerplay.yaml"}
        ).json(),
    )
    assert job["status"] == "done" and job["result"]["unique"]
    assert job["result"]["answer"] == "11449\n49364\n46656"
    broken = text.replace("A7: square", "A7: squar")
    job = _wait(
        api_client,
        api_client.post("/api/crossnumber/solve", json={"text": broken, "name": "p.yaml"}).json(),
    )
    line = 1 + broken.splitlines().index("  A7: squar")
    assert job["status"] == "failed" and job["error"]["line"] == line


@pytest.mark.parametrize("name", ["../../../etc/passwd", "/etc/passwd", "abcd/../../x"])
def test_crossnumber_examples_refuse_paths(api_client, name: str) -> None:
    response = api_client.post("/api/crossnumber/example", json={"name": name})
    assert response.status_code == 400 and "listed example" in response.json()["error"]["message"]


def test_crossnumber_file_size_is_limited(web_data_dir) -> None:
    from fastapi.testclient import TestClient

    from puzzleforge.web import WebSettings, create_app

    app = create_app(WebSettings(data_dir=web_data_dir, max_puzzle_file_bytes=100))
    with TestClient(app) as client:
        response = client.post("/api/crossnumber/solve", json={"text": "x" * 500})
    assert response.status_code == 413


def test_logic_grid_generation_reports_progress() -> None:
    from puzzleforge.web.zebra_adapter import generate_session

    seen: list[tuple[float, str]] = []
    session = generate_session(
        "t",
        K=4,
        k=4,
        difficulty=None,
        lang="en",
        seed=11,
        progress=lambda f, m: seen.append((f, m)),
    )
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and 0 < fractions[0] < fractions[-1] < 1
    assert any(m.startswith("attempt 1") for _, m in seen)
    assert session.check(session.solution_marks())["solved"] is True


@pytest.mark.parametrize("genre, mode", [("slitherlink", "edge"), ("masyu", "link")])
def test_edge_genres_are_played_on_edges(api_client, genre: str, mode: str) -> None:
    from puzzleforge.grid import api as grid_api
    from puzzleforge.grid.genres import get_genre

    job = api_client.post(
        "/api/grid/generate", json={"genre": genre, "size": "5x5", "seed": 1}
    ).json()
    view = _wait(api_client, job)["result"]
    assert view["playable"] is True and view["mode"] == mode and view["implicit_zero"] is True
    token = view["token"]
    solution = api_client.get(f"/api/grid/{token}/solution").json()["values"]
    # independent source: the engine's own solution, keyed by its Edge objects
    inst, sol, _ = grid_api.generate(genre, "5x5", 1, difficulty="any")
    var = get_genre(genre).answer_var
    expected = {f"{e.o},{e.r},{e.c}": "1" if v else "0" for e, v in sol[var].items()}
    assert solution == expected
    lines = {k: v for k, v in solution.items() if v == "1"}
    # only the loop's edges drawn (no crosses) is solved: unmarked edges count as empty
    check = api_client.post(f"/api/grid/{token}/check", json={"values": lines}).json()
    assert check == {"wrong": [], "filled": len(lines), "cells": len(expected), "solved": True}
    a_line = sorted(lines)[0]
    crossed = {**lines, a_line: "0"}
    check = api_client.post(f"/api/grid/{token}/check", json={"values": crossed}).json()
    assert check["wrong"] == [a_line] and not check["solved"]
    hint = api_client.post(f"/api/grid/{token}/hint", json={"values": {}}).json()
    assert hint["kind"] == "step" and hint["cell"] in expected
    assert hint["value"] == expected[hint["cell"]] and "(0" not in hint["reason"]
    bad = api_client.post(f"/api/grid/{token}/check", json={"values": {"h,99,0": "1"}})
    assert bad.status_code == 400


def test_rules_text_is_filled_for_the_board(api_client) -> None:
    job = api_client.post(
        "/api/grid/generate", json={"genre": "sudoku", "size": "6x6", "seed": 2}
    ).json()
    view = _wait(api_client, job)["result"]
    assert view["rules"] == (
        "Fill digits 1..6 so that every row, every column and every "
        "2 x 3 box holds each digit once."
    )
    job = api_client.post(
        "/api/grid/generate", json={"genre": "starbattle", "size": "5x5", "seed": 1}
    ).json()
    view = _wait(api_client, job)["result"]
    assert "exactly 1 star," in view["rules"] and "k stars" not in view["rules"]


def test_favicon_is_served(api_client) -> None:
    response = api_client.get("/favicon.ico")
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    assert api_client.get("/static/favicon.svg").status_code == 200


def test_crossnumber_play_check_hint_and_solution(api_client) -> None:
    text = api_client.post("/api/crossnumber/example", json={"name": "powerplay"}).json()["text"]
    job = _wait(
        api_client,
        api_client.post(
            "/api/crossnumber/play", json={"text": text, "name": "powerplay.yaml"}
        ).json(),
    )
    view = job["result"]
    token = view["token"]
    assert "solutions" not in view and "answer" not in view  # the answer stays on the server
    rows = ["11449", "49364", "46656"]  # powerplay's answer (see the solve test)
    expected = {f"{r},{c}": d for r, row in enumerate(rows) for c, d in enumerate(row)}
    assert api_client.get(f"/api/crossnumber/{token}/solution").json()["values"] == expected
    values: dict[str, str] = {}
    for _ in range(len(expected)):
        hint = api_client.post(f"/api/crossnumber/{token}/hint", json={"values": values}).json()
        if hint["kind"] != "step":
            break
        assert hint["value"] == expected[hint["cell"]] and hint["cell"] in hint["used"]
        assert hint["cell"] not in values  # never a cell already filled
        r, c = (int(x) for x in hint["cell"].split(","))
        assert hint["reason"].startswith(f"Row {r + 1}, column {c + 1} is {hint['value']}: ")
        assert hint["method"] in ("clue", "propagation") and hint["clue"] in hint["reason"]
        values[hint["cell"]] = hint["value"]
    assert values == expected
    check = api_client.post(f"/api/crossnumber/{token}/check", json={"values": values}).json()
    assert check == {"wrong": [], "filled": 15, "cells": 15, "solved": True}
    check = api_client.post(f"/api/crossnumber/{token}/check", json={"values": {"0,0": "7"}}).json()
    assert check["wrong"] == ["0,0"] and not check["solved"]
    bad = api_client.post(f"/api/crossnumber/{token}/check", json={"values": {"9,9": "1"}})
    assert bad.status_code == 400 and "not a white cell" in bad.json()["error"]["message"]


def test_crossnumber_generated_for_play_and_ambiguous_files_refused(api_client) -> None:
    from puzzleforge.core.seeding import make_rng
    from puzzleforge.crossnumber.generate import generate_puzzle

    job = _wait(
        api_client, api_client.post("/api/crossnumber/generate", json={"size": 3, "seed": 5}).json()
    )
    view = job["result"]
    text, _, _ = generate_puzzle(make_rng(5), size=3)
    assert view["text"] == text and view["seed"] == "5"
    ambiguous = "grid: |\n  ..\n  ..\nclues:\n  A1: even\n"
    job = _wait(
        api_client,
        api_client.post("/api/crossnumber/play", json={"text": ambiguous, "name": "a.yaml"}).json(),
    )
    assert job["status"] == "failed"
    assert "more than one solution, so answers cannot be checked" in job["error"]["message"]


def _page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b(?!s)", data))


def test_grid_and_crossnumber_pdf_sheets(api_client) -> None:
    job = api_client.post(
        "/api/grid/generate", json={"genre": "masyu", "size": "6x6", "seed": 1}
    ).json()
    token = _wait(api_client, job)["result"]["token"]
    sheet = api_client.get(f"/api/grid/{token}/pdf")
    assert sheet.headers["content-type"] == "application/pdf"
    assert 'filename="grid-masyu.pdf"' in sheet.headers["content-disposition"]
    assert _page_count(sheet.content) == 1
    assert _page_count(api_client.get(f"/api/grid/{token}/pdf?solution=true").content) == 2
    text = api_client.post("/api/crossnumber/example", json={"name": "powerplay"}).json()["text"]
    job = _wait(
        api_client,
        api_client.post("/api/crossnumber/play", json={"text": text, "name": "p.yaml"}).json(),
    )
    token = job["result"]["token"]
    sheet = api_client.get(f"/api/crossnumber/{token}/pdf")
    assert sheet.content.startswith(b"%PDF") and _page_count(sheet.content) == 1
    solved = api_client.get(f"/api/crossnumber/{token}/pdf?solution=true").content
    assert _page_count(solved) == 2


def test_64_bit_seeds_round_trip_as_strings(api_client) -> None:
    seed = "9223372036854775783"  # 2**63 - 25: a JSON number would be rounded in JS
    job = api_client.post(
        "/api/grid/generate", json={"genre": "unruly", "size": "4x4", "seed": seed}
    ).json()
    assert _wait(api_client, job)["result"]["seed"] == seed
