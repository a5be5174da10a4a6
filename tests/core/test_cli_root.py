"""The CLI root: the families table, error paragraphs without tracebacks, --debug."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from puzzleforge.cli.main import app

runner = CliRunner()


def test_families_lists_latin_with_params() -> None:
    result = runner.invoke(app, ["families"])
    assert result.exit_code == 0, result.output
    assert "latin" in result.output and "n: int = 5" in result.output


def test_demo_writes_one_verified_dataset_of_every_family(tmp_path: Path) -> None:
    import orjson

    from puzzleforge.core.registry import family_names

    result = runner.invoke(app, ["demo", "--out", str(tmp_path), "-n", "1", "--workers", "2"])
    assert result.exit_code == 0, result.output
    records = [orjson.loads(line) for line in (tmp_path / "demo.jsonl").read_bytes().splitlines()]
    assert {r["family"] for r in records} >= set(family_names())
    assert "verified" in result.output and "Dataset:" in result.output
    assert (tmp_path / "demo.summary.json").exists()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_user_error_is_one_paragraph_without_traceback(tmp_path: Path) -> None:
    from puzzleforge.cli.errors import run_guarded  # noqa: F401 - the wrapper under test

    # an unknown family through the demo-independent path: generate via the Python API
    code = (
        "import typer, sys\n"
        "from puzzleforge.cli.errors import run_guarded\n"
        "from puzzleforge.core.registry import get_family\n"
        "app = typer.Typer()\n"
        "@app.command()\n"
        "@run_guarded\n"
        "def go():\n    get_family('nope')\n"
        "app()\n"
    )
    script = tmp_path / "cli_probe.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "error (unknown family): no family named 'nope'" in done.stderr
    assert "Traceback" not in done.stderr
    debug = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PUZZLEFORGE_DEBUG": "1", "PATH": ""},
    )
    assert "Traceback" in debug.stderr and debug.returncode == 2


def test_debug_flag_is_accepted() -> None:
    done = _cli("--debug", "families")
    assert done.returncode == 0 and "latin" in done.stdout
