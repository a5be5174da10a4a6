"""``puzzleforge serve``: the local web app (generate, play, check, hint, explain).

Why it binds to 127.0.0.1: the app reads files and runs solvers for whoever connects, so
by default only this machine can reach it. Heavy imports (FastAPI, uvicorn) stay inside
the command so the rest of the CLI starts fast and works without the ``web`` extra.
"""
from __future__ import annotations

from pathlib import Path

import typer

from .errors import fail, run_guarded

__all__ = ["register"]

WEB_HINT = 'install the web extra: pip install -e ".[web]"'


def register(app: typer.Typer) -> None:
    @app.command("serve")
    @run_guarded
    def serve(
        port: int = typer.Option(8765, "--port", "-p", min=1, max=65535, help="TCP port."),
        host: str = typer.Option("127.0.0.1", "--host",
                                 help="Address to bind (default: this machine only)."),
        data: Path = typer.Option(Path("."), "--data",
                                  help="Folder whose .jsonl datasets the dataset page lists."),
    ) -> None:
        """Run the local web app on http://127.0.0.1:PORT (assets are bundled; works offline)."""
        try:
            import uvicorn

            from ..web import WebSettings, create_app
        except ImportError as exc:
            raise fail(f"the web app needs FastAPI, uvicorn and Jinja2 ({exc.name} is "
                       f"missing); {WEB_HINT}")
        if host not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(f"warning: binding to {host} exposes the app beyond this machine", err=True)
        hosts = WebSettings().allowed_hosts
        if host not in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
            hosts = hosts + (host,)  # a named address may be used in the Host header too
        settings = WebSettings(data_dir=data.resolve() if data.is_dir() else None,
                               allowed_hosts=hosts)
        typer.echo(f"puzzleforge web app on http://{'127.0.0.1' if host == 'localhost' else host}:{port}/"
                   "  (Ctrl-C stops it)")
        uvicorn.run(create_app(settings), host=host, port=port, log_level="warning",
                    server_header=False)
