"""core/alarm.py: the wall-clock alarm fires inside its block and puts a caller's timer back.

Timer values are compared as bounds (never elapsed-time assertions): the caller's timer
must still be armed, no longer than it was, with its handler and interval unchanged.
"""

from __future__ import annotations

import signal
import time

import pytest

from puzzleforge.core.alarm import wall_alarm


class _Fired(Exception):
    pass


def _raise() -> None:
    raise _Fired()


def _outer_handler(signum, frame) -> None:  # noqa: ANN001 - signal handler signature
    raise AssertionError("the caller's alarm fired during the test")


@pytest.fixture()
def caller_timer():
    """A caller's own SIGALRM handler and a 100 s repeating ITIMER_REAL, removed afterwards."""
    previous = signal.signal(signal.SIGALRM, _outer_handler)
    saved = signal.setitimer(signal.ITIMER_REAL, 100.0, 50.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if saved[0]:
            signal.setitimer(signal.ITIMER_REAL, *saved)


def test_the_alarm_interrupts_a_loop_and_restores_the_callers_timer(caller_timer) -> None:
    with pytest.raises(_Fired), wall_alarm(0.05, _raise) as alarm:
        assert alarm.active
        while True:
            time.sleep(0.01)
    left, interval = signal.getitimer(signal.ITIMER_REAL)
    assert 0 < left <= 100.0 and interval == 50.0
    assert signal.getsignal(signal.SIGALRM) is _outer_handler


def test_an_earlier_caller_alarm_is_left_untouched(caller_timer) -> None:
    with wall_alarm(500.0, _raise) as alarm:
        assert not alarm.active
        assert signal.getsignal(signal.SIGALRM) is _outer_handler
    assert signal.getitimer(signal.ITIMER_REAL)[1] == 50.0


def test_without_a_caller_timer_nothing_stays_armed() -> None:
    before = signal.getsignal(signal.SIGALRM)
    saved = signal.setitimer(signal.ITIMER_REAL, 0)
    try:
        with wall_alarm(30.0, _raise) as alarm:
            assert alarm.active and signal.getitimer(signal.ITIMER_REAL)[0] > 0
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is before
    finally:
        if saved[0]:
            signal.setitimer(signal.ITIMER_REAL, *saved)


def test_the_cpu_alarm_stops_a_busy_loop_and_ignores_sleep() -> None:
    from puzzleforge.core.alarm import cpu_alarm

    before = signal.getsignal(signal.SIGPROF)
    # sleeping uses no CPU: a 0.05 CPU-second alarm does not fire during 0.2 s of sleep
    with cpu_alarm(0.05, _raise) as alarm:
        assert alarm.active and signal.getitimer(signal.ITIMER_PROF)[0] > 0
        time.sleep(0.2)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    start = time.process_time()
    with pytest.raises(_Fired), cpu_alarm(0.05, _raise):
        while True:
            pass
    # it did not fire early: the kernel samples CPU time in scheduler ticks, and at load ~25
    # the sampled figure ran more than one tick behind the timer (one failure in session 10),
    # so half the budget is the bound; the sleep above is what shows it counts CPU, not wall
    assert time.process_time() - start >= 0.05 / 2
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is before
