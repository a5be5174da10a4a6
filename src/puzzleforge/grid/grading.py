"""Difficulty proxy: how much reasoning the clues need, in three levels.

Why a module of its own: grading is the part of generation that decides tiers, and for
region and loop genres it must reason about the graph rules, which the CNF holds only
lazily (connectivity cuts are learnt during solving, so unit propagation alone cannot
see that a wall must stay connected, and every Nurikabe or Slitherlink came out "hard").

Levels (the number before the point):
  1 = *propagation* fixes every answer entry: unit propagation of the rule encoding from
      the clues, interleaved to a fixpoint with the graph deductions below;
  2 = *probing* is needed: assume one value of an open entry, propagate; if that
      contradicts, the opposite value holds (failed literal); repeat to a fixpoint;
  3 = *search* is needed (probing stalls or a probe refutes both values).
The fraction after the point is the share of entries the cheaper level left open
(x.99 = it decided nothing), so 2.10 is "probing, but propagation did 90%".

A genre may add its own sound deductions to the closure (``Genre.deductions``, stored as
``comp.deduce``): Kakurasu solves each line's weighted sum exactly (which cells every
shading of the line that reaches its sum agrees on), the step a person starts with and
which the CNF's adders hardly propagate.

Graph deductions (sound, each a human step of the genre):
  connected(S):  the known members must lie in one piece of members-or-unknown cells
                 (else contradiction); unknown cells outside that piece are non-members;
                 an unknown cell whose removal would cut two known members apart (an
                 articulation point) is a member.
  islands(...):  a known island with two clues, or larger than its clue, is a
                 contradiction; an island with as many cells as its clue is closed
                 (unknown neighbours are walls); an unknown cell touching two clued
                 islands is a wall; a cell no clue can reach within its remaining size
                 (walking through unknown and unclued white cells) is a wall; a clue that
                 cannot reach its size, or an unclued white island no clue can reach, is a
                 contradiction.
  single_loop:   a closed cycle while other loop segments exist is a contradiction; an
                 unknown edge joining the two ends of one path is off while another path
                 exists; once one cycle is closed every unknown edge is off.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["grade", "closure", "entry_lits", "at_most", "clues_of"]


def entry_lits(comp: Any) -> list[list[int]]:
    """Per answer entry, its value literals (bool: [lit, -lit]; int: eq literals)."""
    out = []
    for _, _, rep, _ in comp.answer:
        if isinstance(rep, int):
            out.append([rep, -rep])
        else:
            out.append([lit for _, lit in sorted(rep.eq.items(), key=lambda kv: repr(kv[0]))])
    return out


def closure(comp: Any, assumptions: list[int]) -> tuple[bool, set[int]]:
    """Unit propagation and graph deductions to a common fixpoint: (consistent, known)."""
    derived: list[int] = []
    deduce = getattr(comp, "deduce", None)
    while True:
        ok, lits = comp.propagate(assumptions + derived)
        if not ok:
            return False, lits
        if not comp.low.lazy and deduce is None:
            return True, lits
        new = _graph_step(comp, lits) if comp.low.lazy else []
        if new is None:
            return False, lits
        if deduce is not None:  # a genre's own human steps (Kakurasu: line sums)
            more = deduce(lits)
            if more is None:
                return False, lits
            new = new + more
        new = sorted({lit for lit in new if lit not in lits}, key=lambda lit: (abs(lit), lit))
        if not new:
            return True, lits
        if any(-lit in lits for lit in new):
            return False, lits
        derived += new


def clues_of(comp: Any, assumptions: list[int]) -> dict:
    """The clues ``{spec: {place: value}}`` behind selector assumptions (what a genre's
    technique grader reads; other literals are ignored)."""
    inverse = getattr(comp, "_clue_of_lit", None)
    if inverse is None:
        inverse = {
            lit: (name, place, value)
            for name, table in comp._selector_tables().items()
            for (place, value), lit in table.items()
        }
        comp._clue_of_lit = inverse
    out: dict = {name: {} for name in comp.specs}
    for lit in assumptions:
        hit = inverse.get(lit)
        if hit is not None:
            out[hit[0]][hit[1]] = hit[2]
    return out


def at_most(comp: Any, assumptions: list[int], level: int) -> bool:
    """Is the grade below ``level + 1``? Cheaper than ``grade`` for the easy tier (one
    closure, no probing), which the generator asks after every accepted removal."""
    if level >= 3:
        return True
    technique = getattr(comp, "technique", None)
    if technique is not None:
        return bool(technique(clues_of(comp, assumptions), level) < level + 1)
    ok, lits = closure(comp, assumptions)
    if ok and comp.answer_decided(lits) >= 1.0:
        return True
    return level >= 2 and grade(comp, assumptions) < 3


def grade(comp: Any, assumptions: list[int], max_rounds: int = 50) -> float:
    """The difficulty proxy of the module doc for a clue set (as assumptions); a genre's
    technique grade instead where it has one (``Genre.technique_grader``)."""
    technique = getattr(comp, "technique", None)
    if technique is not None:
        return float(technique(clues_of(comp, assumptions), 3))
    ok, lits = closure(comp, assumptions)
    if not ok:
        return 0.0
    frac = comp.answer_decided(lits)
    if frac >= 1.0:
        return 1.0
    known = set(lits)
    # Only the failed literals' conclusions are passed on: everything else in ``known``
    # follows from them again by the same closure, and short assumption lists keep each
    # probe cheap (a 10x10 Skyscrapers has a thousand value literals).
    learned: list[int] = []
    entries = [lit for group in entry_lits(comp) for lit in group if abs(lit) != comp.low.T]
    for _ in range(max_rounds):
        changed = False
        for lit in entries:
            if lit in known or -lit in known:
                continue
            base = assumptions + learned
            ok2, _ = closure(comp, base + [lit])
            if not ok2:
                ok3, more = closure(comp, base + [-lit])
                if not ok3:
                    return 3.0
                learned.append(-lit)
                known |= set(more)
                changed = True
        if comp.answer_decided(known) >= 1.0:
            return round(2.0 + (1.0 - frac) * 0.99, 3)
        if not changed:
            break
    return round(3.0 + (1.0 - comp.answer_decided(known)) * 0.99, 3)


# -- graph deductions ------------------------------------------------------------------
def _graph_step(comp: Any, lits: set[int]) -> list[int] | None:
    """New literals implied by the lazy graph rules under ``lits``; None = contradiction."""
    T = comp.low.T

    def val(lit: int) -> bool | None:
        if abs(lit) == T:
            return lit > 0
        if lit in lits:
            return True
        if -lit in lits:
            return False
        return None

    out: list[int] = []
    for item in comp.low.lazy:
        if item[0] == "conn":
            got = _conn(_plain(item)[0], val)
        elif item[0] == "islands":
            items, sels, pres = _plain(item)
            got = _islands(sels, pres, items, val)
        else:
            got = _loop(comp.grid, item[1], item[2], val)
        if got is None:
            return None
        out += got
    return out


#: id(lazy item) -> (plain versions, item): cells as (row, col) tuples, hashed and
#: compared far faster than Cell objects in the flood fills run for every probe.
_PLAIN: dict = {}


def _plain(item: tuple) -> tuple:
    key = id(item)
    hit = _PLAIN.get(key)
    if hit is None:
        if len(_PLAIN) >= 32:
            _PLAIN.pop(next(iter(_PLAIN)))
        items = [((e.r, e.c), lit) for e, lit in item[-1]]
        sels = pres = None
        if item[0] == "islands":
            sels = {(e.r, e.c): d for e, d in item[2].items()}
            pres = {(e.r, e.c): lit for e, lit in item[3].items()}
        hit = _PLAIN[key] = ((items, sels, pres), item)
    return hit[0]


def _adj(c: tuple) -> tuple:
    r, k = c
    return ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))


def _pieces(nodes: set) -> list[set]:
    seen: set = set()
    out = []
    for s in sorted(nodes):
        if s in seen:
            continue
        comp, queue = {s}, deque([s])
        seen.add(s)
        while queue:
            x = queue.popleft()
            for y in _adj(x):
                if y in nodes and y not in seen:
                    seen.add(y)
                    comp.add(y)
                    queue.append(y)
        out.append(comp)
    return out


def _conn(items: list, val: Callable) -> list[int] | None:
    lit = dict(items)
    on = {e for e, lit in items if val(lit) is True}
    if not on:
        return []
    open_ = {e for e, lit in items if val(lit) is None}
    alive = on | open_
    pieces = [p for p in _pieces(alive) if p & on]
    if len(pieces) > 1:
        return None
    piece = pieces[0]
    out = [-lit[e] for e in sorted(open_ - piece)]
    out += [lit[e] for e in _cut_cells(piece, on) if e in open_]
    return out


def _cut_cells(nodes: set, marked: set) -> list:
    """Cells of ``nodes`` whose removal separates two ``marked`` cells (iterative DFS,
    low-links; a child subtree holding a marked cell, cut off by ``u``, while a marked
    cell lies outside it)."""
    total = len(marked)
    if total < 2:
        return []
    root = min(nodes)
    disc: dict = {root: 0}
    low: dict = {root: 0}
    below: dict = {root: 1 if root in marked else 0}
    cut: set = set()
    stack = [(root, None, iter(sorted(_adj(root))))]
    t = 1
    while stack:
        u, parent, it = stack[-1]
        advanced = False
        for v in it:
            if v not in nodes or v == parent:
                continue
            if v in disc:
                low[u] = min(low[u], disc[v])
                continue
            disc[v] = low[v] = t
            t += 1
            below[v] = 1 if v in marked else 0
            stack.append((v, u, iter(sorted(_adj(v)))))
            advanced = True
            break
        if advanced:
            continue
        stack.pop()
        if parent is not None:
            low[parent] = min(low[parent], low[u])
            below[parent] += below[u]
            if (
                low[u] >= disc[parent]
                and below[u] > 0
                and total - below[u] - (1 if parent in marked else 0) > 0
            ):
                cut.add(parent)
    return sorted(cut - marked)


def _islands(sels: dict, pres: dict, items: list, val: Callable) -> list[int] | None:
    lit = dict(items)
    white = {e for e, lit in items if val(lit) is True}
    open_ = {e for e, lit in items if val(lit) is None}
    clue: dict = {}
    if any(val(lit) is None for lit in pres.values()):
        return []  # clues not all settled (never in grading, where clues are assumptions)
    for p, lit_ in pres.items():
        if val(lit_) is True:
            vs = [v for v, s in sels[p].items() if val(s) is True]
            if vs:
                clue[p] = vs[0]
    out: list[int] = []
    owner: dict = {}
    comps = _pieces(white)
    for i, comp in enumerate(comps):
        cl = [c for c in comp if c in clue]
        if len(cl) > 1:
            return None
        if cl:
            v = clue[cl[0]]
            if len(comp) > v:
                return None
            for c in comp:
                owner[c] = i
            if len(comp) == v:
                out += [-lit[n] for c in sorted(comp) for n in _adj(c) if n in open_]
    # an unknown cell touching two clued islands joins them: a wall
    for c in sorted(open_):
        if len({owner[n] for n in _adj(c) if n in owner}) > 1:
            out.append(-lit[c])
    # reach: from each clued island, walk through unknown / unclued white cells
    reach: set = set()
    clued = {i for i in owner.values()}
    for i in sorted(clued):
        comp = comps[i]
        v = clue[next(c for c in comp if c in clue)]
        budget = v - len(comp)
        dist = {c: 0 for c in comp}
        queue = deque(sorted(comp))
        size = len(comp)
        while queue:
            x = queue.popleft()
            if dist[x] >= budget:
                continue
            for y in _adj(x):
                if y in dist or y not in lit or y in owner or val(lit[y]) is False:
                    continue
                dist[y] = dist[x] + 1
                size += 1
                queue.append(y)
        if size < v:
            return None
        reach |= set(dist)
    if not clue:
        return out
    for comp in comps:
        if not any(c in owner for c in comp) and not comp & reach:
            return None
    out += [-lit[c] for c in sorted(open_ - reach)]
    return out


def _loop_index(grid: Any, nodes: str, items: list) -> tuple[list[tuple[int, int]], int]:
    """Each edge's two end nodes as small integers (computed once per rule set: the
    union-find below runs for every probe, and hashing entities dominated it)."""
    ends = grid.edge_vertices if nodes == "vertices" else grid.edge_cells
    ids: dict = {}
    pairs = []
    for e, _ in items:
        a, b = ends(e)
        pairs.append((ids.setdefault(a, len(ids)), ids.setdefault(b, len(ids))))
    return pairs, len(ids)


#: (id(grid), nodes, id(items)) -> (index, grid, items); the entry keeps grid and items
#: alive so their ids cannot be reused by other objects while cached.
_LOOP_INDEX: dict = {}


def _loop(grid: Any, nodes: str, items: list, val: Callable) -> list[int] | None:
    key = (id(grid), nodes, id(items))
    if key not in _LOOP_INDEX:
        if len(_LOOP_INDEX) >= 32:
            _LOOP_INDEX.pop(next(iter(_LOOP_INDEX)))
        _LOOP_INDEX[key] = (_loop_index(grid, nodes, items), grid, items)
    (pairs, count), _, _ = _LOOP_INDEX[key]
    state = [val(lit) for _, lit in items]
    if True not in state:
        return []
    parent = list(range(count))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    touched = set()
    for (a, b), st in zip(pairs, state, strict=True):
        if st is True:
            touched.add(a)
            touched.add(b)
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
    edges: dict = {}
    for (a, _), st in zip(pairs, state, strict=True):
        if st is True:
            r = find(a)
            edges[r] = edges.get(r, 0) + 1
    verts: dict = {}
    for x in touched:
        r = find(x)
        verts[r] = verts.get(r, 0) + 1
    cycles = [r for r in edges if edges[r] >= verts[r]]
    if cycles and len(edges) > 1:
        return None
    if cycles:
        return [-lit for (_, lit), st in zip(items, state, strict=True) if st is None]
    if len(edges) < 2:
        return []
    return [
        -lit
        for ((_, lit), (a, b), st) in zip(items, pairs, state, strict=True)
        if st is None and a in touched and b in touched and find(a) == find(b)
    ]
