"""Every page in a real Chromium: titles, one h1, labelled controls, keyboard reachability."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LABELS_MISSING = """() => Array.from(document.querySelectorAll('input, select, textarea, button'))
  .filter(e => !e.closest('[hidden]'))
  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
               && !(e.textContent || '').trim())
  .map(e => e.outerHTML.slice(0, 80))"""


def test_home_page_and_navigation(page, expect, save_screenshot) -> None:
    page.goto("/")
    assert page.title() == "puzzleforge"
    links = page.locator("header nav a")
    names = [links.nth(i).text_content() for i in range(links.count())]
    assert names[0] == "Home" and names[-1] == "Datasets"
    save_screenshot(page, "home")
    # the skip link is the first tab stop and moves focus to the main content
    page.keyboard.press("Tab")
    expect(page.locator("a.skip")).to_be_focused()


@pytest.mark.parametrize("path", ["/", "/logic-grid", "/grid", "/crossnumber", "/datasets"])
def test_page_structure_and_labels(page, live_server, path: str) -> None:
    response = page.goto(path)
    assert response.status == 200
    assert page.title().endswith("puzzleforge")
    assert page.locator("h1").count() == 1
    assert page.locator("main#main").count() == 1
    assert page.evaluate(LABELS_MISSING) == []
    current = page.locator('header nav a[aria-current="page"]')
    assert current.count() == 1


def test_unknown_page_is_a_short_message(page) -> None:
    response = page.goto("/no-such-page")
    assert response.status == 404
    assert page.title() == "Error 404 · puzzleforge"
    assert "There is no page at this address." in page.text_content("main")
    assert "Traceback" not in page.content()
