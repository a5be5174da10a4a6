"""Peak memory side by side: N puzzles of each corpus spec, ours against the reference PuzzleClone.

    .venv/bin/python bench/spec_memory.py [--specs 56-award,62-queue] [-n 20] [--cpu-cap 60] [-j 2]
        [--seed 1] [--json rows.json]

Why a script of its own: bench/spec_throughput.py measures memory over a CPU-time window,
so a faster program makes more puzzles in it and its peak is not comparable with the
other side's. Here both programs make the same number of puzzles, each in a fresh process,
through their production commands:

- **ours**: ``python -m puzzleforge spec generate SPEC --trust -n N --seed S -o OUT``
  (the command a user runs; one worker, which runs inline, so one process; this checkout's
  ``src`` comes first on ``PYTHONPATH``).
- **theirs**: ``translator.py -d SPEC -n N -o OUT`` of the reference, from a scratch copy,
  with its own venv (never imported; see ../shared/reference/puzzleclone/REFERENCE.md).

The order alternates per spec (ours first on even rows). Peak memory is the same measure
for both: the larger of the child's ``ru_maxrss`` (from ``wait4``: its own peak or a reaped
descendant's) and the peak of the process tree's memory sampled every few milliseconds
(``_tree_memory``: every process's private pages plus the largest shared set, so ours'
forked generation worker counts, without counting the pages it shares with its parent
twice; for one process, its RSS). A run that has used ``--cpu-cap`` CPU-seconds without
finishing is stopped; its row shows how many puzzles each side made (a capped side's peak
is for fewer puzzles, so compare those rows with care). Printed: per spec ours and theirs
in MB with the puzzles made, the ratio ours/theirs, and the list of specs above the
reference.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from puzzleforge.core.cputime import child_pids

sys.path.insert(0, str(Path(__file__).resolve().parent))
from spec_throughput import (  # noqa: E402  (bench scripts are not a package)
    CORPUS,
    REF_PY,
    REFERENCE,
    ROOT,
    TICK,
    _count_lines,
    corpus_specs,
    reference_copy,
)


def _tree_pids(pid: int) -> list[int]:
    """A live process and all its descendants (from /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        if p in found:
            continue
        found.append(p)
        todo += child_pids(p)
    return found


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a live process tree: each live process's own and its reaped children's.

    Why not the child's alone: ours works in a forked worker, whose CPU the command's
    process only sees once the worker is reaped."""
    total = 0.0
    for p in _tree_pids(pid):
        try:
            with open(f"/proc/{p}/stat", "rb") as fh:
                f = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in f[11:15]) / TICK  # utime, stime, cutime, cstime
    return total


def _tree_memory(pid: int) -> int:
    """Bytes of memory the process tree holds: its private pages plus its largest shared set.

    Why not the summed RSS: ours generates in a forked worker (core/limitedworker.py,
    the CPU safety net) for specs with ``.py`` operator files (the others generate in
    the command's process), which shares its parent's pages copy-on-write, and the
    summed RSS counts those pages twice. Private pages are each process's own; the pages a
    forked child shares with its parent are counted once, in the larger ``Shared`` set.
    For one process this is its RSS.
    """
    private, shared = 0, 0
    for p in _tree_pids(pid):
        try:
            with open(f"/proc/{p}/smaps_rollup", "rb") as fh:
                rows = dict(
                    (ln.split(b":")[0], int(ln.split()[1])) for ln in fh.read().splitlines()[1:]
                )
        except (OSError, ValueError, IndexError):
            continue
        private += rows.get(b"Private_Clean", 0) + rows.get(b"Private_Dirty", 0)
        shared = max(shared, rows.get(b"Shared_Clean", 0) + rows.get(b"Shared_Dirty", 0))
    return (private + shared) * 1024


def measure(cmd: list[str], cwd: Path, out: Path, env: dict, cpu_cap: float) -> dict:
    """Run one child to its end (or ``cpu_cap`` CPU-s); its peak RSS, CPU, puzzles and status."""
    out.unlink(missing_ok=True)
    proc = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    assert proc.stderr is not None
    os.set_blocking(proc.stderr.fileno(), False)
    err = b""
    tree_peak, status, killed = 0, 0, False
    while True:
        wpid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        err += proc.stderr.read() or b""
        if wpid:
            break
        tree_peak = max(tree_peak, _tree_memory(proc.pid))
        if not killed and _tree_cpu(proc.pid) > cpu_cap:
            killed = True
            os.killpg(proc.pid, signal.SIGKILL)
        time.sleep(0.005)
    err += proc.stderr.read() or b""
    code = os.waitstatus_to_exitcode(status)
    return {
        "rss_mb": max(ru.ru_maxrss * 1024, tree_peak) / 2**20,
        "cpu": ru.ru_utime + ru.ru_stime,
        "puzzles": _count_lines(out),
        "status": "cap" if killed else ("ok" if code == 0 else f"exit {code}"),
        "stderr": err.decode(errors="replace").strip().splitlines()[-1:]
        if code and not killed
        else [],
    }


def ours(spec: Path, a: argparse.Namespace, work: Path) -> dict:
    out = work / f"ours-{spec.stem}.jsonl"
    cmd = [sys.executable, "-m", "puzzleforge", "spec", "generate", str(spec), "--trust"]
    cmd += ["-n", str(a.n), "--seed", str(a.seed), "-o", str(out), "-q"]
    pypath = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0", "PYTHONPATH": pypath}
    return measure(cmd, work, out, env, a.cpu_cap)


def theirs(spec: Path, a: argparse.Namespace, ref_dir: Path) -> dict:
    out = ref_dir / "output" / f"{spec.stem}.jsonl"
    cmd = [str(REF_PY), "-W", "ignore", "translator.py", "-d", str(spec), "-n", str(a.n)]
    cmd += ["-o", str(out)]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)
    return measure(cmd, ref_dir, out, env, a.cpu_cap)


def print_row(row: dict) -> None:
    o, t = row["ours"], row["theirs"]
    note = []
    if row["ratio"] > 1:
        note.append("MORE-MEMORY")
    for side, r in (("ours", o), ("theirs", t)):
        if r["status"] != "ok":
            note.append(f"{side} {r['status']} {' '.join(r['stderr'])[:80]}".strip())
    print(
        f"{row['spec']:18} {o['rss_mb']:7.1f} ({o['puzzles']:3}) {t['rss_mb']:7.1f} "
        f"({t['puzzles']:3}) {row['ratio']:6.2f} {o['cpu']:6.1f} {t['cpu']:6.1f}  {'; '.join(note)}",
        flush=True,
    )


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs", default="", help="comma-separated spec stems (default: all 46)")
    ap.add_argument("-n", type=int, default=20, help="puzzles per run, the same for both")
    ap.add_argument("--cpu-cap", type=float, default=60.0, help="stop a run after this many CPU-s")
    ap.add_argument(
        "-j", "--jobs", type=int, default=1, help="specs measured at once (memory is per process)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", default="", help="also write the rows here")
    a = ap.parse_args(argv)
    if not REF_PY.exists() or not CORPUS.exists():
        sys.exit(f"needs {REF_PY} (see {REFERENCE}/REFERENCE.md) and {CORPUS}")
    specs = corpus_specs(a.specs)
    tmp = Path(tempfile.mkdtemp(prefix="spec-memory-"))
    ref_dir = reference_copy(tmp)
    print(f"-n {a.n} --cpu-cap {a.cpu_cap} --seed {a.seed}; load {os.getloadavg()[0]:.1f}")
    print(
        f"{'spec':18} {'ours MB (made)':>15} {'theirs MB (made)':>15} {'ratio':>6} "
        f"{'CPU-s ours':>6} {'theirs':>6}"
    )
    t0 = time.monotonic()

    def one(job: tuple[int, Path]) -> dict:
        k, spec = job
        if k % 2 == 0:
            o, t = ours(spec, a, tmp), theirs(spec, a, ref_dir)
        else:
            t, o = theirs(spec, a, ref_dir), ours(spec, a, tmp)
        row = {"spec": spec.stem, "ours": o, "theirs": t, "ratio": o["rss_mb"] / t["rss_mb"]}
        print_row(row)
        return row

    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        rows = list(pool.map(one, enumerate(specs)))
    if a.jobs > 1:
        print("\nin corpus order:")
        for row in rows:
            print_row(row)
    above = [r["spec"] for r in rows if r["ratio"] > 1]
    print(f"\n{len(rows)} specs; load {os.getloadavg()[0]:.1f}; {time.monotonic() - t0:.0f} s wall")
    print(f"more peak memory than the reference: {', '.join(above) or 'none'}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
