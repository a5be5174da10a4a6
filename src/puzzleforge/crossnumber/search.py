"""Search for cross-number solutions: split the smallest open set, propagate, recurse.

Why written as a case analysis: a search is how a person finishes a puzzle propagation
alone cannot ("Case A = 11: ... impossible because ..."), so the first
``CASE_LOG_DEPTH`` levels of splits go into the step log. Every leaf is re-checked
against every constraint exactly (a constraint that deferred its enumeration never lets a
wrong grid through), and solutions are collected up to a limit so a puzzle with more than
one is reported as such; ``complete`` says the count is exact.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from .constraints import Contradiction
from .results import Solution, SolveResult
from .steptext import key_text, kinds_text

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["Search", "CASE_LOG_DEPTH"]

CASE_LOG_DEPTH = 3  # case splits deeper than this are searched but not written out
Key = tuple

#: which open set to split first when sizes tie: variables, entries, clues, then cells
_SPLIT_RANK = {"v": 0, "m": 1, "c": 2, "x": 3}


class Search:
    """One solve of one solver: its limits, the solutions found, and how it ended.

    Stops at ``limit`` solutions, ``node_limit`` search nodes (the budgets that decide)
    or ``time_limit`` CPU seconds of this thread (a runaway stop: ``timed_out``).
    """

    def __init__(
        self, solver: Solver, limit: int, time_limit: float, node_limit: int | None
    ) -> None:
        self.s = solver
        self.limit = limit
        self.time_limit = time_limit
        self.node_limit = node_limit if node_limit is not None else 10**12
        self.deadline = 0.0
        self.timed_out = False
        self.solutions: list[Solution] = []
        self.complete = True
        self.last_contradiction = ""

    def run(self) -> SolveResult:
        """Propagate to the root fixpoint, then search; every solution up to the limit."""
        s = self.s
        t0 = time.perf_counter()
        # CPU seconds of this thread (docs/limits.md): on a loaded machine the wall time of
        # the same search stretches, its CPU time does not; a web worker's other threads
        # and processes do not count against this solve
        self.deadline = time.thread_time() + self.time_limit
        s.depth = 0
        try:
            dom = s.fixpoint()
        except Contradiction as e:
            s.log.add("contradiction", "", f"no solution: {e}", {})
            s.clear_queue()
            return SolveResult([], True, s.log, time.perf_counter() - t0, 0)
        open_keys = sum(1 for k, d in dom.items() if len(d) > 1)
        s.log.add(
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
        s.depth = 1
        self._search(dom, [])
        if not self.solutions and self.complete:
            s.log.add(
                "contradiction",
                "",
                "every case is impossible, so there is no solution"
                + (f" (the last: {self.last_contradiction})" if self.last_contradiction else ""),
                {},
            )
        return SolveResult(
            self.solutions,
            self.complete,
            s.log,
            time.perf_counter() - t0,
            s.nodes,
            {"constraints": len(s.cons)},
            timed_out=self.timed_out,
        )

    @staticmethod
    def _pick(dom: dict) -> Key | None:
        """The open set to split: the smallest, ties broken by ``_SPLIT_RANK``."""
        best, best_n = None, None
        for k, d in dom.items():
            n = len(d)
            if n > 1:
                rank = (n, _SPLIT_RANK[k[0]])
                if best_n is None or rank < best_n:
                    best, best_n = k, rank
        return best

    def _search(self, dom: dict, path: list[str]) -> None:
        s = self.s
        if len(self.solutions) >= self.limit:
            self.complete = False
            return
        if s.nodes >= self.node_limit:
            self.complete = False
            return
        if time.thread_time() > self.deadline:
            self.complete = False
            self.timed_out = True
            return
        s.nodes += 1
        key = self._pick(dom)
        if key is None:
            self._leaf(dom, path)
            return
        order = sorted(dom[key])
        if s.rng is not None:
            s.rng.shuffle(order)  # random fills for the generator
        for v in order:
            child = dict(dom)
            child[key] = frozenset([v])
            s.clear_queue()
            s.enqueue_watchers(key, None)
            case = path + [f"{key_text(key)} = {v}"]
            try:
                s.propagate(child)
            except Contradiction as e:
                s.clear_queue()
                self.last_contradiction = f"case {', '.join(case)}: {e}"
                if len(path) < CASE_LOG_DEPTH:
                    s.log.add(
                        "case",
                        key_text(key),
                        f"{'  ' * len(path)}Case {', '.join(case)}: impossible, {e}",
                        {"case": case, "refuted": str(e)},
                    )
                continue
            still = sum(1 for d in child.values() if len(d) > 1)
            if len(path) < CASE_LOG_DEPTH and still:
                s.log.add(
                    "case",
                    key_text(key),
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
        """Every set holds one value: check the assignment exactly, keep it if new."""
        s = self.s
        a: dict[Key, Any] = {}
        for k, d in dom.items():
            a[k] = next(iter(d))
        for c in s.model.clues.values():
            k = ("c", c.name)
            if k not in a:
                e = c.candidates[0] if len(c.candidates) == 1 else a[("m", c.name)]
                text = "".join(a[("x", rc)] for rc in s.model.entries[e].cells)
                if c.transform == "reverse":
                    text = text[::-1]
                a[k] = int(text)
                if not all(t(a[k]) for t in s.tests[c.name]):
                    self._leaf_refuted(path, f"{c.name} = {a[k]} is not {kinds_text(c)}")
                    return
        for con in s.cons:
            if not con.check(s, a):
                self._leaf_refuted(
                    path, f"the filled grid breaks {getattr(con, 'label', 'a rule')}"
                )
                return
        sol = s.solution_from(a)
        if any(sol == old for old in self.solutions):
            return
        self.solutions.append(sol)
        s.log.add(
            "solution",
            "",
            f"solution {len(self.solutions)}"
            + (" in case " + ", ".join(path) if path else ": no case split needed"),
            {"path": path},
        )

    def _leaf_refuted(self, path: list[str], why: str) -> None:
        self.last_contradiction = f"case {', '.join(path)}: {why}" if path else why
        if len(path) <= CASE_LOG_DEPTH:
            self.s.log.add(
                "case",
                "",
                f"{'  ' * max(0, len(path) - 1)}Case {', '.join(path)}: "
                f"everything follows, but impossible: {why}",
                {"case": path, "refuted": why},
            )
