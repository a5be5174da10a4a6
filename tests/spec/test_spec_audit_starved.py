"""The audit's backstop does not fire on a thread that is only starved of CPU (issue 23).

Why: ``verify`` must print the same report on a loaded machine as on an idle one. The
backstop of a fresh audit context (spec/auditfresh.py ``CpuWatch``) used to be plain
wall-clock time, so a record whose solving thread waited for a core long enough came out
"undecided" at load 39 and "pass" at load 19. It now counts awake time (wall clock minus
the thread's run-queue wait). The test starves a real thread: a child process at nice 19
pinned to one core next to a busy sibling at nice 0 on the same core; the watched thread
spins until its CPU share is spent. Its wall-clock time is many times the backstop, so a
wall-clock net would fire; the awake-time net must not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

CHILD = r"""
import os, sys, time
from puzzleforge.spec.auditfresh import CpuWatch

class Kick:
    def __init__(self):
        self.kicked = False
    def interrupt(self):
        self.kicked = True

core = int(sys.argv[1])
os.sched_setaffinity(0, {core})
os.nice(19)
kick = Kick()
started = time.monotonic()
watch = CpuWatch(kick, 0.05, 0.2)   # 0.05 CPU-s share, 0.2 s backstop
while not kick.kicked and time.monotonic() - started < 120:
    sum(range(1000))
wall = time.monotonic() - started
used = watch.close()
print(watch.cpu_spent, watch.net_fired, round(wall, 2), round(used, 3), flush=True)
"""

SPIN = "import os, sys; os.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True: pass\n"


@pytest.mark.skipif(
    not Path("/proc/thread-self/schedstat").exists(), reason="no per-thread scheduler stats"
)
def test_a_starved_thread_spends_its_cpu_share_and_the_backstop_stays_quiet() -> None:
    core = sorted(os.sched_getaffinity(0))[0]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    spinner = subprocess.Popen([sys.executable, "-c", SPIN, str(core)])
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(core)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
    finally:
        spinner.kill()
        spinner.wait()
    cpu_spent, net_fired, wall, used = done.stdout.split()
    # starved: the share of 0.05 CPU-s took longer in wall-clock time than the 0.2 s
    # backstop (nice 19 next to nice 0 gets ~1.5 % of the core), so the old net would fire
    assert float(wall) > 0.2, done.stdout
    assert (cpu_spent, net_fired) == ("True", "False"), done.stdout
    assert float(used) >= 0.05
