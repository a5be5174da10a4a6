"""Graph rules (``connected``, ``single_loop``, ``islands``): their static CNF part.

Why a module of its own: these rules have no compact CNF. Only what holds locally goes
into the clauses here (every loop vertex has degree 0 or 2, at least one loop edge, a
clue cell belongs to an island); the rest is recorded in ``Lowering.lazy`` for the
engine, which solves, finds the components of the model and adds cut clauses
(``grid.cuts``). The shape of each lazy item is the contract with the engine, the
grader and the DIMACS writer:

* ``("conn", [(entity, lit), ...])``
* ``("loop", nodes, [(edge, lit), ...])`` with ``nodes`` "vertices" or "cells"
* ``("islands", spec, {entity: {value: selector}}, {entity: presence}, [(entity, lit), ...])``
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["lower_graph"]


def lower_graph(low: Lowering, g: tuple) -> None:
    """The static clauses of graph rule ``g`` plus its lazy item."""
    if g[0] == "islands":
        spec = g[1]
        items = [(e, low.lit(x)) for e, x in g[2]]
        values = low.g.clue_values(spec)
        for e, lit in items:  # a clue cell belongs to an island
            low.emit([lit, -low.present(spec, e)])
        sels = {e: {v: low.selector(spec, e, v) for v in values} for e, _ in items}
        low.lazy.append(
            ("islands", spec, sels, low.presence_map(spec, [e for e, _ in items]), items)
        )
        return
    if g[0] == "conn":
        items = [(e, low.lit(x)) for e, x in g[1]]
        low.lazy.append(("conn", items))
        return
    nodes, items = g[1], [(e, low.lit(x)) for e, x in g[2]]
    grid = next(iter(low.g._grids.values()))
    incid: dict = {}
    for e, lit in items:
        ends = grid.edge_vertices(e) if nodes == "vertices" else grid.edge_cells(e)
        for v in ends:
            incid.setdefault(v, []).append(lit)
    for lits in incid.values():  # degree 0 or 2
        for i, lit in enumerate(lits):
            others = lits[:i] + lits[i + 1 :]
            low.emit([-lit] + others)
        for i in range(len(lits)):
            for j in range(i + 1, len(lits)):
                for k in range(j + 1, len(lits)):
                    low.emit([-lits[i], -lits[j], -lits[k]])
    low.emit([lit for _, lit in items])  # at least one edge
    low.lazy.append(("loop", nodes, items))
