"""Golden records: a few fixed seeds of every registered family, pinned by value.

Why: every other test takes its expected puzzles from the engine itself, so a generator
that silently starts giving different puzzles for the same seed (a changed draw order, a
new default, a dependency's new behaviour) would pass them all. Here each (family, seed)
is pinned to the record's ``id``, the SHA-256 of its question text and its answer; any
drift fails tests/golden/test_golden.py by name. When a change of puzzles is intended,
re-record on purpose and review the diff of families.json:

    make golden          # = python tests/golden/golden.py --record

``python tests/golden/golden.py`` alone compares and lists the drifted entries. Spec files
are not registered families (they are families by path) and are not covered here.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).resolve().parent / "families.json"
SEEDS = (0, 1, 2)


def golden_entry(family: str, seed: int) -> dict[str, Any]:
    """What is pinned for one (family, seed): default parameters, the public API."""
    import puzzleforge

    puzzle = puzzleforge.generate(family, seed=seed)
    return {"seed": seed, "id": puzzle.id,
            "question_sha256": hashlib.sha256(puzzle.question.encode("utf-8")).hexdigest(),
            "answer": puzzle.answer}


def compute(families: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    import puzzleforge

    names = families if families is not None else puzzleforge.families()
    return {name: [golden_entry(name, seed) for seed in SEEDS] for name in names}


def load() -> dict[str, list[dict[str, Any]]]:
    return json.loads(RECORDS.read_text(encoding="utf-8"))["families"]


def write(records: dict[str, list[dict[str, Any]]]) -> None:
    text = json.dumps({"seeds": list(SEEDS), "families": records}, indent=1,
                      ensure_ascii=False, sort_keys=True)
    RECORDS.write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--record", action="store_true",
                        help="rewrite families.json from the current code (review the diff)")
    args = parser.parse_args(argv)
    now = compute()
    if args.record:
        write(now)
        print(f"recorded {sum(map(len, now.values()))} golden records of {len(now)} families "
              f"in {RECORDS}")
        return 0
    pinned = load()
    drifted = [f"{name} seed {a['seed']}" for name in sorted(set(now) | set(pinned))
               for a, b in zip(now.get(name, []), pinned.get(name, [{}] * len(SEEDS)))
               if a != b]
    drifted += [f"{name}: not recorded" for name in now if name not in pinned]
    drifted += [f"{name}: recorded but no longer registered" for name in pinned
                if name not in now]
    for line in drifted:
        print(line)
    print(f"{len(drifted)} drifted" if drifted else "all golden records match")
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())
