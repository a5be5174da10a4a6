"""Named post-processing hooks a puzzle file may ask for (``rules.hooks``).

Why named functions and not code in the file: puzzle files are data and never run code.
A puzzle that needs a check the clue language cannot express gets a function here, and
its file names it. Each hook receives the model and a complete candidate solution and
returns whether to keep it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["HOOKS"]


def _distinct_rows(model: Any, solution: Any) -> bool:
    """No two grid rows read the same."""
    rows = solution.rows(model)
    return len(rows) == len(set(rows))


def _mod26_letters(model: Any, solution: Any, text: str = "") -> bool:
    """Endgame of 'Prime': the grid's digits in reading order, taken two at a time, mod 26
    (1 = A ... 25 = Y, 0 = Z) spell ``text`` (spaces and case ignored)."""
    digits = "".join(solution.rows(model)).replace("#", "")
    if len(digits) % 2:
        return False
    letters = "".join(
        chr(64 + (int(digits[i : i + 2]) % 26 or 26)) for i in range(0, len(digits), 2)
    )
    want = "".join(ch for ch in str(text).upper() if ch.isalpha())
    return want in letters if want else True


HOOKS: dict[str, Callable[[Any, Any], bool]] = {
    "distinct_rows": _distinct_rows,
    "mod26_letters": _mod26_letters,
}
