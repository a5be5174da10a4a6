"""Benchmark: answers scored per second by ``score_answer`` on a mix of families and wrappings.

    .venv/bin/python bench/score_throughput.py [--answers 100000] [--per-family 4]

Builds ``--per-family`` records of every registered family (seeds 1..N), then scores
``--answers`` model outputs cycling over the records and six shapes: the bare answer, a
code fence, ``<answer>`` tags, reasoning then "Final answer:", a near miss (wrong), and
an unmarked output with reasoning first. Prints answers/s overall and per family (CPU
seconds of this process), and checks the totals: every right shape must score 1.0 and
every near miss below 1.0 (a scorer that is fast because it is wrong fails loudly).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

from puzzleforge.api import generate
from puzzleforge.core.registry import family_names
from puzzleforge.dataset import score_answer


def _near_miss(answer: str) -> str:
    for k, ch in enumerate(answer):
        if ch.isdigit():
            return answer[:k] + str((int(ch) + 1) % 10) + answer[k + 1 :]
    lines = answer.splitlines()
    if len(lines) >= 2:
        return "\n".join([lines[1], lines[0], *lines[2:]])
    return answer + "x"


SHAPES = {
    "bare": lambda a: a,
    "fence": lambda a: f"```\n{a}\n```",
    "tags": lambda a: f"Let me think.\n<answer>\n{a}\n</answer>",
    "final": lambda a: f"Reasoning step 1.\nReasoning step 2.\n\nFinal answer:\n{a}",
    "unmarked": lambda a: f"I worked through the clues in order.\n\n{a}",
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--answers", type=int, default=100_000)
    ap.add_argument("--per-family", type=int, default=4)
    args = ap.parse_args()
    records = [
        generate(name, seed=s).to_record()
        for name in family_names()
        for s in range(1, args.per_family + 1)
    ]
    jobs = []
    for i in range(args.answers):
        record = records[i % len(records)]
        shape = (list(SHAPES) + ["near-miss"])[(i // len(records)) % (len(SHAPES) + 1)]
        text = (
            _near_miss(record["answer"])
            if shape == "near-miss"
            else SHAPES[shape](record["answer"])
        )
        jobs.append((record, shape, text))
    per_family: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    wrong = 0
    cpu0 = time.process_time()
    for record, shape, text in jobs:
        t0 = time.process_time()
        score = score_answer(text, record)
        spent = time.process_time() - t0
        slot = per_family[record["family"]]
        slot[0] += 1
        slot[1] += spent
        if (shape == "near-miss") != (score < 1.0):
            wrong += 1
    cpu = time.process_time() - cpu0
    print(
        f"{len(jobs)} answers over {len(records)} records of {len(family_names())} families: "
        f"{cpu:.1f} s CPU, {len(jobs) / cpu:,.0f} answers/s"
    )
    for family, (n, spent) in sorted(per_family.items()):
        print(f"  {family:12s} {n:7d} answers  {n / spent if spent else 0:10,.0f} answers/s")
    print(f"misjudged: {wrong} (must be 0)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
