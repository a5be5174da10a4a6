"""The process sandbox of untrusted spec generation (spec/sandbox.py, spec/oslock.py).

These tests use the real worker process. To test the OS lock-down independently of the
expression evaluator, the white-box tests run arbitrary Python inside the worker: the
parent's requests are unpickled by the worker (the parent is trusted there), so a
request value whose ``__reduce__`` is ``exec`` runs its code in the locked-down worker,
exactly as code would that escaped the evaluator's allow-list. What that code reports
comes back inside the worker's error reply.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import random
import signal
import threading
from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec import sandbox, sandbox_process
from puzzleforge.spec.family import SafetyNetFailed, SpecParams, load_spec_family
from puzzleforge.spec.sandbox import SpecWorkerDied, live_worker_pids, worker_info

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "specs" / "knapsack.yaml"
CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"


class _RunInWorker:
    """A request value that, when the worker unpickles it, runs ``code`` there."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __reduce__(self):
        return (exec, (self.code, {}))


PROBE = r"""
import errno, json, os
out = {}
def attempt(name, fn):
    try:
        out[name] = "done: " + repr(fn())[:80]
    except BaseException as exc:
        out[name] = "refused: " + type(exc).__name__ + " " + str(getattr(exc, "errno", ""))
target = TARGET
attempt("open_w", lambda: open(target + "/a.txt", "w").write("x"))
attempt("open_a", lambda: open(target + "/b.txt", "a"))
attempt("os_open_creat", lambda: os.open(target + "/c.txt", os.O_CREAT | os.O_WRONLY))
attempt("open_rdwr_existing", lambda: os.open(target + "/existing.txt", os.O_RDWR))
attempt("open_w_tmp", lambda: open("/tmp/puzzleforge-sandbox-probe.txt", "w"))
attempt("mkdir", lambda: os.mkdir(target + "/d"))
attempt("unlink", lambda: os.unlink(target + "/existing.txt"))
attempt("rename", lambda: os.rename(target + "/existing.txt", target + "/moved.txt"))
attempt("symlink", lambda: os.symlink("/etc/passwd", target + "/link"))
attempt("chmod", lambda: os.chmod(target + "/existing.txt", 0o777))
attempt("truncate", lambda: os.truncate(target + "/existing.txt", 0))
attempt("fork", lambda: os.fork())
attempt("system", lambda: os.system("touch " + target + "/sys.txt") or "status 0")
attempt("execv", lambda: os.execv("/bin/sh", ["sh", "-c", "touch " + target + "/exec.txt"]))
attempt("posix_spawn", lambda: os.posix_spawn("/bin/sh", ["sh"], {}))
import subprocess
attempt("subprocess", lambda: subprocess.run(["/bin/true"]))
import socket
attempt("socket_inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
attempt("socket_unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
attempt("socketpair", lambda: socket.socketpair())
attempt("kill_parent", lambda: os.kill(os.getppid(), signal_no))
attempt("parent_environ", lambda: open("/proc/%d/environ" % os.getppid(), "rb").read())
attempt("big_alloc", lambda: len(bytearray(10 << 30)))
attempt("setrlimit_as", lambda: __import__("resource").setrlimit(
    __import__("resource").RLIMIT_AS, (-1, -1)))
out["environ"] = dict(os.environ)
out["uid"] = os.getuid()
raise RuntimeError("PROBE" + json.dumps(out) + "PROBE")
"""


def _run_probe(family, target: Path) -> dict:
    code = PROBE.replace("TARGET", repr(str(target))).replace("signal_no", str(int(signal.SIGTERM)))
    with pytest.raises(SpecWorkerDied) as info:
        family.generate(SpecParams(attempts=1), make_rng(0), config={"x": _RunInWorker(code)})
    text = str(info.value)
    assert "PROBE" in text, text
    return json.loads(text.split("PROBE")[1])


@pytest.fixture()
def fresh_workers():
    sandbox.shutdown_workers()
    yield
    sandbox.shutdown_workers()


def test_worker_reports_its_lock_down(fresh_workers) -> None:
    info = worker_info()
    assert info["seccomp"] is True
    assert info["rlimits"]["RLIMIT_FSIZE"] == 0
    assert info["rlimits"]["RLIMIT_NPROC"] == 0
    assert info["rlimits"]["RLIMIT_CORE"] == 0
    assert info["rlimits"]["RLIMIT_AS"] == sandbox_process.LIMITS.address_space
    if os.geteuid() == 0:
        assert info["root"] in (
            "nobody",
            "uid 0 without capabilities (nobody cannot read the Python installation)",
        )
    assert info["pid"] != os.getpid()


def test_code_running_in_the_worker_cannot_write_exec_connect_or_read_secrets(
    fresh_workers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUZZLEFORGE_TEST_SECRET", "s3cr3t-token")  # before the worker starts
    target = tmp_path / "t"
    target.mkdir()
    target.chmod(0o777)  # writable for the worker's uid too: only the lock-down stops it
    (target / "existing.txt").write_text("keep")
    (target / "existing.txt").chmod(0o666)
    fam = load_spec_family(EXAMPLE)
    out = _run_probe(fam, target)
    for name in (
        "open_w",
        "open_a",
        "os_open_creat",
        "open_rdwr_existing",
        "open_w_tmp",
        "mkdir",
        "unlink",
        "rename",
        "symlink",
        "chmod",
        "truncate",
        "fork",
        "execv",
        "posix_spawn",
        "subprocess",
        "socket_inet",
        "socket_unix",
        "socketpair",
        "kill_parent",
        "parent_environ",
        "big_alloc",
        "setrlimit_as",
    ):
        assert out[name].startswith("refused: "), (name, out[name])
    assert out["big_alloc"] == "refused: MemoryError "
    assert out["socket_inet"] == "refused: PermissionError 1"
    assert out["fork"] == "refused: PermissionError 1"
    # os.system does not raise: the C library reports the process it could not start as
    # "the shell exited with 127" (no process was made: clone failed with EPERM)
    assert out["system"] in ("done: 32512", "done: -1"), out["system"]
    # started with an empty environment (Python's C-locale coercion adds LC_CTYPE itself)
    assert set(out["environ"]) <= {"LC_CTYPE"} and "s3cr3t-token" not in json.dumps(out)
    assert sorted(p.name for p in target.iterdir()) == ["existing.txt"]
    assert (target / "existing.txt").read_text() == "keep"
    assert not Path("/tmp/puzzleforge-sandbox-probe.txt").exists()
    # the parent is alive and the same worker still serves
    pid = worker_info()["pid"]
    p = fam.generate(SpecParams(), make_rng(3))
    assert worker_info()["pid"] == pid
    assert fam.verify(p, p.answer) == 1.0


def test_c_level_infinite_loop_is_killed_at_the_deadline(fresh_workers) -> None:
    fam = load_spec_family(EXAMPLE)
    pid = worker_info()["pid"]
    with pytest.raises(SafetyNetFailed) as info:
        fam.generate(
            SpecParams(attempts=1, max_seconds=0.5),
            make_rng(0),
            config={"x": _RunInWorker("sum(iter(int, 1))")},
        )
    msg = str(info.value)
    assert str(EXAMPLE) in msg and "killed" in msg and "max_seconds = 0.5 s" in msg
    assert pid not in live_worker_pids()
    assert not Path(f"/proc/{pid}").exists()  # killed and reaped: no zombie
    p = fam.generate(SpecParams(), make_rng(3))  # a fresh worker
    assert worker_info()["pid"] != pid
    assert fam.verify(p, p.answer) == 1.0


def test_a_worker_that_dies_gives_a_clear_error_and_is_replaced(fresh_workers) -> None:
    fam = load_spec_family(EXAMPLE)
    pid = worker_info()["pid"]
    with pytest.raises(SpecWorkerDied) as info:
        fam.generate(
            SpecParams(attempts=1),
            make_rng(0),
            config={"x": _RunInWorker("import os; os.kill(os.getpid(), 9)")},
        )
    assert "killed by SIGKILL" in str(info.value) and str(EXAMPLE) in str(info.value)
    assert not Path(f"/proc/{pid}").exists()
    fam.generate(SpecParams(), make_rng(3))
    assert worker_info()["pid"] != pid


def test_worker_is_reused_across_calls_and_per_thread(fresh_workers) -> None:
    fam = load_spec_family(EXAMPLE)
    pids = set()
    for i in range(5):
        fam.generate(SpecParams(), make_rng(i))
        pids.add(worker_info()["pid"])
    assert len(pids) == 1
    seen: list[int] = []

    def in_thread() -> None:
        fam.generate(SpecParams(), make_rng(0))
        seen.append(worker_info()["pid"])

    t = threading.Thread(target=in_thread)
    t.start()
    t.join()
    gc.collect()
    assert seen and seen[0] not in pids
    assert seen[0] not in live_worker_pids()  # its thread ended: stopped and reaped
    assert not Path(f"/proc/{seen[0]}").exists()


def test_hostile_worker_reply_cannot_build_objects() -> None:
    class Evil:
        def __reduce__(self):
            return (os.system, ("true",))

    for payload in (pickle.dumps({"puzzle": Evil()}), pickle.dumps(random.Random())):
        with pytest.raises(pickle.UnpicklingError):
            sandbox_process._plain_loads(payload)
    assert sandbox_process._plain_loads(pickle.dumps({"a": [1, (2.5, None)], "b": {"x"}})) == {
        "a": [1, (2.5, None)],
        "b": {"x"},
    }


def _records(fam, seeds) -> list:
    out = []
    for s in seeds:
        rng = make_rng(s)
        try:
            out.append(fam.generate(SpecParams(attempts=3), rng).to_json())
        except GenerationFailed as exc:
            out.append(f"failed: {exc.reasons}")
        out.append(rng.random())  # the generator continues where it would in process
    return out


def test_sandboxed_generation_is_byte_identical_to_in_process() -> None:
    specs = [EXAMPLE, ROOT / "examples" / "specs" / "wine_merchant.yaml"]
    if CORPUS.exists():
        specs += [
            CORPUS / f"{s}.yaml" for s in ("5-knapsack", "10-student2", "38-linearprog", "44-chess")
        ]
    for spec in specs:
        trusted = _records(load_spec_family(spec, trust=True), range(4))
        sandboxed = _records(load_spec_family(spec), range(4))
        assert sandboxed == trusted, spec.name
        assert any(isinstance(r, str) and r.startswith("{") for r in trusted), spec.name


def test_forked_child_starts_its_own_worker(fresh_workers) -> None:
    import multiprocessing

    fam = load_spec_family(EXAMPLE)
    first = fam.generate(SpecParams(), make_rng(5)).to_json()
    parent_pid = worker_info()["pid"]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        child = pool.apply(_generate_in_child, (str(EXAMPLE),))
    assert child[0] == first
    assert child[1] != parent_pid
    assert worker_info()["pid"] == parent_pid  # the parent's worker was left alone
    assert fam.generate(SpecParams(), make_rng(5)).to_json() == first


def _generate_in_child(path: str) -> tuple[str, int]:
    fam = load_spec_family(path)
    return fam.generate(SpecParams(), make_rng(5)).to_json(), worker_info()["pid"]


def test_in_process_alarm_keeps_the_callers_timer() -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("SIGALRM timers exist in the main thread only")
    fired: list[int] = []

    def handler(*args) -> None:
        fired.append(1)

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 500.0)
        fam = load_spec_family(EXAMPLE, trust=True)
        fam.generate(SpecParams(), make_rng(1))
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < left <= 500.0
        assert signal.getsignal(signal.SIGALRM) is handler and not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_spec_text_is_sent_again_after_the_worker_dropped_it(fresh_workers, tmp_path: Path) -> None:
    from puzzleforge.spec import sandbox_worker

    copies = []
    for i in range(sandbox_worker._CACHE_SIZE + 2):  # more specs than the worker keeps
        p = tmp_path / f"k{i}.yaml"
        p.write_text(EXAMPLE.read_text())
        copies.append(load_spec_family(p))
    for fam in copies:
        fam.generate(SpecParams(), make_rng(1))
    again = copies[0].generate(SpecParams(), make_rng(2)).to_json()
    trusted = load_spec_family(tmp_path / "k0.yaml", trust=True)
    assert again == trusted.generate(SpecParams(), make_rng(2)).to_json()


def test_fails_closed_when_the_worker_cannot_start(
    fresh_workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    from puzzleforge.spec.oslock import Limits
    from puzzleforge.spec.sandbox import SandboxFailed

    # a limit setrlimit refuses: one lock-down layer cannot be applied
    monkeypatch.setattr(sandbox_process, "LIMITS", Limits(address_space=-5))
    fam = load_spec_family(EXAMPLE)
    with pytest.raises(SandboxFailed) as info:
        fam.generate(SpecParams(), make_rng(0))
    assert "cannot lock itself down: LockDownFailed: cannot set RLIMIT_AS" in str(info.value)
    assert "--trust" in str(info.value)
    assert live_worker_pids() == []


def test_a_worker_out_of_address_space_dies_alone(
    fresh_workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    from puzzleforge.spec.oslock import Limits

    # 64 MB: less than Z3 needs once the worker is locked down; it dies, the parent stays
    monkeypatch.setattr(sandbox_process, "LIMITS", Limits(address_space=64 << 20))
    fam = load_spec_family(EXAMPLE)
    with pytest.raises(SpecWorkerDied) as info:
        fam.generate(SpecParams(), make_rng(0))
    assert "64 MB address space" in str(info.value)
    assert live_worker_pids() == []


def test_cli_output_is_the_same_with_and_without_trust(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from puzzleforge.cli.main import app

    outs = []
    for extra in ([], ["--trust"]):
        out = tmp_path / f"v{len(extra)}.jsonl"
        r = CliRunner().invoke(
            app,
            [
                "spec",
                "generate",
                str(ROOT / "examples" / "specs" / "vase.yaml"),
                "-n",
                "4",
                "--seed",
                "21",
                "--out",
                str(out),
                "-q",
                *extra,
            ],
        )
        assert r.exit_code == 0, r.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") == 4
    # a replay of the sandboxed records, sandboxed again, rebuilds them
    r = CliRunner().invoke(
        app,
        [
            "spec",
            "generate",
            str(ROOT / "examples" / "specs" / "vase.yaml"),
            "--config",
            str(tmp_path / "v0.jsonl"),
            "-q",
        ],
    )
    assert r.exit_code == 0, r.output
    again = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    first = [json.loads(x) for x in outs[0].decode().splitlines()]
    assert [(a["problem"], a["answer"]) for a in again] == [
        (b["problem"], b["answer"]) for b in first
    ]


def test_worker_dies_with_its_parent(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    code = (
        "import os, sys\n"
        "from puzzleforge.spec.sandbox import worker_info\n"
        "print(worker_info()['pid'], flush=True)\n"
        "os._exit(0)  # no atexit, no cleanup: only PR_SET_PDEATHSIG stops the worker\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
    )
    pid = int(r.stdout.split()[0])
    for _ in range(200):  # the kernel's SIGKILL is immediate; init reaps the orphan
        if _state(pid) in (None, "Z", "X"):
            break
        time.sleep(0.05)
    assert _state(pid) in (None, "Z", "X")  # gone (or dead, waiting for init to reap it)


def _state(pid: int) -> str | None:
    """The process state letter of ``pid`` (None: no such process)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None
