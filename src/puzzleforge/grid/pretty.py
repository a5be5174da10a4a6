"""Pretty-printer of the IR: what a rule means, before any size is known.

Each IR node prints itself (``Node.pretty`` / ``Node.pretty_set`` in grid/ir/nodes.py
and its subclasses), so this module adds only the model view: declarations, then one
numbered rule per line.

>>> from puzzleforge.grid import Grid, Param, Bool, forall
>>> n = Param("n", int); g = Grid(n, n); color = Bool.over(g.C, name="color")
>>> pretty_expr(forall(g.rows, lambda r: r.sum_of(color) == n // 2))
'forall r in rows: (sum x in r: color[x]) == n // 2'
"""

from __future__ import annotations

from typing import Any

from .ir.nodes import pretty_expr, pretty_set

__all__ = ["pretty_expr", "pretty_set", "pretty_model"]


def pretty_model(model: Any) -> str:
    """Declarations, then one numbered rule per line (the IR before lowering)."""
    lines = [f"# {model.name}"]
    params = model.params()
    if params:
        lines.append("params: " + ", ".join(f"{p.name}: {p.pytype.__name__}" for p in params))
    for v in model.variables():
        over = f" over {pretty_set(v.over)}" if v.over is not None else ""
        aux = "" if v.answer else "  (auxiliary)"
        lines.append(f"var {v.name}: {v.domain!r}{over}{aux}")
    for c in model.constants():
        over = f" over {pretty_set(c.over)}" if c.over is not None else ""
        lines.append(f"const {c.name}: {c.domain!r}{over}  (instance data)")
    for s in model.clue_specs():
        closed = ", closed" if s.closed else ""
        lines.append(f"clues {s.name}: {s.domain!r} at {pretty_set(s.places)}{closed}")
    for i, (rule, label) in enumerate(zip(model.rules, model.labels, strict=True), 1):
        lines.append(f"[{i}] {label}:")
        lines.append("    " + pretty_expr(rule))
    return "\n".join(lines)
