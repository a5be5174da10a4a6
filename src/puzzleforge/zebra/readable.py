"""Explanations a person reads: the engine's steps regrouped (issue 22, item 4).

Why: the engine records every write it makes, so a 4x5 solution is about 110 steps of
which two thirds are grid bookkeeping (rule 1 crossing out a row after a ●, rule 2
placing the last ● of a line, rule 3 copying exclusions between paired objects), and a
guess said only "after 27 deductions the grid is contradictory". Here:

* bookkeeping steps are folded into the step that caused them (the last clue, guess,
  rule 4 or rule 5 step before them): its ``own`` marks are what it deduced, ``follow``
  the marks the grid rules added, ``marks`` both (so replaying ``marks`` still rebuilds
  the grid exactly);
* consecutive rule-4 (or rule-5) steps, one sweep of that rule, become one step;
* a guess carries its ``refutation``: only the steps the contradiction depends on
  (traced back from the clashing marks through each step's ``used`` marks), with the
  same folding, ending with the deduction that failed.

The raw steps stay available (``explain(..., raw=True)``); certification never reads
these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["BOOKKEEPING", "readable_steps", "refutation"]

#: Rules that only keep the grid consistent after a mark (shown inside their cause).
BOOKKEEPING = frozenset({"rule1", "rule2", "rule3"})
#: Rules whose consecutive steps are one sweep.
SWEEPS = frozenset({"rule4", "rule5"})


def _key(mark: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    return (mark["mark"], tuple(mark["cell"]))


def _fold(
    steps: Sequence[dict[str, Any]], root: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Fold bookkeeping into its cause and merge sweeps. ``root`` (the assumption of a
    guess) takes bookkeeping that comes before any cause."""
    out: list[dict[str, Any]] = []
    for s in steps:
        marks = list(s["marks"])
        if s["rule"] in BOOKKEEPING:
            target = out[-1] if out else root
            if target is not None:
                target["follow"].extend(marks)
                target["marks"].extend(marks)
                continue
        if s["rule"] in SWEEPS and out and out[-1]["rule"] == s["rule"]:
            prev = out[-1]
            prev["own"].extend(marks)
            prev["marks"].extend(marks)
            prev["used"].extend(u for u in s.get("used", []) if u not in prev["used"])
            continue
        # a cause (or bookkeeping with nothing before it, shown as itself)
        step = {k: v for k, v in s.items() if k not in ("marks", "used")}
        step.update(used=list(s.get("used", [])), own=marks, follow=[], marks=list(marks))
        out.append(step)
    return out


def refutation(chain: Sequence[dict[str, Any]], conflict: dict[str, Any] | None) -> dict[str, Any]:
    """The shortest story of why an assumption fails: the chain steps the contradiction
    depends on (in order), folded, plus the failing deduction and the clashing marks."""
    producer: dict[tuple[str, tuple[int, ...]], int] = {}
    for n, s in enumerate(chain):
        for m in s["marks"]:
            producer.setdefault(_key(m), n)
    conflict = dict(conflict or {})
    need = [_key(m) for m in conflict.get("cells", [])]
    need += [_key(m) for m in conflict.get("used", [])]
    keep: set[int] = set()
    last = conflict.get("step")
    if last is not None and 0 <= last < len(chain):
        keep.add(last)
        need += [_key(m) for m in chain[last].get("used", [])]
    if not conflict:
        # nothing known about the clash: the whole chain is the story
        keep = set(range(len(chain)))
    while need:
        made_by = producer.get(need.pop())
        if made_by is None or made_by in keep:
            continue
        keep.add(made_by)
        need += [_key(m) for m in chain[made_by].get("used", [])]
    root: dict[str, list[Any]] = {"follow": [], "marks": []}
    steps = _fold([chain[n] for n in sorted(keep)], root)
    return {
        "steps": steps,
        "assumption_follow": root["follow"],
        "failed": {"rule": conflict.get("rule"), "clues": conflict.get("clues", [])},
        "clash": conflict.get("cells", []),
    }


def readable_steps(raw: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The raw engine steps regrouped for a reader (see the module docstring)."""
    out = _fold(raw)
    for step in out:
        if step["rule"] == "guess":
            step["refutation"] = refutation(step.get("chain") or [], step.get("conflict"))
    return out
