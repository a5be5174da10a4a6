"""Record, for each corpus spec, the derived seeds that give its first puzzles.

Why: the default corpus test replays these seeds (one attempt each) instead of searching
through rejected attempts again, so it shows real verified puzzles for every spec, the
hard ones included, in a few minutes. Where an accepted attempt is cheap, up to N (20)
seeds are recorded, so the default test itself proves "N verified puzzles" for that spec;
where it is expensive, FEW (3) are kept to hold the test's time down. The search itself is
exercised by PUZZLEFORGE_SPEC_CORPUS_N=20 and bench/spec_corpus_sweep.py.

The seeds are those of ``puzzleforge spec generate SPEC --seed 2026``: puzzle i's attempt a
uses derive_seed(2026, family, i, a). Engine changes that alter which attempts succeed
(solver choice, solution order) make recorded seeds stale: re-run this script.

Usage: python tests/spec/find_corpus_seeds.py [--n 20] [--seconds 300] [--workers 2]
       [--fresh] [SPEC_STEM ...]
"""
from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"
OUT = Path(__file__).resolve().parent / "data" / "corpus_seeds.json"
BASE_SEED = 2026
#: Seeds kept for a spec whose accepted attempt costs more than CHEAP_CPU seconds.
FEW = 3
#: CPU seconds of an accepted attempt (generate + audit replay) below which N seeds are kept.
CHEAP_CPU = 0.12


def search(args: tuple[str, int, float]) -> tuple[str, list, dict, float]:
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import derive_seed, make_rng
    from puzzleforge.spec.family import SpecParams, load_spec_family

    path, n, seconds = args
    fam = load_spec_family(path)
    found: list[dict] = []
    reasons: dict[str, int] = {}
    start = time.monotonic()
    end = start + seconds
    cpu_start = time.process_time()
    for i in range(n):
        if len(found) >= FEW and sum(e["cpu"] for e in found) / len(found) > CHEAP_CPU:
            break  # expensive puzzles: FEW seeds are enough for the default test
        attempt = 0
        while time.monotonic() < end:
            seed = derive_seed(BASE_SEED, fam.name, i, attempt)
            t = time.process_time()
            try:
                p = fam.generate(SpecParams(attempts=1, max_seconds=max(1.0, end - time.monotonic())),
                                 make_rng(seed))
            except GenerationFailed as exc:
                for k, v in exc.reasons.items():
                    reasons[k] = reasons.get(k, 0) + v
                attempt += 1
                continue
            problems = fam.audit(p)
            cpu = time.process_time() - t
            if problems:  # never record a seed whose puzzle does not replay
                reasons["audit failed"] = reasons.get("audit failed", 0) + 1
                attempt += 1
                continue
            found.append({"index": i, "attempt": attempt, "seed": seed, "answer": p.answer,
                          "cpu": round(cpu, 3)})
            break
        else:
            break
    return Path(path).stem, found, reasons, round(time.process_time() - cpu_start, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description="record corpus seeds for tests/spec/test_spec_corpus.py")
    ap.add_argument("specs", nargs="*", help="spec stems (default: all corpus specs)")
    ap.add_argument("--n", type=int, default=20, help="seeds per spec with cheap attempts")
    ap.add_argument("--seconds", type=float, default=300, help="search time per spec")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fresh", action="store_true", help="search every spec again")
    args = ap.parse_args()
    specs = sorted(str(p) for p in CORPUS.glob("*.yaml"))
    if args.specs:
        specs = [s for s in specs if Path(s).stem in set(args.specs)]
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    todo = [(s, args.n, args.seconds) for s in specs
            if args.fresh or args.specs or not table.get(Path(s).stem, {}).get("seeds")]
    with Pool(args.workers) as pool:
        for stem, found, reasons, cpu in pool.imap_unordered(search, todo):
            # re-read: another run of this script may have written other specs meanwhile
            table = json.loads(OUT.read_text()) if OUT.exists() else {}
            table[stem] = {"seeds": found, "rejections": reasons, "search_cpu_seconds": cpu}
            OUT.write_text(json.dumps(table, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
            print(stem, len(found), cpu, reasons, flush=True)


if __name__ == "__main__":
    main()
