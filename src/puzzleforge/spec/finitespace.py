"""The assignment space of the exhaustive finite path: domains, bounds, layout, evaluation.

Why a module of its own: spec/finite.py turns constraints (Z3 terms or the Python-built
terms of spec/terms.py) into one IR node list; this module takes that list and does the
rest, independent of where it came from: the finite value set of each constant (from
top-level bound atoms), interval bounds proving that no int64 operation can overflow,
the work estimate that decides whether the space is small enough, the broadcast layout
of the space (grouped axes, blocks of leading constants) and the chunked numpy
evaluation (spec/finitekernel.py evaluates one pass) that yields the satisfying rows in
canonical order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import z3

from .finitekernel import _CONST, _LIT, _NUM, Unsupported, _eval, _size
from .linbounds import tighten_bounds

__all__ = ["FiniteProblem", "MAX_ASSIGNMENTS", "MAX_WORK"]

#: Largest assignment space evaluated exhaustively (beyond it Z3 is faster).
MAX_ASSIGNMENTS = 1 << 20
#: Largest number of element operations (assignments x operator nodes evaluated): about
#: 0.1-0.2 s of numpy work, past which Z3's enumeration is usually faster.
MAX_WORK = 1 << 27
_BOUND = 1 << 62

_BOOL = z3.Z3_BOOL_SORT

_ARITH = frozenset(("ite", "add", "sub", "neg", "mul", "div", "mod"))


def _static_bounds(nodes: list[tuple], doms: dict[int, Any], kinds: list[int]) -> int:
    """The largest magnitude any node can take; Unsupported unless it fits int64.

    Interval bounds propagated once over the DAG (sound: they over-approximate each
    node's range), so no evaluation can overflow and no per-chunk check is needed; the
    caller picks the narrowest integer type that holds every node (faster numpy passes).
    Some intermediate results count too: the partial sums of an addition in any order
    (``_add_grouped`` adds scalar terms in Python before one numpy addition, which
    refuses a Python integer outside the type) and ``a - (a mod d)`` of a division
    (floor-divided after it is computed, so it must not wrap). Partial products may
    wrap: multiplication modulo 2^k gives the exact product whenever that fits.
    """
    top = 1
    los: list[int] = []
    his: list[int] = []
    mags: list[int] = []
    for op, args in nodes:
        if op == _CONST:
            if kinds[args] == _BOOL:
                lo, hi = 0, 1
            else:
                d = doms[args]
                lo, hi = (int(min(d)), int(max(d))) if len(d) else (0, 0)
        elif op == _NUM:
            lo = hi = args
        elif op == _LIT or op not in _ARITH:  # Booleans
            lo, hi = 0, 1
        elif op == "ite":
            lo = min(los[args[1]], los[args[2]])
            hi = max(his[args[1]], his[args[2]])
        elif op == "add" or op == "sub":
            if op == "add":
                lo = sum([los[i] for i in args])
                hi = sum([his[i] for i in args])
            else:
                rest = args[1:]
                lo = los[args[0]] - sum([his[i] for i in rest])
                hi = his[args[0]] - sum([los[i] for i in rest])
            # every partial sum, in any order (_eval adds an add's terms grouped by
            # shape), is within the sum of the magnitudes
            partial = sum([mags[i] for i in args])
            if partial >= _BOUND:
                raise Unsupported("possible int64 overflow")
            if partial > top:
                top = partial
        elif op == "neg":
            lo, hi = -his[args[0]], -los[args[0]]
        elif op == "mul":
            lo, hi = los[args[0]], his[args[0]]
            for i in args[1:]:
                xl, xh = los[i], his[i]
                corners = (lo * xl, lo * xh, hi * xl, hi * xh)
                lo, hi = min(corners), max(corners)
                if max(abs(lo), abs(hi)) >= _BOUND:
                    raise Unsupported("possible int64 overflow")
        else:  # div, mod
            m = max(mags[args[0]], mags[args[1]])
            lo, hi = -m, m
            top = max(top, mags[args[0]] + mags[args[1]])  # a - (a mod d), computed first
        mag = hi if hi >= -lo else -lo
        if mag >= _BOUND:
            raise Unsupported("possible int64 overflow")
        if mag > top:
            top = mag
        los.append(lo)
        his.append(hi)
        mags.append(mag)
    return top


def _reachable(nodes: list[tuple], roots: list[int]) -> list[bool]:
    needed = [False] * len(nodes)
    stack = list(roots)
    while stack:
        i = stack.pop()
        if needed[i]:
            continue
        needed[i] = True
        op, args = nodes[i]
        if op not in (_CONST, _NUM, _LIT):
            stack.extend(args)
    return needed


def _conjuncts(nodes: list[tuple], roots: Sequence[int]) -> list[int]:
    out, stack = [], list(reversed(roots))
    while stack:
        i = stack.pop()
        op, args = nodes[i]
        if op == "and":
            stack.extend(reversed(args))
        else:
            out.append(i)
    return out


def _domains(
    nodes: list[tuple], roots: Sequence[int], kinds: list[int], used: list[int], atoms: set[int]
) -> dict[int, list[int]]:
    """Finite value sets of the integer constants from top-level bound atoms (else Unsupported).

    The indices of the conjuncts read as bounds go to ``atoms``: they hold on every
    assignment of the restricted space, so they need no evaluation.
    """
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    sets: dict[int, set[int]] = {}

    def const_num(args: tuple) -> tuple[int, int, bool] | None:
        (oa, aa), (ob, ab) = nodes[args[0]], nodes[args[1]]
        if oa == _CONST and ob == _NUM:
            return aa, ab, False
        if oa == _NUM and ob == _CONST:
            return ab, aa, True
        return None

    conjuncts = _conjuncts(nodes, roots)
    for i in conjuncts:
        op, args = nodes[i]
        if op in ("le", "lt", "ge", "gt") and len(args) == 2:
            cn = const_num(args)
            if cn is None:
                continue
            c, v, flipped = cn
            if flipped:
                op = {"le": "ge", "lt": "gt", "ge": "le", "gt": "lt"}[op]
            atoms.add(i)
            if op == "le":
                hi[c] = min(hi.get(c, v), v)
            elif op == "lt":
                hi[c] = min(hi.get(c, v - 1), v - 1)
            elif op == "ge":
                lo[c] = max(lo.get(c, v), v)
            else:
                lo[c] = max(lo.get(c, v + 1), v + 1)
        elif op == "eq" and len(args) == 2:
            cn = const_num(args)
            if cn is not None:
                c, v, _ = cn
                sets[c] = sets[c] & {v} if c in sets else {v}
                atoms.add(i)
        elif op == "or":
            c0, vs = None, set()
            for j in args:
                oj, aj = nodes[j]
                cn = const_num(aj) if oj == "eq" and len(aj) == 2 else None
                if cn is None or (c0 is not None and cn[0] != c0):
                    c0 = None
                    break
                c0 = cn[0]
                vs.add(cn[1])
            if c0 is not None:
                sets[c0] = sets[c0] & vs if c0 in sets else vs
                atoms.add(i)
    for c, vs in sets.items():  # a value set bounds the constant too
        if vs:
            lo[c] = max(lo.get(c, min(vs)), min(vs))
            hi[c] = min(hi.get(c, max(vs)), max(vs))
    # bounds the top-level linear rows imply (spec/linbounds.py): sound, so the space
    # still holds every solution
    ints = {c for c in used if kinds[c] != _BOOL}
    if not tighten_bounds(nodes, conjuncts, ints, lo, hi, atoms):
        # some constant has no value: there is no solution, and the empty space (every
        # domain empty) holds all of them; no other domain need be read
        return {c: [] for c in used if kinds[c] != _BOOL}
    out: dict[int, list[int]] = {}
    for c in used:
        if kinds[c] == _BOOL:
            continue
        if c in sets:
            vals = sorted(v for v in sets[c] if lo.get(c, v) <= v <= hi.get(c, v))
        elif c in lo and c in hi:
            if hi[c] - lo[c] >= MAX_ASSIGNMENTS:
                raise Unsupported("integer range too large")
            vals = list(range(lo[c], hi[c] + 1))
        else:
            raise Unsupported("integer constant without finite bounds")
        out[c] = vals
    return out


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
    atoms: set[int] = set()
    doms = _domains(nodes, roots, kinds_l, used, atoms)
    required = [i for i in _conjuncts(nodes, roots) if i not in atoms]
    needed = _reachable(nodes, required + ([obj] if obj is not None else []))
    sizes = [2 if kinds_l[c] == _BOOL else len(doms[c]) for c in used]
    total = 1
    for size in sizes:
        total *= size
        if total > MAX_ASSIGNMENTS:
            return None
    if total * sum(needed) > MAX_WORK:
        return None  # Z3 is the faster way for this many operations
    top = _static_bounds(nodes, doms, kinds_l)
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
