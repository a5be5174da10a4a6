"""The one limit model (core/limits.py) through the real CLI: sizes past the documented
maxima are refused before any work (exit 2), runaway work is stopped by the worker's CPU
limit (exit 4) with one paragraph, never a hang, a traceback or "internal error".

No wall-clock assertion: the CPU limits below are small, and a hang would show as the
pytest timeout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app
from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.limits import LimitExceeded, Limits, run_limited

REPO = Path(__file__).resolve().parents[2]
ABCD = REPO / "examples" / "crossnumber" / "abcd.yaml"
LIMIT_MESSAGE = "was stopped at its limit of"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    text = result.stdout + result.stderr
    assert "Traceback" not in text and "internal" not in text, text
    return result.exit_code, text


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


# -- the worker -----------------------------------------------------------------------


def _spin() -> None:
    while True:
        pass


def _fail() -> None:
    raise GenerationFailed("no puzzle", attempts=3, reasons={"ambiguous": 3}, field="n")


def _print_and_return() -> int:
    print("from the worker")
    return 41 + 1


def test_worker_returns_the_result_and_forwards_output(capsys: pytest.CaptureFixture) -> None:
    assert run_limited(_print_and_return, limits=Limits(cpu_seconds=30)) == 42
    assert capsys.readouterr().out == "from the worker\n"


def test_worker_error_crosses_with_its_fields() -> None:
    with pytest.raises(GenerationFailed) as info:
        run_limited(_fail, limits=Limits(cpu_seconds=30))
    assert (info.value.attempts, info.value.reasons, info.value.field) == (3, {"ambiguous": 3}, "n")
    assert str(info.value) == "field 'n': no puzzle."


def test_worker_cpu_limit_stops_a_python_loop() -> None:
    with pytest.raises(LimitExceeded) as info:
        run_limited(_spin, limits=Limits(cpu_seconds=1), what="the spin")
    assert str(info.value).startswith("the spin was stopped at its limit of 1 CPU seconds.")
    assert info.value.exit_code == 4


def _huge_power() -> int:
    return 7 ** (10**10)  # one C-level call: no Python check could stop it


def test_worker_cpu_limit_stops_c_level_work() -> None:
    with pytest.raises((LimitExceeded, MemoryError)):
        run_limited(_huge_power, limits=Limits(cpu_seconds=1, memory_mb=2048))


# -- sizes checked before work --------------------------------------------------------


@pytest.mark.parametrize(
    "value, needle",
    [
        ("1000000000000000000", "variables.max is 1000000000000000000"),
        ("'10**18'", "variables.max is '10**18'"),
        ("100000000", "is too costly to list"),
        ("-5", "variables.max is -5"),
    ],
)
def test_crossnumber_kind_domain_max_is_checked_before_listing(
    tmp_path: Path, value: str, needle: str
) -> None:
    text = ABCD.read_text(encoding="utf-8").replace("max: 2000", f"max: {value}")
    path = tmp_path / "big.yaml"
    path.write_text(text, encoding="utf-8")
    code, out = invoke("crossnumber", "solve", str(path), "--time-limit", "10")
    assert code == 2, out
    assert needle in out and "field 'variables.max'" in out and "big.yaml:" in out, out


def test_crossnumber_range_domain_is_bounded(tmp_path: Path) -> None:
    text = ABCD.read_text(encoding="utf-8").replace("domain: primes", "domain: 0..999999999")
    path = tmp_path / "range.yaml"
    path.write_text(text, encoding="utf-8")
    code, out = invoke("crossnumber", "solve", str(path))
    assert code == 2, out
    assert "range 0..999999999 holds 1000000000 values, more than the 1,000,000" in out, out


@pytest.mark.parametrize("command", ["solve", "hint", "smtlib", "explain"])
def test_grid_text_past_the_side_limit_is_refused(tmp_path: Path, command: str) -> None:
    path = tmp_path / "big.txt"
    path.write_text("nurikabe 1000x1000\n" + ("." * 1000 + "\n") * 1000, encoding="utf-8")
    code, out = invoke("grid", command, str(path))
    assert code == 2, out
    # one paragraph naming the file, its line, the field and what was expected
    assert out == (
        f"error (invalid puzzle description): {path}:1, field 'size': size 1000x1000 is "
        "outside the grid limits. Expected 1 to 100 rows and columns (docs/limits.md).\n"
    ), out


def test_grid_janko_and_stdin_past_the_side_limit_name_their_source(tmp_path: Path) -> None:
    path = tmp_path / "big.jan"
    path.write_text("begin\npuzzle nurikabe\nsize 200\nproblem\n- -\nend\n", encoding="utf-8")
    code, out = invoke("grid", "solve", str(path))
    assert code == 2, out
    assert f"{path}, field 'size': size 200x200 is outside the grid limits" in out, out
    result = CliRunner().invoke(app, ["grid", "hint", "-"], input="nurikabe 300x3\n")
    assert result.exit_code == 2, result.output
    assert "<stdin>:1, field 'size': size 300x3 is outside" in result.stdout + result.stderr


def test_grid_file_errors_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text("nurikabe 3x3\n. . .\n. 2\n. . .\n", encoding="utf-8")
    code, out = invoke("grid", "smtlib", str(path))
    assert code == 2, out
    assert out.startswith(
        f"error (invalid puzzle description): {path}:3: nurikabe: line has 2 cells"
    )
    assert "Expected 3 cells ('.' for empty)." in out and out.count("\n") == 1, out


# -- runaway work stopped by the CPU limit --------------------------------------------

NURIKABE_100 = "https://puzz.link/p?nurikabe/100/100/3" + "z" * 499 + "y"


def test_grid_solve_of_a_100x100_url_is_stopped(tmp_path: Path) -> None:
    done = cli(tmp_path, "--cpu-limit", "2", "grid", "solve", NURIKABE_100)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert done.stderr.startswith(
        "error (limit reached): `puzzleforge grid solve` was stopped at its limit of 2 CPU seconds."
    ), done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_grid_hint_of_a_100x100_text_is_stopped(tmp_path: Path) -> None:
    path = tmp_path / "b.txt"
    path.write_text("nurikabe 100x100\n" + ("." * 100 + "\n") * 100, encoding="utf-8")
    code, out = invoke("--cpu-limit", "2", "grid", "hint", str(path))
    assert code == 4, out
    assert "`puzzleforge grid hint` was stopped at its limit of 2 CPU seconds" in out


def test_zebra_8x8_expert_is_stopped() -> None:
    code, out = invoke(
        "--cpu-limit", "2", "zebra", "generate", "-K", "8", "-k", "8", "--difficulty", "expert"
    )
    assert code in (2, 4), out  # 2: refused up front as out of reach, 4: stopped
    assert out.startswith("error ("), out


def test_crossnumber_parse_is_under_the_limit(tmp_path: Path) -> None:
    # primes up to 8,000,000 pass the size check but take seconds of CPU to list
    text = ABCD.read_text(encoding="utf-8").replace("max: 2000", "max: 8000000")
    path = tmp_path / "slow.yaml"
    path.write_text(text, encoding="utf-8")
    code, out = invoke("--cpu-limit", "1", "crossnumber", "solve", str(path))
    assert code == 4, out
    assert "`puzzleforge crossnumber solve` was stopped at its limit of 1 CPU seconds" in out


def test_a_limit_does_not_carry_over_to_the_next_invocation() -> None:
    """The root options set this process's limits; a later command without them must get
    the defaults again (it once inherited an earlier test's --cpu-limit 1)."""
    from puzzleforge.core.limits import DEFAULT_CPU_SECONDS, ENV_CPU, current_limits

    code, out = invoke("--cpu-limit", "1", "grid", "genres")
    assert code == 0, out
    assert current_limits().cpu_seconds == 1
    saved = os.environ.pop(ENV_CPU, None)
    try:
        code, out = invoke("grid", "genres")
        assert code == 0, out
        assert current_limits().cpu_seconds == DEFAULT_CPU_SECONDS
    finally:
        if saved is not None:
            os.environ[ENV_CPU] = saved


def test_bad_limit_options_are_usage_errors() -> None:
    for value in ("0", "-1", "nan", "inf"):
        code, out = invoke("--cpu-limit", value, "grid", "genres")
        assert code == 2 and "--cpu-limit" in out, out


def test_normal_commands_still_print_through_the_worker() -> None:
    code, out = invoke("crossnumber", "solve", str(ABCD))
    assert code == 0, out
    assert out.startswith("ABCD: 1 solution (")
