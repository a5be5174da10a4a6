"""Plain Python functions for the clue expressions that cannot fail, for the solver's
inner loops.

Why: ``ExprCon`` enumerates every combination of the letters and clues an expression
mentions (up to 40 000 per call, and the work queue calls it again whenever one of them
narrows). The general evaluator (expreval.py) builds a dict per combination and walks a
tree of closures that check every intermediate value for ``None`` (inexact division,
roots, limits); on Listener 4855 "Just the Job" (twenty letters, clues such as
``(RESPO+NS+I+B-L)E``) that walk was nine tenths of the solving time. An expression made
only of numbers, letters, clues, ``+ - *``, unary minus and small constant powers always
has exactly one value, so it is compiled here to one Python function of positional
arguments (``lambda a0, a1, a2: (a0 * a1) + a2``) that gives the same value.

The source is generated from the parsed tree (integers, argument names and operators
only), never from the puzzle's text, so a puzzle file still cannot run code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .exprnodes import Node

__all__ = ["positional", "MAX_CONST_POWER"]

#: Largest constant exponent compiled here (``x^2``, ``x^3``); larger powers keep the
#: evaluator's size limit on huge numbers.
MAX_CONST_POWER = 3

_OPS = {"+": "+", "-": "-", "*": "*"}


def _source(n: Node, index: dict[str, int]) -> str | None:
    """Python source for ``n`` over arguments ``a<i>``, or None if some operation may
    have no value (or is outside this fast subset)."""
    if n.op == "num":
        return repr(int(n.value))  # type: ignore[call-overload]
    if n.op in ("var", "clue"):
        i = index.get(str(n.value))
        return None if i is None else f"a{i}"
    if n.op == "neg":
        a = _source(n.args[0], index)
        return None if a is None else f"(-{a})"
    if n.op in _OPS:
        a, b = _source(n.args[0], index), _source(n.args[1], index)
        if a is None or b is None:
            return None
        return f"({a} {_OPS[n.op]} {b})"
    if n.op == "^" and n.args[1].op == "num":
        k = n.args[1].value
        if isinstance(k, int) and 0 <= k <= MAX_CONST_POWER:
            a = _source(n.args[0], index)
            return None if a is None else f"({a} ** {k})"
    return None


def positional(
    node: Node, names: Sequence[str], *, nontrivial: bool = False
) -> Callable[..., int] | None:
    """A function of ``names`` (positional, in this order) equal to the expression, or
    None when the expression may have no value for some arguments (``/``, ``%``, roots,
    generators, ...) or under the "every operation is non-trivial" rule (which the general
    evaluator checks per operation)."""
    if nontrivial:
        return None
    body = _source(node, {name: i for i, name in enumerate(names)})
    if body is None:
        return None
    args = ", ".join(f"a{i}" for i in range(len(names)))
    fn: Callable[..., int] = eval(f"lambda {args}: {body}", {"__builtins__": {}})  # noqa: S307
    return fn
