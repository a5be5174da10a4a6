"""Divisors that are 0 for every value the puzzle's variables may take: a file error.

Why: ``X / Y`` has no value where ``Y`` is 0, so the solver skips those values (a clue
``A1: 60 / (X - 3)`` is fine: X = 3 just is not a solution). But a divisor that is 0 for
*every* value in ``variables.domain`` (``A1: 10 / X`` with ``domain: 0..0``, or
``N / (X - Y)`` over a one-value domain) makes the clue impossible, and the solver would
only say "0 solutions" without naming the cause. The parser already refuses divisors
that are 0 whatever the unknowns (exprparse ``_always_zero``); this check knows the
domain, so it runs on the whole model (model.parse_model) before any solving: the
divisor's variables are tried over the domain, up to ``MAX_COMBINATIONS`` combinations
(a divisor over more is left to the solver, which then skips its zero values).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from ..core.errors import InvalidSpec
from .expreval import compile_expr
from .exprnodes import Node, has_generator, has_other, refs, to_text

__all__ = ["check_divisors", "MAX_COMBINATIONS"]

#: Most combinations of variable values one divisor is tried with.
MAX_COMBINATIONS = 100_000


def _divisors(node: Node) -> Iterator[Node]:
    """The right operand of every ``/`` and ``%`` in ``node``."""
    if node.op in ("/", "%") and len(node.args) == 2:
        yield node.args[1]
    for arg in node.args:
        if isinstance(arg, Node):
            yield from _divisors(arg)


def _always_zero_over(divisor: Node, domain: list[int]) -> tuple[str, ...] | None:
    """The divisor's variables when it is 0 for every combination of their values in
    ``domain`` where it has a value (and it has one somewhere); else None."""
    if has_generator(divisor) or has_other(divisor):
        return None
    variables, clues = refs(divisor)
    if clues or not variables or not domain:
        return None
    names = tuple(sorted(variables))
    if len(domain) ** len(names) > MAX_COMBINATIONS:
        return None
    single = compile_expr(divisor).single
    if single is None:
        return None
    seen = False
    for values in itertools.product(domain, repeat=len(names)):
        try:
            value = single(dict(zip(names, values, strict=True)))
        except (ArithmeticError, ValueError):  # no value there, as the solver sees it
            continue
        if value is None:
            continue
        if value != 0:
            return None
        seen = True
    return names if seen else None


def _nodes(part: Any) -> Iterator[Node]:
    for compiled in [*part.sides, part.cond]:
        if compiled is not None:
            yield compiled.node
    for alt in part.alts:
        yield from _nodes(alt)


def check_divisors(clues: dict[str, Any], domain: list[int], file: str | None) -> None:
    """Raise ``InvalidSpec`` naming the clue when one of its divisors is 0 for every
    value of its variables in ``domain`` (``variables.domain``)."""
    for name, clue in clues.items():
        for part in clue.parts:
            for node in _nodes(part):
                for divisor in _divisors(node):
                    names = _always_zero_over(divisor, domain)
                    if names is None:
                        continue
                    raise InvalidSpec(
                        f"division by zero: the divisor {to_text(divisor)} is 0 for every "
                        f"value of {', '.join(names)} in variables.domain, so the clue "
                        f"'{clue.text}' can never hold",
                        file=file,
                        field=f"clues.{name}",
                        line=clue.line,
                        expected="a divisor that is non-zero for some value of the variables",
                    )
