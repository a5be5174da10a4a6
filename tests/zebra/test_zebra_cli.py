"""The ``puzzleforge zebra`` commands through the real CLI app."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from puzzleforge.cli.main import app

runner = CliRunner()


def test_generate_solve_pdf_categories(tmp_path) -> None:
    res = runner.invoke(app, ["zebra", "generate", "--seed", "2", "--format", "json"])
    assert res.exit_code == 0, res.output
    record = json.loads(res.output.strip().splitlines()[0])
    assert record["family"] == "zebra" and record["meta"]["certificate"]["unique"]
    path = tmp_path / "z.json"
    path.write_text(res.output, encoding="utf-8")
    res = runner.invoke(app, ["zebra", "solve", str(path)])
    assert res.exit_code == 0, res.output
    # the steps cite the puzzle's clues; grid bookkeeping is folded into its cause
    assert res.output.startswith("1. Clue 1: gives ")
    assert ", then by the grid rules: " in res.output
    assert "Rule 1 (a pairing excludes the rest of its row and column)" not in res.output
    assert record["answer"].splitlines()[0] in res.output
    res = runner.invoke(app, ["zebra", "solve", str(path), "--format", "json"])
    steps = json.loads(res.output)
    assert steps and {"rule", "clues", "used", "marks"} <= set(steps[0])
    out = tmp_path / "out" / "zebra.pdf"
    sol = tmp_path / "out" / "solution.pdf"
    svg = tmp_path / "out" / "grid.svg"
    res = runner.invoke(
        app,
        [
            "zebra",
            "pdf",
            "--seed",
            "1",
            "-K",
            "4",
            "-k",
            "4",
            "--lang",
            "pl",
            "--out",
            str(out),
            "--solution",
            str(sol),
            "--svg",
            str(svg),
        ],
    )
    assert res.exit_code == 0, res.output
    assert out.read_bytes().startswith(b"%PDF") and sol.read_bytes().startswith(b"%PDF")
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    res = runner.invoke(app, ["zebra", "categories", "--lang", "en"])
    assert res.exit_code == 0 and "duplicates: none found" in res.output
    res = runner.invoke(app, ["zebra", "categories", "--lang", "pl", "--find", "Halina"])
    assert "names/imiona_zenskie" in res.output


def test_generic_generate_with_params(tmp_path) -> None:
    out = tmp_path / "z.jsonl"
    res = runner.invoke(
        app,
        [
            "generate",
            "zebra",
            "-n",
            "2",
            "--param",
            "K=4",
            "--param",
            "k=4",
            "--param",
            "lang=pl",
            "-o",
            str(out),
            "-w",
            "1",
            "-q",
        ],
    )
    assert res.exit_code == 0, res.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(json.loads(x)["params"]["lang"] == "pl" for x in lines)


def test_bad_file_gives_one_paragraph(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    res = runner.invoke(app, ["zebra", "solve", str(bad)])
    assert res.exit_code == 2 and "Traceback" not in res.output
