"""Geometry of the paper grid (seeds/003, Figure 1), shared by the SVG and PDF writers.

Columns are categories 1..K-1 left to right; rows are category 0 then K-1 down to 2, so
every pair of categories has exactly one box and the grid is the usual staircase.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GridLayout"]


@dataclass(frozen=True)
class GridLayout:
    K: int
    k: int
    cell: float
    label_w: float
    header_h: float

    @property
    def col_cats(self) -> list[int]:
        return list(range(1, self.K))

    @property
    def row_cats(self) -> list[int]:
        return [0] + list(range(self.K - 1, 1, -1))

    def boxes(self) -> list[tuple[int, int]]:
        """(row category, column category) of every box."""
        return [(r, c) for r in self.row_cats for c in self.col_cats if r == 0 or c < r]

    def box_origin(self, r: int, c: int) -> tuple[float, float]:
        x = self.label_w + self.col_cats.index(c) * self.k * self.cell
        y = self.header_h + self.row_cats.index(r) * self.k * self.cell
        return x, y

    def cell_origin(self, r: int, i: int, c: int, j: int) -> tuple[float, float]:
        x, y = self.box_origin(r, c)
        return x + j * self.cell, y + i * self.cell

    @staticmethod
    def box_of(cell: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A normalised cell (c1 < c2) as (row cat, row obj, col cat, col obj)."""
        c1, i1, c2, i2 = cell
        if c1 == 0:
            return (c1, i1, c2, i2)
        return (c2, i2, c1, i1)  # rows K-1..2 hold the larger category

    @property
    def width(self) -> float:
        return self.label_w + (self.K - 1) * self.k * self.cell

    @property
    def height(self) -> float:
        return self.header_h + (self.K - 1) * self.k * self.cell
