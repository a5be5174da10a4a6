"""Each distinct node of a Z3 term DAG once, first seen first, in plain Python.

Why a module of its own: the audit (spec/auditcapture.py, which must not share the
engine's C-level walkers of spec/fastz3.py) and the nonlinear-shape test of
spec/nonlinear.py both walk a term DAG visiting every shared subterm once; this is
that walk, written once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import z3

__all__ = ["walk_terms"]


def walk_terms(exprs: Iterable[Any], *, into_quantifiers: bool = True) -> Iterator[Any]:
    """The distinct terms of ``exprs`` (by AST id), in depth-first preorder, first seen first.

    A quantifier is yielded itself; its body is walked only with ``into_quantifiers``.
    """
    seen: set[int] = set()
    stack = list(exprs)
    stack.reverse()
    while stack:
        e = stack.pop()
        i = e.get_id()
        if i in seen:
            continue
        seen.add(i)
        yield e
        if z3.is_app(e):
            stack.extend(reversed(e.children()))
        elif into_quantifiers and z3.is_quantifier(e):
            stack.append(e.body())
