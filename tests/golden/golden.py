"""Golden records: a few fixed seeds of every registered family, pinned by value.

Why: every other test takes its expected puzzles from the engine itself, so a generator
that silently starts giving different puzzles for the same seed (a changed draw order, a
new default, a dependency's new behaviour) would pass them all. Here each (family, seed)
is pinned to the record's ``id``, the SHA-256 of its question text and its answer; any
drift fails tests/golden/test_golden.py by name. When a change of puzzles is intended,
re-record on purpose and review the diff of families.json:

    make golden          # = python tests/golden/golden.py --record

``python tests/golden/golden.py`` alone compares and lists the drifted entries.

Spec files are families by path: spec_corpus.json pins, for every PuzzleClone spec of
../shared/corpus, the first ``SPEC_SEEDS`` recorded seeds of tests/spec/data/corpus_seeds.json
(one attempt each, as the corpus test makes them) the same way, or the rejection reasons
where that seed gives no puzzle. They are recorded with the families unless ../shared is
absent.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "families.json"
SPEC_RECORDS = HERE / "spec_corpus.json"
SEEDS = (0, 1, 2)
CORPUS = HERE.parents[1].parent / "shared" / "corpus" / "puzzleclone"
CORPUS_SEEDS = HERE.parent / "spec" / "data" / "corpus_seeds.json"
#: Recorded seeds pinned per corpus spec (puzzle indices 0 .. SPEC_SEEDS-1).
SPEC_SEEDS = 2


def golden_entry(family: str, seed: int) -> dict[str, Any]:
    """What is pinned for one (family, seed): default parameters, the public API."""
    import puzzleforge

    puzzle = puzzleforge.generate(family, seed=seed)
    return {
        "seed": seed,
        "id": puzzle.id,
        "question_sha256": hashlib.sha256(puzzle.question.encode("utf-8")).hexdigest(),
        "answer": puzzle.answer,
    }


def compute(families: list[str] | None = None) -> dict[str, list[dict[str, Any]]]:
    import puzzleforge

    names = families if families is not None else puzzleforge.families()
    return {name: [golden_entry(name, seed) for seed in SEEDS] for name in names}


def spec_seeds() -> dict[str, list[int]]:
    """Corpus spec stem -> the recorded seeds pinned here (index order)."""
    recorded = json.loads(CORPUS_SEEDS.read_text(encoding="utf-8"))
    out = {}
    for stem in sorted(p.stem for p in CORPUS.glob("*.yaml")):
        entries = sorted(recorded.get(stem, {}).get("seeds", []), key=lambda e: e["index"])
        if entries:
            out[stem] = [e["seed"] for e in entries[:SPEC_SEEDS]]
    return out


def spec_entry(stem: str, seed: int) -> dict[str, Any]:
    """One corpus spec puzzle from a recorded seed (one attempt), or its rejection."""
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import make_rng
    from puzzleforge.spec.family import load_spec_family

    family = load_spec_family(CORPUS / f"{stem}.yaml")
    try:
        puzzle = family.generate(family.Params(attempts=1), make_rng(seed))
    except GenerationFailed as exc:
        return {"seed": seed, "rejected": dict(sorted(exc.reasons.items()))}
    return {
        "seed": seed,
        "id": puzzle.id,
        "question_sha256": hashlib.sha256(puzzle.question.encode("utf-8")).hexdigest(),
        "answer": puzzle.answer,
    }


def spec_entries(stem: str, seeds: list[int]) -> list[dict[str, Any]]:
    """The entries of one spec; after a rejected seed (a spec that proves no puzzle, whose
    attempts are the slowest there are) the later seeds are not tried."""
    entries: list[dict[str, Any]] = []
    for seed in seeds:
        entries.append(spec_entry(stem, seed))
        if "rejected" in entries[-1]:
            break
    return entries


def compute_specs() -> dict[str, list[dict[str, Any]]]:
    return {stem: spec_entries(stem, seeds) for stem, seeds in spec_seeds().items()}


def load(path: Path = RECORDS) -> dict[str, list[dict[str, Any]]]:
    return json.loads(path.read_text(encoding="utf-8"))["records"]


def write(records: dict[str, list[dict[str, Any]]], path: Path = RECORDS) -> None:
    text = json.dumps({"records": records}, indent=1, ensure_ascii=False, sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")


def drift(
    now: dict[str, list[dict[str, Any]]], pinned: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """Human-readable differences between two record sets (empty: they match)."""
    lines = [f"{name}: recorded but gone" for name in sorted(set(pinned) - set(now))]
    lines += [f"{name}: not recorded" for name in sorted(set(now) - set(pinned))]
    for name in sorted(set(now) & set(pinned)):
        if len(now[name]) != len(pinned[name]):
            lines.append(f"{name}: {len(now[name])} entries, {len(pinned[name])} recorded")
        lines += [
            f"{name} seed {a['seed']}"
            for a, b in zip(now[name], pinned[name], strict=False)  # lengths told above
            if a != b
        ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--record",
        action="store_true",
        help="rewrite the records from the current code (review the diff)",
    )
    parser.add_argument(
        "--families-only", action="store_true", help="leave the spec corpus records alone"
    )
    args = parser.parse_args(argv)
    sets = [(RECORDS, compute)]
    if not args.families_only:
        if CORPUS.is_dir():
            sets.append((SPEC_RECORDS, compute_specs))
        else:
            print(f"{CORPUS} is absent: the spec corpus records are left as they are")
    drifted = []
    for path, make in sets:
        now = make()
        if args.record:
            write(now, path)
            print(
                f"recorded {sum(map(len, now.values()))} golden records of {len(now)} "
                f"families in {path}"
            )
        else:
            drifted += [f"{path.name}: {line}" for line in drift(now, load(path))]
    if args.record:
        return 0
    for line in drifted:
        print(line)
    print(f"{len(drifted)} drifted" if drifted else "all golden records match")
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main())
