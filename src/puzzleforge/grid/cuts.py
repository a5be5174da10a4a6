"""Lazy graph rules: the cut clauses a model violating connectivity, a single loop or the
island rule gets, so the engine can solve, cut and solve again.

Why apart from the engine: these are pure functions of a model (through ``truth``) and the
lazy items the lowering recorded; every cut is valid for every clue set (clue-dependent
cuts name the selector / presence literals they rely on), so cuts stay in the session.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from .topology import Cell

__all__ = ["lazy_cuts", "conn_cuts", "island_cuts", "loop_cuts"]

Truth = Callable[[int], bool]  # literal -> its value in the model at hand


def lazy_cuts(lazy: list, grid: Any, truth: Truth, new_var: Callable[[], int]) -> list[list[int]]:
    """Cut clauses the model at hand violates, one family per lazy rule (empty: the model
    satisfies every lazy rule)."""
    cuts: list[list[int]] = []
    for item in lazy:
        if item[0] == "conn":
            cuts.extend(conn_cuts(item[1], truth))
        elif item[0] == "islands":
            cuts.extend(island_cuts(item[2], item[3], item[4], truth))
        else:
            cuts.extend(loop_cuts(grid, item[1], item[2], truth, new_var))
    return cuts


def conn_cuts(items: list, truth: Truth) -> list[list[int]]:
    lit = dict(items)
    on = {e for e, lit in items if truth(lit)}
    comps = _components(on, lambda c: [n for n in _adj(c) if n in on])
    if len(comps) <= 1:
        return []
    out = []
    for k in comps:
        border = {n for c in k for n in _adj(c) if n in lit and n not in k}
        sep = [lit[b] for b in sorted(border)]
        k0 = min(k)
        for other in comps:
            if other is k:
                continue
            o = min(other)
            out.append([-lit[k0], -lit[o]] + sep)
    return out


def island_cuts(sels: dict, pres: dict, items: list, truth: Truth) -> list[list[int]]:
    """Cuts for "each group of members holds exactly one clue, equal to its size".

    Every cut names the clue selectors / presence literals it relies on, so it stays
    valid for any other clue set (the cuts are kept in the session)."""
    lit = dict(items)
    on = {e for e, lit in items if truth(lit)}
    out = []
    for comp in _components(on, lambda c: [n for n in _adj(c) if n in on]):
        border = sorted({n for c in comp for n in _adj(c) if n in lit and n not in comp})
        whole = [lit[b] for b in border] + [-lit[k] for k in sorted(comp)]
        clues = [c for c in sorted(comp) if truth(pres[c])]
        if not clues:
            out.append(whole + [pres[k] for k in sorted(comp)])
            continue
        if len(clues) >= 2:
            path = _path(comp, clues[0], clues[1])
            out.append([-pres[clues[0]], -pres[clues[1]]] + [-lit[x] for x in path])
            continue
        p = clues[0]
        v = next(v for v, lit in sels[p].items() if truth(lit))
        if len(comp) < v:
            out.append(whole + [-sels[p][v]])
        elif len(comp) > v:
            tree = _bfs_order(comp, p)[: v + 1]
            out.append([-sels[p][v]] + [-lit[t] for t in tree])
    return out


def loop_cuts(
    grid: Any, nodes: str, items: list, truth: Truth, new_var: Callable[[], int]
) -> list[list[int]]:
    ends = grid.edge_vertices if nodes == "vertices" else grid.edge_cells
    on = [(e, lit) for e, lit in items if truth(lit)]
    parent: dict = {}

    def find(x: Any) -> Any:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e, _ in on:
        a, b = ends(e)
        parent[find(a)] = find(b)
    groups: dict = {}
    for e, lit in on:
        groups.setdefault(find(ends(e)[0]), []).append(lit)
    if len(groups) <= 1:
        return []
    out = []
    for key in sorted(groups, key=repr):
        comp = groups[key]
        inside = set(comp)
        a = new_var()
        out.append([a] + [-lit for lit in comp])
        for _, lit in items:
            if lit not in inside:
                out.append([-a, -lit])
    return out


def _adj(c: Cell) -> list:
    return [Cell(c.r - 1, c.c), Cell(c.r + 1, c.c), Cell(c.r, c.c - 1), Cell(c.r, c.c + 1)]


def _bfs_order(nodes: set, start: Any) -> list:
    order, seen, queue = [start], {start}, deque([start])
    while queue:
        x = queue.popleft()
        for y in _adj(x):
            if y in nodes and y not in seen:
                seen.add(y)
                order.append(y)
                queue.append(y)
    return order


def _path(nodes: set, a: Any, b: Any) -> list:
    prev = {a: None}
    queue = deque([a])
    while queue:
        x = queue.popleft()
        if x == b:
            break
        for y in _adj(x):
            if y in nodes and y not in prev:
                prev[y] = x
                queue.append(y)
    out, x = [], b
    while x is not None:
        out.append(x)
        x = prev[x]
    return out


def _components(nodes: set, nbrs: Any) -> list[set]:
    seen: set = set()
    comps = []
    for start in sorted(nodes):
        if start in seen:
            continue
        comp = {start}
        seen.add(start)
        queue = deque([start])
        while queue:
            x = queue.popleft()
            for y in nbrs(x):
                if y not in seen:
                    seen.add(y)
                    comp.add(y)
                    queue.append(y)
        comps.append(comp)
    return comps
