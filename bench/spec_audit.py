"""Generate N puzzles per spec and audit each one independently (issue 23, item 5).

Why: the engine emits a spec puzzle only when it proved the answer unique; this bench
checks that claim from outside, on many puzzles: item i's attempt a is one
``generate`` call with derive_seed(S, family, i, a) (the engine's checks are those of
``spec generate``, whose family draws its attempts' seeds from one item seed instead, so
the puzzles themselves differ), then its problem is captured from a config replay and
re-checked by
spec/audit.py with ``method="auto"``: brute force (every assignment of Boolean and small
bounded integer constants, evaluated by Z3's simplifier in a fresh context) where the
domain has at most ``--brute-limit`` assignments, otherwise fresh Z3 solvers with none of
the attempt's budget, bounded by ``--audit-seconds`` of the solving thread's CPU time (a
wall-clock backstop only against a stuck process; nonlinear real problems: Z3's nlsat
tactic and the default solver in rounds of rising shares; spec/audit.py ``audit_problem``).
Polynomial equation systems over Real constants are first decided by SymPy's exact
Groebner basis and real roots (spec/auditalgebra.py), with half of those seconds.

Prints one row per spec: puzzles generated, failed items, ambiguous (another correct
answer exists: the goal is 0), wrong, undecided, error, how many were brute-forced and how
many decided by the algebraic audit, and
the CPU seconds of generation and audit (this process and its spec workers: the machine
is shared, so wall time says little). The first non-pass detail of a spec follows its row.

The sweep is long (hours of CPU for 200 x 46 specs on a shared machine), so it runs in
pieces: every item's outcome is appended to ``--out DIR/<spec>.jsonl`` as soon as it is
known, and a rerun with the same ``--out``, ``-n``, ``--seed`` skips the items already
there (items are independent: item i depends only on the seed, the spec and i). Work is
cut into chunks of ``--chunk`` items scheduled round by round over all specs (the first
chunk of every spec, then the second...), so a sweep stopped early still covers every
spec. A spec whose generation stops on undecided checks (``UndecidedSpec``: proof or
nothing gives no puzzle) is marked stopped and its other chunks are skipped.

Usage:
  .venv/bin/python bench/spec_audit.py --out /tmp/audit -j 2        # every corpus spec, 200 each
  .venv/bin/python bench/spec_audit.py --specs 6-partition,46-elevator -n 200 --out /tmp/audit
  .venv/bin/python bench/spec_audit.py --dir /path/to/specs --trust --specs 67-coal --out /tmp/a
  .venv/bin/python bench/spec_audit.py --out /tmp/audit --report    # the table of what is there
A spec is a stem found in ``--dir`` folders (default: the shared corpus) or a .yaml path.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
if not SHARED.exists():
    SHARED = Path("/work/shared")
CORPUS = SHARED / "corpus" / "puzzleclone"
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


_FAMILIES: dict[str, Any] = {}


def _family(path: str, trust: bool) -> Any:
    """One loaded family per spec and worker process (loading and a sandbox worker's start
    cost ~1 s; every chunk of a spec reuses them)."""
    if path not in _FAMILIES:
        from puzzleforge.spec.family import load_spec_family

        _FAMILIES[path] = load_spec_family(path, trust=trust)
    return _FAMILIES[path]


def run_items(
    path: str,
    items: list[int],
    seed: int,
    attempts: int,
    audit_seconds: float,
    brute_limit: int,
    trust: bool,
    stop_marker: str,
) -> list[dict]:
    """Generate and audit items ``items`` of one spec; never raises (problems are results).

    One dict per item: ``status`` (an audit status, ``failed`` when no attempt gave a
    puzzle, ``stopped`` on UndecidedSpec, ``skipped`` when the spec was stopped already,
    ``load-error``), ``method``, ``gen_cpu``, ``audit_cpu``, ``reasons``, ``detail``.
    """
    import os

    if trust:
        os.environ["PUZZLEFORGE_SPEC_TRUST"] = "1"
    from puzzleforge.core.cputime import cpu_seconds
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import derive_seed, make_rng
    from puzzleforge.spec.audit import audit_puzzle
    from puzzleforge.spec.family import SafetyNetFailed, UndecidedSpec, stop_if_undecided

    out: list[dict] = []
    try:
        fam = _family(path, trust)
    except Exception as exc:  # noqa: BLE001 - a row, not a crash
        return [{"i": items[0], "status": "load-error", "detail": f"cannot load: {exc}"}]
    params = fam.Params(attempts=1)
    for i in items:
        if Path(stop_marker).exists():
            out.append({"i": i, "status": "skipped"})
            continue
        rec: dict = {"i": i, "method": "", "gen_cpu": 0.0, "audit_cpu": 0.0, "detail": ""}
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
            rec["status"] = "stopped"
            rec["detail"] = f"{item['uniqueness undecided']} undecided checks"
        rec["gen_cpu"] = round(cpu_seconds() - t, 3)
        rec["reasons"] = dict(item)
        if puzzle is None:
            rec.setdefault("status", "failed")
            out.append(rec)
            if rec["status"] == "stopped":
                Path(stop_marker).write_text(f"item {i}: {rec['detail']}\n", encoding="utf-8")
            continue
        t = cpu_seconds()
        outcome = audit_puzzle(fam, puzzle, audit_seconds, method="auto", brute_limit=brute_limit)
        rec["audit_cpu"] = round(cpu_seconds() - t, 3)
        rec["status"] = outcome.status
        rec["method"] = outcome.method
        if outcome.status != "pass":
            rec["detail"] = outcome.detail[:500]
        out.append(rec)
    return out


def read_done(file: Path) -> dict[int, dict]:
    """The items already recorded in a spec's result file (a cut last line is ignored)."""
    done: dict[int, dict] = {}
    if not file.exists():
        return done
    for line in file.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "i" in rec and rec.get("status") != "skipped":
            done[int(rec["i"])] = rec
    return done


def summarize(stem: str, recs: list[dict], n: int) -> dict:
    """One table row from a spec's item records."""
    status: Counter = Counter(r["status"] for r in recs)
    reasons: Counter = Counter()
    for r in recs:
        reasons.update(r.get("reasons") or {})
    first = next(
        (
            f"item {r['i']}: {r['status']}: {r.get('detail', '')[:300]}"
            for r in sorted(recs, key=lambda r: r["i"])
            if r["status"] not in ("pass", "failed")
        ),
        "",
    )
    return {
        "spec": stem,
        "n": n,
        "generated": sum(status.get(k, 0) for k in STATUSES),
        "failed": status.get("failed", 0),
        "stopped": status.get("stopped", 0) + status.get("load-error", 0),
        "status": status,
        "brute": sum(1 for r in recs if r.get("method") == "brute"),
        "algebraic": sum(1 for r in recs if r.get("method") == "algebraic"),
        "gen_cpu": sum(r.get("gen_cpu", 0.0) for r in recs),
        "audit_cpu": sum(r.get("audit_cpu", 0.0) for r in recs),
        "reasons": reasons,
        "first": first,
        "items": len(recs),
    }


HEADER = (
    "| spec | items done | generated | failed | ambiguous | wrong | undecided | error "
    "| brute-forced | algebraic | gen CPU-s | audit CPU-s | top rejections |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def row_text(row: dict) -> str:
    st = row["status"]
    top = ", ".join(f"{k}: {v}" for k, v in row["reasons"].most_common(2)) or "-"
    done = f"{row['items']}/{row['n']}" + (" (stopped: proof or nothing)" if row["stopped"] else "")
    text = (
        f"| {row['spec']} | {done} | {row['generated']} | {row['failed']} | "
        f"{st.get('ambiguous', 0)} | {st.get('wrong', 0)} | {st.get('undecided', 0)} | "
        f"{st.get('error', 0)} | {row['brute']} | {row['algebraic']} | {row['gen_cpu']:.1f} | "
        f"{row['audit_cpu']:.1f} | {top} |"
    )
    if row["first"]:
        text += f"\n|   | {row['first']} |"
    return text


def report(paths: list[Path], out: Path, n: int) -> int:
    """Print the table of every spec's recorded items; returns the non-pass count."""
    print(HEADER)
    totals: Counter = Counter()
    for p in paths:
        recs = [r for i, r in read_done(out / f"{p.stem}.jsonl").items() if i < n]
        row = summarize(p.stem, recs, n)
        print(row_text(row))
        totals["items"] += row["items"]
        totals["generated"] += row["generated"]
        totals["gen_cpu"] += round(row["gen_cpu"])
        totals["audit_cpu"] += round(row["audit_cpu"])
        totals.update(row["status"])
    print(
        f"# total: {totals['items']} items, {totals['generated']} generated, "
        + ", ".join(f"{totals.get(k, 0)} {k}" for k in STATUSES)
        + f", {totals.get('failed', 0)} failed items; CPU-s gen {totals['gen_cpu']}"
        f" audit {totals['audit_cpu']}",
        flush=True,
    )
    return sum(totals.get(k, 0) for k in STATUSES if k != "pass")


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("specs", nargs="*", help="spec stems or .yaml paths (default: all of --dir)")
    ap.add_argument("--specs", dest="spec_list", default="", help="comma-separated spec stems")
    ap.add_argument("-n", "--count", type=int, default=200, help="puzzles per spec (200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--dir",
        action="append",
        type=Path,
        default=None,
        help="folder of specs (repeatable; default: the shared corpus)",
    )
    ap.add_argument("--out", type=Path, required=True, help="folder of per-spec results (resume)")
    ap.add_argument("--attempts", type=int, default=2000, help="attempts per puzzle (2000)")
    ap.add_argument("--audit-seconds", type=float, default=60.0)
    ap.add_argument(
        "--brute-limit",
        type=int,
        default=4096,
        help="largest number of assignments brute-forced (else a fresh solver)",
    )
    ap.add_argument("--chunk", type=int, default=10, help="items per work unit (10)")
    ap.add_argument("--first", type=int, default=20, help="items of every spec in round 1 (20)")
    ap.add_argument("-j", "--workers", type=int, default=1)
    ap.add_argument("--trust", action="store_true", help="allow .py operator files")
    ap.add_argument("--report", action="store_true", help="only print the table of --out")
    args = ap.parse_args()
    dirs = args.dir or [CORPUS]
    names = list(args.specs) + [s for s in args.spec_list.split(",") if s]
    if names:
        paths = [_resolve(s, dirs) for s in names]
    else:
        paths = sorted(p for d in dirs for p in d.glob("*.yaml"))
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    print(
        f"# {len(paths)} spec(s), n={args.count}, seed={args.seed}, audit {args.audit_seconds:g} s, "
        f"brute force up to {args.brute_limit} assignments, commit {_commit()}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        flush=True,
    )
    if args.report:
        sys.exit(1 if report(paths, out, args.count) else 0)
    # round 1: the first --first items of every spec; then chunks of the rest, round by round
    bounds = [0, min(args.first, args.count)]
    while bounds[-1] < args.count:
        bounds.append(min(args.count, bounds[-1] + max(args.first, bounds[-1])))
    jobs = []
    for lo, hi in pairwise(bounds):
        for p in paths:
            done = read_done(out / f"{p.stem}.jsonl")
            todo = [i for i in range(lo, hi) if i not in done]
            for k in range(0, len(todo), args.chunk):
                jobs.append((p, todo[k : k + args.chunk]))
    print(f"# {sum(len(items) for _, items in jobs)} items to do in {len(jobs)} chunks", flush=True)

    def args_of(p: Path, items: list[int]) -> tuple:
        return (
            str(p),
            items,
            args.seed,
            args.attempts,
            args.audit_seconds,
            args.brute_limit,
            args.trust,
            str(out / f"{p.stem}.stopped"),
        )

    def record(p: Path, recs: list[dict]) -> None:
        with (out / f"{p.stem}.jsonl").open("a", encoding="utf-8") as fh:
            for r in recs:
                if r["status"] != "skipped":
                    fh.write(json.dumps(r, sort_keys=True) + "\n")
        bad = [r for r in recs if r["status"] not in ("pass", "failed", "skipped")]
        gen = sum(r.get("gen_cpu", 0.0) for r in recs)
        print(
            f"# {p.stem} items {recs[0]['i']}..{recs[-1]['i']}: "
            + ", ".join(f"{k} {v}" for k, v in Counter(r["status"] for r in recs).items())
            + f", gen {gen:.1f} CPU-s"
            + "".join(
                f"\n#   item {r['i']}: {r['status']}: {r.get('detail', '')[:200]}" for r in bad
            ),
            flush=True,
        )

    if args.workers <= 1:
        for p, items in jobs:
            record(p, run_items(*args_of(p, items)))
    else:
        with ProcessPoolExecutor(args.workers) as pool:
            futures = {pool.submit(run_items, *args_of(p, items)): p for p, items in jobs}
            for fut in as_completed(futures):
                record(futures[fut], fut.result())
    sys.exit(1 if report(paths, out, args.count) else 0)


if __name__ == "__main__":
    main()
