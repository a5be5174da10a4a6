"""Alarms (wall-clock and CPU time) that leave a caller's own timer exactly as it was.

Why: SIGALRM is the only way to interrupt runaway pure-Python work (a spec operator in
a loop, a selection that never ends), but the process has a single ITIMER_REAL. Library
code that sets it and then clears it on exit cancels the timer of whoever called it
(the batch runner's ``--timeout-per-item``, pytest-timeout, a user's own alarm). This
helper arms the timer only when its deadline comes before the caller's, and on exit
puts back the caller's SIGALRM handler and ITIMER_REAL with the time it has left and
its interval; when the caller's alarm is due first, nothing is touched at all, so it
fires on time with its own handler.

``cpu_alarm`` is the same on the process's CPU clock (``ITIMER_PROF``, SIGPROF): the
CPU limit model of docs/limits.md for work that runs in this process (a batch attempt
under ``--timeout-per-item``, a spec attempt under its per-puzzle net). It stops
Python-level loops; work stuck inside C is stopped by the worker's kernel limit
(core/limits.py), which is what "the worker's hard deadline" means.

The alarm is a runaway stop, never a decision: what fires it fails the work loudly
(a budget that decides what is kept counts solver work, not seconds).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["wall_alarm", "cpu_alarm"]


class wall_alarm:
    """Call ``on_fire()`` (which should raise) after ``seconds`` of wall-clock time.

    A context manager; outside the main thread, or where ``setitimer`` does not exist,
    it does nothing. ``active`` says whether this alarm armed the timer.
    """

    #: which interval timer and the signal it sends (ITIMER_REAL: wall-clock, SIGALRM)
    _timer_name = "ITIMER_REAL"
    _signal_name = "SIGALRM"
    _clock = staticmethod(time.monotonic)

    def __init__(self, seconds: float, on_fire: Callable[[], Any]) -> None:
        self.seconds = max(1e-6, float(seconds))
        self.on_fire = on_fire
        self.active = False
        self._old_handler: Any = None
        self._outer: tuple[float, float] = (0.0, 0.0)
        self._start = 0.0

    def __enter__(self) -> wall_alarm:
        if threading.current_thread() is not threading.main_thread() or not hasattr(
            signal, "setitimer"
        ):
            return self
        self._timer = getattr(signal, self._timer_name)
        self._signum = getattr(signal, self._signal_name)
        outer = signal.getitimer(self._timer)
        if outer[0] and outer[0] <= self.seconds:
            return self  # the caller's alarm comes first: leave it as it is
        self._outer = outer
        self._start = self._clock()
        self._old_handler = signal.signal(self._signum, self._fire)
        signal.setitimer(self._timer, self.seconds)
        self.active = True
        return self

    def _fire(self, signum: int, frame: Any) -> None:
        self.on_fire()

    def __exit__(self, *exc: Any) -> None:
        if not self.active:
            return
        self.active = False
        signal.setitimer(self._timer, 0)
        signal.signal(self._signum, self._old_handler)
        left, interval = self._outer
        if left:
            # the caller's timer, with the time that passed meanwhile taken off (it was
            # due after ours, so it is still in the future unless ours fired late)
            left = max(1e-6, left - (self._clock() - self._start))
            signal.setitimer(self._timer, left, interval)


class cpu_alarm(wall_alarm):
    """Call ``on_fire()`` after ``seconds`` of this process's CPU time (user + system,
    every thread: ``ITIMER_PROF``); otherwise exactly like ``wall_alarm``.

    Why CPU time: on a loaded machine the wall time of the same work stretches, its CPU
    time does not, so the limit stops the same runaway work on an idle or a busy machine.
    """

    _timer_name = "ITIMER_PROF"
    _signal_name = "SIGPROF"
    _clock = staticmethod(time.process_time)
