"""Bad puzzle files get one clear error naming the file, field, YAML line and expectation."""

from __future__ import annotations

import pytest

from puzzleforge.core.errors import InvalidSpec
from puzzleforge.crossnumber.model import load_model, parse_model

GOOD = """\
title: t
grid: |
  ...
  ...
clues:
  A1: prime
  A4: square
  D1: unclued
  D2: unclued
  D3: unclued
"""


def err(text: str) -> InvalidSpec:
    with pytest.raises(InvalidSpec) as info:
        parse_model(text, file="bad.yaml")
    return info.value


def test_good_file_parses() -> None:
    assert parse_model(GOOD).title == "t"


def test_unknown_clue_type() -> None:
    e = err(GOOD.replace("A1: prime", "A1: primish"))
    assert e.line == 6 and e.field == "clues.A1" and "undefined name 'primish'" in str(e)
    assert "bad.yaml:6" in str(e)


def test_entry_length_mismatch() -> None:
    e = err(GOOD.replace("A1: prime", "A1: {clue: prime, length: 4}"))
    assert "length mismatch" in str(e) and e.line == 6 and "length 3" in str(e)


def test_unnumbered_clue_with_impossible_length() -> None:
    text = "grid: |\n  ...\n  ...\nclues:\n  across:\n  - {clue: prime, cells: 5}\n  - {clue: prime, cells: 3}\n  down: []\n"
    e = err(text)
    assert "entry length mismatch" in str(e) and e.field == "clues.across[0]" and e.line == 6


def test_undefined_variable() -> None:
    text = GOOD.replace("A1: prime", "A1: AB+Q") + "variables:\n  names: AB\n  domain: 1..9\n"
    e = err(text)
    assert "undefined variable 'Q'" in str(e) and "position 4" in str(e) and e.line == 6


def test_grid_not_rectangular() -> None:
    e = err(GOOD.replace("  ...\n  ...\n", "  ...\n  ..\n", 1))
    assert "not rectangular" in str(e) and e.line == 4


def test_barred_grid_not_rectangular() -> None:
    text = "grid: |\n  +--+--+\n  |1 :  |\n  +--+\nclues: {}\n"
    e = err(text)
    assert "not rectangular" in str(e)


def test_clue_for_missing_entry() -> None:
    e = err(GOOD + "  A9: prime\n")
    assert "A9 has no entry" in str(e) and e.line == 11


def test_unknown_rule_and_top_level_key() -> None:
    assert "unknown rule" in str(err(GOOD + "rules:\n  sparkle: true\n"))
    e = err(GOOD + "colour: red\n")
    assert "unknown top-level key" in str(e) and e.line == 11


def test_missing_grid_and_bad_yaml() -> None:
    assert "missing required key 'grid'" in str(err("clues: {}\n"))
    e = err("grid: [\n")
    assert "malformed YAML" in str(e)


def test_bad_variable_order_and_domain() -> None:
    e = err(GOOD + "variables:\n  names: AB\n  order: A < C\n")
    assert "not a variable" in str(e)
    e = err(GOOD + "variables:\n  names: AB\n  domain: 9..1\n")
    assert "empty" in str(e) and e.field == "variables.domain"


def test_self_reference_must_be_a_relation() -> None:
    e = err(GOOD.replace("A1: prime", "A1: A1 + 1"))
    assert "mentions A1 itself" in str(e)


def test_unreadable_file() -> None:
    with pytest.raises(InvalidSpec) as info:
        load_model("/nonexistent/puzzle.yaml")
    assert "cannot read" in str(info.value)


def test_unknown_hook() -> None:
    e = err(GOOD + "rules:\n  hooks: [sparkle]\n")
    assert "unknown hook 'sparkle'" in str(e) and e.field == "rules.hooks"
