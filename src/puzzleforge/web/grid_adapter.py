"""Adapter between the grid-genre page and the grid engine's API (``puzzleforge.grid.api``).

Why here: the page plays any genre whose answer is one value per cell (Unruly, Binairo,
Sudoku...). It needs the answer cells, their possible values, the givens and the
solution as tokens keyed ``"r,c"`` (cells) or ``"h,r,c"`` / ``"v,r,c"`` (the engine's
``Edge``: loop segments of Slitherlink, links between cell centres of Masyu); the engine
speaks in ``Cell``/``Edge`` objects, solver literals and Python values.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from ..core.errors import ConfigError, InvalidAnswer, InvalidDescription

__all__ = [
    "GridSession",
    "available",
    "genre_list",
    "generate_session",
    "load_session",
    "MAX_SIDE",
    "MAX_TEXT",
]

#: Binary genres whose "1" is an object placed in a cell rather than a shaded cell:
#: genre -> (name of 1, name of 0, symbol drawn for 1).
PLACED = {"lightup": ("a bulb", "no bulb", "●"), "starbattle": ("a star", "no star", "★")}

MAX_SIDE = 12  # the page's board limit (keeps solving and hints interactive)
MAX_TEXT = 20_000  # characters of pasted puzzle text or URL
MAX_ENTRIES = 2 * MAX_SIDE * (MAX_SIDE + 1)  # edges of the largest board (cells are fewer)


def pdf_available() -> bool:
    try:
        importlib.import_module("fpdf")
    except ImportError:
        return False
    return True


def available() -> bool:
    try:
        importlib.import_module("puzzleforge.grid.api")
    except ImportError:
        return False
    return True


def _api() -> Any:
    return importlib.import_module("puzzleforge.grid.api")


def _genres() -> Any:
    return importlib.import_module("puzzleforge.grid.genres")


def _genre_module() -> Any:
    return importlib.import_module("puzzleforge.grid.genre")


def genre_list() -> list[dict[str, Any]]:
    """The genres whose module is present, with their size rules, Unruly first."""
    out = []
    mod = _genres()
    for gid in mod.genre_ids():  # built-in, then genre files the server loaded (--trust)
        try:
            g = mod.get_genre(gid)
        except (ImportError, AttributeError):
            continue
        rows, cols = g.default_size
        sample = _genre_module().Instance(gid, rows, cols, opts=g.default_opts(rows, cols))
        out.append(
            {
                "id": gid,
                "title": g.title,
                "rules": filled_rules(g, sample) + f" (for the default {rows}x{cols})",
                "default_size": "{}x{}".format(*g.default_size),
                "even": bool(g.even),
                "square": bool(g.square),
                "min": g.min_size,
                # tiers not offered at the default size, with the reason (greyed out)
                "refused": {
                    t: why
                    for t in ("easy", "medium", "hard")
                    if (why := g.tier_problem(t, rows, cols, sample.opts))
                },
                "max": min(g.max_size, MAX_SIDE),
            }
        )
    out.sort(key=lambda item: item["id"] != "unruly")
    return out


def _key(entity: Any) -> str:
    """``"r,c"`` for a cell, ``"h,r,c"`` / ``"v,r,c"`` for an edge (0-based, as the engine)."""
    if hasattr(entity, "o"):
        return f"{entity.o},{entity.r},{entity.c}"
    return f"{entity.r},{entity.c}"


#: Binary genres where an unmarked entry simply means "0" (no line, no bulb, unshaded), so
#: a player need not mark every empty one: everything except the two-colour genres.
TWO_COLOUR = {"unruly", "binairo"}


def filled_rules(genre: Any, inst: Any) -> str:
    """The rules text with 1..n, bh x bw and k stars filled in for this board."""
    return importlib.import_module("puzzleforge.grid.rules_text").filled_rules(genre, inst)


@dataclasses.dataclass
class GridSession:
    token: str
    inst: Any
    sol: dict
    seed: int | None = None
    difficulty: float | None = None

    @property
    def genre(self) -> Any:
        return _genres().get_genre(self.inst.genre)

    def _answer(self) -> list[tuple[str, Any, Any, Any]]:
        if not hasattr(self, "_answer_cache"):
            self._answer_cache = self.genre.compile(self.inst).answer
        return self._answer_cache

    def values(self) -> list[str]:
        """The tokens a cell can take, in the order a click cycles through them."""
        _, _, rep, dom = self._answer()[0]
        if isinstance(rep, int):
            return ["1", "0"]
        return [self.genre.token(v) for v in sorted(rep.eq)]

    def mode(self) -> str:
        """How the page plays it: "cell" (a value per cell), "edge" (segments along the grid
        lines, Slitherlink) or "link" (segments between cell centres, Masyu)."""
        first = self._answer()[0][1] if self._answer() else None
        if type(first).__name__ != "Edge":
            return "cell"
        inner = all(
            0 < e.r < self.inst.rows if e.o == "h" else 0 < e.c < self.inst.cols
            for _, e, _, _ in self._answer()
        )
        return "link" if inner else "edge"

    def implicit_zero(self) -> bool:
        """True when an unmarked entry counts as "0" (no line, no bulb, unshaded)."""
        return self.values() == ["1", "0"] and self.inst.genre not in TWO_COLOUR

    def playable(self) -> bool:
        names = {name for name, *_ in self._answer()}
        kinds = {type(e).__name__ for _, e, _, _ in self._answer()}
        return len(names) == 1 and len(kinds) == 1 and kinds <= {"Cell", "Edge"}

    def solution_tokens(self) -> dict[str, str]:
        g = self.genre
        return {
            _key(e): g.token(self.sol[name][e])
            for name, e, _, _ in self._answer()
            if name in self.sol and e in self.sol[name]
        }

    def solution_picture(self) -> str:
        """The engine's text drawing of the solved puzzle (for genres not played by cell)."""
        return _api().text(self.inst, self.sol)

    def given_tokens(self) -> dict[str, str]:
        """Cells the player does not fill: given values, plus cells the puzzle drawing
        marks (clue numbers of Nurikabe, walls of Light Up), with their solved value."""
        g = self.genre
        answer_cells = {e for _, e, _, _ in self._answer()}
        given = self.inst.clues.get("given", {})
        out = {_key(c): g.token(v) for c, v in given.items() if c in answer_cells}
        drawing = g.drawing(self.inst, None)
        solved = self.solution_tokens()
        for cell in list(drawing.text) + list(drawing.shaded):
            key = _key(cell)
            if cell in answer_cells and key not in out and key in solved:
                out[key] = solved[key]
        return out

    def view(self) -> dict[str, Any]:
        g = self.genre
        api = _api()
        drawing = g.drawing(self.inst, None)
        url = None
        if getattr(g, "puzzlink_name", None):
            try:
                url = api.to_url(self.inst)
            except Exception:  # noqa: BLE001 - the URL is a convenience, never an error
                url = None
        return {
            "token": self.token,
            "genre": self.inst.genre,
            "title": g.title,
            "rules": filled_rules(g, self.inst),
            "rows": self.inst.rows,
            "cols": self.inst.cols,
            "mode": self.mode(),
            "implicit_zero": self.implicit_zero(),
            "values": self.values(),
            "binary": self.values() == ["1", "0"],
            "placed": list(PLACED[self.inst.genre]) if self.inst.genre in PLACED else None,
            "givens": self.given_tokens(),
            "playable": self.playable(),
            "seed": None if self.seed is None else str(self.seed),  # exact in JS
            "difficulty": self.difficulty,
            "text": g.format(self.inst),
            "url": url,
            "picture": None if self.playable() else api.text(self.inst),
            "drawing": {
                "text": {_key(c): t for c, t in drawing.text.items()},
                "walls": sorted(_key(c) for c in drawing.shaded),
                "between": [[e.o, e.r, e.c, sym] for e, sym in drawing.between.items()],
                "regions": {_key(c): str(r) for c, r in drawing.regions.items()},
                "outside": [[side, idx, t] for (side, idx), t in drawing.outside.items()],
                "circles": {_key(c): t for c, t in drawing.circles.items()},
            },
        }

    def pdf(self, solution: bool) -> bytes:
        """The printable sheet (``grid.pdf``), with a solution page when asked."""
        sheet = importlib.import_module("puzzleforge.grid.pdf").sheet_bytes
        return sheet(
            self.inst, self.sol if solution else None, seed=self.seed, difficulty=self.difficulty
        )

    def _read(self, values: dict[str, str]) -> dict[str, str]:
        if not isinstance(values, dict) or len(values) > len(self._answer()):
            raise InvalidAnswer(
                "values must map at most one token per cell or edge", field="values"
            )
        allowed = set(self.values())
        cells = self.solution_tokens()
        out = {}
        for key, token in values.items():
            if key not in cells:
                raise InvalidAnswer(
                    f"'{str(key)[:20]}' is not a cell of this board", field="values"
                )
            if token not in allowed:
                raise InvalidAnswer(
                    f"'{str(token)[:10]}' is not a value of this genre",
                    field="values",
                    expected=", ".join(sorted(allowed)),
                )
            out[key] = token
        return out

    def check(self, values: dict[str, str]) -> dict[str, Any]:
        read = self._read(values)
        sol = self.solution_tokens()
        givens = self.given_tokens()
        filled = {**read, **givens}
        wrong = sorted(k for k, t in read.items() if sol[k] != t and k not in givens)
        blank = "0" if self.implicit_zero() else None
        solved = not wrong and all(filled.get(k, blank) == t for k, t in sol.items())
        return {"wrong": wrong, "filled": len(filled), "cells": len(sol), "solved": solved}

    def hint(self, values: dict[str, str]) -> dict[str, Any]:
        status = self.check(values)
        if status["wrong"]:
            return {
                "kind": "wrong",
                "wrong": status["wrong"],
                "message": f"{len(status['wrong'])} mark(s) are wrong; fix them first",
            }
        if status["solved"]:
            return {"kind": "solved", "message": "the puzzle is already solved"}
        read = {**self._read(values), **self.given_tokens()}
        known = {}
        for name, e, _rep, _dom in self._answer():
            token = read.get(_key(e))
            if token is not None:
                known[(name, e)] = self.sol[name][e]
        found = _api().hint(self.inst, known)
        if found is None:
            return {"kind": "stuck", "message": "no deduction found from these cells"}
        # the engine's hint: the easiest deduction now, its reason in words (rows and
        # columns from 1) and the evidence it cites, which the page highlights
        used = [_key(k[1]) for k, _ in found.cells if type(k[1]).__name__ in ("Cell", "Edge")]
        used += [_key(p) for _, p, _ in found.clues if type(p).__name__ in ("Cell", "Edge")]
        return {
            "kind": "step",
            "cell": _key(found.entity),
            "value": self.genre.token(found.value),
            "reason": found.reason,
            "level": found.level,
            "used": sorted(set(used)),
        }


def _check_side(rows: int, cols: int) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise ConfigError(
            f"{rows}x{cols} is larger than this page's limit of {MAX_SIDE}x{MAX_SIDE}", field="size"
        )


def generate_session(
    token: str, *, genre: str, size: str, seed: int, difficulty: str
) -> GridSession:
    from ..grid.genre import parse_size  # noqa: PLC0415 - engine loaded lazily

    rows, cols = parse_size(size)
    _check_side(rows, cols)
    inst, sol, diff = _api().generate(genre, f"{rows}x{cols}", seed, difficulty=difficulty)
    return GridSession(token, inst, sol, seed=seed, difficulty=diff)


def load_session(token: str, text: str, time_limit: float) -> GridSession:
    """A pasted instance text or puzz.link URL; solved (uniquely) before it is played."""
    if len(text) > MAX_TEXT:
        raise InvalidDescription(f"the text is longer than {MAX_TEXT} characters")
    api = _api()
    try:
        _, inst = api.parse_puzzle(text)
    except ImportError:
        raise InvalidDescription(
            "puzz.link URLs are not supported by this build of the grid engine",
            expected="puzzle text: '<genre> RxC' then the grid",
        ) from None
    _check_side(inst.rows, inst.cols)
    sol = api.require_unique(inst)
    return GridSession(token, inst, sol)
