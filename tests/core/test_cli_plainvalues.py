"""cli/plainvalues.py: option values converted without pydantic, exactly as typer converts them.

The expected values come from typer's own (pydantic) coercion of the same parameter, so the
test needs no table of its own: every option of every ``puzzleforge`` command, a spread of
values (plain ones, the forms left to typer, out-of-range numbers, junk), the same result
or the same error message both ways.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer._click import Context
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param

import puzzleforge.cli.main as cli_main
from puzzleforge.cli.plainvalues import install

SAMPLES = [
    "0", "1", "5", "-3", "-0", "007", "1e3", " 5", "5 ", "5.5", "120", "120.0", "0.25",
    "1_000", "abc", "", "99999999999999999999", "123456789012345678", "\u0661\u0662",
    "2.000000000000001", "nan", "inf", "x.jsonl", "a\udcff",
]  # fmt: skip


def _params() -> list[tuple[str, Any, Context]]:
    found = []

    def walk(cmd: Any, path: str) -> None:
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, f"{path} {name}")
        ctx = Context(cmd)
        for p in getattr(cmd, "params", []):
            if hasattr(p, "type_descriptor"):
                found.append((f"{path} {p.name}", p, ctx))

    walk(typer.main.get_command(cli_main.app), "puzzleforge")
    return found


def _outcome(runtime: Any, value: Any, param: Any, ctx: Context) -> tuple[str, Any]:
    try:
        got = runtime.coerce(value, param=param, ctx=ctx)
    except BadParameter as exc:
        return "error", exc.format_message()
    return type(got).__name__, repr(got)  # repr: nan == nan


def test_every_option_converts_as_typer_does() -> None:
    assert install()  # the hook is in place (else pydantic is back, see the next test)
    params = _params()
    assert len(params) > 40
    checked = 0
    for label, param, ctx in params:
        ours = param.get_runtime_param()
        assert type(ours).__name__ in ("PlainRuntimeParam", "FileRuntimeParam"), label
        typers = build_runtime_param(param.type_descriptor)  # typer's own (pydantic)
        values: list[Any] = [*SAMPLES, param.default, ("1", "2"), ["a", "b"], 3, 2.5, True]
        for value in values:
            if isinstance(value, (list, tuple)) and not param.multiple:
                continue
            assert _outcome(ours, value, param, ctx) == _outcome(typers, value, param, ctx), (
                label,
                value,
            )
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    ("stem", "absent"),
    [
        ("50-card3", ["highspy", "numpy", "pydantic"]),  # SAT and Z3: no finite space, no LP
        ("11-wine", ["highspy", "pydantic"]),  # the finite evaluator (numpy), no LP
        ("38-linearprog", ["pydantic"]),  # the exact LP: HiGHS and numpy
    ],
)
def test_spec_generate_imports_only_what_its_backends_use(
    stem: str, absent: list[str], shared_corpus: Path, tmp_path: Path
) -> None:
    """pydantic never (plain option values), numpy and highspy only for their backends."""
    code = (
        "import sys, runpy\n"
        "sys.argv = ['puzzleforge', 'spec', 'generate', sys.argv[1], '--trust', '-n', '1',"
        " '--seed', '1', '-o', sys.argv[2], '-q']\n"
        "try:\n"
        "    runpy.run_module('puzzleforge', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(sorted(m for m in ('highspy', 'numpy', 'pydantic') if m in sys.modules))\n"
    )
    spec = shared_corpus / "puzzleclone" / f"{stem}.yaml"
    done = subprocess.run(
        [sys.executable, "-c", code, str(spec), str(tmp_path / "out.jsonl")],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.jsonl").read_bytes().count(b"\n") == 1
    loaded = set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))
    assert loaded & set(absent) == set(), done.stdout
