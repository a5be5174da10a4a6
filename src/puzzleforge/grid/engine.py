"""One compiled rule set per (rules, size, instance data): solve, count, unique, forced.

Why one incremental session per instance: the rules are encoded once; clues are
assumptions on selector literals, a uniqueness question is one extra solve under an
activation literal, and connectivity / single-loop rules are enforced lazily (solve,
find the components of the model, add a cut clause, solve again), the cuts staying in the
session because they follow from the rules alone.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterable
from typing import Any

from ..core.errors import InvalidDescription, SolverTimeout
from ..core.solver import open_session
from ..core.solver.session import Session
from .cuts import lazy_cuts
from .ground import Grounder
from .lower import Lowering
from .model import Model

__all__ = ["Compiled", "compile_rules"]

Solution = dict  # var name -> {entity: value}

#: Lowered rule sets without instance data, keyed by (rules, params, encodings): the
#: grounding and CNF are built once per size; every Compiled still gets a fresh session.
#: Each entry also holds its model: while cached, the model stays alive, so its ``id`` can
#: never be reused by another model (an id of a freed object could otherwise hit a stale entry).
_LOWERED: dict[tuple[Any, ...], tuple[Grounder, list[tuple], Lowering, int, Model]] = {}


class Compiled:
    """Rules lowered for one board; ``clues`` are ``{spec name: {place: value}}``."""

    def __init__(
        self,
        model: Model,
        params: dict,
        data: dict | None = None,
        *,
        backend: str = "sat",
        int_encoding: str = "onehot",
        card_encoding: str = "auto",
        solver: str | None = None,
    ) -> None:
        """``card_encoding="auto"``: native at-most-k constraints on the SAT backend (the
        session then runs Minicard unless ``solver`` names another engine), the sequential
        counter elsewhere. Rules without such counts keep CaDiCaL."""
        self.model = model
        self.params = dict(params)
        if card_encoding == "auto":
            card_encoding = "native" if backend == "sat" else "seqcounter"
        key = (
            None
            if data
            else (id(model), tuple(sorted(params.items())), int_encoding, card_encoding)
        )
        hit = _LOWERED.get(key) if key is not None else None
        if hit is None:
            grounder = Grounder(model, params, data)
            constraints = grounder.ground_rules()
            low = Lowering(grounder, int_encoding=int_encoding, card_encoding=card_encoding)
            low.lower(constraints)
            for spec in model.clue_specs():  # every selector exists, even if no rule used it
                for place in grounder.resolve(spec.places, {}):
                    for v in grounder.clue_values(spec):
                        low.selector(spec, place, v)
            hit = (grounder, constraints, low, low.pool.top, model)
            if key is not None:
                if len(_LOWERED) >= 16:
                    _LOWERED.pop(next(iter(_LOWERED)))
                _LOWERED[key] = hit
        self.grounder, self.constraints, low0, top, _ = hit
        # Each instance gets its own copy of the lowering state (its pool hands out the same
        # fresh ids whatever ran before, so results never depend on history).
        self.low = copy.copy(low0)
        self.low.pool = copy.copy(low0.pool)
        self.low.pool.top = top
        self.low.cache = dict(low0.cache)
        self.specs = {s.name: s for s in model.clue_specs()}
        if self.low.natives and backend == "sat" and solver is None:
            solver = "minicard"  # counting propagation: several times faster per check
        self.session = open_session(backend, self.low.clauses, solver=solver)
        if self.session.native_cardinality:
            for lits, k in self.low.natives:
                self.session.add_atmost(lits, k)
        elif self.low.natives:
            self.session.add_clauses(self.low.natives_as_clauses(self.low.pool))
        self._tables: dict | None = None
        self.grid = next(iter(self.grounder._grids.values()), None)
        self.answer: list[tuple] = []  # (var name, entity, rep)
        for var in self.low.answer_vars:
            for e in self.grounder.instances(var):
                self.answer.append(
                    (var.name, e, self.low.var_lit(var, e), self.grounder.domain(var))
                )
        proj: list[int] = []
        for _, _, rep, _ in self.answer:
            proj.extend([rep] if isinstance(rep, int) else rep.eq.values())
        self.answer_lits = sorted({abs(lit) for lit in proj if abs(lit) != self.low.T})
        lazy_lits = {abs(lit) for item in self.low.lazy for _, lit in item[-1]}
        for item in self.low.lazy:
            if item[0] == "islands":
                lazy_lits |= {abs(lit) for d in item[2].values() for lit in d.values()}
                lazy_lits |= {abs(lit) for lit in item[3].values()}
        self.project = sorted(set(self.answer_lits) | lazy_lits)
        self.solves = 0
        self.cuts = 0
        #: A genre's own deductions for the grading closure (``Genre.deductions``).
        self.deduce: Any = None
        #: A genre's technique grade replacing the generic one (``Genre.technique_grader``).
        self.technique: Any = None
        self._grading: Session | None = None

    # -- clues ------------------------------------------------------------------------
    def _selector_tables(self) -> dict:
        """{spec name: {(place, value): selector literal}} in selector order."""
        if self._tables is None:
            self._tables = {name: {} for name in self.specs}
            for (name, place, value), lit in self.low.selectors.items():
                self._tables.setdefault(name, {})[(place, value)] = lit
        return self._tables

    def assumptions(self, clues: dict | None) -> list[int]:
        """Selector literals of ``clues`` (generators call this once per uniqueness check,
        so the common case is one C-level lookup per clue)."""
        out: list[int] = []
        clues = clues or {}
        for name in clues:
            if name not in self.specs:
                raise InvalidDescription(
                    f"unknown clue kind '{name}'", expected="one of " + ", ".join(self.specs)
                )
        tables = self._selector_tables()
        for name, spec in self.specs.items():
            given = clues.get(name, {})
            table = tables[name]
            try:
                out.extend(map(table.__getitem__, given.items()))
            except KeyError:
                for place, value in given.items():
                    if (place, value) not in table:
                        raise InvalidDescription(
                            f"clue {name} {value!r} at {place!r} is not allowed here",
                            expected=f"a value of {spec.domain!r} at a place of the board",
                        ) from None
            if spec.closed:
                missing = object()
                for (place, value), lit in table.items():
                    if given.get(place, missing) != value:
                        out.append(-lit)
        return out

    # -- solving ----------------------------------------------------------------------
    def _check(self, assumptions: list[int], deadline: float | None) -> dict | None:
        """A model satisfying the lazy graph rules too, or None (UNSAT)."""
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            res = self.session.solve(assumptions, time_limit=left, project=self.project)
            self.solves += 1
            if res.timed_out:
                raise SolverTimeout(
                    "grid solver time limit reached", expected="a larger time limit"
                )
            if not res.sat:
                return None
            model = res.model
            assert model is not None  # a satisfiable answer carries its model
            cuts = self._cuts(model)
            if not cuts:
                return model
            self.cuts += len(cuts)
            self.session.add_clauses(cuts)

    def _truth(self, model: dict, lit: int) -> bool:
        if abs(lit) == self.low.T:
            return lit > 0
        v = model.get(abs(lit), False)
        return v if lit > 0 else not v

    def decode(self, model: dict) -> Solution:
        sol: Solution = {}
        for name, e, rep, _ in self.answer:
            value: Any
            if isinstance(rep, int):
                value = self._truth(model, rep)
            else:
                value = next((v for v, lit in rep.eq.items() if self._truth(model, lit)), None)
            sol.setdefault(name, {})[e] = value
        return sol

    def solution_lits(self, sol: Solution) -> list[int]:
        """The projection literals true in ``sol``."""
        out = []
        for name, e, rep, _ in self.answer:
            v = sol[name][e]
            if isinstance(rep, int):
                out.append(rep if v else -rep)
            else:
                out.append(rep.eq[v])
        return [lit for lit in out if abs(lit) != self.low.T]

    def solve(
        self,
        clues: dict | None = None,
        *,
        extra: Iterable[int] = (),
        time_limit: float | None = None,
    ) -> Solution | None:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        model = self._check(self.assumptions(clues) + list(extra), deadline)
        return None if model is None else self.decode(model)

    def block_solution(self, sol: Solution) -> int:
        """Activation literal of "differs from ``sol``" (assume it to exclude ``sol``)."""
        act = self.low.new()
        self.session.add_clause([-act] + [-lit for lit in self.solution_lits(sol)])
        return act

    def retire(self, act: int) -> None:
        self.session.add_clause([-act])

    def enumerate(
        self, clues: dict | None = None, limit: int = 2, time_limit: float | None = None
    ) -> list[Solution]:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        base = self.assumptions(clues)
        act = self.low.new()
        found: list[Solution] = []
        try:
            while len(found) < limit:
                model = self._check(base + [act], deadline)
                if model is None:
                    break
                sol = self.decode(model)
                found.append(sol)
                self.session.add_clause([-act] + [-lit for lit in self.solution_lits(sol)])
        finally:
            self.retire(act)
        return found

    def count(
        self, clues: dict | None = None, limit: int = 1000, time_limit: float | None = None
    ) -> int:
        return len(self.enumerate(clues, limit, time_limit))

    def is_unique(
        self, clues: dict | None = None, time_limit: float | None = None
    ) -> tuple[str, list]:
        sols = self.enumerate(clues, 2, time_limit)
        return ("none" if not sols else "unique" if len(sols) == 1 else "multiple"), sols

    def unique_given(self, assumptions: list[int], differs: int) -> bool:
        """Is the solution behind ``differs`` the only one under ``assumptions``? One solve
        (no model is read unless lazy graph rules need to inspect it)."""
        if not self.low.lazy:
            self.solves += 1
            status = self.session.check(assumptions + [differs])
            if status.value == "timeout":
                raise SolverTimeout(
                    "grid solver time limit reached", expected="a larger time limit"
                )
            return status.value == "unsat"
        return self._check(assumptions + [differs], None) is None

    def forced(self, clues: dict | None = None, solution: Solution | None = None) -> dict:
        """Answer entries equal in every solution: {(var name, entity): value}."""
        base = self.assumptions(clues)
        if solution is None:
            solution = self.solve(clues)
            if solution is None:
                return {}
        cand = {(n, e): solution[n][e] for n, e, _, _ in self.answer}
        lit_of = {}
        for n, e, rep, _ in self.answer:
            v = solution[n][e]
            lit_of[(n, e)] = (rep if v else -rep) if isinstance(rep, int) else rep.eq[v]
        while True:
            live = [k for k in cand if abs(lit_of[k]) != self.low.T]
            if not live:
                break
            act = self.low.new()
            self.session.add_clause([-act] + [-lit_of[k] for k in live])
            model = self._check(base + [act], None)
            self.retire(act)
            if model is None:
                break
            other = self.decode(model)
            for k in live:
                if other[k[0]][k[1]] != cand[k]:
                    del cand[k]
        return cand

    def propagate(self, assumptions: list[int]) -> tuple[bool, set[int]]:
        """Unit propagation only (no search): (consistent, implied literals).

        Runs on a second session whose clauses all carry one activation literal, so that
        nothing is fixed at the root level (propagation reports only what follows from
        the assumptions at decision level one, and root facts would be invisible)."""
        if self._grading is None:
            act = self.low.new()
            self._grading_act = act
            # Minisat-family propagation is several times cheaper per call than CaDiCaL's;
            # the implied literals (a fixpoint) are the same whichever solver computes them.
            self._grading = open_session("sat", (), solver="minicard")
            self._grading.add_clauses(c + [-act] for c in self.low.clauses)
            # Native at-most-k constraints need no guard: each has 1 <= k < len(lits), so on
            # their own (every clause being guarded) they fix nothing at the root level.
            for lits, k in self.low.natives:
                self._grading.add_atmost(lits, k)
        ok, lits = self._grading.propagate([self._grading_act] + list(assumptions))
        return ok, set(lits)

    def answer_decided(self, lits: set[int]) -> float:
        """Fraction of answer entries fixed by a set of implied literals."""
        done = 0
        for _, _, rep, _dom in self.answer:
            if isinstance(rep, int):
                done += rep in lits or -rep in lits or abs(rep) == self.low.T
            else:
                done += any(lit in lits or lit == self.low.T for lit in rep.eq.values())
        return done / max(1, len(self.answer))

    # -- lazy graph rules ---------------------------------------------------------------
    def _cuts(self, model: dict) -> list[list[int]]:
        return lazy_cuts(
            self.low.lazy, self.grid, lambda lit: self._truth(model, lit), self.low.new
        )


def compile_rules(model: Model, params: dict, data: dict | None = None, **options: Any) -> Compiled:
    return Compiled(model, params, data, **options)
