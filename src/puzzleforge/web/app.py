"""The FastAPI app factory: pages, JSON API, packaged assets and the safety middleware.

Why a factory: tests build an app per settings object, and ``puzzleforge serve`` builds
one for uvicorn. Every asset is served from the package (no CDN, works offline). Pages
whose engine is missing are left out of the navigation rather than faked.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from .datasets import DatasetStore
from .datasets import router as dataset_router
from .errors import install_error_handlers
from .jobs import JobStore
from .sessions import SessionStore
from .settings import WebSettings
from .workers import EngineWorkers

__all__ = ["create_app", "PAGES", "HERE"]

HERE = Path(__file__).resolve().parent

#: Page modules: each has ``router``, ``TITLE``, ``PATH``, ``BLURB`` and ``available()``
#: (False when the engine it needs is not importable, so the page is left out).
PAGES: tuple[str, ...] = (
    "puzzleforge.web.page_logicgrid",
    "puzzleforge.web.page_grid",
    "puzzleforge.web.page_crossnumber",
)

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'"
)


def _load_pages() -> list[Any]:
    pages = []
    for name in PAGES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if module.available():
            pages.append(module)
    return pages


class _BodyTooLarge(Exception):
    """Raised from ``receive`` once a request body passes the limit (chunked ones too)."""


#: Methods that change state: they must come from this app's own pages (Origin check).
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _json(status: int, kind: str, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"kind": kind, "message": message}},
        status_code=status,
        headers={"connection": "close"} if status == 413 else None,
    )


def cross_origin(method: str, headers: dict[str, str]) -> str | None:
    """Why a state-changing request is refused as cross-site (None when it is fine).

    A browser sends ``Origin`` on every cross-origin POST (form or fetch), and
    ``Sec-Fetch-Site`` on every request; a page elsewhere (or a sandboxed ``null`` origin)
    must not upload files or start jobs here. Requests without either header come from
    non-browser clients (curl, scripts), which a web page cannot forge.
    """
    if method not in UNSAFE_METHODS:
        return None
    site = headers.get("sec-fetch-site", "")
    if site and site not in ("same-origin", "none"):
        return f"a {site} request"
    origin = headers.get("origin")
    if origin is None:
        return None
    scheme, _, netloc = origin.partition("://")
    if scheme not in ("http", "https") or netloc.lower() != headers.get("host", "").lower():
        return f"a request from origin {origin!r}"
    return None


class _Guard:
    """ASGI middleware: refuse foreign Host headers, cross-site state changes and oversized
    bodies; add security headers.

    The Host check defeats DNS-rebinding pages from reaching this local server; the Origin
    check stops any other site's page from posting to it (cross-site request forgery). The
    body limit counts the bytes actually received, so a ``Transfer-Encoding: chunked``
    upload (no Content-Length) is cut off at the limit too instead of being spooled whole.
    """

    def __init__(self, app: Any, settings: WebSettings) -> None:
        self.app = app
        self.hosts = {h.lower() for h in settings.allowed_hosts}
        self.max_body = settings.max_upload_bytes + (1 << 20)  # room for multipart framing

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        hostname = host.rsplit(":", 1)[0] if not host.startswith("[") else host.split("]")[0] + "]"
        if hostname.lower() not in self.hosts:
            await _json(403, "forbidden", "this local server only answers to localhost")(
                scope, receive, send
            )
            return
        refused = cross_origin(scope.get("method", "GET").upper(), headers)
        if refused is not None:
            await _json(
                403,
                "forbidden",
                f"{refused} may not change anything on this server; use the app's own pages",
            )(scope, receive, send)
            return
        too_large = _json(
            413,
            "too large",
            f"the request is larger than the upload limit of {self.max_body // (1024 * 1024)} MB",
        )
        length = headers.get("content-length")
        if length and length.isdigit() and int(length) > self.max_body:
            await too_large(scope, receive, send)
            return

        received = 0
        state = {"over": False, "started": False}

        async def counted_receive() -> dict:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    state["over"] = True
                    raise _BodyTooLarge()
            return message

        async def send_with_headers(message: dict) -> None:
            if state["over"]:
                return  # whatever the app makes of the cut-off body, the answer is our 413
            if message["type"] == "http.response.start":
                state["started"] = True
                extra = [
                    (b"content-security-policy", CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        with suppress(_BodyTooLarge):
            await self.app(scope, counted_receive, send_with_headers)
        if state["over"] and not state["started"]:
            await too_large(scope, receive, send)


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """Build the web app for ``settings`` (defaults: no data folder, safe limits)."""
    settings = settings or WebSettings()
    jobs = JobStore(settings.job_workers, settings.max_jobs)
    workers = EngineWorkers(
        settings.engine_slots,
        settings.engine_seconds,
        settings.engine_memory_mb,
        settings.engine_queue_seconds,
        settings.engine_request_threads,
        settings.play_workers,
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        workers.warm_up()
        yield
        workers.shutdown()
        jobs.shutdown()

    app = FastAPI(
        title="puzzleforge", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.settings = settings
    app.state.jobs = jobs
    app.state.workers = workers
    app.state.datasets = DatasetStore(settings.max_datasets_open)
    app.state.sessions = SessionStore()
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.state.templates = templates
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    pages = _load_pages()
    nav = [{"path": "/", "title": "Home"}]
    nav += [{"path": p.PATH, "title": p.TITLE} for p in pages]
    nav.append({"path": "/datasets", "title": "Datasets"})
    app.state.nav = nav

    def render(request: Request, template: str, title: str, **context: Any) -> HTMLResponse:
        return templates.TemplateResponse(
            request, template, {"title": title, "nav": nav, "path": request.url.path, **context}
        )

    app.state.render = render

    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> HTMLResponse:
        cards = [{"path": p.PATH, "title": p.TITLE, "blurb": p.BLURB} for p in pages]
        cards.append(
            {
                "path": "/datasets",
                "title": "Datasets",
                "blurb": "Open a JSONL dataset made by puzzleforge generate; browse "
                "and search its puzzles, answers and explanations.",
            }
        )
        return render(request, "index.html", "puzzleforge", cards=cards)

    @app.get("/datasets", response_class=HTMLResponse)
    def datasets_page(request: Request) -> HTMLResponse:
        return render(
            request,
            "datasets.html",
            "Datasets · puzzleforge",
            max_mb=settings.max_upload_bytes // (1024 * 1024),
        )

    @app.get("/api/jobs/{job_id}")
    def job_status(request: Request, job_id: str) -> dict[str, Any]:
        return app.state.jobs.get(job_id).view()

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        # browsers and tools ask for /favicon.ico even when the page links the SVG icon
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "pages": [p.PATH for p in pages] + ["/datasets"]}

    app.include_router(dataset_router)
    for page in pages:
        app.include_router(page.router)

    app.add_middleware(_Guard, settings=settings)
    return app
