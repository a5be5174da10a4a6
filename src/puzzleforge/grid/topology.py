"""Concrete grid topology: cells, edges, vertices and the sets a rule can range over.

Why separate from the IR: the IR only names sets symbolically (``grid.rows``); once the
Params are bound, the grounder asks a ``ConcreteGrid`` for the actual entities. Edge
``Edge('h', r, c)`` lies on top of cell (r, c) (between vertices (r, c) and (r, c+1));
``Edge('v', r, c)`` lies left of cell (r, c) (between vertices (r, c) and (r+1, c)).

>>> g = ConcreteGrid(2, 3)
>>> len(g.cells()), len(g.edges()), len(g.vertices())
(6, 17, 12)
>>> g.cell_edges(Cell(0, 0))
(Edge(o='h', r=0, c=0), Edge(o='h', r=1, c=0), Edge(o='v', r=0, c=0), Edge(o='v', r=0, c=1))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Cell", "Edge", "Vertex", "Line", "ConcreteGrid", "DIRECTIONS", "entity_kind"]

#: direction name -> (dr, dc)
DIRECTIONS = {"N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}


@dataclass(frozen=True, order=True)
class Cell:
    r: int
    c: int

    def __repr__(self) -> str:
        return f"Cell({self.r},{self.c})"


@dataclass(frozen=True, order=True)
class Edge:
    o: str
    r: int
    c: int


@dataclass(frozen=True, order=True)
class Vertex:
    r: int
    c: int

    def __repr__(self) -> str:
        return f"Vertex({self.r},{self.c})"


@dataclass(frozen=True)
class Line:
    """An ordered group of entities (a row, a column, a window, a box, a sight line)."""

    name: tuple
    items: tuple

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __repr__(self) -> str:
        return "Line" + repr(self.name)


def entity_kind(value: Any) -> str:
    if isinstance(value, Cell):
        return "cell"
    if isinstance(value, Edge):
        return "edge"
    if isinstance(value, Vertex):
        return "vertex"
    if isinstance(value, Line):
        return "line"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "value"


_T = TypeVar("_T")


def _per_grid(method: Callable[[ConcreteGrid], _T]) -> Callable[[ConcreteGrid], _T]:
    """Compute a board's entity set once and keep it on that board.

    Why not ``functools.cache`` on the method: its table is process-wide and holds every board
    ever asked for (a batch builds thousands); this cache lives and dies with its board.
    """
    name = method.__name__

    @functools.wraps(method)
    def cached(self: ConcreteGrid) -> _T:
        try:
            return self._sets[name]
        except KeyError:
            value = self._sets[name] = method(self)
            return value

    return cached


class ConcreteGrid:
    """All entity sets of an ``nR`` x ``nC`` board (computed on demand, cached)."""

    def __init__(self, nR: int, nC: int) -> None:
        self.nR, self.nC = nR, nC
        self._sets: dict[str, Any] = {}

    # -- basic sets ------------------------------------------------------------------
    @_per_grid
    def cells(self) -> tuple:
        return tuple(Cell(r, c) for r in range(self.nR) for c in range(self.nC))

    @_per_grid
    def edges(self) -> tuple:
        h = [Edge("h", r, c) for r in range(self.nR + 1) for c in range(self.nC)]
        v = [Edge("v", r, c) for r in range(self.nR) for c in range(self.nC + 1)]
        return tuple(h + v)

    @_per_grid
    def vertices(self) -> tuple:
        return tuple(Vertex(r, c) for r in range(self.nR + 1) for c in range(self.nC + 1))

    def has_cell(self, cell: Cell) -> bool:
        return 0 <= cell.r < self.nR and 0 <= cell.c < self.nC

    def has_edge(self, e: Edge) -> bool:
        if e.o == "h":
            return 0 <= e.r <= self.nR and 0 <= e.c < self.nC
        return 0 <= e.r < self.nR and 0 <= e.c <= self.nC

    def row(self, i: int) -> Line:
        return Line(("row", i), tuple(Cell(i, c) for c in range(self.nC)))

    def col(self, j: int) -> Line:
        return Line(("col", j), tuple(Cell(r, j) for r in range(self.nR)))

    @_per_grid
    def rows(self) -> tuple:
        return tuple(self.row(i) for i in range(self.nR))

    @_per_grid
    def cols(self) -> tuple:
        return tuple(self.col(j) for j in range(self.nC))

    @_per_grid
    def sight_lines(self) -> tuple:
        """Rows and columns seen from each side: ('W', i) reads row i left to right,
        ('E', i) right to left, ('N', j) column j top down, ('S', j) bottom up."""
        out = []
        for j in range(self.nC):
            out.append(Line(("N", j), self.col(j).items))
        for j in range(self.nC):
            out.append(Line(("S", j), tuple(reversed(self.col(j).items))))
        for i in range(self.nR):
            out.append(Line(("W", i), self.row(i).items))
        for i in range(self.nR):
            out.append(Line(("E", i), tuple(reversed(self.row(i).items))))
        return tuple(out)

    def boxes(self, bh: int, bw: int) -> tuple:
        out = []
        for br in range(0, self.nR, bh):
            for bc in range(0, self.nC, bw):
                out.append(
                    Line(
                        ("box", br // bh, bc // bw),
                        tuple(
                            Cell(r, c)
                            for r in range(br, min(br + bh, self.nR))
                            for c in range(bc, min(bc + bw, self.nC))
                        ),
                    )
                )
        return tuple(out)

    def blocks(self, bh: int, bw: int) -> tuple:
        """Every bh x bw sub-square (sliding), e.g. the 2x2 blocks of Nurikabe."""
        out = []
        for r in range(self.nR - bh + 1):
            for c in range(self.nC - bw + 1):
                out.append(
                    Line(
                        ("block", r, c),
                        tuple(Cell(r + i, c + j) for i in range(bh) for j in range(bw)),
                    )
                )
        return tuple(out)

    # -- incidence -------------------------------------------------------------------
    def cell_edges(self, cell: Cell) -> tuple:
        r, c = cell.r, cell.c
        return (Edge("h", r, c), Edge("h", r + 1, c), Edge("v", r, c), Edge("v", r, c + 1))

    def cell_edge(self, cell: Cell, d: str) -> Edge:
        r, c = cell.r, cell.c
        return {
            "N": Edge("h", r, c),
            "S": Edge("h", r + 1, c),
            "W": Edge("v", r, c),
            "E": Edge("v", r, c + 1),
        }[d]

    def cell_vertices(self, cell: Cell) -> tuple:
        r, c = cell.r, cell.c
        return (Vertex(r, c), Vertex(r, c + 1), Vertex(r + 1, c), Vertex(r + 1, c + 1))

    def vertex_edges(self, v: Vertex) -> tuple:
        cand = (
            Edge("h", v.r, v.c - 1),
            Edge("h", v.r, v.c),
            Edge("v", v.r - 1, v.c),
            Edge("v", v.r, v.c),
        )
        return tuple(e for e in cand if self.has_edge(e))

    def edge_vertices(self, e: Edge) -> tuple:
        if e.o == "h":
            return (Vertex(e.r, e.c), Vertex(e.r, e.c + 1))
        return (Vertex(e.r, e.c), Vertex(e.r + 1, e.c))

    def edge_cells(self, e: Edge) -> tuple:
        """(cell before, cell after): above/below for 'h', left/right for 'v' (may be off-grid)."""
        if e.o == "h":
            return (Cell(e.r - 1, e.c), Cell(e.r, e.c))
        return (Cell(e.r, e.c - 1), Cell(e.r, e.c))

    @_per_grid
    def inner_edges(self) -> tuple:
        return tuple(e for e in self.edges() if all(self.has_cell(x) for x in self.edge_cells(e)))

    @_per_grid
    def outside_edges(self) -> tuple:
        return tuple(
            e for e in self.edges() if sum(self.has_cell(x) for x in self.edge_cells(e)) == 1
        )

    def neighbors(self, cell: Cell, diagonal: bool = False) -> tuple:
        steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
        if diagonal:
            steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        out = (Cell(cell.r + dr, cell.c + dc) for dr, dc in steps)
        return tuple(x for x in out if self.has_cell(x))

    def sight(self, cell: Cell, blocked: Callable[[Cell], bool]) -> tuple:
        """The cell and every cell seen from it along its row and column up to a blocker."""
        out = [cell]
        for dr, dc in DIRECTIONS.values():
            r, c = cell.r + dr, cell.c + dc
            while self.has_cell(Cell(r, c)) and not blocked(Cell(r, c)):
                out.append(Cell(r, c))
                r, c = r + dr, c + dc
        return tuple(out)

    def windows(self, items: tuple, k: int, name: tuple = ()) -> tuple:
        return tuple(
            Line(name + ("win", i), tuple(items[i : i + k])) for i in range(len(items) - k + 1)
        )
