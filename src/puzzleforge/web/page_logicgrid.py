"""Logic-grid page: generate with progress, play the staircase grid, check, hint, walk
through the explained solution, rename objects and download the PDF sheets."""

from __future__ import annotations

import secrets
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from . import engine_tasks
from . import zebra_adapter as za
from .errors import WebError
from .sessions import new_token

__all__ = ["router", "available", "TITLE", "PATH", "BLURB"]

TITLE = "Logic grid"
PATH = "/logic-grid"
BLURB = (
    "Generate a logic-grid (zebra) puzzle, mark the staircase grid, check it, ask for "
    "hints with their reasons, walk through the solution, print the PDF sheet."
)

router = APIRouter()


def available() -> bool:
    return za.available()


class GenerateRequest(BaseModel):
    K: int = Field(3, ge=za.LIMITS["K"][0], le=za.LIMITS["K"][1])
    k: int = Field(4, ge=za.LIMITS["k"][0], le=za.LIMITS["k"][1])
    difficulty: Literal["", "easy", "medium", "hard", "expert"] = ""
    lang: Literal["en", "pl"] = "en"
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class MarksRequest(BaseModel):
    marks: dict[str, Literal["x", "o"]] = Field(default_factory=dict, max_length=8 * 8 * 8 * 8)


class RenameRequest(BaseModel):
    categories: list[dict[str, Any]] = Field(max_length=8)


def _session(request: Request, token: str) -> za.ZebraSession:
    item = request.app.state.sessions.get(token, "logic-grid puzzle")
    if not isinstance(item, za.ZebraSession):
        raise WebError("this token is not a logic-grid puzzle", 404)
    return item


@router.get(PATH, response_class=HTMLResponse)
def page(request: Request) -> HTMLResponse:
    return request.app.state.render(
        request, "logicgrid.html", "Logic grid · puzzleforge", limits=za.LIMITS
    )


@router.post("/api/logic-grid/generate")
def generate(request: Request, body: GenerateRequest) -> dict[str, Any]:
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    state = request.app.state
    token = new_token()

    def run(progress):
        session = state.workers.run(
            za.generate_session,
            token,
            K=body.K,
            k=body.k,
            difficulty=body.difficulty or None,
            lang=body.lang,
            seed=seed,
            progress=progress,
            what="generating a logic grid",
        )
        state.sessions.put(token, session)
        return session.view()

    return state.jobs.submit("logic-grid", run).view()


@router.get("/api/logic-grid/{token}")
def view(request: Request, token: str) -> dict[str, Any]:
    return _session(request, token).view()


@router.post("/api/logic-grid/{token}/check")
async def check(request: Request, token: str, body: MarksRequest) -> dict[str, Any]:
    session = _session(request, token)
    return await engine_tasks.play_in_worker(
        request.app.state, session, "check", body.marks, what="checking this logic-grid puzzle"
    )


@router.post("/api/logic-grid/{token}/hint")
async def hint(request: Request, token: str, body: MarksRequest) -> dict[str, Any]:
    session = _session(request, token)
    return await engine_tasks.play_in_worker(
        request.app.state,
        session,
        "hint",
        body.marks,
        what="finding a hint for this logic-grid puzzle",
    )


@router.get("/api/logic-grid/{token}/steps")
def steps(request: Request, token: str) -> dict[str, Any]:
    session = _session(request, token)
    return {"steps": session.steps(), "solution": session.solution_marks()}


@router.post("/api/logic-grid/{token}/rename")
def rename(request: Request, token: str, body: RenameRequest) -> dict[str, Any]:
    session = _session(request, token)
    session.rename(body.categories)
    return session.view()


@router.get("/api/logic-grid/{token}/pdf")
def pdf(request: Request, token: str, solution: bool = False) -> Response:
    session = _session(request, token)
    if not za.pdf_available():
        raise WebError(
            'PDF sheets need the zebra PDF module and fpdf2 (pip install -e ".[pdf]")', 501
        )
    data = session.pdf(solution=solution)
    name = f"logic-grid-{session.seed}{'-solution' if solution else ''}.pdf"
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
