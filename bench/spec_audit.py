"""Generate N puzzles per spec and audit each one independently (issue 23, item 5).

Why: the engine emits a spec puzzle only when it proved the answer unique; this bench
checks that claim from outside, on many puzzles: each puzzle is made as ``puzzleforge
spec generate -n N --seed S`` makes it (item i's attempt a uses derive_seed(S, family,
i, a)), then its problem is captured from a config replay and re-checked by
spec/audit.py with ``method="auto"``: brute force (every assignment of Boolean and small
bounded integer constants, evaluated by Z3's simplifier in a fresh context) where the
domain has at most ``--brute-limit`` assignments, a fresh Z3 solver with no work budget
(``--audit-seconds`` wall bound) otherwise.

Prints one row per spec: puzzles generated, failed items, ambiguous (another correct
answer exists: the goal is 0), wrong, undecided, error, how many were brute-forced, and
the CPU seconds of generation and audit (this process and its spec workers: the machine
is shared, so wall time says little). The
first non-pass detail of a spec follows its row.

Usage:
  .venv/bin/python bench/spec_audit.py                       # every corpus spec, 200 each
  .venv/bin/python bench/spec_audit.py 6-partition 46-elevator -n 200
  .venv/bin/python bench/spec_audit.py --dir /path/to/specs --trust 67-coal
  .venv/bin/python bench/spec_audit.py --workers 2 --max-cpu 600
A spec is a stem found in ``--dir`` folders (default: the shared corpus) or a .yaml path.
"""

from __future__ import annotations

import argparse
import resource
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"
STATUSES = ("pass", "ambiguous", "wrong", "undecided", "error")


def _resolve(spec: str, dirs: list[Path]) -> Path:
    p = Path(spec)
    if p.suffix in (".yaml", ".yml") and p.exists():
        return p
    for d in dirs:
        c = d / f"{spec}.yaml"
        if c.exists():
            return c
    raise SystemExit(
        f"spec {spec!r} not found (as a path, or as a stem in {', '.join(map(str, dirs))})"
    )


def run_spec(
    path: str,
    n: int,
    seed: int,
    attempts: int,
    audit_seconds: float,
    brute_limit: int,
    max_cpu: float,
    trust: bool,
) -> dict:
    """Generate and audit one spec's puzzles; never raises (problems end up in the row)."""
    import os

    if trust:
        os.environ["PUZZLEFORGE_SPEC_TRUST"] = "1"
    from puzzleforge.core.cputime import cpu_seconds
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import derive_seed, make_rng
    from puzzleforge.spec.audit import audit_puzzle
    from puzzleforge.spec.family import (
        SafetyNetFailed,
        UndecidedSpec,
        load_spec_family,
        stop_if_undecided,
    )

    row: dict = {
        "spec": Path(path).stem,
        "generated": 0,
        "failed": 0,
        "status": Counter(),
        "brute": 0,
        "gen_cpu": 0.0,
        "audit_cpu": 0.0,
        "reasons": Counter(),
        "note": "",
        "first": "",
    }
    try:
        fam = load_spec_family(path, trust=trust)
    except Exception as exc:  # noqa: BLE001 - a row, not a crash
        row["note"] = f"cannot load: {exc}"
        return row
    params = fam.Params(attempts=1)
    start = cpu_seconds()
    for i in range(n):
        if cpu_seconds() - start > max_cpu:
            row["note"] = f"stopped after {max_cpu:g} CPU-s at item {i}"
            break
        item: Counter = Counter()
        puzzle = None
        t = cpu_seconds()
        try:
            for a in range(attempts):
                try:
                    puzzle = fam.generate(params, make_rng(derive_seed(seed, fam.name, i, a)))
                    break
                except SafetyNetFailed as exc:
                    item.update(exc.reasons)
                    break
                except GenerationFailed as exc:
                    item.update(exc.reasons)
                    stop_if_undecided(item, path, a + 1)
        except UndecidedSpec:
            row["gen_cpu"] += cpu_seconds() - t
            row["reasons"].update(item)
            row["failed"] += 1
            row["note"] = f"stopped at item {i}: {item['uniqueness undecided']} undecided checks"
            break
        row["gen_cpu"] += cpu_seconds() - t
        row["reasons"].update(item)
        if puzzle is None:
            row["failed"] += 1
            continue
        row["generated"] += 1
        t = cpu_seconds()
        outcome = audit_puzzle(fam, puzzle, audit_seconds, method="auto", brute_limit=brute_limit)
        row["audit_cpu"] += cpu_seconds() - t
        row["status"][outcome.status] += 1
        row["brute"] += outcome.method == "brute"
        if outcome.status != "pass" and not row["first"]:
            row["first"] = f"item {i}: {outcome.status}: {outcome.detail[:300]}"
    row["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return row


def _print(row: dict) -> None:
    st = row["status"]
    top = ", ".join(f"{k}: {v}" for k, v in row["reasons"].most_common(3)) or "-"
    print(
        f"| {row['spec']} | {row['generated']} | {row['failed']} | {st.get('ambiguous', 0)} | "
        f"{st.get('wrong', 0)} | {st.get('undecided', 0)} | {st.get('error', 0)} | {row['brute']} | "
        f"{row['gen_cpu']:.1f} | {row['audit_cpu']:.1f} | {row.get('maxrss_mb', 0)} | {top} | {row['note']} |",
        flush=True,
    )
    if row["first"]:
        print(f"|   | {row['first']} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "specs", nargs="*", help="spec stems or .yaml paths (default: every spec of --dir)"
    )
    ap.add_argument("-n", "--count", type=int, default=200, help="puzzles per spec (200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--dir",
        action="append",
        type=Path,
        default=None,
        help="folder of specs (repeatable; default: the shared corpus)",
    )
    ap.add_argument("--attempts", type=int, default=2000, help="attempts per puzzle (2000)")
    ap.add_argument("--audit-seconds", type=float, default=60.0)
    ap.add_argument(
        "--brute-limit",
        type=int,
        default=4096,
        help="largest number of assignments brute-forced (else a fresh solver)",
    )
    ap.add_argument("--max-cpu", type=float, default=1800.0, help="CPU seconds per spec")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--trust", action="store_true", help="allow .py operator files")
    args = ap.parse_args()
    dirs = args.dir or [CORPUS]
    if args.specs:
        paths = [_resolve(s, dirs) for s in args.specs]
    else:
        paths = sorted(p for d in dirs for p in d.glob("*.yaml"))
    print(
        f"# {len(paths)} spec(s), n={args.count}, seed={args.seed}, audit {args.audit_seconds:g} s, "
        f"brute force up to {args.brute_limit} assignments"
    )
    print(
        "| spec | generated | failed | ambiguous | wrong | undecided | error | brute | gen CPU-s "
        "| audit CPU-s | max RSS MB | top rejections | note |"
    )
    print(
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        flush=True,
    )
    jobs = [
        (
            str(p),
            args.count,
            args.seed,
            args.attempts,
            args.audit_seconds,
            args.brute_limit,
            args.max_cpu,
            args.trust,
        )
        for p in paths
    ]
    totals: Counter = Counter()
    if args.workers <= 1:
        rows = (run_spec(*j) for j in jobs)
    else:
        pool = ProcessPoolExecutor(args.workers)
        rows = pool.map(run_spec, *zip(*jobs))
    for row in rows:
        _print(row)
        totals["generated"] += row["generated"]
        totals.update(row["status"])
    print(
        f"# total: {totals['generated']} generated, "
        + ", ".join(f"{totals.get(k, 0)} {k}" for k in STATUSES)
    )
    sys.exit(1 if any(totals.get(k, 0) for k in STATUSES if k != "pass") else 0)


if __name__ == "__main__":
    main()
