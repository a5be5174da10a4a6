"""Propagation to a fixpoint, then search, for cross-number ``Model``s.

Why this shape (the seed's "generic solution"): every clue keeps a set of possible
values, every cell a set of possible digits (or multi-digit cell values), every variable
a set of values, and -- for puzzles whose clue numbers are not given -- every clue a set
of entries it may sit in. Constraints narrow those sets from a work queue until nothing
changes; then the solver picks the smallest open set, tries each value and propagates
again, collecting every solution up to a limit so non-unique puzzles are reported.

An expression constraint is only enumerated when the product of its operands' domain
sizes is small (``COMBO_LIMIT``) and its generators stay within a work budget; otherwise
it waits until other constraints (or search decisions) have narrowed its operands. Every
leaf is re-checked against every constraint exactly, so a deferred constraint never lets
a wrong grid through.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from . import kinds as nb
from .constraints import (
    AllDiff,
    AltCon,
    Con,
    Contradiction,
    ExprCon,
    FinalCheck,
    GridDigitSum,
    LinkCon,
    Matching,
    Ordered,
    ValuesOnce,
    range_for,
)
from .digitcon import digit_con
from .model import DIRECTIONS, Clue, Model
from .steps import StepLog, summarize

__all__ = [
    "Solver",
    "SolveResult",
    "Solution",
    "solve",
    "Contradiction",
    "check_grid",
    "fail_if_timed_out",
    "rows_to_cells",
]

MATERIALIZE_LIMIT = 2_000  # list an unknown clue from its cells below this many combinations
KIND_CELLS_LIMIT = 20_000  # ... or, for a clue with a costly kind test, below this many
GENERATE_LIMIT = 200_000
CASE_LOG_DEPTH = 3  # case splits deeper than this are searched but not written out
Key = tuple


@dataclass
class Solution:
    cells: dict[tuple[int, int], str]
    values: dict[str, int]  # clue -> value
    variables: dict[str, int]
    mapping: dict[str, str]  # clue -> entry

    def rows(self, model: Model, sep: str = "") -> list[str]:
        out = []
        for r in range(model.grid.rows):
            out.append(sep.join(self.cells.get((r, c), "#") for c in range(model.grid.cols)))
        return out

    def to_json(self, model: Model) -> dict[str, Any]:
        multi = model.rules.cell_values is not None
        return {
            "rows": self.rows(model, " " if multi else ""),
            "values": dict(self.values),
            "variables": dict(self.variables),
            "mapping": dict(self.mapping),
        }


@dataclass
class SolveResult:
    solutions: list[Solution]
    complete: bool  # search space exhausted (count is exact)
    steps: StepLog
    seconds: float
    nodes: int
    stats: dict[str, Any] = field(default_factory=dict)
    #: the CPU time limit (``time_limit``) stopped the search: a runaway stop, never a
    #: result to keep (callers fail loudly; node and solution limits are the budgets)
    timed_out: bool = False

    @property
    def count(self) -> int:
        return len(self.solutions)

    @property
    def unique(self) -> bool:
        return self.complete and len(self.solutions) == 1


# ------------------------------------------------------------------ solver


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
        self.max_cell_len = max(len(v) for v in cell_vals)
        self._cell_values = frozenset(cell_vals)
        self._split_cache: dict[tuple[str, int], list[tuple[str, ...]]] = {}
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
        self.cons: list[Con] = []
        self._build()
        self.watch: dict[Key, list[Con]] = {}
        for con in self.cons:
            for k in con.scope:
                self.watch.setdefault(k, []).append(con)
        self.queue: deque[Con] = deque()
        self.queued: set[int] = set()
        self.nodes = 0

    # -- building --------------------------------------------------
    def _build(self) -> None:
        m = self.model
        for clue in m.clues.values():
            for part in clue.parts:
                if part.kind in ("value", "cond"):
                    self.cons.append(ExprCon(self, clue, part))
                elif part.kind == "alt":
                    self.cons.append(AltCon(self, clue, part))
                elif part.kind == "griddigits":
                    self.cons.append(GridDigitSum(self, ("c", clue.name)))
                elif part.kind == "digits" and (dc := digit_con(self, clue, part)) is not None:
                    self.cons.append(dc)  # "all digits odd" on the cells (digitcon.py)
            self.cons.append(LinkCon(self, clue))
        if m.rules.distinct:
            self.cons.append(AllDiff([("c", c) for c in m.clues], "answers are all different"))
        if m.variables.names and m.variables.distinct:
            self.cons.append(
                AllDiff([("v", v) for v in m.variables.names], "variables are all different")
            )
        for chain in m.variables.order:
            self.cons.append(Ordered([("v", v) for v in chain], " < ".join(chain)))
        if not m.mapped:
            for d in DIRECTIONS:
                keys = [("m", c.name) for c in m.clues.values() if c.direction == d]
                if not keys:
                    continue
                self.cons.append(AllDiff(keys, f"each {d} entry holds one clue"))
                self.cons.append(Matching(keys, f"each {d} entry holds one clue"))
        if m.rules.clue_order:
            for d in DIRECTIONS:
                keys = [("c", c.name) for c in m.clues.values() if c.direction == d]
                if m.rules.clue_order == "descending":
                    keys.reverse()
                self.cons.append(
                    Ordered(keys, f"{d} clues are listed in {m.rules.clue_order} order")
                )
        if m.rules.grid_digit_sum is not None:
            self.cons.append(GridDigitSum(self, m.rules.grid_digit_sum))
        if m.rules.cell_values_once:
            self.cons.append(ValuesOnce(self, m.rules.cell_values_once))
        if m.rules.digits_once:
            self.cons.append(AllDiff([("x", rc) for rc in m.grid.cells()], "each digit once"))
        for kind in m.rules.no_repeat:
            for line in _lines(m, kind):
                self.cons.append(
                    AllDiff([("x", rc) for rc in line], f"no repeated digit in {kind}")
                )
        if m.rules.reversed_pair:

            def rev_pair(s: Solver, a: dict) -> bool:
                vals = [a[("c", c)] for c in s.model.clues]
                pool = set(vals)
                return any(nb.reverse_int(v) in pool and nb.reverse_int(v) != v for v in vals)

            self.cons.append(FinalCheck(rev_pair, "one answer is another reversed"))
        if m.rules.grid:
            from .gridprop import GridRulesCon

            self.cons.append(GridRulesCon(self, m.rules.grid))
        if m.rules.hooks:
            from .hooks import HOOKS

            for h, args in m.rules.hooks:
                self.cons.append(FinalCheck(_hook_check(HOOKS[h], args), h))

    def initial_domains(self) -> dict:
        m = self.model
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
            if rc in self.fixed:
                vals = [v for v in vals if v == self.fixed[rc]]
            dom[("x", rc)] = frozenset(vals)
        for v in m.variables.names:
            dom[("v", v)] = frozenset(m.variables.domain)
        for c in m.clues.values():
            if not m.mapped:
                dom[("m", c.name)] = frozenset(c.candidates)
            d = self._generate_clue(c, dom)
            if d is not None:
                dom[("c", c.name)] = frozenset(d)
                self.log.add(
                    "kind",
                    c.name,
                    f"{c.name} is {_kinds_text(c)} with {_len_text(self, c)}: {summarize(d)}",
                    {c.name: summarize(d)},
                )
        return dom

    def _generate_clue(self, c: Clue, dom: dict) -> set[int] | None:
        if not c.tests:
            return None
        lo, hi = range_for(self, c)
        best = None
        for k in c.tests:
            cost = nb.generate_cost(k, lo, hi)
            if cost <= GENERATE_LIMIT and (best is None or cost < best[0]):
                best = (cost, k)
        if best is None:
            return None
        if best[0] > KIND_CELLS_LIMIT and len(c.candidates) == 1:
            entry = c.candidates[0]
            n = math.prod(len(dom[("x", rc)]) for rc in self.model.entries[entry].cells)
            if n <= KIND_CELLS_LIMIT:  # cheaper to list the cells' numbers and test them
                return self._from_cells(dom, c, entry, KIND_CELLS_LIMIT)
        tests = self.tests[c.name]
        return {v for v in nb.generate(best[1], lo, hi) if all(t(v) for t in tests)}

    # -- domain access ------------------------------------------------
    def get(self, dom: dict, key: Key) -> frozenset | None:
        d = dom.get(key)
        if d is not None or key[0] != "c":
            return d
        clue = self.model.clues[key[1]]
        if len(clue.candidates) != 1 and len(dom[("m", clue.name)]) != 1:
            return None
        e = clue.candidates[0] if len(clue.candidates) == 1 else next(iter(dom[("m", clue.name)]))
        vals = self._from_cells(dom, clue, e, MATERIALIZE_LIMIT)
        if vals is None:
            return None
        if not vals:
            raise Contradiction(f"{clue.name} has no possible value")
        dom[key] = frozenset(vals)  # bookkeeping, not a step: the next narrowing shows it
        self._enqueue_key(key, None)
        return dom[key]

    def _from_cells(self, dom: dict, clue: Clue, e: str, limit: int) -> set[int] | None:
        """Every number the entry's cells can spell (passing the clue's kind tests), or
        None when there would be more than ``limit`` combinations."""
        cells = self.model.entries[e].cells
        cds = [sorted(dom[("x", rc)]) for rc in cells]
        if math.prod(len(x) for x in cds) > limit:
            return None
        tests = self.tests[clue.name]
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

    def narrow(self, dom: dict, key: Key, new: Iterable, con: Con | None, why: str) -> None:
        old = dom.get(key)
        new = frozenset(new)
        if old is not None:
            if len(new) == len(old):
                return
            new = new & old
        if not new:
            raise Contradiction(f"{_key_text(key)} has no possible value ({why})")
        if old is not None and new == old:
            return
        dom[key] = new
        if self.depth == 0 and self.log.enabled:
            cell = key[0] == "x"
            written = why.split(" is written in ")[0] if cell and " is written in " in why else None
            self.log.narrow(
                why,
                _key_text(key),
                "?" if old is None else summarize(old, cell),
                summarize(new, cell),
                written_by=written,
            )
        self._enqueue_key(key, con)

    def _enqueue_key(self, key: Key, skip: Con | None) -> None:
        for c in self.watch.get(key, ()):
            if c is not skip and id(c) not in self.queued:
                self.queued.add(id(c))
                self.queue.append(c)

    def propagate(self, dom: dict) -> None:
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
        self.queue.clear()
        self.queued.clear()
        for con in cons if changed is None else self.watch.get(changed, []):
            self.queued.add(id(con))
            self.queue.append(con)
        try:
            self.propagate(dom)
            return self.log
        finally:
            self.watch, self.log, self.depth = saved
            self.queue.clear()
            self.queued.clear()

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
        s = str(v)
        if self.model.rules.leading_zeros and not self.multi:
            s = s.zfill(clue.cells)
        return s[::-1] if clue.transform == "reverse" else s

    def segments(self, clue: Clue, v: int, cds: list[frozenset]) -> list[tuple[str, ...]]:
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
            seg for seg in self._splits(s, n) if all(p in d for p, d in zip(seg, cds, strict=True))
        ]

    def _splits(self, s: str, n: int) -> list[tuple[str, ...]]:
        """Every way to cut s into n valid cell values (cached: independent of domains)."""
        key = (s, n)
        hit = self._split_cache.get(key)
        if hit is not None:
            return hit
        out: list[tuple[str, ...]] = []
        valid = self._cell_values
        if n <= len(s) <= n * self.max_cell_len:

            def rec(i: int, pos: int, acc: list[str]) -> None:
                if i == n:
                    if pos == len(s):
                        out.append(tuple(acc))
                    return
                rest = len(s) - pos
                if rest < n - i or rest > (n - i) * self.max_cell_len:
                    return
                for ln in range(1, self.max_cell_len + 1):
                    piece = s[pos : pos + ln]
                    if len(piece) == ln and piece in valid:
                        acc.append(piece)
                        rec(i + 1, pos + ln, acc)
                        acc.pop()

            rec(0, 0, [])
        self._split_cache[key] = out
        return out

    def fits(self, clue: Clue, v: int, cds) -> bool:
        if not self.multi:
            return bool(self.segments(clue, v, cds))
        s = self.entry_text(clue, v)
        for seg in self._splits(s, len(cds)):
            for p, d in zip(seg, cds, strict=True):
                if p not in d:
                    break
            else:
                return True
        return False

    # -- search -----------------------------------------------------------
    def solve(
        self, limit: int = 10, time_limit: float = 60.0, node_limit: int | None = None
    ) -> SolveResult:
        t0 = time.perf_counter()
        # CPU seconds of this thread (docs/limits.md): on a loaded machine the wall time of
        # the same search stretches, its CPU time does not; a web worker's other threads
        # and processes do not count against this solve
        self.deadline = time.thread_time() + time_limit
        self.timed_out = False
        self.node_limit = node_limit if node_limit is not None else 10**12
        self.solutions: list[Solution] = []
        self.complete = True
        self.limit = limit
        self.depth = 0
        try:
            dom = self.fixpoint()
        except Contradiction as e:
            self.log.add("contradiction", "", f"no solution: {e}", {})
            self.queue.clear()
            self.queued.clear()
            return SolveResult([], True, self.log, time.perf_counter() - t0, 0)
        open_keys = sum(1 for k, d in dom.items() if len(d) > 1)
        self.log.add(
            "fixpoint",
            "",
            "propagation reached a fixpoint: "
            + (
                "everything is determined"
                if open_keys == 0
                else f"{open_keys} sets still open, searching"
            ),
            {},
        )
        self.depth = 1
        self.last_contradiction = ""
        self._search(dom, [])
        if not self.solutions and self.complete:
            self.log.add(
                "contradiction",
                "",
                "every case is impossible, so there is no solution"
                + (f" (the last: {self.last_contradiction})" if self.last_contradiction else ""),
                {},
            )
        return SolveResult(
            self.solutions,
            self.complete,
            self.log,
            time.perf_counter() - t0,
            self.nodes,
            {"constraints": len(self.cons)},
            timed_out=self.timed_out,
        )

    def _pick(self, dom: dict) -> Key | None:
        best, best_n = None, None
        for k, d in dom.items():
            n = len(d)
            if n > 1:
                rank = (n, {"v": 0, "m": 1, "c": 2, "x": 3}[k[0]])
                if best_n is None or rank < best_n:
                    best, best_n = k, rank
        return best

    def _search(self, dom: dict, path: list[str]) -> None:
        if len(self.solutions) >= self.limit:
            self.complete = False
            return
        if self.nodes >= self.node_limit:
            self.complete = False
            return
        if time.thread_time() > self.deadline:
            self.complete = False
            self.timed_out = True
            return
        self.nodes += 1
        key = self._pick(dom)
        if key is None:
            self._leaf(dom, path)
            return
        order = sorted(dom[key])
        if self.rng is not None:
            self.rng.shuffle(order)  # random fills for the generator
        for v in order:
            child = dict(dom)
            child[key] = frozenset([v])
            self.queue.clear()
            self.queued.clear()
            self._enqueue_key(key, None)
            case = path + [f"{_key_text(key)} = {v}"]
            try:
                self.propagate(child)
            except Contradiction as e:
                self.queue.clear()
                self.queued.clear()
                self.last_contradiction = f"case {', '.join(case)}: {e}"
                if len(path) < CASE_LOG_DEPTH:
                    self.log.add(
                        "case",
                        _key_text(key),
                        f"{'  ' * len(path)}Case {', '.join(case)}: impossible, {e}",
                        {"case": case, "refuted": str(e)},
                    )
                continue
            still = sum(1 for d in child.values() if len(d) > 1)
            if len(path) < CASE_LOG_DEPTH and still:
                self.log.add(
                    "case",
                    _key_text(key),
                    f"{'  ' * len(path)}Case {', '.join(case)}: "
                    f"{still} sets still open, split further",
                    {"case": case, "open": still},
                )
            self._search(child, case)
            if len(self.solutions) >= self.limit:
                if v != order[-1]:
                    self.complete = False
                return

    def _leaf(self, dom: dict, path: list[str]) -> None:
        a: dict[Key, Any] = {}
        for k, d in dom.items():
            a[k] = next(iter(d))
        for c in self.model.clues.values():
            k = ("c", c.name)
            if k not in a:
                e = c.candidates[0] if len(c.candidates) == 1 else a[("m", c.name)]
                text = "".join(a[("x", rc)] for rc in self.model.entries[e].cells)
                if c.transform == "reverse":
                    text = text[::-1]
                a[k] = int(text)
                if not all(t(a[k]) for t in self.tests[c.name]):
                    self._leaf_refuted(path, f"{c.name} = {a[k]} is not {_kinds_text(c)}")
                    return
        for con in self.cons:
            if not con.check(self, a):
                self._leaf_refuted(
                    path, f"the filled grid breaks {getattr(con, 'label', 'a rule')}"
                )
                return
        sol = self.solution_from(a)
        if any(sol == old for old in self.solutions):
            return
        self.solutions.append(sol)
        self.log.add(
            "solution",
            "",
            f"solution {len(self.solutions)}"
            + (" in case " + ", ".join(path) if path else ": no case split needed"),
            {"path": path},
        )

    def _leaf_refuted(self, path: list[str], why: str) -> None:
        self.last_contradiction = f"case {', '.join(path)}: {why}" if path else why
        if len(path) <= CASE_LOG_DEPTH:
            self.log.add(
                "case",
                "",
                f"{'  ' * max(0, len(path) - 1)}Case {', '.join(path)}: "
                f"everything follows, but impossible: {why}",
                {"case": path, "refuted": why},
            )

    def solution_from(self, a: dict) -> Solution:
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


def _hook_check(fn: Callable[..., bool], args: dict[str, Any]) -> Callable[[Solver, dict], bool]:
    """A puzzle hook as a whole-solution check (``args`` are the file's hook arguments)."""

    def check(s: Solver, a: dict) -> bool:
        return fn(s.model, s.solution_from(a), **args)

    return check


def _lines(m: Model, kind: str) -> list[list[tuple[int, int]]]:
    g = m.grid
    if kind == "rows":
        return [[(r, c) for c in range(g.cols) if g.white[r][c]] for r in range(g.rows)]
    if kind == "columns":
        return [[(r, c) for r in range(g.rows) if g.white[r][c]] for c in range(g.cols)]
    n = min(g.rows, g.cols)
    return [
        [(i, i) for i in range(n) if g.white[i][i]],
        [(i, g.cols - 1 - i) for i in range(n) if g.white[i][g.cols - 1 - i]],
    ]


def _key_text(key: Key) -> str:
    if key[0] == "x":
        r, c = key[1]
        return f"r{r + 1}c{c + 1}"
    if key[0] == "m":
        return f"entry of {key[1]}"
    return str(key[1])


def _kinds_text(c: Clue) -> str:
    return " and ".join(c.tests) or "unclued"


def _len_text(s: Solver, c: Clue) -> str:
    lo, hi = range_for(s, c)
    return f"{c.cells} cells" if s.multi else f"{c.cells} digits"


def solve(
    model: Model,
    *,
    limit: int = 10,
    time_limit: float = 60.0,
    log_steps: bool = True,
    fixed: dict[tuple[int, int], str] | None = None,
    rng: random.Random | None = None,
    node_limit: int | None = None,
) -> SolveResult:
    """Solve a model; every solution up to ``limit`` (``complete`` says the count is exact).
    ``fixed`` pins cells (row, col) -> text, e.g. to check a proposed grid; ``rng`` tries
    values in random order (the generator uses it to fill grids)."""
    return Solver(model, log_steps=log_steps, fixed=fixed, rng=rng).solve(
        limit=limit, time_limit=time_limit, node_limit=node_limit
    )


def fail_if_timed_out(result: SolveResult, what: str, seconds: float) -> SolveResult:
    """``result``, unless its CPU time limit stopped the search: then a loud
    ``LimitExceeded`` (exit status 4).

    Why: where a solve decides what is kept (generation, a bundled file's check), an
    undecided search stopped by seconds must not count as a rejection, or the output would
    depend on machine speed; the node limits are the deciding budgets (docs/limits.md).
    """
    if result.timed_out:
        from ..core.limits import LimitExceeded

        raise LimitExceeded(
            f"{what} was stopped at its limit of {seconds:g} CPU seconds per solve "
            f"({result.nodes} search nodes); no puzzle is given, because which one came out "
            "would depend on the machine's speed",
            expected="a smaller puzzle or grid, or a larger time limit",
        )
    return result


def rows_to_cells(model: Model, rows: list[str] | list[list[str]]) -> dict[tuple[int, int], str]:
    """Grid rows ('455451' or '10 1 7 ...' or lists) -> {(r, c): cell text} for white cells."""
    out: dict[tuple[int, int], str] = {}
    for r, row in enumerate(rows):
        cells = (
            row
            if isinstance(row, list)
            else (str(row).split() if " " in str(row).strip() else list(str(row).strip()))
        )
        for c, ch in enumerate(cells):
            if r < model.grid.rows and c < model.grid.cols and model.grid.white[r][c] and ch != "#":
                out[(r, c)] = str(ch)
    return out


def check_grid(
    model: Model,
    rows: list[str] | list[list[str]],
    *,
    time_limit: float = 10.0,
    what: str = "checking a grid",
) -> Solution | None:
    """The solution whose grid is ``rows`` if it satisfies every clue and rule, else None
    (fast: every cell is pinned, so only variables are left to deduce). A check stopped
    by ``time_limit`` CPU seconds is ``LimitExceeded``, never "does not fit"."""
    cells = rows_to_cells(model, rows)
    if len(cells) != len(model.grid.cells()):
        return None
    res = solve(model, limit=1, time_limit=time_limit, log_steps=False, fixed=cells)
    fail_if_timed_out(res, what, time_limit)
    return res.solutions[0] if res.solutions else None
