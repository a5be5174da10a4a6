"""Record, for each corpus spec, 20 derived seeds that each give a verified puzzle.

Why: the default corpus test (test_spec_corpus.py) replays these seeds, one attempt each,
instead of searching through the rejected attempts again, so it shows 20 real verified
puzzles for every spec -- the rare ones (53-daughter: ~1 accepted attempt in 1000)
included -- in a few minutes. The search itself is exercised by
PUZZLEFORGE_SPEC_CORPUS_N=20 and bench/spec_corpus_sweep.py.

Puzzle i's attempt a uses its own seed, derive_seed(2026, family, i, a), so each recorded
seed gives its puzzle in one attempt (the scheme ``spec generate`` used before it became
the batch runner, whose spec items retry inside one seed's stream). Engine changes that alter which attempts succeed
(solver choice, solution order, budgets) can make a recorded seed stale. Re-running this
script is cheap: every recorded seed is replayed first (generate + config-replay audit)
and kept if it still gives a puzzle; only a stale or missing one is searched again, from
the attempt after the recorded one. One task per (spec, puzzle index), so the rare specs
spread over the workers.

Usage (from the repository root, with the package importable):
  python tests/spec/find_corpus_seeds.py                 # every spec, re-check + fill to 20
  python tests/spec/find_corpus_seeds.py 53-daughter --workers 2
  python tests/spec/find_corpus_seeds.py --fresh         # forget recorded seeds, search anew
  python tests/spec/find_corpus_seeds.py --keep-recorded  # only fill missing seeds
Options: --n (seeds per spec, 20), --cpu-seconds (search bound per puzzle, 600),
--workers (2), --indices I ... (only these puzzle indices).
"""

from __future__ import annotations

import argparse
import json
from multiprocessing import Pool
from pathlib import Path

from puzzleforge.core.cputime import cpu_seconds

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"
OUT = Path(__file__).resolve().parent / "data" / "corpus_seeds.json"
BASE_SEED = 2026
#: Specs with no provable puzzle (test_spec_corpus.NO_PROOF): their recorded seeds are
#: kept to show the rejection, and not searched again unless named.
NO_PROOF: set[str] = set()

_FAMILIES: dict = {}


def _family(path: str):
    from puzzleforge.spec.family import load_spec_family

    if path not in _FAMILIES:  # one per worker process: its Z3 context is reused
        _FAMILIES[path] = load_spec_family(path)
    return _FAMILIES[path]


def _try(fam, seed: int) -> tuple[object, dict, float]:
    """One attempt plus the audit: (puzzle or None, rejection reasons, CPU seconds)."""
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import make_rng

    t = cpu_seconds()
    try:
        p = fam.generate(fam.Params(attempts=1), make_rng(seed))
    except GenerationFailed as exc:
        return None, dict(exc.reasons), cpu_seconds() - t
    if fam.audit(p):  # never record a seed whose puzzle does not replay
        return None, {"audit failed": 1}, cpu_seconds() - t
    outcome = fam.audit_uniqueness(p, 60.0)  # nor one whose uniqueness is not re-proved
    if outcome.status != "pass":
        return None, {f"uniqueness audit {outcome.status}": 1}, cpu_seconds() - t
    return p, {}, cpu_seconds() - t


def search(task: tuple[str, int, dict | None, float]) -> tuple[str, int, dict | None, dict, float]:
    """Puzzle ``index`` of one spec: the recorded seed if it still works, else search onward."""
    from puzzleforge.core.seeding import derive_seed

    path, index, recorded, cpu_bound = task
    fam = _family(path)
    reasons: dict[str, int] = {}
    start = cpu_seconds()
    attempt = 0
    if recorded is not None:
        p, _, cpu = _try(fam, recorded["seed"])
        if p is not None:
            return (
                Path(path).stem,
                index,
                {**recorded, "answer": p.answer, "cpu": round(cpu, 3)},
                {},
                cpu,
            )
        attempt = recorded["attempt"] + 1
    while cpu_seconds() - start < cpu_bound:
        seed = derive_seed(BASE_SEED, fam.name, index, attempt)
        p, why, cpu = _try(fam, seed)
        if p is not None:
            entry = {
                "index": index,
                "attempt": attempt,
                "seed": seed,
                "answer": p.answer,
                "cpu": round(cpu, 3),
            }
            return Path(path).stem, index, entry, reasons, cpu_seconds() - start
        for k, v in why.items():
            reasons[k] = reasons.get(k, 0) + v
        attempt += 1
    return Path(path).stem, index, None, reasons, cpu_seconds() - start


def _save(stem: str, index: int, entry: dict | None, reasons: dict, cpu: float) -> None:
    # re-read: another run of this script may have written other specs meanwhile
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    row = table.setdefault(stem, {"seeds": [], "rejections": {}, "search_cpu_seconds": 0.0})
    seeds = [e for e in row["seeds"] if e["index"] != index]
    if entry is not None:
        seeds.append(entry)
    row["seeds"] = sorted(seeds, key=lambda e: e["index"])
    for k, v in reasons.items():
        row["rejections"][k] = row["rejections"].get(k, 0) + v
    row["search_cpu_seconds"] = round(row["search_cpu_seconds"] + cpu, 1)
    OUT.write_text(json.dumps(table, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(
        description="record corpus seeds for tests/spec/test_spec_corpus.py"
    )
    ap.add_argument("specs", nargs="*", help="spec stems (default: all corpus specs)")
    ap.add_argument("--n", type=int, default=20, help="seeds per spec")
    ap.add_argument("--cpu-seconds", type=float, default=600, help="search CPU bound per puzzle")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fresh", action="store_true", help="forget the recorded seeds")
    ap.add_argument(
        "--keep-recorded",
        action="store_true",
        help="do not replay recorded seeds (only fill missing ones: quicker)",
    )
    ap.add_argument("--indices", type=int, nargs="*", help="only these puzzle indices")
    args = ap.parse_args()
    specs = sorted(str(p) for p in CORPUS.glob("*.yaml"))
    if args.specs:
        unknown = set(args.specs) - {Path(s).stem for s in specs}
        if unknown:
            raise SystemExit(f"not in {CORPUS}: {', '.join(sorted(unknown))}")
        specs = [s for s in specs if Path(s).stem in set(args.specs)]
    else:  # specs that give no puzzle (every uniqueness check undecided): nothing to find
        specs = [s for s in specs if Path(s).stem not in NO_PROOF]
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    if args.fresh:
        for s in specs:
            table.pop(Path(s).stem, None)
    for s in specs:  # the totals describe this run's search
        old = table.get(Path(s).stem, {})
        table[Path(s).stem] = {
            "seeds": old.get("seeds", []),
            "rejections": old.get("rejections", {}) if args.keep_recorded else {},
            "search_cpu_seconds": old.get("search_cpu_seconds", 0.0) if args.keep_recorded else 0.0,
        }
    OUT.write_text(json.dumps(table, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    tasks = []
    wanted = set(args.indices) if args.indices else set(range(args.n))
    for s in specs:
        by_index = {e["index"]: e for e in table[Path(s).stem]["seeds"]}
        tasks += [
            (s, i, by_index.get(i), args.cpu_seconds)
            for i in range(args.n)
            if i in wanted and not (args.keep_recorded and i in by_index)
        ]
    # indices interleaved across specs so a rare spec's searches run side by side
    tasks.sort(key=lambda t: (t[1], t[0]))
    done: dict[str, int] = {}
    with Pool(args.workers, maxtasksperchild=None) as pool:
        for stem, index, entry, reasons, cpu in pool.imap_unordered(search, tasks):
            _save(stem, index, entry, reasons, cpu)
            done[stem] = done.get(stem, 0) + (entry is not None)
            print(
                f"{stem} #{index}: {'ok' if entry else 'NONE'} attempt "
                f"{entry['attempt'] if entry else '-'} cpu {cpu:.1f}s {reasons or ''}",
                flush=True,
            )
    short = {k: v for k, v in done.items() if v < args.n}
    print("specs short of", args.n, "seeds:", short or "none", flush=True)


if __name__ == "__main__":
    main()
