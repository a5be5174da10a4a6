"""Banecki's generation pipeline (seeds/003, 1.2 and 2.1.37-2.1.41), rebuilt fast and
certified.

Pipeline per attempt: draw categories; draw a hidden solution; draw ceil(k*K/2.3)
non-type-1 clues (each true on the hidden solution, none "forbidden" by the critical
squares of another); add type-1 clues until the deduction engine solves the grid; restrict
the clue list (type-1 clues first, then the rest in random order) keeping only what the
engine and the exact solver both need; rate the difficulty over 5 randomised solves;
certify uniqueness and necessity of every clue with SAT.

Why a hidden solution: the reference draws clues blind and starts over when they
contradict each other; drawing clues true on a fixed solution never contradicts, so the
"retry" branch only runs when the 100 type-1 clues (or the difficulty target) are not met.

The parts: single clues (drawer.py), the attempt's clue pool (cluepool.py), SAT-and-engine
restriction (restrict.py), the tier construction (construct.py), the rating (tiers.py);
this module runs the attempts and assembles the certified record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..core.errors import ConfigError, GenerationFailed
from .categories import draw_categories
from .cluepool import draw_clues
from .clues import POS_RELATIONS, ZEBRALOGIC_RELATIONS, Clue
from .drawer import ClueDrawer
from .exact import ExactChecker
from .grid import Contradiction
from .model import ZebraPuzzle
from .restrict import restrict
from .tiers import TIERS, rate, tier_of, unreachable

__all__ = ["generate_puzzle", "CLUE_KINDS", "TIERS", "tier_of", "rate", "STYLES"]

#: Output styles: puzzleforge's own categories and text, or ZebraLogic's houses.
STYLES = ("native", "zebralogic")

#: Non-type-1 clue kinds a user can mix (type 1 is always used to finish).
CLUE_KINDS = ("chain", "arith", "ifthen", "either", "nextto", "pos", "group")


def _choose(
    rng: random.Random,
    K: int,
    k: int,
    clues: list[Clue],
    sol: list[list[int]],
    checker: ExactChecker,
    reasons: dict[str, int],
) -> tuple[list[Clue] | None, dict[str, Any]]:
    """No tier asked: restrict the clue list by SAT and rate whatever it gives."""
    final = restrict(rng, K, k, clues, sol, checker, True)
    rating = rate(K, k, final, rng)
    if not rating.get("solved"):
        reasons["engine failed to rate"] = reasons.get("engine failed to rate", 0) + 1
        return None, rating
    return final, rating


def _construct(
    rng: random.Random,
    K: int,
    k: int,
    clues: list[Clue],
    sol: list[list[int]],
    checker: ExactChecker,
    drawer: ClueDrawer,
    kinds: Sequence[str],
    difficulty: str,
    reasons: dict[str, int],
) -> tuple[list[Clue] | None, dict[str, Any]]:
    """Build toward the tier from this attempt's clue pool (construct.py)."""
    from .construct import Builder

    builder = Builder(rng, K, k, sol, checker, clues, drawer, kinds)
    final, rating, _work = builder.build(difficulty, max_moves=max_moves_for(K, k))
    if final is None:
        reasons[f"tier {rating.get('tier')} != {difficulty}"] = (
            reasons.get(f"tier {rating.get('tier')} != {difficulty}", 0) + 1
        )
        return None, {}
    # the new clues joined the checker under the builder's keys; hand them back so the
    # caller certifies the same objects
    clues[:] = builder.alive
    return final, rating


def max_moves_for(K: int, k: int) -> int:
    """Moves per attempt: enough to walk g from a minimal set's ~25 (6x6) to the band."""
    return 8 + K * k // 3


def generate_puzzle(
    rng: random.Random,
    *,
    K: int = 3,
    k: int = 4,
    lang: str = "en",
    difficulty: str | None = None,
    kinds: Sequence[str] = CLUE_KINDS,
    question: str = "grid",
    max_attempts: int = 40,
    style: str = "native",
) -> ZebraPuzzle:
    """Generate one certified, rated puzzle (deterministic for ``rng``).

    ``style="zebralogic"``: category 0 is the houses 1..k, the other K-1 categories are
    categorical, and the clues are ZebraLogic's kinds (``zebralogic.py``)."""
    why = unreachable(K, k, difficulty, style)
    if why:
        raise ConfigError(
            f"difficulty={difficulty!r} at K={K}, k={k} is refused: {why}",
            field="difficulty",
            expected="a tier this grid size reaches (docs/zebra.md, 'Difficulty and stars')",
        )
    reasons: dict[str, int] = {}
    relations: Sequence[str] = tuple(sorted(POS_RELATIONS))
    if style == "zebralogic":
        from .zebralogic import ZEBRALOGIC_KINDS, house_category

        kinds, relations = ZEBRALOGIC_KINDS, ZEBRALOGIC_RELATIONS
    for attempt in range(max_attempts):
        if style == "zebralogic":
            cats = [house_category(k)] + draw_categories(
                rng, K - 1, k, lang, kinds=["categorical"] * (K - 1)
            )
        else:
            cats = draw_categories(rng, K, k, lang)
        sol = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
        drawer = ClueDrawer(rng, cats, sol, K, k, lang, relations)
        try:
            clues, solved = draw_clues(rng, drawer, K, k, kinds)
        except Contradiction:
            reasons["contradiction"] = reasons.get("contradiction", 0) + 1
            continue
        if not solved:
            reasons["unsolved after the type-1 cap"] = (
                reasons.get("unsolved after the type-1 cap", 0) + 1
            )
            continue
        checker = ExactChecker(K, k)
        try:
            for n, clue in enumerate(clues):
                checker.add_clue(clue, n)
            if difficulty is None:
                final, rating = _choose(rng, K, k, clues, sol, checker, reasons)
            else:
                final, rating = _construct(
                    rng, K, k, clues, sol, checker, drawer, kinds, difficulty, reasons
                )
            if final is None:
                continue
            keys = {id(c): n for n, c in enumerate(clues)}
            cert = checker.certify([keys[id(c)] for c in final], sol)
        finally:
            checker.close()
        if cert.get("undecided"):
            # never certified on a guess: the budget counts solver work (conflicts)
            why = f"exact check undecided within {checker.conflicts} conflicts"
            reasons[why] = reasons.get(why, 0) + 1
            continue
        if not cert["unique"] or not cert["all_clues_necessary"]:
            reasons["a clue is not necessary"] = reasons.get("a clue is not necessary", 0) + 1
            continue
        order = list(range(len(final)))
        rng.shuffle(order)
        shown = [final[i] for i in order]
        for n, clue in enumerate(shown, start=1):
            clue.cid = n
        cert = dict(cert, necessary=[cert["necessary"][i] for i in order], attempts=attempt + 1)
        q: dict[str, Any] = {"kind": "grid"}
        if question in ("cell", "mc"):
            e = rng.randrange(k)
            c_from = 0
            c_to = rng.randrange(1, K)
            q = {"kind": question, "obj": [c_from, sol[c_from][e]], "cat": c_to}
            if question == "mc":
                # every object of the asked category, in a drawn order (ZebraLogic's
                # multiple-choice mode offers the whole domain)
                choices = list(cats[c_to].items)
                rng.shuffle(choices)
                q["choices"] = choices
        created_at = ""
        if style == "zebralogic":
            from .zebralogic import created_at_from

            created_at = created_at_from(rng)
        return ZebraPuzzle(
            K=K,
            k=k,
            lang=lang,
            categories=cats,
            solution=sol,
            clues=shown,
            question=q,
            rating=rating,
            certificate=cert,
            style=style,
            created_at=created_at,
        )
    detail = ", ".join(f"{r}: {n}" for r, n in sorted(reasons.items()))
    raise GenerationFailed(
        f"no zebra puzzle {K}x{k} (difficulty {difficulty}) in {max_attempts} attempts ({detail})"
    )
