"""The zebra solution PDF: the answer first, then the steps grouped several to a page."""

from __future__ import annotations

import re

import puzzleforge
from puzzleforge.zebra import load
from puzzleforge.zebra.engine import Engine
from puzzleforge.zebra.pdf import plan_step_pages, solution_bytes


def _pages(data: bytes) -> int:
    # every page object of the file: "/Type /Page" (not the "/Type /Pages" tree node)
    return len(re.findall(rb"/Type /Page\b(?!s)", data))


def test_plan_groups_steps_by_height() -> None:
    assert plan_step_pages([10, 10, 10, 10, 10], 25) == [[0, 1], [2, 3], [4]]
    assert plan_step_pages([30, 5, 5], 25) == [[0], [1, 2]]  # a tall step alone
    assert plan_step_pages([], 25) == []


def test_4x4_solution_is_a_few_pages_and_deterministic() -> None:
    p = load(puzzleforge.generate("zebra", seed=1, K=4, k=4))
    steps = Engine(p.K, p.k, p.clues, explain=True).run(guessing=True).steps
    data = solution_bytes(p, steps)
    assert data.startswith(b"%PDF")
    pages = _pages(data)
    # one answer page, then at least five steps a page (it was one page per step)
    assert 2 <= pages <= 1 + -(-len(steps) // 5)
    assert solution_bytes(p, steps) == data
