"""What the CLI and the web app call: generate, parse, solve, forced cells, hints, render.

Why one module: callers never touch the DSL or the solver; a puzzle is a genre id plus
instance text (or a puzz.link URL), and every answer comes back as plain data.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.errors import AmbiguousPuzzle, InvalidDescription, Unsatisfiable
from .generator import generate_instance, grade
from .genre import Genre, Instance, parse_size
from .genres import GENRES, get_genre
from .render import render_svg, render_terminal
from .topology import Cell

__all__ = ["generate", "parse_puzzle", "solve", "count", "is_unique", "forced_cells", "hint",
           "text", "svg", "smtlib", "answer_text", "Hint", "to_url", "from_url", "rules_text"]


def generate(genre_id: str, size: str | tuple = "", seed: int = 0, *, difficulty: str = "any",
             density: float | None = None, opts: dict | None = None) -> tuple[Instance, dict, float]:
    """A unique puzzle: (instance, solution, difficulty proxy)."""
    from .generator import TIERS

    if difficulty not in TIERS:
        from ..core.errors import ConfigError

        raise ConfigError(f"difficulty {difficulty!r}", field="difficulty",
                          expected="one of " + ", ".join(TIERS))
    g = get_genre(genre_id)
    rows, cols = parse_size(size) if isinstance(size, str) and size else (size or g.default_size)
    o = g.default_opts(rows, cols)
    o.update(opts or {})
    problems = g.check_size(rows, cols, o)
    if problems:
        from ..core.errors import ConfigError

        raise ConfigError("; ".join(problems), field="size")
    inst, sol, diff, _ = generate_instance(g, rows, cols, o, random.Random(seed), tier=difficulty,
                                           density=density)
    return inst, sol, diff


def parse_puzzle(text: str) -> tuple[Genre, Instance]:
    """Instance text (first word = genre id), Janko text or a puzz.link URL."""
    stripped = text.strip()
    from .formats.janko import looks_like_janko

    if looks_like_janko(stripped):  # janko.at text (either layout) or a saved page
        from .formats.janko import parse_janko

        inst = parse_janko(stripped)[0]
        return get_genre(inst.genre), inst
    if stripped.startswith(("http://", "https://")) or "?" in stripped.split("\n")[0] and "/" in stripped:
        return from_url(stripped)
    words = stripped.split()
    if not words:
        raise InvalidDescription("empty puzzle text", expected="'<genre> RxC' then the grid")
    gid = words[0].lower()
    if gid not in GENRES:
        raise InvalidDescription(f"unknown genre {words[0]!r} on the first line", line=1,
                                 expected="one of " + ", ".join(GENRES))
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


@dataclass
class Hint:
    var: str
    entity: Any
    value: Any
    reason: str
    level: str  # "propagation" | "probing" | "search"


def _place_text(p: Any) -> str:
    if isinstance(p, Cell):
        return f"({p.r},{p.c})"
    return repr(p)


def hint(inst: Instance, known: dict | None = None) -> Hint | None:
    """One entry the player can deduce next, with a reason.

    ``known`` = {(var name, entity): value} already filled in. Prefers an entry fixed by
    propagation alone and names a minimal set of clues that forces it.
    """
    g = get_genre(inst.genre)
    comp = g.compile(inst)
    known = known or {}
    base = comp.assumptions(inst.clues)
    kn_lits = []
    lit_of = {}
    for name, e, rep, dom in comp.answer:
        lit_of[(name, e)] = rep
        if (name, e) in known:
            v = known[(name, e)]
            kn_lits.append((rep if v else -rep) if isinstance(rep, int) else rep.eq[v])
    ok, lits = comp.propagate(base + kn_lits)
    if not ok:
        return None
    board_ok, board_lits = comp.propagate(kn_lits)  # what the board alone (no clue) forces
    trivial_lits = board_lits if board_ok else set()
    for name, e, rep, dom in comp.answer:
        if (name, e) in known:
            continue
        value = None
        if isinstance(rep, int):
            if rep in lits:
                value = True
            elif -rep in lits:
                value = False
        else:
            value = next((v for v, l in rep.eq.items() if l in lits), None)
        if value is None:
            continue
        target = (rep if value else -rep) if isinstance(rep, int) else rep.eq[value]
        if target in trivial_lits:
            continue  # follows from the board alone (a wall, a fixed run): not worth a hint
        # minimal clue set by deletion (propagation stays the proof)
        clue_items = [(n, p, v) for n, d in sorted(inst.clues.items()) for p, v in sorted(d.items(), key=repr)]
        needed = list(clue_items)
        for item in list(clue_items):
            trial = [x for x in needed if x != item]
            sub: dict = {}
            for n, p, v in trial:
                sub.setdefault(n, {})[p] = v
            ok2, l2 = comp.propagate(comp.assumptions(sub) + kn_lits)
            if ok2 and target in l2:
                needed = trial
        shown = g.token(value)
        because = ", ".join(f"{n} {g.token(v) if not isinstance(v, str) else v} at {_place_text(p)}"
                            for n, p, v in needed[:8])
        because = f"the clues {because}" if because else "no clue at all (the rules alone)"
        more = "" if len(needed) <= 8 else f" and {len(needed) - 8} more"
        filled = f" and the {len(kn_lits)} cells already filled" if kn_lits else ""
        return Hint(name, e, value,
                    f"cell {_place_text(e)} must be {shown} because the rules leave no other value "
                    f"with {because}{more}{filled}", "propagation")
    # no propagation step: use the exact solver (forced in every solution)
    forced = comp.forced(inst.clues)
    for (name, e), value in sorted(forced.items(), key=lambda kv: repr(kv[0])):
        if (name, e) not in known:
            return Hint(name, e, value, f"cell {_place_text(e)} must be {g.token(value)}: every solution "
                        "has this value here (found by search, not by a single deduction)", "search")
    return None


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
