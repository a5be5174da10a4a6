"""Browser test of the cross-number page: a corpus puzzle solved, a broken file's line shown."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ABCD = REPO / "examples" / "crossnumber" / "abcd.yaml"  # converted from the shared corpus


def test_corpus_puzzle_is_solved_with_its_steps(page, expect, save_screenshot) -> None:
    assert ABCD.is_file(), f"{ABCD} (the checked-in corpus conversion) is missing"
    page.goto("/crossnumber")
    assert page.title() == "Cross-number · puzzleforge"
    page.get_by_label("Example puzzle").select_option("abcd")
    page.get_by_role("button", name="Load example").click()
    expect(page.locator("#cn-status")).to_contain_text("Loaded example abcd")
    page.get_by_role("button", name="Solve").click()
    expect(page.locator("#cn-summary")).to_contain_text("Unique solution.")
    # the corpus file's expected solution rows
    rows = ["455451", "173096", "014234", "236187", "264021", "192754"]
    grid_rows = page.locator("#cn-grid tr")
    expect(grid_rows).to_have_count(6)
    for r, expected in enumerate(rows):
        cells = grid_rows.nth(r).locator("td")
        texts = [
            cells.nth(c).evaluate(
                "td => td.lastChild && td.lastChild.nodeType === 3 ? td.lastChild.textContent : ''"
            )
            for c in range(6)
        ]
        assert "".join(texts) == expected
    assert page.locator("#cn-steps li").count() > 10
    expect(page.locator("#cn-values")).to_contain_text("A1 = 4554")
    save_screenshot(page, "crossnumber")


def test_uploaded_file_error_is_shown_at_its_line(page, expect, tmp_path, save_screenshot) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "title: Broken\ngrid: |\n  ..\n  ..\nclues:\n  A1: square\n  A3: primee\n"
        "  D1: prime\n  D2: square\n",
        encoding="utf-8",
    )
    page.goto("/crossnumber")
    page.set_input_files("#cn-file", str(bad))
    expect(page.locator("#cn-status")).to_contain_text("Read broken.yaml")
    page.get_by_role("button", name="Solve").click()
    expect(page.locator("#cn-error")).to_contain_text("broken.yaml:7")
    expect(page.locator("#cn-listing .bad")).to_contain_text("7 |   A3: primee")
    save_screenshot(page, "crossnumber-error")
