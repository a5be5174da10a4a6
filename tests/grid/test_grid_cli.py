"""The ``puzzleforge grid`` commands, run in process on real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app
from puzzleforge.grid.genres import GENRES

runner = CliRunner()
SIZES = {"futoshiki": "6x6", "skyscrapers": "6x6"}


@pytest.mark.parametrize("genre", list(GENRES))
def test_generate_solve_rules_smtlib(genre: str, tmp_path: Path) -> None:
    out = tmp_path / f"{genre}.txt"
    res = runner.invoke(
        app,
        [
            "grid",
            "generate",
            genre,
            "--size",
            SIZES.get(genre, "6x6"),
            "--seed",
            "1",
            "--out",
            str(out),
            "--svg",
            str(tmp_path / "p.svg"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert out.read_text().startswith(genre)
    assert (tmp_path / "p.svg").read_text().startswith("<svg")
    res = runner.invoke(app, ["grid", "solve", str(out)])
    assert res.exit_code == 0, res.output
    assert "unique solution" in res.output
    res = runner.invoke(app, ["grid", "rules", genre])
    assert res.exit_code == 0 and f"# {genre}" in res.output
    res = runner.invoke(app, ["grid", "smtlib", str(out), "--out", str(tmp_path / "p.smt2")])
    assert res.exit_code == 0 and "(check-sat)" in (tmp_path / "p.smt2").read_text()


def test_ten_by_ten_and_url(tmp_path: Path) -> None:
    out = tmp_path / "u.txt"
    res = runner.invoke(
        app, ["grid", "generate", "unruly", "--size", "10x10", "--seed", "1", "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["grid", "solve", "https://puzz.link/p?sudoku/4/4/g1k23k3g"])
    assert res.exit_code == 0 and "unique solution" in res.output and "2143" in res.output
    res = runner.invoke(
        app, ["grid", "smtlib", "https://puzz.link/p?sudoku/4/4/g1k23k3g", "--check"]
    )
    assert res.exit_code == 0, res.output


def test_errors_are_one_paragraph(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("sudoku 4x4\n1..\n")
    res = runner.invoke(app, ["grid", "solve", str(bad)])
    assert res.exit_code == 2 and "error (invalid puzzle description)" in res.output
    assert "Traceback" not in res.output
    res = runner.invoke(app, ["grid", "generate", "futoshiki", "--size", "13x13"])
    assert res.exit_code == 2 and "futoshiki sizes must lie in" in res.output
    res = runner.invoke(app, ["grid", "rules", "chess"])
    assert res.exit_code == 2 and "no grid genre named 'chess'" in res.output
    amb = tmp_path / "amb.txt"
    amb.write_text("unruly 4x4\n....\n....\n....\n....\n")
    res = runner.invoke(app, ["grid", "solve", str(amb), "--forced"])
    assert res.exit_code == 0 and "2+ solutions" in res.output
