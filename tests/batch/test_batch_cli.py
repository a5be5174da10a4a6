"""Issue 2 dataset commands end to end, as a user runs them (real subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "puzzleforge.cli.main"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_generate_is_byte_identical_and_verify_finds_the_edited_record(tmp_path: Path) -> None:
    first = run("generate", "latin", "-n", "100", "--seed", "7", "--out", "a.jsonl", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    data = (tmp_path / "a.jsonl").read_bytes()
    again = run(
        "generate",
        "latin",
        "-n",
        "100",
        "--seed",
        "7",
        "--out",
        "a.jsonl",
        "--workers",
        "1",
        cwd=tmp_path,
    )
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "a.jsonl").read_bytes() == data
    lines = data.decode().splitlines()
    assert len(lines) == 100 and len({json.loads(x)["id"] for x in lines}) == 100
    summary = json.loads((tmp_path / "a.summary.json").read_text())
    assert summary["records_total"] == 100 and summary["puzzles_per_second"] > 0

    ok = run("verify", "a.jsonl", cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "100/100 correct" in ok.stdout

    record = json.loads(lines[57])
    grid = record["answer"].split("\n")
    grid[0], grid[1] = grid[1], grid[0]  # still a Latin square, but the wrong one
    record["answer"] = "\n".join(grid)
    lines[57] = json.dumps(record)
    (tmp_path / "b.jsonl").write_text("\n".join(lines) + "\n")
    bad = run("verify", "b.jsonl", cwd=tmp_path)
    assert bad.returncode == 1
    reported = [line for line in bad.stdout.splitlines() if line.startswith("record ")]
    assert len(reported) == 1 and reported[0].startswith(f"record 58 (id {record['id']}")
    assert "99/100 correct" in bad.stdout


def test_show_prints_question_and_answer(tmp_path: Path) -> None:
    assert (
        run(
            "generate",
            "latin",
            "-n",
            "3",
            "--seed",
            "1",
            "--out",
            "s.jsonl",
            "-p",
            "n=4",
            cwd=tmp_path,
        ).returncode
        == 0
    )
    record = json.loads((tmp_path / "s.jsonl").read_text().splitlines()[2])
    shown = run("show", "s.jsonl", "--index", "2", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert record["id"] in shown.stdout and "question" in shown.stdout
    assert record["answer"].split("\n")[0] in shown.stdout
    missing = run("show", "s.jsonl", "--index", "9", cwd=tmp_path)
    assert missing.returncode == 2 and "no record with index 9" in missing.stderr


def test_errors_are_one_paragraph_without_traceback(tmp_path: Path) -> None:
    unknown = run("generate", "no-such-family", "-n", "2", "--out", "x.jsonl", cwd=tmp_path)
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr
    assert "no family named 'no-such-family'" in unknown.stderr
    bad_param = run(
        "generate", "latin", "-n", "2", "--out", "x.jsonl", "--param", "n=99", cwd=tmp_path
    )
    assert bad_param.returncode == 2 and "n=99 is out of range" in bad_param.stderr
    no_eq = run("generate", "latin", "-n", "2", "--out", "x.jsonl", "--param", "n", cwd=tmp_path)
    assert no_eq.returncode == 2 and "key=value" in no_eq.stderr
    absent = run("verify", "absent.jsonl", cwd=tmp_path)
    assert absent.returncode == 2 and "absent.jsonl" in absent.stderr
    (tmp_path / "junk.jsonl").write_text('{"family": "latin"\n')
    junk = run("verify", "junk.jsonl", cwd=tmp_path)
    assert junk.returncode == 2 and "junk.jsonl:1" in junk.stderr
    debug = run("--debug", "verify", "junk.jsonl", cwd=tmp_path)
    assert "Traceback" in debug.stderr


def test_recipe_to_parquet_then_verify_the_directory(tmp_path: Path) -> None:
    (tmp_path / "mix.yaml").write_text(
        "seed: 4\nsplits: {train: 0.8, test: 0.2}\ncomponents:\n  - family: latin\n"
        "    tiers:\n      easy: {weight: 1, params: {n: 4}}\n"
        "      hard: {weight: 1, params: {n: 6}}\n"
    )
    made = run(
        "generate", "mix.yaml", "-n", "20", "--format", "parquet", "--out", "mix", cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    assert "latin-easy 10, latin-hard 10" in made.stdout and "splits:" in made.stdout
    assert sorted(p.name.split("-")[0] for p in (tmp_path / "mix").glob("*.parquet")) == [
        "test",
        "train",
    ]
    summary = json.loads((tmp_path / "mix.summary.json").read_text())
    assert summary["records_total"] == 20 and sum(summary["per_split"].values()) == 20
    checked = run("verify", "mix", cwd=tmp_path)
    assert checked.returncode == 0 and "20/20 correct" in checked.stdout
    with_param = run(
        "generate", "mix.yaml", "-n", "4", "--out", "x.jsonl", "-p", "n=4", cwd=tmp_path
    )
    assert with_param.returncode == 2 and "--param does not apply to a recipe" in with_param.stderr


def test_progress_is_plain_lines_when_not_a_terminal(capsys) -> None:
    from puzzleforge.cli.dataset_commands import _Progress

    quick = _Progress("generate latin", 10)  # default: silent for the first second
    quick.update(3, 0, 5.0, 1.4)
    assert capsys.readouterr().err == ""
    progress = _Progress("generate latin", 10, delay=0.0, every=0.0)
    progress.update(4, 2, 8.0, 0.75)
    progress.close()
    assert capsys.readouterr().err.strip() == "generate latin: 4/10 (8.0/s, rejects 2, ETA 1 s)"


def test_asking_for_more_puzzles_than_a_family_has_fails_at_once(tmp_path):
    """crossnumber's file mode has one puzzle per bundled file: asking for one more fails
    before any work, naming the count (it used to run for minutes through duplicates)."""
    from puzzleforge.crossnumber import api

    have = len(api.list_puzzles())
    out = tmp_path / "cn.jsonl"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "puzzleforge",
            "generate",
            "crossnumber",
            "-n",
            str(have + 1),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert f"can give at most {have} distinct puzzles" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
