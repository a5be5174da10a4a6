"""core/limitedworker.py: one forked worker runs many calls, each under its own CPU limit.

Real processes: the calls run in one child (its pid is not ours, and the same for every
call), state the target keeps advances from call to call as it would in place, errors
come back as themselves, output printed in the worker reaches our stdout, and a call stuck
inside one C call (``sum(range(10**12))``: no Python-level check runs there) is stopped by
the kernel at that call's limit, after which the next call gets a fresh worker. Code that
ignores SIGXCPU is killed by the parent past the limit + the hard grace, and a call
waiting without CPU past its wall-clock backstop is killed too. No wall-clock assertion
(the test's backstop is the call's own option, already in the past)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzleforge.core.limitedworker import LimitedWorker
from puzzleforge.core.limits import LIMIT_EXIT, LimitExceeded

_COUNT = {"calls": 0}


def _target(how: str, value: int = 0) -> tuple[int, int]:
    _COUNT["calls"] += 1
    if how == "fail":
        raise ValueError(f"no puzzle for {value}")
    if how == "spin":
        sum(range(10**12))
    if how == "deaf":  # code that ignores the kernel's SIGXCPU, then loops in C
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)
        sum(range(10**12))
    if how == "sleep":  # waits without using CPU
        time.sleep(3600)
    if how == "starve":  # at nice 19 on one core beside a busy process: starved of CPU
        os.sched_setaffinity(0, {value})
        os.nice(19)
        end = time.process_time() + 0.05
        while time.process_time() < end:
            pass
    if how == "say":
        print(f"worker says {value}")
    return os.getpid(), _COUNT["calls"]


def test_calls_share_one_worker_and_its_state() -> None:
    with LimitedWorker(_target) as worker:
        results = [worker.call("ok", cpu_seconds=30, what="a call") for _ in range(5)]
        assert worker.forks == 1
    pids = {pid for pid, _ in results}
    assert len(pids) == 1 and os.getpid() not in pids
    assert [n for _, n in results] == [1, 2, 3, 4, 5]
    assert _COUNT["calls"] == 0  # the calls ran in the worker, not here


def test_errors_and_output_come_back(capsys: pytest.CaptureFixture[str]) -> None:
    with LimitedWorker(_target) as worker:
        with pytest.raises(ValueError, match="^no puzzle for 7$"):
            worker.call("fail", 7, cpu_seconds=30, what="a call")
        assert worker.call("say", 3, cpu_seconds=30, what="a call")[1] == 2  # same worker
    assert capsys.readouterr().out == "worker says 3\n"


def test_work_stuck_in_c_is_stopped_at_the_calls_limit_and_the_worker_replaced() -> None:
    with LimitedWorker(_target) as worker:
        first = worker.call("ok", cpu_seconds=30, what="a call")
        with pytest.raises(LimitExceeded) as info:
            worker.call("spin", cpu_seconds=0.5, what="the spinning call")
        assert str(info.value).startswith(
            "the spinning call was stopped at its limit of 0.5 CPU seconds. Expected a "
            "smaller input, or a larger limit"
        )
        assert info.value.exit_code == LIMIT_EXIT
        again = worker.call("ok", cpu_seconds=30, what="a call")
        assert worker.forks == 2 and again[0] != first[0] and again[1] == 1


def test_code_that_ignores_sigxcpu_is_killed_past_the_hard_grace() -> None:
    with LimitedWorker(_target) as worker:
        with pytest.raises(LimitExceeded) as info:
            worker.call("deaf", cpu_seconds=0.5, what="the deaf call")
        assert str(info.value).startswith(
            "the deaf call was stopped at its limit of 0.5 CPU seconds. Expected a "
            "smaller input, or a larger limit"
        )
        assert worker.call("ok", cpu_seconds=30, what="a call")[1] == 1  # a fresh worker
        assert worker.forks == 2


def test_a_call_waiting_without_cpu_is_killed_at_its_wall_clock_backstop() -> None:
    with LimitedWorker(_target) as worker:
        with pytest.raises(LimitExceeded) as info:
            worker.call(
                "sleep", cpu_seconds=30, what="the sleeping call", wall_deadline=time.monotonic()
            )
        text = str(info.value)
        assert text.startswith("the sleeping call was still running past its wall-clock backstop")
        assert text.endswith(
            "CPU seconds (waiting on something without using CPU), and was killed. "
            "Expected work that finishes, or a larger limit."
        )
        assert info.value.exit_code == LIMIT_EXIT


@pytest.mark.skipif(
    not Path("/proc/thread-self/schedstat").exists(), reason="no per-thread scheduler stats"
)
def test_a_call_starved_of_cpu_is_not_killed_at_its_wall_clock_backstop() -> None:
    # the backstop counts the worker's awake time (core/cputime.py AwakeClock): a worker
    # that only waits for a core on a loaded machine is not stuck. The call needs 0.05
    # CPU-s at nice 19 beside a nice-0 spinner on its core (~1.5 % of the core), so its
    # wall-clock time passes the 1 s backstop; it must still end with its result.
    core = sorted(os.sched_getaffinity(0))[0]
    spin = "import os, sys; os.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True: pass\n"
    spinner = subprocess.Popen([sys.executable, "-c", spin, str(core)])
    try:
        with LimitedWorker(_target) as worker:
            started = time.monotonic()
            pid, _ = worker.call(
                "starve",
                core,
                cpu_seconds=30,
                what="the starved call",
                wall_deadline=time.monotonic() + 1.0,
            )
            wall = time.monotonic() - started
    finally:
        spinner.kill()
        spinner.wait()
    assert pid != os.getpid()
    assert wall > 1.0  # starved indeed: the old wall-clock backstop would have killed it
