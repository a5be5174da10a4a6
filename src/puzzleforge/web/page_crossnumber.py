"""Cross-number page: paste, upload or pick a puzzle file, solve it, show the filled grid
and the solver's step log; file errors are shown next to the offending line."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from . import crossnumber_adapter as ca
from .errors import WebError

__all__ = ["router", "available", "TITLE", "PATH", "BLURB"]

TITLE = "Cross-number"
PATH = "/crossnumber"
BLURB = ("Paste or upload a cross-number puzzle file, solve it, and read the filled grid "
         "and every deduction step; mistakes in the file are shown at their line.")

router = APIRouter()


def available() -> bool:
    return ca.available()


class SolveRequest(BaseModel):
    text: str = Field(max_length=1_000_000)
    name: str = Field("puzzle.yaml", max_length=200)


class ExampleRequest(BaseModel):
    name: str = Field(max_length=200)


@router.get(PATH, response_class=HTMLResponse)
def page(request: Request) -> HTMLResponse:
    return request.app.state.render(
        request, "crossnumber.html", "Cross-number · puzzleforge",
        examples=list(ca.example_files()),
        max_kb=request.app.state.settings.max_puzzle_file_bytes // 1024)


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
        raise WebError("the puzzle file is empty; paste one, upload one or pick an example",
                       field="text")
    name = body.name.replace("\\", "/").rsplit("/", 1)[-1] or "puzzle.yaml"

    def run(progress):
        return ca.solve_text(body.text, name=name, time_limit=state.settings.solve_time_limit,
                             progress=progress)

    return state.jobs.submit("crossnumber", run).view()
