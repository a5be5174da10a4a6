"""The examples in the crossnumber docstrings run."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["api", "expr", "kinds", "grid", "model", "solver", "constraints", "steps", "family",
           "generate", "hooks"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"puzzleforge.crossnumber.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
