"""Spec throughput side by side: puzzleforge against the reference PuzzleClone, every corpus spec.

    .venv/bin/python bench/spec_throughput.py [--specs 1-hamburger,37-equation] [-j 2]
        [-n 300] [--cpu 3] [--max-cpu 45] [--first-cpu 40] [--rounds 3] [--spec-budget 30]
        [--json rows.json]

The whole corpus takes about an hour of wall time at `-j 2` on 2 cores under load 10-18
(about 25 CPU-minutes).

For each spec, rounds alternate the two programs (ours then theirs, theirs then ours in the
next round, ...), each run in a fresh child process on the same machine:

- **ours**: this file's ``--worker`` mode, which makes puzzles exactly as ``puzzleforge spec
  generate --trust --seed S`` does (item *i* from ``derive_seed(S, family, i, attempt)``, a
  rejected attempt retries with the next attempt number) and prints one line per puzzle with
  its own CPU time (``time.process_time``).
- **theirs**: the reference's production mode (``translator.py -d SPEC -n N -o OUT``, continuous
  retries) from a scratch copy, run as a separate program with its own venv (never imported;
  see ../shared/reference/puzzleclone/REFERENCE.md). Its CPU time (user+sys from
  ``/proc/PID/stat``) is read each time a new line appears in its output file.

Both are measured the same way: the first puzzle is the warm-up (imports, Z3, Faker) and the
rate is ``(puzzles after the first) / (CPU from the first puzzle's line to the last one's)``,
puzzles per CPU-second. A run stops at ``-n`` puzzles after the warm-up, or when ``--cpu``
CPU-seconds have passed since the first puzzle once it has a second one (``--max-cpu`` in any
case; the first puzzle may take ``--first-cpu``).
Peak memory is the same measure for both: the peak RSS of the process tree doing the work,
the larger of the child's ``ru_maxrss`` (from ``wait4``: its own peak, or a reaped
descendant's) and the peak of the tree's summed RSS sampled at each poll (the child and
every live descendant, from ``/proc``), so work handed to a subprocess (ours without
``--trust`` runs in a sandboxed worker) counts too. Both programs measured here work in one
process, so the figure is the child's own peak (VmHWM). The ratio per spec is the median
over rounds of ours/theirs of the same round; further rounds run while the spec has used less
than ``--spec-budget`` CPU-seconds in all. Printed: one row per spec, the geometric mean over
the specs both programs generate, and, separately, the specs one side never generated in its
first-puzzle allowance (reported as a bound, not in the geometric mean).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# this tree's code, not the venv's installed puzzleforge (the worker runs this file too):
# a copy of the tree (a "before" measured next to an "after") measured /work/main's code
# while the import above came first and the worker's own path insertion too late
sys.path.insert(0, str(ROOT / "src"))

from puzzleforge.core.cputime import child_pids  # noqa: E402

SHARED = ROOT.parent / "shared"
if not SHARED.exists():
    SHARED = Path("/work/shared")
CORPUS = SHARED / "corpus" / "puzzleclone"
REFERENCE = SHARED / "reference" / "puzzleclone"
REF_PY = Path.home() / ".cache" / "pcref-venv" / "bin" / "python"
TICK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- ours (child process)
def worker(spec: str, n: int, seed: int, cpu_cap: float, first_cap: float, max_cap: float) -> None:
    """Print one JSON line per puzzle: index, attempts used, process CPU seconds so far."""
    from puzzleforge.core.errors import GenerationFailed
    from puzzleforge.core.seeding import derive_seed, make_rng
    from puzzleforge.spec.family import SpecParams, load_spec_family

    fam = load_spec_family(spec, trust=True)
    params = SpecParams(attempts=1)
    print(json.dumps({"start": time.process_time()}), flush=True)
    first = None
    for i in range(n + 1):
        attempt = 0
        while True:
            now = time.process_time()
            if first is None and now > first_cap:
                return
            if first is not None and now - first > (cpu_cap if i > 1 else max_cap):
                return
            try:
                fam.generate(params, make_rng(derive_seed(seed, fam.name, i, attempt)))
                break
            except GenerationFailed:
                attempt += 1
        cpu = time.process_time()
        if first is None:
            first = cpu
        print(json.dumps({"i": i, "attempts": attempt + 1, "cpu": cpu}), flush=True)


# ---------------------------------------------------------------- the parent: run and poll
def _proc_cpu(pid: int) -> float | None:
    """User+sys CPU seconds of a live process (all its threads) from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(pid: int) -> int:
    """Summed RSS in bytes of a live process and all its descendants (from /proc)."""
    total, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/statm", "rb") as fh:
                total += int(fh.read().split()[1]) * PAGE
        except (OSError, ValueError):
            continue
        todo += child_pids(p)
    return total


def _count_lines(path: Path) -> int:
    try:
        with open(path, "rb") as fh:
            return fh.read().count(b"\n")
    except OSError:
        return 0


def run_child(
    cmd: list[str],
    cwd: Path,
    out: Path | None,
    n: int,
    cpu_cap: float,
    first_cap: float,
    max_cap: float,
    wall_cap: float,
) -> dict:
    """Run one measured child; returns CPU seconds at each puzzle line and its peak RSS.

    ``out`` None: the child reports its own CPU per puzzle on stdout (ours); otherwise the
    child writes one line per puzzle to ``out`` and its CPU is read from /proc when a line
    appears (theirs).
    """
    stdout = subprocess.PIPE if out is None else subprocess.DEVNULL
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdout=stdout,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
        start_new_session=True,
    )
    marks: list[float] = []
    attempts: list[int] = []
    start_wall = time.monotonic()
    rusage = None
    tree_peak = 0  # bytes: the process tree's summed RSS, sampled at each poll
    killed = ""
    if out is None:
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        buf = b""
    while True:
        try:
            wpid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        except ChildProcessError:
            break
        if out is None:
            chunk = proc.stdout.read() or b""  # type: ignore[union-attr]
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for ln in lines:
                rec = json.loads(ln)
                if "cpu" in rec:
                    marks.append(rec["cpu"])
                    attempts.append(rec["attempts"])
        else:
            k = _count_lines(out)
            if k > len(marks):
                cpu = _proc_cpu(proc.pid)
                if cpu is not None:
                    marks += [cpu] * (k - len(marks))
        if wpid:
            rusage = ru
            proc.returncode = os.waitstatus_to_exitcode(status)
            break
        tree_peak = max(tree_peak, _tree_rss(proc.pid))
        cpu = _proc_cpu(proc.pid) or 0.0
        over = (
            len(marks) >= n + 1
            or (not marks and cpu > first_cap + 2)
            or (len(marks) >= 2 and cpu - marks[0] > cpu_cap + 0.5)
            or (marks and cpu - marks[0] > max_cap + 2)
            or time.monotonic() - start_wall > wall_cap
        )
        if over and not killed:
            killed = "done" if len(marks) >= n + 1 else "cap"
            os.killpg(proc.pid, signal.SIGKILL)
        time.sleep(0.004)
    if rusage is None:
        _, _, rusage = os.wait4(proc.pid, 0)
    total_cpu = rusage.ru_utime + rusage.ru_stime
    marks = marks[: n + 1]
    puzzles = len(marks) - 1
    rate = puzzles / (marks[-1] - marks[0]) if puzzles > 0 and marks[-1] > marks[0] else None
    return {
        "lines": len(marks),
        "rate": rate,
        "first_cpu": marks[0] if marks else None,
        "cpu": total_cpu,
        "rss_mb": max(rusage.ru_maxrss * 1024, tree_peak) / 2**20,
        "attempts_per_puzzle": (sum(attempts[1:]) / puzzles) if attempts and puzzles > 0 else None,
    }


def ours(spec: Path, a: argparse.Namespace, work: Path) -> dict:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(spec),
        "-n",
        str(a.n),
        "--seed",
        str(a.seed),
        "--cpu",
        str(a.cpu),
        "--first-cpu",
        str(a.first_cpu),
        "--max-cpu",
        str(a.max_cpu),
    ]
    return run_child(cmd, work, None, a.n, a.cpu, a.first_cpu, a.max_cpu, a.wall)


def theirs(spec: Path, a: argparse.Namespace, ref_dir: Path, k: int) -> dict:
    out = ref_dir / "output" / f"{spec.stem}.{k}.jsonl"
    out.unlink(missing_ok=True)
    cmd = [
        str(REF_PY),
        "-W",
        "ignore",
        "translator.py",
        "-d",
        str(spec),
        "-n",
        str(a.n + 1),
        "-o",
        str(out),
    ]
    return run_child(cmd, ref_dir, out, a.n, a.cpu, a.first_cpu, a.max_cpu, a.wall)


# ---------------------------------------------------------------- report
def _fmt_rate(r: float | None) -> str:
    return "-" if r is None else (f"{r:9.2f}" if r < 1000 else f"{r:9.0f}")


def summarise(spec: str, rounds: list[tuple[dict, dict]]) -> dict:
    ours_rates = [o["rate"] for o, _ in rounds if o["rate"]]
    their_rates = [t["rate"] for _, t in rounds if t["rate"]]
    ratios = [o["rate"] / t["rate"] for o, t in rounds if o["rate"] and t["rate"]]
    row = {
        "spec": spec,
        "rounds": len(rounds),
        "ours_rate": statistics.median(ours_rates) if ours_rates else None,
        "theirs_rate": statistics.median(their_rates) if their_rates else None,
        "ratio": statistics.median(ratios) if ratios else None,
        "ratios": [round(r, 2) for r in ratios],
        "ours_rss_mb": max(o["rss_mb"] for o, _ in rounds),
        "theirs_rss_mb": max(t["rss_mb"] for _, t in rounds),
        "ours_att": next(
            (o["attempts_per_puzzle"] for o, _ in rounds if o["attempts_per_puzzle"]), None
        ),
        "ours_first": [o["first_cpu"] for o, _ in rounds],
        "theirs_first": [t["first_cpu"] for _, t in rounds],
        "ours_cpu": sum(o["cpu"] for o, _ in rounds),
        "theirs_cpu": sum(t["cpu"] for _, t in rounds),
    }
    if row["ratio"] is None:
        # one side never made a puzzle (or only the warm-up one): a bound, not a ratio
        o_made = max(o["lines"] for o, _ in rounds)
        t_made = max(t["lines"] for _, t in rounds)
        row["ours_made"], row["theirs_made"] = o_made, t_made
        if row["ours_rate"] and t_made == 0:
            row["bound"] = (
                f">= {row['ours_rate'] * max(t['cpu'] for _, t in rounds):.0f}x (theirs: none in {max(t['cpu'] for _, t in rounds):.0f} CPU-s)"
            )
        elif row["theirs_rate"] and o_made == 0:
            row["bound"] = (
                f"<= {1 / (row['theirs_rate'] * max(o['cpu'] for o, _ in rounds)):.3f}x (ours: none)"
            )
        else:
            row["bound"] = f"ours {o_made} puzzles, theirs {t_made} puzzles (no steady-state rate)"
    return row


def print_row(row: dict) -> None:
    ratio = f"{row['ratio']:8.2f}x" if row["ratio"] else "        -"
    mem = f"{row['ours_rss_mb']:6.0f} / {row['theirs_rss_mb']:6.0f} MB"
    flag = ""
    if row["ratio"] is not None and row["ratio"] < 1:
        flag += "  SLOWER"
    if row["ours_rss_mb"] > row["theirs_rss_mb"]:
        flag += "  MORE-MEMORY"
    att = f"{row['ours_att']:6.1f}" if row["ours_att"] else "     -"
    print(
        f"{row['spec']:20} {_fmt_rate(row['ours_rate'])} {_fmt_rate(row['theirs_rate'])} {ratio} "
        f"{str(row['ratios']):26} {att} {mem}{flag} {row.get('bound', '')}",
        flush=True,
    )


def corpus_specs(names: str) -> list[Path]:
    """The corpus specs in number order, only ``names`` (comma-separated stems) if given."""
    specs = sorted(CORPUS.glob("*.yaml"), key=lambda p: (int(p.stem.split("-")[0]), p.stem))
    want = set(names.split(",")) if names else None
    return [p for p in specs if want is None or p.stem in want]


def reference_copy(tmp: Path) -> Path:
    """A private copy of the reference program under ``tmp`` (it writes into its own
    output/ and temp/ folders, so runs side by side must not share one)."""
    ref_dir = tmp / "ref"
    shutil.copytree(REFERENCE, ref_dir)
    (ref_dir / "output").mkdir(exist_ok=True)
    (ref_dir / "temp").mkdir(exist_ok=True)
    return ref_dir


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", default="", help="comma-separated spec stems (default: all 46)")
    ap.add_argument(
        "-n", type=int, default=300, help="at most this many puzzles after the warm-up one, per run"
    )
    ap.add_argument(
        "--cpu",
        type=float,
        default=3.0,
        help="a run stops after this many CPU-s past its first puzzle (once it has a second)",
    )
    ap.add_argument(
        "--max-cpu",
        type=float,
        default=45.0,
        help="... and at this many CPU-s past its first puzzle in any case",
    )
    ap.add_argument(
        "--first-cpu", type=float, default=40.0, help="CPU-s allowed for the first puzzle"
    )
    ap.add_argument(
        "--wall", type=float, default=300.0, help="wall-clock cap per run (load safety)"
    )
    ap.add_argument("--rounds", type=int, default=3, help="at most this many interleaved rounds")
    ap.add_argument(
        "--spec-budget",
        type=float,
        default=30.0,
        help="another round only while both sides used less CPU-s than this in all",
    )
    ap.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        help="specs measured at once (CPU time is per process; the rounds of a spec stay interleaved)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default="", help="also write the rows here")
    ap.add_argument("--worker", default="", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        worker(a.worker, a.n, a.seed, a.cpu, a.first_cpu, a.max_cpu)
        return 0
    if not REF_PY.exists() or not CORPUS.exists():
        sys.exit(f"needs {REF_PY} (see {REFERENCE}/REFERENCE.md) and {CORPUS}")
    specs = corpus_specs(a.specs)
    tmp = Path(tempfile.mkdtemp(prefix="spec-throughput-"))
    ref_dir = reference_copy(tmp)
    print(
        f"-n {a.n} --cpu {a.cpu} --first-cpu {a.first_cpu} --rounds {a.rounds}; "
        f"load {os.getloadavg()[0]:.1f}; rates in puzzles per CPU-second (median of rounds)"
    )
    print(
        f"{'spec':20} {'ours':>9} {'theirs':>9} {'ratio':>9} {'ratios per round':26} {'att/p':>6} "
        f"{'peak RSS ours / theirs':>22}"
    )
    t0 = time.monotonic()

    def measure(job: tuple[int, Path]) -> dict:
        k0, spec = job
        rounds: list[tuple[dict, dict]] = []
        for k in range(a.rounds):
            if k % 2 == 0:
                o = ours(spec, a, tmp)
                t = theirs(spec, a, ref_dir, k0 * 100 + k)
            else:
                t = theirs(spec, a, ref_dir, k0 * 100 + k)
                o = ours(spec, a, tmp)
            rounds.append((o, t))
            used = max(sum(x["cpu"] for x, _ in rounds), sum(y["cpu"] for _, y in rounds))
            if used > a.spec_budget or not (o["rate"] and t["rate"]):
                break
        row = summarise(spec.stem, rounds)
        print_row(row)
        return row

    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        rows = list(pool.map(measure, enumerate(specs)))
    print("\nin corpus order:")
    for row in rows:
        print_row(row)
    both = [r for r in rows if r["ratio"]]
    print(
        f"\n{len(both)} of {len(rows)} specs measured on both sides; "
        f"load {os.getloadavg()[0]:.1f}; {time.monotonic() - t0:.0f} s wall"
    )
    if both:
        geo = math.exp(sum(math.log(r["ratio"]) for r in both) / len(both))
        slower = [r["spec"] for r in both if r["ratio"] < 1]
        heavier = [r["spec"] for r in rows if r["ours_rss_mb"] > r["theirs_rss_mb"]]
        print(f"geometric mean of the ratios: {geo:.2f}x over {len(both)} specs")
        print(f"slower than the reference: {', '.join(slower) or 'none'}")
        print(f"more peak memory than the reference: {', '.join(heavier) or 'none'}")
    for r in rows:
        if not r["ratio"]:
            print(f"not in the mean: {r['spec']}: {r['bound']}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
