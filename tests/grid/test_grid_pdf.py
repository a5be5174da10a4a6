"""PDF sheets of grid puzzles and cross-numbers from the CLI (``--pdf PATH``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app
from puzzleforge.grid.genres import GENRES

runner = CliRunner()


def _pages(path: Path) -> int:
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    return len(re.findall(rb"/Type /Page\b(?!s)", data))  # page objects, not the tree


@pytest.mark.parametrize("genre", list(GENRES))
def test_grid_generate_and_solve_write_pdf_sheets(genre: str, tmp_path: Path) -> None:
    size = "5x5" if genre not in ("unruly", "binairo", "sudoku") else "4x4"
    text, sheet, solved = tmp_path / "p.txt", tmp_path / "p.pdf", tmp_path / "s.pdf"
    res = runner.invoke(
        app,
        [
            "grid",
            "generate",
            genre,
            "--size",
            size,
            "--seed",
            "2",
            "--out",
            str(text),
            "--pdf",
            str(sheet),
        ],
    )
    assert res.exit_code == 0, res.output
    assert _pages(sheet) == 1
    again = tmp_path / "again.pdf"
    runner.invoke(
        app,
        [
            "grid",
            "generate",
            genre,
            "--size",
            size,
            "--seed",
            "2",
            "--out",
            str(tmp_path / "q.txt"),
            "--pdf",
            str(again),
        ],
    )
    assert again.read_bytes() == sheet.read_bytes()  # same seed, same bytes
    res = runner.invoke(app, ["grid", "solve", str(text), "--pdf", str(solved)])
    assert res.exit_code == 0, res.output
    assert _pages(solved) == 2  # the puzzle, then the solution


def test_crossnumber_solve_and_generate_write_pdf_sheets(tmp_path: Path) -> None:
    from puzzleforge.crossnumber.api import bundled_dir

    solved = tmp_path / "abcd.pdf"
    res = runner.invoke(
        app, ["crossnumber", "solve", str(bundled_dir() / "abcd.yaml"), "--pdf", str(solved)]
    )
    assert res.exit_code == 0, res.output
    assert _pages(solved) >= 2
    sheet = tmp_path / "gen.pdf"
    res = runner.invoke(
        app,
        [
            "crossnumber",
            "generate",
            "--seed",
            "3",
            "--pdf",
            str(sheet),
            "--out",
            str(tmp_path / "gen.yaml"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert _pages(sheet) == 1
