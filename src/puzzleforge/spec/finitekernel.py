"""The numpy kernel of the finite path: every needed node's value over all assignments.

Why a module of its own: spec/finitespace.py decides *whether* a problem is finite and lays
out its assignment space; this part only computes node values (numpy arrays, or Python
scalars for nodes fixed to one value), exactly, in the integer type whose safety
``finitespace._static_bounds`` proved.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .finitedomains import _CONST, _LIT, _NUM, Unsupported

_NDARRAY = np.ndarray


def _product(xs: list) -> int:
    r = 1
    for x in xs:
        r *= x
    return r


#: The operators on Python scalars (constants fixed to one value, numerals, results of
#: such): the same values as the numpy operations, since ``_static_bounds`` rules out
#: overflow of the numpy integer type (division and modulo stay with numpy).
_SCALAR_OPS: dict[str, Any] = {
    "and": lambda xs: all(xs),
    "or": lambda xs: any(xs),
    "not": lambda xs: not xs[0],
    "implies": lambda xs: (not xs[0]) or bool(xs[1]),
    "xor": lambda xs: bool(xs[0]) != bool(xs[1]),
    "eq": lambda xs: xs[0] == xs[1],
    "distinct": lambda xs: len(set(xs)) == len(xs),
    "ite": lambda xs: xs[1] if xs[0] else xs[2],
    "le": lambda xs: xs[0] <= xs[1],
    "lt": lambda xs: xs[0] < xs[1],
    "ge": lambda xs: xs[0] >= xs[1],
    "gt": lambda xs: xs[0] > xs[1],
    "add": lambda xs: sum(xs),
    "sub": lambda xs: xs[0] - sum(xs[1:]),
    "neg": lambda xs: -xs[0],
    "mul": _product,
}


def _eval(
    nodes: list[tuple],
    columns: list[Any],
    needed: list[bool],
    itype: Any = np.int64,
    release: dict[int, list[int]] | None = None,
) -> list[Any]:
    """Every needed node's value; ``release[k]``: nodes whose value is dropped after node k."""
    vals: list[Any] = []
    for k, (op, args) in enumerate(nodes):
        if release is not None and k in release:
            for i in release[k]:
                vals[i] = None  # last use was the previous node: free a big intermediate now
        if not needed[k]:
            vals.append(None)
            continue
        if op == _CONST:
            vals.append(columns[args])
            continue
        if op in (_NUM, _LIT):
            vals.append(args)
            continue
        xs = [vals[i] for i in args]
        scalar = _SCALAR_OPS.get(op)
        if scalar is not None:
            for x in xs:
                if type(x) is _NDARRAY:
                    break
            else:  # no array operand: plain Python, no numpy call
                vals.append(scalar(xs))
                continue
        if op == "and":
            r: Any = True
            for x in xs:
                r = np.logical_and(r, x)
        elif op == "or":
            r = False
            for x in xs:
                r = np.logical_or(r, x)
        elif op == "not":
            r = np.logical_not(xs[0])
        elif op == "implies":
            r = np.logical_or(np.logical_not(xs[0]), xs[1])
        elif op == "xor":
            r = np.logical_xor(xs[0], xs[1])
        elif op == "eq":
            r = np.equal(xs[0], xs[1])
        elif op == "distinct":
            r = True
            for i in range(len(xs)):
                for j in range(i + 1, len(xs)):
                    r = np.logical_and(r, np.not_equal(xs[i], xs[j]))
        elif op == "ite":
            a, b = xs[1], xs[2]
            if type(a) is int and type(b) is int:  # If(c, 1, 0): a cast, in the narrow type
                if a == 1 and b == 0 and isinstance(xs[0], np.ndarray):
                    r = xs[0].astype(itype)
                else:
                    r = np.where(xs[0], itype(a), itype(b))
            else:
                r = np.where(xs[0], a, b)
        elif op == "le":
            r = np.less_equal(xs[0], xs[1])
        elif op == "lt":
            r = np.less(xs[0], xs[1])
        elif op == "ge":
            r = np.greater_equal(xs[0], xs[1])
        elif op == "gt":
            r = np.greater(xs[0], xs[1])
        elif op == "add":
            r = _add_grouped(xs) if release is not None and len(xs) > 2 else _add_chain(xs)
        elif op == "sub":
            r = xs[0]
            for x in xs[1:]:
                r = np.subtract(r, x)
        elif op == "neg":
            r = np.negative(xs[0])
        elif op == "mul":
            r = xs[0]
            for x in xs[1:]:
                r = np.multiply(r, x)
        elif op in ("div", "mod"):
            a, d = xs
            if np.any(np.equal(d, 0)):
                raise Unsupported("division by a term that may be zero")
            # SMT-LIB (Euclidean) semantics: a = d*q + m with 0 <= m < |d|
            m = np.mod(a, np.abs(d))
            r = m if op == "mod" else (np.subtract(a, m) // d)
        else:  # pragma: no cover - _OPS and this chain list the same operators
            raise Unsupported(op)
        if isinstance(r, np.generic):
            r = r.item()
        vals.append(r)
    return vals


def _size(v: Any) -> int:
    return v.size if isinstance(v, np.ndarray) else 1


def _add_chain(xs: list) -> Any:
    r = xs[0]
    for x in xs[1:]:
        r = np.add(r, x)
    return r


def _add_grouped(xs: list) -> Any:
    """The sum of broadcast terms, the terms of each shape summed among themselves first.

    Why: in a sum of one term per constant (a count, a weighted total), adding the terms
    in their order makes every addition after the first of the last axis's constants a
    pass over the whole block; summing each axis's terms on that axis and adding the few
    partial sums at the end makes only those last additions full size. Exact: integer
    addition without overflow (``_static_bounds`` bounds every partial sum) does not
    depend on the order.
    """
    scalar = None
    by_shape: dict[tuple, Any] = {}
    for x in xs:
        if isinstance(x, np.ndarray):
            got = by_shape.get(x.shape)
            by_shape[x.shape] = x if got is None else np.add(got, x)
        else:
            scalar = x if scalar is None else scalar + x
    parts = sorted(by_shape.values(), key=_size)
    if not parts:
        return scalar
    r = parts[0] if scalar is None else np.add(parts[0], scalar)
    for x in parts[1:]:
        r = np.add(r, x)
    return r
