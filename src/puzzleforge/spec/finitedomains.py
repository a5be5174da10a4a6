"""The finite path's numpy-free half: IR tags, domains of the constants, overflow bounds.

Why a module of its own: the SAT encoding (spec/termsat.py), the elimination of equations
(spec/eliminate.py) and the decision whether a problem is small enough (spec/finite.py)
need the domains and the conjuncts of a constraint list, but not its evaluation; only the
evaluation (spec/finitespace.py, spec/finitekernel.py) needs numpy, ~11 MB of a process
of ~85 MB (issue 16 item 4, docs/spec.md "Peak memory"). So numpy is imported when a spec
first evaluates a finite space, and never by specs whose backends are SAT, Z3 or the LP
without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from .linbounds import tighten_bounds

__all__ = ["MAX_ASSIGNMENTS", "MAX_WORK", "SpacePlan", "Unsupported", "space_plan"]

_CONST, _NUM, _LIT = "const", "num", "lit"


class Unsupported(Exception):
    """The problem is outside what the exhaustive evaluator models exactly."""


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


#: What ``space_plan`` found: domains, required conjuncts, needed nodes, domain sizes,
#: number of assignments and the largest magnitude of a node.
SpacePlan = tuple[dict[int, Any], list[int], list[bool], list[int], int, int]


def space_plan(
    nodes: list[tuple], roots: list[int], obj: int | None, used: list[int], kinds_l: list[int]
) -> SpacePlan | None:
    """Whether the space is small enough to evaluate (None: Z3 is faster), and its facts.

    Raises Unsupported where the problem is outside what the evaluation models exactly.
    Decided before numpy is needed, so a spec whose spaces are all too large never imports it.
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
    return doms, required, needed, sizes, total, top
