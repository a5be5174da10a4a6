"""CPU seconds of this process and of every process it started, live or finished.

Why not ``time.process_time()``: untrusted specs generate in a worker process
(spec/sandbox.py), and process pools run items in children, so the CPU a run costs is
spent largely outside this process; a measure that ignored it would hide the sandbox's
cost. ``RUSAGE_CHILDREN`` alone counts only children that have exited and been waited
for, while the spec workers live as long as their thread, so the live descendants' CPU
is read from ``/proc`` (Linux) and added.
"""

from __future__ import annotations

import os
import resource

__all__ = ["child_pids", "cpu_seconds", "process_cpu_seconds"]

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def child_pids(pid: int) -> list[int]:
    """The live children of ``pid`` (every thread's, Linux /proc); [] when it is gone.

    Public because tests and benches that check "no orphan survives" walk the same tree."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out += [int(x) for x in fh.read().split()]
        except (OSError, ValueError):
            continue
    return out


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used (Linux /proc), else None.

    Why a parent reads it: a worker's hard deadline is its CPU time (the one limit model,
    docs/limits.md), and the parent must also stop a worker whose kernel limit does not
    end it (work before the worker set its limit, or code that ignores SIGXCPU)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
        fields = data.rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime
    except (OSError, IndexError, ValueError):
        return None


def _live_descendants_seconds(pid: int) -> float:
    """utime + stime of the live descendants of ``pid`` (each counted once)."""
    total = 0.0
    stack = child_pids(pid)
    seen: set[int] = set()
    while stack:
        child = stack.pop()
        if child in seen:
            continue
        seen.add(child)
        try:
            with open(f"/proc/{child}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # fields[0] is the state (field 3); utime, stime are fields 14, 15
        total += (int(fields[11]) + int(fields[12])) / _TICKS
        stack += child_pids(child)
    return total


def cpu_seconds() -> float:
    """CPU seconds of this process + its finished children + its live descendants."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (
        own.ru_utime
        + own.ru_stime
        + done.ru_utime
        + done.ru_stime
        + _live_descendants_seconds(os.getpid())
    )
