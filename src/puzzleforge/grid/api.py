"""What the CLI and the web app call: generate, parse, solve, forced cells, hints, render.

Why one module: callers never touch the DSL or the solver; a puzzle is a genre id plus
instance text (or a puzz.link URL), and every answer comes back as plain data.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.errors import AmbiguousPuzzle, InvalidDescription, Unsatisfiable
from .generator import generate_instance
from .genre import Genre, Instance, parse_size
from .genres import genre_ids, get_genre
from .hints import Hint, next_hint
from .hints import explain as explain_steps
from .render import render_svg, render_terminal

__all__ = [
    "generate",
    "parse_puzzle",
    "solve",
    "count",
    "is_unique",
    "forced_cells",
    "hint",
    "explain",
    "text",
    "svg",
    "smtlib",
    "answer_text",
    "Hint",
    "to_url",
    "from_url",
    "rules_text",
]


def generate(
    genre_id: str,
    size: str | tuple = "",
    seed: int = 0,
    *,
    difficulty: str = "any",
    density: float | None = None,
    opts: dict | None = None,
) -> tuple[Instance, dict, float]:
    """A unique puzzle: (instance, solution, difficulty proxy)."""
    from .generator import TIERS

    if difficulty not in TIERS:
        from ..core.errors import ConfigError

        raise ConfigError(
            f"difficulty {difficulty!r}", field="difficulty", expected="one of " + ", ".join(TIERS)
        )
    g = get_genre(genre_id)
    rows, cols = parse_size(size) if isinstance(size, str) and size else (size or g.default_size)
    o = g.default_opts(rows, cols)
    o.update(opts or {})
    problems = g.check_size(rows, cols, o)
    if problems:
        from ..core.errors import ConfigError

        raise ConfigError("; ".join(problems), field="size")
    inst, sol, diff, _ = generate_instance(
        g, rows, cols, o, random.Random(seed), tier=difficulty, density=density
    )
    return inst, sol, diff


def parse_puzzle(text: str) -> tuple[Genre, Instance]:
    """Instance text (first word = genre id), Janko text or a puzz.link URL."""
    stripped = text.strip()
    from .formats.janko import looks_like_janko

    if looks_like_janko(stripped):  # janko.at text (either layout) or a saved page
        from .formats.janko_genres import parse_janko

        inst = parse_janko(stripped)[0]
        return get_genre(inst.genre), inst
    if (
        stripped.startswith(("http://", "https://"))
        or "?" in stripped.split("\n")[0]
        and "/" in stripped
    ):
        return from_url(stripped)
    # the genre is the first word of the first line that is not a ';' comment
    body = [ln for ln in stripped.splitlines() if ln.strip() and not ln.lstrip().startswith(";")]
    words = body[0].split() if body else []
    if not words:
        raise InvalidDescription("empty puzzle text", expected="'<genre> RxC' then the grid")
    gid = words[0].lower()
    if gid not in genre_ids():
        raise InvalidDescription(
            f"unknown genre {words[0]!r} on the first line",
            line=1,
            expected="one of "
            + ", ".join(genre_ids())
            + " (or load your own with --genre-file FILE.py)",
        )
    g = get_genre(gid)
    return g, g.parse(stripped)


def _comp(inst: Instance) -> Any:
    return get_genre(inst.genre).compile(inst)


def solve(inst: Instance, time_limit: float | None = 60.0) -> dict | None:
    return _comp(inst).solve(inst.clues, time_limit=time_limit)


def count(inst: Instance, limit: int = 10) -> int:
    return _comp(inst).count(inst.clues, limit)


def is_unique(inst: Instance) -> tuple[str, list]:
    return _comp(inst).is_unique(inst.clues)


def forced_cells(inst: Instance) -> dict:
    """{(var, entity): value} for entries equal in every solution."""
    return _comp(inst).forced(inst.clues)


def hint(inst: Instance, known: dict | None = None) -> Hint | None:
    """The easiest deduction available now (``known`` = {(var name, entity): value}
    already filled in), with its reason and evidence: see ``grid.hints``."""
    return next_hint(get_genre(inst.genre), inst, known)


def explain(inst: Instance, limit: int | None = None) -> list[Hint]:
    """The step-by-step solution from an empty board, one hint after another."""
    return explain_steps(get_genre(inst.genre), inst, limit)


def answer_text(inst: Instance, sol: dict) -> str:
    return get_genre(inst.genre).answer_text(inst, sol)


def text(inst: Instance, sol: dict | None = None) -> str:
    g = get_genre(inst.genre)
    return render_terminal(g.drawing(inst, sol))


def svg(inst: Instance, sol: dict | None = None) -> str:
    g = get_genre(inst.genre)
    return render_svg(g.drawing(inst, sol))


def smtlib(inst: Instance) -> str:
    from .smtlib import to_smtlib

    return to_smtlib(_comp(inst), inst.clues)


def rules_text(genre_id: str) -> str:
    g = get_genre(genre_id)
    return g.describe_rules() + "\n\n" + g.rules.pretty()


def to_url(inst: Instance) -> str:
    from .puzzlink import encode_url

    return encode_url(inst)


def from_url(url: str) -> tuple[Genre, Instance]:
    from .puzzlink import decode_url

    inst = decode_url(url)
    return get_genre(inst.genre), inst


def require_unique(inst: Instance) -> dict:
    status, sols = is_unique(inst)
    if status == "none":
        raise Unsatisfiable(f"this {inst.genre} puzzle has no solution")
    if status == "multiple":
        raise AmbiguousPuzzle(f"this {inst.genre} puzzle has more than one solution")
    return sols[0]
