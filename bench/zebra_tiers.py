"""Which difficulty tiers each grid size reaches: K x k from 3x3 to 8x8, every tier.

For each (K, k, tier, language) it generates ``--n`` seeds (``--n-big`` at sizes of
``--big`` cells or more, whose attempts take seconds to minutes) with the tier's
construction (construct.py) and the same budget as the CLI (ZebraParams.max_attempts
attempts, each bounded by moves and solver conflicts, never seconds), and prints how many
were generated, failed (GenerationFailed) or refused up front (tiers.unreachable), the
median and max CPU seconds and the most attempts used. So the table of refused tiers
(tiers.py) rests on a measurement. Refused rows are generated anyway with
``--ignore-refusals`` (to re-check them). ``--jsonl`` appends one record per row (for
docs/zebra.md's table).

    .venv/bin/python bench/zebra_tiers.py [--n 3] [--n-big 1] [--big 35]
        [--sizes 7x5,8x3 | --K 3,4,5,6,7,8 --k 3,4,5,6,7,8]
        [--tiers easy,medium,hard,expert] [--langs en,pl] [--ignore-refusals]
        [--jsonl out.jsonl]
    .venv/bin/python bench/zebra_tiers.py --table a.jsonl,b.jsonl   # markdown table

``--table`` prints the recorded rows as docs/zebra.md's table (one row per size and
language; per tier: generated/seeds, median CPU s (max CPU s) [most attempts]); when a
row was recorded twice, the first record wins.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.zebra.family import ZebraParams
from puzzleforge.zebra.generator import generate_puzzle
from puzzleforge.zebra.tiers import unreachable


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            check=False,
        )
        return out.stdout.strip() or "?"
    except OSError:
        return "?"


def run_row(K: int, k: int, tier: str, lang: str, n: int, max_attempts: int) -> dict:
    """Generate ``n`` seeds of one row; CPU seconds per seed, failures with their reason."""
    ok, cpu, attempts, failures = 0, [], [], []
    for i in range(n):
        rng = make_rng(derive_seed(0, "zebra-tiers", K * 100 + k * 10 + i))
        start = time.process_time()
        try:
            p = generate_puzzle(
                rng, K=K, k=k, lang=lang, difficulty=tier, max_attempts=max_attempts
            )
            ok += 1
            attempts.append(p.certificate["attempts"])
        except GenerationFailed as e:
            attempts.append(max_attempts)
            failures.append({"seed": i, "why": str(e)})
        cpu.append(time.process_time() - start)
    return {
        "n": n,
        "generated": ok,
        "failed": n - ok,
        "cpu_median": round(statistics.median(cpu), 3),
        "cpu_max": round(max(cpu), 3),
        "cpu": [round(c, 3) for c in cpu],
        "attempts_max": max(attempts),
        "failures": failures,
    }


def table(paths: list[str]) -> str:
    """Markdown table of recorded rows: size x language, one column per tier."""
    rows: dict[tuple[int, int, str, str], dict] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            rows.setdefault((rec["K"], rec["k"], rec["lang"], rec["tier"]), rec)
    tiers = ["easy", "medium", "hard", "expert"]
    out = ["| K x k | lang | " + " | ".join(tiers) + " |", "|---|---|" + "---|" * len(tiers)]
    for K, k, lang in sorted({key[:3] for key in rows}):
        cells = []
        for tier in tiers:
            rec = rows.get((K, k, lang, tier))
            if rec is None:
                cells.append("not run")
            elif "refused" in rec:
                cells.append("refused")
            else:
                cells.append(
                    f"{rec['generated']}/{rec['n']} {rec['cpu_median']:.2f} ({rec['cpu_max']:.2f}) "
                    f"[{rec['attempts_max']}]"
                )
        out.append(f"| {K}x{k} | {lang} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3, help="seeds per row")
    ap.add_argument("--n-big", type=int, default=1, help="seeds per row at big sizes")
    ap.add_argument("--big", type=int, default=35, help="K*k from which a size is big")
    ap.add_argument("--sizes", default="", help="KxK list; overrides --K/--k")
    ap.add_argument("--K", default="3,4,5,6,7,8")
    ap.add_argument("--k", default="3,4,5,6,7,8")
    ap.add_argument("--tiers", default="easy,medium,hard,expert")
    ap.add_argument("--langs", default="en,pl")
    ap.add_argument("--max-attempts", type=int, default=ZebraParams().max_attempts)
    ap.add_argument("--ignore-refusals", action="store_true")
    ap.add_argument("--jsonl", default="", help="append one JSON record per row here")
    ap.add_argument("--table", default="", help="print the rows of these JSONL files")
    args = ap.parse_args()
    if args.table:
        print(table(args.table.split(",")))
        return
    if args.sizes:
        sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    else:
        sizes = [(K, k) for K in map(int, args.K.split(",")) for k in map(int, args.k.split(","))]
    commit = _commit()
    print(
        f"commit {commit}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"CPU seconds per seed (process time); max_attempts {args.max_attempts}",
        flush=True,
    )
    print(
        f"{'K':>2} {'k':>2} {'tier':>7} {'lang':>4} {'gen':>5} {'fail':>4} "
        f"{'cpu med':>8} {'cpu max':>8} {'attempts max':>12}",
        flush=True,
    )
    for K, k in sizes:
        n = args.n_big if K * k >= args.big else args.n
        for tier in args.tiers.split(","):
            for lang in args.langs.split(","):
                why = unreachable(K, k, tier)
                rec: dict = {"K": K, "k": k, "tier": tier, "lang": lang, "commit": commit}
                if why and not args.ignore_refusals:
                    print(f"{K:>2} {k:>2} {tier:>7} {lang:>4} refused: {why}", flush=True)
                    rec["refused"] = why
                else:
                    r = run_row(K, k, tier, lang, n, args.max_attempts)
                    rec.update(r)
                    print(
                        f"{K:>2} {k:>2} {tier:>7} {lang:>4} {r['generated']:>2}/{n:<2} "
                        f"{r['failed']:>4} {r['cpu_median']:8.2f} {r['cpu_max']:8.2f} "
                        f"{r['attempts_max']:>12}",
                        flush=True,
                    )
                if args.jsonl:
                    with open(args.jsonl, "a", encoding="utf-8") as sink:
                        sink.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
