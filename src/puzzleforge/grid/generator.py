"""Generic generator: random full solution -> all clues -> remove while unique -> grade.

Why generic: the loop is the same for every genre (Tatham's shape); a genre only says
which clues a solution implies and which may be removed. Every uniqueness check is one
solve on the instance's incremental session under a "differs from the solution"
activation literal, clues being assumptions.

Difficulty proxy (grading.py, documented in docs/grid.md): 1.x = propagation (unit
propagation plus the graph rules' deductions) fixes every cell; 2.x = failed-literal
probing is needed; 3.x = search is needed. The fraction is the share of cells left open
by the cheaper level.
"""

from __future__ import annotations

import random

from ..core.errors import GenerationFailed
from .engine import Compiled
from .genre import Genre, Instance
from .grading import at_most, grade
from .grading import entry_lits as _entry_lits

__all__ = [
    "random_solution",
    "grade",
    "reduce_clues",
    "generate_instance",
    "TIERS",
    "tier_name",
    "in_tier",
    "harden",
]

TIERS = {"any": 3, "easy": 1, "medium": 2, "hard": 3}

#: Layouts whose full clue set already grades above the tier (while none came out
#: within reach after removal) before the generator stops early (e.g. an easy Kakurasu:
#: its weighted sums never propagate to the end, and each attempt costs a second at 10x10).
GIVE_UP_TOO_HARD = 8


def random_solution(
    comp: Compiled, rng: random.Random, base: list[int] | None = None, fraction: float = 0.35
) -> dict | None:
    """A random solution: fix a random value on a random part of the entries (checked in
    batches, halving a batch that makes the formula unsatisfiable), then let the solver
    complete it."""
    base = list(base or [])
    if comp._check(base, None) is None:
        return None
    entries = _entry_lits(comp)
    order = list(range(len(entries)))
    rng.shuffle(order)
    picks = []
    for idx in order[: max(4, int(len(order) * fraction))]:
        options = [line for line in entries[idx] if abs(line) != comp.low.T]
        if len(options) >= 2:
            picks.append(rng.choice(options))
    chosen: list[int] = []

    def sat(lits: list[int]) -> bool:
        if comp.low.lazy:
            return comp._check(base + lits, None) is not None
        return comp.session.check(base + lits).value == "sat"

    def add(batch: list[int]) -> None:
        if not batch:
            return
        if sat(chosen + batch):
            chosen.extend(batch)
        elif len(batch) > 1:
            half = len(batch) // 2
            add(batch[:half])
            add(batch[half:])

    step = 16
    for i in range(0, len(picks), step):
        add(picks[i : i + step])
    model = comp._check(base + chosen, None)
    return None if model is None else comp.decode(model)


def reduce_clues(
    genre: Genre,
    comp: Compiled,
    inst: Instance,
    sol: dict,
    rng: random.Random,
    *,
    tier: str = "any",
    density: float | None = None,
) -> Instance:
    """Remove removable clues in random order while the puzzle stays unique (and within
    the difficulty tier); stop early once the clue density target is reached."""
    differs = comp.block_solution(sol)
    clues = {k: dict(v) for k, v in inst.clues.items()}
    places = [(name, p) for name in genre.removable for p in sorted(clues.get(name, {}), key=repr)]
    total = max(1, len(places))
    rng.shuffle(places)
    first = getattr(genre, "remove_first", ())
    if first:  # e.g. Skyscrapers: givens go before views, so the views carry the puzzle
        places = [x for x in places if x[0] in first] + [x for x in places if x[0] not in first]
    cap = TIERS[tier]
    kept = len(places)
    # Medium runs an easy pass first: its checks are one closure each, and the costly
    # medium check (probing) is then only asked about the clues an easy puzzle still
    # needs (Skyscrapers 10x10 medium: 48 s -> a few seconds).
    for level in (1, 2) if cap == 2 else (cap,):
        for name, p in places:
            if density is not None and kept / total <= density:
                break
            if p not in clues[name]:
                continue
            value = clues[name].pop(p)
            a = comp.assumptions(clues)
            ok = comp.unique_given(a, differs)
            if ok and level < 3:
                ok = at_most(comp, a, level)
            if ok:
                kept -= 1
            else:
                clues[name][p] = value
    if tier in ("medium", "hard") and density is None and getattr(comp, "technique", None):
        full = {(name, p): v for name in inst.clues for p, v in inst.clues[name].items()}
        clues = harden(comp, clues, full, places, differs, rng, cap)
    comp.retire(differs)
    return Instance(inst.genre, inst.rows, inst.cols, dict(inst.opts), dict(inst.data), clues)


#: Rounds of ``harden`` per puzzle (a work budget: each round is one pass of uniqueness
#: checks over the clues, never a time limit).
HARDEN_ROUNDS = 200


def harden(
    comp: Compiled,
    clues: dict,
    full: dict,
    places: list,
    differs: int,
    rng: random.Random,
    cap: int,
    rounds: int = HARDEN_ROUNDS,
) -> dict:
    """Targeted removal for technique-graded genres (Sudoku, Futoshiki, Light Up), when the
    random removal pass ended below the tier: put one removed clue back, remove every
    clue that can go (unique, within the tier) in a new random order, and keep the
    result when its technique grade did not drop: a walk towards puzzles that need
    the tier's techniques (6x6 Sudoku medium: from 1 seed in 6 to 10 in 10). Stops as soon
    as the grade reaches the tier. Every removal is still proven unique by the solver."""
    best = grade(comp, comp.assumptions(clues))
    for _ in range(rounds):
        if int(best) >= cap:
            break
        removed = [x for x in places if x[1] not in clues[x[0]]]
        if not removed:
            break
        trial = {k: dict(v) for k, v in clues.items()}
        back = removed[rng.randrange(len(removed))]
        trial[back[0]][back[1]] = full[back]
        order = [x for x in places if x[1] in trial[x[0]] and x != back]
        rng.shuffle(order)
        for name, p in order:
            value = trial[name].pop(p)
            a = comp.assumptions(trial)
            if not (comp.unique_given(a, differs) and at_most(comp, a, cap)):
                trial[name][p] = value
        got = grade(comp, comp.assumptions(trial))
        if got >= best:
            clues, best = trial, got
    return clues


def generate_instance(
    genre: Genre,
    rows: int,
    cols: int,
    opts: dict,
    rng: random.Random,
    *,
    tier: str = "any",
    density: float | None = None,
    attempts: int = 30,
) -> tuple[Instance, dict, float, Compiled]:
    """A unique puzzle of ``genre`` (instance, solution, difficulty, compiled rules)."""
    refused = genre.tier_problem(tier, rows, cols, opts) if tier != "any" else None
    if refused:
        from ..core.errors import ConfigError

        raise ConfigError(
            refused, field="difficulty", expected="another tier or size (docs/grid.md, Tiers)"
        )
    if tier != "any":
        # a genre whose tiers are rare per layout asks for more (``Genre.tier_attempts``)
        attempts = max(attempts, getattr(genre, "tier_attempts", attempts))
    reasons: dict[str, int] = {}
    shared = None
    for _ in range(attempts):
        inst = Instance(genre.id, rows, cols, dict(opts))
        inst.data = genre.random_data(inst, rng)
        direct = getattr(genre, "direct_solution", None)
        if direct is not None:
            made = direct(inst, rng, tier=tier)
            if made is None:
                reasons["no layout"] = reasons.get("no layout", 0) + 1
                continue
            sol, inst.clues = made
            comp = genre.compile(inst)
        elif inst.data or shared is None:
            comp = genre.compile(inst)
            if not inst.data:
                shared = (
                    comp  # no fixed data: one session (and its learnt cuts) serves all attempts
                )
        else:
            comp = shared
        if direct is None:
            sol = random_solution(comp, rng)
        if sol is None:
            reasons["no solution for the drawn layout"] = (
                reasons.get("no solution for the drawn layout", 0) + 1
            )
            continue
        unique = False
        for _round in range(genre.max_repairs(inst) + 1):
            inst.clues = genre.clues_from_solution(inst, sol)
            differs = comp.block_solution(sol)
            model = comp._check(comp.assumptions(inst.clues) + [differs], None)
            comp.retire(differs)
            if model is None:
                unique = True
                break
            # ambiguous even with every clue: let the genre change its fixed data (regions,
            # walls) so that ``sol`` stays a solution and the other one does not
            data_before = inst.data
            sol = genre.repair(inst, sol, comp.decode(model), rng)
            if sol is None:
                break
            if inst.data is not data_before:
                comp = genre.compile(inst)
        if not unique:
            reasons["all clues still ambiguous"] = reasons.get("all clues still ambiguous", 0) + 1
            continue
        if TIERS[tier] < 3 and not at_most(comp, comp.assumptions(inst.clues), TIERS[tier]):
            # removing clues never makes a puzzle easier (propagation and probing are
            # monotone in the clues), so a layout too hard with every clue is dropped now
            key = f"too hard for {tier} even with every clue"
            reasons[key] = reasons.get(key, 0) + 1
            if reasons[key] >= getattr(genre, "give_up_too_hard", GIVE_UP_TOO_HARD) and not any(
                k.startswith("came out") for k in reasons
            ):
                break  # no layout got near the tier: it is out of reach here, say so now
            continue
        puzzle = reduce_clues(genre, comp, inst, sol, rng, tier=tier, density=density)
        diff = grade(comp, comp.assumptions(puzzle.clues))
        if not in_tier(diff, tier):
            key = f"came out {tier_name(diff)}, not {tier}"
            reasons[key] = reasons.get(key, 0) + 1
            continue
        return puzzle, sol, diff, comp
    what = "unique puzzle" if tier == "any" else f"unique {tier} puzzle"
    tried = sum(reasons.values())
    why = "; ".join(f"{k}: {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
    raise GenerationFailed(
        f"{genre.id} {rows}x{cols}: no {what} in {tried} attempts ({why})",
        attempts=tried,
        reasons=reasons,
        expected="another seed, size or difficulty",
    )


def tier_name(diff: float) -> str:
    """The tier a difficulty grade falls in (easy 1.x, medium 2.x, hard 3.x)."""
    return "easy" if diff < 2 else "medium" if diff < 3 else "hard"


def in_tier(diff: float, tier: str) -> bool:
    return tier == "any" or tier_name(diff) == tier
