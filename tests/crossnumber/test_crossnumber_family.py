"""The crossnumber family (file and generate modes) and the CLI group."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import puzzleforge
from puzzleforge.cli.main import app
from puzzleforge.core.errors import ConfigError, GenerationFailed
from puzzleforge.crossnumber import api
from puzzleforge.crossnumber.family import Params, family, parse_answer

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "crossnumber"
runner = CliRunner()


def test_default_params_pick_a_bundled_puzzle_deterministically() -> None:
    a = puzzleforge.generate("crossnumber", seed=3)
    b = puzzleforge.generate("crossnumber", seed=3)
    assert a.to_json() == b.to_json()
    assert Path(a.meta["source"]).parent == api.bundled_dir()
    assert puzzleforge.verify(a, a.answer) == 1.0
    assert puzzleforge.verify(a.to_record(), a.answer) == 1.0
    assert family.audit(a) == []


def test_source_folder_and_single_file(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "abcd.yaml", tmp_path / "abcd.yaml")
    shutil.copy(EXAMPLES / "prime.yaml", tmp_path / "prime.yaml")  # 2 solutions: skipped
    for seed in range(4):
        p = puzzleforge.generate("crossnumber", seed=seed, source=str(tmp_path))
        assert p.meta["source"].endswith("abcd.yaml")
        assert p.answer.splitlines() == ["455451", "173096", "014234", "236187", "264021", "192754"]
    single = puzzleforge.generate("crossnumber", seed=0, source=str(EXAMPLES / "chessboard.yaml"))
    assert single.answer == "5023\n1602\n6154\n1617"


def test_verify_is_tolerant_and_gives_partial_credit() -> None:
    p = puzzleforge.generate("crossnumber", seed=0, source=str(EXAMPLES / "abcd.yaml"))
    assert (
        family.verify(
            p, "4 5 5 4 5 1\n1 7 3 0 9 6\n0 1 4 2 3 4\n2 3 6 1 8 7\n2 6 4 0 2 1\n1 9 2 7 5 4"
        )
        == 1.0
    )
    assert family.verify(p, "| 455451 |\n173096\n014234\n236187\n264021\n192754\n") == 1.0
    assert family.verify(p, "455451\n173096\n014234\n236187\n264021\n192755") == pytest.approx(
        35 / 36
    )
    assert family.verify(p, "A1: 4554, A4: 51") == pytest.approx(2 / 26)
    assert family.verify(p, json.dumps(p.solution["values"])) == 1.0
    for junk in ("", "nonsense", None, "{not json", "A1=", 12):
        assert 0.0 <= family.verify(p, junk) < 1.0  # type: ignore[arg-type]


def test_verify_two_digit_cells() -> None:
    p = puzzleforge.generate("crossnumber", seed=0, source=str(EXAMPLES / "no21.yaml"))
    assert p.answer.splitlines()[2] == "10 1 7 9 1 5 6"
    assert family.verify(p, p.answer) == 1.0
    assert family.verify(p, p.answer.replace("16", "15", 1)) == pytest.approx(48 / 49)


def test_parse_answer_forms() -> None:
    assert parse_answer("A1=12, d3: 45") == ("values", {"A1": 12, "D3": 45})
    assert parse_answer("12#\n34")[0] == "rows"
    assert parse_answer("") == ("none", None)


def test_params_validation_lists_problems() -> None:
    with pytest.raises(ConfigError) as info:
        Params(mode="bogus", size=9, source="/no/such/dir").validate()
    msg = str(info.value)
    assert "mode" in msg and "size" in msg and "source" in msg


def test_generate_mode_builds_unique_small_puzzles() -> None:
    for seed in range(2):
        p = family.generate(Params(mode="generate", size=3), random.Random(seed))
        assert family.verify(p, p.answer) == 1.0
        assert family.audit(p) == []
        model = api.parse_puzzle(p.meta["puzzle_file"])
        assert api.solve_puzzle(model, limit=2).unique


def test_cli_solve_steps_all_and_json() -> None:
    r = runner.invoke(app, ["crossnumber", "solve", str(EXAMPLES / "prime.yaml"), "--all"])
    assert r.exit_code == 0, r.output
    assert "2 solutions" in r.output and "Solution 2:" in r.output
    r = runner.invoke(app, ["crossnumber", "solve", str(EXAMPLES / "abcd.yaml"), "--steps"])
    assert (
        r.exit_code == 0
        and "A6 = A: A: 9 values (5..31) -> {11, 13, 17, 19, 23, 29, 31}" in r.output
        and "1 solution" in r.output
    )
    assert "variables: A=17, B=19, C=23, D=181" in r.output
    r = runner.invoke(
        app, ["crossnumber", "solve", str(EXAMPLES / "powerplay.yaml"), "--json", "--steps"]
    )
    data = json.loads(r.output)
    assert data["count"] == 1 and data["solutions"][0]["rows"] == ["11449", "49364", "46656"]
    assert data["steps"] and {"kind", "subject", "text"} <= set(data["steps"][0])


def test_cli_check_and_show() -> None:
    f = str(EXAMPLES / "chessboard.yaml")
    r = runner.invoke(app, ["crossnumber", "check", f, "5023/1602/6154/1617"])
    assert r.exit_code == 0 and "score: 1.0000" in r.output
    r = runner.invoke(app, ["crossnumber", "check", f, "5023/1602/6154/1618"])
    assert r.exit_code == 1 and "score: 0.9375" in r.output
    r = runner.invoke(app, ["crossnumber", "show", f])
    assert r.exit_code == 0 and "A9: A1 % A9 = A8" in r.output


def test_cli_reports_bad_files_in_one_paragraph(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("grid: |\n  ...\n  ..\nclues: {}\n")
    r = runner.invoke(app, ["crossnumber", "solve", str(bad)])
    assert r.exit_code != 0
    assert "not rectangular" in r.output and "Traceback" not in r.output


def test_cli_generate(tmp_path: Path) -> None:
    out = tmp_path / "new.yaml"
    r = runner.invoke(
        app, ["crossnumber", "generate", "--seed", "1", "--size", "3", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["crossnumber", "solve", str(out)])
    assert r.exit_code == 0 and "1 solution " in r.output


def test_generate_mode_is_deterministic_and_size_4_works() -> None:
    a = puzzleforge.generate("crossnumber", seed=11, mode="generate")
    b = puzzleforge.generate("crossnumber", seed=11, mode="generate")
    assert a.to_json() == b.to_json()
    c = family.generate(Params(mode="generate", size=4), random.Random(2))
    assert len(c.answer.splitlines()) == 4 and family.audit(c) == []


def test_non_unique_file_accepts_every_solution_when_allowed() -> None:
    src = str(EXAMPLES / "prime.yaml")
    with pytest.raises(GenerationFailed, match="^no puzzle file with a unique solution[.]$"):
        family.generate(Params(source=src), random.Random(0))
    p = family.generate(Params(source=src, unique_only=False), random.Random(0))
    assert len(p.solution["alternatives"]) == 1
    rows_a = p.answer
    rows_b = "\n".join(p.solution["alternatives"][0]["rows"])
    assert rows_a != rows_b
    assert family.verify(p, rows_a) == 1.0 and family.verify(p, rows_b) == 1.0
    assert family.audit(p) == []


def test_generated_file_stores_the_grid_as_rows(tmp_path: Path) -> None:
    """The grid is a YAML literal block, one grid row per line (issue 21), and the file
    still loads to the same grid."""
    from puzzleforge.crossnumber.generate import TEMPLATES
    from puzzleforge.crossnumber.model import load_model

    out = tmp_path / "new.yaml"
    r = runner.invoke(
        app, ["crossnumber", "generate", "--seed", "2", "--size", "4", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "grid: |"
    rows = [ln[2:] for ln in lines[2:6]]
    assert rows in TEMPLATES[4] and all(ln.startswith("  ") for ln in lines[2:6])
    assert lines[6] == "clues:"
    model = load_model(out)
    assert [[ch != "#" for ch in row] for row in rows] == model.grid.white
