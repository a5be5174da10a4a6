"""API tests of the web app's skeleton: pages, safety middleware and the dataset endpoints."""

from __future__ import annotations

import pytest


def test_pages_render_with_titles_and_navigation(api_client) -> None:
    home = api_client.get("/")
    assert home.status_code == 200
    assert "<title>puzzleforge</title>" in home.text
    assert 'href="/datasets"' in home.text
    assert api_client.get("/datasets").status_code == 200
    health = api_client.get("/api/health").json()
    assert "/datasets" in health["pages"]


def test_assets_are_packaged_and_no_cdn_is_referenced(api_client) -> None:
    from puzzleforge.web.app import HERE

    for name in ("style.css", "common.js", "datasets.js"):
        assert (HERE / "static" / name).is_file()
        assert api_client.get(f"/static/{name}").status_code == 200
    for template in (HERE / "templates").glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, template.name


def test_foreign_host_header_is_refused(api_client) -> None:
    response = api_client.get("/", headers={"host": "attacker.example"})
    assert response.status_code == 403


def test_security_headers_forbid_foreign_scripts(api_client) -> None:
    csp = api_client.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp


def test_open_listed_dataset_search_and_record(api_client) -> None:
    listing = api_client.get("/api/datasets/files").json()
    assert "latin-small.jsonl" in [f["name"] for f in listing["files"]]
    view = api_client.post("/api/datasets/open", json={"name": "latin-small.jsonl"}).json()
    assert view["count"] == 6 and view["families"] == ["latin"] and view["problems"] == []
    token = view["token"]
    page = api_client.get(f"/api/datasets/{token}/records", params={"limit": 2}).json()
    assert page["total"] == 6 and [i["index"] for i in page["items"]] == [0, 1]
    record = api_client.get(f"/api/datasets/{token}/records/3").json()
    assert record["family"] == "latin" and record["line"] == 4
    assert record["explanation"] == [
        "step 1 of a made-up explanation",
        "step 2 of a made-up explanation",
    ]
    hit = api_client.get(f"/api/datasets/{token}/records", params={"q": record["id"]}).json()
    assert [i["index"] for i in hit["items"]] == [3]
    missing = api_client.get(f"/api/datasets/{token}/records/99")
    assert missing.status_code == 404 and "has 6" in missing.json()["error"]["message"]


@pytest.mark.parametrize(
    "name", ["../etc/passwd", "/etc/passwd", "latin-small.jsonl/../x", "..\\latin-small.jsonl"]
)
def test_path_traversal_is_refused(api_client, name: str) -> None:
    response = api_client.post("/api/datasets/open", json={"name": name})
    assert response.status_code == 404
    assert response.json()["error"]["message"] == f"'{name}' is not one of the listed dataset files"
    assert response.json()["error"]["field"] == "name"


def test_an_empty_dataset_name_is_refused(api_client) -> None:
    response = api_client.post("/api/datasets/open", json={"name": ""})
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "give the name of a listed dataset file"


def test_upload_reports_bad_lines_with_numbers(api_client) -> None:
    body = b'{"family": "latin", "question": "q", "answer": "a"}\n[1, 2]\n{oops\n'
    view = api_client.post("/api/datasets/upload", files={"file": ("x.jsonl", body)}).json()
    assert view["count"] == 1
    assert [p["line"] for p in view["problems"]] == [2, 3]


def test_upload_over_the_size_limit_is_refused(web_data_dir) -> None:
    from fastapi.testclient import TestClient

    from puzzleforge.web import WebSettings, create_app

    app = create_app(WebSettings(data_dir=web_data_dir, max_upload_bytes=1000))
    with TestClient(app) as client:
        response = client.post("/api/datasets/upload", files={"file": ("big.jsonl", b"x" * 5000)})
    assert response.status_code == 413
    assert "limit" in response.json()["error"]["message"]


def test_unknown_dataset_token_is_a_message_not_a_trace(api_client) -> None:
    response = api_client.get("/api/datasets/deadbeef/records")
    assert response.status_code == 404
    assert "open it again" in response.json()["error"]["message"]


def test_zebra_record_is_explained_by_the_engine(api_client) -> None:
    names = [f["name"] for f in api_client.get("/api/datasets/files").json()["files"]]
    assert "zebra-small.jsonl" in names
    token = api_client.post("/api/datasets/open", json={"name": "zebra-small.jsonl"}).json()[
        "token"
    ]
    record = api_client.get(f"/api/datasets/{token}/records/0").json()
    assert record["explanation"] is None and record["explainable"] is True
    steps = api_client.get(f"/api/datasets/{token}/records/0/explain").json()["steps"]
    assert steps and all(isinstance(s, str) and s for s in steps)


def test_latin_record_has_no_engine_explanation(api_client) -> None:
    token = api_client.post("/api/datasets/open", json={"name": "latin-small.jsonl"}).json()[
        "token"
    ]
    response = api_client.get(f"/api/datasets/{token}/records/0/explain")
    assert (
        response.status_code == 404
        and "no engine explanation" in response.json()["error"]["message"]
    )


def test_crossnumber_record_explained_but_foreign_paths_are_not_read(api_client) -> None:
    import orjson

    import puzzleforge

    record = puzzleforge.generate("crossnumber", seed=1, mode="file").to_record()
    crafted = orjson.loads(orjson.dumps(record))
    crafted["meta"].pop("puzzle_file", None)
    crafted["meta"]["source"] = "/etc/passwd"
    body = orjson.dumps(record) + b"\n" + orjson.dumps(crafted) + b"\n"
    token = api_client.post("/api/datasets/upload", files={"file": ("cn.jsonl", body)}).json()[
        "token"
    ]
    steps = api_client.get(f"/api/datasets/{token}/records/0/explain").json()["steps"]
    assert len(steps) > 3
    refused = api_client.get(f"/api/datasets/{token}/records/1/explain")
    assert refused.status_code == 400
    assert "not read" in refused.json()["error"]["message"]
    assert "root:" not in refused.text


def test_64_bit_seeds_reach_the_page_digit_for_digit(api_client) -> None:
    # 2**63 - 25 is not a double: as a JSON number a browser would read ...775808
    seed = 2**63 - 25
    line = (
        '{"id": "s", "family": "latin", "question": "q", "answer": "a", "seed": '
        f'{seed}, "params": {{"seed": {seed}, "n": 4}}}}\n'
    )
    token = api_client.post(
        "/api/datasets/upload", files={"file": ("s.jsonl", line.encode())}
    ).json()["token"]
    record = api_client.get(f"/api/datasets/{token}/records/0").json()
    assert record["seed"] == "9223372036854775783"
    assert record["params"] == {"seed": "9223372036854775783", "n": 4}
