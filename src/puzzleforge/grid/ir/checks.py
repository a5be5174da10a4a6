"""Rule-time checks shared by the node constructors.

Why apart: these run while a rule is being written (operand types, Python truth values of
comparisons), so every misuse is reported at the line that made it, with one message
format whichever node caught it.
"""

from __future__ import annotations

import threading

from ..domains import DSLError
from .nodes import Expr, short

_chain = threading.local()


def _need(expr: Expr, types: tuple, op: str) -> Expr:
    if expr.type not in types:
        kinds = " or ".join(
            {"bool": "Boolean", "int": "integer", "enum": "enum", "entity": "entity"}[t]
            for t in types
        )
        raise DSLError(
            f"{op} expects {kinds} arguments, got {expr.type} expression {short(expr)}",
            expected=f"{kinds} operands for {op}",
        )
    return expr


def _check_pending(new_left: Expr) -> None:
    pending = getattr(_chain, "pending", None)
    if pending is not None and not (new_left is pending.a or new_left is pending.b):
        _chain.pending = None
        raise DSLError(
            f"comparison {short(pending)} was used as a Python truth value",
            expected="& / | / Implies between comparisons (chains like 0 < x < 3 are fine)",
        )


def assert_no_pending(where: str) -> None:
    pending = getattr(_chain, "pending", None)
    if pending is not None:
        _chain.pending = None
        raise DSLError(
            f"{where}: comparison {short(pending)} was used as a Python truth value",
            expected="& / | / Implies instead of and/or/if",
        )
