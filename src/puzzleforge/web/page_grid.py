"""Grid-genre page: pick a genre and size, generate, play with mouse and keyboard, check,
hint (a forced cell with its reason), reveal; paste puzzle text or a puzz.link URL."""

from __future__ import annotations

import secrets
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from . import engine_tasks
from . import grid_adapter as ga
from .errors import WebError
from .sessions import new_token

__all__ = ["router", "available", "TITLE", "PATH", "BLURB"]

TITLE = "Grid puzzles"
PATH = "/grid"
BLURB = (
    "Unruly and other grid genres: generate one or paste a puzzle (text or puzz.link "
    "URL), play with mouse or keyboard, check, ask for a forced cell and its reason."
)

router = APIRouter()


def available() -> bool:
    return ga.available()


class GenerateRequest(BaseModel):
    genre: str = Field("unruly", max_length=40)
    size: str = Field("6x6", max_length=12)
    difficulty: Literal["any", "easy", "medium", "hard"] = "any"
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class LoadRequest(BaseModel):
    text: str = Field(max_length=ga.MAX_TEXT)


class ValuesRequest(BaseModel):
    values: dict[str, str] = Field(default_factory=dict, max_length=ga.MAX_ENTRIES)


def _session(request: Request, token: str) -> ga.GridSession:
    item = request.app.state.sessions.get(token, "grid puzzle")
    if not isinstance(item, ga.GridSession):
        raise WebError("this token is not a grid puzzle", 404)
    return item


@router.get(PATH, response_class=HTMLResponse)
def page(request: Request) -> HTMLResponse:
    return request.app.state.render(
        request,
        "grid.html",
        "Grid puzzles · puzzleforge",
        genres=ga.genre_list(),
        max_side=ga.MAX_SIDE,
        # the genre-file box only where the server loads them (serve --trust)
        trust=request.app.state.settings.trust,
    )


@router.post("/api/grid/generate")
def generate(request: Request, body: GenerateRequest) -> dict[str, Any]:
    known = {g["id"] for g in ga.genre_list()}
    if body.genre not in known:
        raise WebError(f"unknown genre '{body.genre}'", field="genre")
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    state = request.app.state
    token = new_token()

    def run(progress):
        session = state.workers.run(
            engine_tasks.grid_generate,
            token,
            genre=body.genre,
            size=body.size,
            seed=seed,
            difficulty=body.difficulty,
            progress=progress,
            what="generating a grid puzzle",
            genre_files=_genre_files(state),
        )
        state.sessions.put(token, session)
        return session.view()

    return state.jobs.submit("grid", run).view()


@router.post("/api/grid/load")
async def load(request: Request, body: LoadRequest) -> dict[str, Any]:
    state = request.app.state
    token = new_token()
    session = await state.workers.run_async(
        engine_tasks.grid_load,
        token,
        body.text,
        state.settings.solve_time_limit,
        _genre_files(state),
        what="solving this grid puzzle",
    )
    state.sessions.put(token, session)
    return session.view()


class GenreFileRequest(BaseModel):
    name: str = Field(max_length=80)
    text: str = Field(max_length=256 * 1024)


def _genre_files(state: Any) -> tuple[str, ...]:
    return tuple(getattr(state, "genre_files", ()))


@router.post("/api/grid/genre-file")
def genre_file(request: Request, body: GenreFileRequest) -> dict[str, Any]:
    """Load a grid genre file (Python) sent by the page: only when the server was started
    with ``puzzleforge serve --trust``. The file is written to a folder of this server's
    own (never to a path the browser names) and loaded here and in the engine workers."""
    state = request.app.state
    if not state.settings.trust:
        raise WebError(
            "this server was started without --trust, so it does not load genre "
            "files: a genre file is Python code that runs on the server when "
            "loaded. Restart it with `puzzleforge serve --trust` to load genre "
            "files you trust, or use `puzzleforge grid ... --genre-file` on the "
            "command line",
            403,
            field="text",
        )
    import re
    import tempfile
    from pathlib import Path

    from ..grid.genrefile import load_genre_file

    folder = getattr(state, "genre_dir", None)
    if folder is None:
        folder = state.genre_dir = tempfile.mkdtemp(prefix="puzzleforge-genres-")
    stem = re.sub(r"[^0-9A-Za-z_]", "_", Path(body.name).stem)[:40] or "genre"
    path = Path(folder) / f"{stem}_{len(_genre_files(state))}.py"
    path.write_text(body.text, encoding="utf-8")
    genre = load_genre_file(path)
    state.genre_files = [*_genre_files(state), str(path)]
    rows, cols = genre.default_size
    return {
        "id": genre.id,
        "title": genre.title,
        "default_size": f"{rows}x{cols}",
        "genres": ga.genre_list(),
    }


@router.post("/api/grid/{token}/check")
async def check(request: Request, token: str, body: ValuesRequest) -> dict[str, Any]:
    session = _session(request, token)
    return await engine_tasks.play_in_worker(
        request.app.state, session, "check", body.values, what="checking this grid puzzle"
    )


@router.post("/api/grid/{token}/hint")
async def hint(request: Request, token: str, body: ValuesRequest) -> dict[str, Any]:
    session = _session(request, token)
    return await engine_tasks.play_in_worker(
        request.app.state, session, "hint", body.values, what="finding a hint for this grid puzzle"
    )


@router.get("/api/grid/{token}/solution")
def solution(request: Request, token: str) -> dict[str, Any]:
    session = _session(request, token)
    return {
        "values": session.solution_tokens(),
        "picture": None if session.playable() else session.solution_picture(),
    }


@router.get("/api/grid/{token}/pdf")
def pdf(request: Request, token: str, solution: bool = False) -> Response:
    session = _session(request, token)
    if not ga.pdf_available():
        raise WebError('PDF sheets need fpdf2 (pip install -e ".[pdf]")', 501)
    data = session.pdf(solution=solution)
    name = f"grid-{session.inst.genre}{'-solution' if solution else ''}.pdf"
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
