"""Given digits are part of the puzzle: ``crossnumber show``, the dataset question and
the empty-grid drawing must all show them (issue 21: without them a puzzle whose file
fixes digits can have many solutions as shown)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import puzzleforge
from puzzleforge.cli.main import app
from puzzleforge.crossnumber import api

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "crossnumber"
GIVENS = "givens: |\n  4.....\n  ......\n  ......\n  ......\n  ......\n  .....4\n"
LISTED = (
    "Given digits (row, column counted from the top left): row 1, column 1: 4; row 6, column 6: 4."
)
# the empty ABCD grid with only its two givens (cells drawn by hand from the givens above)
GIVENS_GRID = """\
Given digits:
+---+---+---+---+---+---+
| 4             |       |
+   +   +---+   +   +   +
|       |               |
+   +---+   +---+---+   +
|   |           |       |
+---+   +   +   +   +---+
|       |           |   |
+   +---+---+   +---+   +
|               |       |
+   +   +   +---+   +   +
|       |             4 |
+---+---+---+---+---+---+"""


def abcd_with_givens(tmp_path: Path) -> Path:
    """The bundled ABCD example with two of its published digits given (both 4)."""
    text = (EXAMPLES / "abcd.yaml").read_text(encoding="utf-8")
    path = tmp_path / "abcd_givens.yaml"
    path.write_text(text.replace("variables:\n", GIVENS + "variables:\n", 1), encoding="utf-8")
    return path


def test_show_prints_given_digits(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["crossnumber", "show", str(abcd_with_givens(tmp_path))])
    assert r.exit_code == 0
    assert LISTED in r.output and GIVENS_GRID in r.output


def test_dataset_question_shows_given_digits(tmp_path: Path) -> None:
    p = puzzleforge.generate("crossnumber", seed=0, source=str(abcd_with_givens(tmp_path)))
    assert LISTED in p.question and GIVENS_GRID in p.question
    assert p.answer.splitlines()[0] == "455451" and p.answer.splitlines()[5] == "192754"


def test_block_grid_digits_are_shown(tmp_path: Path) -> None:
    path = tmp_path / "block.yaml"
    path.write_text("title: b\ngrid: |\n  7.\n  .3\nclues:\n  A1: prime\n", encoding="utf-8")
    q = api.render_question(api.load_puzzle(path))
    assert "row 1, column 1: 7; row 2, column 2: 3." in q
    assert "Given digits:\n+---+---+\n| 7     |\n+   +   +\n|     3 |\n+---+---+" in q


def test_no_givens_no_given_section() -> None:
    q = api.render_question(api.load_puzzle(EXAMPLES / "abcd.yaml"))
    assert "Given digits" not in q
