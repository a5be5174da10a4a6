"""Re-check every case listed in issue 19's "Why" through the real CLI and a real server.

Usage: .venv/bin/python bench/limits_recheck.py [--only WORD]
Printed: one line per case: ok or REGRESSED, the exit status, the first line of the answer.
Each command runs as its own process (``python -m puzzleforge``) in a scratch folder
under a hard wall-clock timeout (a hang shows as REGRESSED, never as a stuck script); the
runaway cases get a small ``--cpu-limit``. The server cases start ``puzzleforge serve`` on
a free loopback port. Not a test (tests/core/test_limits.py, tests/fuzz and tests/web assert
the same behaviour exactly); this is the tester's pass over the issue, in one place.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from puzzleforge.core.cputime import child_pids

ROOT = Path(__file__).resolve().parents[1]
ABCD = ROOT / "examples" / "crossnumber" / "abcd.yaml"
PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "300"}
RESULTS: list[tuple[str, bool]] = []


def pf(cwd: Path, *args: str, stdin: str | None = None, timeout: float = 180) -> tuple:
    """(exit status, stdout, stderr) of ``puzzleforge ARGS`` run in ``cwd``."""
    try:
        done = subprocess.run(
            [PY, "-m", "puzzleforge", *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=ENV,
        )
    except subprocess.TimeoutExpired:
        return None, "", f"HUNG past {timeout:g} s"
    return done.returncode, done.stdout, done.stderr


def report(name: str, ok: bool, code: object, text: str) -> None:
    first = (text.strip().splitlines() or [""])[0][:150]
    RESULTS.append((name, ok))
    print(f"{'ok       ' if ok else 'REGRESSED'} {name:58s} exit {code}: {first}", flush=True)


def clean(code: object, out: str, err: str, want: set[int]) -> bool:
    """Exit status in ``want``; no traceback or internal error anywhere."""
    text = out + err
    return code in want and "Traceback" not in text and "internal error" not in text


def case(
    cwd: Path, name: str, args: list[str], want: set[int], extra: Callable[..., bool] | None = None
) -> None:
    code, out, err = pf(cwd, *args)
    ok = clean(code, out, err, want) and (extra is None or extra(out, err))
    report(name, ok, code, err or out)


def files_cases(tmp: Path) -> None:
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    case(tmp, "--out to a FIFO is refused", ["generate", "latin", "-n", "1", "-o", str(fifo)], {2})
    report("  ... the FIFO is still a FIFO", fifo.is_fifo(), "-", str(fifo))
    keep = tmp / "keep.jsonl"
    keep.write_text("precious\n")
    bad = tmp / "bad.yaml"
    bad.write_text("variables: [\n")
    case(
        tmp,
        "spec generate --out FILE with a failing spec",
        ["spec", "generate", str(bad), "-n", "1", "-o", str(keep)],
        {1, 2},
    )
    report("  ... FILE untouched", keep.read_text() == "precious\n", "-", keep.read_text())
    for opt in (["--backend", "foo"], ["--timeout-per-item", "nan"]):
        out = tmp / "start.jsonl"
        case(
            tmp,
            f"failed start {' '.join(opt)}",
            ["generate", "latin", "-n", "2", "-o", str(out), *opt],
            {2},
        )
        left = sorted(p.name for p in tmp.iterdir() if p.name.startswith("start"))
        report("  ... nothing left behind", left == [], "-", ", ".join(left) or "(none)")
    out = tmp / "fine.jsonl"
    case(tmp, "a good run", ["generate", "latin", "-n", "2", "-o", str(out), "-q"], {0})
    left = sorted(p.name for p in tmp.iterdir() if p.name.startswith("fine"))
    report(
        "  ... no .lock beside the output",
        not any(x.endswith(".lock") for x in left),
        "-",
        ", ".join(left),
    )


def unbounded_cases(tmp: Path) -> None:
    url = "https://puzz.link/p?nurikabe/100/100/3" + "z" * 499 + "y"
    case(
        tmp,
        "grid solve 100x100 puzz.link nurikabe",
        ["--cpu-limit", "3", "grid", "solve", url],
        {0, 4},
    )
    big = tmp / "big.txt"
    big.write_text("nurikabe 1000x1000\n" + ("." * 1000 + "\n") * 1000)
    for cmd in ("solve", "hint", "smtlib"):
        case(tmp, f"grid {cmd} 1000x1000 text", ["grid", cmd, str(big)], {2})
    case(
        tmp,
        "zebra generate -K 8 -k 8 --difficulty expert",
        ["--cpu-limit", "5", "zebra", "generate", "-K", "8", "-k", "8", "--difficulty", "expert"],
        {0, 2, 4},
    )
    primes = tmp / "primes.yaml"
    primes.write_text(ABCD.read_text().replace("max: 2000", "max: 10**18"))
    case(
        tmp,
        "crossnumber primes max 10**18 --time-limit 10",
        ["crossnumber", "solve", str(primes), "--time-limit", "10"],
        {2},
    )
    case(
        tmp,
        "--chunk-size -3",
        ["generate", "latin", "-n", "2", "--chunk-size", "-3", "-o", str(tmp / "c.jsonl")],
        {2},
    )
    case(
        tmp,
        "--workers 1000",
        ["generate", "latin", "-n", "2", "--workers", "1000", "-o", str(tmp / "w.jsonl")],
        {0, 2},
    )
    customs = tmp / "customs"
    customs.mkdir()
    (customs / "dbl.py").write_text("def dbl(x):\n    return 2 * x\n")
    body = (ROOT / "tests" / "spec" / "data" / "base.yaml").read_text()
    trusted = tmp / "dbl.yaml"
    trusted.write_text(
        "custom_operator:\n  dbl: customs/dbl.py\n"
        + body.replace('domain: "[2, 4]"', 'domain: "[2, dbl(2)]"')
    )
    made = pf(
        tmp,
        "spec",
        "generate",
        "dbl.yaml",
        "--trust",
        "-n",
        "1",
        "--max-seconds",
        "0.1",
        "-o",
        "t.jsonl",
        "-q",
    )
    if made[0] == 0:
        (customs / "dbl.py").write_text("def dbl(x):\n    sum(range(10**12))\n    return 2 * x\n")
        case(
            tmp,
            "verify --trust: an operator stuck in C",
            ["verify", "t.jsonl", "--trust", "--workers", "1"],
            {4},
            lambda out, err: "record 1: the spec's trusted worker (--trust)" in err,
        )
    else:
        report("verify --trust (setup)", False, made[0], made[2])
    case(
        tmp,
        "crossnumber solve --time-limit 0.5 (CPU)",
        ["crossnumber", "solve", str(ABCD), "--time-limit", "0.5"],
        {0},
    )


def wrong_answer_cases(tmp: Path) -> None:
    parquet = tmp / "bad.parquet"
    parquet.write_bytes(b"PAR1" + b"\x00" * 100)
    case(tmp, "corrupt Parquet (verify)", ["verify", str(parquet)], {1, 2})
    case(
        tmp,
        "--seed 2**70",
        ["generate", "latin", "-n", "1", "--seed", str(2**70), "-o", str(tmp / "s.jsonl")],
        {2},
    )
    for opt in (["-n", "0"], ["--workers", "0"], ["--workers", "-1"], ["--max-attempts", "0"]):
        case(
            tmp,
            f"generate {' '.join(opt)}",
            ["generate", "latin", *opt, "-o", str(tmp / "o.jsonl")],
            {2},
        )
    three = tmp / "three.txt"
    three.write_text("sudoku 4x4\n. . . .\n. . . .\n. . . .\n. . . .\n")
    case(
        tmp,
        "grid solve --count 1 (many solutions)",
        ["grid", "solve", str(three), "--count", "1"],
        {0},
        lambda out, err: "at least one solution" in out,
    )
    case(
        tmp,
        "truncated puzz.link body",
        ["grid", "solve", "https://puzz.link/p?nurikabe/10/10/3"],
        {2},
    )
    case(
        tmp,
        "slither/f flag",
        ["grid", "solve", "https://puzz.link/p?slither/f/5/5/abc"],
        {0, 2},
        lambda out, err: "bad size" not in err,
    )
    case(tmp, "crossnumber generate --size 6", ["crossnumber", "generate", "--size", "6"], {2})
    case(
        tmp,
        "crossnumber solve --time-limit 0",
        ["crossnumber", "solve", str(ABCD), "--time-limit", "0"],
        {2},
    )
    for opt in (["--density", "-1"], ["--limit", "-1"]):
        cmd = (
            ["grid", "generate", "nurikabe", *opt]
            if opt[0] == "--density"
            else ["crossnumber", "solve", str(ABCD), *opt]
        )
        case(tmp, f"{' '.join(cmd[:2])} {' '.join(opt)}", cmd, {2})
    grid2 = "grid: |\n  +--+--+\n  |1 :2 |\n  +::+::+\n  |3 :  |\n  +--+--+\n"
    for name, body in (
        ("division by zero in a clue (always 0)", "clues:\n  A1: D1 / (D2 - D2)\n"),
        (
            "division by zero over the variables' domain",
            "variables:\n  names: X\n  domain: 0..0\nclues:\n  A1: 10 / X\n",
        ),
        ("misspelt clue type", "clues:\n  A1: sqaure\n"),
        ("RecursionError (deep nesting)", "clues:\n  A1: " + "(" * 300 + "D1" + ")" * 300 + "\n"),
        ("MemoryError (huge power)", "clues:\n  A1: 2 ^ (10 ^ 9)\n"),
    ):
        bad_cn = tmp / "cn.yaml"
        bad_cn.write_text(grid2 + body + "  A3: square\n  D1: square\n  D2: square\n")
        # a power past every entry is a bounded, correct "0 solutions" (exit 1)
        huge = name.startswith("MemoryError")
        word = {"misspelt clue type": "'sqaure' (did you mean 'square'?)"}.get(name, "clues.A1")
        case(
            tmp,
            f"crossnumber: {name}",
            ["crossnumber", "solve", str(bad_cn)],
            {1} if huge else {2},
            lambda out, err, word=word, huge=huge: "0 solutions" in out if huge else word in err,
        )
    case(
        tmp,
        "overlong puzz.link body",
        ["grid", "solve", "https://puzz.link/p?nurikabe/3/3/" + "z" * 40],
        {2},
    )
    # config replay with a missing value
    rec = tmp / "rec.jsonl"
    spec = ROOT / "examples" / "specs" / "knapsack.yaml"
    code, out, err = pf(tmp, "spec", "generate", str(spec), "-n", "1", "-o", str(rec), "-q")
    if code == 0:
        record = json.loads(rec.read_text().splitlines()[0])
        config = dict(record["config"])
        config.pop(next(k for k in config if not k.startswith("_")))  # a drawn value
        cfg = tmp / "cfg.json"
        cfg.write_text(json.dumps(config))
        case(
            tmp,
            "config replay with a missing value",
            ["spec", "generate", str(spec), "--config", str(cfg), "-o", str(tmp / "r.jsonl")],
            {1, 2},
        )
        seeded = tmp / "seed.json"
        seeded.write_text(json.dumps({**record["config"], "_z3_seed": "x"}))
        case(
            tmp,
            "config replay with a bad _z3_seed",
            ["spec", "generate", str(spec), "--config", str(seeded), "-o", str(tmp / "z.jsonl")],
            {1, 2},
        )
    else:
        report("config replay with a missing value (setup)", False, code, err)
    # a broken pipe: `generate | head -1`
    pipe = subprocess.run(
        f"{PY} -m puzzleforge generate latin -n 300 -o - -q | head -1 >/dev/null",
        shell=True,
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=180,
        env=ENV,
    )
    report(
        "generate | head -1 (broken pipe)",
        "Broken pipe" not in pipe.stderr and "Traceback" not in pipe.stderr,
        pipe.returncode,
        pipe.stderr or "(quiet)",
    )


def kill_case(tmp: Path) -> None:
    """kill -9 of a quiet `generate -w 2` once its two pool workers run (children of the
    fork server): no orphan keeps the pipes, also while the killed command is not reaped
    (communicate() reads to EOF first)."""
    proc = subprocess.Popen(
        [PY, "-m", "puzzleforge", "generate", "zebra", "-n", "100000", "-w", "2"]
        + ["-o", str(tmp / "k.jsonl"), "--quiet"],
        cwd=tmp,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        start_new_session=True,
    )
    end = time.monotonic() + 300
    while time.monotonic() < end:
        workers = [g for c in child_pids(proc.pid) for g in child_pids(c)]
        if len(workers) >= 2:
            break
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=60)  # EOF only when every holder of the pipes is gone
        ok = True
    except subprocess.TimeoutExpired:
        ok = False
        os.killpg(proc.pid, signal.SIGKILL)
    report(
        "kill -9 of generate -w 2: no orphans keep the pipes", ok, "-", f"{len(workers)} workers"
    )


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def web_cases(tmp: Path) -> None:
    import httpx

    port = _port()
    server = subprocess.Popen(
        [PY, "-m", "puzzleforge", "serve", "--port", str(port)],
        cwd=tmp,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=ENV,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base, timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        r = httpx.post(
            f"{base}/api/datasets/upload",
            files={"file": ("x.jsonl", b"{}\n")},
            headers={"Origin": "http://evil.example"},
            timeout=30,
        )
        report("web: cross-origin multipart upload", r.status_code == 403, r.status_code, r.text)

        def chunks():
            block = b'{"family": "latin", "question": "q", "answer": "a"}\n' * 20000
            yield b'--b\r\nContent-Disposition: form-data; name="file"; filename="x.jsonl"\r\n\r\n'
            for _ in range(80 * 1024 * 1024 // len(block)):
                yield block
            yield b"\r\n--b--\r\n"

        try:
            r = httpx.post(
                f"{base}/api/datasets/upload",
                content=chunks(),
                timeout=60,
                headers={"content-type": "multipart/form-data; boundary=b"},
            )
            code = r.status_code
        except httpx.HTTPError:
            code = "closed"
        report("web: 80 MB chunked upload past the limit", code in (413, "closed"), code, "")
        primes = ABCD.read_text().replace("max: 2000", "max: 10**18")
        job = httpx.post(
            f"{base}/api/crossnumber/solve", json={"text": primes, "name": "p.yaml"}, timeout=30
        ).json()
        for _ in range(600):
            if job.get("status") != "running":
                break
            time.sleep(0.1)
            job = httpx.get(f"{base}/api/jobs/{job['id']}", timeout=30).json()
        report(
            "web: crossnumber primes 10**18",
            job.get("status") == "failed" and "variables.max" in json.dumps(job),
            job.get("status"),
            json.dumps(job.get("error", job))[:150],
        )
        text = httpx.post(
            f"{base}/api/crossnumber/example", json={"name": "powerplay"}, timeout=30
        ).json()["text"]
        job = httpx.post(
            f"{base}/api/crossnumber/play",
            json={"text": text, "name": "powerplay.yaml"},
            timeout=30,
        ).json()
        for _ in range(600):
            if job.get("status") != "running":
                break
            time.sleep(0.1)
            job = httpx.get(f"{base}/api/jobs/{job['id']}", timeout=30).json()
        token = job["result"]["token"]
        times = []
        for _ in range(10):
            t = time.monotonic()
            hint = httpx.post(
                f"{base}/api/crossnumber/{token}/hint", json={"values": {}}, timeout=60
            )
            times.append(time.monotonic() - t)
        times.sort()
        report(
            "web: hint (warm worker)",
            hint.status_code == 200,
            hint.status_code,
            f"median {times[5] * 1000:.0f} ms over 10",
        )
    finally:
        t = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
            report(
                "web: SIGTERM stops serve",
                True,
                server.returncode,
                f"in {time.monotonic() - t:.1f} s",
            )
        except subprocess.TimeoutExpired:
            server.kill()
            report("web: SIGTERM stops serve", False, "-", "still running after 15 s")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        code, out, err = pf(tmp, "serve", "--port", str(busy.getsockname()[1]), timeout=60)
        report(
            "web: busy port",
            code not in (0, None) and "already in use" in out + err and "http://" not in out,
            code,
            err or out,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="run only the groups whose name holds this word")
    args = ap.parse_args()
    groups = {
        "files": files_cases,
        "unbounded": unbounded_cases,
        "wrong": wrong_answer_cases,
        "kill": kill_case,
        "web": web_cases,
    }
    with tempfile.TemporaryDirectory() as folder:
        for name, fn in groups.items():
            if args.only and args.only not in name:
                continue
            sub = Path(folder) / name
            sub.mkdir()
            print(f"## {name}", flush=True)
            fn(sub)
    bad = [n for n, ok in RESULTS if not ok]
    print(f"\n{len(RESULTS) - len(bad)} ok, {len(bad)} regressed" + (f": {bad}" if bad else ""))


if __name__ == "__main__":
    main()
