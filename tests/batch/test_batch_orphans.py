"""After ``kill -9`` of ``puzzleforge generate ... -w 2`` no worker outlives it.

Issue 19: orphaned pool workers kept the caller's pipes open, so a caller that reads the
command's output to its end before reaping it (``subprocess.communicate()``) waited for
ever. The pool workers are children of the fork server, which stays up while any worker
holds its "alive" pipe, so they end by their watch thread (batch/backends.py
``die_with_parent``), which counts the killed command as gone while it is a zombie; the
spec sandbox workers below them end by their parent-death signal. Real processes, a
quiet run (nothing written to the pipes that could end a worker by SIGPIPE), the killed
command deliberately not reaped until the pipes closed. The timeouts only keep a failing
test from hanging; nothing is timed.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzleforge.core.cputime import child_pids

ROOT = Path(__file__).resolve().parents[2]
#: Generous bounds, only so that a regression fails instead of hanging the suite.
START_TIMEOUT = 300.0
END_TIMEOUT = 300.0


def _tree(pid: int) -> dict[int, int]:
    """Every live descendant of ``pid`` with its depth below it (1: a child)."""
    depth: dict[int, int] = {}
    stack = [(c, 1) for c in child_pids(pid)]
    while stack:
        child, d = stack.pop()
        if child not in depth:
            depth[child] = d
            stack += [(c, d + 1) for c in child_pids(child)]
    return depth


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


@pytest.mark.parametrize(
    "what, args, deepest",
    [
        # pool workers: grandchildren (CLI -> fork server -> worker)
        ("zebra", ["zebra", "-n", "100000"], 2),
        # + each worker's sandboxed spec worker below it
        ("spec", [str(ROOT / "examples" / "specs" / "knapsack.yaml"), "-n", "100000"], 3),
    ],
)
def test_kill_minus_nine_of_generate_leaves_no_worker(
    tmp_path: Path, what: str, args: list[str], deepest: int
) -> None:
    cmd = [sys.executable, "-m", "puzzleforge", "generate", *args]
    cmd += ["-w", "2", "-o", str(tmp_path / "out.jsonl"), "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        cmd,
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        # wait until two workers at the deepest level run (and their parents with them)
        end = time.monotonic() + START_TIMEOUT
        tree = _tree(proc.pid)
        while sum(d == deepest for d in tree.values()) < 2:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < end, f"{what}: the workers did not start: {tree}"
            time.sleep(0.2)
            tree = _tree(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)  # the command alone, not its group; not reaped
        assert proc.stdout is not None and proc.stderr is not None
        fds = {proc.stdout.fileno(), proc.stderr.fileno()}
        end = time.monotonic() + END_TIMEOUT
        while fds and time.monotonic() < end:
            ready, _, _ = select.select(list(fds), [], [], 1.0)
            for fd in ready:
                if not os.read(fd, 1 << 16):
                    fds.discard(fd)
        assert not fds, f"{what}: the caller's pipes are still open after the kill"
        # and every process of the run ends (a zombie waiting for init counts as gone;
        # a process may close its files a moment before it ends)
        left = [pid for pid in tree if _running(pid)]
        while left and time.monotonic() < end:
            time.sleep(0.2)
            left = [pid for pid in tree if _running(pid)]
        assert left == [], f"{what}: still running after the kill: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
