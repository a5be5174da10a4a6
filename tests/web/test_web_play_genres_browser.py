"""Browser tests: one small puzzle of every grid genre played to a solved state.

The solution comes from the server's record of the puzzle (``/api/grid/{token}/solution``,
checked against the engine's own solution in the API tests); it is entered through real
mouse clicks, right-clicks, drags and key presses. Each game also asks for a hint, undoes
it (Ctrl+Z), makes and undoes a wrong move, and ends with Check saying "Solved!".
One browser serves every test (the session fixture); boards are small to keep it quick.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

#: genre -> (size, seed): the smallest boards the genres allow, seeds fixed.
GENRES = {
    "unruly": ("6x6", 4),
    "binairo": ("4x4", 1),
    "sudoku": ("4x4", 1),
    "futoshiki": ("4x4", 1),
    "skyscrapers": ("4x4", 1),
    "kakurasu": ("4x4", 1),
    "starbattle": ("5x5", 1),
    "lightup": ("5x5", 1),
    "slitherlink": ("5x5", 1),
    "masyu": ("5x5", 1),
    "nurikabe": ("5x5", 1),
    "nonogram": ("5x5", 1),
}
TWO_COLOUR = {"unruly", "binairo"}


def test_every_genre_of_the_page_is_played_here() -> None:
    # a genre added to the engine (and so to the page) must get a game in this file
    from puzzleforge.web.grid_adapter import genre_list

    assert set(GENRES) == {g["id"] for g in genre_list()}


def _generate(page, expect, genre: str, size: str, seed: int) -> tuple[str, dict]:
    page.goto("/grid")
    page.get_by_label("Genre", exact=True).select_option(genre)
    page.get_by_label("Size (rows x columns)").fill(size)
    page.get_by_label("Seed (empty = random)").fill(str(seed))
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#gp-play")).to_be_visible()
    expect(page.locator("#gp-play")).to_have_attribute("data-token", re.compile(r"\w+"))
    token = page.locator("#gp-play").get_attribute("data-token")
    solution = page.request.get(f"/api/grid/{token}/solution").json()["values"]
    return token, solution


def _cell(page, key: str):
    return page.locator(f'#gp-board button[data-key="{key}"]')


def _centre(page, r: int, c: int) -> tuple[float, float]:
    box = page.locator(f'#gp-board td[data-key="{r},{c}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _edge_point(page, key: str, rows: int, cols: int) -> tuple[float, float]:
    """The midpoint of edge ``o,r,c`` on screen (a side of a neighbouring cell)."""
    o, r, c = key.split(",")
    r, c = int(r), int(c)
    if o == "h":
        cell = (r, c) if r < rows else (r - 1, c)
        box = page.locator(f'#gp-board td[data-key="{cell[0]},{cell[1]}"]').bounding_box()
        y = box["y"] if r < rows else box["y"] + box["height"]
        return box["x"] + box["width"] / 2, y
    cell = (r, c) if c < cols else (r, c - 1)
    box = page.locator(f'#gp-board td[data-key="{cell[0]},{cell[1]}"]').bounding_box()
    x = box["x"] if c < cols else box["x"] + box["width"]
    return x, box["y"] + box["height"] / 2


def _hint_then_undo(page, expect, edge: bool) -> None:
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#gp-result")).to_contain_text("Hint: ")
    hinted = page.locator("#gp-board svg line.mark.hinted" if edge else "#gp-board td.hinted")
    expect(hinted).to_have_count(1)
    expect(page.locator("#gp-count")).to_have_text("1 mark placed")
    page.locator("#gp-board button[data-key]").first.focus()
    page.keyboard.press("Control+z")
    expect(page.locator("#gp-count")).to_have_text("0 marks placed")


def _finish(page, expect) -> None:
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#gp-result")).to_contain_text("Solved!")


@pytest.mark.parametrize("genre", [g for g in GENRES if g not in ("slitherlink", "masyu")])
def test_cell_genre_played_to_solved(page, expect, save_screenshot, genre: str) -> None:
    size, seed = GENRES[genre]
    _, solution = _generate(page, expect, genre, size, seed)
    _hint_then_undo(page, expect, edge=False)
    binary = set(solution.values()) <= {"0", "1"}
    givens = {
        page.locator("#gp-board td.given").nth(i).get_attribute("data-key")
        for i in range(page.locator("#gp-board td.given").count())
    }
    todo = sorted(k for k in solution if k not in givens)
    if binary and genre not in TWO_COLOUR:
        todo = [k for k in todo if solution[k] == "1"]  # unmarked cells count as empty
    for i, key in enumerate(todo):
        token = solution[key]
        if binary:
            if i % 2 == 0:  # mouse: left = "1", right = "0"
                _cell(page, key).click(button="left" if token == "1" else "right")
            else:  # keyboard: b / w
                _cell(page, key).focus()
                page.keyboard.press("b" if token == "1" else "w")
        elif i == 0:  # the value picker
            _cell(page, key).click()
            page.get_by_role("button", name=f"Enter {token}", exact=True).click()
        else:
            _cell(page, key).click()
            page.keyboard.press(token)
        expect(_cell(page, key)).to_have_attribute("aria-label", re.compile(r": \S"))
    # a wrong move, undone with the Undo button, then redone and undone by keys
    last = todo[-1]
    label = _cell(page, last).get_attribute("aria-label")
    _cell(page, last).focus()
    page.keyboard.press("Delete")
    expect(_cell(page, last)).not_to_have_attribute("aria-label", label)
    page.get_by_role("button", name="Undo").click()
    expect(_cell(page, last)).to_have_attribute("aria-label", label)
    _finish(page, expect)
    if genre in ("starbattle", "nonogram"):
        save_screenshot(page, f"grid-{genre}-solved")


def test_drag_paints_cells_and_is_one_undo_step(page, expect) -> None:
    _generate(page, expect, "nonogram", "5x5", 1)
    start, end = _centre(page, 0, 0), _centre(page, 0, 4)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()
    for c in range(5):
        expect(_cell(page, f"0,{c}")).to_have_attribute("aria-label", re.compile(": black$"))
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#gp-count")).to_have_text("0 marks placed")
    page.get_by_role("button", name="Redo").click()
    expect(page.locator("#gp-count")).to_have_text("5 marks placed")


def test_two_digit_values_and_pencil_marks_on_a_12x12_sudoku(page, expect, save_screenshot) -> None:
    _, solution = _generate(page, expect, "sudoku", "12x12", 1)
    givens = {
        page.locator("#gp-board td.given").nth(i).get_attribute("data-key")
        for i in range(page.locator("#gp-board td.given").count())
    }
    twelve = next(k for k in sorted(solution) if solution[k] == "12" and k not in givens)
    _cell(page, twelve).click()
    page.keyboard.press("1")
    page.keyboard.press("2")
    expect(_cell(page, twelve)).to_have_attribute("aria-label", re.compile(r": 12$"))
    ten = next(k for k in sorted(solution) if solution[k] == "10" and k not in givens)
    _cell(page, ten).click()
    page.get_by_role("button", name="Enter 10", exact=True).click()
    expect(_cell(page, ten)).to_have_attribute("aria-label", re.compile(r": 10$"))
    other = next(k for k in sorted(solution) if k not in givens and k not in (ten, twelve))
    _cell(page, other).click()
    page.keyboard.press("p")
    expect(page.get_by_role("button", name="Pencil marks: on")).to_be_visible()
    page.keyboard.press("5")
    expect(_cell(page, other)).to_have_attribute("aria-label", re.compile(r"\(pencil 5\)$"))
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#gp-result")).to_contain_text("No mistakes so far (")
    save_screenshot(page, "grid-sudoku-12x12")


def test_slitherlink_by_clicks_and_keys(page, expect, save_screenshot) -> None:
    size, seed = GENRES["slitherlink"]
    rows, cols = (int(x) for x in size.split("x"))
    _, solution = _generate(page, expect, "slitherlink", size, seed)
    _hint_then_undo(page, expect, edge=True)
    lines = sorted(k for k, v in solution.items() if v == "1")
    moves = {
        "h": ("Shift+ArrowUp", "Shift+ArrowDown"),
        "v": ("Shift+ArrowLeft", "Shift+ArrowRight"),
    }
    for i, key in enumerate(lines):
        if i % 3 == 2:  # keyboard: Shift+arrow draws the line on that side of a cell
            o, r, c = key.split(",")
            r, c = int(r), int(c)
            outer = (o == "h" and r == rows) or (o == "v" and c == cols)
            cell = (r - 1, c) if o == "h" and outer else (r, c - 1) if outer else (r, c)
            _cell(page, f"{cell[0]},{cell[1]}").focus()
            page.keyboard.press(moves[o][1 if outer else 0])
        else:
            page.mouse.click(*_edge_point(page, key, rows, cols))
    expect(page.locator("#gp-board svg line.on")).to_have_count(len(lines))
    # cross out an empty edge (right-click): still correct; a wrong line, undone by key
    empty = next(k for k, v in sorted(solution.items()) if v == "0")
    page.mouse.click(*_edge_point(page, empty, rows, cols), button="right")
    expect(page.locator("#gp-board svg line.cross[data-edge]")).to_have_count(1)
    page.mouse.click(*_edge_point(page, empty, rows, cols))  # a line where none belongs
    page.get_by_role("button", name="Check").click()
    expect(page.locator("#gp-result")).to_contain_text("1 wrong mark")
    page.locator("#gp-board button[data-key]").first.focus()
    page.keyboard.press("Control+z")
    _finish(page, expect)
    save_screenshot(page, "grid-slitherlink-solved")


def _loop_order(solution: dict) -> list[tuple[int, int]]:
    """The cells of the Masyu loop in order (from its links between cell centres)."""
    nbrs: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for key, v in solution.items():
        if v != "1":
            continue
        o, r, c = key.split(",")
        r, c = int(r), int(c)
        a, b = ((r - 1, c), (r, c)) if o == "h" else ((r, c - 1), (r, c))
        nbrs.setdefault(a, []).append(b)
        nbrs.setdefault(b, []).append(a)
    start = min(nbrs)
    order, prev = [start], None
    while True:
        here = order[-1]
        nxt = next(n for n in nbrs[here] if n != prev)
        if nxt == start:
            return order
        prev = here
        order.append(nxt)


def test_masyu_drawn_by_dragging_between_cell_centres(page, expect, save_screenshot) -> None:
    size, seed = GENRES["masyu"]
    _, solution = _generate(page, expect, "masyu", size, seed)
    _hint_then_undo(page, expect, edge=True)
    order = _loop_order(solution)
    links = sum(1 for v in solution.values() if v == "1")
    assert len(order) == links
    half = len(order) // 2
    page.mouse.move(*_centre(page, *order[0]))  # first half: one mouse drag
    page.mouse.down()
    for cell in order[1 : half + 1]:
        page.mouse.move(*_centre(page, *cell), steps=3)
    page.mouse.up()
    expect(page.locator("#gp-board svg line.on")).to_have_count(half)
    arrows = {
        (-1, 0): "Shift+ArrowUp",
        (1, 0): "Shift+ArrowDown",
        (0, -1): "Shift+ArrowLeft",
        (0, 1): "Shift+ArrowRight",
    }
    _cell(page, "{},{}".format(*order[half])).focus()  # second half: Shift+arrows
    for a, b in zip(order[half:], order[half + 1 :] + order[:1], strict=True):
        page.keyboard.press(arrows[(b[0] - a[0], b[1] - a[1])])
    expect(page.locator("#gp-board svg line.on")).to_have_count(links)
    _finish(page, expect)
    save_screenshot(page, "grid-masyu-solved")
    with page.expect_download() as download:
        page.get_by_role("link", name="PDF with the solution").click()
    assert download.value.suggested_filename == "grid-masyu-solution.pdf"
