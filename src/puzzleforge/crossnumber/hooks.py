"""Named post-processing hooks a puzzle file may ask for (``rules.hooks``).

Why named functions and not code in the file: puzzle files are data and never run code.
A puzzle that needs a check the clue language cannot express gets a function here, and
its file names it. Each hook receives the model and a complete candidate solution and
returns whether to keep it.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["HOOKS"]


def _distinct_rows(model: Any, solution: Any) -> bool:
    """No two grid rows read the same."""
    rows = solution.rows(model)
    return len(rows) == len(set(rows))


def _mod26_letters(model: Any, solution: Any) -> bool:
    """Endgame of 'Prime': digit pairs in reading order, mod 26, must all be letters of
    the quotation's alphabet; accepts every grid (the quotation is not encoded), kept as
    an example of a hook that inspects the whole grid."""
    digits = "".join(solution.rows(model)).replace("#", "")
    return len(digits) % 2 == 0


HOOKS: dict[str, Callable[[Any, Any], bool]] = {
    "distinct_rows": _distinct_rows,
    "even_digit_count": _mod26_letters,
}
