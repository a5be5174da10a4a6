"""The web server's limits against a real uvicorn on a free port: the body limit holds for
chunked uploads, and other sites' pages cannot post to the app (Origin / Sec-Fetch-Site)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from webserver import serving

from puzzleforge.web import WebSettings

LIMIT = 64 * 1024  # max_upload_bytes of the server under test
RECORD = b'{"family": "latin", "question": "q", "answer": "a"}\n'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = WebSettings(data_dir=tmp_path_factory.mktemp("limits"), max_upload_bytes=LIMIT)
    with serving(settings) as url:
        yield url


def _multipart(payload: bytes, boundary: str = "pfboundary") -> tuple[bytes, bytes, str]:
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="x.jsonl"\r\nContent-Type: application/octet-stream\r\n\r\n'
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    return head, tail, f"multipart/form-data; boundary={boundary}"


def _chunked(head: bytes, payload_chunks: Iterator[bytes], tail: bytes) -> Iterator[bytes]:
    yield head
    yield from payload_chunks
    yield tail


def test_a_chunked_upload_past_the_limit_is_refused(server: str) -> None:
    head, tail, ctype = _multipart(b"")
    sent = {"bytes": 0}

    def endless() -> Iterator[bytes]:  # 64 MB unless the server stops reading
        block = RECORD * 1000
        for _ in range(64 * 1024 * 1024 // len(block)):
            sent["bytes"] += len(block)
            yield block

    try:
        response = httpx.post(
            f"{server}/api/datasets/upload",
            content=_chunked(head, endless(), tail),
            headers={"content-type": ctype},
            timeout=60,
        )
    except (httpx.WriteError, httpx.RemoteProtocolError, httpx.ReadError):
        # the server answered and closed while we were still sending: that is the limit
        response = None
    if response is not None:
        assert response.status_code == 413, response.text
        assert response.json()["error"]["kind"] == "too large"
    assert sent["bytes"] < 16 * 1024 * 1024  # it did not swallow the whole body
    # and it still serves afterwards
    assert httpx.get(f"{server}/api/health", timeout=10).status_code == 200


def test_a_chunked_upload_within_the_limit_is_read(server: str) -> None:
    head, tail, ctype = _multipart(b"")
    body = RECORD * 20
    response = httpx.post(
        f"{server}/api/datasets/upload",
        content=_chunked(head, iter([body[:500], body[500:]]), tail),
        headers={"content-type": ctype},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    assert response.json()["count"] == 20


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://127.0.0.1:1"},  # same host, another port
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_a_cross_origin_multipart_upload_is_refused(server: str, headers: dict) -> None:
    response = httpx.post(
        f"{server}/api/datasets/upload",
        files={"file": ("x.jsonl", RECORD)},
        headers=headers,
        timeout=30,
    )
    assert response.status_code == 403, response.text
    assert "may not change anything on this server" in response.json()["error"]["message"]


def test_the_apps_own_origin_may_upload(server: str) -> None:
    response = httpx.post(
        f"{server}/api/datasets/upload",
        files={"file": ("x.jsonl", RECORD)},
        headers={"origin": server, "sec-fetch-site": "same-origin"},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    assert response.json()["count"] == 1
    # reading is not state-changing: a GET with a foreign Origin is still answered
    assert (
        httpx.get(
            f"{server}/api/health", headers={"origin": "http://evil.example"}, timeout=10
        ).status_code
        == 200
    )
