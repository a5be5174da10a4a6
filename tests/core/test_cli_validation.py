"""Bad input at the edge: every option and file gets a clear one-paragraph error (exit 2)
through the real CLI, never a traceback or "internal error"; counts are never overstated;
a closed pipe ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BASE_SPEC = REPO / "tests" / "spec" / "data" / "base.yaml"
ABCD = REPO / "examples" / "crossnumber" / "abcd.yaml"
PRIME = REPO / "examples" / "crossnumber" / "prime.yaml"
UNRULY_OPEN = "unruly 4x4\n....\n....\n....\n....\n"  # many solutions


def cli(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}  # click's usage errors on one line
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        input=stdin,
    )


def assert_clear(done: subprocess.CompletedProcess, *needles: str, code: int = 2) -> None:
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    text = done.stderr
    assert "Traceback" not in text and "internal" not in text, text
    for needle in needles:
        assert needle in text, (needle, text)


BAD_OPTIONS = [
    # (command line, words the message must contain)
    (
        ["generate", "latin", "-n", "0", "--out", "o.jsonl"],
        ["'-n' / '--count'", "greater than or equal to 1"],
    ),
    (
        ["generate", "latin", "-n", "2", "--workers", "0", "--out", "o.jsonl"],
        ["'--workers' / '-w'", "greater than or equal to 1"],
    ),
    (["generate", "latin", "-n", "2", "--workers", "-1", "--out", "o.jsonl"], ["--workers"]),
    (
        ["generate", "latin", "-n", "2", "--max-attempts", "0", "--out", "o.jsonl"],
        ["--max-attempts"],
    ),
    (
        ["generate", "latin", "-n", "2", "--chunk-size", "-3", "--out", "o.jsonl"],
        ["--chunk-size", "greater than or equal to 1"],
    ),
    (
        ["generate", "latin", "-n", "2", "--seed", str(2**70), "--out", "o.jsonl"],
        ["--seed", "9223372036854775807"],
    ),
    (
        ["generate", "latin", "-n", "2", "--timeout-per-item", "nan", "--out", "o.jsonl"],
        ["--timeout-per-item nan", "finite number of seconds > 0"],
    ),
    (
        ["generate", "latin", "-n", "2", "--backend", "foo", "--out", "o.jsonl"],
        ["field '--backend': unknown backend 'foo'"],
    ),
    (["spec", "generate", str(BASE_SPEC), "-n", "0"], ["'-n' / '--count'"]),
    (["spec", "generate", str(BASE_SPEC), "--seed", str(2**70)], ["--seed"]),
    (["spec", "generate", str(BASE_SPEC), "--attempts", "0"], ["--attempts"]),
    (
        ["spec", "generate", str(BASE_SPEC), "--max-seconds", "nan"],
        ["'--max-seconds': nan is not a finite number of seconds > 0"],
    ),
    (["spec", "generate", str(BASE_SPEC), "--attempt-seconds", "0"], ["--attempt-seconds"]),
    (
        ["grid", "generate", "unruly", "--density", "-1"],
        ["'--density': -1.0 is not a share from 0 to 1"],
    ),
    (["grid", "generate", "unruly", "--seed", str(-(2**70))], ["--seed"]),
    (["grid", "solve", "x.txt", "--count", "0"], ["--count"]),
    (["crossnumber", "solve", str(ABCD), "--limit", "-1"], ["--limit"]),
    (
        ["crossnumber", "solve", str(ABCD), "--time-limit", "0"],
        ["'--time-limit': 0.0 is not a finite number of seconds > 0"],
    ),
    (["crossnumber", "solve", str(ABCD), "--time-limit", "nan"], ["--time-limit"]),
    (["crossnumber", "generate", "--size", "6"], ["'--size'", "less than or equal to 5"]),
    (["zebra", "generate", "-n", "0"], ["'-n'"]),
    (["zebra", "generate", "-K", "99"], ["K=99 is out of range; expected 3..8"]),
    (["show", "d.jsonl", "--index", "-1"], ["--index"]),
]


@pytest.mark.parametrize(
    "args,needles",
    BAD_OPTIONS,
    ids=lambda v: " ".join(v)[:60] if isinstance(v, list) and v and v[0] != "x" else None,
)
def test_bad_options_get_a_clear_error(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    (tmp_path / "d.jsonl").write_text("")
    done = cli(tmp_path, *args)
    assert_clear(done, *needles)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl"]  # nothing written


def test_a_corrupt_parquet_file_is_named_not_an_internal_error(tmp_path: Path) -> None:
    made = cli(
        tmp_path,
        "generate",
        "latin",
        "-n",
        "3",
        "--param",
        "n=4",
        "--format",
        "parquet",
        "--out",
        "pq",
        "--workers",
        "1",
        "--quiet",
    )
    assert made.returncode == 0, made.stderr
    shard = next((tmp_path / "pq").glob("*.parquet"))
    (tmp_path / "cut.parquet").write_bytes(shard.read_bytes()[:300])
    for command in ("verify", "show"):
        done = cli(tmp_path, command, "cut.parquet")
        assert_clear(
            done,
            "cut.parquet: cannot read this Parquet file",
            "Expected a Parquet file written by puzzleforge generate",
        )


def test_grid_count_one_says_at_least_one_not_unique(tmp_path: Path) -> None:
    (tmp_path / "open.txt").write_text(UNRULY_OPEN)
    done = cli(tmp_path, "grid", "solve", "open.txt", "--count", "1")
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("unruly 4x4: at least one solution") and "unique" in first
    assert "--count 2 checks uniqueness" in first
    done = cli(tmp_path, "grid", "solve", "open.txt")
    assert done.stdout.splitlines()[0] == "unruly 4x4: 2+ solutions"


@pytest.mark.parametrize(
    "url,needles",
    [
        ("https://puzz.link/p?sudoku/4/4/g1k23k", ["number16 data ends after 14 of 16 cells"]),
        (
            "https://puzz.link/p?sudoku/4/4/g1k23k3g77",
            ["has 2 more: '77'", "exactly the data of a 4x4 board"],
        ),
        ("https://puzz.link/p?sudoku/4/4/g1k23k3g/zz", ["goes on after its data: 'zz'"]),
        (
            "https://puzz.link/p?slither/f/4/4/g1k23k3g",
            ["the flag 'f' after 'slither/'", "is not supported"],
        ),
        ("https://puzz.link/p?starbattle/6/6/1/0", ["border data has 1 of"]),
        ("https://puzz.link/p?mashu/6/6/00", ["circle data ends after 6 of 36 cells"]),
    ],
)
def test_truncated_overlong_and_flagged_puzzlink_urls_are_refused(
    tmp_path: Path, url: str, needles: list[str]
) -> None:
    done = cli(tmp_path, "grid", "solve", url)
    assert_clear(done, "error (invalid puzzle description)", *needles)


def test_a_complete_puzzlink_url_still_reads(tmp_path: Path) -> None:
    done = cli(tmp_path, "grid", "solve", "https://puzz.link/p?sudoku/4/4/g1k23k3g")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sudoku 4x4: unique solution")


def test_a_crossnumber_stopped_by_its_time_limit_is_undecided_not_unsolvable(
    tmp_path: Path,
) -> None:
    from puzzleforge.crossnumber.cli import UNDECIDED_EXIT

    done = cli(tmp_path, "crossnumber", "solve", str(PRIME), "--time-limit", "1e-9")
    assert_clear(
        done, "Prime: undecided: no solution found before the search stopped", code=UNDECIDED_EXIT
    )
    assert UNDECIDED_EXIT not in (0, 1, 2, 3)
    assert done.stdout == ""


def test_piping_into_head_ends_quietly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzleforge.cli.main", "zebra", "generate", "-n", "400"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does after its line
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=300)
    assert first.startswith(b"# zebra 3x4 seed 0")
    assert err == "" and code == 141


@pytest.mark.parametrize(
    "args,needles",
    [
        (["grid", "solve", "bin.dat"], ["bin.dat: not UTF-8 text (byte b'\\xff' at offset 1)"]),
        (["grid", "hint", "bin.dat"], ["bin.dat: not UTF-8 text"]),
        (["zebra", "solve", "bin.dat"], ["bin.dat: not UTF-8 text"]),
        (["crossnumber", "solve", "bin.dat"], ["bin.dat: puzzle file is not UTF-8 text"]),
        (["spec", "generate", "bin.dat"], ["bin.dat: spec is not UTF-8 text"]),
        (
            ["zebra", "generate", "--format", "bogus"],
            ["field '--format'", "text, json, jsonl or zebralogic"],
        ),
        (
            ["grid", "generate", "unruly", "--difficulty", "bogus"],
            ["difficulty 'bogus'. Expected one of any, easy, medium, hard"],
        ),
    ],
)
def test_bad_files_and_words_get_a_clear_error(
    tmp_path: Path, args: list[str], needles: list[str]
) -> None:
    (tmp_path / "bin.dat").write_bytes(b"\x00\xff\xfe garbage")
    assert_clear(cli(tmp_path, *args), *needles)


def test_more_workers_than_cores_are_capped_with_a_note(tmp_path: Path) -> None:
    from puzzleforge.batch.backends import default_workers

    done = cli(
        tmp_path,
        "generate",
        "latin",
        "-n",
        "2",
        "--param",
        "n=4",
        "--workers",
        "1000",
        "--out",
        "o.jsonl",
    )
    assert done.returncode == 0, done.stderr
    assert (
        f"note: --workers 1000 capped at {default_workers()}, the cores this process may use"
    ) in done.stderr
    summary = (tmp_path / "o.summary.json").read_text()
    assert f'"workers": {default_workers() if default_workers() > 1 else 1}' in summary


GOOD_CONFIG = {"_queries": {}, "_z3_seed": 12, "n": 3, "names": ["A1", "A2", "A3"]}


@pytest.mark.parametrize(
    "change,needle",
    [
        ({"n": None}, "the config has no value for variable 'n'"),
        ({"n": 9}, "n=9 is outside the variable's domain [2, 4]"),
        ({"n": "x"}, "n='x' is not a whole number"),
        ({"_z3_seed": "abc"}, "_z3_seed='abc' is not a whole number from 0 to 4294967295"),
        ({"_z3_seed": 2**70}, "is not a whole number from 0 to 4294967295"),
    ],
)
def test_config_replay_refuses_missing_and_out_of_range_values(
    tmp_path: Path, change: dict, needle: str
) -> None:
    import json

    config = {k: v for k, v in {**GOOD_CONFIG, **change}.items() if v is not None}
    (tmp_path / "c.json").write_text(json.dumps(config))
    done = cli(tmp_path, "spec", "generate", str(BASE_SPEC), "--config", "c.json")
    assert_clear(done, needle)
    assert done.stdout == ""  # no other puzzle drawn in its place


def test_config_replay_of_a_good_config_and_a_drawn_variable(tmp_path: Path) -> None:
    import json

    (tmp_path / "c.json").write_text(json.dumps(GOOD_CONFIG))
    done = cli(tmp_path, "spec", "generate", str(BASE_SPEC), "--config", "c.json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["config"]["n"] == 3
    missing = {k: v for k, v in GOOD_CONFIG.items() if k != "n"}
    (tmp_path / "m.json").write_text(json.dumps(missing))
    done = cli(
        tmp_path, "spec", "generate", str(BASE_SPEC), "--config", "m.json", "--use-spec-vars", "n"
    )
    assert done.returncode == 0, done.stderr
