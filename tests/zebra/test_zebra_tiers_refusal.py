"""Every tier at every size 3x3..8x8 is either offered or refused up front with its
reason (issue 22 item 1), and the API, the CLI and the web page refuse the same requests.

The expected table is written out here from the sweep recorded in docs/zebra.md
("Reachable tiers", bench/zebra_tiers.py), not read from tiers.py, so a change to the
refusal rule has to change this table and the measurement behind it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import puzzleforge
from puzzleforge.cli.main import app
from puzzleforge.core.errors import ConfigError
from puzzleforge.zebra.family import ZebraParams
from puzzleforge.zebra.tiers import TIER_ORDER, unreachable

SIZES = [(K, k) for K in range(3, 9) for k in range(3, 9)]

#: (K, k, tier) refused: small grids cannot need 5 refutations; large grids do not
#: reach the middle bands (docs/zebra.md, "Reachable tiers": 7x8 and 8x7 medium and
#: hard and Polish 7x7 medium ran past 95-120 CPU s a seed without a puzzle in the
#: session 10-11 sweeps).
REFUSED = {
    (3, 3, "expert"),
    (3, 4, "expert"),
    (4, 3, "expert"),
    (7, 7, "medium"),
    (7, 8, "medium"),
    (7, 8, "hard"),
    (8, 7, "medium"),
    (8, 7, "hard"),
    (8, 8, "medium"),
    (8, 8, "hard"),
}


def test_refusal_table() -> None:
    refused = {(K, k, t) for K, k in SIZES for t in TIER_ORDER if unreachable(K, k, t)}
    assert refused == REFUSED
    for K, k in SIZES:
        assert unreachable(K, k, None) is None


def _cli(K: int, k: int, tier: str):
    return CliRunner().invoke(
        app, ["zebra", "generate", "-K", str(K), "-k", str(k), "--difficulty", tier]
    )


@pytest.mark.parametrize("K,k,tier", sorted(REFUSED))
def test_a_refused_request_exits_2_with_one_paragraph(K: int, k: int, tier: str) -> None:
    """The CLI gives the refusal function's reason, before any work: exit code 2, one
    paragraph (a single line), no traceback; the API raises the same ConfigError."""
    why = unreachable(K, k, tier)
    assert why
    result = _cli(K, k, tier)
    assert result.exit_code == 2
    text = result.output.strip()
    assert "\n" not in text and "Traceback" not in text
    assert text.startswith("error (invalid parameters): ")
    assert f"difficulty='{tier}' at K={K}, k={k} is refused: {why}" in text
    with pytest.raises(ConfigError) as err:
        puzzleforge.generate("zebra", seed=0, K=K, k=k, difficulty=tier)
    assert why in str(err.value)


def test_offered_requests_pass_the_parameter_check() -> None:
    """Every request not in the table passes the check the CLI, the batch runner and the
    web page run first (the family's Params.validate), in both languages."""
    for K, k in SIZES:
        for tier in TIER_ORDER:
            if (K, k, tier) in REFUSED:
                continue
            for lang in ("en", "pl"):
                ZebraParams(K=K, k=k, difficulty=tier, lang=lang).validate()


def test_the_web_page_refuses_with_the_same_reason() -> None:
    """The page's generation goes through the same parameter check (sizes up to 6)."""
    from puzzleforge.web.zebra_adapter import generate_session

    for K, k, tier in sorted(REFUSED):
        if K > 6 or k > 6:
            continue
        with pytest.raises(ConfigError) as err:
            generate_session(
                "t", K=K, k=k, difficulty=tier, lang="en", seed=0, progress=lambda f, m: None
            )
        assert unreachable(K, k, tier) in str(err.value)


@pytest.mark.parametrize("K,k,tier,lang", [(8, 3, "expert", "pl"), (7, 5, "expert", "en")])
def test_a_size_first_swept_in_session_10_generates(K: int, k: int, tier: str, lang: str) -> None:
    """8x3 and 7x5 were offered before any sweep had tried them; the sweep generated
    every tier there. A real generation: the tier asked, and a fresh SAT session confirms
    exactly one solution and that removing any clue leaves at least two."""
    from puzzleforge.zebra import load
    from puzzleforge.zebra.exact import ExactChecker

    p = puzzleforge.generate("zebra", seed=0, K=K, k=k, lang=lang, difficulty=tier)
    zp = load(p)
    assert p.meta["tier"] == tier and zp.rating["tier"] == tier
    checker = ExactChecker(K, k)
    try:
        for n, clue in enumerate(zp.clues):
            checker.add_clue(clue, n)
        keys = list(range(len(zp.clues)))
        assert checker.solutions(keys, limit=2) == [zp.solution]
        for n in keys:
            assert checker.count([x for x in keys if x != n], limit=2) == 2
    finally:
        checker.close()
