"""A genre of one's own from one .py file: every grid command takes --genre-file; a broken
file gives a one-paragraph error naming it; the DSL checks data ranges and counts lists."""

from __future__ import annotations

import itertools
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from puzzleforge.grid import Bool, CountTrue, Grid, Param
from puzzleforge.grid.domains import DSLError

ROOT = Path(__file__).resolve().parents[2]
HITORI = ROOT / "examples" / "genres" / "hitori.py"
PUZZLE = ROOT / "examples" / "genres" / "hitori-5x5.txt"
CLI = [sys.executable, "-m", "puzzleforge.cli.main", "grid"]


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def _brute_force_hitori(numbers: list[list[int]]) -> list[tuple[tuple[int, ...], ...]]:
    """Every shading obeying the three Hitori rules, by enumeration (independent of the DSL)."""
    n = len(numbers)
    masks = [m for m in range(1 << n) if not m & (m >> 1)]
    rows_ok = [
        [
            m
            for m in masks
            if len([numbers[r][c] for c in range(n) if not m >> c & 1])
            == len({numbers[r][c] for c in range(n) if not m >> c & 1})
        ]
        for r in range(n)
    ]
    found = []
    for combo in itertools.product(*rows_ok):
        if any(a & b for a, b in pairwise(combo)):
            continue
        white = {(r, c) for r in range(n) for c in range(n) if not combo[r] >> c & 1}
        if any(
            len([numbers[r][c] for r in range(n) if (r, c) in white])
            != len({numbers[r][c] for r in range(n) if (r, c) in white})
            for c in range(n)
        ):
            continue
        start = next(iter(white))
        seen, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for d in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if d in white and d not in seen:
                    seen.add(d)
                    stack.append(d)
        if seen == white:
            found.append(tuple(tuple(combo[r] >> c & 1 for c in range(n)) for r in range(n)))
    return found


def test_a_genre_file_solves_hints_and_exports() -> None:
    numbers = [[int(t) for t in line.split()] for line in PUZZLE.read_text().splitlines()[1:]]
    (only,) = _brute_force_hitori(numbers)
    solved = _run("solve", "--genre-file", str(HITORI), str(PUZZLE))
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith("hitori 5x5: unique solution")
    assert "\n".join("".join(map(str, row)) for row in only) in solved.stdout
    hint = _run("hint", "--genre-file", str(HITORI), str(PUZZLE))
    assert hint.returncode == 0 and hint.stdout.startswith("[")
    smt = _run("smtlib", "--check", "--genre-file", str(HITORI), str(PUZZLE))
    assert smt.returncode == 0 and "z3 and SAT agree: True" in smt.stderr
    listed = _run("genres", "--genre-file", str(HITORI))
    assert "hitori" in listed.stdout
    without = _run("solve", str(PUZZLE))
    assert without.returncode == 2 and "--genre-file" in without.stderr


@pytest.mark.parametrize(
    "body, message",
    [
        ("def broken(:\n", "mine.py:1: the genre file failed to load: SyntaxError"),
        (
            "import no_such_module_here\n",
            "mine.py:1: the genre file failed to load: ModuleNotFoundError",
        ),
        (
            "from puzzleforge.grid.genre import Genre\nclass A(Genre):\n    id = 'a'\n"
            "class B(Genre):\n    id = 'b'\n",
            "the file defines 2 Genre subclasses (A, B)",
        ),
        ("x = 1\n", "the file defines 0 Genre subclasses"),
        (
            HITORI.read_text().replace('id = "hitori"', 'id = "sudoku"'),
            "genre id 'sudoku' is a built-in genre's",
        ),
        (
            HITORI.read_text().replace('id = "hitori"', 'id = "Hitori!"'),
            "genre id 'Hitori!' is not a lowercase word",
        ),
        (
            "from puzzleforge.grid.genre import Genre\nclass A(Genre):\n    id = 'a'\n",
            "genre 'a' does not define build_rules, parse, format, drawing",
        ),
        (
            HITORI.read_text().replace("~(black[c] & black[d])", "black[c] and black[d]"),
            "the rules of genre 'hitori' do not build",
        ),
    ],
)
def test_a_broken_genre_file_is_one_clear_error(tmp_path: Path, body: str, message: str) -> None:
    bad = tmp_path / "mine.py"
    bad.write_text(body)
    result = _run("solve", "--genre-file", str(bad), str(PUZZLE))
    assert result.returncode == 2
    assert message in result.stderr and str(bad) in result.stderr
    assert "Traceback" not in result.stderr


def test_data_outside_its_declared_range_is_refused(tmp_path: Path) -> None:
    wide = tmp_path / "big.txt"
    wide.write_text(PUZZLE.read_text().replace("3 4 2 5 1", "3 4 2 5 13"))
    result = _run("solve", "--genre-file", str(HITORI), str(wide))
    assert result.returncode == 2
    assert "Const 'number' holds 13 at Cell(0,4), outside its domain Int(1, 12)" in result.stderr


def test_count_true_counts_any_list_of_booleans() -> None:
    grid = Grid(Param("nR", int), Param("nC", int))
    b = Bool.over(grid.C, name="b")
    counted = CountTrue([b[grid.cell(0, 0)], ~b[grid.cell(0, 1)]])
    assert counted.type == "int"
    assert str(CountTrue(b[grid.cell(0, i)] for i in range(3))).count("if(") == 3
    with pytest.raises(DSLError, match="CountTrue expects Boolean arguments"):
        CountTrue([1, 2])
