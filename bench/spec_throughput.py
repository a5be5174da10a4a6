"""Spec engine throughput: puzzles/s and peak memory per spec, one core, one process per spec.

Usage: python bench/spec_throughput.py [SPEC_OR_DIR ...] [-n N] [--seconds S] [--json]

Each spec runs in a fresh process (so peak RSS is that spec's own): one warm-up puzzle
(imports, Faker locale, first Z3 context), then N puzzles generated exactly like
``puzzleforge spec generate`` (item seeds from derive_seed, a retry = a new derived seed),
each checked with ``family.verify``. Reported: ms/puzzle (wall time per delivered puzzle,
rejected attempts included), CPU ms/puzzle (``core.cputime.cpu_seconds``: the figure to trust on a
machine shared with other work), puzzles/s, attempts/puzzle, peak RSS in MB, and the
speed-up over the original tool's production-mode figures quoted in issue 3 where known
(wall and CPU).

The same puzzles are then made again without trust, i.e. in the locked-down worker
process (spec/sandbox.py), in the same run: sandboxed ms/puzzle and CPU ms/puzzle (CPU of
this process and the worker, core/cputime.py) and the sandbox's overhead per ``generate``
call (CPU and wall). ``--no-sandbox`` skips that part. A spec with ``.py`` operators has
no sandboxed figure (it needs --trust).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ORIGINAL_MS = {"5-knapsack": 11, "38-linearprog": 41, "2-graduation": 250, "11-wine": 810}
DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "puzzleclone"


def _measure(fam, n: int, seconds: float) -> dict:
    """Warm-up puzzle, then up to n puzzles: wall, CPU (with children), attempts, calls."""
    from puzzleforge.core.cputime import cpu_seconds
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import derive_seed, make_rng
    from puzzleforge.spec.family import SpecParams

    params = SpecParams(attempts=1, max_seconds=seconds)

    def one(i: int, budget_end: float) -> int:
        attempt = 0
        while time.monotonic() < budget_end:
            try:
                p = fam.generate(params, make_rng(derive_seed(7, fam.name, i, attempt)))
            except GenerationFailed:
                attempt += 1
                continue
            assert fam.verify(p, p.answer) == 1.0
            return attempt + 1
        raise TimeoutError

    try:
        one(10_000, time.monotonic() + seconds)  # warm-up (and the sandbox worker's start)
    except TimeoutError:
        return {"error": f"no puzzle in {seconds}s"}
    start = time.monotonic()
    cpu_start = cpu_seconds()  # the sandboxed worker's CPU included
    done, attempts = 0, 0
    end = start + seconds
    for i in range(n):
        try:
            attempts += one(i, end)
        except TimeoutError:
            break
        done += 1
    return {"puzzles": done, "seconds": time.monotonic() - start, "cpu": cpu_seconds() - cpu_start,
            "calls": attempts}


def worker(spec: str, n: int, seconds: float, sandbox: bool = True) -> dict:
    """In-process (trusted) figures, then the same puzzles sandboxed, in one process."""
    import resource

    from puzzleforge.core.errors import PuzzleForgeError
    from puzzleforge.spec.family import load_spec_family

    m = _measure(load_spec_family(spec, trust=True), n, seconds)
    if "error" in m:
        return {"spec": Path(spec).stem, "error": m["error"]}
    done, elapsed, cpu, attempts = m["puzzles"], m["seconds"], m["cpu"], m["calls"]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out = {"spec": Path(spec).stem, "puzzles": done, "seconds": round(elapsed, 3),
           "ms_per_puzzle": round(1000 * elapsed / done, 1) if done else None,
           "cpu_ms_per_puzzle": round(1000 * cpu / done, 1) if done else None,
           "puzzles_per_s": round(done / elapsed, 2) if elapsed else None,
           "attempts_per_puzzle": round(attempts / done, 2) if done else None,
           "peak_rss_mb": round(rss, 1)}
    orig = ORIGINAL_MS.get(Path(spec).stem)
    if orig and done:
        out["original_ms"] = orig
        out["speedup"] = round(orig / (1000 * elapsed / done), 1)
        out["cpu_speedup"] = round(orig / max(1e-6, 1000 * cpu / done), 1)
    if sandbox and done:
        try:
            s = _measure(load_spec_family(spec), done, seconds * 2)
        except PuzzleForgeError as exc:  # .py operators need --trust: no sandboxed figure
            s = {"error": str(exc)[:120]}
        if "error" in s or s["puzzles"] != done:
            out["sandbox_error"] = s.get("error", f"{s['puzzles']} of {done} puzzles")
        else:
            out["sandbox_ms_per_puzzle"] = round(1000 * s["seconds"] / done, 1)
            out["sandbox_cpu_ms_per_puzzle"] = round(1000 * s["cpu"] / done, 1)
            # the same seeds give the same attempts, so the calls are the same too
            out["sandbox_cpu_ms_per_call"] = round(1000 * (s["cpu"] - cpu) / max(1, attempts), 2)
            out["sandbox_wall_ms_per_call"] = round(
                1000 * (s["seconds"] - elapsed) / max(1, attempts), 2)
    return out


def main(argv: list[str]) -> int:
    n, seconds, as_json, targets, sandbox = 20, 120.0, False, [], True
    it = iter(argv)
    for a in it:
        if a == "-n":
            n = int(next(it))
        elif a == "--seconds":
            seconds = float(next(it))
        elif a == "--json":
            as_json = True
        elif a == "--no-sandbox":
            sandbox = False
        elif a == "--worker":
            spec = next(it)
            print(json.dumps(worker(spec, n, seconds, sandbox)))
            return 0
        else:
            targets.append(a)
    if not targets:
        targets = [str(DEFAULT_DIR)]
    specs: list[str] = []
    for t in targets:
        p = Path(t)
        specs += sorted(str(x) for x in p.glob("*.yaml")) if p.is_dir() else [str(p)]
    rows = []
    for spec in specs:
        cmd = [sys.executable, __file__, "-n", str(n), "--seconds", str(seconds),
               *([] if sandbox else ["--no-sandbox"]), "--worker", spec]
        res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
        try:
            row = json.loads(res.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            row = {"spec": Path(spec).stem, "error": (res.stderr.strip().splitlines() or ["?"])[-1][:200]}
        rows.append(row)
        if as_json:
            print(json.dumps(row), flush=True)
        elif "error" in row:
            print(f"{row['spec']:22s} ERROR {row['error']}", flush=True)
        elif not row["puzzles"]:
            print(f"{row['spec']:22s}   0 puzzles in {seconds:.0f} s after the warm-up puzzle  "
                  f"{row['peak_rss_mb']:7.1f} MB", flush=True)
        else:
            extra = (f"  x{row['speedup']} (cpu x{row['cpu_speedup']}) vs original {row['original_ms']} ms"
                     if "speedup" in row else "")
            if "sandbox_ms_per_puzzle" in row:
                extra += (f"  | sandboxed {row['sandbox_ms_per_puzzle']:9.1f} ms/puzzle cpu "
                          f"{row['sandbox_cpu_ms_per_puzzle']:8.1f} ms ({row['sandbox_cpu_ms_per_call']:+.2f} "
                          f"cpu ms/call)")
            elif "sandbox_error" in row:
                extra += f"  | sandboxed: {row['sandbox_error']}"
            print(f"{row['spec']:22s} {row['puzzles']:3d} puzzles  {row['ms_per_puzzle']:9.1f} ms/puzzle  "
                  f"cpu {row['cpu_ms_per_puzzle']:8.1f} ms  "
                  f"{row['puzzles_per_s']:7.2f}/s  {row['attempts_per_puzzle']:6.2f} att/p  "
                  f"{row['peak_rss_mb']:7.1f} MB{extra}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
