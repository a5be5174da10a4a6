"""core/cputime.cpu_seconds counts live and finished children (the sandboxed spec worker)."""

from __future__ import annotations

import subprocess
import sys
import time

from puzzleforge.core.cputime import cpu_seconds

#: the child burns this much CPU (by its own clock), then reports and waits
BURN = "import sys, time\nwhile time.process_time() < 0.3: pass\nprint('ok', flush=True)\nsys.stdin.read()\n"


def test_cpu_seconds_includes_a_live_child_and_then_the_finished_one() -> None:
    before = cpu_seconds()
    own_before = time.process_time()
    child = subprocess.Popen(
        [sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline() == "ok\n"
        live = cpu_seconds() - before
        assert live >= 0.29  # the child's 0.3 s (clock ticks of 10 ms) while it still runs
    finally:
        child.stdin.close()
        child.wait()
    done = cpu_seconds() - before
    assert done >= 0.29  # now counted among the finished children
    assert done >= time.process_time() - own_before
