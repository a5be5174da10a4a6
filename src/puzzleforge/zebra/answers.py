"""Reading and scoring answers: JSON (ZebraLogic ``{header, rows}`` or
``{"solution": {...}}``), markdown tables, or "A ~ B ~ C" lines.

Why tolerant: language models answer in many shapes; the score must reflect what is
right, not how it was formatted. Partial credit is the fraction of correct cells: for
each entity (row key = its category-0 object) and each other category, is the object
given for it the right one? Malformed input scores 0.0 and never raises.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from .model import ZebraPuzzle

__all__ = ["score_answer", "parse_rows", "normalize"]


def normalize(text: str) -> str:
    """Case-folded name without markup, quotes and surrounding punctuation."""
    text = unicodedata.normalize("NFC", str(text))
    text = re.sub(r"[*_`\"“”„]", "", text)
    text = text.strip().strip(".,;:!?'()[]{}").strip()
    return re.sub(r"\s+", " ", text).casefold()


def _fold(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    ).replace("ł", "l")


def _rows_from_json(data: Any) -> list[list[str]]:
    if isinstance(data, dict):
        if "solution" in data and "rows" not in data:
            return _rows_from_json(data["solution"])
        if "rows" in data and isinstance(data["rows"], list):
            return [
                [str(x) for x in (r.values() if isinstance(r, dict) else r)]
                for r in data["rows"]
                if isinstance(r, (list, tuple, dict))
            ]
        rows = []
        for key, value in data.items():
            if isinstance(value, dict):
                rows.append([str(v) for v in value.values()] + [str(key)])
            elif isinstance(value, (list, tuple)):
                rows.append([str(key)] + [str(v) for v in value])
            else:
                rows.append([str(key), str(value)])
        return rows
    if isinstance(data, list):
        return [
            [str(x) for x in (r.values() if isinstance(r, dict) else r)]
            for r in data
            if isinstance(r, (list, tuple, dict))
        ]
    return []


def parse_rows(answer: str) -> list[list[str]]:
    """Rows of names from any supported answer shape (empty list when nothing fits)."""
    text = str(answer or "").strip()
    if not text:
        return []
    fence = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    candidates = [fence.group(1)] if fence else []
    candidates.append(text)
    brace = re.search(r"[\[{].*[\]}]", text, re.S)
    if brace:
        candidates.append(brace.group(0))
    for cand in candidates:
        try:
            data = json.loads(cand)
        except (ValueError, TypeError):
            continue
        rows = _rows_from_json(data)
        if rows:
            return rows
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if "|" in line:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) or not c for c in cells):
                continue
            rows.append(cells)
        elif "~" in line:
            rows.append([c.strip() for c in line.split("~")])
    return rows


def _lookup(p: ZebraPuzzle) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    exact: dict[str, tuple[int, int]] = {}
    folded: dict[str, tuple[int, int]] = {}
    for c, cat in enumerate(p.categories):
        for i, name in enumerate(cat.items):
            exact[normalize(name)] = (c, i)
            folded[_fold(normalize(name))] = (c, i)
            if cat.source == "house":
                # ZebraLogic answers key rows by "House 2" (the header names "House")
                exact[f"house {name}"] = (c, i)
                folded[f"house {name}"] = (c, i)
    return exact, folded


def _mc_letter(p: ZebraPuzzle, text: str) -> str | None:
    """The choice picked by letter: "### Answer: (C) ...", {"answer": "C"}, "(C)", "C"."""
    q = p.question
    n = len(q.get("choices") or [])
    m = re.search(r"answer\W{0,6}\(?([A-Z])\)?(?![a-z])", text, re.I) or re.fullmatch(
        r"\s*\(?([A-Z])\)?[.\s]*", text
    )
    if m and 0 <= ord(m.group(1).upper()) - 65 < n:
        return q["choices"][ord(m.group(1).upper()) - 65]
    return None


def _find(cell: str, exact, folded) -> tuple[int, int] | None:
    key = normalize(cell)
    if key in exact:
        return exact[key]
    return folded.get(_fold(key))


def score_answer(p: ZebraPuzzle, answer: str) -> float:
    """1.0 for a fully right answer, the fraction of right cells otherwise."""
    try:
        return _score(p, answer)
    except Exception:  # noqa: BLE001 - a malformed answer scores 0, never raises
        return 0.0


def _score(p: ZebraPuzzle, answer: str) -> float:
    exact, folded = _lookup(p)
    q = p.question or {"kind": "grid"}
    if q.get("kind") in ("cell", "mc"):
        c0, i0 = int(q["obj"][0]), int(q["obj"][1])
        e = p.solution[c0].index(i0)
        c = int(q["cat"])
        truth = (c, p.solution[c][e])
        text = str(answer or "")
        if q.get("kind") == "mc":
            picked = _mc_letter(p, text)
            if picked is not None:
                return 1.0 if _find(picked, exact, folded) == truth else 0.0
        found = _find(text, exact, folded)
        if found is not None:
            return 1.0 if found == truth else 0.0
        names = {
            (cc, i)
            for (cc, i) in exact.values()
            if cc == c
            and re.search(
                r"(?<!\w)" + re.escape(p.categories[cc].items[i].casefold()) + r"(?!\w)",
                text.casefold(),
            )
        }
        return 1.0 if names == {truth} else 0.0
    rows = parse_rows(answer)
    if not rows:
        return 0.0
    K, k = p.K, p.k
    given: dict[int, dict[int, int]] = {}
    for row in rows:
        objs = [o for o in (_find(cell, exact, folded) for cell in row) if o is not None]
        keys = [o for o in objs if o[0] == 0]
        if len(keys) != 1:
            continue
        e = p.solution[0].index(keys[0][1])
        slot = given.setdefault(e, {})
        for c, i in objs:
            if c != 0 and c not in slot:
                slot[c] = i
    right = sum(1 for e, slot in given.items() for c, i in slot.items() if p.solution[c][e] == i)
    return right / (k * (K - 1))
