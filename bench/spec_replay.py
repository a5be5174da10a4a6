"""Config replay both ways against the reference PuzzleClone, over every corpus spec.

For each spec: the reference makes N puzzles and puzzleforge replays their configs; then
puzzleforge makes N puzzles and the reference replays ours (one ``-g config.json`` run per
config, so every config maps to its own outcome). "agree" means the same problem text
(puzzleforge's ``problem`` field, the spec's own text) and the same answer as the question
means it (spec/answers.py: "1,3" and "3,1" agree for a set). The reference runs only as a
subprocess from a scratch copy (never imported); set it up as in
../shared/reference/puzzleclone/REFERENCE.md (venv in ~/.cache/pcref-venv).

    .venv/bin/python bench/spec_replay.py [-n 3] [--seed 1] [--specs 44-chess,46-elevator]

Prints one row per spec and the totals; the reference's own failures are listed by name.
A config that cannot be replayed (either way) is skipped and counted under its reason, and
the run goes on with the next one (as the reference does with configs it cannot replay).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
if not SHARED.exists():
    SHARED = Path("/work/shared")
CORPUS = SHARED / "corpus" / "puzzleclone"
REFERENCE = SHARED / "reference" / "puzzleclone"
REF_PY = Path.home() / ".cache" / "pcref-venv" / "bin" / "python"

sys.path.insert(0, str(ROOT / "src"))

from puzzleforge.core.errors import PuzzleForgeError  # noqa: E402
from puzzleforge.core.seeding import derive_seed, make_rng  # noqa: E402
from puzzleforge.spec.answers import score_answer  # noqa: E402
from puzzleforge.spec.family import SpecParams, load_spec_family  # noqa: E402


def ref_run(ref_dir: Path, args: list[str], timeout: float) -> str:
    """Run the reference translator; returns its stderr tail when it failed or timed out."""
    try:
        p = subprocess.run(
            [str(REF_PY), "-W", "ignore", "translator.py", *args],
            cwd=ref_dir,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    said = [
        ln.strip() for ln in (p.stdout or "").splitlines() if "Error" in ln or "error" in ln
    ]  # the reference reports a skipped config here
    tail = (p.stderr or p.stdout or "").strip().splitlines()
    if p.returncode == 0:
        return said[-1] if said else ""
    return tail[-1] if tail else f"exit {p.returncode}"


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut by the timeout
    return out


def agree(fmts: list, problem_a: str, answer_a: str, problem_b: str, answer_b: str) -> bool:
    return problem_a == problem_b and score_answer(answer_a, answer_b, fmts) == 1.0


def ours_make(fam, n: int, seed: int, cpu_budget: float) -> list:
    """N puzzles as ``spec generate -n N --seed S`` makes them (derived seed per attempt)."""
    puzzles = []
    end = time.process_time() + cpu_budget
    for i in range(n):
        for attempt in range(2000):
            if time.process_time() > end:
                return puzzles
            try:
                puzzles.append(
                    fam.generate(
                        SpecParams(attempts=1, max_seconds=120),
                        make_rng(derive_seed(seed, fam.name, i, attempt)),
                    )
                )
                break
            except PuzzleForgeError:
                continue
    return puzzles


def one_spec(
    spec: Path, ref_dir: Path, work: Path, n: int, seed: int, timeout: float, cpu_budget: float
) -> dict:
    name = spec.stem
    fam = load_spec_family(spec, trust=True)
    row = {
        "spec": name,
        "ref_made": 0,
        "ours_replayed": 0,
        "ours_agree": 0,
        "ours_made": 0,
        "ref_replayed": 0,
        "ref_agree": 0,
        "notes": [],
        "ours_skipped": {},
        "ref_skipped": {},
    }
    ours_skipped: Counter = Counter()
    ref_skipped: Counter = Counter()
    # 1. the reference makes N; we replay each config
    ref_out = work / f"{name}.ref.jsonl"
    err = ref_run(ref_dir, ["-d", str(spec), "-n", str(n), "-o", str(ref_out)], timeout)
    ref_recs = read_jsonl(ref_out)[:n]
    row["ref_made"] = len(ref_recs)
    if err and len(ref_recs) < n:
        row["notes"].append(f"reference generate: {err[:80]}")
    for k, rec in enumerate(ref_recs, start=1):
        try:
            p = fam.generate(
                SpecParams(attempts=1, max_seconds=300), random.Random(0), config=rec["config"]
            )
        except PuzzleForgeError as exc:
            why = ", ".join(getattr(exc, "reasons", {}) or {}) or str(exc)[:80]
            row["notes"].append(f"ours cannot replay ref #{k}: {why}")
            ours_skipped[why] += 1
            continue
        row["ours_replayed"] += 1
        fmts = [q.get("format") for q in p.solution["queries"]]
        if agree(fmts, p.extra["problem"], p.answer, rec["problem"], str(rec["answer"])):
            row["ours_agree"] += 1
        else:
            row["notes"].append(
                f"ref #{k} differs: answer ref {str(rec['answer'])[:30]!r} ours {p.answer[:30]!r}"
                + ("" if p.extra["problem"] == rec["problem"] else ", problem text")
            )
    # 2. we make N; the reference replays each config (one .json per config)
    ours = ours_make(fam, n, seed, cpu_budget)
    row["ours_made"] = len(ours)
    if len(ours) < n:
        row["notes"].append(
            f"ours made {len(ours)} of {n} within {cpu_budget:g} CPU-s "
            "(nothing to replay in the reference for the rest)"
        )
    for k, p in enumerate(ours, start=1):
        cfg = work / f"{name}.ours{k}.json"
        cfg.write_text(json.dumps(p.config, ensure_ascii=False), encoding="utf-8")
        out = work / f"{name}.ours{k}.replayed.jsonl"
        err = ref_run(ref_dir, ["-d", str(spec), "-g", str(cfg), "-o", str(out)], timeout)
        got = read_jsonl(out)
        if not got:
            row["notes"].append(
                f"reference cannot replay ours #{k}{': ' + err[:60] if err else ''}"
            )
            ref_skipped[err[:60] or "no output"] += 1
            continue
        row["ref_replayed"] += 1
        fmts = [q.get("format") for q in p.solution["queries"]]
        rec = got[0]
        if agree(fmts, rec["problem"], str(rec["answer"]), p.extra["problem"], p.answer):
            row["ref_agree"] += 1
        else:
            row["notes"].append(
                f"ours #{k} differs in the reference: answer ours {p.answer[:30]!r} "
                f"ref {str(rec['answer'])[:30]!r}"
                + ("" if p.extra["problem"] == rec["problem"] else ", problem text")
            )
    row["ours_skipped"], row["ref_skipped"] = dict(ours_skipped), dict(ref_skipped)
    return row


def write_rows(path: Path, rows: list[dict]) -> None:
    """Write the rows so far (replacing the file whole, so it is never half-written)."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    part.replace(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=3, help="puzzles per spec and direction")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--specs", default="", help="comma-separated spec stems (default: all)")
    ap.add_argument("--timeout", type=float, default=240.0, help="wall seconds per reference run")
    ap.add_argument("--cpu", type=float, default=120.0, help="CPU seconds for ours per spec")
    ap.add_argument(
        "--json", default="", help="also write the rows here (rewritten after each spec)"
    )
    ap.add_argument("--keep", default="", help="keep the configs and outputs in this folder")
    args = ap.parse_args()
    if not REF_PY.exists() or not CORPUS.exists():
        sys.exit(f"needs {REF_PY} (see {REFERENCE}/REFERENCE.md) and {CORPUS}")
    specs = sorted(
        CORPUS.glob("*.yaml"),
        key=lambda p: (
            int(p.stem.split("-")[0]) if p.stem.split("-")[0].isdigit() else 999,
            p.stem,
        ),
    )
    if args.specs:
        want = set(args.specs.split(","))
        specs = [p for p in specs if p.stem in want]
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="spec-replay-"))
    tmp.mkdir(parents=True, exist_ok=True)
    ref_dir = tmp / "ref"
    shutil.copytree(REFERENCE, ref_dir, dirs_exist_ok=True)
    (ref_dir / "temp").mkdir(exist_ok=True)
    (ref_dir / "output").mkdir(exist_ok=True)
    work = tmp / "work"
    work.mkdir(exist_ok=True)
    rows = []
    print(
        f"{'spec':22} {'ref made':>8} {'ours replayed/agree':>20} {'ours made':>9} {'ref replayed/agree':>19}"
    )
    for spec in specs:
        row = one_spec(spec, ref_dir, work, args.n, args.seed, args.timeout, args.cpu)
        rows.append(row)
        print(
            f"{row['spec']:22} {row['ref_made']:>8} {row['ours_replayed']:>10}/{row['ours_agree']:<9} "
            f"{row['ours_made']:>9} {row['ref_replayed']:>9}/{row['ref_agree']:<9}",
            flush=True,
        )
        for note in row["notes"]:
            print(f"    - {note}", flush=True)
        if args.json:  # after every spec, so a run stopped early keeps the rows it has
            write_rows(Path(args.json), rows)
    tot = {
        k: sum(r[k] for r in rows)
        for k in (
            "ref_made",
            "ours_replayed",
            "ours_agree",
            "ours_made",
            "ref_replayed",
            "ref_agree",
        )
    }
    print(
        f"\nours replaying the reference's configs: replayed {tot['ours_replayed']}/{tot['ref_made']}, "
        f"agreeing {tot['ours_agree']}/{tot['ref_made']}"
    )
    print(
        f"the reference replaying ours: replayed {tot['ref_replayed']}/{tot['ours_made']}, "
        f"agreeing {tot['ref_agree']}/{tot['ours_made']}"
    )
    for key, who in (
        ("ours_skipped", "skipped by ours"),
        ("ref_skipped", "skipped by the reference"),
    ):
        reasons: Counter = Counter()
        for r in rows:
            reasons.update({f"{r['spec']}: {why}": n for why, n in r[key].items()})
        print(
            f"{who}: {sum(reasons.values())}"
            + "".join(f"\n    {n} x {why}" for why, n in sorted(reasons.items()))
        )
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    os.sys.stdout.flush()


if __name__ == "__main__":
    main()
