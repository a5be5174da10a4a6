"""The node makers the DSL's sugar builds, by name, filled in by the IR modules on import.

Why a registry in a module of its own: the sugar lives below what it builds. ``a & b`` on
an ``Expr`` (grid/ir/nodes.py) builds an ``And`` of grid/ir/logic.py, ``Bool.over(grid.C)``
on a domain (grid/domains.py) builds a ``Var`` of grid/ir/refs.py, and those modules
import the ones that hold the sugar. Each maker is entered here when its module is
imported (``puzzleforge.grid`` imports them all) and looked up when the sugar runs, so
every import points one way. This module imports nothing of the engine.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SUGAR", "register_sugar"]

#: Node classes (and the comparison factories) the sugar builds, by ``__name__``; filled
#: by ``register_sugar`` from ir/refs.py, ir/logic.py, ir/aggregates.py and ir/sets.py.
SUGAR: dict[str, Any] = {}


def register_sugar(*makers: Any) -> None:
    """Make ``makers`` what the sugar builds, each under its ``__name__``."""
    for make in makers:
        SUGAR[make.__name__] = make
