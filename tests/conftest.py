"""Shared test fixtures: where the shared corpus lives, and a skip when it does not."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    """Path of ../shared/corpus; skips the test with a clear message when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS} (clone the project beside ../shared)")
    return CORPUS
