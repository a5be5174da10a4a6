"""Stricter puzzle-file validation (issue 21): numbers where no entry starts, white cells in
no entry and entry numbers used twice are refused with one paragraph naming the file, the
YAML line and the field, loaded from real files like a setter's."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.core.errors import InvalidSpec
from puzzleforge.crossnumber.model import load_model

BARRED_OK = """\
title: barred
grid: |
  +--+--+--+
  |1 :2 :3 |
  +::+::+::+
  |4 :  :  |
  +--+--+--+
clues:
  A1: unclued
"""


def load_error(tmp_path: Path, text: str) -> InvalidSpec:
    path = tmp_path / "setter.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidSpec) as info:
        load_model(path)
    e = info.value
    assert str(path) in str(e) and "\n" not in str(e)
    return e


def test_good_barred_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(BARRED_OK, encoding="utf-8")
    assert sorted(load_model(path).entries) == ["A1", "A4", "D1", "D2", "D3"]


def test_number_where_no_entry_starts(tmp_path: Path) -> None:
    # the cell at row 2, column 2 continues A4 and D2: a '5' there starts nothing
    e = load_error(tmp_path, BARRED_OK.replace("|4 :  :  |", "|4 :5 :  |"))
    assert e.field == "grid" and e.line == 6
    assert "row 2, column 2 is numbered 5 but no entry starts there" in str(e)
    assert f"{tmp_path / 'setter.yaml'}:6, field 'grid'" in str(e)


def test_barred_cell_in_no_entry(tmp_path: Path) -> None:
    text = """\
title: orphan
grid: |
  +--+--+--+
  |1 :2 :3 |
  +::+::+::+
  |4 :  :  |
  +::+::+--+
  |5 :  |  |
  +--+--+--+
clues:
  A1: unclued
"""
    e = load_error(tmp_path, text)
    assert e.field == "grid" and e.line == 8
    assert "the white cell at row 3, column 3 is in no entry" in str(e)


def test_block_cell_in_no_entry(tmp_path: Path) -> None:
    text = "title: orphan\ngrid: |\n  ..#\n  ###\n  #.#\nclues:\n  A1: unclued\n"
    e = load_error(tmp_path, text)
    assert e.field == "grid" and e.line == 5
    assert "the white cell at row 3, column 2 is in no entry" in str(e)
    assert "Expected every white cell in an entry of at least 2 cells" in str(e)


def test_entry_number_used_twice(tmp_path: Path) -> None:
    e = load_error(tmp_path, BARRED_OK.replace("|4 :  :  |", "|1 :  :  |"))
    assert e.field == "grid" and e.line == 6
    assert "the number 1 at row 2, column 1 starts a second across entry A1" in str(e)
