"""spec/satenum.py: the SAT enumeration gives exactly the solutions of the constraints.

Expected sets come from an independent source: every assignment of the (small) space is
substituted into the constraints and simplified by Z3 to true or false.
"""

from __future__ import annotations

import itertools
import random

import pytest
import z3

from puzzleforge.spec.outcome import Rejection
from puzzleforge.spec.satenum import enumerate_sat, sat_solutions


def _brute(assertions, consts, doms):
    out = set()
    for vals in itertools.product(*doms):
        pairs = [
            (c, z3.BoolVal(v) if z3.is_bool(c) else z3.IntVal(v))
            for c, v in zip(consts, vals, strict=True)
        ]
        if all(z3.is_true(z3.simplify(z3.substitute(a, *pairs))) for a in assertions):
            out.add(tuple(vals))
    return out


def _random_problem(rng: random.Random):
    bs = [z3.Bool(f"b{i}") for i in range(rng.randint(1, 4))]
    xs = [z3.Int(f"x{i}") for i in range(rng.randint(0, 3))]
    lo, hi = {}, {}
    asserts = []
    for x in xs:
        lo[x], hi[x] = rng.randint(-2, 1), rng.randint(1, 4)
        asserts.append(z3.And(x >= lo[x], x <= hi[x]))
    atoms = list(bs)
    for x in xs:
        atoms += [
            x == rng.randint(-2, 4),
            x < rng.randint(-1, 4),
            x >= rng.randint(-1, 3),
            x != rng.randint(-1, 3),
        ]
    for x, y in itertools.combinations(xs, 2):  # comparisons of two integers
        atoms += [x < y, x == y, x >= y, x != y]
    if len(xs) >= 2 and rng.random() < 0.3:
        asserts.append(z3.Distinct(xs))
    for _ in range(rng.randint(1, 5)):
        kind = rng.randrange(4)
        pick = rng.sample(atoms, min(len(atoms), rng.randint(1, 3)))
        if kind == 0:
            asserts.append(z3.Or(pick))
        elif kind == 1 and len(pick) >= 2:
            asserts.append(z3.Implies(pick[0], z3.Not(pick[1])))
        elif kind == 2:
            asserts.append(z3.Sum([z3.If(a, 1, 0) for a in pick]) <= rng.randint(0, len(pick)))
        else:
            asserts.append(z3.Sum([z3.If(a, 1, 0) for a in pick]) >= 1)
    consts = bs + xs
    doms = [[False, True]] * len(bs) + [list(range(lo[x], hi[x] + 1)) for x in xs]
    return asserts, consts, doms


def test_random_problems_match_brute_force():
    rng = random.Random(20261127)
    checked = 0
    for _ in range(150):
        asserts, consts, doms = _random_problem(rng)
        kinds = [c.sort().kind() for c in consts]
        rows = enumerate_sat(asserts, consts, kinds, None)
        assert rows is not None
        assert len(rows) == len(set(map(tuple, rows)))
        assert set(map(tuple, rows)) == _brute(asserts, consts, doms)
        checked += 1
    assert checked == 150


def test_order_and_limit_as_the_z3_path():
    a, b = z3.Bools("a b")
    x = z3.Int("x")
    asserts = [x >= 0, x <= 2, z3.Or(a, x == 1)]
    sols = sat_solutions(
        asserts, [a, b, x], [z3.Z3_BOOL_SORT, z3.Z3_BOOL_SORT, z3.Z3_INT_SORT], None
    )
    rows = [[s[a], s[b], s[x]] for s in sols]
    assert rows == [
        [False, False, 1],
        [False, True, 1],
        [True, False, 0],
        [True, False, 1],
        [True, False, 2],
        [True, True, 0],
        [True, True, 1],
        [True, True, 2],
    ]
    with pytest.raises(Rejection) as info:  # the Z3 path's rejection
        sat_solutions(asserts, [a, b, x], [z3.Z3_BOOL_SORT, z3.Z3_BOOL_SORT, z3.Z3_INT_SORT], 7)
    assert info.value.reason == "too many solutions"
    assert (
        len(
            sat_solutions(asserts, [a, b, x], [z3.Z3_BOOL_SORT, z3.Z3_BOOL_SORT, z3.Z3_INT_SORT], 8)
        )
        == 8
    )


def _arith_problem(rng: random.Random):
    """Integer arithmetic inside comparisons: differences, sums, Ifs, products by numbers."""
    bs = [z3.Bool(f"b{i}") for i in range(rng.randint(0, 2))]
    xs = [z3.Int(f"x{i}") for i in range(rng.randint(2, 4))]
    lo = {x: rng.randint(-2, 1) for x in xs}
    hi = {x: lo[x] + rng.randint(1, 3) for x in xs}
    asserts = [z3.And(x >= lo[x], x <= hi[x]) for x in xs]
    conds = list(bs) + [x == rng.randint(-1, 2) for x in xs]

    def term():
        x, y = rng.sample(xs, 2)
        k = rng.randint(-2, 2)
        return rng.choice(
            [
                x - y,  # a difference (two integers: pairs of values)
                x + y + k,
                2 * x - 3 * y,
                -x,
                z3.Sum(xs),  # more than two integers: pseudo-Boolean
                z3.Sum([z3.If(rng.choice(conds), v, 0) for v in xs]),
                z3.If(rng.choice(conds), x, y + 1),
                z3.Sum([z3.If(c, 1, 0) for c in rng.sample(conds, min(2, len(conds)))]) * 2,
            ]
        )

    for _ in range(rng.randint(1, 3)):
        t = term()
        k = rng.randint(-3, 4)
        atom = rng.choice([t == k, t != k, t < k, t <= k, t > k, t >= k, t == term()])
        if rng.random() < 0.3:
            atom = z3.Or(atom, rng.choice(conds))
        elif rng.random() < 0.2:
            atom = z3.Not(atom)
        asserts.append(atom)
    consts = bs + xs
    doms = [[False, True]] * len(bs) + [list(range(lo[x], hi[x] + 1)) for x in xs]
    return asserts, consts, doms


def test_integer_arithmetic_matches_brute_force():
    """Linear atoms over two integers and pseudo-Boolean sums: the exact solution set."""
    rng = random.Random(20261127)
    encoded = 0
    for _ in range(150):
        asserts, consts, doms = _arith_problem(rng)
        kinds = [c.sort().kind() for c in consts]
        rows = enumerate_sat(asserts, consts, kinds, None)
        assert rows is not None, asserts
        assert len(rows) == len(set(map(tuple, rows)))
        assert set(map(tuple, rows)) == _brute(asserts, consts, doms), asserts
        encoded += 1
    assert encoded == 150


def test_outside_the_fragment_is_left_to_z3():
    x, y = z3.Ints("x y")
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    # a product of two unknowns is not encoded
    assert enumerate_sat([x >= 0, x <= 3, y >= 0, y <= 3, x * y == 3], [x, y], kinds, None) is None
    # a sum of two integers is (each value of x implies the values of y that satisfy it)
    assert sorted(
        enumerate_sat([x >= 0, x <= 3, y >= 0, y <= 3, x + y == 3], [x, y], kinds, None)
    ) == [[0, 3], [1, 2], [2, 1], [3, 0]]
    # no upper bound: no finite domain
    assert enumerate_sat([x >= 0, y >= 0, y <= 1], [x, y], kinds, None) is None
    # integer-valued Ifs of cardinality sums (40-guess's shape): left to Z3, or exact
    a = z3.Bool("a")
    cnts = [z3.Sum([z3.If(e == v, 1, 0) for e in (x, y)]) for v in range(3)]
    asserts = [
        x >= 0,
        x <= 2,
        y >= 0,
        y <= 2,
        z3.Or(a, z3.Sum([z3.If(c <= 1, c, 1) for c in cnts]) == 1),
    ]
    rows = enumerate_sat(asserts, [a, x, y], [z3.Z3_BOOL_SORT] + kinds, None)
    assert rows is None or set(map(tuple, rows)) == _brute(
        asserts, [a, x, y], [[False, True], [0, 1, 2], [0, 1, 2]]
    )
    r = z3.Real("r")
    assert enumerate_sat([r > 0], [r], [z3.Z3_REAL_SORT], None) is None


def test_unsat_and_empty_domain():
    a = z3.Bool("a")
    x = z3.Int("x")
    assert enumerate_sat([a, z3.Not(a)], [a], [z3.Z3_BOOL_SORT], None) == []
    assert enumerate_sat([x >= 3, x <= 1], [x], [z3.Z3_INT_SORT], None) == []


def _encodings(asserts, consts):
    """The one-hot rewrite by the z3py wrapper walk and by the address walk (or _Outside)."""
    from puzzleforge.spec import satdomains, satenum

    ctx = consts[0].ctx
    kinds = [c.sort().kind() for c in consts]
    ints = {c.get_id(): c for c, k in zip(consts, kinds, strict=True) if k == z3.Z3_INT_SORT}
    out = []
    for walk in ("wrappers", "addresses"):
        raw = satenum._RawEncoder(ctx, ints) if walk == "addresses" else None
        try:
            doms = raw.domains(asserts, ints) if raw else satdomains.domains(asserts, ints)
            onehot = {
                c: {v: z3.Bool(f"{ints[c].decl().name()}={v}#{c}", ctx) for v in vals}
                for c, vals in doms.items()
            }
            if raw:
                terms = raw.encode(asserts, onehot)
            else:
                terms = [satenum._rewrite(a, ints, onehot, {}) for a in asserts]
            out.append((doms, [t.get_id() for t in terms]))
        except satdomains.Outside as exc:
            out.append(("outside", str(exc)))
    return out


def test_address_walk_builds_the_wrapper_walks_terms():
    """The plain-pointer encoder gives the very ASTs of the z3py walk (same CNF after).

    On the fragment both encode: the address walk alone also reads integer arithmetic
    (tested against brute force above); the wrapper walk is the fallback for a z3 build
    without the plain-pointer accessors.
    """
    rng = random.Random(7)
    for _ in range(200):
        asserts, consts, _ = _random_problem(rng)
        wrappers, addresses = _encodings(asserts, consts)
        assert wrappers == addresses
    x, y = z3.Ints("x y")
    r = z3.Real("r")
    b = z3.Bool("b")
    for asserts, consts in [
        ([x >= 0, y >= 0, y <= 1], [x, y]),  # no upper bound
        ([x >= 0, x <= 3, z3.Or(b, r > 1)], [x, b]),  # a real term
        ([x >= 0, x <= 3, z3.Implies(b, z3.Distinct(x, 2))], [x, b]),
    ]:
        wrappers, addresses = _encodings(asserts, consts)
        assert wrappers == addresses
