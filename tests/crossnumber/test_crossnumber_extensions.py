"""Language pieces added for the published puzzles: '##' blocks in barred grids, fractional
powers, $dss, and the 'any' clue list's validation (values worked out by hand)."""

from __future__ import annotations

import pytest

from puzzleforge.core.errors import InvalidSpec
from puzzleforge.crossnumber import expr as ex
from puzzleforge.crossnumber.grid import parse_grid
from puzzleforge.crossnumber.model import parse_model

BARRED = """\
+--+--+--+
|1 :  :3 |
+::+--+::+
|  |##|  |
+::+--+::+
|4 :  :  |
+--+--+--+
"""


def test_block_cell_in_a_barred_grid_is_in_no_entry() -> None:
    g = parse_grid(BARRED)
    assert sorted(g.entries) == ["A1", "A4", "D1", "D3"]
    assert not g.white[1][1]
    assert all((1, 1) not in e.cells for e in g.entries.values())


def _value(text: str) -> int | None:
    comp = ex.compile_expr(ex.parse(text, clues=[], variables=[], field="f"))
    assert comp.single is not None
    return comp.single({})


@pytest.mark.parametrize(
    ("text", "want"),
    [("9^(3/2)", 27), ("8^(2/3)", 4), ("16^(3/4)", 8), ("2^(1/2)", None), ("3^(4/2)", 9)],
)
def test_fractional_power_is_exact_or_has_no_value(text: str, want: int | None) -> None:
    assert _value(text) == want


def test_digit_square_sum() -> None:
    assert _value("$dss(511)") == 27
    assert _value("$dss 1234") == 30


def test_any_clue_list_cannot_be_mixed_with_across() -> None:
    text = (
        "grid: |\n  ..\n  ..\nclues:\n  any:\n  - {clue: square, cells: 2}\n"
        "  across:\n  - {clue: prime, cells: 2}\n"
    )
    with pytest.raises(InvalidSpec, match="cannot be mixed"):
        parse_model(text, file="p.yaml")
