"""New small cross-number puzzles with a unique solution.

Why this recipe (STYLE habit 5, adapted): fill a small block grid with random digits,
clue every entry with something true of its value (a number kind, or an expression over
other entries such as "A1 + D2", "multiple of D3", "reverse of A4"), then let the solver
find a second solution; while there is one, strengthen the clue of an entry on which the
two solutions differ. Finally drop clue parts that are not needed (in rng order) while the
solution stays unique. The result is a puzzle file (YAML text) any tool can re-solve.
"""

from __future__ import annotations

import random
import re
from typing import Any

import yaml

from ..core.errors import ConfigError, GenerationFailed
from . import kinds as nb
from .grid import parse_block_grid
from .model import Model, parse_model
from .solver import SolveResult, fail_if_timed_out, solve

__all__ = ["generate_puzzle", "TEMPLATES"]

TEMPLATES: dict[int, list[list[str]]] = {
    3: [["...", "...", "..."], ["..#", "...", "#.."]],
    4: [
        ["...#", "....", "....", "#..."],
        ["#...", "....", "....", "...#"],
        ["..#.", "....", "....", ".#.."],
        ["....", ".#..", "..#.", "...."],
    ],
    5: [
        ["...#.", ".....", ".#.#.", ".....", ".#..."],
        ["..#..", ".....", "#...#", ".....", "..#.."],
        ["....#", "..#..", ".....", "..#..", "#...."],
    ],
}

STRONG_KINDS = (
    "prime",
    "square",
    "cube",
    "triangular",
    "fibonacci",
    "palindrome",
    "squarepyramidal",
    "lucas",
    "sumconsecutivesquares",
    "power",
)
WEAK_KINDS = ("ascending", "descending", "happy")
KIND_TEXT = {
    "squarepyramidal": "square pyramidal",
    "sumconsecutivesquares": "sum of 2 consecutive squares",
}


def _candidates(name: str, v: int, values: dict[str, int]) -> list[tuple[int, str]]:
    """(strength, clue part) pairs true of value v; lower strength = more telling."""
    out: list[tuple[int, str]] = []
    for k in STRONG_KINDS:
        if nb.kind_test(k)(v):
            out.append((1, KIND_TEXT.get(k, k)))
    others = [(o, u) for o, u in sorted(values.items()) if o != name]
    for o, u in others:
        if u != v and u > 1 and v % u == 0:
            out.append((1, f"multiple of {o}"))
        if u != v and nb.reverse_int(u) == v and u % 10 != 0:
            out.append((0, f"reverse of {o}"))
        if v == nb.digits_sum(u):
            out.append((1, f"digit sum of {o}"))
        if u != v and abs(v - u) <= 60:
            out.append((1, f"{o} + {v - u}" if v > u else f"{o} - {u - v}"))
        for o2, u2 in others:
            if o2 > o and u + u2 == v:
                out.append((0, f"{o} + {o2}"))
            if o2 != o and u - u2 == v:
                out.append((0, f"{o} - {o2}"))
    for k in WEAK_KINDS:
        if nb.kind_test(k)(v):
            out.append((2, k))
    out.append((2, f"digit sum {nb.digits_sum(v)}"))
    out.append((3, "even" if v % 2 == 0 else "odd"))
    out.extend(_digit_candidates(name, v, values))
    return out


def _digit_candidates(name: str, v: int, values: dict[str, int]) -> list[tuple[int, str]]:
    """Clue parts about the value's own digits and its order among the other entries
    (issue 21: digit products, digit counts, persistence, single digits in words,
    relations between entries), each true of v. Only parts that read as words or a
    documented function are drawn ("all digits odd", "the second digit is greater than
    the others", never a formula of `%` and `/`). Strengths sit beside the number kinds
    so that the rng draws them as often as a kind: a generated puzzle then reads like a
    published one instead of a list of sums."""
    out: list[tuple[int, str]] = []
    digits = [int(c) for c in str(v)]
    n = len(digits)
    dp = nb.digits_product(v)
    if dp:
        out.append((1, f"digit product {dp}"))
    lo, hi = min(digits), max(digits)
    if hi - lo <= 4 and n >= 2:  # every digit within a narrow band
        out.append((1, f"$countdigits({name}, {lo}, {hi}) = {n}"))
    big = sum(1 for d in digits if d >= 5)
    out.append((2, f"$countdigits({name}, 5, 9) = {big}"))
    if n >= 2:
        out.append((2, f"persistence {nb.persistence(v)}"))
    out.extend(_single_digit_candidates(digits))
    for o, u in sorted(values.items()):
        if o != name and u != v:  # a relation between entries
            out.append((3, f"{name} {'>' if v > u else '<'} {o}"))
    return out


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _single_digit_candidates(digits: list[int]) -> list[tuple[int, str]]:
    """Parts in words about single digits (digitclues.py), each true of ``digits``: the
    solver narrows the entry's cells with them directly (digitcon.py)."""
    out: list[tuple[int, str]] = []
    n = len(digits)
    if n < 2:
        return out
    if all(d % 2 for d in digits):
        out.append((1, "all digits odd"))
    elif all(d % 2 == 0 for d in digits):
        out.append((1, "all digits even"))
    top = max(digits)
    if n >= 3 and digits.count(top) == 1:
        out.append((1, f"the {ORDINALS[digits.index(top)]} digit is greater than the others"))
    if n >= 3 and len(set(digits)) == n:
        out.append((2, "no digit repeated"))
    if digits[0] != digits[-1]:
        rel = "greater" if digits[0] > digits[-1] else "less"
        out.append((2, f"the first digit is {rel} than the last"))
    if n >= 3 and digits[0] + digits[1] == digits[2]:
        out.append((1, "the first two digits sum to the third"))
    k = 1 + (sum(digits) % n)  # one position, fixed by the value (no rng drawn here)
    out.append((3, f"digit {k} is {digits[k - 1]}"))
    return out


# Work limits in search nodes, not seconds, so generation is deterministic on any machine.
FILL_NODES = 400
CHECK_NODES = 3000
#: CPU seconds per solve: a net that stops runaway work loudly, never a budget that
#: decides (the node limits above decide; docs/limits.md)
FILL_SECONDS = 30.0
CHECK_SECONDS = 60.0
MAX_DROP_TRIES = 24

FILL_KINDS = (
    "prime",
    "square",
    "triangular",
    "palindrome",
    "cube",
    "prime",
    "square",
    "triangular",
)


def _fill(rng: random.Random, rows: list[str], grid: Any) -> dict | None:
    """Random digits where about half of the entries are a random number kind (so the
    clues can say something stronger than a digit sum); the solver with a shuffled
    search order does the filling."""
    starts = {e.cells[0] for e in grid.entries.values()}
    names = sorted(grid.entries)
    clued = set(rng.sample(names, k=max(1, len(names) // 2)))
    kinds = {n: (rng.choice(FILL_KINDS) if n in clued else "unclued") for n in names}
    text = _text(rows, {n: [k] for n, k in kinds.items()}, "fill")
    model = parse_model(text)
    res = solve(
        model, limit=1, time_limit=FILL_SECONDS, node_limit=FILL_NODES, log_steps=False, rng=rng
    )
    fail_if_timed_out(res, "filling a cross-number grid", FILL_SECONDS)
    if res.solutions:
        return dict(res.solutions[0].cells)
    if not res.complete:
        return None
    return {rc: str(rng.randint(1 if rc in starts else 0, 9)) for rc in grid.cells()}


def _mentions(part: str) -> set[str]:
    return set(re.findall(r"\b[AD]\d+\b", part))


class _BlockDumper(yaml.SafeDumper):
    """Writes multi-line strings as YAML literal blocks (``grid: |``) so a generated
    file shows the grid as rows, the way a setter writes it, not as a quoted string."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str)


def _text(grid_rows: list[str], clues: dict[str, list[str]], title: str) -> str:
    data: dict[str, Any] = {
        "title": title,
        "grid": "\n".join(grid_rows) + "\n",
        "clues": {k: "; ".join(v) if v else "unclued" for k, v in clues.items()},
    }
    return yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True)


def _solve(text: str, steps: bool = False) -> tuple[Model, SolveResult]:
    model = parse_model(text)
    res = solve(model, limit=2, time_limit=CHECK_SECONDS, node_limit=CHECK_NODES, log_steps=steps)
    return model, fail_if_timed_out(res, "checking a generated cross-number", CHECK_SECONDS)


def generate_puzzle(
    rng: random.Random,
    *,
    size: int = 3,
    max_attempts: int = 12,
    stats: dict[str, int] | None = None,
) -> tuple[str, Model, SolveResult]:
    """Puzzle-file text, its model and its (unique) solve result with its step log (the
    family rates the puzzle by that path); deterministic for rng: every limit is counted
    in search nodes, never in seconds. ``stats``, when given, counts the attempts and
    why each failed one was dropped (bench/crossnumber_generate.py reports the rate)."""
    if size not in TEMPLATES:
        raise ConfigError(
            f"size {size!r} has no grid templates",
            field="size",
            expected=f"one of {', '.join(map(str, sorted(TEMPLATES)))}",
        )
    reasons: dict[str, int] = {} if stats is None else stats
    for _attempt in range(max_attempts):
        reasons["attempts"] = reasons.get("attempts", 0) + 1
        rows = rng.choice(TEMPLATES[size])
        grid = parse_block_grid(rows)
        cells = _fill(rng, rows, grid)
        if cells is None:
            reasons["no fill"] = reasons.get("no fill", 0) + 1
            continue
        values = {n: int("".join(cells[rc] for rc in e.cells)) for n, e in grid.entries.items()}
        if len(set(values.values())) != len(values):
            reasons["repeated answer"] = reasons.get("repeated answer", 0) + 1
            continue
        cands = {n: _candidates(n, v, values) for n, v in values.items()}
        clues: dict[str, list[str]] = {}
        start_parts = 1 if size <= 3 else 2
        for n in values:
            # no clue that mentions an entry whose clue already mentions this one
            ranked = sorted(
                (s, p)
                for s, p in cands[n]
                if not any(n in _mentions(q) for o in _mentions(p) for q in clues.get(o, []))
            )
            clues[n] = []
            for _ in range(start_parts):
                left = [(s, p) for s, p in ranked if p not in clues[n]]
                if not left:
                    break
                best = left[0][0]
                clues[n].append(rng.choice([p for s, p in left if s == best]))
        ok = False
        for _ in range(3 * len(values)):
            text = _text(rows, clues, "Generated cross-number")
            model, result = _solve(text)
            if result.count == 1 and result.complete:
                ok = True
                break
            if result.count == 0 or not result.complete and result.count < 2:
                break
            a, b = result.solutions[0], result.solutions[1]
            differ = sorted(n for n in values if a.values.get(n) != b.values.get(n))
            rng.shuffle(differ)
            added = 0
            for n in differ:  # strengthen up to half of the entries that differ
                unused = sorted((s, p) for s, p in cands[n] if p not in clues[n])
                if unused:
                    best = unused[0][0]
                    clues[n].append(rng.choice([p for s, p in unused if s == best]))
                    added += 1
                    if added * 2 >= len(differ):
                        break
            if not added:
                break
        if not ok:
            reasons["not unique"] = reasons.get("not unique", 0) + 1
            continue
        # drop clue parts that are not needed, in rng order
        parts = [(n, p) for n in sorted(clues) for p in clues[n]]
        rng.shuffle(parts)
        for n, p in parts[:MAX_DROP_TRIES]:
            trial = {k: [q for q in v if not (k == n and q == p)] for k, v in clues.items()}
            if not trial[n]:
                continue
            m2, r2 = _solve(_text(rows, trial, "Generated cross-number"))
            if r2.count == 1 and r2.complete:
                clues = trial
        text = _text(rows, clues, "Generated cross-number")
        model, result = _solve(text, steps=True)  # the step log rates the puzzle
        if result.count == 1 and result.complete:
            return text, model, result
        reasons["lost uniqueness"] = reasons.get("lost uniqueness", 0) + 1
    raise GenerationFailed(
        "could not build a cross-number with a unique solution",
        attempts=max_attempts,
        reasons={k: v for k, v in reasons.items() if k != "attempts"},
    )
