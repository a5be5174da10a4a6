"""Browser test of the grid page's genre-file box (issue 21 item 2): shown only by a
server started with --trust, it loads examples/genres/tents.py, the new genre joins the
genre list, and a Tents puzzle is generated and played to the end with hints, then
checked: everything through the page, in headless Chromium, against a real server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from webserver import serving, watched_page

from puzzleforge.web import WebSettings

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TENTS = ROOT / "examples" / "genres" / "tents.py"


@pytest.fixture(scope="module")
def trusted_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real uvicorn server started as `puzzleforge serve --trust` would be."""
    settings = WebSettings(data_dir=tmp_path_factory.mktemp("trusted"), trust=True)
    with serving(settings) as url:
        yield url


@pytest.fixture()
def trusted_page(chromium_browser, trusted_server):
    """A page on the trusted server whose JavaScript errors fail the test."""
    with watched_page(chromium_browser, trusted_server, timeout_ms=60_000) as pg:
        yield pg


def test_without_trust_the_page_has_no_genre_file_box(page, expect) -> None:
    page.goto("/grid")
    expect(page.locator("#gp-genre-form")).to_have_count(0)
    expect(page.locator("#gp-genre option[value=tents]")).to_have_count(0)


def test_a_genre_file_is_loaded_generated_and_played(trusted_page, expect) -> None:
    pg = trusted_page
    pg.goto("/grid")
    expect(pg.locator("#gp-genre option[value=tents]")).to_have_count(0)
    pg.get_by_label(re.compile("A genre file")).set_input_files(str(TENTS))
    pg.get_by_role("button", name="Load genre").click()
    expect(pg.locator("#gp-status")).to_have_text(
        "Loaded the genre Tents (tents): pick a size and Generate."
    )
    expect(pg.get_by_label("Genre", exact=True)).to_have_value("tents")
    expect(pg.get_by_label("Size (rows x columns)")).to_have_value("8x8")
    expect(pg.locator("#gp-rules")).to_contain_text("(for the default 8x8)")

    pg.get_by_label("Size (rows x columns)").fill("6x6")
    pg.get_by_label("Seed (empty = random)").fill("4")
    pg.get_by_role("button", name="Generate").click()
    expect(pg.locator("#gp-title")).to_have_text("Tents")
    expect(pg.locator("#gp-board td[data-key]")).to_have_count(36)

    # hints (each run in an engine worker that loaded the genre file) to the end, then Check
    pg.get_by_role("button", name="Hint").click()
    expect(pg.locator("#gp-result")).to_contain_text("Hint: ")
    for _ in range(80):
        if "already solved" in (pg.text_content("#gp-result") or ""):
            break
        # one request at a time: hints run in engine workers (a new process each)
        with pg.expect_response(lambda r: r.url.endswith("/hint")):
            pg.get_by_role("button", name="Hint").click()
    expect(pg.locator("#gp-result")).to_contain_text("already solved")
    pg.get_by_role("button", name="Check").click()
    expect(pg.locator("#gp-result")).to_contain_text("Solved! Every cell is correct.")
