"""One wall-clock alarm helper that leaves a caller's own timer exactly as it was.

Why: SIGALRM is the only way to interrupt runaway pure-Python work (a spec operator in
a loop, a selection that never ends), but the process has a single ITIMER_REAL. Library
code that sets it and then clears it on exit cancels the timer of whoever called it
(the batch runner's ``--timeout-per-item``, pytest-timeout, a user's own alarm). This
helper arms the timer only when its deadline comes before the caller's, and on exit
puts back the caller's SIGALRM handler and ITIMER_REAL with the time it has left and
its interval; when the caller's alarm is due first, nothing is touched at all, so it
fires on time with its own handler.

The alarm is a runaway stop, never a decision: what fires it fails the work loudly
(a budget that decides what is kept counts solver work, not seconds).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["wall_alarm"]


class wall_alarm:
    """Call ``on_fire()`` (which should raise) after ``seconds`` of wall-clock time.

    A context manager; outside the main thread, or where ``setitimer`` does not exist,
    it does nothing. ``active`` says whether this alarm armed the timer.
    """

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
        outer = signal.getitimer(signal.ITIMER_REAL)
        if outer[0] and outer[0] <= self.seconds:
            return self  # the caller's alarm comes first: leave it as it is
        self._outer = outer
        self._start = time.monotonic()
        self._old_handler = signal.signal(signal.SIGALRM, self._fire)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        self.active = True
        return self

    def _fire(self, signum: int, frame: Any) -> None:
        self.on_fire()

    def __exit__(self, *exc: Any) -> None:
        if not self.active:
            return
        self.active = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._old_handler)
        left, interval = self._outer
        if left:
            # the caller's timer, with the time that passed meanwhile taken off (it was
            # due after ours, so it is still in the future unless ours fired late)
            left = max(1e-6, left - (time.monotonic() - self._start))
            signal.setitimer(signal.ITIMER_REAL, left, interval)
