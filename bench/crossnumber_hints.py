"""Cross-number hints played to the end: how many of each kind, CPU seconds per hint.

Usage: .venv/bin/python bench/crossnumber_hints.py [FILE_OR_FOLDER ...]
Default: the bundled puzzles. Each puzzle with one solution is filled in hint by hint
(``crossnumber.hints.next_hint``, as the web page's Hint button does) from an empty grid;
printed: hints by method (clue, propagation, case split, search) and the process CPU time
per hint (the steadier figure on a shared machine). Puzzles without a unique solution are
listed as skipped.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from puzzleforge.crossnumber.api import bundled_dir, list_puzzles, load_puzzle  # noqa: E402
from puzzleforge.crossnumber.hints import next_hint  # noqa: E402
from puzzleforge.crossnumber.solver import solve  # noqa: E402

METHODS = ("clue", "propagation", "case split", "search")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(bundled_dir())])
    args = ap.parse_args()
    print(
        f"{'puzzle':18s} {'hints':>5s} "
        + " ".join(f"{m:>11s}" for m in METHODS)
        + f" {'cpu s/hint':>10s}"
    )
    for path in [f for p in args.paths for f in list_puzzles(p)]:
        model = load_puzzle(path)
        result = solve(model, limit=2, log_steps=False)
        if not result.unique:
            print(f"{path.stem:18s} skipped: {result.count} solution(s) found")
            continue
        solution = result.solutions[0]
        filled: dict[tuple[int, int], str] = {}
        methods: Counter[str] = Counter()
        start = time.process_time()
        while (hint := next_hint(model, filled, solution)) is not None:
            filled[hint.cell] = hint.value
            methods[hint.method] += 1
        seconds = time.process_time() - start
        count = sum(methods.values())
        print(
            f"{path.stem:18s} {count:5d} "
            + " ".join(f"{methods[m]:11d}" for m in METHODS)
            + f" {seconds / max(count, 1):10.3f}"
        )


if __name__ == "__main__":
    main()
