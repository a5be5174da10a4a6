"""Integer bounds implied by top-level linear constraints (exact bound propagation).

Why: the exhaustive finite backend (spec/finitespace.py) needs a finite domain for every
integer constant, and reads it from top-level bounds (``x >= 0``, ``x < n``). Many specs
bound their unknowns only through a linear budget: ``Sum(price[i] * num[i]) == money``
with ``num[i] >= 0`` (56-award), ``a*t1 + b*t2 < B`` with ``t1, t2 > 0`` (70-plant). Such
a model went to Z3, one solver check per solution (hundreds for 56-award) or per descent
step. The bounds those constraints imply make the space finite and often small, and the
finite backend then decides it with no solver call.

Exactness: for a top-level row ``sum(a_i * x_i) <= k`` (each ``==``, ``<``, ``>=``,
``>`` gives one or two such rows, integers only), every solution satisfies
``a_j * x_j <= k - sum over i != j of min(a_i * x_i)``, the minimum taken over bounds that
every solution satisfies already. So the narrowed domains contain every solution; the
rows themselves are still evaluated over the whole narrowed space, and a space still too
large for the finite backend goes to Z3 as before. Integer floor/ceiling division only.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["tighten_bounds", "PASSES"]

#: Rounds of propagation over all rows (each may use the bounds the previous derived).
PASSES = 4

Row = tuple[list[tuple[int, int]], int]  # sum(a * c for c, a in terms) <= k


def _form(
    nodes: list[tuple], i: int, memo: dict[int, tuple[dict[int, int], int] | None]
) -> tuple[dict[int, int], int] | None:
    """``node i`` as (coefficients by constant, constant term), or None if not linear."""
    if i in memo:
        return memo[i]
    op, args = nodes[i]
    out: tuple[dict[int, int], int] | None = None
    if op == "num":
        out = ({}, args)
    elif op == "const":
        out = ({args: 1}, 0)
    elif op in ("add", "sub", "neg"):
        parts = [_form(nodes, j, memo) for j in args]
        if all(p is not None for p in parts):
            coef: dict[int, int] = {}
            const = 0
            for n, p in enumerate(parts):
                assert p is not None
                sign = -1 if op == "neg" or (op == "sub" and n > 0) else 1
                for c, v in p[0].items():
                    coef[c] = coef.get(c, 0) + sign * v
                const += sign * p[1]
            out = ({c: v for c, v in coef.items() if v}, const)
    elif op == "mul":
        parts = [_form(nodes, j, memo) for j in args]
        if all(p is not None for p in parts) and sum(1 for p in parts if p and p[0]) <= 1:
            scale = 1
            lin: tuple[dict[int, int], int] = ({}, 1)
            for p in parts:
                assert p is not None
                if p[0]:
                    lin = p
                else:
                    scale *= p[1]
            out = ({c: v * scale for c, v in lin[0].items() if v * scale}, lin[1] * scale)
    memo[i] = out
    return out


def _rows(
    nodes: list[tuple], conjuncts: Sequence[int], ints: set[int], skip: set[int]
) -> list[Row]:
    memo: dict[int, tuple[dict[int, int], int] | None] = {}
    rows: list[Row] = []
    for i in conjuncts:
        if i in skip:
            continue
        op, args = nodes[i]
        if op not in ("le", "lt", "ge", "gt", "eq") or len(args) != 2:
            continue
        fa, fb = _form(nodes, args[0], memo), _form(nodes, args[1], memo)
        if fa is None or fb is None:
            continue
        coef = dict(fa[0])
        for c, v in fb[0].items():
            coef[c] = coef.get(c, 0) - v
        terms = [(c, v) for c, v in coef.items() if v]
        if not terms or any(c not in ints for c, _ in terms):
            continue
        k = fb[1] - fa[1]  # sum(coef * x) op k
        neg = [(c, -v) for c, v in terms]
        if op in ("le", "eq"):
            rows.append((terms, k))
        if op == "lt":
            rows.append((terms, k - 1))
        if op in ("ge", "eq"):
            rows.append((neg, -k))
        if op == "gt":
            rows.append((neg, -k - 1))
    return rows


def tighten_bounds(
    nodes: list[tuple],
    conjuncts: Sequence[int],
    ints: set[int],
    lo: dict[int, int],
    hi: dict[int, int],
    skip: set[int] = frozenset(),  # type: ignore[assignment]
) -> bool:
    """Narrow ``lo``/``hi`` (in place) by the bounds the linear conjuncts imply; False
    when they prove some constant has no value (no solution: propagation stops there).

    ``ints``: the integer constants (indices of ``const`` nodes); a row over any other
    constant is not used. ``lo``/``hi`` must already hold only bounds every solution meets.
    ``skip``: conjuncts already read into ``lo``/``hi`` (a constant against a number),
    whose rows would derive those same bounds again and nothing else.
    """
    rows = _rows(nodes, conjuncts, ints, skip)
    for _ in range(PASSES):
        changed = False
        for terms, k in rows:
            low = 0  # sum of the known minima of the terms
            missing = None
            for c, a in terms:
                b = lo.get(c) if a > 0 else hi.get(c)
                if b is None:
                    if missing is not None:
                        break  # two terms without a bound: the row bounds nothing
                    missing = c
                else:
                    low += a * b
            else:
                for c, a in terms:
                    if missing is not None and c != missing:
                        continue
                    own = 0 if missing is not None else a * (lo[c] if a > 0 else hi[c])
                    r = k - (low - own)  # a * x_c <= r
                    if a > 0:
                        ub = r // a
                        if c not in hi or ub < hi[c]:
                            hi[c] = ub
                            changed = True
                            if c in lo and lo[c] > ub:
                                return False
                    else:
                        lb = -((-r) // a)  # x_c >= ceil(r / a), a < 0
                        if c not in lo or lb > lo[c]:
                            lo[c] = lb
                            changed = True
                            if c in hi and hi[c] < lb:
                                return False
        if not changed:
            break
    return True
