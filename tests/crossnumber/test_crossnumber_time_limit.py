"""The cross-number ``time_limit`` is a CPU-time net (docs/limits.md): reaching it is
reported as such (``timed_out``), and where a solve decides what is kept (generation,
the family's file mode) it fails loudly with ``LimitExceeded`` instead of counting a
rejection, so no output depends on the machine's speed.

The limits below are far under the CPU time of any search (1e-9 s), so the outcome does
not depend on load either."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzleforge.core.limits import LIMIT_EXIT, LimitExceeded
from puzzleforge.crossnumber import api
from puzzleforge.crossnumber.family import CrossNumberFamily, Params
from puzzleforge.crossnumber.solver import fail_if_timed_out, solve

REPO = Path(__file__).resolve().parents[2]
ABCD = REPO / "examples" / "crossnumber" / "abcd.yaml"


def test_a_search_stopped_by_its_cpu_limit_says_so() -> None:
    model = api.load_puzzle(ABCD)
    stopped = solve(model, limit=2, time_limit=1e-9, log_steps=False)
    assert (stopped.timed_out, stopped.complete, stopped.count) == (True, False, 0)
    done = solve(model, limit=2, time_limit=60, log_steps=False)
    assert (done.timed_out, done.complete, done.count) == (False, True, 1)
    assert fail_if_timed_out(done, "x", 60) is done
    with pytest.raises(LimitExceeded) as info:
        fail_if_timed_out(stopped, "solving abcd.yaml", 1e-9)
    assert str(info.value).startswith(
        "solving abcd.yaml was stopped at its limit of 1e-09 CPU seconds per solve"
    )
    assert info.value.exit_code == LIMIT_EXIT


def test_a_node_limit_is_a_budget_not_a_timeout() -> None:
    model = api.load_puzzle(ABCD)
    cut = solve(model, limit=2, time_limit=60, node_limit=0, log_steps=False)
    assert (cut.timed_out, cut.complete) == (False, False)


def test_the_family_fails_loudly_instead_of_rejecting_at_the_net() -> None:
    family = CrossNumberFamily()
    with pytest.raises(LimitExceeded, match="CPU seconds per solve"):
        family.generate(Params(source=str(ABCD), time_limit=1e-9), random.Random(0))
    ok = family.generate(Params(source=str(ABCD)), random.Random(0))
    assert ok.family == "crossnumber"


def test_explain_fails_loudly_instead_of_giving_cut_steps() -> None:
    family = CrossNumberFamily()
    record = family.generate(Params(source=str(ABCD)), random.Random(0))
    full = solve(api.load_puzzle(ABCD), limit=2, time_limit=60)
    assert family.explain(record) == [step.text for step in full.steps.steps]
    with pytest.raises(LimitExceeded) as info:
        family.explain(record, time_limit=1e-9)
    assert str(info.value) == (
        "explaining this cross-number puzzle was stopped at its limit of 1e-09 CPU seconds "
        "(0 search nodes) before the search finished, so no explanation is given (the steps "
        "so far would be incomplete). Expected a smaller puzzle, or `puzzleforge crossnumber "
        "solve FILE --steps --time-limit SECONDS` with a larger limit."
    )
    assert info.value.exit_code == LIMIT_EXIT
