"""Browser test of the logic-grid page: generate 4x4, mark, hint until solved, check."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def test_generate_mark_hint_until_solved_and_check(page, expect, save_screenshot) -> None:
    page.goto("/logic-grid")
    assert page.title() == "Logic grid · puzzleforge"
    page.get_by_label("Categories (K)").fill("4")
    page.get_by_label("Objects per category (k)").fill("4")
    page.get_by_label("Seed (empty = random)").fill("11")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#lg-play")).to_be_visible()
    expect(page.locator("#lg-info")).to_contain_text("4×4 · seed 11")
    cells = page.locator("#lg-grid button[data-key]")
    expect(cells).to_have_count(6 * 16)  # K(K-1)/2 boxes of k*k cells
    assert page.locator("#lg-clues li").count() > 0

    # a click cycles empty -> x -> dot -> empty
    first = cells.first
    first.click()
    expect(first).to_have_text("×")
    first.click()
    expect(first).to_have_text("●")
    first.click()
    expect(first).to_have_text("")

    # a wrong mark is highlighted by check: mark the first cell with the wrong symbol
    key = first.get_attribute("data-key")
    first.focus()
    page.keyboard.press("o")  # keyboard sets a dot
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#lg-result")).to_be_visible()
    result = page.text_content("#lg-result")
    if "wrong mark(s)" in result:
        expect(page.locator(f'#lg-grid td[data-key="{key}"]')).to_have_class(re.compile("wrong"))
        page.keyboard.press("Delete")  # clear it again with the keyboard
    else:
        assert "No wrong marks" in result

    # hints until solved; each shows its reason and the clue it used
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#lg-result")).to_contain_text("Hint:")
    expect(page.locator("#lg-grid td.hinted").first).to_be_visible()
    save_screenshot(page, "logic-grid")
    for _ in range(200):
        if "already solved" in (page.text_content("#lg-result") or ""):
            break
        # one request at a time: hints run in engine workers (a new process each)
        with page.expect_response(lambda r: r.url.endswith("/hint")):
            page.get_by_role("button", name="Hint").click()
    expect(page.locator("#lg-result")).to_contain_text("already solved")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#lg-result")).to_contain_text("Solved! Every pairing is correct.")
    assert page.locator("#lg-grid td.mark-o").count() == 6 * 4
    save_screenshot(page, "logic-grid-solved")


def test_walkthrough_rename_and_bad_size(page, expect, save_screenshot) -> None:
    page.goto("/logic-grid")
    page.get_by_label("Seed (empty = random)").fill("3")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#lg-play")).to_be_visible()
    # keyboard: arrows move between cells (skipping the holes of the staircase)
    cells = page.locator("#lg-grid button[data-key]")
    cells.first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator('#lg-grid button[data-r="0"][data-c="1"]')).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator('#lg-grid button[data-r="1"][data-c="1"]')).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator('#lg-grid button[data-r="1"][data-c="1"]')).to_have_text("×")
    page.keyboard.press("Delete")
    page.get_by_role("button", name="Solve step by step").click()
    expect(page.locator("#lg-walk-pos")).to_contain_text("Empty grid")
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#lg-walk-pos")).to_contain_text("Step 1 of")
    total = page.locator("#lg-step-list li").count()
    for _ in range(total - 1):
        page.get_by_role("button", name="Next step").click()
    expect(page.locator("#lg-result")).to_contain_text("reached the solution")
    save_screenshot(page, "logic-grid-steps")
    page.get_by_role("button", name="Back to my marks").click()

    # rename an object of the first category: the clues use the new name
    page.locator("#lg-rename-box summary").click()
    first_item = page.get_by_label("Object 1 of category 1")
    first_item.fill("Zoltan")
    page.get_by_role("button", name="Apply names").click()
    expect(page.locator("#lg-result")).to_contain_text("Names updated")
    expect(page.locator("#lg-grid")).to_contain_text("Zoltan")

    # both PDFs download (the sheet uses the new name)
    for link, suffix in (
        ("Download PDF sheet", ".pdf"),
        ("Download solution PDF", "-solution.pdf"),
    ):
        with page.expect_download() as info:
            page.get_by_role("link", name=link).click()
        download = info.value
        assert download.suggested_filename.endswith(suffix)
        with open(download.path(), "rb") as handle:
            assert handle.read(5) == b"%PDF-"

    # an out-of-range size is refused in the page, not with a trace
    page.get_by_label("Categories (K)").evaluate("e => e.removeAttribute('max')")
    page.get_by_label("Categories (K)").fill("40")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#lg-error")).to_contain_text("less than or equal to 6")


def test_6x6_fits_a_1280_window_and_step_numbers_have_room(page, expect) -> None:
    page.goto("/logic-grid")  # the page fixture's window is 1280 px wide
    page.get_by_label("Categories (K)").fill("6")
    page.get_by_label("Objects per category (k)").fill("6")
    page.get_by_label("Seed (empty = random)").fill("3")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#lg-play")).to_be_visible(timeout=120_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    grid = page.locator("#lg-grid table").bounding_box()
    clues = page.locator("#lg-clues").bounding_box()
    assert grid["x"] + grid["width"] <= clues["x"]  # side by side, not overlapping
    assert clues["x"] + clues["width"] <= 1280
    page.get_by_role("button", name="Solve step by step").click()
    expect(page.locator("#lg-step-list li").nth(9)).to_be_attached()  # two-digit steps
    # the list's left padding holds a four-character marker ("100.") in its own font,
    # so step numbers from 10 on (and past 100) are never clipped
    room = page.locator("#lg-step-list").evaluate(
        "ol => parseFloat(getComputedStyle(ol).paddingLeft) / parseFloat(getComputedStyle(ol).fontSize)"
    )
    assert room >= 3.0
