"""One limit model for every engine: CPU seconds (and memory) per solve, enforced by a
worker process the kernel stops.

Why a worker process: a runaway operation can sit in C (a SAT call, Z3, a big-integer
loop while a crossnumber file is parsed) where no Python-level check or signal handler
runs. The operation therefore runs in a forked child with ``RLIMIT_CPU`` (the kernel
sends SIGXCPU at the limit and SIGKILL two seconds later) and ``RLIMIT_AS``; the parent
waits, forwards the child's output and turns a stopped child into ``LimitExceeded``.

Why CPU seconds and not wall-clock: on a loaded machine wall time stretches while the
work done does not. The limit only stops runaway work, and then the whole operation
fails loudly (exit status 4); it never decides what is kept, so outputs stay
deterministic (budgets that decide, such as Z3 rlimits or conflict counts, live in the
engines).

The limits come from ``--cpu-limit`` / ``--memory-limit`` on the root command or from
``PUZZLEFORGE_CPU_LIMIT`` / ``PUZZLEFORGE_MEMORY_LIMIT_MB``; docs/limits.md lists them
with the size maxima that are checked before any work starts.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import pickle
import resource
import selectors
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .errors import PuzzleForgeError

__all__ = [
    "Limits",
    "LimitExceeded",
    "DEFAULT_CPU_SECONDS",
    "DEFAULT_MEMORY_MB",
    "LIMIT_EXIT",
    "current_limits",
    "set_limits",
    "run_limited",
    "in_worker",
    "limit_from_text",
    "is_limit",
]

#: CPU seconds one command, solve, generated puzzle or web request may use.
DEFAULT_CPU_SECONDS = 300.0
#: Address space of a worker in MiB (a runaway allocation ends as a clear error).
DEFAULT_MEMORY_MB = 4096
#: Exit status when a limit stopped the work before it finished (as an undecided search).
LIMIT_EXIT = 4
#: Seconds between the soft CPU limit (SIGXCPU) and the hard one (SIGKILL).
_HARD_GRACE = 2
#: Largest result a worker may send back.
_MAX_REPLY = 256 << 20

ENV_CPU = "PUZZLEFORGE_CPU_LIMIT"
ENV_MEMORY = "PUZZLEFORGE_MEMORY_LIMIT_MB"


class LimitExceeded(PuzzleForgeError):
    """The work was stopped by its CPU or memory limit (a loud failure, never a result)."""

    kind = "limit reached"
    exit_code = LIMIT_EXIT
    #: a batch stops at it: another seed in its place would depend on the machine's speed
    ends_run = True


@dataclass(frozen=True)
class Limits:
    """Bounds of one operation run by ``run_limited``.

    ``cpu_seconds``: CPU time of the worker (user + system). ``memory_mb``: its address
    space (None: unlimited).
    """

    cpu_seconds: float = DEFAULT_CPU_SECONDS
    memory_mb: int | None = DEFAULT_MEMORY_MB

    def scaled(self, factor: float) -> Limits:
        """The same limits with ``factor`` times the CPU seconds (``-n`` puzzles)."""
        return replace(self, cpu_seconds=self.cpu_seconds * max(1.0, factor))


def is_limit(exc: BaseException) -> bool:
    """True for an error saying a limit stopped the work (``LimitExceeded``, a spec's
    ``SafetyNetFailed``: exit status 4). Such an error must fail loudly where it happens:
    counted as a finding or a rejection, it would make an outcome depend on seconds."""
    return getattr(exc, "exit_code", None) == LIMIT_EXIT


def limit_from_text(text: str, what: str, *, whole: bool = False) -> float:
    """A positive finite number from an option or environment value, else a clear error."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0) or (whole and value != int(value)):
        raise PuzzleForgeError(
            f"{what} is {text!r}",
            field=what,
            expected=f"a {'whole' if whole else 'finite'} number > 0",
        )
    return value


_STATE: dict[str, Any] = {"limits": None, "in_worker": False}


def set_limits(limits: Limits | None) -> None:
    """Set the limits of this process's commands (the root CLI options); None: defaults."""
    _STATE["limits"] = limits


def current_limits() -> Limits:
    """The limits set by ``set_limits``, else from the environment, else the defaults."""
    if _STATE["limits"] is not None:
        return _STATE["limits"]
    cpu = os.environ.get(ENV_CPU)
    mem = os.environ.get(ENV_MEMORY)
    return Limits(
        cpu_seconds=limit_from_text(cpu, ENV_CPU) if cpu else DEFAULT_CPU_SECONDS,
        memory_mb=int(limit_from_text(mem, ENV_MEMORY, whole=True)) if mem else DEFAULT_MEMORY_MB,
    )


def in_worker() -> bool:
    """True inside a ``run_limited`` worker (nested calls run in place)."""
    return bool(_STATE["in_worker"])


def _streams_before_fork() -> list[tuple[str, Any]]:
    """Flush stdout/stderr before a fork (so nothing buffered is written twice) and name
    those without a real file descriptor (pytest's capture, a StringIO): a forked worker's
    writes to them must be forwarded through a pipe (here and in core/limitedworker.py)."""
    forward = [
        (name, stream)
        for name, stream in (("stdout", sys.stdout), ("stderr", sys.stderr))
        if not _real_fd(stream)
    ]
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    return forward


def _real_fd(stream: Any) -> bool:
    try:
        return isinstance(stream.fileno(), int)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False


def _child_setup(limits: Limits) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it kills us
    soft = max(1, math.ceil(limits.cpu_seconds))
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard == resource.RLIM_INFINITY or hard >= soft + _HARD_GRACE:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + _HARD_GRACE))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.memory_mb:
        want = limits.memory_mb << 20
        _, hard_as = resource.getrlimit(resource.RLIMIT_AS)
        if hard_as == resource.RLIM_INFINITY or hard_as >= want:
            resource.setrlimit(resource.RLIMIT_AS, (want, want))


class _PipeText(io.TextIOWrapper):
    """A text stream into a pipe whose name tells typer/click it is not a terminal."""


def run_limited(
    fn: Callable[..., Any],
    *args: Any,
    limits: Limits | None = None,
    what: str = "the operation",
    **kwargs: Any,
) -> Any:
    """``fn(*args, **kwargs)`` in a forked worker bounded by ``limits``; its result or its
    exception (pickled back); ``LimitExceeded`` when the kernel stopped it.

    Output the worker prints reaches this process's ``sys.stdout``/``sys.stderr``: the
    file descriptors are shared when they are real, otherwise (an in-process test runner)
    the text is forwarded through pipes. Inside a worker, or where ``fork`` is missing,
    ``fn`` runs in place.
    """
    limits = limits or current_limits()
    if in_worker() or not hasattr(os, "fork"):
        return fn(*args, **kwargs)
    forward = _streams_before_fork()
    res_r, res_w = os.pipe()
    pipes = {name: os.pipe() for name, _ in forward}
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child (its coverage is not collected)
        code = 0
        try:
            os.close(res_r)
            _STATE["in_worker"] = True
            for name, (r, w) in pipes.items():
                os.close(r)
                setattr(
                    sys,
                    name,
                    _PipeText(
                        os.fdopen(w, "wb"), encoding="utf-8", errors="replace", line_buffering=True
                    ),
                )
            _child_setup(limits)
            try:
                payload: tuple[str, Any] = ("ok", fn(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the parent
                payload = ("err", exc)
            try:
                data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - an unpicklable result is our bug
                data = pickle.dumps(
                    (
                        "err",
                        RuntimeError(f"the worker's {payload[0]} could not be sent back: {exc}"),
                    )
                )
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(BaseException):  # noqa: BLE001 - a closed reader (| head)
                    stream.flush()
            with os.fdopen(res_w, "wb") as out:
                out.write(data)
        except BaseException:  # noqa: BLE001
            code = 70
        finally:
            os._exit(code)
    os.close(res_w)
    for _, (_, w) in pipes.items():
        os.close(w)
    return _wait(pid, res_r, {pipes[name][0]: stream for name, stream in forward}, limits, what)


def _wait(pid: int, res_r: int, forwards: dict[int, Any], limits: Limits, what: str) -> Any:
    chunks: list[bytes] = []
    size = 0
    sel = selectors.DefaultSelector()
    sel.register(res_r, selectors.EVENT_READ)
    for fd in forwards:
        sel.register(fd, selectors.EVENT_READ)
    status = None
    try:
        open_fds = 1 + len(forwards)
        while open_fds:
            for key, _ in sel.select():
                fd = key.fd
                data = os.read(fd, 1 << 16)
                if not data:
                    sel.unregister(fd)
                    os.close(fd)
                    open_fds -= 1
                elif fd == res_r:
                    size += len(data)
                    if size > _MAX_REPLY:
                        raise LimitExceeded(
                            f"{what} produced a result larger than {_MAX_REPLY >> 20} MB",
                            expected="a smaller input",
                        )
                    chunks.append(data)
                else:
                    stream = forwards[fd]
                    stream.write(data.decode("utf-8", "replace"))
                    stream.flush()
        _, status, usage = os.wait4(pid, 0)
    except BaseException:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        raise
    finally:
        for key in list(sel.get_map().values()):
            sel.unregister(key.fd)
            os.close(key.fd)
        sel.close()
    used = usage.ru_utime + usage.ru_stime
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU or (
            sig == signal.SIGKILL and used >= max(1, math.ceil(limits.cpu_seconds)) - 0.5
        ):
            raise LimitExceeded(
                f"{what} was stopped at its limit of {limits.cpu_seconds:g} CPU seconds",
                expected="a smaller input, or a larger limit (--cpu-limit SECONDS on the "
                f"puzzleforge command, or {ENV_CPU})",
            )
        raise LimitExceeded(
            f"{what} was ended by signal {signal.Signals(sig).name} after {used:.1f} CPU "
            "seconds (the machine may have run out of memory)",
            expected="a smaller input, or more memory (--memory-limit MB on the puzzleforge "
            f"command, or {ENV_MEMORY})",
        )
    if not chunks:
        raise LimitExceeded(
            f"{what} ended without a result (exit status "
            f"{os.WEXITSTATUS(status)}, {used:.1f} CPU seconds)",
            expected="a smaller input",
        )
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "err":
        raise value
    return value
