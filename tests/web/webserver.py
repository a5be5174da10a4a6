"""A real uvicorn server for the web tests: one way to start and stop it.

Why a helper of its own: the browser tests (conftest.py), the worker tests and the limit
tests each need the app behind a real HTTP server (chunked uploads, Origin headers,
killable engine workers cannot be tested through the in-process test client), each with
settings of its own. The server binds 127.0.0.1 on a free port, runs in a daemon thread,
and is told to exit when the ``with`` block ends. ``watched_page`` is the browser side: one
page on such a server whose JavaScript errors fail the test, for every page fixture.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from puzzleforge.web import WebSettings, create_app


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(settings: WebSettings, start_seconds: float = 30.0, app: Any = None) -> Iterator[str]:
    """The app with ``settings`` (or ``app``, built by the caller who wants its state)
    behind uvicorn; yields its base URL (``http://127.0.0.1:N``).

    Raises RuntimeError when the server has not started within ``start_seconds``.
    """
    import uvicorn

    port = free_port()
    config = uvicorn.Config(
        app or create_app(settings), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True, name="pf-web-test-server")
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test web server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@contextmanager
def watched_page(browser: Any, base_url: str, timeout_ms: int) -> Iterator[Any]:
    """A fresh Playwright page on ``base_url``; JavaScript errors fail the test at the end.

    HTTP error answers (tested on purpose) log "Failed to load resource"; those are not
    JavaScript errors and are let through.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url)
    pg = context.new_page()
    pg.set_default_timeout(timeout_ms)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield pg
    context.close()
    real = [e for e in errors if not e.startswith("Failed to load resource")]
    assert not real, f"browser errors: {real}"
