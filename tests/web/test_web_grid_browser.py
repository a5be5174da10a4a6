"""Browser test of the grid-genre page: a small Unruly played with keys and hints to the end."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def test_unruly_keyboard_hints_to_completion(page, expect, save_screenshot) -> None:
    page.goto("/grid")
    assert page.title() == "Grid puzzles · puzzleforge"
    page.get_by_label("Genre", exact=True).select_option("unruly")
    page.get_by_label("Size (rows x columns)").fill("6x6")
    page.get_by_label("Seed (empty = random)").fill("4")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#gp-play")).to_be_visible()
    expect(page.locator("#gp-title")).to_have_text("Unruly")
    cells = page.locator("#gp-board td[data-key]")
    expect(cells).to_have_count(36)

    # keyboard: put black on the first free cell, then clear it; mouse: click cycles
    free = page.locator("#gp-board td[data-key]:not(.given) button").first
    free.focus()
    page.keyboard.press("b")
    expect(free).to_have_attribute("aria-label", re.compile(r": black$"))
    page.keyboard.press("Delete")
    expect(free).to_have_attribute("aria-label", re.compile(r": empty$"))
    free.click()
    expect(free).to_have_attribute("aria-label", re.compile(r": black$"))
    free.click()
    free.click()
    expect(free).to_have_attribute("aria-label", re.compile(r": empty$"))

    # hints until solved, each with a reason and the cells it used
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#gp-result")).to_contain_text("must be")
    expect(page.locator("#gp-board td.hinted")).to_have_count(1)
    save_screenshot(page, "grid-unruly")
    for _ in range(60):
        if "already solved" in (page.text_content("#gp-result") or ""):
            break
        # one request at a time: hints run in engine workers (a new process each)
        with page.expect_response(lambda r: r.url.endswith("/hint")):
            page.get_by_role("button", name="Hint").click()
    expect(page.locator("#gp-result")).to_contain_text("already solved")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#gp-result")).to_contain_text("Solved! Every cell is correct.")
    save_screenshot(page, "grid-unruly-solved")


def test_load_text_errors_and_reveal(page, expect) -> None:
    page.goto("/grid")
    page.get_by_label(re.compile("Puzzle text")).fill("unruly 4x4\n1...\n")
    page.get_by_role("button", name="Load").click()
    expect(page.locator("#gp-error")).to_contain_text("line 3")
    page.get_by_label(re.compile("Puzzle text")).fill("unruly 4x4\n1...\n....\n..0.\n....\n")
    page.get_by_role("button", name="Load").click()
    # four givens do not make a unique 4x4 Unruly: the page says so instead of playing
    error_or_board = page.locator("#gp-error:not([hidden]), #gp-play:not([hidden])").first
    expect(error_or_board).to_be_visible()
    if page.locator("#gp-play").is_visible():
        page.get_by_role("button", name="Reveal solution").click()
        expect(page.locator("#gp-result")).to_contain_text("Solution revealed")
    else:
        expect(page.locator("#gp-error")).to_contain_text("more than one solution")


SUDOKU_URL = "https://puzz.link/p?sudoku/4/4/h3g2h1g2g3j"  # a unique 4x4 Sudoku


def test_puzzlink_url_loads_and_plays_with_digit_keys(page, expect, save_screenshot) -> None:
    page.goto("/grid")
    page.get_by_label(re.compile("Puzzle text")).fill(SUDOKU_URL)
    page.get_by_role("button", name="Load").click()
    expect(page.locator("#gp-title")).to_contain_text("Sudoku")
    expect(page.locator("#gp-board td.given")).to_have_count(5)
    # 2x2 boxes: one thick vertical and one thick horizontal line inside the 4x4 board
    expect(page.locator("#gp-board td.tR")).to_have_count(4)
    expect(page.locator("#gp-board td.tB")).to_have_count(4)
    # type the solution of every free cell with the keyboard (read from Reveal, then cleared)
    page.get_by_role("button", name="Reveal solution").click()
    expect(page.locator("#gp-result")).to_contain_text("Solution revealed")
    free = page.locator("#gp-board td[data-key]:not(.given) button")
    solution = [free.nth(i).text_content() for i in range(free.count())]
    assert len(solution) == 11 and all(d in "1234" and d for d in solution)
    page.get_by_role("button", name="Clear").click()
    expect(free.first).to_have_text("")
    for i, digit in enumerate(solution):
        free.nth(i).focus()
        page.keyboard.press(digit)
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#gp-result")).to_contain_text("Solved!")
    save_screenshot(page, "grid-sudoku-puzzlink")
