"""Where public specs outside our corpus spent their attempts (each fix has a spec of its own).

18-numbers asks for a number that becomes a square after adding one amount and another
square after adding a second: nonlinear integer constraints whose first model Z3 finds
at once, while the following "is there a second solution?" check is undecidable in
general. That check used to run until the attempt's whole budget was gone (every attempt
was rejected for time); then an undecided check kept the puzzle (the original's rule),
and 13 of 25 such puzzles had a second answer. Now (issue 23) an undecided check rejects
the attempt as "uniqueness undecided", and a spec whose checks keep ending undecided is
stopped after UNDECIDED_LIMIT of them with a clear error. A draw with a second solution
is still rejected as "too many solutions".
Real Z3 throughout; no wall-clock assertions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec.family import UNDECIDED_LIMIT, SpecParams, UndecidedSpec, load_spec_family

DATA = Path(__file__).resolve().parent / "data" / "unseen"


def test_nonlinear_undecided_uniqueness_is_rejected_never_emitted():
    # m = 100: 144 = 12**2, 125 = 5**3 (Mordell's a**2 = b**3 + 19); Z3 cannot prove that
    # no other number fits, and spec/intbound.py does not claim the shape: no puzzle
    family = load_spec_family(DATA / "mordell.yaml")
    with pytest.raises(GenerationFailed) as info:
        family.generate(SpecParams(attempts=3, attempt_seconds=5.0), make_rng(1))
    assert info.value.reasons.get("uniqueness undecided", 0) >= 1
    assert set(info.value.reasons) <= {"uniqueness undecided", "time limit"}


def test_spec_whose_checks_stay_undecided_is_stopped():
    family = load_spec_family(DATA / "mordell.yaml")
    with pytest.raises(UndecidedSpec) as info:
        family.generate(SpecParams(attempts=60, attempt_seconds=1.0), make_rng(1))
    assert info.value.reasons["uniqueness undecided"] == UNDECIDED_LIMIT == 20
    assert "proven unique" in str(info.value)


def test_nonlinear_draw_with_a_second_solution_is_still_rejected():
    # 45 = 1*45 = 3*15: m = 454 (22**2, 23**2) and m = 6 (6**2, 9**2) both fit
    family = load_spec_family(DATA / "two_squares_twice.yaml")
    with pytest.raises(GenerationFailed) as info:
        family.generate(SpecParams(attempts=2, attempt_seconds=8.0), make_rng(1))
    assert "too many solutions: 2" in str(info.value)
