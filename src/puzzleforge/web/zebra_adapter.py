"""Adapter between the logic-grid page and the zebra engine: marks, check, hint, steps.

Why here and not in the engine: the page speaks in cell keys ("c1.i1.c2.i2") and in
browser marks ("x" / "o"); the engine speaks in Grid writes and explained steps. This
module translates, so the engine stays free of web concerns. A hint runs the engine's
own deduction from the player's (correct) marks and returns its first new step, so the
reason shown is exactly the engine's reason.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import ConfigError, GenerationFailed, InvalidAnswer

__all__ = ["ZebraSession", "available", "generate_session", "LIMITS", "cell_key", "parse_key"]

#: Sizes the page accepts (seeds/003 asks for K > 3 and k > 3 in print; the page allows
#: small ones for quick games and caps the size so a request cannot run for minutes).
LIMITS = {"K": (3, 6), "k": (3, 6)}
MARKS = {"x": 2, "o": 1}


def available() -> bool:
    """True when the zebra engine's generator and deduction engine import."""
    try:
        importlib.import_module("puzzleforge.zebra.generator")
        importlib.import_module("puzzleforge.zebra.engine")
    except ImportError:
        return False
    return True


def cell_key(cell: Any) -> str:
    return ".".join(str(int(v)) for v in cell)


def parse_key(key: str, K: int, k: int) -> tuple[int, int, int, int]:
    """A browser cell key back to a normalised cell, refusing anything out of range."""
    parts = key.split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise InvalidAnswer(
            f"'{key[:40]}' is not a grid cell",
            field="marks",
            expected="keys like 0.1.2.3 (category, object, category, object)",
        )
    c1, i1, c2, i2 = (int(p) for p in parts)
    if not (0 <= c1 < c2 < K and 0 <= i1 < k and 0 <= i2 < k):
        raise InvalidAnswer(f"cell {key} is outside the {K}x{k} grid", field="marks")
    return c1, i1, c2, i2


def _text_module() -> Any | None:
    try:
        return importlib.import_module("puzzleforge.zebra.text")
    except ImportError:
        return None


@dataclasses.dataclass
class ZebraSession:
    """One generated puzzle on the server, with the names the player may have edited."""

    token: str
    puzzle: Any  # zebra.model.ZebraPuzzle
    seed: int
    params: dict[str, Any]
    record: Any = None  # core Puzzle when made through the registered family
    _steps: list[dict[str, Any]] | None = None

    # -- reading ----------------------------------------------------------------------
    @property
    def K(self) -> int:
        return self.puzzle.K

    @property
    def k(self) -> int:
        return self.puzzle.k

    def entity(self, c: int, i: int) -> int:
        return self.puzzle.solution[c].index(i)

    def truth(self, cell: tuple[int, int, int, int]) -> str:
        c1, i1, c2, i2 = cell
        return "o" if self.entity(c1, i1) == self.entity(c2, i2) else "x"

    def name(self, c: int, i: int) -> str:
        return str(self.puzzle.categories[c].items[i])

    def cell_text(self, cell: Any) -> str:
        c1, i1, c2, i2 = (int(v) for v in cell)
        return f"{self.name(c1, i1)} / {self.name(c2, i2)}"

    def clue_texts(self) -> list[dict[str, Any]]:
        text = _text_module()
        out = []
        for clue in self.puzzle.clues:
            sentence = None
            if text is not None:
                sentence = text.clue_text(self.puzzle, clue, plain=True)
            out.append({"id": clue.cid, "text": sentence or str(clue.to_dict())})
        return out

    def question_text(self) -> str:
        text = _text_module()
        if text is not None and hasattr(text, "question_text"):
            return str(text.question_text(self.puzzle, plain=True))
        return "Pair every object with exactly one object of each other category."

    def view(self) -> dict[str, Any]:
        """Everything the page draws: categories, clues, the staircase layout, rating."""
        K = self.K
        cats = [
            {
                "title": c.title,
                "kind": c.kind,
                "items": list(c.items),
                "template": getattr(c, "template", ""),
            }
            for c in self.puzzle.categories
        ]
        return {
            "token": self.token,
            "K": K,
            "k": self.k,
            "seed": str(self.seed),
            "params": self.params,
            "categories": cats,
            "clues": self.clue_texts(),
            "question": self.question_text(),
            "layout": {"top": list(range(1, K)), "left": [0] + list(range(K - 1, 1, -1))},
            "rating": self.puzzle.rating,
            "pdf": pdf_available(),
        }

    # -- playing ----------------------------------------------------------------------
    def _read_marks(self, marks: Mapping[str, str]) -> dict[tuple[int, int, int, int], str]:
        if not isinstance(marks, Mapping):
            raise InvalidAnswer("marks must be an object of cell -> 'x' or 'o'", field="marks")
        if len(marks) > self.K * self.K * self.k * self.k:
            raise InvalidAnswer("more marks than cells", field="marks")
        out = {}
        for key, mark in marks.items():
            if mark not in MARKS:
                raise InvalidAnswer(
                    f"mark '{str(mark)[:10]}' at {key} is neither x nor o",
                    field="marks",
                    expected="'x' (not paired) or 'o' (paired)",
                )
            out[parse_key(str(key), self.K, self.k)] = mark
        return out

    def all_cells(self) -> list[tuple[int, int, int, int]]:
        K, k = self.K, self.k
        return [
            (c1, i1, c2, i2)
            for c1 in range(K)
            for c2 in range(c1 + 1, K)
            for i1 in range(k)
            for i2 in range(k)
        ]

    def check(self, marks: Mapping[str, str]) -> dict[str, Any]:
        """Which marks are wrong, how many cells are left, and whether it is solved."""
        read = self._read_marks(marks)
        wrong = sorted(cell_key(c) for c, m in read.items() if self.truth(c) != m)
        total = len(self.all_cells())
        right = len(read) - len(wrong)
        pairs_right = sum(1 for c, m in read.items() if m == "o" and self.truth(c) == "o")
        pairs_total = self.K * (self.K - 1) // 2 * self.k
        solved = not wrong and pairs_right == pairs_total
        return {
            "wrong": wrong,
            "marked": len(read),
            "cells": total,
            "correct": right,
            "solved": solved,
            "complete": not wrong and right == total,
        }

    def _engine(self, marks: dict[tuple[int, int, int, int], str]) -> Any:
        engine_mod = importlib.import_module("puzzleforge.zebra.engine")
        grid_mod = importlib.import_module("puzzleforge.zebra.grid")
        engine = engine_mod.Engine(self.K, self.k, self.puzzle.clues, explain=True)
        log, engine.g.log = engine.g.log, None
        for cell, mark in sorted(marks.items()):
            engine.g.set_state(cell, grid_mod.YES if mark == "o" else grid_mod.NO)
        engine.g.log = log
        return engine

    def _describe(self, step: dict[str, Any]) -> dict[str, Any]:
        rules = importlib.import_module("puzzleforge.zebra.engine").RULES
        texts = {c["id"]: c["text"] for c in self.clue_texts()}

        def marks(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [
                {"cell": cell_key(m["cell"]), "mark": m["mark"], "text": self.cell_text(m["cell"])}
                for m in items
            ]

        out = {
            "rule": step["rule"],
            "reason": rules.get(step["rule"], step["rule"]),
            "clues": [{"id": c, "text": texts.get(c, "")} for c in step.get("clues", [])],
            "used": marks(step.get("used", [])),
            "marks": marks(step.get("marks", [])),
        }
        if "assumed" in step:
            out["assumed"] = marks([step["assumed"]])[0]
            out["chain"] = [
                {
                    "rule": s["rule"],
                    "reason": rules.get(s["rule"], s["rule"]),
                    "clues": s.get("clues", []),
                    "marks": marks(s.get("marks", [])),
                }
                for s in step.get("chain", [])
            ]
            if step.get("refutation") is not None:
                ref = step["refutation"]
                out["refutation"] = [
                    {
                        "rule": s["rule"],
                        "reason": rules.get(s["rule"], s["rule"]),
                        "clues": s.get("clues", []),
                        "marks": marks(s.get("marks", [])),
                    }
                    for s in ref["steps"]
                ]
        text = _text_module()
        out["summary"] = (
            text.step_text(self.puzzle, step)
            if text is not None and hasattr(text, "step_text")
            else self._summary(out)
        )
        return out

    def _summary(self, step: dict[str, Any]) -> str:
        placed = ", ".join(
            ("● " if m["mark"] == "o" else "× ") + m["text"] for m in step["marks"][:6]
        )
        more = len(step["marks"]) - 6
        if more > 0:
            placed += f" and {more} more"
        why = step["reason"]
        if step["clues"]:
            why = "clue " + ", ".join(str(c["id"]) for c in step["clues"]) + ": " + why
        if step["rule"] == "guess" and "assumed" in step:
            why = (
                f"if {step['assumed']['text']} were paired, the grid would contradict "
                "itself, so they are not"
            )
        return f"{placed} ({why})"

    def hint(self, marks: Mapping[str, str]) -> dict[str, Any]:
        """The engine's next deduction from the player's marks (wrong marks come first)."""
        status = self.check(marks)
        if status["wrong"]:
            return {
                "kind": "wrong",
                "wrong": status["wrong"],
                "message": f"{len(status['wrong'])} mark(s) are wrong; remove them first",
            }
        if status["solved"]:
            return {"kind": "solved", "message": "the puzzle is already solved"}
        read = self._read_marks(marks)
        readable = importlib.import_module("puzzleforge.zebra.readable")
        steps = readable.readable_steps(self._engine(read).run(guessing=True).steps)
        for step in steps:
            if step.get("marks"):
                return {"kind": "step", "step": self._describe(step)}
        return {"kind": "stuck", "message": "no further deduction found from these marks"}

    def steps(self) -> list[dict[str, Any]]:
        """The full explained solution from an empty grid (computed once)."""
        if self._steps is None:
            engine_mod = importlib.import_module("puzzleforge.zebra.engine")
            outcome = engine_mod.solve(self.K, self.k, self.puzzle.clues, explain=True)
            readable = importlib.import_module("puzzleforge.zebra.readable")
            self._steps = [self._describe(s) for s in readable.readable_steps(outcome.steps)]
        return self._steps

    def solution_marks(self) -> dict[str, str]:
        return {cell_key(c): self.truth(c) for c in self.all_cells()}

    # -- renaming and printing ----------------------------------------------------------
    def rename(self, categories: list[dict[str, Any]]) -> None:
        """Apply edited names (titles, object names; numerical: the unit template only)."""
        if not isinstance(categories, list) or len(categories) != self.K:
            raise ConfigError(f"expected {self.K} categories", field="categories")
        problems: list[str] = []
        new = []
        for c, (old, edit) in enumerate(zip(self.puzzle.categories, categories, strict=True)):
            if not isinstance(edit, dict):
                raise ConfigError("each category must be an object", field=f"categories.{c}")
            title = _clean(edit.get("title", old.title)) or old.title
            items = tuple(old.items)
            template = old.template
            if old.kind == "numerical":
                template = _clean(edit.get("template", old.template))
                if template != old.template:
                    items = _numeric_items(old, template, self.puzzle.lang)
            else:
                raw = edit.get("items", list(old.items))
                if not isinstance(raw, list) or len(raw) != self.k:
                    problems.append(f"category {c + 1} needs {self.k} names")
                    continue
                items = tuple(_clean(x) for x in raw)
                if any(not x for x in items):
                    problems.append(f"category {c + 1}: a name is empty")
            new.append(dataclasses.replace(old, title=title, items=items, template=template))
        every = [name for cat in new for name in cat.items]
        dupes = sorted({n for n in every if every.count(n) > 1})
        if dupes:
            problems.append("names must not repeat: " + ", ".join(dupes[:5]))
        if problems:
            raise ConfigError(
                "; ".join(problems), field="categories", expected="distinct, non-empty names"
            )
        self.puzzle = dataclasses.replace(self.puzzle, categories=new)
        self._steps = None

    def pdf(self, solution: bool) -> bytes:
        return _pdf_bytes(self.puzzle, solution=solution, record=self.record)


def _clean(value: Any) -> str:
    text = " ".join(str(value if value is not None else "").split())
    return text[:60]


def _numeric_items(cat: Any, template: str, lang: str) -> tuple[str, ...]:
    categories = importlib.import_module("puzzleforge.zebra.categories")
    return tuple(
        categories.object_name(template, v, lang) if template else categories.format_number(v)
        for v in cat.fractions()
    )


def pdf_available() -> bool:
    try:
        importlib.import_module("puzzleforge.zebra.pdf")
        importlib.import_module("fpdf")
    except ImportError:
        return False
    return True


def _pdf_bytes(puzzle: Any, *, solution: bool, record: Any) -> bytes:
    """The zebra engine's printable sheet, or its step-by-step solution (one page a step)."""
    pdf = importlib.import_module("puzzleforge.zebra.pdf")
    return pdf.solution_bytes(puzzle) if solution else pdf.sheet_bytes(puzzle)


def generate_session(
    token: str,
    *,
    K: int,
    k: int,
    difficulty: str | None,
    lang: str,
    seed: int,
    progress: Callable[[float, str], None],
) -> ZebraSession:
    """Generate a puzzle; the same seed and sizes give the same puzzle as
    ``puzzleforge generate zebra`` (the attempts run one by one only to report progress:
    each consumes the same rng draws as the family's single call)."""
    problems = []
    for name, value in (("K", K), ("k", k)):
        lo, hi = LIMITS[name]
        if not lo <= value <= hi:
            problems.append(f"{name} must be between {lo} and {hi} on this page (got {value})")
    if problems:
        raise ConfigError("; ".join(problems), field="params")
    from ..core.family import build_params, params_to_dict
    from ..core.puzzle import stamp
    from ..core.seeding import make_rng

    zebra_family = importlib.import_module("puzzleforge.zebra.family")
    generator = importlib.import_module("puzzleforge.zebra.generator")
    fields = {"K": K, "k": k, "lang": lang}
    if difficulty:
        fields["difficulty"] = difficulty
    params = build_params(zebra_family.Params, fields, family="zebra")
    progress(0.05, "drawing categories and a hidden solution")
    rng = make_rng(seed)
    puzzle = None
    for attempt in range(params.max_attempts):
        progress(
            0.1 + 0.8 * attempt / params.max_attempts,
            f"attempt {attempt + 1}: drawing clues, minimising them, certifying uniqueness",
        )
        try:
            puzzle = generator.generate_puzzle(
                rng,
                K=params.K,
                k=params.k,
                lang=params.lang,
                difficulty=params.difficulty,
                kinds=params.clues,
                question=params.question,
                max_attempts=1,
            )
            break
        except GenerationFailed:
            continue
    if puzzle is None:
        raise GenerationFailed(
            f"no {K}x{k} puzzle of difficulty {difficulty or 'any'} in "
            f"{params.max_attempts} attempts; try another seed or difficulty",
            attempts=params.max_attempts,
        )
    progress(0.95, "writing the puzzle text")
    record = stamp(zebra_family.to_puzzle(puzzle, params_to_dict(params)), seed)
    return ZebraSession(
        token=token,
        puzzle=puzzle,
        seed=seed,
        record=record,
        params={"K": K, "k": k, "difficulty": difficulty, "lang": lang},
    )
