"""The cross-number solver's state: domains, the constraints' work queue, propagation.

Why this shape (the seed's "generic solution"): every clue keeps a set of possible
values, every cell a set of possible digits (or multi-digit cell values), every variable
a set of values, and -- for puzzles whose clue numbers are not given -- every clue a set
of entries it may sit in. Constraints narrow those sets from a work queue until nothing
changes (``fixpoint``); search.py then splits the smallest open set and propagates again.

Why the class is called ``Solver``: it is what every constraint receives (``s.get``,
``s.narrow``, ``s.segments`` ...) and what the hint engine drives; ``solve`` hands the
search to search.py. An expression constraint is only enumerated when the product of its
operands' domain sizes is small (``constraints.COMBO_LIMIT``) and its generators stay
within a work budget; otherwise it waits until other constraints (or search decisions)
have narrowed its operands.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable

from . import kinds as nb
from .cellsplits import CellSplits
from .constraints import Con, Contradiction, GridDigitSum
from .constraintset import build_constraints
from .domains import MATERIALIZE_LIMIT, initial_domains, spelled_values
from .model import Clue, Model
from .results import Solution, SolveResult
from .search import Search
from .steps import StepLog, summarize
from .steptext import key_text

__all__ = ["Solver"]

Key = tuple


class Solver:
    """Build with a Model, then ``solve(limit)``."""

    def __init__(
        self,
        model: Model,
        *,
        log_steps: bool = True,
        fixed: dict[tuple[int, int], str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.model = model
        self.fixed = dict(fixed or {})
        self.rng = rng
        self.multi = model.rules.cell_values is not None
        cell_vals = model.cell_domain()
        self.splits = CellSplits(cell_vals)
        self.max_cell_len = self.splits.max_cell_len
        long_vals = [v for v in cell_vals if len(v) > 1]
        self.max_multi_cells = (
            (
                len(model.rules.cell_values_once)
                if model.rules.cell_values_once
                else len(model.grid.cells())
            )
            if long_vals
            else 0
        )
        self.log = StepLog(enabled=log_steps)
        self.depth = 0
        self.tests: dict[str, list[Callable[[int], bool]]] = {
            c.name: [nb.kind_test(k) for k in c.tests] for c in model.clues.values()
        }
        self.cons: list[Con] = build_constraints(self)
        self.watch: dict[Key, list[Con]] = {}
        for con in self.cons:
            for k in con.scope:
                self.watch.setdefault(k, []).append(con)
        self.queue: deque[Con] = deque()
        self.queued: set[int] = set()
        self.nodes = 0

    def initial_domains(self) -> dict:
        """The starting sets, before any constraint ran (domains.py)."""
        return initial_domains(self)

    # -- domain access ------------------------------------------------
    def get(self, dom: dict, key: Key) -> frozenset | None:
        """The set of ``key``; for a clue still unknown (None), its values are read off
        its entry's cells once those allow few enough spellings."""
        d = dom.get(key)
        if d is not None or key[0] != "c":
            return d
        clue = self.model.clues[key[1]]
        if len(clue.candidates) != 1 and len(dom[("m", clue.name)]) != 1:
            return None
        e = clue.candidates[0] if len(clue.candidates) == 1 else next(iter(dom[("m", clue.name)]))
        vals = spelled_values(self, dom, clue, e, MATERIALIZE_LIMIT)
        if vals is None:
            return None
        if not vals:
            raise Contradiction(f"{clue.name} has no possible value")
        dom[key] = frozenset(vals)  # bookkeeping, not a step: the next narrowing shows it
        self.enqueue_watchers(key, None)
        return dom[key]

    def narrow(self, dom: dict, key: Key, new: Iterable, con: Con | None, why: str) -> None:
        """Cut the set of ``key`` to ``new`` (logged at the root as ``why``) and wake the
        constraints watching it, except ``con``; an empty set is a Contradiction."""
        old = dom.get(key)
        new = frozenset(new)
        if old is not None:
            if len(new) == len(old):
                return
            new = new & old
        if not new:
            raise Contradiction(f"{key_text(key)} has no possible value ({why})")
        if old is not None and new == old:
            return
        dom[key] = new
        if self.depth == 0 and self.log.enabled:
            cell = key[0] == "x"
            written = why.split(" is written in ")[0] if cell and " is written in " in why else None
            self.log.narrow(
                why,
                key_text(key),
                "?" if old is None else summarize(old, cell),
                summarize(new, cell),
                written_by=written,
            )
        self.enqueue_watchers(key, con)

    # -- the work queue ---------------------------------------------------
    def enqueue_watchers(self, key: Key, skip: Con | None) -> None:
        """Queue every constraint watching ``key`` (but ``skip``) that is not queued yet."""
        for c in self.watch.get(key, ()):
            if c is not skip and id(c) not in self.queued:
                self.queued.add(id(c))
                self.queue.append(c)

    def clear_queue(self) -> None:
        self.queue.clear()
        self.queued.clear()

    def propagate(self, dom: dict) -> None:
        """Run queued constraints until the queue is empty (raises ``Contradiction``)."""
        while self.queue:
            con = self.queue.popleft()
            self.queued.discard(id(con))
            con.propagate(self, dom)

    def fixpoint(self) -> dict:
        """The starting domains narrowed by every constraint until nothing changes (the
        root of the search; raises ``Contradiction`` when that already proves no solution)."""
        dom = self.initial_domains()
        for con in self.cons:
            self.queued.add(id(con))
            self.queue.append(con)
        self.propagate(dom)
        return dom

    def propagate_only(self, dom: dict, cons: list[Con], changed: Key | None = None) -> StepLog:
        """Narrow ``dom`` in place with ``cons`` alone, to their own fixpoint, and return
        the steps they took (the hint engine asks "what does this clue force by itself?").
        With ``changed``, ``dom`` was at that fixpoint but for this key, so only the
        constraints watching it start (as in search). Raises ``Contradiction`` like
        ``propagate``."""
        saved = self.watch, self.log, self.depth
        self.watch = {}
        for con in cons:
            for k in con.scope:
                self.watch.setdefault(k, []).append(con)
        self.log = StepLog(enabled=True)
        self.depth = 0
        self.clear_queue()
        for con in cons if changed is None else self.watch.get(changed, []):
            self.queued.add(id(con))
            self.queue.append(con)
        try:
            self.propagate(dom)
            return self.log
        finally:
            self.watch, self.log, self.depth = saved
            self.clear_queue()

    def clue_constraints(self, clue: str) -> list[Con]:
        """The constraints one clue brings: its expression parts and its link to its cells."""
        mine = self.model.clues[clue]
        return [
            c
            for c in self.cons
            if getattr(c, "clue", None) is mine
            or (isinstance(c, GridDigitSum) and c.target == ("c", clue))
        ]

    # -- cells ----------------------------------------------------------
    def entry_text(self, clue: Clue, v: int) -> str:
        """How value ``v`` of ``clue`` is written into its entry (padded, reversed)."""
        s = str(v)
        if self.model.rules.leading_zeros and not self.multi:
            s = s.zfill(clue.cells)
        return s[::-1] if clue.transform == "reverse" else s

    def segments(self, clue: Clue, v: int, cds: list[frozenset]) -> list[tuple[str, ...]]:
        """Every way ``v`` fills the entry's cells whose sets are ``cds``."""
        s = self.entry_text(clue, v)
        if clue.transform == "reverse" and s.startswith("0"):
            return []
        n = len(cds)
        if not self.multi:
            if len(s) != n:
                return []
            for ch, d in zip(s, cds, strict=True):
                if ch not in d:
                    return []
            return [tuple(s)]
        return [
            seg for seg in self.splits(s, n) if all(p in d for p, d in zip(seg, cds, strict=True))
        ]

    def fits(self, clue: Clue, v: int, cds) -> bool:
        """Whether ``v`` fills the entry's cells in at least one way."""
        if not self.multi:
            return bool(self.segments(clue, v, cds))
        s = self.entry_text(clue, v)
        for seg in self.splits(s, len(cds)):
            for p, d in zip(seg, cds, strict=True):
                if p not in d:
                    break
            else:
                return True
        return False

    # -- search and its answers -------------------------------------------------
    def solve(
        self, limit: int = 10, time_limit: float = 60.0, node_limit: int | None = None
    ) -> SolveResult:
        """Every solution up to ``limit`` (search.py); ``time_limit`` is CPU seconds."""
        return Search(self, limit, time_limit, node_limit).run()

    def solution_from(self, a: dict) -> Solution:
        """The Solution of a complete assignment (key -> value)."""
        m = self.model
        mapping = {
            c.name: (c.candidates[0] if len(c.candidates) == 1 else a[("m", c.name)])
            for c in m.clues.values()
        }
        return Solution(
            cells={rc: a[("x", rc)] for rc in m.grid.cells()},
            values={c: a[("c", c)] for c in m.clues},
            variables={v: a[("v", v)] for v in m.variables.names},
            mapping=mapping,
        )
