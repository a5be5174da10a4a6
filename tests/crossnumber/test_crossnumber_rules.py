"""Puzzle-wide rules, grid formats and entry transforms, each on a small real puzzle."""

from __future__ import annotations

import yaml

from puzzleforge.crossnumber.grid import parse_grid
from puzzleforge.crossnumber.model import parse_model
from puzzleforge.crossnumber.solver import check_grid, solve


def make(clues, grid, rules=None, **extra):
    data = {"title": "t", "grid": "\n".join(grid) + "\n", "clues": clues, **extra}
    if rules:
        data["rules"] = rules
    return parse_model(yaml.safe_dump(data, sort_keys=False))


def test_block_grid_numbering_is_standard() -> None:
    g = parse_grid("...#\n....\n....\n#...\n")
    assert list(g.entries) == ["A1", "A4", "A6", "A7", "D1", "D2", "D3", "D5"]
    assert g.entries["D5"].cells == ((1, 3), (2, 3), (3, 3))
    assert g.entries["A7"].cells == ((3, 1), (3, 2), (3, 3))


def test_barred_grid_entries() -> None:
    g = parse_grid("+--+--+--+\n|1 :2 |3 |\n+::+::+::+\n|4 :  :  |\n+--+--+--+\n")
    assert set(g.entries) == {"A1", "A4", "D1", "D2", "D3"}
    assert g.entries["A4"].cells == ((1, 0), (1, 1), (1, 2))


def test_given_digits_inline_and_overlay() -> None:
    m = make({"A1": "square", "A3": "unclued", "D1": "prime", "D2": "square"}, ["1.", ".."])
    res = solve(m, limit=10)
    assert res.count >= 1 and all(s.cells[(0, 0)] == "1" for s in res.solutions)
    m2 = make(
        {"A1": "square", "A3": "unclued", "D1": "unclued", "D2": "unclued"},
        ["..", ".."],
        givens="6.\n..\n",
    )
    assert all(s.cells[(0, 0)] == "6" for s in solve(m2, limit=5).solutions)


def test_answers_distinct_by_default_and_optional() -> None:
    clues = {"A1": "11", "A3": "unclued", "D1": "unclued", "D2": "unclued"}
    m = make(clues, ["..", ".."])
    assert check_grid(m, ["11", "11"]) is None  # A1 = A3 = D1 = D2 = 11
    m2 = make(clues, ["..", ".."], rules={"distinct": False})
    assert check_grid(m2, ["11", "11"]) is not None


def test_leading_zeros_rule() -> None:
    clues = {"A1": "unclued", "A3": "unclued", "D1": "unclued", "D2": "unclued"}
    assert check_grid(make(clues, ["..", ".."]), ["10", "23"]) is None  # D2 = 03
    assert (
        check_grid(make(clues, ["..", ".."], rules={"leading_zeros": True}), ["10", "23"])
        is not None
    )


def test_allowed_digits() -> None:
    m = make({"A1": "square"}, ["..."], rules={"digits": "1-6"})
    res = solve(m, limit=50)
    vals = sorted(s.values["A1"] for s in res.solutions)
    assert vals == [v * v for v in range(10, 32) if set(str(v * v)) <= set("123456")]


def test_each_digit_used_once() -> None:
    m = make(
        {"A1": "square", "A2": "square", "A3": "square"},
        ["...", "###", "...", "###", "..."],
        rules={"digits_once": True, "distinct": True},
    )
    res = solve(m, limit=20)
    assert res.complete and res.count > 0
    for s in res.solutions:
        digits = "".join(r for r in s.rows(m)).replace("#", "")
        assert len(set(digits)) == len(digits)


def test_no_repeat_in_rows_columns_diagonals() -> None:
    clues = {
        "A1": "unclued",
        "A4": "unclued",
        "A5": "unclued",
        "D1": "unclued",
        "D2": "unclued",
        "D3": "unclued",
    }
    m = make(
        clues,
        ["...", "...", "..."],
        rules={"no_repeat": ["rows", "columns", "diagonals"], "distinct": False},
    )
    assert check_grid(m, ["123", "231", "312"]) is None  # diagonal 3,3? anti-diagonal 3,3,3
    assert check_grid(m, ["123", "312", "231"]) is None  # main diagonal 1,1,1
    m2 = make(
        clues, ["...", "...", "..."], rules={"no_repeat": ["rows", "columns"], "distinct": False}
    )
    assert check_grid(m2, ["123", "231", "312"]) is not None
    assert check_grid(m2, ["123", "213", "312"]) is None


def test_one_answer_is_another_reversed() -> None:
    clues = {"A1": "unclued", "A3": "unclued", "D1": "unclued", "D2": "unclued"}
    m = make(clues, ["..", ".."], rules={"reversed_pair": True, "distinct": False})
    assert check_grid(m, ["12", "34"]) is None  # 12 34 13 24
    assert check_grid(m, ["13", "31"]) is not None  # 13, 31 ...


def test_grid_digit_sum_rule() -> None:
    clues = {"A1": "unclued", "A3": "unclued", "D1": "unclued", "D2": "unclued"}
    m = make(clues, ["..", ".."], rules={"grid_digit_sum": 10})
    assert check_grid(m, ["12", "34"]) is not None
    assert check_grid(m, ["12", "35"]) is None


def test_entry_transformed_before_entry() -> None:
    m = make(
        {"A1": "= 2*A2", "A2": "unclued"},
        ["...", "###", "..."],
        entries={"A1": {"transform": "reverse"}},
    )
    # A2 = 123 -> A1 value 246, entered reversed as 642
    assert check_grid(m, ["642", "###", "123"]) is not None
    assert check_grid(m, ["246", "###", "123"]) is None


def test_unnumbered_clues_are_mapped_to_entries() -> None:
    data = {
        "title": "t",
        "grid": "...\n###\n...\n",
        "rules": {"clue_order": "ascending"},
        "clues": {
            "across": [
                {"label": "X1", "clue": "square", "cells": 3},
                {"label": "X2", "clue": "X1 + 1", "cells": 3},
            ]
        },
    }
    m = parse_model(yaml.safe_dump(data))
    res = solve(m, limit=50)
    assert res.complete and res.count > 0
    for s in res.solutions:
        assert s.values["X2"] == s.values["X1"] + 1 and {s.mapping["X1"], s.mapping["X2"]} == {
            "A1",
            "A2",
        }


def test_two_digit_cells() -> None:
    data = {
        "title": "t",
        "grid": "..\n##\n..\n",
        "rules": {"cell_values": "0..12", "cell_values_once": [10, 12]},
        "clues": {"A1": "= A2 * 11", "A2": "unclued"},
    }
    m = parse_model(yaml.safe_dump(data))
    assert check_grid(m, [["10", "12"], ["#", "#"], ["9", "2"]]) is not None  # 1012 = 92*11
    res = solve(m, limit=20)
    assert res.complete and all(s.values["A1"] == 11 * s.values["A2"] for s in res.solutions)
    assert [["10", "12"], ["#", "#"], ["9", "2"]] in [
        [r.split() for r in s.rows(m, " ")] for s in res.solutions
    ]
    assert check_grid(m, [["1", "1"], ["#", "#"], ["1", "1"]]) is None


def test_named_hook_filters_solutions() -> None:
    clues = {"A1": "unclued", "A3": "unclued", "D1": "unclued", "D2": "unclued"}
    plain = make(clues, ["..", ".."], rules={"distinct": False})
    hooked = make(clues, ["..", ".."], rules={"distinct": False, "hooks": ["distinct_rows"]})
    assert check_grid(plain, ["12", "12"]) is not None
    assert check_grid(hooked, ["12", "12"]) is None
    assert check_grid(hooked, ["12", "13"]) is not None


def test_steps_explain_deductions_in_order() -> None:
    m = make({"A1": "square", "A3": "prime", "D1": "prime", "D2": "square"}, ["..", ".."])
    res = solve(m)
    texts = [s.text for s in res.steps.steps]
    assert texts[0].startswith("A1 is square with 2 digits")
    assert any("; so cells r" in t for t in texts)  # an entry's new digits told in its step
    assert res.steps.to_json()[0]["kind"] == "kind"
    assert "solution 1" in res.steps.text()
