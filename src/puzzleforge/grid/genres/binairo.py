"""Binairo / Takuzu: Unruly's rules plus "no two rows (columns) are equal", written in the
DSL with integer-range quantifiers over pairs of row indices."""

from __future__ import annotations

from ..ir import Implies, Range, exists, forall
from ..model import Model
from .unruly import Unruly, binary_rules

__all__ = ["Binairo"]


class Binairo(Unruly):
    id = "binairo"
    tier_sizes = {
        "hard": (
            8,
            40,
            "failed-literal probing solved every minimal puzzle the generator made at these "
            "sizes, so none grades 3.x (search)",
        ),
    }
    title = "Binairo (Takuzu)"
    summary = (
        "Binairo/Takuzu: 0/1 grid, balanced lines, no three alike, all rows and columns distinct"
    )
    rules_doc = Unruly.rules_doc + " No two rows are equal and no two columns are equal."

    def build_rules(self) -> Model:
        m, grid, color, _ = binary_rules("binairo")
        nR, nC = grid.nR, grid.nC
        m.add(
            forall(
                Range(0, nR),
                lambda i: forall(
                    Range(0, nR),
                    lambda j: Implies(
                        i < j,
                        exists(
                            Range(0, nC), lambda k: color[grid.cell(i, k)] != color[grid.cell(j, k)]
                        ),
                    ),
                ),
            ),
            "rows distinct",
        )
        m.add(
            forall(
                Range(0, nC),
                lambda i: forall(
                    Range(0, nC),
                    lambda j: Implies(
                        i < j,
                        exists(
                            Range(0, nR), lambda k: color[grid.cell(k, i)] != color[grid.cell(k, j)]
                        ),
                    ),
                ),
            ),
            "columns distinct",
        )
        return m
