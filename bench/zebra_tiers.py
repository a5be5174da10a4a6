"""Which difficulty tiers each grid size reaches: K x k from 3x3 to 8x8, every tier.

For each (K, k, tier, language) it generates ``--n`` seeds with the tier's construction
(construct.py) and prints how many succeeded, the median CPU seconds and the attempts
used, so the table of refused tiers (tiers.py) rests on a measurement. Rows refused by
tiers.unreachable are generated anyway with ``--ignore-refusals`` (to re-check them).

    .venv/bin/python bench/zebra_tiers.py [--n 5] [--K 3,4,5,6,7,8] [--k 3,4,5,6,7,8]
        [--tiers easy,medium,hard,expert] [--langs en] [--ignore-refusals]
"""

from __future__ import annotations

import argparse
import statistics
import time

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.zebra.generator import generate_puzzle
from puzzleforge.zebra.tiers import unreachable


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=5)
    ap.add_argument("--K", default="3,4,5,6,7,8")
    ap.add_argument("--k", default="3,4,5,6,7,8")
    ap.add_argument("--tiers", default="easy,medium,hard,expert")
    ap.add_argument("--langs", default="en")
    ap.add_argument("--max-attempts", type=int, default=40)
    ap.add_argument("--ignore-refusals", action="store_true")
    args = ap.parse_args()
    print(
        f"{'K':>2} {'k':>2} {'tier':>7} {'lang':>4} {'ok':>5} {'cpu med':>8} {'cpu max':>8} "
        f"{'attempts max':>12}"
    )
    for K in (int(x) for x in args.K.split(",")):
        for k in (int(x) for x in args.k.split(",")):
            for tier in args.tiers.split(","):
                for lang in args.langs.split(","):
                    why = unreachable(K, k, tier)
                    if why and not args.ignore_refusals:
                        print(f"{K:>2} {k:>2} {tier:>7} {lang:>4} refused: {why}", flush=True)
                        continue
                    ok, cpu, attempts = 0, [], []
                    for i in range(args.n):
                        rng = make_rng(derive_seed(0, "zebra-tiers", K * 100 + k * 10 + i))
                        start = time.process_time()
                        try:
                            p = generate_puzzle(
                                rng,
                                K=K,
                                k=k,
                                lang=lang,
                                difficulty=tier,
                                max_attempts=args.max_attempts,
                            )
                            ok += 1
                            attempts.append(p.certificate["attempts"])
                        except GenerationFailed:
                            attempts.append(args.max_attempts)
                        cpu.append(time.process_time() - start)
                    print(
                        f"{K:>2} {k:>2} {tier:>7} {lang:>4} {ok:>2}/{args.n:<2} "
                        f"{statistics.median(cpu):8.2f} {max(cpu):8.2f} {max(attempts):>12}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
