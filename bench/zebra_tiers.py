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
language; per tier: generated/seeds, median CPU s (max CPU s) [most attempts], seeds
stopped at the CPU cap, and "→ refused" when the current rule refuses a measured row);
when a row was recorded twice, the first record wins.
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
from puzzleforge.core.limits import LimitExceeded, Limits, run_limited
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


def _one_seed(K: int, k: int, tier: str, lang: str, i: int, max_attempts: int) -> dict:
    """One seed of a row, run in a CPU-capped worker: its CPU seconds and attempts."""
    rng = make_rng(derive_seed(0, "zebra-tiers", K * 100 + k * 10 + i))
    start = time.process_time()
    try:
        p = generate_puzzle(rng, K=K, k=k, lang=lang, difficulty=tier, max_attempts=max_attempts)
        out = {"ok": True, "attempts": p.certificate["attempts"]}
    except GenerationFailed as e:
        out = {"ok": False, "attempts": max_attempts, "why": str(e)}
    out["cpu"] = time.process_time() - start
    return out


def run_row(
    K: int, k: int, tier: str, lang: str, n: int, max_attempts: int, cpu_cap: float
) -> dict:
    """Generate ``n`` seeds of one row; CPU seconds per seed, failures with their reason.

    Each seed runs in a forked worker stopped by the kernel after ``cpu_cap`` CPU
    seconds (core.limits.run_limited), so one row cannot hold the sweep forever; a seed
    stopped there counts as not generated ("over the cap"), with ``cpu_cap`` as its
    time. The cap is the bench's, not the generator's: generation itself counts
    attempts, moves and conflicts, never seconds."""
    ok, cpu, attempts, failures, capped = 0, [], [], [], 0
    for i in range(n):
        try:
            r = run_limited(
                _one_seed,
                K,
                k,
                tier,
                lang,
                i,
                max_attempts,
                limits=Limits(cpu_seconds=cpu_cap),
                what=f"{K}x{k} {tier} {lang} seed {i}",
            )
        except LimitExceeded:
            capped += 1
            r = {"ok": False, "attempts": None, "cpu": cpu_cap, "why": f"over {cpu_cap:g} CPU s"}
        if r["ok"]:
            ok += 1
        else:
            failures.append({"seed": i, "why": r["why"]})
        if r["attempts"] is not None:
            attempts.append(r["attempts"])
        cpu.append(r["cpu"])
    return {
        "n": n,
        "generated": ok,
        "failed": n - ok,
        "capped": capped,
        "cpu_cap": cpu_cap,
        "cpu_median": round(statistics.median(cpu), 3),
        "cpu_max": round(max(cpu), 3),
        "cpu": [round(c, 3) for c in cpu],
        "attempts_max": max(attempts) if attempts else 0,
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
                cells.append("refused" if unreachable(K, k, tier) else "not run")
            elif "refused" in rec:
                cells.append("refused")
            else:
                cell = (
                    f"{rec['generated']}/{rec['n']} {rec['cpu_median']:.2f} ({rec['cpu_max']:.2f}) "
                    f"[{rec['attempts_max']}]"
                )
                if rec.get("capped"):
                    cell += f", {rec['capped']} over {rec['cpu_cap']:g} s"
                if unreachable(K, k, tier):
                    cell += " → refused"  # measured, and refused by the current rule
                cells.append(cell)
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
    ap.add_argument(
        "--cpu-cap",
        type=float,
        default=240.0,
        help="CPU seconds per seed before it counts as not generated",
    )
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
        f"CPU seconds per seed (process time); max_attempts {args.max_attempts}; "
        f"cap {args.cpu_cap:g} CPU s a seed",
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
                    r = run_row(K, k, tier, lang, n, args.max_attempts, args.cpu_cap)
                    rec.update(r)
                    print(
                        f"{K:>2} {k:>2} {tier:>7} {lang:>4} {r['generated']:>2}/{n:<2} "
                        f"{r['failed']:>4} {r['cpu_median']:8.2f} {r['cpu_max']:8.2f} "
                        f"{r['attempts_max']:>12}"
                        + (f"  {r['capped']} over the cap" if r["capped"] else ""),
                        flush=True,
                    )
                if args.jsonl:
                    with open(args.jsonl, "a", encoding="utf-8") as sink:
                        sink.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
