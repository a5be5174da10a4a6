"""The measures that make the hard corpus specs generate (docs/spec.md "The hard corpus specs").

* the finite-domain pre-check (sampling.py) rejects contradictory condition sets at once
  and never changes an accepted puzzle;
* 68-cubic's integer systems are proven by spec/intbound.py (more in
  tests/spec/test_spec_intbound.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import z3

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec import columnmode
from puzzleforge.spec.family import load_spec_family
from puzzleforge.spec.model import _FINITE_KEY, _FINITE_TRIAL, _PRECHECK_KEY, _PRECHECK_TRIAL
from puzzleforge.spec.nonlinear import is_nonlinear_int

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"

CONTRADICTION = """\
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
  big:
    formula: x[0] + x[1] > 6
  small:
    formula: x[0] + x[1] < 4
queries:
  q1:
    desc: x0?
    ans_formula: get_value(_solutions[0], x[0])
    ans_text: str(_ans)
    ans_assertion: 'True'
desc: "{q1}"
"""


def _corpus(stem: str) -> Path:
    if not CORPUS.exists():
        pytest.skip(
            f"corpus folder {CORPUS} is absent (it lives in ../shared beside the repository)"
        )
    return CORPUS / f"{stem}.yaml"


def test_nonlinear_detection() -> None:
    x, y = z3.Ints("x y")
    ints = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    assert is_nonlinear_int([x * y == 6], ints)
    assert is_nonlinear_int([x**3 == 27], ints)
    assert is_nonlinear_int([x / y == 2], ints)
    assert not is_nonlinear_int([2 * x + y == 6, x - y > 1], ints)
    assert not is_nonlinear_int([x * y == 6], [z3.Z3_REAL_SORT, z3.Z3_INT_SORT])


def test_precheck_rejects_a_contradiction_with_its_reason(tmp_path: Path) -> None:
    spec = tmp_path / "contradiction.yaml"
    spec.write_text(CONTRADICTION, encoding="utf-8")
    for terms in (True, False):
        fam = load_spec_family(spec, trust=True)
        if not terms:  # spec/columnmode.py's "never solves" state: conditions go to Z3 at once
            fam._lambda_cache[columnmode._STATS_KEY] = [columnmode._TRIAL, 0]
            # ... and the finite evaluator's "never decides" state (spec/model.py), so the
            # Z3 model reaches the pre-check this test is about
            fam._lambda_cache[_FINITE_KEY] = [_FINITE_TRIAL, 0]
        with pytest.raises(GenerationFailed) as info:
            fam.generate(fam.Params(attempts=5), make_rng(1))
        assert info.value.reasons == {"no solution": 5}
        assert "rejections by reason: no solution: 5" in str(
            info.value
        )  # bounded effort, with statistics
        if terms:  # exhaustive evaluation of the finite space found it: no pre-check needed
            assert _PRECHECK_KEY not in fam._lambda_cache
        else:
            assert fam._lambda_cache[_PRECHECK_KEY] == [
                5,
                5,
            ]  # every attempt stopped by the pre-check


@pytest.mark.parametrize("stem", ["20-gaokao", "14-hunting"])
def test_precheck_never_changes_an_accepted_puzzle(stem: str) -> None:
    """Same seeds with and without the pre-check: same puzzles, same rejection reasons."""
    path = _corpus(stem)
    outcomes = []
    for enabled in (True, False):
        fam = load_spec_family(path, trust=True)
        # the finite evaluator would decide these models before any pre-check (spec/model.py
        # ``_finite_decides``; tests/spec/test_spec_finite_first.py): off, to compare the pre-check
        fam._lambda_cache[_FINITE_KEY] = [_FINITE_TRIAL, 0]
        # likewise the term model (SAT from the terms, spec/termsat.py): a Z3 model
        fam._lambda_cache[columnmode._STATS_KEY] = [columnmode._TRIAL, 0]
        if not enabled:
            fam._lambda_cache[_PRECHECK_KEY] = [_PRECHECK_TRIAL, 0]  # the "never helps" state
        got = []
        for attempt in range(16):
            try:
                p = fam.generate(
                    fam.Params(attempts=1), make_rng(derive_seed(9, fam.name, 0, attempt))
                )
                got.append(("puzzle", p.question, p.answer))
            except GenerationFailed as exc:
                got.append(("rejected", *sorted(exc.reasons)))
        outcomes.append(got)
        if enabled:
            checks, contradictions = fam._lambda_cache[_PRECHECK_KEY]
            assert contradictions > 0  # these specs reject most attempts as contradictory
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "puzzle" for o in outcomes[0])


def test_cubic_gives_proven_puzzles() -> None:
    """68-cubic's attempts are decided by spec/intbound.py (issue 16, session 13): a
    puzzle, or a rejection as ``too many solutions`` when ``if_plus4 = 0`` leaves ``x4``
    free (infinitely many solutions over the symbols); never ``uniqueness undecided``."""
    fam = load_spec_family(_corpus("68-cubic"), trust=True)
    made, reasons = 0, {}
    for attempt in range(12):
        try:
            fam.generate(fam.Params(attempts=1), make_rng(derive_seed(1, fam.name, 0, attempt)))
            made += 1
        except GenerationFailed as exc:
            for k, v in exc.reasons.items():
                reasons[k] = reasons.get(k, 0) + v
    assert set(reasons) <= {"too many solutions"}
    assert made + sum(reasons.values()) == 12
    assert made >= 1
