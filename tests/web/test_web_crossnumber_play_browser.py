"""Browser tests: cross-numbers played on their grid (bundled, uploaded and generated).

The expected digits come from the puzzle's own ``expect`` rows where the file has them
(powerplay) or from the server's record (``/api/crossnumber/{token}/solution``); they are
typed with the keyboard into the grid, with a hint, an undo and Check at the end.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

POWERPLAY_ROWS = ["11449", "49364", "46656"]  # the answer the API test also asserts


def _typed(page, key: str) -> None:
    page.locator(f'#cnp-grid button[data-key="{key}"]').click()


def test_bundled_puzzle_typed_to_solved(page, expect, save_screenshot) -> None:
    page.goto("/crossnumber")
    page.get_by_label("Example puzzle").select_option("powerplay")
    page.get_by_role("button", name="Load example").click()
    expect(page.locator("#cn-status")).to_contain_text("Loaded example powerplay")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#cn-play")).to_be_visible()
    expect(page.locator("#cnp-across li")).not_to_have_count(0)
    # a hint fills one cell with the engine's reason and highlights its clue and cells
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#cnp-result")).to_contain_text(re.compile(r"Row \d, column \d is \d"))
    expect(page.locator("#cnp-grid td.hinted")).to_have_count(1)
    expect(page.locator("#cnp-clues button.clue.current")).to_have_count(1)
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#cnp-count")).to_have_text("0 cells filled")
    # typing moves along the entry: 1 Across fills from its first cell with five digits
    _typed(page, "0,0")
    for digit in POWERPLAY_ROWS[0]:
        page.keyboard.press(digit)
    expect(page.locator('#cnp-grid button[data-key="0,4"]')).to_be_focused()
    # Space turns typing down: 4 Down continues from row 2 of column 5
    _typed(page, "1,4")
    page.keyboard.press("Space")
    expect(page.locator("#cnp-dir")).to_contain_text("Typing moves down")
    page.keyboard.press(POWERPLAY_ROWS[1][4])
    expect(page.locator('#cnp-grid button[data-key="2,4"]')).to_be_focused()
    # the other cells one by one, reached with the arrow keys (blocks and bars allowed)
    for r, row in enumerate(POWERPLAY_ROWS[1:], start=1):
        for c, digit in enumerate(row):
            if (r, c) != (1, 4):
                _typed(page, f"{r},{c}")
                page.keyboard.press(digit)
    _typed(page, "2,4")
    page.keyboard.press("ArrowLeft")
    expect(page.locator('#cnp-grid button[data-key="2,3"]')).to_be_focused()
    page.keyboard.press("Delete")  # a slip, undone by Ctrl+Z
    page.keyboard.press("Control+z")
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#cnp-result")).to_contain_text("Solved! Every cell is correct.")
    save_screenshot(page, "crossnumber-play")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download PDF sheet").click()
    assert download.value.suggested_filename == "crossnumber.pdf"


def test_uploaded_puzzle_wrong_cell_flagged_then_revealed(page, expect, tmp_path) -> None:
    from puzzleforge.crossnumber.api import bundled_dir

    upload = tmp_path / "mine.yaml"
    upload.write_text(
        (bundled_dir() / "powerplay.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    page.goto("/crossnumber")
    page.set_input_files("#cn-file", str(upload))
    expect(page.locator("#cn-status")).to_contain_text("Read mine.yaml")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#cn-play")).to_be_visible()
    _typed(page, "0,0")
    page.keyboard.press("7")  # the right digit is 1
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#cnp-result")).to_contain_text("1 wrong cell(s)")
    expect(page.locator("#cnp-grid td.wrong")).to_have_count(1)
    page.get_by_role("button", name="Reveal solution").click()
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#cnp-result")).to_contain_text("Solved!")


POWERPLAY_GIVENS = "givens: |\n  ..4..\n  ....4\n  4....\n"


def test_hint_names_a_clue_and_a_reason_and_is_not_a_given(page, expect, tmp_path) -> None:
    from puzzleforge.crossnumber.api import bundled_dir

    # powerplay with three digits of its answer given; 2 Across (A7) is then a square
    # ending in the given 4 of row 2, column 5: 64, so row 2, column 4 is 6
    upload = tmp_path / "given.yaml"
    text = (bundled_dir() / "powerplay.yaml").read_text(encoding="utf-8")
    upload.write_text(text.replace("clues:\n", POWERPLAY_GIVENS + "clues:\n", 1), encoding="utf-8")
    page.goto("/crossnumber")
    page.set_input_files("#cn-file", str(upload))
    expect(page.locator("#cn-status")).to_contain_text("Read given.yaml")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#cn-play")).to_be_visible()
    expect(page.locator("#cnp-grid td.given")).to_have_count(3)
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#cnp-result")).to_have_text(
        "Hint: Row 2, column 4 is 6: A7 is square with 2 digits: {16, 25, 36, 49, 64, 81}; "
        "A7 must fit the digits possible in A7: A7: {16, 25, 36, 49, 64, 81} -> 64; "
        "so cells r2c4 6."
    )
    hinted = page.locator("#cnp-grid td.hinted")
    expect(hinted).to_have_count(1)
    expect(hinted).to_have_attribute("data-key", "1,3")
    expect(hinted).not_to_have_class(re.compile(r"\bgiven\b"))
    expect(hinted.locator("button")).to_have_attribute("aria-label", "row 2, column 4: 6")
    expect(page.locator("#cnp-clues button.clue.current")).to_have_attribute("data-clue", "A7")
    expect(page.locator("#cnp-grid td.used")).to_have_count(2)  # A7's two cells


def test_generated_puzzle_solved_with_typed_digits(page, expect) -> None:
    page.goto("/crossnumber")
    page.get_by_label("Generate a").select_option("3")
    page.get_by_label("seed").fill("2")
    page.get_by_role("button", name="Generate and play").click()
    expect(page.locator("#cn-play")).to_have_attribute("data-token", re.compile(r"\w+"))
    expect(page.locator("#cn-text")).to_have_value(re.compile("^title: Generated"))
    token = page.locator("#cn-play").get_attribute("data-token")
    solution = page.request.get(f"/api/crossnumber/{token}/solution").json()["values"]
    for key, digit in sorted(solution.items()):
        _typed(page, key)
        page.keyboard.press(digit)
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#cnp-result")).to_contain_text("Solved!")
