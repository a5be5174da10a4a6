"""An objective with no optimum is a rejection, not an answer.

With a strict constraint active at the bound (``x < 1``), Z3's Optimize reports
``c - epsilon`` and a model at some arbitrary point below the supremum; the original tool
answers with that point's value, which is not the maximum the question asks for (and in
a reused context the point even moved with what the process had made before). Such an
attempt (and an unbounded objective) is rejected and retried, like "no solution".
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.solving import _attained

SPEC = (
    Path(__file__).resolve().parents[3] / "shared" / "corpus" / "puzzleclone" / "38-linearprog.yaml"
)
SEED = 1428231161632962517  # its bound is not reached; the old answer moved with history


def test_optimize_bound_with_epsilon_is_not_attained():
    x, y = z3.Reals("x y")
    opt = z3.Optimize()
    opt.add(x < 1, x > -5, y >= 0, y <= x)
    goal = opt.maximize(x + y)
    assert opt.check() == z3.sat
    assert not _attained(goal, opt.model().evaluate(x + y))
    opt2 = z3.Optimize()
    opt2.add(x <= 1, x > -5, y >= 0, y <= x)
    goal2 = opt2.maximize(x + y)
    assert opt2.check() == z3.sat
    assert _attained(goal2, opt2.model().evaluate(x + y))


@pytest.mark.skipif(not SPEC.exists(), reason="corpus spec not available")
def test_strict_optimum_is_rejected_fresh_or_busy():
    with pytest.raises(GenerationFailed) as fresh:
        load_spec_family(SPEC).generate(SpecParams(attempts=1), make_rng(SEED))
    assert fresh.value.reasons == {"optimum not attained": 1}
    busy = load_spec_family(SPEC)
    for seed in range(30):
        try:  # noqa: SIM105
            busy.generate(SpecParams(attempts=1), make_rng(seed))
        except GenerationFailed:  # rejected attempts are part of the history
            pass
    with pytest.raises(GenerationFailed) as again:
        busy.generate(SpecParams(attempts=1), make_rng(SEED))
    assert again.value.reasons == {"optimum not attained": 1}


STRICT_SPEC = """\
variables:
  names:
    formula: "['x', 'y']"
  bound:
    type: int
    domain: "[1, 5]"
symbols:
  r:
    source:
    - names
    type: float
conditions:
  box:
    formula: And(r['x'] {rel} bound, r['y'] >= 0, r['y'] <= r['x'])
optimize:
  type: maximize
  formula: r['x'] + r['y']
queries:
  q1:
    desc: Largest x + y?
    ans_formula: _value
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "x {rel} {{bound}}, 0 <= y <= x. {{q1}}"
"""


@pytest.mark.parametrize(
    "rel, reason", [("<", "optimum not attained"), (">=", "unbounded objective")]
)
def test_objective_without_optimum_is_rejected_with_reason(tmp_path, rel, reason):
    path = tmp_path / "strict.yaml"
    path.write_text(STRICT_SPEC.format(rel=rel), encoding="utf-8")
    with pytest.raises(GenerationFailed) as err:
        load_spec_family(path).generate(SpecParams(attempts=3), make_rng(1))
    assert err.value.reasons == {reason: 3}


def test_reached_bound_still_gives_the_optimum(tmp_path):
    path = tmp_path / "closed.yaml"
    path.write_text(STRICT_SPEC.format(rel="<="), encoding="utf-8")
    puzzle = load_spec_family(path).generate(SpecParams(attempts=1), make_rng(1))
    bound = int(puzzle.question.split("<= ")[1].split(",")[0])
    assert puzzle.answer == str(2 * bound)


UNIQUE_SPEC = """\
variables:
  names:
    formula: "['x', 'y']"
symbols:
  r:
    source:
    - names
    type: float
conditions:
  box:
    formula: And(r['x'] >= 0, r['y'] >= 0, 3 * r['x'] + 3 * r['y'] <= 1)
optimize:
  type: maximize
  formula: r['x'] + 2 * r['y']
queries:
  q1:
    desc: What is 3y at the optimum?
    ans_formula: _solutions.evaluate(3 * r['y'])
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "x, y >= 0, 3x + 3y <= 1, x + 2y is as large as possible. {q1}"
"""


def test_unique_real_optimum_evaluates_expressions_exactly(tmp_path):
    # the optimum is (0, 1/3): evaluated with the model 3y is exactly 1; through the
    # float value of y it would be 0.9999999999999999
    path = tmp_path / "unique.yaml"
    path.write_text(UNIQUE_SPEC, encoding="utf-8")
    puzzle = load_spec_family(path).generate(SpecParams(attempts=1), make_rng(4))
    assert puzzle.answer == "1.0"
