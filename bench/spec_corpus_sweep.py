"""Sweep the PuzzleClone corpus: `spec generate -n N` then `verify` for every spec (or a list).

Why: issue 3 asks that every corpus spec delivers >= 20 verified puzzles through the
ordinary command line; this runs exactly those commands (each in its own process, as a
user would) and prints one row per spec: puzzles made, wall and CPU seconds, attempts per
puzzle, the top rejection reasons (from the summary line `spec generate` prints) and how
many records `puzzleforge verify` (answers plus the config-replay audit) found correct.

Usage:
  .venv/bin/python bench/spec_corpus_sweep.py                  # all specs, n=20, 1 worker
  .venv/bin/python bench/spec_corpus_sweep.py 16-flower 68-cubic --n 20 --workers 2
  .venv/bin/python bench/spec_corpus_sweep.py --markdown        # a table for docs/spec.md
CPU seconds are the child processes' user+system time (the machine is shared: wall time
is noisy, CPU time less so).
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"
#: The CLI as a user runs it, through the interpreter running this script, so that a
#: worktree with PYTHONPATH=src measures its own code (a worktree has no .venv of its own).
CLI = [sys.executable, "-m", "puzzleforge.cli.main"]
SUMMARY = re.compile(r"(\d+) puzzle\(s\), (\d+) failed, [\d.]+s \([\d.]+/s\); rejections: (.*)$")
VERIFIED = re.compile(r"(\d+)/(\d+) correct")


def _reasons(text: str) -> dict[str, int]:
    """Parse `reason: count, reason: count` (reasons may themselves contain ':')."""
    out: dict[str, int] = {}
    if text.strip() == "none":
        return out
    for part in re.split(r", (?=[^,]*: \d+(?:,|$))", text.strip()):
        key, _, count = part.rpartition(": ")
        if key and count.isdigit():
            out[key] = out.get(key, 0) + int(count)
    return out


def run_spec(stem: str, n: int, seed: int, max_seconds: float, timeout: float) -> dict:
    """Generate and verify one spec; never raises (problems end up in the row)."""
    row: dict = {
        "spec": stem,
        "puzzles": 0,
        "failed": n,
        "wall": 0.0,
        "cpu": 0.0,
        "attempts_per_puzzle": None,
        "reasons": {},
        "verified": 0,
        "note": "",
    }
    with tempfile.TemporaryDirectory(prefix="sweep_") as tmp:
        out = Path(tmp) / f"{stem}.jsonl"
        cmd = [
            *CLI,
            "spec",
            "generate",
            str(CORPUS / f"{stem}.yaml"),
            "-n",
            str(n),
            "--seed",
            str(seed),
            "--max-seconds",
            str(max_seconds),
            "--out",
            str(out),
        ]
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _, err = proc.communicate(timeout=timeout)
            code = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            code = None
            row["note"] = f"killed after {timeout:.0f}s"
        row["wall"] = round(time.monotonic() - start, 1)
        row["cpu"] = round(_children_cpu_delta(), 1)
        match = None
        for line in (err or "").splitlines():
            m = SUMMARY.search(line)
            if m:
                match = m
        if match:
            made, failed = int(match.group(1)), int(match.group(2))
            row["puzzles"], row["failed"] = made, failed
            row["reasons"] = _reasons(match.group(3))
            rejected = sum(
                v for k, v in row["reasons"].items() if not k.startswith("time limit (whole")
            )
            if made:
                row["attempts_per_puzzle"] = round((rejected + made) / made, 1)
        elif code is not None and code != 0:
            row["note"] = (
                (err or "").strip().splitlines()[-1][:160]
                if (err or "").strip()
                else f"exit {code}"
            )
        if out.exists() and out.stat().st_size:
            row["puzzles"] = max(row["puzzles"], sum(1 for _ in out.open(encoding="utf-8")))
            ver = subprocess.run([*CLI, "verify", str(out)], capture_output=True, text=True)
            m = VERIFIED.search(ver.stdout)
            row["verified"] = int(m.group(1)) if m else 0
            _children_cpu_delta()  # verification CPU is not generation CPU
    return row


_CPU_SEEN = [0.0]


def _children_cpu_delta() -> float:
    """CPU seconds used by finished children since the previous call (single worker only)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime
    delta = total - _CPU_SEEN[0]
    _CPU_SEEN[0] = total
    return delta


def _top(reasons: dict[str, int], k: int = 3) -> str:
    items = sorted(reasons.items(), key=lambda kv: -kv[1])[:k]
    return ", ".join(f"{name} {count}" for name, count in items) or "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="*", help="spec stems (default: every corpus spec)")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=120.0, help="per puzzle (spec generate)")
    ap.add_argument("--timeout", type=float, default=900.0, help="per spec (the process is killed)")
    ap.add_argument("--workers", type=int, default=1, help="CPU seconds are exact only with 1")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table at the end")
    args = ap.parse_args(argv)
    if not CORPUS.exists():
        print(f"corpus folder {CORPUS} is absent", file=sys.stderr)
        return 2
    stems = args.specs or sorted(
        (p.stem for p in CORPUS.glob("*.yaml")),
        key=lambda s: (int(s.split("-")[0]) if s.split("-")[0].isdigit() else 0, s),
    )
    rows: list[dict] = []

    def one(stem: str) -> dict:
        row = run_spec(stem, args.n, args.seed, args.max_seconds, args.timeout)
        print(
            f"{row['spec']:<18} puzzles {row['puzzles']:>3}  verified {row['verified']:>3}  "
            f"wall {row['wall']:>7.1f}s  cpu {row['cpu']:>7.1f}s  "
            f"attempts/puzzle {row['attempts_per_puzzle'] if row['attempts_per_puzzle'] is not None else '-':>6}  "
            f"top rejections: {_top(row['reasons'])} {row['note']}",
            flush=True,
        )
        return row

    if args.workers <= 1:
        rows = [one(s) for s in stems]
    else:
        with ThreadPoolExecutor(args.workers) as pool:
            rows = list(pool.map(one, stems))
    ok = sum(1 for r in rows if r["verified"] >= args.n)
    print(f"{ok}/{len(rows)} specs delivered {args.n} verified puzzles", flush=True)
    if args.markdown:
        print(
            "\n| spec | puzzles | verified | wall s | CPU s | attempts/puzzle | top rejection reasons |"
        )
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            apz = r["attempts_per_puzzle"] if r["attempts_per_puzzle"] is not None else "-"
            print(
                f"| {r['spec']} | {r['puzzles']} | {r['verified']} | {r['wall']} | {r['cpu']} | {apz} | "
                f"{_top(r['reasons'])}{' (' + r['note'] + ')' if r['note'] else ''} |"
            )
    return 0 if ok == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
