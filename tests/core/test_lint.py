"""ruff (lint and format: src, tests, bench) and mypy (src) pass, as configured in pyproject.toml.

They run as subprocesses of this interpreter (the venv that ``make install-test`` builds with
the ``dev`` extra), so ``make test`` fails with their own report when either finds something.
A missing tool is a failure too, not a skip: both are dependencies of the test extra.

Neither tool writes into the checkout: ruff runs with ``--no-cache`` and mypy keeps its cache
under pytest's temporary folder.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The one switch for formatting: after the one-shot ``ruff format`` of the tree, set this to
# True. It then also runs ``ruff format --check`` over the formatted folders and turns on E501
# (line length, otherwise left to the formatter; see [tool.ruff.lint] in pyproject.toml).
FORMAT_ENFORCED = True
FORMATTED = ["src", "tests", "bench"]


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def _report(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"


def test_ruff_lint() -> None:
    extra = ["--extend-select", "E501"] if FORMAT_ENFORCED else []
    result = _run("ruff", "check", "--no-cache", *extra, "src")
    assert result.returncode == 0, _report(result)
    # tests and bench too (without E501: long literals there are data, not code): a test's own
    # bug, such as a zip that silently drops a row, would hide a failure
    result = _run("ruff", "check", "--no-cache", "tests", "bench")
    assert result.returncode == 0, _report(result)


def test_ruff_format() -> None:
    if not FORMAT_ENFORCED:
        # not a skip: nothing is hidden, the check is simply not switched on yet
        return
    result = _run("ruff", "format", "--check", "--no-cache", *FORMATTED)
    assert result.returncode == 0, _report(result)


def test_mypy(tmp_path: Path) -> None:
    # the files to check ("src", all of it) come from [tool.mypy] in pyproject.toml
    result = _run("mypy", "--config-file", "pyproject.toml", "--cache-dir", str(tmp_path))
    assert result.returncode == 0, _report(result)
    assert "no issues found in" in result.stdout, _report(result)
    checked = int(result.stdout.rsplit("no issues found in", 1)[1].split()[0])
    # every module of src is checked, not a handful a wrong configuration would pick
    assert checked == len(list((ROOT / "src").rglob("*.py"))), _report(result)
