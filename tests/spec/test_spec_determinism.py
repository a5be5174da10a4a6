"""A spec puzzle is a function of its seed, whatever the process generated before.

The spec family reuses one Z3 context per thread (spec/attempt.py SpecZ3Contexts, a
spec/z3space.py Z3Space with the caches made in it), whose model choices depend on the
terms it already holds; outputs must not. The specs cover the finite, SAT, exact-LP,
Z3-enumeration, nonlinear-integer and optimisation paths. Each puzzle is
generated in a fresh process and again in a process that first made many other puzzles
(of the same spec and of others) and in a different order; the JSON bytes must match.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "specs"
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"

_SCRIPT = r"""
import json, sys
from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec.family import SpecParams, load_spec_family
jobs = json.loads(sys.argv[1])
fams = {}
out = {}
for path, i, keep in jobs:
    fam = fams.get(path) or fams.setdefault(path, load_spec_family(path))
    seed = derive_seed(5, fam.name, i)
    try:
        p = fam.generate(SpecParams(attempts=3), make_rng(seed))
        text = stamp(p, seed).to_json()
    except GenerationFailed as exc:
        text = "failed: " + ",".join(sorted(exc.reasons)) if hasattr(exc, "reasons") else "failed"
    if keep:
        out[f"{path}#{i}"] = text
print(json.dumps(out))
"""


def _run(jobs: list) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", _SCRIPT, json.dumps(jobs)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def _specs() -> list[str]:
    specs = [EXAMPLES / "knapsack.yaml", EXAMPLES / "house_numbers.yaml", EXAMPLES / "ore.yaml"]
    specs += [
        CORPUS / f"{s}.yaml"
        for s in (
            "5-knapsack",
            "2-graduation",
            "1-hamburger",
            "10-student2",
            "38-linearprog",
            "46-elevator",
            "62-queue",
            "43-stone2",
        )
    ]
    return [str(p) for p in specs if p.exists()]


def test_same_seed_same_bytes_in_fresh_and_busy_processes() -> None:
    specs = _specs()
    targets = [(s, i) for s in specs for i in (0, 1)]
    # fresh: each spec alone in its own process, puzzles 0 and 1 only
    fresh: dict = {}
    for s in specs:
        fresh.update(_run([[s, i, True] for i in (0, 1)]))
    # busy: one process, 40 other puzzles of the specs first, then the targets in reverse
    warm = [[s, 100 + k, False] for k in range(40 // len(specs) + 1) for s in reversed(specs)]
    busy = _run(warm + [[s, i, True] for s, i in reversed(targets)])
    assert set(busy) == set(fresh)
    for key in fresh:
        assert busy[key] == fresh[key], key
    if len(specs) < 5:
        pytest.skip("the shared corpus is absent: only the example specs were compared")
