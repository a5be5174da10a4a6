"""Shared parts of the fault and fuzz suite: run a CLI command in process, bounded, and
check what every answer to bad input must look like.

Why in process: a subprocess per example costs an interpreter start (about a second
here); ``CliRunner`` costs milliseconds. Each example still runs in a forked worker
(core/limits.run_limited) with a CPU and memory limit, so an input that makes a command
run away or eat memory fails the test with its own message instead of hanging the
suite, and no example can leave state behind in the test process.

Budgets: each test has a small ``quick`` count for ``make test`` and a full count that
``PUZZLEFORGE_FUZZ_SCALE`` multiplies (``make fuzz`` sets 25). The commands a test covers
are pytest parameters, not drawn by Hypothesis, so even the quick budget runs every
command. The engines are imported once here, before any example: each example's forked
worker then starts with them loaded (half its CPU time went to imports).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from puzzleforge.core.limits import LimitExceeded, Limits, run_limited

#: Exit statuses an answer to any input may have: done, a proven "no", bad input, a limit.
ALLOWED_EXITS = {0, 1, 2, 4}
#: CPU seconds and memory one example may use (the engines' own --cpu-limit is lower).
EXAMPLE_LIMITS = Limits(cpu_seconds=90, memory_mb=3072)
SCALE = max(1, int(os.environ.get("PUZZLEFORGE_FUZZ_SCALE", "1") or 1))

#: Imported in the test process so every forked example starts with them loaded.
PRELOAD = (
    "puzzleforge.cli.main",
    "puzzleforge.grid.api",
    "puzzleforge.grid.formats.detect",
    "puzzleforge.crossnumber.api",
    "puzzleforge.zebra.generator",
    "puzzleforge.spec.family",
    "puzzleforge.batch.runner",
    "typer.testing",
)


def preload() -> None:
    """Import the engines the examples use (once per test process)."""
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)


def fuzz_settings(examples: int, quick: int) -> Any:
    """Hypothesis settings of one fuzz test (per pytest parameter): ``quick`` examples in
    ``make test`` (no PUZZLEFORGE_FUZZ_SCALE), else ``examples`` x SCALE; no deadline
    (the worker's CPU limit bounds each example), no database (conftest)."""
    # no shrinking: one example can take seconds of CPU, and shrinking ran for minutes;
    # a failure prints its example and a reproduce blob
    return settings(
        max_examples=quick if SCALE == 1 else examples * SCALE,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )


@dataclass
class Outcome:
    args: list[str]
    code: int
    stdout: str
    stderr: str
    exception: str | None


def _invoke(args: list[str], stdin: str | None) -> Outcome:
    from typer.testing import CliRunner

    from puzzleforge.cli.main import app

    result = CliRunner().invoke(app, args, input=stdin)
    exc = result.exception
    shown = None
    if exc is not None and not isinstance(exc, SystemExit):
        import traceback

        shown = "".join(traceback.format_exception(exc))
    return Outcome(args, result.exit_code, result.stdout, result.stderr, shown)


def run_cli(args: list[str], *, stdin: str | None = None) -> Outcome:
    """``puzzleforge ARGS`` in a bounded worker; fails the test when the limit hits."""
    preload()
    try:
        return run_limited(
            _invoke,
            list(args),
            stdin,
            limits=EXAMPLE_LIMITS,
            what=f"puzzleforge {' '.join(args)[:200]}",
        )
    except LimitExceeded as exc:
        raise AssertionError(f"unbounded: {exc}") from None


def assert_clean(out: Outcome) -> None:
    """Exit 0/1/2/4; never a traceback or an internal error; an error is one paragraph
    that starts with ``error``; usage errors are click's own."""
    text = out.stdout + out.stderr
    assert out.exception is None, f"{out.args}: exception escaped:\n{out.exception}"
    assert out.code in ALLOWED_EXITS, f"{out.args}: exit {out.code}\n{text[-2000:]}"
    assert "Traceback" not in text, f"{out.args}: traceback\n{text[-2000:]}"
    assert "error (internal)" not in text and "internal error" not in text.lower(), (
        f"{out.args}: internal error\n{text[-2000:]}"
    )
    if out.code == 2:
        err = out.stderr.strip()
        assert err, f"{out.args}: exit 2 without a message"
        if "Usage:" in err:  # click's usage error (an option value), boxed by typer
            return
        lines = [line for line in err.splitlines() if line.startswith("error")]
        assert len(lines) == 1 and "\n\n" not in err, f"{out.args}: not one paragraph:\n{err}"


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with a hash of its bytes (to prove nothing else changed)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            out[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def assert_only_changed(
    before: dict[str, str], after: dict[str, str], allowed: set[str] = frozenset()
) -> None:  # type: ignore[assignment]
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert changed <= set(allowed), (
        f"files changed that were not the output: {changed - set(allowed)}"
    )


# -- mutations ------------------------------------------------------------------------

#: Text that tends to break parsers: structure characters, numbers at the edges, unicode.
NASTY = st.sampled_from(
    [
        "",
        " ",
        "\t",
        "\n",
        ":",
        "- ",
        "{",
        "}",
        "[",
        "]",
        "'",
        '"',
        "#",
        "&a",
        "*a",
        "!!python/object:os.system",
        "0",
        "-1",
        "1e309",
        "nan",
        "inf",
        "10**18",
        "99999999999999999999",
        "2**70",
        "0x1F",
        "1/0",
        "A/0",
        "%",
        "((((((",
        "))))",
        "..",
        "0..9",
        "9..0",
        "-",
        "x",
        "é",
        "\u202e",
        "\x00",
        "\ufeff",
        "null",
        "~",
        "true",
        "[]",
        "{}",
        "|",
        ">",
        "=",
        "==",
        ";",
        ",",
        "?",
        "/",
        "\\",
        "…",
    ]
)


@st.composite
def mutated(draw: Any, text: str, max_ops: int = 4) -> str:
    """``text`` with a few random edits: lines dropped, doubled or swapped, spans replaced
    by nasty or random text, truncation."""
    for _ in range(draw(st.integers(1, max_ops))):
        lines = text.split("\n")
        op = draw(st.sampled_from(["drop", "dup", "swap", "splice", "random", "truncate"]))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in ("splice", "random"):
            line = lines[i]
            a = draw(st.integers(0, len(line)))
            b = draw(st.integers(a, min(len(line), a + 8)))
            new = draw(NASTY) if op == "splice" else draw(st.text(max_size=8))
            lines[i] = line[:a] + new + line[b:]
        elif op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
            continue
        text = "\n".join(lines)
    return text
