"""Benchmark: batch throughput on 1 and 2 workers, and the runner's per-item overhead.

    .venv/bin/python bench/batch_scaling.py [--items 400] [--n 8]

1. Scaling: ``latin`` with side ``--n`` (8: ~15 ms an item here) through ``run_batch``
   with 1 worker (inline) and 2 workers (process pool, start-up included), puzzles/s and
   the speed-up (target >= 1.8x on 2 cores for items of >= 10 ms).
   A control runs the same generation with no runner (1 process, then 2 plain processes):
   on a shared machine it shows what parallelism the machine allows at that moment.
2. Overhead: a family whose generate costs ~nothing, through the pool with 1 worker and
   inline; (batch wall time - raw generate time) / items is what the runner adds per item
   (chunking, IPC, dedupe, JSON, fsync per chunk; target < 1 ms).

The machine may be shared: the figures of one run are comparable with each other only.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from puzzleforge.batch import BatchJob, Component, run_batch
from puzzleforge.batch import runner as runner_module
from puzzleforge.batch.backends import LocalPoolBackend
from puzzleforge.core.family import params_to_dict
from puzzleforge.core.puzzle import Puzzle


@dataclass(frozen=True)
class NoopParams:
    size: int = 1


class NoopFamily:
    """The cheapest valid family: measures the runner, not a generator."""

    name = "noop"
    Params = NoopParams
    summary = "benchmark family"
    difficulty_doc = "none"

    def generate(self, params: NoopParams, rng: random.Random) -> Puzzle:
        k = rng.getrandbits(64)
        return Puzzle(
            family="noop",
            question=f"Echo {k}.",
            answer=str(k),
            solution=k,
            difficulty=0.0,
            params=params_to_dict(params),
            seed=0,
        )

    def verify(self, puzzle: Puzzle, answer: str) -> float:
        return 1.0 if answer.strip() == puzzle.answer else 0.0


noop = NoopFamily()


def _timed(job: BatchJob, out: Path, **kw) -> float:
    start = time.perf_counter()
    run_batch(job, out, **kw)
    return time.perf_counter() - start


def _run(job: BatchJob, out: Path, **kw) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds the generating processes got, share of worker time busy)."""
    start = time.perf_counter()
    summary = run_batch(job, out, **kw)
    wall = time.perf_counter() - start
    return wall, summary.cpu_seconds, summary.worker_busy_seconds / (summary.workers * wall)


def _raw_latin(args: tuple[int, int, int]) -> int:
    """Control: generate items [lo, hi) of latin side n with no runner at all."""
    lo, hi, n = args
    import puzzleforge

    for i in range(lo, hi):
        puzzleforge.generate("latin", seed=i, n=n)
    return hi - lo


def _control(items: int, n: int) -> tuple[float, float]:
    """Wall seconds of the raw loop in 1 process, and split over 2 plain processes."""
    import multiprocessing

    start = time.perf_counter()
    _raw_latin((0, items, n))
    one = time.perf_counter() - start
    ctx = multiprocessing.get_context("forkserver")
    start = time.perf_counter()
    with ctx.Pool(2) as pool:
        pool.map(_raw_latin, [(0, items // 2, n), (items // 2, items, n)])
    two = time.perf_counter() - start
    return one, two


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=400)
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--overhead-items", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=2, help="runs per setting (best is kept)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-"))

    job = BatchJob((Component("latin", args.items, {"n": args.n}),), seed=1)
    load = os.getloadavg()[0]
    # best of --repeat runs each, alternating, so a burst of load elsewhere hurts both alike
    runs1, runs2 = [], []
    for _ in range(args.repeat):
        runs1.append(_run(job, tmp / "w1.jsonl", workers=1))
        runs2.append(_run(job, tmp / "w2.jsonl", workers=2))
    t1, c1, _ = min(runs1)
    t2, c2, busy2 = min(runs2)
    same = (tmp / "w1.jsonl").read_bytes() == (tmp / "w2.jsonl").read_bytes()
    per_item_ms = 1000 * t1 / args.items
    print(f"latin n={args.n}: {per_item_ms:.1f} ms/item on 1 worker")
    print(f"  1 worker : {args.items / t1:8.1f} puzzles/s ({t1:.2f} s; got {c1 / t1:.2f} cores)")
    print(
        f"  2 workers: {args.items / t2:8.1f} puzzles/s ({t2:.2f} s, pool start-up included; "
        f"got {c2 / t2:.2f} cores; workers inside chunks {100 * busy2:.0f}% of the wall time)"
    )
    print(
        f"  speed-up : {t1 / t2:.2f}x (target >= 1.8x for >= 10 ms items); "
        f"outputs byte-identical: {same}"
    )
    one, two = _control(args.items, args.n)
    print(
        f"  control  : the same work with no runner, 1 process {one:.2f} s, 2 plain processes "
        f"{two:.2f} s -> {one / two:.2f}x: what this machine allows right now"
    )
    print(
        f"  runner efficiency vs control: {(t1 / t2) / (one / two):.2f} "
        "(1.00 = the runner loses nothing to orchestration)"
    )
    cores = os.cpu_count() or 1
    if load > 0.5:
        print(
            f"  note: load average {load:.2f} on {cores} cores before the run: other processes "
            "compete (with kernel autogroup a busy session caps what this one gets), so the "
            "speed-up measures the machine's spare capacity, not the runner"
        )

    ref = f"{__name__ if __name__ != '__main__' else Path(__file__).stem}:noop"
    sys.modules.setdefault(Path(__file__).stem, sys.modules[__name__])
    m = args.overhead_items
    params = noop.Params()
    start = time.perf_counter()
    for i in range(m):
        noop.generate(params, random.Random(i))
    raw = time.perf_counter() - start
    big = BatchJob((Component(ref, m),), seed=1)
    inline = _timed(big, tmp / "o1.jsonl", workers=1)
    # one pool process, so the IPC path is measured (pool start-up excluded: warmed first)
    original = runner_module.make_backend
    runner_module.make_backend = lambda *a, **k: LocalPoolBackend(1)
    try:
        _timed(BatchJob((Component(ref, 10),), seed=2), tmp / "warm.jsonl")
        pooled = _timed(big, tmp / "o2.jsonl")
    finally:
        runner_module.make_backend = original
    print(
        f"orchestration overhead per item ({m} no-op items): "
        f"inline {1000 * (inline - raw) / m:.3f} ms, "
        f"process pool {1000 * (pooled - raw) / m:.3f} ms (target < 1 ms)"
    )


if __name__ == "__main__":
    main()
