"""Every docstring example in src runs (``doctest``), so a stale example fails the suite.

The modules are found by reading the source tree, not by importing it, and each one is
imported inside its test: a module that no longer imports fails here rather than
vanishing from the list. ``__main__`` modules are left out (importing one runs the CLI).
"""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "puzzleforge"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_with_examples() -> list[str]:
    """Modules whose source has a ``>>>`` prompt line (the doctest finder has the final say)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__main__.py":
            continue
        text = path.read_text(encoding="utf-8")
        if any(line.lstrip().startswith(">>>") for line in text.splitlines()):
            found.append(_module_name(path))
    return found


MODULES = modules_with_examples()


def test_the_tree_has_examples_to_run() -> None:
    # a guard against a wrong SRC path turning every test below into nothing
    assert len(MODULES) >= 20, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    assert Path(module.__file__).resolve().is_relative_to(PACKAGE), (
        f"{name} was imported from {module.__file__}, not from this checkout's src "
        "(run the tests with PYTHONPATH=src)"
    )
    runner = doctest.DocTestRunner(verbose=False)
    attempted = 0
    for test in doctest.DocTestFinder().find(module):
        runner.run(test)
        attempted += len(test.examples)
    result = runner.summarize(verbose=False)
    assert attempted > 0, f"{name} has '>>>' lines but no docstring example was found"
    assert result.failed == 0, f"{result.failed} of {attempted} examples failed in {name}"
