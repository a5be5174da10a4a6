"""verify / score_answer: JSON (ZebraLogic), markdown tables, "A ~ B ~ C" lines, partial
credit, malformed input scores 0 without raising."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from zebra_helpers import sample_puzzle  # noqa: E402

from puzzleforge.zebra.answers import score_answer  # noqa: E402
from puzzleforge.zebra.text import answer_text  # noqa: E402


def test_all_answer_shapes_score_one() -> None:
    p = sample_puzzle()
    rows = p.rows()
    assert score_answer(p, answer_text(p)) == 1.0
    assert score_answer(p, json.dumps({"header": p.header(), "rows": rows})) == 1.0
    zl = {
        "solution": {
            f"House {n}": dict(zip(p.header(), r, strict=True)) for n, r in enumerate(rows, 1)
        }
    }
    assert (
        score_answer(p, "Here it is:\n```json\n" + json.dumps(zl, ensure_ascii=False) + "\n```")
        == 1.0
    )
    table = "| kraj | imię | temperatura |\n|---|---|---|\n" + "\n".join(
        "| " + " | ".join(r) + " |" for r in reversed(rows)
    )
    assert score_answer(p, table) == 1.0
    # formatting noise: bold, case, missing Polish letters
    noisy = "\n".join(" ~ ".join(f"**{x.upper()}**" for x in r) for r in rows)
    assert score_answer(p, noisy) == 1.0
    assert score_answer(p, answer_text(p).replace("Włochy", "Wlochy")) == 1.0


def test_partial_credit_is_fraction_of_cells() -> None:
    p = sample_puzzle()
    lines = answer_text(p).splitlines()
    # swap the names of two rows: 4 of 8 cells wrong
    a, b = lines[0].split(" ~ "), lines[1].split(" ~ ")
    a[1], b[1] = b[1], a[1]
    wrong = "\n".join([" ~ ".join(a), " ~ ".join(b)] + lines[2:])
    assert score_answer(p, wrong) == 6 / 8
    assert score_answer(p, "\n".join(lines[:2])) == 4 / 8


def test_malformed_answers_score_zero() -> None:
    p = sample_puzzle()
    for junk in ("", "no idea", "{", "[1, 2, 3]", "| a | b |", None, "~~~"):
        assert score_answer(p, junk) == 0.0
