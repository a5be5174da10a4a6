"""Fixtures of the web-app tests: an API client, a live server and a headless Chromium.

The browser tests drive Debian's ``chromium`` through Playwright (never a downloaded
browser). Without it they are reported as skipped with the install hint, not hidden.
That is the only skip: the web and dev extras are installed by ``make test``, and a
fixture whose own ``generate`` fails makes the tests fail, so a broken engine cannot
pass as skipped.

Screenshots go to a pytest tmp folder, so the suite never writes into the checkout;
``make screenshots`` sets ``PUZZLEFORGE_SCREENSHOTS_DIR=docs/screenshots`` to refresh
the pictures in the docs on purpose.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api
from webserver import serving, watched_page

import puzzleforge
from puzzleforge.web import WebSettings, create_app

SCREENSHOTS_ENV = "PUZZLEFORGE_SCREENSHOTS_DIR"
CHROMIUM_HINT = (
    "Chromium not found: install it with `apt-get install -y --no-install-recommends chromium`"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]


def find_chromium() -> str | None:
    """Debian's chromium binary, if installed (PUZZLEFORGE_CHROMIUM overrides the path;
    pointing it at a missing file shows how the suite reports an absent browser)."""
    override = os.environ.get("PUZZLEFORGE_CHROMIUM")
    if override is not None:
        return override if Path(override).is_file() else None
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


def write_latin_dataset(path: Path, count: int = 6) -> Path:
    """A small real dataset (made through the public API, as `generate` would)."""
    with path.open("w", encoding="utf-8") as handle:
        for seed in range(count):
            puzzle = puzzleforge.generate("latin", seed=seed, n=4)
            puzzle.meta["explanation"] = [
                f"step {i + 1} of a made-up explanation" for i in range(2)
            ]
            handle.write(puzzle.to_json() + "\n")
    return path


def write_family_dataset(path: Path, family: str, count: int = 3, **params) -> Path:
    """A few records of an engine family; a family that is not registered or fails to
    generate raises, so the tests that use it fail instead of skipping."""
    with path.open("w", encoding="utf-8") as handle:
        for seed in range(count):
            handle.write(puzzleforge.generate(family, seed=seed, **params).to_json() + "\n")
    return path


@pytest.fixture(scope="session")
def web_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("web-data")
    write_latin_dataset(folder / "latin-small.jsonl")
    write_family_dataset(folder / "zebra-small.jsonl", "zebra", K=3, k=4)
    write_cli_dataset(folder / "unruly-generated.jsonl", "unruly")
    return folder


def write_cli_dataset(path: Path, family: str) -> Path:
    """A dataset made by the real ``puzzleforge generate`` command; a failing command
    fails the fixture with its exit code and error output."""
    import subprocess
    import sys

    command = [
        sys.executable,
        "-m",
        "puzzleforge.cli.main",
        "generate",
        family,
        "-n",
        "3",
        "--seed",
        "1",
        "--workers",
        "1",
        "--quiet",
        "--out",
        str(path),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0 or not path.is_file():
        pytest.fail(
            f"`puzzleforge generate {family}` failed (exit {result.returncode}, "
            f"file written: {path.is_file()}): {result.stderr[-2000:]}"
        )
    return path


@pytest.fixture()
def api_client(web_data_dir: Path):
    from fastapi.testclient import TestClient

    with TestClient(create_app(WebSettings(data_dir=web_data_dir))) as client:
        yield client


@pytest.fixture(scope="session")
def live_server(web_data_dir: Path) -> Iterator[str]:
    """A real uvicorn server on 127.0.0.1 and a free port, in a thread."""
    with serving(WebSettings(data_dir=web_data_dir)) as url:
        yield url


@pytest.fixture(scope="session")
def chromium_browser():
    """A headless Debian Chromium driven by Playwright (skips with the install hint)."""
    executable = find_chromium()
    if executable is None:
        pytest.skip(CHROMIUM_HINT)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture()
def page(chromium_browser, live_server):
    """A fresh browser page whose JavaScript errors fail the test."""
    with watched_page(chromium_browser, live_server, timeout_ms=15_000) as pg:
        yield pg


@pytest.fixture(scope="session")
def screenshots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: a pytest tmp folder, or $PUZZLEFORGE_SCREENSHOTS_DIR when set
    (``make screenshots`` points it at docs/screenshots to refresh them on purpose)."""
    chosen = os.environ.get(SCREENSHOTS_ENV)
    return Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")


@pytest.fixture()
def save_screenshot(screenshots_dir: Path):
    """``save_screenshot(page, name)`` writes <screenshots_dir>/<name>.png (full page)."""

    def save(pg, name: str) -> Path:
        screenshots_dir.mkdir(parents=True, exist_ok=True)
        path = screenshots_dir / f"{name}.png"
        pg.screenshot(path=str(path), full_page=True)
        return path

    return save


@pytest.fixture()
def expect():
    """Playwright's ``expect`` (auto-waiting assertions; no page-side eval, so CSP holds)."""
    return sync_api.expect
