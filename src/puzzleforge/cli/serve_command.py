"""``puzzleforge serve``: the local web app (generate, play, check, hint, explain).

Why it binds to 127.0.0.1: the app reads files and runs solvers for whoever connects, so
by default only this machine can reach it. Heavy imports (FastAPI, uvicorn) stay inside
the command so the rest of the CLI starts fast and works without the ``web`` extra.
"""

from __future__ import annotations

import errno
import math
import os
import socket
import sys
from pathlib import Path
from typing import Any

import typer

from .errors import fail, run_guarded

__all__ = ["register", "bind_socket", "serve_app", "GRACE_SECONDS"]

WEB_HINT = 'install the web extra: pip install -e ".[web]"'


def register(app: typer.Typer) -> None:
    @app.command("serve")
    @run_guarded
    def serve(
        port: int = typer.Option(8765, "--port", "-p", min=1, max=65535, help="TCP port."),
        host: str = typer.Option(
            "127.0.0.1", "--host", help="Address to bind (default: this machine only)."
        ),
        data: Path = typer.Option(
            Path("."), "--data", help="Folder whose .jsonl datasets the dataset page lists."
        ),
        trust: bool = typer.Option(
            False,
            "--trust",
            help="Let the grid page load grid "
            "genre files (.py: Python code run on this server). "
            "Only with files you trust.",
        ),
    ) -> None:
        """Run the local web app on http://127.0.0.1:PORT (assets are bundled; works offline)."""
        try:
            import uvicorn  # noqa: F401 - imported here to report a missing extra clearly

            from ..web import WebSettings, create_app
        except ImportError as exc:
            raise fail(
                f"the web app needs FastAPI, uvicorn and Jinja2 ({exc.name} is missing); {WEB_HINT}"
            ) from exc
        if host not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(f"warning: binding to {host} exposes the app beyond this machine", err=True)
        hosts = WebSettings().allowed_hosts
        if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
            hosts = hosts + (host,)  # a named address may be used in the Host header too
        settings = WebSettings(
            data_dir=data.resolve() if data.is_dir() else None, allowed_hosts=hosts, trust=trust
        )
        sock = bind_socket(host, port)  # a busy port is one clear line, before any URL
        typer.echo(
            f"puzzleforge web app on http://{'127.0.0.1' if host == 'localhost' else host}:{port}/"
            "  (Ctrl-C stops it)"
        )
        serve_app(create_app(settings), sock)


#: Seconds open requests get to finish after Ctrl-C / SIGTERM before they are cut.
GRACE_SECONDS = 2.0


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or a PuzzleForgeError naming the problem.

    Why bind here rather than in uvicorn: uvicorn logs a raw bind error after we already
    printed the URL; binding first gives one clear line and no URL when the port is busy.
    """
    from ..core.errors import ConfigError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(
            f"cannot resolve --host {host!r} ({exc.strerror})",
            field="--host",
            expected="an address of this machine such as 127.0.0.1",
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        busy = exc.errno == errno.EADDRINUSE
        raise ConfigError(
            f"cannot listen on {host}:{port}: "
            + (
                "the port is already in use (another program, or another puzzleforge serve)"
                if busy
                else (exc.strerror or str(exc))
            ),
            field="--port",
            expected="a free port, e.g. --port 8766" if busy else None,
        ) from None
    sock.set_inheritable(True)
    return sock


def serve_app(app: Any, sock: socket.socket) -> None:
    """Run ``app`` on ``sock`` until Ctrl-C or SIGTERM, then exit promptly.

    Why ``os._exit`` at the end: job threads (solvers) cannot be interrupted, and Python
    joins every pool thread at exit, so a stuck job would keep the process alive after
    the server stopped. Open requests get GRACE_SECONDS; the process then ends whatever
    its threads are doing. A second signal during the grace period ends it at once.
    """
    import threading

    import uvicorn

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            # a watchdog in case shutdown itself hangs (a stuck lifespan or event loop)
            timer = threading.Timer(GRACE_SECONDS + 3.0, os._exit, args=(1,))
            timer.daemon = True
            timer.start()

    config = uvicorn.Config(
        app,
        log_level="warning",
        server_header=False,
        timeout_graceful_shutdown=math.ceil(GRACE_SECONDS),
    )
    server = _Server(config)
    code = 0
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    except BaseException:
        code = 3
        raise
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        if code == 0:
            typer.echo("stopped", err=True)
            os._exit(0)
