"""Cross-number page: paste, upload, pick or generate a puzzle file; play it on its grid
with the clue list (check, hint, reveal) or solve it and read the solver's step log; file
errors are shown next to the offending line."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from . import crossnumber_adapter as ca
from . import engine_tasks
from .errors import WebError
from .sessions import new_token

__all__ = ["router", "available", "TITLE", "PATH", "BLURB"]

TITLE = "Cross-number"
PATH = "/crossnumber"
BLURB = (
    "Play a cross-number (bundled, uploaded or generated) with its clue list, check "
    "and hints, or solve it and read every deduction step; mistakes in the file are "
    "shown at their line."
)

router = APIRouter()


def available() -> bool:
    return ca.available()


class SolveRequest(BaseModel):
    text: str = Field(max_length=1_000_000)
    name: str = Field("puzzle.yaml", max_length=200)


class ExampleRequest(BaseModel):
    name: str = Field(max_length=200)


class GenerateRequest(BaseModel):
    size: int = Field(4, ge=3, le=5)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ValuesRequest(BaseModel):
    values: dict[str, str] = Field(default_factory=dict, max_length=ca.MAX_CELLS)


def _session(request: Request, token: str) -> ca.CrossnumberSession:
    item = request.app.state.sessions.get(token, "cross-number")
    if not isinstance(item, ca.CrossnumberSession):
        raise WebError("this token is not a cross-number being played", 404)
    return item


def _checked_text(request: Request, body: SolveRequest) -> tuple[str, str]:
    limit = request.app.state.settings.max_puzzle_file_bytes
    if len(body.text.encode("utf-8")) > limit:
        raise WebError(f"the puzzle file is larger than {limit // 1024} KB", 413, field="text")
    if not body.text.strip():
        raise WebError(
            "the puzzle file is empty; paste one, upload one or pick an example", field="text"
        )
    return body.text, body.name.replace("\\", "/").rsplit("/", 1)[-1] or "puzzle.yaml"


@router.get(PATH, response_class=HTMLResponse)
def page(request: Request) -> HTMLResponse:
    return request.app.state.render(
        request,
        "crossnumber.html",
        "Cross-number · puzzleforge",
        examples=list(ca.example_files()),
        sizes=ca.GENERATE_SIZES,
        max_kb=request.app.state.settings.max_puzzle_file_bytes // 1024,
    )


@router.post("/api/crossnumber/example")
def example(request: Request, body: ExampleRequest) -> dict[str, Any]:
    limit = request.app.state.settings.max_puzzle_file_bytes
    return {"name": body.name, "text": ca.example_text(body.name, limit)}


@router.post("/api/crossnumber/solve")
def solve(request: Request, body: SolveRequest) -> dict[str, Any]:
    state = request.app.state
    limit = state.settings.max_puzzle_file_bytes
    if len(body.text.encode("utf-8")) > limit:
        raise WebError(f"the puzzle file is larger than {limit // 1024} KB", 413, field="text")
    if not body.text.strip():
        raise WebError(
            "the puzzle file is empty; paste one, upload one or pick an example", field="text"
        )
    name = body.name.replace("\\", "/").rsplit("/", 1)[-1] or "puzzle.yaml"

    def run(progress):
        return state.workers.run(
            ca.solve_text,
            body.text,
            name=name,
            time_limit=state.settings.solve_time_limit,
            progress=progress,
            what="solving this cross-number",
        )

    return state.jobs.submit("crossnumber", run).view()


@router.post("/api/crossnumber/play")
def play(request: Request, body: SolveRequest) -> dict[str, Any]:
    state = request.app.state
    text, name = _checked_text(request, body)
    token = new_token()

    def run(progress):
        session = state.workers.run(
            ca.play_session,
            token,
            text,
            name=name,
            time_limit=state.settings.solve_time_limit,
            progress=progress,
            what="solving this cross-number",
        )
        state.sessions.put(token, session)
        return session.view()

    return state.jobs.submit("crossnumber", run).view()


@router.post("/api/crossnumber/generate")
def generate(request: Request, body: GenerateRequest) -> dict[str, Any]:
    state = request.app.state
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    token = new_token()

    def run(progress):
        session = state.workers.run(
            ca.generate_session,
            token,
            size=body.size,
            seed=seed,
            progress=progress,
            what="generating a cross-number",
        )
        state.sessions.put(token, session)
        return {**session.view(), "seed": str(seed)}

    return state.jobs.submit("crossnumber", run).view()


@router.post("/api/crossnumber/{token}/check")
async def check(request: Request, token: str, body: ValuesRequest) -> dict[str, Any]:
    session = _session(request, token)
    return await engine_tasks.play_in_worker(
        request.app.state, session, "check", body.values, what="checking this cross-number puzzle"
    )


@router.post("/api/crossnumber/{token}/hint")
async def hint(request: Request, token: str, body: ValuesRequest) -> dict[str, Any]:
    session = _session(request, token)
    return await engine_tasks.play_in_worker(
        request.app.state,
        session,
        "hint",
        body.values,
        what="finding a hint for this cross-number puzzle",
    )


@router.get("/api/crossnumber/{token}/solution")
def solution(request: Request, token: str) -> dict[str, Any]:
    session = _session(request, token)
    return {"values": {k: v for k, v in session.cells.items() if k not in session.givens}}


@router.get("/api/crossnumber/{token}/pdf")
def pdf(request: Request, token: str, solution: bool = False) -> Response:
    session = _session(request, token)
    if not ca.pdf_available():
        raise WebError('PDF sheets need fpdf2 (pip install -e ".[pdf]")', 501)
    data = session.pdf(solution=solution)
    name = f"crossnumber{'-solution' if solution else ''}.pdf"
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
