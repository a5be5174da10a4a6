"""Plain Python functions for single-valued clue expressions, for the solver's inner loops.

Why: ``ExprCon`` enumerates every combination of the letters and clues an expression
mentions (up to 40 000 per call, and the work queue calls it again whenever one of them
narrows). The general evaluator (expreval.py) builds a dict per combination and walks a
tree of closures that check every intermediate value for ``None`` (inexact division,
roots, limits); on Listener 4855 "Just the Job" (twenty letters, clues such as
``(RESPO+NS+I+B-L)E``) that walk was nine tenths of the solving time. An expression
without generators is compiled here to one Python function of positional arguments
(``lambda a0, a1, a2: (a0 * a1) + _div(a2, 7)``) that gives the same value:

* ``+ - *`` and unary minus are plain Python operators (they always have a value);
* every other operation (``/ % ^``, roots, factorial, reverse, ``$ds`` ...) and, under the
  "every operation is non-trivial" rule, every operation, calls the evaluator's own
  operation function (expreval's ``_binary_fn`` / ``_unary_fn``), which raises
  ``NoValue`` where the evaluator has no value, so the caller skips that combination
  exactly as the evaluator would.

Generators and fractional powers (``x^(p/q)``) keep the general evaluator. The source is
generated from the parsed tree (integers, argument names, operators and helper names
only), never from the puzzle's text, so a puzzle file still cannot run code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .expreval import _binary_fn, _nary_fn, _unary_fn
from .exprnodes import FUNCTIONS_N, Node, has_generator

__all__ = ["positional", "NoValue"]

_PLAIN = {"+": "+", "-": "-", "*": "*"}


class NoValue(Exception):
    """The expression has no value for these arguments (inexact division, no root...)."""


def _strict(f: Callable[..., int | None]) -> Callable[..., int]:
    """``f`` raising ``NoValue`` instead of returning None."""

    def g(*args: int) -> int:
        v = f(*args)
        if v is None:
            raise NoValue
        return v

    return g


class _Gen:
    """Source generation for one expression; ``helpers`` collects the functions it calls."""

    def __init__(self, index: dict[str, int], nontrivial: bool) -> None:
        self.index, self.nt = index, nontrivial
        self.helpers: dict[str, Any] = {}
        self.names: dict[str, str] = {}

    def helper(self, key: str, make: Callable[[], Callable[..., int | None]]) -> str:
        """The name of the strict helper for ``key`` (one per operation kind)."""
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"_h{len(self.names)}"
            self.helpers[name] = _strict(make())
        return name

    def src(self, n: Node) -> str | None:
        op = n.op
        if op == "num":
            return repr(int(n.value))  # type: ignore[call-overload]
        if op in ("var", "clue"):
            i = self.index.get(str(n.value))
            return None if i is None else f"a{i}"
        if op == "func" and n.value in FUNCTIONS_N:
            xs = [self.src(a) for a in n.args]
            if any(x is None for x in xs):
                return None
            name = self.helper(f"nary_{n.value}", lambda: _nary_fn(str(n.value)))
            return f"{name}({', '.join(x for x in xs if x is not None)})"
        if op in ("neg", "sqrt", "fact", "rev", "func"):
            a = self.src(n.args[0])
            if a is None:
                return None
            if op == "neg" and not self.nt:
                return f"(-{a})"
            name = self.helper(f"{op}_{n.value}", lambda: _unary_fn(op, n.value, self.nt))
            return f"{name}({a})"
        if op not in ("+", "-", "*", "/", "%", "^"):
            return None
        if op == "^" and n.args[1].op == "/":
            return None  # fractional power: the evaluator's own rule (expreval)
        a, b = self.src(n.args[0]), self.src(n.args[1])
        if a is None or b is None:
            return None
        if not self.nt and op in _PLAIN:
            return f"({a} {_PLAIN[op]} {b})"
        name = self.helper(f"bin_{op}", lambda: _binary_fn(op, self.nt))
        return f"{name}({a}, {b})"


def positional(
    node: Node, names: Sequence[str], *, nontrivial: bool = False
) -> Callable[..., int] | None:
    """A function of ``names`` (positional, in this order) equal to the expression; it
    raises ``NoValue`` where the expression has no value. None when the expression has a
    generator, a fractional power, or mentions a name outside ``names``."""
    if node.op == "cmp" or has_generator(node):
        return None
    gen = _Gen({name: i for i, name in enumerate(names)}, nontrivial)
    body = gen.src(node)
    if body is None:
        return None
    args = ", ".join(f"a{i}" for i in range(len(names)))
    scope: dict[str, Any] = {"__builtins__": {}, **gen.helpers}
    fn: Callable[..., int] = eval(f"lambda {args}: {body}", scope)  # noqa: S307
    return fn
