"""Turn failures into JSON a page can show beside the input that caused them.

Why: the brief says errors appear in the page, never as a server trace. A
``PuzzleForgeError`` keeps its line/field so the cross-number page can mark the
offending line; anything else is logged server-side and reported as an internal error.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..core.errors import PuzzleForgeError
from ..core.limits import LIMIT_EXIT

__all__ = ["WebError", "error_payload", "install_error_handlers"]

log = logging.getLogger("puzzleforge.web")


class WebError(Exception):
    """A request the web layer refuses (bad size, unknown id...), with an HTTP status."""

    def __init__(
        self, message: str, status: int = 400, *, field: str | None = None, line: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.line = line


def error_payload(exc: BaseException) -> dict[str, Any]:
    """The JSON body describing ``exc`` for a page: kind, message, line, field."""
    if isinstance(exc, PuzzleForgeError):
        return {
            "error": {
                "kind": exc.kind,
                "message": str(exc),
                "problem": exc.problem,
                "line": exc.line,
                "field": exc.field,
                "expected": exc.expected,
            }
        }
    if isinstance(exc, WebError):
        return {
            "error": {
                "kind": "invalid request",
                "message": exc.message,
                "line": exc.line,
                "field": exc.field,
            }
        }
    return {
        "error": {
            "kind": "internal error",
            "message": f"internal error ({type(exc).__name__}); this is a bug in "
            "puzzleforge, the server log has the details",
            "line": None,
            "field": None,
        }
    }


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for item in exc.errors():
        where = ".".join(str(p) for p in item.get("loc", ()) if p not in ("body", "query"))
        parts.append(f"{where}: {item.get('msg', 'invalid')}" if where else item.get("msg", ""))
    return "; ".join(parts) or "invalid request"


def install_error_handlers(app: Any) -> None:
    """Register the handlers that keep every error a short JSON message."""

    @app.exception_handler(PuzzleForgeError)
    async def _puzzleforge(_: Request, exc: PuzzleForgeError) -> JSONResponse:
        # a limit that stopped the work (LimitExceeded, exit status 4) is the server's
        # refusal to go on, not a bad request: 503, like a worker killed at its deadline
        status = 503 if getattr(exc, "exit_code", None) == LIMIT_EXIT else 400
        return JSONResponse(error_payload(exc), status_code=status)

    @app.exception_handler(WebError)
    async def _web(_: Request, exc: WebError) -> JSONResponse:
        return JSONResponse(error_payload(exc), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            {
                "error": {
                    "kind": "invalid request",
                    "message": _validation_message(exc),
                    "line": None,
                    "field": None,
                }
            },
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Any:
        wants_page = "text/html" in request.headers.get(
            "accept", ""
        ) and not request.url.path.startswith("/api/")
        render = getattr(request.app.state, "render", None)
        if wants_page and render is not None:
            message = (
                "There is no page at this address." if exc.status_code == 404 else str(exc.detail)
            )
            response = render(
                request,
                "error.html",
                f"Error {exc.status_code} · puzzleforge",
                heading=f"Error {exc.status_code}",
                message=message,
            )
            response.status_code = exc.status_code
            return response
        return JSONResponse(
            {"error": {"kind": "http", "message": str(exc.detail), "line": None, "field": None}},
            status_code=exc.status_code,
        )

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error in web request", exc_info=exc)
        return JSONResponse(error_payload(exc), status_code=500)
