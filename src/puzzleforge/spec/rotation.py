"""Cyclic symmetry of a term model: fix one seat of a round table, rotate the solutions back.

Why: in a circular-arrangement model (29-dining2: 2n people on 2n seats of a round table,
statements such as "the person two seats to the left of A is B's neighbour", written as
differences modulo the table size) every rotation of a solution is a solution. Most of
its random condition sets are contradictory, and proving that explores every rotation of
every partial seating: MiniSat spent its conflict budget on 60 of 88 such models, and
Z3's bit-blasting pre-check took ~39 ms each. With one constant fixed (``x0 = 0``) the
same proofs take a fraction of that (50 of 88 within the budget; Z3 ~22 ms).

Shape (tested here on the term model's nodes, spec/terms.py): the Int constants that
occur in differences ``x - y`` (the set S) all have the domain ``0 .. m-1`` (the same m,
from top-level bounds), and each of them occurs only

- in a difference ``x - y`` of two S constants that is compared with a number, where the
  largest Boolean subformula reading that difference alone (and numbers) has the same
  truth value for ``d`` and ``d - m`` (1 <= d < m): it is a statement modulo m, as
  ``Or(x - y == 1, x - y == 1 - m)`` is and ``x - y == 1`` alone is not;
- or as an argument of ``x == y``, ``x != y`` or ``Distinct`` over S constants only.

Then adding 1 to every S constant modulo m maps solutions to solutions (a difference
changes by 0 or +-m, which no such subformula notices; equality and distinctness are
kept by any bijection; the domains map onto themselves; nothing else reads S), so the
solutions are exactly the rotations of those with ``x0 = 0``, each once (the k-th
rotation has ``x0 = k``). Exact: the complete solution set comes back, so the same
puzzles. Anything else (another use of an S constant, a statement that is not modulo m,
different domains) gives None and the model is solved as before.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

__all__ = ["rotation_class", "rotate_rows", "rotated_rows"]

_CMP = {
    "eq": operator.eq,
    "distinct": operator.ne,
    "le": operator.le,
    "lt": operator.lt,
    "ge": operator.ge,
    "gt": operator.gt,
}
_BOOL = {"and", "or", "not", "implies", "xor", "ite", "eq", "distinct"}
_INV = "inv"  # depends on S, invariant under the rotation
_SC = "sconst"  # an S constant itself
_DIFF = "diff"  # x - y over S


class _NotRotational(Exception):
    pass


def _s_consts(nodes: list[tuple], reach: list[int], ints: dict[int, list[int]]) -> set[int]:
    """The constants of differences, and those compared (``==``, ``!=``, ``Distinct``)
    with them: a rotation must move them together."""
    out: set[int] = set()
    links: list[list[int]] = []
    for i in reach:
        op, args = nodes[i]
        if op == "sub" and len(args) == 2:
            out.update(nodes[a][1] for a in args if nodes[a][0] == "const")
        elif op in ("eq", "distinct") and all(nodes[a][0] == "const" for a in args):
            group = [nodes[a][1] for a in args]
            if all(c in ints for c in group):
                links.append(group)
    grew = bool(out)
    while grew:
        grew = False
        for group in links:
            if not out.issuperset(group) and not out.isdisjoint(group):
                out.update(group)
                grew = True
    return out


def _reachable(nodes: list[tuple], roots: Sequence[int]) -> list[int]:
    """Nodes under ``roots`` in an order where children come before parents."""
    seen: set[int] = set()
    order: list[int] = []
    stack: list[tuple[int, bool]] = [(r, False) for r in roots]
    while stack:
        i, done = stack.pop()
        if done:
            order.append(i)
            continue
        if i in seen:
            continue
        seen.add(i)
        stack.append((i, True))
        op, args = nodes[i]
        if op not in ("const", "num", "lit"):
            stack.extend((a, False) for a in args if a not in seen)
    return order


class _Classifier:
    """Each node's dependence on S: None (none), ``_SC``, ``(_DIFF, pair)``, ``_INV``, or
    ``("pair", key, table)``: a formula over one difference, its truth table a bit mask
    (bit ``d + m - 1`` for each value ``d`` of the difference, -(m-1) .. m-1)."""

    def __init__(self, nodes: list[tuple], s: set[int], m: int) -> None:
        self.nodes = nodes
        self.s = s
        self.m = m
        self.full = (1 << (2 * m - 1)) - 1
        self.dep: dict[int, Any] = {}

    def closed(self, table: int) -> bool:
        """True when d and d - m (1 <= d < m) have the same truth value."""
        m = self.m
        low = (1 << (m - 1)) - 1
        return (table >> m) & low == table & low

    def settle(self, dep: Any) -> Any:
        """A child's dependence as seen by a parent that is not a single-pair formula."""
        if dep is None or dep == _INV:
            return dep
        if isinstance(dep, tuple) and dep[0] == "pair":
            if not self.closed(dep[2]):
                raise _NotRotational("a statement over a difference that is not modulo m")
            return _INV
        raise _NotRotational("an S constant or difference outside a comparison")

    def visit(self, i: int) -> None:
        nodes, dep = self.nodes, self.dep
        op, args = nodes[i]
        if op == "const":
            dep[i] = _SC if args in self.s else None
            return
        if op in ("num", "lit"):
            dep[i] = None
            return
        kids = [dep[a] for a in args]
        if op == "sub" and len(args) == 2 and kids == [_SC, _SC]:
            dep[i] = (_DIFF, (nodes[args[0]][1], nodes[args[1]][1]))
            return
        if op in _CMP and len(args) == 2:
            got = self._compare(op, args, kids)
            if got is not False:
                dep[i] = got
                return
        if op == "distinct" and all(k == _SC for k in kids):
            dep[i] = _INV
            return
        if (
            op in _BOOL
            and kids
            and all(k is None or (isinstance(k, tuple) and k[0] == "pair") for k in kids)
        ):
            keys = {k[1] for k in kids if k is not None}
            # only Boolean literals beside the pair (an ``ite`` over numbers is Int-valued)
            pairs = zip(args, kids, strict=True)
            consts = all(k is not None or nodes[a][0] == "lit" for a, k in pairs)
            if len(keys) == 1 and consts:
                (key,) = keys
                tables = [
                    k[2] if k is not None else (self.full if nodes[a][1] else 0)
                    for a, k in zip(args, kids, strict=True)
                ]
                dep[i] = ("pair", key, _bool_op(op, tables, self.full))
                return
        settled = [self.settle(k) for k in kids]
        dep[i] = _INV if _INV in settled else None

    def _compare(self, op: str, args: tuple, kids: list) -> Any:
        a, b = kids
        if a == _SC and b == _SC and op in ("eq", "distinct"):
            return _INV
        nodes, m = self.nodes, self.m
        for diff, num, flip in ((a, args[1], False), (b, args[0], True)):
            if isinstance(diff, tuple) and diff[0] == _DIFF and nodes[num][0] == "num":
                x, y = diff[1]
                k = nodes[num][1]
                key, sign = ((x, y), 1) if x <= y else ((y, x), -1)
                if op in ("eq", "distinct"):  # the common case: one value of d
                    d = sign * k
                    table = 1 << (d + m - 1) if -m < d < m else 0
                    if op == "distinct":
                        table ^= self.full
                else:
                    f = _CMP[op]
                    table = 0
                    for d in range(-(m - 1), m):
                        if f(k, sign * d) if flip else f(sign * d, k):
                            table |= 1 << (d + m - 1)
                return ("pair", key, table)
        return False


def _bool_op(op: str, t: list[int], full: int) -> int:
    """A Boolean operator over truth-table bit masks."""
    if op == "and":
        out = full
        for x in t:
            out &= x
        return out
    if op == "or":
        out = 0
        for x in t:
            out |= x
        return out
    if op == "not":
        return full ^ t[0]
    if op == "implies":
        return (full ^ t[0]) | t[1]
    if op == "xor" and len(t) == 2:
        return t[0] ^ t[1]
    if op == "ite":
        return (t[0] & t[1]) | ((full ^ t[0]) & t[2])
    if op == "eq":
        out = full
        for x in t[1:]:
            out &= full ^ (t[0] ^ x)
        return out
    if op == "distinct" and len(t) == 2:
        return t[0] ^ t[1]
    if op == "distinct":
        return 0  # three or more distinct Booleans
    raise _NotRotational(op)


def rotation_class(
    nodes: list[tuple],
    roots: Sequence[int],
    doms: dict[int, list[int]],
    atoms: set[int],
) -> tuple[list[int], int] | None:
    """The S constants (ids, sorted) and m when the model is invariant under adding 1
    modulo m to each of them (module docstring), else None.

    ``doms``/``atoms``: spec/termsat.py ``term_domains`` of the same model (the bound
    conjuncts in ``atoms`` only state the domains, which the rotation maps onto
    themselves, so they are not walked)."""
    from .finitedomains import _conjuncts

    body = [r for r in _conjuncts(nodes, roots) if r not in atoms]
    reach = _reachable(nodes, body)
    s = _s_consts(nodes, reach, doms)
    if not s:
        return None
    m = len(doms.get(min(s), ()))
    if m < 2 or any(doms.get(c) != list(range(m)) for c in s):
        return None
    cls = _Classifier(nodes, s, m)
    try:
        for i in reach:
            cls.visit(i)
        for r in body:
            cls.settle(cls.dep[r])
    except _NotRotational:
        return None
    return sorted(s), m


def rotate_rows(rows: list[list[Any]], cols: Sequence[int], m: int) -> list[list[Any]]:
    """Every rotation of ``rows`` (columns ``cols`` hold S constants): the first copy is
    ``rows`` itself, the k-th adds k modulo m to those columns."""
    out = list(rows)
    for k in range(1, m):
        for row in rows:
            new = list(row)
            for c in cols:
                new[c] = (new[c] + k) % m
            out.append(new)
    return out


def rotated_rows(
    b: Any,
    roots: Sequence[int],
    ids: Sequence[int],
    kinds: Sequence[int],
    limit: int | None,
    domains: tuple[dict[int, list[int]], set[int], int],
) -> tuple[list[list[Any]] | None, int] | None:
    """The solution rows of a rotation-invariant term model (spec/termsat.py ``term_rows``
    with ``x0 = 0`` added, then every rotation), and the position of ``x0`` in ``ids``;
    None when the model is not of that shape (the caller solves it as before). The rows
    are None when the SAT path did not decide (the caller's Z3 path decides, and its
    pre-check may fix ``x0`` too: unsatisfiable with it exactly when without it).

    ``b``: the model's term builder (spec/terms.py ``Builder``); ``limit``: max_solution,
    so ``limit // m`` rows with ``x0 = 0`` (their rotations are ``m`` times as many).
    """
    from .termsat import term_domains, term_rows

    nodes = b.nodes
    if not any(n[0] == "sub" for n in nodes):  # the common case: no difference at all
        return None
    got = rotation_class(nodes, roots, domains[0], domains[1])
    if got is None:
        return None
    s, m = got
    pos = {c: k for k, c in enumerate(ids)}
    if any(c not in pos for c in s):
        return None
    fix = b.mk("eq", (b.mk("const", s[0]), b.mk("num", 0)))
    fixed = [*roots, fix]
    doms = term_domains(nodes, fixed, ids, kinds)
    if doms is None or doms[0].get(s[0]) != [0]:
        return None
    rows = term_rows(nodes, fixed, ids, kinds, None if limit is None else limit // m, doms)
    if rows is None:
        return None, pos[s[0]]
    return rotate_rows(rows, [pos[c] for c in s], m), pos[s[0]]
