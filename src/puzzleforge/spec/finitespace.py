"""The assignment space of the exhaustive finite path: layout and numpy evaluation.

Why a module of its own: spec/finite.py turns constraints (Z3 terms or the Python-built
terms of spec/terms.py) into one IR node list; spec/finitedomains.py (no numpy) finds the
finite value set of each constant (from top-level bound atoms), interval bounds proving
that no int64 operation can overflow and the work estimate that decides whether the space
is small enough; this module does the rest, independent of where the list came from: the
broadcast layout of the space (grouped axes, blocks of leading constants) and the chunked
numpy evaluation (spec/finitekernel.py evaluates one pass) that yields the satisfying rows
in canonical order. It is imported (with numpy) when a spec first evaluates a space.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .finitedomains import (
    _BOOL,
    _CONST,
    _LIT,
    _NUM,
    MAX_ASSIGNMENTS,
    MAX_WORK,
    SpacePlan,
    space_plan,
)
from .finitekernel import _eval, _size

__all__ = ["FiniteProblem", "MAX_ASSIGNMENTS", "MAX_WORK", "evaluate_space"]


class FiniteProblem:
    """The satisfying assignments of the constraints, found by evaluating every assignment.

    ``rows`` are the indices of the satisfying assignments in the lexicographic space
    (canonical order); ``row_values(rows)`` decodes them into Python values per used
    constant; ``too_many`` is set when the count passed the caller's limit (evaluation
    stopped there, ``rows`` then holds only the first ones).
    """

    def __init__(
        self, used: list[int], kinds: list[int], bases: dict[int, Any], strides: dict[int, int]
    ) -> None:
        self.used = used
        self.kinds = kinds
        self.bases = bases
        self.strides = strides
        self.rows: Any = np.zeros(0, dtype=np.int64)
        self.too_many = False

    def column(self, c: int, idx: Any) -> Any:
        base = self.bases[c]
        if len(base) == 1:  # a fixed constant: a scalar broadcasts at no cost
            return base[0].item() if len(idx) else base[:0]
        return base[(idx // self.strides[c]) % len(base)]

    def row_values(self, rows: Any) -> list[list[Any]]:
        """Per used constant (in projection order), the Python values at ``rows``."""
        if len(rows) <= 8:  # a few rows (an optimum): plain Python is cheaper than numpy passes
            rs = [int(r) for r in rows]
            out = []
            for c in self.used:
                base, stride = self.bases[c].tolist(), self.strides[c]
                k = len(base)
                out.append([base[(r // stride) % k] for r in rs])
            return out
        rows = np.asarray(rows, dtype=np.int64)
        out = []
        for c in self.used:
            col = self.column(c, rows)
            if not isinstance(col, np.ndarray):
                col = np.full(len(rows), col, dtype=self.bases[c].dtype)
            out.append([bool(v) for v in col.tolist()] if self.kinds[c] == _BOOL else col.tolist())
        return out


#: Assignments evaluated per numpy pass (bounds the memory of intermediate arrays).
CHUNK = 1 << 16
#: Assignments per pass when the trailing constants broadcast (intermediates are freed
#: after their last use, and most are far smaller than the pass).
BLOCK = 1 << 18
#: Up to this many assignments, plain 1-D columns (numpy's many-axis broadcasting costs
#: more per operation than it saves on small spaces).
_FLAT = 1 << 13
#: Smallest number of combinations on one broadcast axis (see ``_axis_groups``).
AXIS_MIN = 64
_BOOL_BASE = np.array([False, True])
_BOOL_BASE.flags.writeable = False
_DIGITS: dict[tuple, Any] = {}


def _digits(lo: int, hi: int, stride: int, size: int, boolean: bool = False) -> Any:
    """``(i // stride) % size`` for i in [lo, hi): a constant's value index per assignment.

    With ``boolean``, the Boolean column itself (``size`` 2). Cached (read-only): the
    same small spaces recur attempt after attempt (a knapsack of n items is always 2^n
    assignments), and building them was most of a small problem's evaluation time.
    """
    key = (lo, hi, stride, size, boolean)
    got = _DIGITS.get(key)
    if got is None:
        if len(_DIGITS) >= 256:
            _DIGITS.clear()
        got = (np.arange(lo, hi, dtype=np.int64) // stride) % size
        if boolean:
            got = got.astype(bool)
        got.flags.writeable = False
        _DIGITS[key] = got
    return got


def _axis_groups(trailing: list[int], sizes: list[int]) -> list[tuple[list[int], int]]:
    """The broadcast axes: consecutive trailing constants grouped, each axis >= AXIS_MIN.

    Why group: with one axis per constant, a space of twelve 3-valued constants has
    twelve axes of length 3, and numpy's broadcasting loops then run over an innermost
    axis of 3 elements (11-wine: 20 ms per evaluation of 3^12 assignments). Grouped
    from the last constant backwards, every axis (and so the innermost loop) holds at
    least AXIS_MIN combinations, and a term over one constant still costs only its
    axis, not the space. Each axis enumerates its members lexicographically (first
    member most significant), so the flattened space keeps the canonical order.
    """
    groups: list[tuple[list[int], int]] = []
    members: list[int] = []
    size = 1
    for k in reversed(trailing):
        members.insert(0, k)
        size *= sizes[k]
        if size >= AXIS_MIN:
            groups.insert(0, (members, size))
            members, size = [], 1
    if members:  # a short run of leading constants joins the first axis
        if groups:
            first, fsize = groups[0]
            groups[0] = (members + first, size * fsize)
        else:
            groups.append((members, size))
    return groups


def _evaluate(
    nodes: list[tuple],
    roots: list[int],
    obj: int | None,
    used: list[int],
    kinds_l: list[int],
    limit: int | None,
) -> tuple[FiniteProblem, Any] | None:
    """Domains, bounds and the chunked numpy evaluation of a compiled node list.

    Shared by the Z3 front end (``compile_finite``) and the Python-built terms of
    spec/terms.py (``compile_terms``): the same nodes give the same decisions and rows.
    Raises Unsupported where the problem is outside what it models exactly.
    """
    plan = space_plan(nodes, roots, obj, used, kinds_l)
    return None if plan is None else evaluate_space(nodes, plan, obj, used, kinds_l, limit)


def evaluate_space(
    nodes: list[tuple],
    plan: SpacePlan,
    obj: int | None,
    used: list[int],
    kinds_l: list[int],
    limit: int | None,
) -> tuple[FiniteProblem, Any]:
    """The chunked numpy evaluation of a space ``space_plan`` found small enough."""
    doms, required, needed, sizes, total, top = plan
    itype = np.int16 if top < (1 << 15) else np.int32 if top < (1 << 31) else np.int64
    bases: dict[int, Any] = {}
    strides: dict[int, int] = {}
    inner = total
    for c, size in zip(used, sizes, strict=False):
        inner //= max(1, size)
        bases[c] = _BOOL_BASE if kinds_l[c] == _BOOL else np.array(doms[c], dtype=itype)
        strides[c] = max(1, inner)
    prob = FiniteProblem(used, kinds_l, bases, strides)
    if total == 0:  # contradictory bounds: an empty domain, no solution
        return prob, (np.zeros(0, dtype=np.int64) if obj is not None else None)
    # The space as an array: the trailing constants (at most CHUNK assignments together)
    # each vary along an axis of their own and broadcast, so a term over a few of them
    # is computed once per combination of those few, never tiled to every assignment;
    # the leading ones vary along axis 0, one block of their combinations at a time.
    n_used = len(used)
    p, inner = n_used, 1
    if total > _FLAT:
        while p > 0 and inner * sizes[p - 1] <= BLOCK:
            p -= 1
            inner *= sizes[p]
        if p == n_used and p > 0:  # the last domain alone exceeds a chunk: take it whole
            p -= 1
            inner = sizes[p]
    groups = _axis_groups([k for k in range(p, n_used) if sizes[k] > 1], sizes)
    dims = [size for _, size in groups]
    col_list: list[Any] = [None] * len(kinds_l)
    for k in range(p, n_used):
        if sizes[k] == 1:
            col_list[used[k]] = bases[used[k]][0].item()
    for axis, (members, gsize) in enumerate(groups, start=1):
        shape = [1] * (len(dims) + 1)
        shape[axis] = gsize
        stride = gsize
        for k in members:  # lexicographic within the axis: first member most significant
            c = used[k]
            stride //= sizes[k]
            col = bases[c] if len(members) == 1 else bases[c][_digits(0, gsize, stride, sizes[k])]
            col_list[c] = col.reshape(shape)
    outer = total // inner
    block = max(1, (CHUNK if p == n_used else BLOCK) // inner)
    # broadcast passes free each intermediate after its last use (conjuncts, objective kept)
    release: dict[int, list[int]] | None = None
    if dims:
        keep = set(required)
        if obj is not None:
            keep.add(obj)
        last: dict[int, int] = {}
        for k, (op, args) in enumerate(nodes):
            if needed[k] and op not in (_CONST, _NUM, _LIT):
                for i in args:
                    last[i] = k
        release = {}
        for i, k in last.items():
            if i not in keep and nodes[i][0] not in (_CONST, _NUM, _LIT):
                release.setdefault(k + 1, []).append(i)
    rows_parts: list[Any] = []
    obj_parts: list[Any] = []
    found = 0
    for o_lo in range(0, outer, block):
        o_hi = min(outer, o_lo + block)
        if p:
            oshape = [o_hi - o_lo] + [1] * len(dims)
            for k in range(p):
                c = used[k]
                if sizes[k] == 1:
                    col_list[c] = bases[c][0].item()
                else:
                    if dims:
                        sel = _digits(o_lo, o_hi, strides[c] // inner, sizes[k])
                        col_list[c] = bases[c][sel].reshape(oshape)
                    elif kinds_l[c] == _BOOL:
                        col_list[c] = _digits(o_lo, o_hi, strides[c], 2, True)
                    else:
                        col_list[c] = bases[c][_digits(o_lo, o_hi, strides[c], sizes[k])]
        full_shape = (o_hi - o_lo, *dims)
        vals = _eval(nodes, col_list, needed, itype, release)
        mask: Any = True
        for v in sorted((vals[r] for r in required), key=_size):  # small conjuncts first
            mask = np.logical_and(mask, v)
        if not (isinstance(mask, np.ndarray) and mask.shape == full_shape):
            mask = np.broadcast_to(mask, full_shape)
        hit = np.flatnonzero(mask)
        if obj is not None:
            ov = vals[obj]
            if not (isinstance(ov, np.ndarray) and ov.shape == full_shape):
                ov = np.broadcast_to(ov, full_shape)
            obj_parts.append(ov.reshape(-1)[hit].astype(np.int64))
        rows_parts.append(hit + o_lo * inner)
        found += len(hit)
        if limit is not None and found > limit:
            prob.too_many = True
            break
    prob.rows = np.concatenate(rows_parts)
    objv = np.concatenate(obj_parts) if obj is not None else None
    return prob, objv
