"""A scorer written to ZeroEval's published ZebraLogic checks (a test helper).

Grid mode (ZeroEval ``src/evaluation/zebra_grid_eval.py``): the truth is the record's
``solution``; ``header[0]`` must be "House"; the truth table maps "House i" (i from 1,
in row order) to {column: cell} for every column but the first; the model output's last
complete JSON object must hold ``solution``; a cell counts when
``truth.lower().strip() == predicted.lower().strip()`` (a list prediction counts by its
first element); a puzzle is solved when every cell counts; results are grouped by the
record's ``size``. Multiple-choice mode (ZeroEval's MCQA check): the answer's letter is
the index of the record's ``answer`` in ``choices`` (A, B, ...); the model's JSON
``answer`` must equal that letter. Written here from that description, not copied.
"""

from __future__ import annotations

import json
from typing import Any


def last_complete_json(text: str) -> Any:
    """The last top-level {...} block of ``text`` parsed as JSON (None if none parses)."""
    depth, start, last = 0, None, None
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0 and start is not None:
                last = text[start : i + 1]
                start = None
    if last is None:
        return None
    try:
        return json.loads(last.replace("\n", ""))
    except json.JSONDecodeError:
        return None


def grid_score(record: dict[str, Any], output: str) -> dict[str, Any]:
    """{"size", "cells", "correct", "solved", "answered"} for one model output."""
    solution = record["solution"]
    columns = solution["header"]
    assert columns[0] == "House"
    table = {
        f"House {i + 1}": {columns[j]: row[j] for j in range(1, len(columns))}
        for i, row in enumerate(solution["rows"])
    }
    cells = sum(len(columns) - 1 for _ in solution["rows"])
    pred = last_complete_json(output)
    if pred is None or pred.get("solution") is None:
        return {
            "size": record["size"],
            "cells": cells,
            "correct": 0,
            "solved": False,
            "answered": False,
        }
    ptable = pred["solution"]
    correct = 0
    for house, cols in table.items():
        for col, truth in cols.items():
            if house in ptable and col in ptable[house]:
                value = ptable[house][col]
                if value is None or len(value) == 0:
                    continue
                if isinstance(value, list):
                    value = value[0]
                if not isinstance(value, str):
                    raise ValueError(f"unknown cell type {type(value)}")
                if truth.lower().strip() == value.lower().strip():
                    correct += 1
    return {
        "size": record["size"],
        "cells": cells,
        "correct": correct,
        "solved": correct == cells,
        "answered": True,
    }


def mc_score(record: dict[str, Any], output: str) -> bool:
    """True when the output's JSON ``answer`` is the letter of the record's answer."""
    pred = last_complete_json(output)
    if pred is None or "answer" not in pred:
        return False
    label = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[record["choices"].index(record["answer"])]
    return pred["answer"] == label


def answer_output(record: dict[str, Any], *, reasoning: str = "...") -> str:
    """What a model that solved the puzzle outputs in ZeroEval's grid format."""
    header, rows = record["solution"]["header"], record["solution"]["rows"]
    sol = {f"House {row[0]}": {header[j]: row[j] for j in range(1, len(header))} for row in rows}
    return "Here is my answer.\n" + json.dumps({"reasoning": reasoning, "solution": sol}, indent=4)
