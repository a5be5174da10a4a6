"""Generated cross-numbers: richer clue kinds, uniqueness, determinism and the rating by
the solving path (issue 21: "the generator produces clues of the richer kinds and rates
difficulty by the solving path")."""

from __future__ import annotations

import itertools
import random
import re

import yaml

from puzzleforge.crossnumber import api, kinds
from puzzleforge.crossnumber.family import Params, family, path_rating
from puzzleforge.crossnumber.solver import solve

#: clue parts about an entry's own digits or its order among the entries, which the
#: generator did not draw before issue 21
RICHER = re.compile(r"^(digit product \d+|\$countdigits\(|persistence \d+|[AD]\d+ [<>] [AD]\d+$)")


def _parts(puzzle_file: str) -> list[str]:
    clues = yaml.safe_load(puzzle_file)["clues"]
    return [p.strip() for text in clues.values() for p in str(text).split(";")]


def test_generated_puzzles_are_unique_by_solver_and_by_refuting_every_other_digit() -> None:
    """Unique by the solver (limit 2), and independently: pinning any white cell to any
    other digit leaves no solution (a different search for each of the 63-81 cases)."""
    for seed in (0, 1):
        p = family.generate(Params(mode="generate", size=3), random.Random(seed))
        model = api.parse_puzzle(p.meta["puzzle_file"])
        res = api.solve_puzzle(model, limit=2, steps=False)
        assert res.complete and res.count == 1
        rows = p.answer.splitlines()
        assert api.answer_text(model, res.solutions[0]) == p.answer
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "#":
                    continue
                for d in "0123456789":
                    if d != ch:
                        other = solve(model, limit=1, log_steps=False, fixed={(r, c): d})
                        assert other.complete and other.count == 0, (seed, r, c, d)


def test_generation_is_deterministic_by_seed() -> None:
    for size, seed in ((3, 5), (4, 1)):
        a = family.generate(Params(mode="generate", size=size), random.Random(seed))
        b = family.generate(Params(mode="generate", size=size), random.Random(seed))
        assert a.to_json() == b.to_json()
        assert a.meta["puzzle_file"] == b.meta["puzzle_file"]


def test_richer_clue_kinds_are_drawn_and_true_of_the_solution() -> None:
    richer = []
    for seed in range(4):
        p = family.generate(Params(mode="generate", size=3), random.Random(seed))
        values = p.solution["values"]
        for part in _parts(p.meta["puzzle_file"]):
            if RICHER.match(part):
                richer.append(part)
        clues = yaml.safe_load(p.meta["puzzle_file"])["clues"]
        for name, text in clues.items():
            for part in str(text).split(";"):
                m = re.fullmatch(r"digit product (\d+)", part.strip())
                if m:  # checked here with plain arithmetic, not the solver
                    assert kinds.digits_product(values[name]) == int(m.group(1))
    assert richer, "no richer clue kind in 4 seeds"


def _brute_2x2(tests: dict[str, object]) -> list[tuple[int, int]]:
    """Every 2x2 digit grid (A1, A3 across; D1, D2 down; no leading zero, distinct
    answers) whose entries pass ``tests``: the independent answer for the cases below."""
    found = []
    for a, b, c, d in itertools.product(range(10), repeat=4):
        if a == 0 or c == 0 or b == 0:
            continue
        vals = {"A1": 10 * a + b, "A3": 10 * c + d, "D1": 10 * a + c, "D2": 10 * b + d}
        if len(set(vals.values())) == 4 and all(t(vals[n]) for n, t in tests.items()):  # type: ignore[operator]
            found.append((vals["A1"], vals["A3"]))
    return found


def test_rating_is_monotone_propagation_alone_below_a_case_split() -> None:
    """Two 2x2 puzzles, each unique by brute force: one solved by propagation alone, one
    that needs a case split; the first rates below the second, and the tiers differ."""
    sq, tri, pr = kinds.kind_test("square"), kinds.kind_test("triangular"), kinds.kind_test("prime")
    easy_tests = {"A1": sq, "A3": sq, "D1": pr, "D2": sq}
    hard_tests = {"A1": sq, "A3": sq, "D1": tri, "D2": lambda v: v % 2 == 0}
    assert len(_brute_2x2(easy_tests)) == 1 and _brute_2x2(hard_tests) == [(25, 16)]
    ratings = []
    for clues, nodes in (
        ("square, square, prime, square", 1),
        ("square, square, triangular, even", 2),
    ):
        a1, a3, d1, d2 = clues.split(", ")
        text = f"grid: |\n  ..\n  ..\nclues:\n  A1: {a1}\n  A3: {a3}\n  D1: {d1}\n  D2: {d2}\n"
        model = api.parse_puzzle(text)
        res = api.solve_puzzle(model, limit=2)
        assert res.count == 1 and res.complete and res.nodes == nodes
        ratings.append(path_rating(res, model))
    assert ratings == [0.8, 7.0]
    assert [family.difficulty_scale.tier(r) for r in ratings] == ["easy", "hard"]


def test_rating_without_a_step_log_falls_back_to_search_nodes() -> None:
    text = "grid: |\n  ..\n  ..\nclues:\n  A1: square\n  A3: square\n  D1: prime\n  D2: square\n"
    model = api.parse_puzzle(text)
    res = api.solve_puzzle(model, limit=2, steps=False)
    assert path_rating(res, model) == 0.0


ORD = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4}


def _digit_phrase_holds(part: str, value: int) -> bool | None:
    """The generator's single-digit phrases re-checked with plain string tests (None: not
    such a phrase)."""
    s = str(value)
    if part == "all digits odd":
        return all(c in "13579" for c in s)
    if part == "all digits even":
        return all(c in "02468" for c in s)
    if part == "no digit repeated":
        return len(set(s)) == len(s)
    if part == "the first two digits sum to the third":
        return int(s[0]) + int(s[1]) == int(s[2])
    m = re.fullmatch(r"the first digit is (greater|less) than the last", part)
    if m:
        return s[0] > s[-1] if m.group(1) == "greater" else s[0] < s[-1]
    m = re.fullmatch(r"the (\w+) digit is greater than the others", part)
    if m:
        i = ORD[m.group(1)]
        return all(s[i] > c for j, c in enumerate(s) if j != i)
    m = re.fullmatch(r"digit (\d) is (\d)", part)
    if m:
        return s[int(m.group(1)) - 1] == m.group(2)
    return None


def test_single_digit_phrases_are_drawn_and_true_of_the_solution() -> None:
    seen = []
    for seed in range(6):
        p = family.generate(Params(mode="generate", size=3), random.Random(seed))
        values = p.solution["values"]
        clues = yaml.safe_load(p.meta["puzzle_file"])["clues"]
        for name, text in clues.items():
            for part in str(text).split(";"):
                ok = _digit_phrase_holds(part.strip(), values[name])
                if ok is not None:
                    seen.append(part.strip())
                    assert ok, (seed, name, part, values[name])
    assert seen, "no single-digit phrase in 6 seeds"


def test_file_puzzles_are_rated_by_their_solving_path() -> None:
    """File mode used to rate a file with a stated solution without a step log (nodes + 1
    per 10 clues: Power Play 0.0); now it is the path rating of a solve with steps."""
    p = family.generate(Params(source=str(api.bundled_dir() / "powerplay.yaml")), random.Random(0))
    model = api.load_puzzle(api.bundled_dir() / "powerplay.yaml")
    res = api.solve_puzzle(model, limit=2)
    assert res.unique
    assert p.meta["rating"] == path_rating(res, model)
    assert p.meta["rating"] > 0.0  # the old fallback: 0 extra nodes, 9 clues // 10 = 0
