"""Division by zero in a cross-number clue (issue 19): a clear error naming the file and
the clue, both where the parser alone can tell (a divisor that is 0 whatever its unknowns
are) and where only the variables' domain can (a divisor that is 0 for every value the
solver could try); a divisor that is 0 for some values only is no error, the solver
skips those values. Through the real CLI (``crossnumber solve`` and ``show``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app

GRID = "grid: |\n  +--+--+\n  |1 :2 |\n  +::+::+\n  |3 :  |\n  +--+--+\n"


def _file(tmp_path: Path, variables: str, a1: str) -> Path:
    path = tmp_path / "p.yaml"
    path.write_text(
        GRID
        + variables
        + f"clues:\n  A1: {a1}\n  A3: triangular\n  D1: triangular\n  D2: square\n",
        encoding="utf-8",
    )
    return path


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


XY09 = "variables:\n  names: XY\n  domain: 0..9\n"


@pytest.mark.parametrize(
    "a1, column, shown",
    [
        ("X / (Y - Y)", 3, " ((Y - Y) is always 0)"),
        ("X * 0 + 10 / (0 * Y)", 12, " ((0 * Y) is always 0)"),
        ("X % (D1 % 1)", 3, " ((D1 % 1) is always 0)"),
        ("10 / -(X % X)", 4, " (-(X % X) is always 0)"),
        ("D1 % 0", 4, ""),
    ],
)
@pytest.mark.parametrize("command", ["solve", "show"])
def test_a_divisor_that_is_always_zero_is_refused_by_the_parser(
    tmp_path: Path, a1: str, column: int, shown: str, command: str
) -> None:
    path = _file(tmp_path, XY09, a1)
    code, text = _run("crossnumber", command, str(path))
    assert code == 2, text
    assert text == (
        f"error (clue expression error): {path}:11, field 'clues.A1': division by zero"
        f"{shown} at position {column} of expression:\n{a1}\n{' ' * (column - 1)}^\n. "
        "Expected a divisor that can be non-zero.\n"
    )


@pytest.mark.parametrize(
    "domain, names, a1, divisor",
    [
        ("0..0", "X", "10 / X", "X"),
        ("5..5", "XY", "60 / (X - Y) + D1", "(X - Y)"),
        ("[4, 4]", "XY", "D2 % (X - Y)", "(X - Y)"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "show"])
def test_a_divisor_that_is_zero_over_the_whole_domain_names_the_clue(
    tmp_path: Path, domain: str, names: str, a1: str, divisor: str, command: str
) -> None:
    path = _file(tmp_path, f"variables:\n  names: {names}\n  domain: {domain}\n", a1)
    code, text = _run("crossnumber", command, str(path))
    assert code == 2, text
    listed = ", ".join(sorted(set(names) & set(divisor)))
    assert text == (
        f"error (invalid spec): {path}:11, field 'clues.A1': division by zero: the divisor "
        f"{divisor} is 0 for every value of {listed} in variables.domain, so the clue "
        f"'{a1}' can never hold. Expected a divisor that is non-zero for some value of "
        "the variables.\n"
    )


def test_a_divisor_that_is_zero_for_some_values_only_is_solved(tmp_path: Path) -> None:
    # 60 / Y over Y in 0..9: Y = 0 has no value and is skipped. By hand: A1 = 60/Y is two
    # digits for Y in 1..6 (60, 30, 20, 15, 12, 10); D2 (A1's 2nd digit over A3's) a
    # square rules out 60, 30, 20, 10 (no leading zero) and leaves 15 (5x: none) and 12
    # (2x: 25), so A3 = x5 triangular (15, 45, 55) and D1 = 1x triangular (11, 14, 15:
    # only 15) -> A3 = 55, D1 = 15, D2 = 25. One solution: Y = 5, rows 12 / 55.
    path = _file(tmp_path, "variables:\n  names: Y\n  domain: 0..9\n", "60 / Y")
    code, text = _run("crossnumber", "solve", str(path), "--json")
    assert code == 0, text
    data = json.loads(text)
    assert [s["rows"] for s in data["solutions"]] == [["12", "55"]]
    assert [s["variables"] for s in data["solutions"]] == [{"Y": 5}]
