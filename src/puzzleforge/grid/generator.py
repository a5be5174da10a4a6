"""Generic generator: random full solution -> all clues -> remove while unique -> grade.

Why generic: the loop is the same for every genre (Tatham's shape); a genre only says
which clues a solution implies and which may be removed. Every uniqueness check is one
solve on the instance's incremental session under a "differs from the solution"
activation literal, clues being assumptions.

Difficulty proxy (documented in docs/grid.md): 1.x = unit propagation of the rules from
the clues fixes every cell; 2.x = failed-literal probing (try a cell value, propagate,
refute on conflict, repeat) is needed; 3.x = search is needed. The fraction is the share
of cells left open by the cheaper level.
"""
from __future__ import annotations

import random
from typing import Any

from ..core.errors import GenerationFailed
from .engine import Compiled
from .genre import Genre, Instance

__all__ = ["random_solution", "grade", "reduce_clues", "generate_instance", "TIERS"]

TIERS = {"any": 3, "easy": 1, "medium": 2, "hard": 3}


def _entry_lits(comp: Compiled) -> list[list[int]]:
    """Per answer entry, its value literals (bool: [lit, -lit]; int: eq literals)."""
    out = []
    for _, _, rep, _ in comp.answer:
        if isinstance(rep, int):
            out.append([rep, -rep])
        else:
            out.append([l for _, l in sorted(rep.eq.items(), key=lambda kv: repr(kv[0]))])
    return out


def random_solution(comp: Compiled, rng: random.Random, base: list[int] | None = None,
                    fraction: float = 0.35) -> dict | None:
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
    for idx in order[:max(4, int(len(order) * fraction))]:
        options = [l for l in entries[idx] if abs(l) != comp.low.T]
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
        add(picks[i:i + step])
    model = comp._check(base + chosen, None)
    return None if model is None else comp.decode(model)


def grade(comp: Compiled, assumptions: list[int], max_rounds: int = 50) -> float:
    """Difficulty proxy: 1.x propagation only, 2.x probing, 3.x search (see module doc)."""
    ok, lits = comp.propagate(assumptions)
    if not ok:
        return 0.0
    frac = comp.answer_decided(lits)
    if frac >= 1.0:
        return 1.0
    known = set(lits)
    entries = [l for group in _entry_lits(comp) for l in group if abs(l) != comp.low.T]
    for _ in range(max_rounds):
        changed = False
        for lit in entries:
            if lit in known or -lit in known:
                continue
            ok2, _ = comp.propagate(assumptions + sorted(known, key=abs) + [lit])
            if not ok2:
                ok3, more = comp.propagate(assumptions + sorted(known, key=abs) + [-lit])
                if not ok3:
                    return 3.0
                known |= set(more)
                changed = True
        if comp.answer_decided(known) >= 1.0:
            return round(2.0 + (1.0 - frac) * 0.99, 3)
        if not changed:
            break
    return round(3.0 + (1.0 - comp.answer_decided(known)) * 0.99, 3)


def reduce_clues(genre: Genre, comp: Compiled, inst: Instance, sol: dict, rng: random.Random, *,
                 tier: str = "any", density: float | None = None) -> Instance:
    """Remove removable clues in random order while the puzzle stays unique (and within
    the difficulty tier); stop early once the clue density target is reached."""
    differs = comp.block_solution(sol)
    clues = {k: dict(v) for k, v in inst.clues.items()}
    places = [(name, p) for name in genre.removable for p in sorted(clues.get(name, {}), key=repr)]
    total = max(1, len(places))
    rng.shuffle(places)
    cap = TIERS[tier]
    kept = len(places)
    for name, p in places:
        if density is not None and kept / total <= density:
            break
        value = clues[name].pop(p)
        a = comp.assumptions(clues)
        ok = comp.unique_given(a, differs)
        if ok and cap < 3:
            ok = grade(comp, a) < cap + 1
        if ok:
            kept -= 1
        else:
            clues[name][p] = value
    comp.retire(differs)
    return Instance(inst.genre, inst.rows, inst.cols, dict(inst.opts), dict(inst.data), clues)


def generate_instance(genre: Genre, rows: int, cols: int, opts: dict, rng: random.Random, *,
                      tier: str = "any", density: float | None = None,
                      attempts: int = 30) -> tuple[Instance, dict, float, Compiled]:
    """A unique puzzle of ``genre`` (instance, solution, difficulty, compiled rules)."""
    reasons: dict[str, int] = {}
    shared = None
    for _ in range(attempts):
        inst = Instance(genre.id, rows, cols, dict(opts))
        inst.data = genre.random_data(inst, rng)
        direct = getattr(genre, "direct_solution", None)
        if direct is not None:
            made = direct(inst, rng)
            if made is None:
                reasons["no layout"] = reasons.get("no layout", 0) + 1
                continue
            sol, inst.clues = made
            comp = genre.compile(inst)
        elif inst.data or shared is None:
            comp = genre.compile(inst)
            if not inst.data:
                shared = comp  # no fixed data: one session (and its learnt cuts) serves all attempts
        else:
            comp = shared
        if direct is None:
            sol = random_solution(comp, rng)
        if sol is None:
            reasons["no solution for the drawn layout"] = reasons.get("no solution for the drawn layout", 0) + 1
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
        puzzle = reduce_clues(genre, comp, inst, sol, rng, tier=tier, density=density)
        diff = grade(comp, comp.assumptions(puzzle.clues))
        if tier == "hard" and diff < 3 or tier == "medium" and not (2 <= diff < 3):
            reasons[f"came out {diff:.1f}, not {tier}"] = reasons.get(f"came out {diff:.1f}, not {tier}", 0) + 1
            continue
        return puzzle, sol, diff, comp
    raise GenerationFailed(f"{genre.id} {rows}x{cols}: no unique puzzle in {attempts} attempts",
                           attempts=attempts, reasons=reasons,
                           expected="another seed, size or difficulty")
