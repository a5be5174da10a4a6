"""``puzzleforge verify`` gives the same report twice on a file holding every corpus spec.

Why: issue 23 asks that ``verify`` be deterministic on every file, and the five-spec check
(test_spec_verify_deterministic.py) covers only some of the engine's paths (finite
enumeration, SAT from the term model, LP, nonlinear reals, optimisation, brute-force
audit). Here one record of each corpus spec goes into one file, and two fresh processes
verify it: their standard output must be byte-identical, and every record must be correct
and pass its uniqueness audit. The record of each spec is made from the cheapest of its
recorded seeds (data/corpus_seeds.json, the accepted attempts of ``spec generate SPEC
--seed 2026``; test_spec_corpus.py checks that each still gives its recorded answer), one
attempt each and stamped with its seed as a batch run does, so the file costs a few seconds
to make. Every corpus spec has one (68-cubic too since session 13: spec/intbound.py).
Skips when ../shared is absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import make_rng

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"
SEEDS_FILE = Path(__file__).resolve().parent / "data" / "corpus_seeds.json"
#: Specs that give no puzzle (every uniqueness check stays undecided; test_spec_corpus.py).
NO_PROOF: set[str] = set()


def _verify(path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge", "verify", str(path), "--workers", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )


@pytest.mark.skipif(not CORPUS.exists(), reason="needs ../shared/corpus/puzzleclone")
def test_verify_of_every_corpus_spec_is_byte_identical_twice(tmp_path: Path) -> None:
    from puzzleforge.spec.family import load_spec_family

    seeds = json.loads(SEEDS_FILE.read_text(encoding="utf-8"))
    stems = sorted(p.stem for p in CORPUS.glob("*.yaml"))
    assert len(stems) == 46
    lines = []
    for stem in stems:
        if stem in NO_PROOF:
            continue
        entry = min(seeds[stem]["seeds"], key=lambda e: (e["cpu"], e["index"]))
        fam = load_spec_family(CORPUS / f"{stem}.yaml")
        puzzle = stamp(fam.generate(fam.Params(attempts=1), make_rng(entry["seed"])), entry["seed"])
        assert puzzle.answer == entry["answer"], stem
        lines.append(puzzle.to_json())
    data = tmp_path / "corpus.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    total = len(stems) - len(NO_PROOF)
    assert len(lines) == total == 46
    first, second = _verify(data), _verify(data)
    assert (first.returncode, second.returncode) == (0, 0), first.stdout + first.stderr[-2000:]
    assert first.stdout == second.stdout
    assert first.stdout.splitlines() == [
        f"{total}/{total} correct in {data}",
        f"uniqueness audit: {total} pass",
    ]
