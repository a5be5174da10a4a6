"""Timing sweep of the grid generators: seconds per puzzle, difficulty grade and tier,
clue count, per genre and size (``--seed 1`` as the CLI uses it).

Why a separate bench: bench/grid_generate.py compares engines on two genres; this one
checks that every genre generates at every size it allows (6x6, 8x8, 10x10 by default)
and how long that takes. Wall and CPU time (time.process_time) are both printed because
the machine is shared and wall time is noisy.

    .venv/bin/python bench/grid_genres_sweep.py [--sizes 6,8,10|default] [--genres a,b] [--seeds 1]
        [--difficulty any,easy,medium,hard]   (a comma list: one row per tier)

``--sizes default`` runs each genre at its own default size (what the CLI and the web
page use); a tier the genre does not offer there is printed as "not offered" with why.
With several seeds, a summary per genre, size and tier follows the rows: the rate (seeds
that gave a puzzle of the tier asked) and the CPU seconds per puzzle (mean and max).
"""

from __future__ import annotations

import argparse
import time

from puzzleforge.core.errors import PuzzleForgeError
from puzzleforge.grid import api
from puzzleforge.grid.genres import GENRES, get_genre


def tier_of(diff: float) -> str:
    return "easy" if diff < 2 else "medium" if diff < 3 else "hard"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="6,8,10")
    ap.add_argument("--genres", default=",".join(GENRES))
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--difficulty", default="any")
    args = ap.parse_args()
    sizes = [] if args.sizes == "default" else [int(s) for s in args.sizes.split(",")]
    seeds = [int(s) for s in args.seeds.split(",")]
    tiers = args.difficulty.split(",")
    summary: dict[tuple[str, int, str], list[tuple[bool, float]]] = {}
    print(
        f"{'genre':12s} {'size':>5s} {'seed':>4s} {'target':6s} {'wall s':>7s} {'cpu s':>7s} {'grade':>6s} "
        f"{'tier':6s} {'clues':>5s}  note"
    )
    for gid in args.genres.split(","):
        g = get_genre(gid)
        for n in sizes or [g.default_size[0]]:
            opts = g.default_opts(n, n)
            if g.check_size(n, n, opts):
                print(
                    f"{gid:12s} {n:>2d}x{n:<2d} {'-':>4s} {'-':6s} {'-':>7s} {'-':>7s} {'-':>6s} {'-':6s} "
                    f"{'-':>5s}  size not allowed"
                )
                continue
            for seed, target in ((s, t) for t in tiers for s in seeds):
                refused = g.tier_problem(target, n, n, opts) if target != "any" else None
                if refused:
                    print(
                        f"{gid:12s} {n:>2d}x{n:<2d} {seed:>4d} {target:6s} {'-':>7s} {'-':>7s} "
                        f"{'-':>6s} {'-':6s} {'-':>5s}  not offered: {refused.split(': ', 1)[1][:70]}"
                    )
                    continue
                w0, c0 = time.perf_counter(), time.process_time()
                note = ""
                try:
                    inst, _sol, diff = api.generate(gid, f"{n}x{n}", seed, difficulty=target)
                    clues, grade = inst.clue_count(), f"{diff:.2f}"
                    tier = tier_of(diff)
                    if opts:
                        note = " ".join(
                            f"{k}={v}"
                            for k, v in sorted(inst.opts.items())
                            if not k.startswith("_")
                        )
                except PuzzleForgeError as exc:
                    clues, grade, tier, note = "-", "-", "-", f"FAILED: {exc}"[:90]
                wall, cpu = time.perf_counter() - w0, time.process_time() - c0
                hit = tier != "-" and (target == "any" or tier == target)
                summary.setdefault((gid, n, target), []).append((hit, cpu))
                print(
                    f"{gid:12s} {n:>2d}x{n:<2d} {seed:>4d} {target:6s} {wall:7.2f} {cpu:7.2f} {grade:>6s} {tier:6s} "
                    f"{clues!s:>5s}  {note}",
                    flush=True,
                )

    if len(seeds) > 1:
        print(
            f"\n{'genre':12s} {'size':>5s} {'target':6s} {'rate':>7s} {'cpu mean':>8s} {'cpu max':>7s}"
        )
        for (gid, n, target), runs in summary.items():
            ok = sum(1 for hit, _ in runs if hit)
            cpus = [cpu for _, cpu in runs]
            print(
                f"{gid:12s} {n:>2d}x{n:<2d} {target:6s} {ok:>3d}/{len(runs):<3d} "
                f"{sum(cpus) / len(cpus):8.2f} {max(cpus):7.2f}"
            )


if __name__ == "__main__":
    main()
