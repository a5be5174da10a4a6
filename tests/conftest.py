"""Shared test settings and fixtures: where the shared corpus lives, and a skip when it does not.

Hypothesis keeps no example database (``database=None``) and its other caches live in a
pytest tmp folder: the suite writes only under pytest's tmp folders, never a
``.hypothesis/`` folder into the checkout. A failing example is still reproducible from
the blob Hypothesis prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

settings.register_profile("puzzleforge", database=None, print_blob=True)
settings.load_profile("puzzleforge")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Hypothesis's caches (source constants, unicode tables) go to pytest's tmp folder,
    not ./.hypothesis. It must happen before collection (importing a test module with
    ``@given`` already writes them), hence a hook rather than a session fixture."""
    config: Any = session.config  # _tmp_path_factory: set by pytest's tmpdir
    set_hypothesis_home_dir(config._tmp_path_factory.mktemp("hypothesis"))


@pytest.fixture(scope="session")
def shared_corpus() -> Path:
    """Path of ../shared/corpus; skips the test with a clear message when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS} (clone the project beside ../shared)")
    return CORPUS


@pytest.fixture(autouse=True)
def _genre_files_stay_in_their_test() -> Any:
    """A genre file loaded by one test (``--genre-file``, the web app's upload) is registered
    for the life of the process, as it is for a server; restore the registry after each test
    so later tests see the built-in genres only, whatever order they run in."""
    from puzzleforge.grid import genres

    before = dict(genres._FROM_FILES)
    yield
    genres._FROM_FILES.clear()
    genres._FROM_FILES.update(before)
