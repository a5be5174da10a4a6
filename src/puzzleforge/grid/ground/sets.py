"""Sets and entities of the IR, resolved to concrete cells, edges, vertices and lines.

Why a module of its own: quantifiers, aggregates, clue places and graph rules all range
over a set expression (``grid.rows``, ``line.windows(3)``, ``sight(c, blocked)``, a
union or difference ...), and entity expressions (``grid.step(c, 0, 1)``) name one
member. Resolving them needs the bound board size and the binder environment but none
of the formula logic, so it lives apart from the expression grounding in ``exprs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import ir
from ..domains import DSLError
from ..topology import Cell, Line

if TYPE_CHECKING:
    from .grounder import Grounder

__all__ = ["resolve_set", "resolve_entity"]


def resolve_set(gr: Grounder, s: ir.SetExpr, env: dict) -> tuple:
    """The members of set expression ``s``, in the set's own order."""
    if isinstance(s, ir.GridSet):
        return _grid_set(gr, s, env)
    if isinstance(s, ir.Windows):
        base = gr.resolve(s.base, env)
        k = gr.const(s.k, env)
        return tuple(Line(("win", i), tuple(base[i : i + k])) for i in range(len(base) - k + 1))
    if isinstance(s, ir.Union):
        left = gr.resolve(s.left, env)
        seen = set(left)
        return left + tuple(x for x in gr.resolve(s.right, env) if x not in seen)
    if isinstance(s, ir.Difference):
        drop = set(gr.resolve(s.right, env))
        return tuple(x for x in gr.resolve(s.left, env) if x not in drop)
    if isinstance(s, ir.BinderSet):
        value = env[id(s.binder)]
        return tuple(value.items)
    if isinstance(s, ir.Range):
        return tuple(range(gr.const(s.lo, env), gr.const(s.hi, env)))
    if isinstance(s, ir.Before):
        items = gr.resolve(s.scope, env)
        e = gr.entity(s.entity, env)
        return tuple(items[: items.index(e)]) if e in items else tuple(items)
    raise DSLError(f"unknown set {s!r}")


def _grid_set(gr: Grounder, s: ir.GridSet, env: dict) -> tuple:
    g = gr.grid(s.grid)
    fn = s.fn
    if fn == "C":
        return g.cells()
    if fn == "E":
        return g.edges()
    if fn == "V":
        return g.vertices()
    if fn == "rows":
        return g.rows()
    if fn == "cols":
        return g.cols()
    if fn == "outside_edges":
        return g.outside_edges()
    if fn == "inner_edges":
        return g.inner_edges()
    if fn == "sight_lines":
        return g.sight_lines()
    if fn == "row":
        return g.row(gr.const(s.args[0], env)).items
    if fn == "col":
        return g.col(gr.const(s.args[0], env)).items
    if fn == "windows":
        k = gr.const(s.args[0], env)
        out: list[Any] = []
        for line in g.rows() + g.cols():
            out.extend(g.windows(line.items, k, line.name))
        return tuple(out)
    if fn in ("boxes", "blocks"):
        bh, bw = gr.const(s.args[0], env), gr.const(s.args[1], env)
        if bh < 1 or bw < 1:
            raise DSLError(f"{fn}({bh}, {bw})", expected="positive sizes")
        return g.boxes(bh, bw) if fn == "boxes" else g.blocks(bh, bw)
    e = gr.entity(s.args[0], env)
    if fn == "cell_edges":
        return g.cell_edges(e)
    if fn == "inner_cell_edges":
        inner = set(g.inner_edges())
        return tuple(x for x in g.cell_edges(e) if x in inner)
    if fn == "cell_vertices":
        return g.cell_vertices(e)
    if fn == "vertex_edges":
        return g.vertex_edges(e)
    if fn in ("neighbors", "neighbors8"):
        return g.neighbors(e, fn == "neighbors8")
    if fn == "sight":
        _, binder, body = s.args

        def blocked(cell: Cell) -> bool:
            value = gr.ground(body, {**env, id(binder): cell})
            if value[0] != "c":
                raise DSLError(
                    "the blocker of grid.sight must depend on constants only",
                    expected="a Const (instance data) such as walls",
                )
            return bool(value[1])

        return g.sight(e, blocked)
    raise DSLError(f"unknown grid set {fn}")


def resolve_entity(gr: Grounder, expr: Any, env: dict) -> Any:
    """The cell, edge or vertex that entity expression ``expr`` names."""
    if isinstance(expr, ir.Binder):
        return env[id(expr)]
    if isinstance(expr, ir.EntityFn):
        fn, args = expr.fn, expr.args
        if fn == "entity":
            return args[0]
        g = gr.grid(expr.grid)
        if fn == "cell_at":
            return Cell(gr.const(args[0], env), gr.const(args[1], env))
        if fn == "step":
            c = gr.entity(args[0], env)
            return Cell(c.r + args[1], c.c + args[2])
        if fn == "edge_cell":
            return g.edge_cells(gr.entity(args[0], env))[args[1]]
        if fn == "cell_edge":
            return g.cell_edge(gr.entity(args[0], env), args[1])
    raise DSLError(
        f"{ir.short(expr)} is not an entity expression", expected="a cell, edge or vertex"
    )
