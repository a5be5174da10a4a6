"""The sets a cross-number solve starts from, and a clue's values read off its cells.

Why listing is bounded: a clue whose kind tests are cheap to enumerate (``kinds.py``)
starts with its listed values; otherwise its value set stays unknown (None) until its
cells are narrow enough to spell every number they allow (``MATERIALIZE_LIMIT`` spellings,
or ``KIND_CELLS_LIMIT`` when the clue's own kind test is costlier to list), so a solve
never enumerates millions of numbers it would then throw away.
"""

from __future__ import annotations

import math
from itertools import product
from typing import TYPE_CHECKING

from . import kinds as nb
from .constraints import range_for
from .model import Clue
from .steps import summarize
from .steptext import kinds_text, length_text

if TYPE_CHECKING:
    from .solver import Solver

__all__ = [
    "initial_domains",
    "spelled_values",
    "MATERIALIZE_LIMIT",
    "KIND_CELLS_LIMIT",
    "GENERATE_LIMIT",
]

MATERIALIZE_LIMIT = 2_000  # list an unknown clue from its cells below this many combinations
KIND_CELLS_LIMIT = 20_000  # ... or, for a clue with a costly kind test, below this many
GENERATE_LIMIT = 200_000

Key = tuple


def initial_domains(s: Solver) -> dict:
    """Every cell's, variable's, entry's and (where cheap) clue's starting set; logs each
    listed clue as a "kind" step."""
    m = s.model
    dom: dict[Key, frozenset] = {}
    cell_vals = m.cell_domain()
    starts = set()
    if not m.rules.leading_zeros:
        for e in m.entries.values():
            starts.add(e.cells[0])
    for rc in m.grid.cells():
        vals = [v for v in cell_vals if not (rc in starts and v.startswith("0"))]
        if rc in m.grid.givens:
            vals = [v for v in vals if v == m.grid.givens[rc]]
        if rc in s.fixed:
            vals = [v for v in vals if v == s.fixed[rc]]
        dom[("x", rc)] = frozenset(vals)
    for v in m.variables.names:
        dom[("v", v)] = frozenset(m.variables.domain)
    for c in m.clues.values():
        if not m.mapped:
            dom[("m", c.name)] = frozenset(c.candidates)
        d = _listed_values(s, c, dom)
        if d is not None:
            dom[("c", c.name)] = frozenset(d)
            s.log.add(
                "kind",
                c.name,
                f"{c.name} is {kinds_text(c)} with {length_text(s, c)}: {summarize(d)}",
                {c.name: summarize(d)},
            )
    return dom


def _listed_values(s: Solver, c: Clue, dom: dict) -> set[int] | None:
    """The values of ``c`` its kind tests allow, listed by the cheapest kind (or from its
    cells when those are fewer); None when listing would cost too much."""
    if not c.tests:
        return None
    lo, hi = range_for(s, c)
    best = None
    for k in c.tests:
        cost = nb.generate_cost(k, lo, hi)
        if cost <= GENERATE_LIMIT and (best is None or cost < best[0]):
            best = (cost, k)
    if best is None:
        return None
    if best[0] > KIND_CELLS_LIMIT and len(c.candidates) == 1:
        entry = c.candidates[0]
        n = math.prod(len(dom[("x", rc)]) for rc in s.model.entries[entry].cells)
        if n <= KIND_CELLS_LIMIT:  # cheaper to list the cells' numbers and test them
            return spelled_values(s, dom, c, entry, KIND_CELLS_LIMIT)
    tests = s.tests[c.name]
    return {v for v in nb.generate(best[1], lo, hi) if all(t(v) for t in tests)}


def spelled_values(s: Solver, dom: dict, clue: Clue, e: str, limit: int) -> set[int] | None:
    """Every number the entry's cells can spell (passing the clue's kind tests), or
    None when there would be more than ``limit`` combinations."""
    cells = s.model.entries[e].cells
    cds = [sorted(dom[("x", rc)]) for rc in cells]
    if math.prod(len(x) for x in cds) > limit:
        return None
    tests = s.tests[clue.name]
    vals = set()
    for combo in product(*cds):
        text = "".join(combo)
        v = int(text)
        if clue.transform == "reverse":
            if text.endswith("0"):
                continue
            v = int(text[::-1])
        if all(t(v) for t in tests):
            vals.add(v)
    return vals
