"""``Grounder``: one Model bound to Params and instance data, expanded rule by rule.

Why this class is small: it holds what a binding fixes (Params, instance data, the
concrete board, resolved domains) and caches it; the work of expanding sets and
entities is ``sets``, the translation of expressions is ``exprs``. Its own job is the
top level: checking the binding, and turning the Model's rules into the flat list of
ground constraints (conjunctions and ``forall`` split, each clue rule expanded to one
``('clue', spec, place, value, body)`` per place and value).
"""

from __future__ import annotations

from typing import Any

from .. import ir
from ..domains import Domain, DSLError, Int
from ..model import ClueRule, Model, data_out_of_range
from ..topology import ConcreteGrid
from .exprs import ground_expr
from .nodes import TRUE
from .sets import resolve_entity, resolve_set

__all__ = ["Grounder"]


class Grounder:
    """Expands a Model for concrete Params and instance data."""

    def __init__(
        self, model: Model, params: dict[str, Any], data: dict[str, Any] | None = None
    ) -> None:
        model.check_binding(params, data)
        self.model = model
        self.params = dict(params)
        self.data = dict(data or {})
        self._grids: dict[int, ConcreteGrid] = {}
        self._members: dict[int, frozenset] = {}
        self._domains: dict[int, Domain] = {}
        problems = [
            p
            for c in model.constants()
            for p in data_out_of_range(
                c, c.value if c.value is not None else self.data[c.name], self.const
            )
        ]
        if problems:  # data outside its declared range would ground to nonsense silently
            raise DSLError(
                "; ".join(problems),
                field=model.name,
                expected="instance data inside the domain its Const declares",
            )

    # -- constants ----------------------------------------------------------------------
    def const(self, expr: Any, env: dict | None = None) -> Any:
        g = self.ground(ir.lift(expr), env or {})
        if g[0] != "c":
            raise DSLError(
                f"{ir.short(expr)} must be a constant once params are bound",
                expected="an expression of Params and constants",
            )
        return g[1]

    def grid(self, grid: Any) -> ConcreteGrid:
        cg = self._grids.get(id(grid))
        if cg is None:
            nR, nC = self.const(grid.nR), self.const(grid.nC)
            if nR < 1 or nC < 1:
                raise DSLError(f"grid size {nR}x{nC} is empty", expected="at least 1x1")
            cg = self._grids[id(grid)] = ConcreteGrid(nR, nC)
        return cg

    def domain(self, var: ir.Var) -> Domain:
        d = self._domains.get(id(var))
        if d is None:
            d = var.domain
            if isinstance(d, Int):
                d = d.resolved(self.const)
            self._domains[id(var)] = d
        return d

    def instances(self, var: ir.Var) -> list:
        """Entities the variable is defined on ([None] for a scalar)."""
        if var.over is None:
            return [None]
        return list(self.resolve(var.over, {}))

    def members(self, var: ir.Var) -> frozenset:
        m = self._members.get(id(var))
        if m is None:
            m = self._members[id(var)] = frozenset(self.instances(var))
        return m

    # -- sets, entities, expressions ----------------------------------------------------
    def resolve(self, s: ir.SetExpr, env: dict) -> tuple:
        """The members of set expression ``s`` (see ``ground.sets``)."""
        return resolve_set(self, s, env)

    def entity(self, expr: Any, env: dict) -> Any:
        """The entity that ``expr`` names (see ``ground.sets``)."""
        return resolve_entity(self, expr, env)

    def ground(self, e: Any, env: dict) -> tuple:
        """The ground node of expression ``e`` (see ``ground.exprs``)."""
        return ground_expr(self, e, env)

    # -- rules -------------------------------------------------------------------------
    def ground_rules(self) -> list[tuple]:
        """Top-level ground constraints (conjunctions flattened, clue rules expanded)."""
        out: list[tuple] = []
        for rule in self.model.rules:
            self._top(rule, {}, out)
        return out

    def _top(self, e: Any, env: dict, out: list) -> None:
        if isinstance(e, ir.And):
            for a in e.args:
                self._top(a, env, out)
        elif isinstance(e, ir.ForAll):
            for x in self.resolve(e.scope, env):
                self._top(e.body, {**env, id(e.binder): x}, out)
        elif isinstance(e, ClueRule):
            spec = e.spec
            dom = spec.domain.resolved(self.const) if isinstance(spec.domain, Int) else spec.domain
            for place in self.resolve(spec.places, env):
                for value in dom.value_list():
                    body = self.ground(e.body, {**env, id(e.place): place, id(e.value): value})
                    out.append(("clue", spec, place, value, body))
        else:
            g = self.ground(e, env)
            if g != TRUE:
                out.append(g)

    def clue_values(self, spec: Any) -> list:
        dom = spec.domain.resolved(self.const) if isinstance(spec.domain, Int) else spec.domain
        return dom.value_list()
