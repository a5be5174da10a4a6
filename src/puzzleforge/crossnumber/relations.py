"""Propagation for a clue's relation parts (``BN^S < A1 < ABE``, ``A1 % A9 = A8``).

Why: ``ExprCon`` judges a relation by enumerating every combination of all the letters
and clues it mentions, which is hopeless for Nod's "Inbetweeners" (five letters and a
clue of 1061 candidates: 10^8 combinations). Two cheaper, exact-or-sound methods:

* ``separable_support``: when no letter or clue appears in two sides of the chain, each
  side is enumerated on its own (its own letters only) and the chain is solved side by
  side -- the cost is the sum of the sides' combinations, not their product -- and the
  support it returns is exactly what the full enumeration would give.
* ``relation_bounds``: otherwise, each side's least and greatest value bound a side that
  is a bare clue or letter (sound, weaker).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from . import expr as ex
from .fastexpr import NoValue, positional

if TYPE_CHECKING:
    from .conbase import Key
    from .exprcon import ExprCon
    from .solver import Solver

__all__ = ["separable_support", "relation_bounds"]

_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}


@lru_cache(maxsize=4096)
def _plain(node: ex.Node, names: tuple[str, ...], nontrivial: bool) -> Callable[..., int] | None:
    """A side's plain function (fastexpr.py), made once per side and argument order."""
    return positional(node, names, nontrivial=nontrivial)


def _side_values(
    s: Solver, o: ex.Compiled, names: list[str], doms: list[list[Any]]
) -> Iterator[tuple[tuple[Any, ...], int]]:
    """(combination, value) for every combination of ``doms`` where the side has a value;
    the plain function when there is one, else the general evaluator."""
    f = _plain(o.node, tuple(names), s.model.rules.nontrivial)
    if f is not None:
        for combo in product(*doms):
            try:
                yield combo, f(*combo)
            except NoValue:
                continue
        return
    assert o.single is not None
    for combo in product(*doms):
        v = o.single(dict(zip(names, combo, strict=True)))
        if v is not None:
            yield combo, v


def _side_refs(o: ex.Compiled) -> list[Key]:
    return [("v", v) for v in sorted(o.variables)] + [("c", c) for c in sorted(o.clues)]


def _exists(op: str, u: int, vals: set[int]) -> bool:
    """Some v in ``vals`` with ``u op v``."""
    if not vals:
        return False
    if op == "<":
        return u < max(vals)
    if op == "<=":
        return u <= max(vals)
    if op == ">":
        return u > min(vals)
    if op == ">=":
        return u >= min(vals)
    if op == "=":
        return u in vals
    return len(vals) > 1 or u not in vals  # "!="


def separable_support(con: ExprCon, s: Solver, dom: dict, combo_limit: int) -> bool:
    """Narrow the relation's letters and clues side by side (at most ``combo_limit``
    combinations per side); False when the sides share a
    letter or clue, a side has a generator, or a side is too wide (the caller then uses
    the full enumeration or bounds)."""
    sides = con.operands
    if any(o.single is None for o in sides):
        return False
    refs = [_side_refs(o) for o in sides]
    flat = [k for r in refs for k in r]
    if len(flat) != len(set(flat)):
        return False
    # per side: value -> per-ref sets of supporting values
    tables: list[dict[int, list[set[Any]]]] = []
    for o, rs in zip(sides, refs, strict=True):
        doms = []
        for k in rs:
            d = s.get(dom, k)
            if d is None:
                return False
            doms.append(sorted(d))
        if math.prod(len(d) for d in doms) > combo_limit:
            return False
        names = [k[1] for k in rs]
        table: dict[int, list[set[Any]]] = {}
        for combo, v in _side_values(s, o, names, doms):
            sup = table.setdefault(v, [set() for _ in rs])
            for i, x in enumerate(combo):
                sup[i].add(x)
        tables.append(table)
    ops = con.ops
    feas = [set(tables[0])]
    for i, op in enumerate(ops):  # forward: values some left chain reaches
        left = feas[-1]
        feas.append({v for v in tables[i + 1] if _exists(_FLIP[op], v, left)})
    for i in range(len(ops) - 1, -1, -1):  # backward: values that reach the right end
        feas[i] = {u for u in feas[i] if _exists(ops[i], u, feas[i + 1])}
    if not flat:
        return False
    if not all(feas):  # the chain cannot hold: narrowing a letter to nothing says so
        s.narrow(dom, flat[0], set(), con, f"{con.label} cannot hold")
    for table, rs, ok in zip(tables, refs, feas, strict=True):
        for j, k in enumerate(rs):
            keep: set[Any] = set().union(*(table[v][j] for v in ok))
            s.narrow(dom, k, keep, con, con.label)
    return True


def relation_bounds(con: ExprCon, s: Solver, dom: dict, combo_limit: int) -> None:
    """Each side's least and greatest value limit a side that is a bare clue or letter,
    e.g. A1 below the largest value ABE can reach."""
    ivs: list[tuple[int, int] | None] = []
    bare: list[Key | None] = []
    for o in con.operands:
        n = o.node
        key: Key | None = None
        if n.op == "var":
            key = ("v", str(n.value))
        elif n.op == "clue":
            key = ("c", str(n.value))
        bare.append(key)
        ivs.append(_interval(s, dom, o, key, combo_limit))
    for i, op in enumerate(con.ops):
        a, b = ivs[i], ivs[i + 1]
        for key, other, rel in ((bare[i], b, op), (bare[i + 1], a, _FLIP[op])):
            if key is None or other is None or rel == "!=":
                continue
            d = s.get(dom, key)
            if d is None:
                continue
            lo, hi = other
            keep = {
                v
                for v in d
                if (rel != "<" or v < hi)
                and (rel != "<=" or v <= hi)
                and (rel != ">" or v > lo)
                and (rel != ">=" or v >= lo)
                and (rel != "=" or lo <= v <= hi)
            }
            if len(keep) < len(d):
                s.narrow(dom, key, keep, con, f"{con.label}, by bounds")


def _interval(
    s: Solver, dom: dict, o: ex.Compiled, key: Key | None, combo_limit: int
) -> tuple[int, int] | None:
    if key is not None:
        d = s.get(dom, key)
        return (min(d), max(d)) if d else None
    if o.single is None:
        return None
    refs = _side_refs(o)
    doms = []
    for k in refs:
        d = s.get(dom, k)
        if d is None:
            return None
        doms.append(d)
    if math.prod(len(d) for d in doms) > combo_limit:
        return None
    names = [k[1] for k in refs]
    vals = [v for _, v in _side_values(s, o, names, [sorted(d) for d in doms])]
    return (min(vals), max(vals)) if vals else None
