"""The ``zebra`` family: logic-grid puzzles through the Family protocol.

Why the whole puzzle sits in ``meta["zebra"]``: ``verify``, ``audit``, ``zebra solve
FILE`` and ``zebra pdf`` must work from one dataset line, without regenerating.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..core.difficulty import DifficultyScale, apply_scale
from ..core.errors import ConfigError, InvalidDescription
from ..core.family import params_to_dict
from ..core.puzzle import Puzzle
from .generator import CLUE_KINDS, STYLES, TIERS

__all__ = ["Params", "ZebraFamily", "family", "zebra_of", "to_puzzle"]

Difficulty = Literal["easy", "medium", "hard", "expert"]


@dataclass(frozen=True)
class Params:
    """K categories of k objects (3..8 each); ``difficulty`` targets a tier (None = any);
    ``lang`` en or pl; ``clues`` the non-type-1 clue kinds to mix; ``question`` "grid"
    (full grid), "cell" (one target cell) or "mc" (one cell, multiple choice);
    ``max_attempts`` bounds the retries; ``style`` "native" or "zebralogic" (houses
    1..k in a row, K-1 characteristics, ZebraLogic's clue kinds and record fields;
    English only; ``clues`` does not apply)."""

    K: int = 3
    k: int = 4
    difficulty: Difficulty | None = None
    lang: Literal["en", "pl"] = "en"
    clues: tuple[str, ...] = CLUE_KINDS
    question: Literal["grid", "cell", "mc"] = "grid"
    max_attempts: int = 40
    style: Literal["native", "zebralogic"] = "native"

    def validate(self) -> None:
        problems = []
        if not 3 <= self.K <= 8:
            problems.append(f"K={self.K} is out of range; expected 3..8")
        if not 3 <= self.k <= 8:
            problems.append(f"k={self.k} is out of range; expected 3..8")
        if self.difficulty is not None and self.difficulty not in TIERS:
            problems.append(f"difficulty={self.difficulty!r}; expected one of {', '.join(TIERS)}")
        if self.lang not in ("en", "pl"):
            problems.append(f"lang={self.lang!r}; expected en or pl")
        bad = [c for c in self.clues if c not in CLUE_KINDS]
        if bad:
            problems.append(
                f"clues has unknown kinds {', '.join(bad)}; expected some of "
                + ", ".join(CLUE_KINDS)
            )
        if self.question not in ("grid", "cell", "mc"):
            problems.append(f"question={self.question!r}; expected grid, cell or mc")
        if self.style not in STYLES:
            problems.append(f"style={self.style!r}; expected one of {', '.join(STYLES)}")
        elif self.style == "zebralogic" and self.lang != "en":
            problems.append(
                f"style=zebralogic with lang={self.lang!r}; ZebraLogic is an "
                "English benchmark, so the style is English only (lang=en)"
            )
        if not problems and self.difficulty is not None:
            from .tiers import unreachable

            why = unreachable(self.K, self.k, self.difficulty, self.style)
            if why:
                problems.append(
                    f"difficulty={self.difficulty!r} at K={self.K}, k={self.k} is refused: {why}"
                )
        if self.max_attempts < 1:
            problems.append("max_attempts must be at least 1")
        if problems:
            raise ConfigError("; ".join(problems), field="params")


def zebra_of(puzzle: Puzzle | Mapping[str, Any]):
    """The ZebraPuzzle stored in a Puzzle or a dataset record."""
    from .model import ZebraPuzzle

    meta = puzzle.meta if isinstance(puzzle, Puzzle) else puzzle.get("meta", {})
    raw = (meta or {}).get("zebra")
    if not isinstance(raw, dict):
        raise InvalidDescription(
            "record has no meta.zebra",
            field="meta.zebra",
            expected="a record made by the zebra family",
        )
    return ZebraPuzzle.from_dict(raw)


#: The generator's own tiers on its guess score g (generator.tier_of): easy g = 0,
#: medium 0 < g < 2, hard 2 <= g < 5, expert g >= 5 (scores seen up to about 27).
ZEBRA_SCALE = DifficultyScale((0.0, 1e-9, 2.0, 5.0, 27.0), "guess score")


def to_puzzle(zp, params: Mapping[str, Any]) -> Puzzle:
    """Wrap a ZebraPuzzle into the shared Puzzle record."""
    from .text import answer_text, puzzle_text

    meta = {
        "zebra": zp.to_dict(),
        "stars": zp.rating.get("stars"),
        "tier": zp.rating.get("tier"),
        "certificate": zp.certificate,
        "generator": "puzzleforge.zebra/1",
    }
    params = dict(params)
    if params.get("style") == "native":
        # the default style stays out of params so native ids (a hash of the params)
        # are the ones earlier versions gave
        params.pop("style")
    extra: dict[str, Any] = {}
    if zp.style == "zebralogic":
        from .zebralogic import puzzle_body

        extra = {
            "size": f"{zp.k}*{zp.K - 1}",
            "puzzle": puzzle_body(zp),
            "created_at": zp.created_at,
        }
        if (zp.question or {}).get("kind") == "mc":
            extra["choices"] = list(zp.question["choices"])
    return apply_scale(
        Puzzle(
            family="zebra",
            question=puzzle_text(zp),
            answer=answer_text(zp),
            solution={"header": zp.header(), "rows": zp.rows()},
            difficulty=float(zp.rating.get("score", 0.0)),
            params=params,
            seed=0,
            meta=meta,
            extra=extra,
        ),
        ZEBRA_SCALE,
    )


#: the Params class under a name the family's methods can annotate with (inside the class
#: body ``Params`` is the class attribute the Family protocol asks for)
ZebraParams = Params


class ZebraFamily:
    name = "zebra"
    Params = Params
    summary = "Logic-grid (zebra/Einstein) puzzles: K categories of k objects, 7 clue kinds"
    difficulty_doc = (
        "Mean number of depth-1 refutations ('guesses') the deduction engine "
        "needs over 5 randomised solves (seeds/003). Tiers: "
        + "; ".join(f"{t}: {d}" for t, d in TIERS.items())
        + ". Stars: <2 one, <5 two, <10 three, else four."
    )

    def generate(self, params: ZebraParams, rng: random.Random) -> Puzzle:
        from .generator import generate_puzzle

        zp = generate_puzzle(
            rng,
            K=params.K,
            k=params.k,
            lang=params.lang,
            difficulty=params.difficulty,
            kinds=params.clues,
            question=params.question,
            max_attempts=params.max_attempts,
            style=params.style,
        )
        return to_puzzle(zp, params_to_dict(params))

    def verify(self, puzzle: Puzzle, answer: str) -> float:
        from .answers import score_answer

        try:
            zp = zebra_of(puzzle)
        except Exception:  # noqa: BLE001 - verify never raises on a record it cannot read
            return 0.0
        return score_answer(zp, answer)

    def explain(self, puzzle: Puzzle) -> list[str]:
        """The deduction engine's solution in readable steps (bookkeeping folded in, a
        guess shown as its shortest refutation), in the puzzle's language."""
        from .engine import Engine
        from .readable import readable_steps
        from .text import step_text

        zp = zebra_of(puzzle)
        steps = readable_steps(Engine(zp.K, zp.k, zp.clues, explain=True).run(guessing=True).steps)
        return [step_text(zp, step) for step in steps]

    def audit(self, puzzle: Puzzle) -> list[str]:
        """Independent re-check: every clue true on the stored solution, SAT uniqueness
        and necessity, and the deduction engine reaches the same solution."""
        from .audit import audit_zebra

        return audit_zebra(zebra_of(puzzle))


family = ZebraFamily()
