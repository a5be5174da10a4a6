"""Browser test of the dataset page: open a listed JSONL dataset, search, read a record."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_open_dataset_search_and_show_record(page, expect, save_screenshot) -> None:
    page.goto("/datasets")
    assert page.title() == "Datasets · puzzleforge"
    page.select_option("#ds-listed", "latin-small.jsonl")
    page.get_by_role("button", name="Open", exact=True).click()
    expect(page.locator("#ds-list button")).to_have_count(6)
    expect(page.locator("#ds-status")).to_contain_text("6 puzzles")
    # the first record is shown with its question, answer and explanation
    expect(page.locator("#ds-record h2")).to_contain_text("#0 · latin")
    expect(page.locator("#ds-record pre.question")).to_contain_text("Fill the 4x4 grid")
    expect(page.locator("#ds-record ol.steps li")).to_have_count(2)
    # keyboard: arrow down moves to the next record
    page.locator("#ds-list button").first.focus()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#ds-record h2")).to_contain_text("#1 · latin")
    # search narrows the list; a search with no hit says so
    page.fill("#ds-q", "no-such-word")
    page.keyboard.press("Enter")
    expect(page.locator("#ds-count")).to_contain_text("No puzzle matches")
    page.fill("#ds-q", "latin")
    page.keyboard.press("Enter")
    expect(page.locator("#ds-list button")).to_have_count(6)
    page.locator("#ds-record details summary").click()
    save_screenshot(page, "datasets")


def test_bad_upload_is_reported_in_the_page(page, expect, tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"family": "latin"}\nnot json\n', encoding="utf-8")
    page.goto("/datasets")
    page.set_input_files("#ds-file", str(bad))
    page.get_by_role("button", name="Open file").click()
    expect(page.locator("#ds-problems li")).to_have_count(2)
    expect(page.locator("#ds-problems")).to_contain_text("line 1: record lacks question, answer")
    expect(page.locator("#ds-problems")).to_contain_text("line 2: not valid JSON")


def test_zebra_dataset_explained_by_the_solver(page, expect, save_screenshot) -> None:
    page.goto("/datasets")
    page.select_option("#ds-listed", "zebra-small.jsonl")
    page.get_by_role("button", name="Open", exact=True).click()
    expect(page.locator("#ds-record h2")).to_contain_text("#0 · zebra")
    page.get_by_role("button", name="Explain with the solver").click()
    expect(page.locator("#ds-derived ol.steps li").first).to_be_visible()
    save_screenshot(page, "datasets-zebra-explained")


def test_dataset_from_the_generate_command(page, expect, save_screenshot) -> None:
    page.goto("/datasets")
    page.select_option("#ds-listed", "unruly-generated.jsonl")
    page.get_by_role("button", name="Open", exact=True).click()
    expect(page.locator("#ds-list button")).to_have_count(3)
    expect(page.locator("#ds-record h2")).to_contain_text("#0 · unruly")
    expect(page.locator("#ds-record pre.answer")).not_to_be_empty()
    page.get_by_role("button", name="Explain with the solver").click()
    expect(page.locator("#ds-derived ol.steps li").first).to_contain_text("must be")
    save_screenshot(page, "datasets-unruly-generated")
