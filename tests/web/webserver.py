"""A real uvicorn server for the web tests: one way to start and stop it.

Why a helper of its own: the browser tests (conftest.py), the worker tests and the limit
tests each need the app behind a real HTTP server (chunked uploads, Origin headers,
killable engine workers cannot be tested through the in-process test client), each with
settings of its own. The server binds 127.0.0.1 on a free port, runs in a daemon thread,
and is told to exit when the ``with`` block ends.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from puzzleforge.web import WebSettings, create_app


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(settings: WebSettings, start_seconds: float = 30.0) -> Iterator[str]:
    """The app with ``settings`` behind uvicorn; yields its base URL (``http://127.0.0.1:N``).

    Raises RuntimeError when the server has not started within ``start_seconds``.
    """
    import uvicorn

    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
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
