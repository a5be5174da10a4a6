"""Record, for each corpus spec, the derived seeds that give its first puzzles.

Why: the default corpus test replays these seeds (one attempt each, seconds for the
whole corpus) instead of searching through rejected attempts again; the search itself
is exercised by PUZZLEFORGE_SPEC_CORPUS_N=20 and bench/spec_throughput.py.
Usage: python tests/spec/find_corpus_seeds.py [N] [SECONDS_PER_SPEC]
"""
from __future__ import annotations

import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"
OUT = Path(__file__).resolve().parent / "data" / "corpus_seeds.json"
BASE_SEED = 2026


def search(args: tuple[str, int, float]) -> tuple[str, list, dict]:
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import derive_seed, make_rng
    from puzzleforge.spec.family import SpecParams, load_spec_family

    path, n, seconds = args
    fam = load_spec_family(path)
    found, reasons = [], {}
    end = time.monotonic() + seconds
    for i in range(n):
        attempt = 0
        while time.monotonic() < end:
            seed = derive_seed(BASE_SEED, fam.name, i, attempt)
            try:
                p = fam.generate(SpecParams(attempts=1, max_seconds=max(1.0, end - time.monotonic())), make_rng(seed))
            except GenerationFailed as exc:
                for k, v in exc.reasons.items():
                    reasons[k] = reasons.get(k, 0) + v
                attempt += 1
                continue
            found.append({"index": i, "attempt": attempt, "seed": seed, "answer": p.answer})
            break
    return Path(path).stem, found, reasons


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 240
    specs = sorted(str(p) for p in CORPUS.glob("*.yaml"))
    table = json.loads(OUT.read_text()) if OUT.exists() else {}
    todo = [(s, n, seconds) for s in specs if len(table.get(Path(s).stem, {}).get("seeds", [])) < n]
    with Pool(2) as pool:
        for stem, found, reasons in pool.imap_unordered(search, todo):
            table[stem] = {"seeds": found, "rejections": reasons}
            OUT.write_text(json.dumps(table, indent=1, ensure_ascii=False, sort_keys=True))
            print(stem, len(found), reasons, flush=True)


if __name__ == "__main__":
    main()
