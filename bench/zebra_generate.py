"""CPU seconds per rated, certified zebra puzzle, per size, tier and language.

Each puzzle goes through the whole pipeline: categories, clues, the tier's construction
(construct.py: moves between minimal clue sets with the engine in the loop) or, with no
tier, SAT restriction; 5 randomised rating solves and the SAT certificate of uniqueness
and necessity. Targets (issue 22 item 1, median CPU per puzzle, every tier, both
languages): 4x5 <= 0.3 s, 5x5 <= 1 s, 6x6 <= 5 s, 8x8 <= 60 s.

CPU time (``time.process_time``), not wall time: the build machine is shared, and the
wall clock measures the neighbours. A failure is a GenerationFailed (the attempt budget,
which counts attempts and moves, ran out); a refused tier (tiers.unreachable) is shown
as "refused" with no timing.

    .venv/bin/python bench/zebra_generate.py [--n 10] [--sizes 4x5,5x5,6x6,8x8]
        [--tiers any,easy,medium,hard,expert] [--langs en,pl] [--progress]
        [--first 0] [--jsonl rows.jsonl]
    .venv/bin/python bench/zebra_generate.py --table rows.jsonl,more.jsonl   # markdown

``--jsonl`` appends one record per row (commit, load average before and after, each
seed's CPU s, attempts, clues and g in seed order, failures, the verdict) and ``--table``
prints recorded rows as docs/zebra.md's table. ``--first`` starts a row at seed index
``first`` (the same seeds as a longer run from 0), so the seeds of a slow row can run in
separate processes; ``--table`` joins the records of one row by seed index (when a seed
was recorded twice, the first record wins) and takes median, p90 and max over the
joined seeds.
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
from puzzleforge.zebra.generator import generate_puzzle
from puzzleforge.zebra.tiers import unreachable

TARGETS = {"4x5": 0.3, "5x5": 1.0, "6x6": 5.0, "8x8": 60.0}


def _one_seed(K: int, k: int, tier: str | None, lang: str, i: int, seed0: int) -> dict:
    """One puzzle, run in a CPU-capped worker: its CPU seconds, clue count and score."""
    rng = make_rng(derive_seed(seed0, "zebra-bench", K * 100 + k * 1000 + i))
    start = time.process_time()
    try:
        p = generate_puzzle(rng, K=K, k=k, lang=lang, difficulty=tier)
    except GenerationFailed as e:
        return {"ok": False, "cpu": time.process_time() - start, "why": str(e)}
    cpu = time.process_time() - start
    assert p.certificate["unique"] and p.certificate["all_clues_necessary"]
    assert tier is None or p.rating["tier"] == tier
    return {
        "ok": True,
        "cpu": cpu,
        "clues": len(p.clues),
        "score": p.rating["score"],
        "attempts": p.certificate.get("attempts"),
    }


def run_row(
    K: int,
    k: int,
    tier: str | None,
    lang: str,
    n: int,
    seed0: int,
    progress: bool = False,
    cpu_cap: float = 600.0,
    first: int = 0,
) -> dict:
    """``n`` puzzles of one row. Each runs in a forked worker the kernel stops after
    ``cpu_cap`` CPU seconds (core.limits.run_limited), so a row cannot run forever; a
    puzzle stopped there counts as a failure ("capped") with ``cpu_cap`` as its time.
    The cap is the bench's only: generation itself counts attempts, moves and
    conflicts, never seconds."""
    cpu, clues, scores, fails, capped = [], [], [], 0, 0
    seeds: list[dict] = []
    for i in range(first, first + n):
        try:
            r = run_limited(
                _one_seed,
                K,
                k,
                tier,
                lang,
                i,
                seed0,
                limits=Limits(cpu_seconds=cpu_cap),
                what=f"{K}x{k} {tier} {lang} seed {i}",
            )
        except LimitExceeded:
            capped += 1
            r = {"ok": False, "cpu": cpu_cap, "capped": True}
        seeds.append({"seed": i, **{key: r[key] for key in sorted(r)}})
        cpu.append(r["cpu"])
        if not r["ok"]:
            fails += 1
            if progress:
                print(f"  {K}x{k} {tier} {lang} seed {i}: failed, {cpu[-1]:.2f} s", flush=True)
            continue
        if progress:
            # a row prints only when all its seeds are done; at 8x8 on a loaded machine
            # that can take hours, so the seeds done so far are evidence of their own
            print(f"  {K}x{k} {tier} {lang} seed {i}: {cpu[-1]:.2f} s", flush=True)
        clues.append(r["clues"])
        scores.append(r["score"])
    cpu.sort()
    return {
        "n": n,
        "median": statistics.median(cpu),
        "p90": cpu[round(0.9 * (n - 1))],
        "max": cpu[-1],
        "fails": fails,
        "capped": capped,
        "clues": statistics.mean(clues) if clues else float("nan"),
        "score": statistics.median(scores) if scores else float("nan"),
        "seeds": seeds,
    }


def _commit() -> str:
    """The measured commit (short id), for the JSONL records."""
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


def _summary(cpu: list[float]) -> tuple[float, float, float]:
    """Median, p90 (nearest rank, as the printed rows) and max of CPU seconds."""
    cpu = sorted(cpu)
    return statistics.median(cpu), cpu[round(0.9 * (len(cpu) - 1))], cpu[-1]


def _fmt(cpu: float) -> str:
    """CPU seconds for the table: 3 decimals below 1 s (the 4x5 target is 0.3 s), else 2."""
    return f"{cpu:.3f}" if cpu < 1 else f"{cpu:.2f}"


def table(paths: list[str]) -> str:
    """Markdown table of recorded rows (``--jsonl``), one line per size, tier and
    language in the order first recorded; records of one row are joined by seed index
    (the first record of a seed wins), so a row run in pieces (``--first``) is one row."""
    rows: dict[tuple[str, str, str], dict] = {}
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            key = (rec["size"], rec["tier"], rec["lang"])
            row = rows.setdefault(key, {"rec": rec, "seeds": {}, "commits": set()})
            row["commits"].add(rec["commit"])
            for seed in rec.get("seeds", []):
                row["seeds"].setdefault(seed["seed"], seed)
    out = [
        "| size | tier | lang | seeds | median CPU s | p90 | max | failures | "
        "g med | clues | per seed (CPU s, seed order) | target | met |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (size, tier, lang), row in rows.items():
        rec = row["rec"]
        target = TARGETS.get(size)
        head = f"| {size} | {tier} | {lang} |"
        if "refused" in rec:
            why = rec["refused"].split(")")[0] + ")"  # the size clause; the rest is tiers.py's
            out.append(f"{head} - | - | - | - | - | - | - | {why} | - | refused |")
            continue
        seeds = [row["seeds"][i] for i in sorted(row["seeds"])]
        med, p90, top = _summary([s["cpu"] for s in seeds])
        fails = sum(1 for s in seeds if not s["ok"])
        per = ", ".join(
            _fmt(s["cpu"]) + ("" if s["ok"] else " (capped)" if s.get("capped") else " (failed)")
            for s in seeds
        )
        done = [s for s in seeds if s["ok"]]
        g = f"{statistics.median(s['score'] for s in done):.1f}" if done else "-"
        clues = f"{statistics.mean(s['clues'] for s in done):.1f}" if done else "-"
        met = "-" if target is None else ("met" if med <= target and not fails else "NOT met")
        out.append(
            f"{head} {len(seeds)} | {_fmt(med)} | {_fmt(p90)} | {_fmt(top)} | {fails}/{len(seeds)} | "
            f"{g} | {clues} | {per} | {'-' if target is None else f'<= {target:g} s'} | {met} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10, help="puzzles per row")
    ap.add_argument("--sizes", default="4x5,5x5,6x6,8x8")
    ap.add_argument("--tiers", default="any,easy,medium,hard,expert")
    ap.add_argument("--langs", default="en,pl")
    ap.add_argument("--seed", type=int, default=0, help="base seed of the rows")
    ap.add_argument("--progress", action="store_true", help="print each seed's CPU s")
    ap.add_argument(
        "--cpu-cap", type=float, default=600.0, help="CPU seconds a puzzle may take (a failure)"
    )
    ap.add_argument("--first", type=int, default=0, help="index of a row's first seed")
    ap.add_argument("--jsonl", default="", help="append one JSON record per row here")
    ap.add_argument("--table", default="", help="print the rows of these JSONL files")
    args = ap.parse_args()
    if args.table:
        print(table(args.table.split(",")))
        return
    commit = _commit()
    generate_puzzle(make_rng(0), K=3, k=4, lang="en")  # load the category data once
    generate_puzzle(make_rng(0), K=3, k=4, lang="pl")
    print(
        f"commit {commit}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"CPU seconds per puzzle (process time), cap {args.cpu_cap:g} s a puzzle"
    )
    print(
        f"{'size':>5} {'tier':>7} {'lang':>4} {'n':>3} {'cpu med':>8} {'p90':>7} {'max':>7} "
        f"{'fail':>5} {'clues':>6} {'g med':>6}  target (median CPU)"
    )
    for size in args.sizes.split(","):
        K, k = (int(x) for x in size.split("x"))
        for tier_name in args.tiers.split(","):
            tier = None if tier_name == "any" else tier_name
            for lang in args.langs.split(","):
                why = unreachable(K, k, tier)
                rec: dict = {"size": size, "tier": tier_name, "lang": lang, "commit": commit}
                if why:
                    print(f"{size:>5} {tier_name:>7} {lang:>4}  refused: {why}", flush=True)
                    _record(args.jsonl, {**rec, "refused": why})
                    continue
                load0 = os.getloadavg()[0]
                r = run_row(
                    K, k, tier, lang, args.n, args.seed, args.progress, args.cpu_cap, args.first
                )
                target = TARGETS.get(size)
                verdict = (
                    ""
                    if target is None
                    else (f"<= {target} s: {'met' if r['median'] <= target else 'NOT met'}")
                )
                print(
                    f"{size:>5} {tier_name:>7} {lang:>4} {r['n']:>3} {r['median']:8.3f} "
                    f"{r['p90']:7.2f} {r['max']:7.2f} {r['fails']:>2}/{r['n']:<2} "
                    f"{r['clues']:6.1f} {r['score']:6.1f}  {verdict}"
                    + (f" ({r['capped']} over {args.cpu_cap:g} CPU s)" if r["capped"] else ""),
                    flush=True,
                )
                rec.update(
                    load=[round(load0, 1), round(os.getloadavg()[0], 1)],
                    cpu_cap=args.cpu_cap,
                    base_seed=args.seed,
                    seeds=r["seeds"],
                )
                _record(args.jsonl, rec)


def _record(path: str, rec: dict) -> None:
    """Append one row's record to ``path`` (``--jsonl``; nothing when empty)."""
    if path:
        with open(path, "a", encoding="utf-8") as sink:
            sink.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
