"""The pre-check's trial rule (spec/sampling.py): stop early when it costs more than solving.

A spec whose pre-checks find no contradiction stops pre-checking after _PRECHECK_MIN
checks if the passed pre-checks cost more Z3 work units than all the solving of their
attempts (a finite-domain spec that the exhaustive path solves with no Z3 work), and
otherwise keeps the full _PRECHECK_TRIAL; the rule counts units, so two fresh families
given the same seeds make the same decisions. (post_generation specs are never pre-checked:
their scenario check is the same satisfiability question, spec/model.py.)
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec import columnmode
from puzzleforge.spec.family import load_spec_family
from puzzleforge.spec.model import (
    _FINITE_KEY,
    _FINITE_TRIAL,
    _PRECHECK_KEY,
    _PRECHECK_MIN,
    _PRECHECK_TRIAL,
    PRECHECK_COST_KEY,
)

ROOT = Path(__file__).resolve().parents[2]

SATISFIABLE = """\
variables:
  n:
    type: int
    domain: "[3, 5]"
symbols:
  x:
    source:
    - list(range(n))
    type: int
conditions:
  bounds:
    formula: And([And(v >= 0, v <= 9) for v in x])
  some:
    formula: x[0] + x[1] > 6
queries:
  q1:
    desc: x0?
    ans_formula: get_value(_solutions[0], x[0])
    ans_text: str(_ans)
    ans_assertion: 'True'
max_solution: 100000
desc: "{q1}"
"""


def _run(fam, n: int) -> None:  # noqa: ANN001
    for i in range(n):
        with contextlib.suppress(GenerationFailed):
            fam.generate(fam.Params(attempts=1), make_rng(derive_seed(5, fam.name, 0, i)))


def test_costly_pre_checks_without_contradiction_stop_after_the_minimum(tmp_path: Path) -> None:
    spec = tmp_path / "sat.yaml"
    spec.write_text(SATISFIABLE, encoding="utf-8")
    costs = []
    # run something else first in this thread: the pre-check's context belongs to the family,
    # so what ran before must not change its units
    _run(load_spec_family(ROOT / "examples" / "specs" / "knapsack.yaml", trust=True), 3)
    for _ in range(2):  # two fresh families, same seeds: the same decisions
        fam = load_spec_family(spec, trust=True)
        fam._lambda_cache[columnmode._STATS_KEY] = [columnmode._TRIAL, 0]  # conditions go to Z3
        fam._lambda_cache[_FINITE_KEY] = [_FINITE_TRIAL, 0]  # ... and to the pre-check itself
        _run(fam, 12)
        checks, contradictions = fam._lambda_cache[_PRECHECK_KEY]
        pre, solving = fam._lambda_cache[PRECHECK_COST_KEY]
        assert (checks, contradictions) == (_PRECHECK_MIN, 0)
        assert pre > 0 and solving == 0  # the exhaustive path solves with no Z3 work
        costs.append((pre, solving))
    # the pre-check runs in the family's own context, new with the family: two fresh
    # families spend exactly the same units
    assert costs[0] == costs[1]


@pytest.mark.parametrize("cost, runs", [([1, 10], True), ([10, 1], False), (None, True)])
def test_the_cost_comparison_decides_after_the_minimum(tmp_path: Path, cost, runs: bool) -> None:  # noqa: ANN001
    spec = tmp_path / "sat.yaml"
    spec.write_text(SATISFIABLE, encoding="utf-8")
    fam = load_spec_family(spec, trust=True)
    fam._lambda_cache[columnmode._STATS_KEY] = [columnmode._TRIAL, 0]  # conditions go to Z3
    fam._lambda_cache[_FINITE_KEY] = [_FINITE_TRIAL, 0]  # ... and to the pre-check itself
    fam._lambda_cache[_PRECHECK_KEY] = [_PRECHECK_MIN, 0]
    if cost is not None:
        fam._lambda_cache[PRECHECK_COST_KEY] = list(cost)
    _run(fam, 1)
    assert fam._lambda_cache[_PRECHECK_KEY][0] == (_PRECHECK_MIN + 1 if runs else _PRECHECK_MIN)


def test_the_full_trial_still_ends_pre_checks(tmp_path: Path) -> None:
    spec = tmp_path / "sat.yaml"
    spec.write_text(SATISFIABLE, encoding="utf-8")
    fam = load_spec_family(spec, trust=True)
    fam._lambda_cache[columnmode._STATS_KEY] = [columnmode._TRIAL, 0]
    fam._lambda_cache[_FINITE_KEY] = [_FINITE_TRIAL, 0]
    fam._lambda_cache[_PRECHECK_KEY] = [_PRECHECK_TRIAL, 0]
    fam._lambda_cache[PRECHECK_COST_KEY] = [1, 10]  # cheap, but the trial is over
    _run(fam, 1)
    assert fam._lambda_cache[_PRECHECK_KEY] == [_PRECHECK_TRIAL, 0]
