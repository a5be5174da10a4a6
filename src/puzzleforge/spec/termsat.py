"""SAT enumeration straight from the term model: CNF from Python-built terms, no Z3 at all.

Why: a finite-domain model too large for exhaustive evaluation (spec/finite.py refuses
more than 2^20 assignments) used to be turned into Z3 terms (the same formulas evaluated
again), pre-checked by Z3's QF_FD solver and, when satisfiable, rewritten through Z3's
``card2bv``/``bit-blast``/``tseitin-cnf`` tactics for the SAT backend (spec/satenum.py).
Building those terms and Z3's preprocessing cost most of such an attempt (34-roommate:
~70 % of its CPU in the pre-check, most of it rejecting contradictory condition sets),
while the search itself is a few dozen conflicts. Here the term model's node list
(spec/terms.py ``Builder``) is encoded into clauses directly and a SAT solver decides:
no solution, the complete projected solution set, or more than ``limit`` solutions.

Shape (else ``Unsupported`` and the caller goes the Z3 way, exactly as before): Bool
constants, and Int constants with at most ``MAX_DOMAIN`` values from top-level bounds
(spec/finitespace.py's domain reading); Boolean structure (and, or, not, implies, xor,
Boolean eq/distinct/ite); integer terms that are numbers, constants, sums, differences,
products by a number and integer-valued ``If``; comparisons (= != < <= > >=,
``Distinct``) of such terms. Encoding, each part a full equivalence (Tseitin), so the
projected models of the CNF are exactly the solutions:

- an Int is one-hot (one Boolean per value, exactly one true); a comparison that reads
  one Int is the disjunction of the values that satisfy it;
- one that reads two Ints (``x - y == 1``, ``x != y``) is, for each value ``v`` of the
  first, "``x = v`` implies (and is implied by) the values of the second that satisfy it";
- any other (sums of many terms, ``If(b, 3, 0)`` terms, counts) is a pseudo-Boolean
  comparison ``sum(w * [lit]) <= r`` or ``== r`` over the one-hot and Boolean literals,
  encoded as a reduced decision diagram (one node per (position, remaining bound),
  Eén-Sörensson), refused above ``MAX_PB_NODES`` nodes.

Exactness: nothing is approximated and no floating point is involved; the SAT solver
decides each step completely under a conflict budget (``TERM_CONFLICT_BUDGET``, a count,
not a clock: a spent budget returns None, the Z3 path decides). Tested against
brute-force evaluation of random term models (tests/spec/test_spec_termsat.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from .finitedomains import _CONST, _LIT, _NUM, Unsupported, _conjuncts, _domains
from .satgates import MAX_PB_NODES, Gates, holds, test_of

__all__ = ["term_rows", "term_domains", "MAX_DOMAIN", "MAX_PB_NODES"]

#: Largest integer domain encoded one-hot (as spec/satdomains.py).
MAX_DOMAIN = 64
#: Conflicts per SAT call on this path before the Z3 path decides instead (a count: the
#: same path for the same model on every machine; both paths are exact, so the same
#: solutions). Unsatisfiable permutation models with modular differences (29-dining2)
#: cost MiniSat up to ~20,000 conflicts where Z3's pre-check takes ~20 ms.
TERM_CONFLICT_BUDGET = 1_000
#: Integer-valued and comparison operators.
_ARITH = {"add", "sub", "mul", "neg", "div", "mod"}
_CMP = {"le", "lt", "ge", "gt"}

_Form = tuple  # (constant, {const id: coefficient}, {literal: weight})


class _Encoder(Gates):
    """Clauses (DIMACS ints) of a term model (spec/satgates.py's gates over its nodes)."""

    def __init__(self, nodes: list[tuple], kinds: dict[int, str], doms: dict[int, list[int]]):
        self.nodes = nodes
        self.kinds = kinds  # const id -> "bool" / "int"
        self.doms = doms
        super().__init__()
        self.bmemo: dict[int, int] = {}
        self.imemo: dict[int, _Form] = {}
        self.smemo: dict[int, str] = {}
        self.var: dict[int, int] = {}  # Bool const id -> variable
        self.onehot: dict[int, dict[int, int]] = {}  # Int const id -> value -> variable
        for c, kind in kinds.items():
            if kind == "bool":
                self.var[c] = self.new()
                continue
            vals = doms[c]
            if len(vals) > MAX_DOMAIN:
                raise Unsupported("integer domain too large for one-hot")
            bits = {v: self.new() for v in vals}
            self.onehot[c] = bits
            self.exactly_one(list(bits.values()))

    # ---- sorts, Boolean and integer nodes ----
    def sort(self, i: int) -> str:
        got = self.smemo.get(i)
        if got is None:
            op, args = self.nodes[i]
            if op == _CONST:
                got = self.kinds[args]
            elif op == _NUM or op in _ARITH:
                got = "int"
            elif op == "ite":
                got = self.sort(args[1])
            else:
                got = "bool"
            self.smemo[i] = got
        return got

    def lit(self, i: int) -> int:
        got = self.bmemo.get(i)
        if got is not None:
            return got
        op, args = self.nodes[i]
        if op == _CONST:
            out = self.var[args]
        elif op == _LIT:
            out = 1 if args else -1
        elif op == "not":
            out = -self.lit(args[0])
        elif op == "and":
            out = self.and_([self.lit(a) for a in args])
        elif op == "or":
            out = self.or_([self.lit(a) for a in args])
        elif op == "implies":
            out = self.or_([-self.lit(args[0]), self.lit(args[1])])
        elif op == "xor" and len(args) == 2:
            out = self.xor(self.lit(args[0]), self.lit(args[1]))
        elif op == "ite":
            out = self.ite(self.lit(args[0]), self.lit(args[1]), self.lit(args[2]))
        elif op in ("eq", "distinct") and len(args) >= 2 and self.sort(args[0]) == "bool":
            ls = [self.lit(a) for a in args]
            if op == "eq":
                out = self.and_([-self.xor(ls[0], x) for x in ls[1:]])
            elif len(ls) == 2:
                out = self.xor(ls[0], ls[1])
            else:  # three or more distinct Booleans: impossible
                out = -1
        elif op == "distinct" and len(args) > 2:
            out = self.and_(
                [self.compare("distinct", a, b) for k, a in enumerate(args) for b in args[k + 1 :]]
            )
        elif (op in _CMP or op in ("eq", "distinct")) and len(args) == 2:
            out = self.compare(op, args[0], args[1])
        else:
            raise Unsupported(f"operator {op}")
        self.bmemo[i] = out
        return out

    def form(self, i: int) -> _Form:
        got = self.imemo.get(i)
        if got is not None:
            return got
        op, args = self.nodes[i]
        if op == _NUM:
            out: _Form = (args, {}, {})
        elif op == _CONST:
            if self.kinds[args] != "int":
                raise Unsupported("a Boolean constant in arithmetic")
            out = (0, {args: 1}, {})
        elif op == "add":
            out = _lin_sum([self.form(a) for a in args], [1] * len(args))
        elif op == "sub":
            out = _lin_sum([self.form(a) for a in args], [1] + [-1] * (len(args) - 1))
        elif op == "neg":
            out = _lin_sum([self.form(args[0])], [-1])
        elif op == "mul":
            fs = [self.form(a) for a in args]
            scale, rest = 1, []
            for f in fs:
                if f[1] or f[2]:
                    rest.append(f)
                else:
                    scale *= f[0]
            if len(rest) > 1:
                raise Unsupported("a product of unknowns")
            out = _lin_sum(rest, [scale]) if rest else (scale, {}, {})
        elif op == "ite":
            c = self.lit(args[0])
            ft, fe = self.form(args[1]), self.form(args[2])
            d = _lin_sum([ft, fe], [1, -1])
            bits: dict[int, int] = {}
            if self._offset(d):  # the constant part, the Ints' minima included
                bits[c] = self._offset(d)
            for b, w in self._bits(d).items():  # c * (t - e), bit by bit
                g = self.and_([c, b])
                bits[g] = bits.get(g, 0) + w
            out = _lin_sum([fe, (0, {}, bits)], [1, 1])
        else:
            raise Unsupported(f"integer operator {op}")
        self.imemo[i] = out
        return out

    def _bits(self, f: _Form) -> dict[int, int]:
        """The non-constant part of ``f`` as literal weights (Ints one-hot, minus their
        minimum, which ``_offset`` adds back)."""
        out = dict(f[2])
        for c, a in f[1].items():
            vals = self.doms[c]
            for v in vals:
                w = a * (v - vals[0])
                if w:
                    b = self.onehot[c][v]
                    out[b] = out.get(b, 0) + w
        return out

    def _offset(self, f: _Form) -> int:
        return f[0] + sum(a * self.doms[c][0] for c, a in f[1].items())

    # ---- comparisons ----
    def compare(self, op: str, a: int, b: int) -> int:
        d = _diff(self.form(a), self.form(b))  # a - b op 0
        k, lin, bits = d
        if not bits and len(lin) <= 2:
            if not lin:
                return 1 if holds(op, k, 0) else -1
            if len(lin) == 1:
                ((c, co),) = lin.items()
                on = self.onehot[c]
                if op == "eq":  # the one value solving co * v + k == 0, if any
                    w, r = divmod(-k, co)
                    x = on.get(w) if r == 0 else None
                    good = [] if x is None else [x]
                else:
                    test = test_of(op)
                    good = [x for v, x in on.items() if test(co * v + k, 0)]
                if 2 * len(good) <= len(on):
                    return self.or_(good)
                keep = set(good)
                return -self.or_([x for x in on.values() if x not in keep])
            return self._pair(op, d)
        return self.pb(op, self._bits(d), self._offset(d))

    def _pair(self, op: str, d: _Form, root: bool = False) -> int:
        """``ax * x + ay * y + k op 0`` over two Ints: ``t`` with, for each value ``v`` of
        ``x``, ``x = v -> (t <-> y in good(v))``, written on the smaller side of ``y``'s
        values (good or bad). ``root``: the comparison is asserted, so only ``x = v -> y in
        good(v)`` is written, without ``t`` (returned as True)."""
        k, lin, _ = d
        (cx, ax), (cy, ay) = lin.items()
        t = 1 if root else self.new()
        ys = self.onehot[cy]
        n = len(ys)
        test = test_of(op)
        out = self.clauses
        # need: the clauses with -t (x = v -> y in good(v)), written without it at the
        # root; conv: those with t (the converse), not needed when the atom is asserted
        need = out.append if not root else (lambda c: out.append(c[1:]))
        conv = out.append if not root else (lambda c: None)
        for v, xv in self.onehot[cx].items():
            base = ax * v + k
            if op == "eq" or op == "distinct":  # one value of y solves ay * y = -base
                w, r = divmod(-base, ay)
                yw = ys.get(w) if r == 0 else None
                if yw is None and op == "eq":
                    need([-t, -xv])
                elif yw is None:
                    conv([t, -xv])
                elif op == "eq":
                    need([-t, -xv, yw])
                    conv([t, -xv, -yw])
                else:
                    conv([t, -xv, yw])
                    need([-t, -xv, -yw])
                continue
            good = [yw for w, yw in ys.items() if test(base + ay * w, 0)]
            if len(good) == n:
                conv([t, -xv])
            elif not good:
                need([-t, -xv])
            elif 2 * len(good) <= n:  # t <-> y in good (given x = v)
                need([-t, -xv, *good])
                for yw in good:
                    conv([t, -xv, -yw])
            else:
                bad = [yw for w, yw in ys.items() if not test(base + ay * w, 0)]
                conv([t, -xv, *bad])
                for yw in bad:
                    need([-t, -xv, -yw])
        return t

    def assert_root(self, i: int) -> None:
        op, args = self.nodes[i]
        if op == "or":
            self.clauses.append([self.lit(a) for a in args])
        elif (
            i not in self.bmemo
            and (op in _CMP or op == "eq" or op == "distinct")
            and len(args) == 2
            and self.sort(args[0]) == "int"
        ):
            self._assert_compare(op, args[0], args[1])
        elif op == "distinct" and len(args) > 2 and self.sort(args[0]) == "int":
            self._all_different(args)
        else:
            self.clauses.append([self.lit(i)])

    def _assert_compare(self, op: str, a: int, b: int) -> None:
        """A comparison asserted at the top level, written as clauses of its meaning with
        no literal standing for it (``compare`` makes one, both directions, for use under
        other operators): fewer variables and clauses, the same projected models."""
        d = _diff(self.form(a), self.form(b))
        k, lin, bits = d
        if not bits and len(lin) == 1:
            ((c, co),) = lin.items()
            on = self.onehot[c]
            test = test_of(op)
            good = [x for v, x in on.items() if test(co * v + k, 0)]
            if 2 * len(good) <= len(on):  # one of the good values (exactly one is true)
                self.clauses.append(good or [-1])
            else:  # none of the bad ones
                keep = set(good)
                self.clauses.extend([-x] for x in on.values() if x not in keep)
        elif not bits and len(lin) == 2:
            self._pair(op, d, root=True)
        elif bits or lin:
            self.assert_pb(op, self._bits(d), self._offset(d))
        else:
            self.clauses.append([1 if holds(op, k, 0) else -1])

    def _all_different(self, args: Sequence[int]) -> None:
        ids = []
        for a in args:
            op, c = self.nodes[a]
            if op != _CONST:
                for k, x in enumerate(args):  # not all constants: pairwise atoms
                    for y in args[k + 1 :]:
                        self.clauses.append([self.compare("distinct", x, y)])
                return
            ids.append(c)
        values: dict[int, list[int]] = {}
        for c in ids:
            for v, x in self.onehot[c].items():
                values.setdefault(v, []).append(x)
        for lits in values.values():  # each value taken at most once
            if len(lits) > 1:
                self.clauses.extend([-p, -q] for j, p in enumerate(lits) for q in lits[j + 1 :])
        if len(values) == len(ids):  # as many values as constants: each is taken (implied)
            self.clauses.extend(list(lits) for lits in values.values())


def _diff(fa: _Form, fb: _Form) -> _Form:
    """``fa - fb`` (the comparisons' common case first: no Boolean weights)."""
    if fa[2] or fb[2]:
        return _lin_sum([fa, fb], [1, -1])
    lin = dict(fa[1])
    for c, a in fb[1].items():
        lin[c] = lin.get(c, 0) - a
    return fa[0] - fb[0], {c: a for c, a in lin.items() if a}, {}


def _lin_sum(forms: Sequence[_Form], scales: Sequence[int]) -> _Form:
    k = 0
    lin: dict[int, int] = {}
    bits: dict[int, int] = {}
    for (fk, fl, fb), s in zip(forms, scales, strict=True):
        k += s * fk
        for c, a in fl.items():
            lin[c] = lin.get(c, 0) + s * a
        for x, w in fb.items():
            bits[x] = bits.get(x, 0) + s * w
    return k, {c: a for c, a in lin.items() if a}, {x: w for x, w in bits.items() if w}


def term_domains(
    nodes: list[tuple], roots: Sequence[int], consts: Sequence[int], kinds: Sequence[int]
) -> tuple[dict[int, list[int]], set[int], int] | None:
    """The Int constants' domains from top-level bounds (spec/finitespace.py's reading), the
    bound conjuncts read, and the number of assignments; None without finite domains."""
    sorts = dict(zip(consts, kinds, strict=True))
    atoms: set[int] = set()
    try:
        doms = _domains(nodes, roots, sorts, list(consts), atoms)  # type: ignore[arg-type]
    except (Unsupported, RecursionError):
        return None
    total = 1
    for c in consts:
        total *= 2 if sorts[c] == z3.Z3_BOOL_SORT else len(doms[c])
    return doms, atoms, total


def term_rows(
    nodes: list[tuple],
    roots: Sequence[int],
    consts: Sequence[int],
    kinds: Sequence[int],
    limit: int | None,
    domains: tuple[dict[int, list[int]], set[int], int] | None = None,
) -> list[list[Any]] | None:
    """Every solution projected on ``consts`` (const ids, in order; ``kinds`` their Z3 sort
    kinds, Bool or Int) as value rows, unordered.

    ``domains``: ``term_domains`` of the same model when the caller has it. More than
    ``limit`` solutions: the first ``limit + 1`` rows (the caller rejects). None when the
    model is outside this path or the conflict budget ran out.
    """
    from .satenum import solve_projected

    got = domains if domains is not None else term_domains(nodes, roots, consts, kinds)
    if got is None:
        return None
    doms, atoms, total = got
    if total == 0:
        return []  # an empty domain: no solution
    kind_of = {
        c: "bool" if k == z3.Z3_BOOL_SORT else "int" for c, k in zip(consts, kinds, strict=True)
    }
    try:
        enc = _Encoder(nodes, kind_of, doms)
        for i in _conjuncts(nodes, roots):
            if i not in atoms:  # the bounds read as domains hold by construction
                enc.assert_root(i)
    except (Unsupported, RecursionError):
        return None
    proj: list[tuple[int, Any]] = []
    for c in consts:
        if kind_of[c] == "bool":
            proj.append((0, enc.var[c]))
        else:
            proj.append((1, list(enc.onehot[c].items())))
    return solve_projected(enc.clauses, proj, limit, amo=False, budget=TERM_CONFLICT_BUDGET)
