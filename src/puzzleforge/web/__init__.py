"""Local web app (``puzzleforge serve``): generate, play, check, hint and explain puzzles.

Why a package of its own: the web app is a midend like the CLI. It talks to the engines
through small adapters kept here (one module per page), so engines stay free of HTTP and
the app degrades page by page when an engine is absent.
"""

from __future__ import annotations

from .app import create_app
from .settings import WebSettings

__all__ = ["create_app", "WebSettings"]
