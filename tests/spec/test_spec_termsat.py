"""spec/termsat.py: CNF straight from the term model gives exactly the solutions.

Each random problem is built twice from the same draws: as spec/terms.py Terms (what
the engine encodes) and as Z3 terms. Expected sets come from an independent source:
every assignment of the (small) space substituted into the Z3 terms and simplified by
Z3 to true or false.
"""

from __future__ import annotations

import itertools
import random

import pytest
import z3

from puzzleforge.spec import columnmode
from puzzleforge.spec.terms import BOOL, DISPATCH, INT, Builder, Term
from puzzleforge.spec.termsat import term_rows

Z3_FNS = {
    n: getattr(z3, n) for n in ("If", "Sum", "And", "Or", "Not", "Implies", "Xor", "Distinct")
}


def _build(rng: random.Random, fns: dict, bs: list, xs: list) -> list:
    """One random problem over Booleans ``bs`` and integers ``xs`` (bounded first)."""
    If, Sum, And, Or, Not = fns["If"], fns["Sum"], fns["And"], fns["Or"], fns["Not"]
    asserts = []
    for x in xs:
        asserts.append(And(x >= rng.randint(-2, 1), x <= rng.randint(1, 4)))

    def int_term(depth: int):
        k = rng.randrange(7 if depth else 3)
        if k == 0 and xs:
            return rng.choice(xs)
        if k == 1:
            return rng.randint(-3, 3)
        if k == 2 and xs:
            return rng.randint(-2, 3) * rng.choice(xs)
        if k == 3:
            return Sum([int_term(depth - 1) for _ in range(rng.randint(2, 3))] + [rng.choice(xs)])
        if k == 4:
            return rng.choice(xs) - int_term(depth - 1)
        if k == 5:
            return If(bool_term(depth - 1), int_term(depth - 1), int_term(depth - 1))
        return rng.choice(xs) if xs else rng.randint(0, 2)

    def bool_term(depth: int):
        k = rng.randrange(9 if depth else 2)
        if k == 0 and bs:
            return rng.choice(bs)
        if k <= 2 and xs:
            op = rng.choice(["eq", "ne", "lt", "le", "gt", "ge"])
            a, b = int_term(depth - 1 if depth else 0), int_term(0)
            if not any(isinstance(t, (Term, z3.ExprRef)) for t in (a, b)):
                a = rng.choice(xs)
            return {
                "eq": lambda: a == b,
                "ne": lambda: a != b,
                "lt": lambda: a < b,
                "le": lambda: a <= b,
                "gt": lambda: a > b,
                "ge": lambda: a >= b,
            }[op]()
        if k == 3:
            return And([bool_term(depth - 1) for _ in range(rng.randint(2, 3))])
        if k == 4:
            return Or([bool_term(depth - 1) for _ in range(rng.randint(2, 3))])
        if k == 5:
            return Not(bool_term(depth - 1))
        if k == 6:
            return fns["Implies"](bool_term(depth - 1), bool_term(depth - 1))
        if k == 7 and len(xs) >= 2:
            return fns["Distinct"](rng.sample(xs, rng.randint(2, len(xs))))
        if k == 8 and bs:
            return Sum([If(bool_term(0), rng.randint(1, 3), 0) for _ in range(3)]) <= rng.randint(
                0, 5
            )
        return rng.choice(bs) if bs else xs[0] == 0

    for _ in range(rng.randint(1, 4)):
        asserts.append(bool_term(rng.randint(1, 3)))
    return asserts


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


@pytest.mark.parametrize("seed", range(150))
def test_term_rows_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    nb, nx = rng.randint(0, 3), rng.randint(1, 3)
    zb = [z3.Bool(f"b{i}") for i in range(nb)]
    zx = [z3.Int(f"x{i}") for i in range(nx)]
    b = Builder()
    tb = [Term(b, b.mk("const", i), BOOL) for i in range(nb)]
    tx = [Term(b, b.mk("const", 100 + i), INT) for i in range(nx)]
    build_seed = rng.randrange(1 << 30)
    terms = _build(random.Random(build_seed), DISPATCH, tb, tx)
    z3s = _build(random.Random(build_seed), Z3_FNS, zb, zx)
    roots = []
    for t in terms:
        roots.append(t.i if type(t) is Term else b.mk("lit", bool(t)))
    consts = list(range(nb)) + [100 + i for i in range(nx)]
    kinds = [z3.Z3_BOOL_SORT] * nb + [z3.Z3_INT_SORT] * nx
    rows = term_rows(b.nodes, roots, consts, kinds, None)
    assert rows is not None
    z3_asserts = [t if isinstance(t, z3.BoolRef) else z3.BoolVal(bool(t)) for t in z3s]
    doms = [[False, True]] * nb + [list(range(-2, 5))] * nx  # wider than every bound
    expected = _brute(z3_asserts, zb + zx, doms)
    assert len(rows) == len(expected)
    assert {tuple(r) for r in rows} == expected


def test_limit_gives_one_row_more() -> None:
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    roots = [(x >= 0).i, (x <= 3).i, (y >= 0).i, (y <= 3).i, (x != y).i]  # 12 solutions
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    assert len(term_rows(b.nodes, roots, [1, 2], kinds, None)) == 12
    assert len(term_rows(b.nodes, roots, [1, 2], kinds, 5)) == 6


def test_outside_the_fragment_is_refused() -> None:
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    bounds = [(x >= 0).i, (x <= 3).i, (y >= 1).i, (y <= 3).i]
    assert term_rows(b.nodes, [*bounds, (x * y == 2).i], [1, 2], kinds, None) is None
    assert term_rows(b.nodes, [*bounds, (x / y == 1).i], [1, 2], kinds, None) is None
    assert term_rows(b.nodes, [(x >= 0).i, (y <= 3).i], [1, 2], kinds, None) is None  # unbounded


def test_make_expr_terms_are_the_operators_terms() -> None:
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    p = Term(b, b.mk("const", 3), BOOL)
    mk = columnmode.col_make_expr
    assert mk("gt", x, y).i == (x > y).i
    assert mk("neq", x, 3).i == (x != 3).i
    assert mk("and", p, x == y).i == DISPATCH["And"](p, x == y).i
    assert mk("implies", p, x < 2).i == DISPATCH["Implies"](p, x < 2).i
    assert mk("add", x, y, 1).i == DISPATCH["Sum"](x, y, 1).i
    assert mk("not", p).i == DISPATCH["Not"](p).i


def test_wide_domains_and_counts() -> None:
    """Domains over 8 values (sequential at-most-one) and a weighted count, by hand."""
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    p = Term(b, b.mk("const", 3), BOOL)
    If, Sum = DISPATCH["If"], DISPATCH["Sum"]
    roots = [(x >= 0).i, (x <= 11).i, (y >= 0).i, (y <= 11).i]
    roots += [(x - y == 3).i, (Sum(If(p, 2, 0), x, If(x > 5, 1, 0)) <= 7).i]
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT, z3.Z3_BOOL_SORT]
    rows = term_rows(b.nodes, roots, [1, 2, 3], kinds, None)
    expected = {
        (xv, xv - 3, pv)
        for xv in range(3, 12)
        for pv in (False, True)
        if 2 * pv + xv + (xv > 5) <= 7
    }
    assert {tuple(r) for r in rows} == expected


def test_a_boolean_in_no_clause_still_enumerates() -> None:
    """``Or(p, Not(p))`` simplifies to True: ``p`` is in no clause and takes both values."""
    b = Builder()
    p = Term(b, b.mk("const", 1), BOOL)
    x = Term(b, b.mk("const", 2), INT)
    roots = [DISPATCH["Or"](p, DISPATCH["Not"](p)).i, (x >= 0).i, (x <= 1).i]
    rows = term_rows(b.nodes, roots, [1, 2], [z3.Z3_BOOL_SORT, z3.Z3_INT_SORT], None)
    assert sorted(map(tuple, rows)) == [(False, 0), (False, 1), (True, 0), (True, 1)]


def _general_and(gates, lits):
    """The n-ary ``and_`` path for two literals (a list of three, the third True)."""
    return gates.and_([*lits, 1])


def test_two_literal_and_is_the_general_gate() -> None:
    """The inline two-literal ``and_`` makes the same variable and clauses, in the same
    order, as the n-ary path (so the CNF, and MiniSat's search, are unchanged)."""
    from puzzleforge.spec.satgates import Gates

    rng = random.Random(5)
    for _ in range(300):
        a, b = (rng.choice([1, -1, *range(2, 7), *range(-6, -1)]) for _ in range(2))
        fast, slow = Gates(), Gates()
        fast.top = slow.top = 6
        assert fast.and_([a, b]) == _general_and(slow, [a, b])
        assert fast.clauses == slow.clauses
        assert fast.gates == slow.gates


def test_direct_clause_loading_gives_the_same_models() -> None:
    """``load_clauses`` (one C call a clause) against PySAT's ``bootstrap_with``: the same
    complete model set of a random CNF, enumerated by blocking clauses."""
    from pysat.solvers import Minisat22

    from puzzleforge.spec.satenum import load_clauses

    rng = random.Random(11)
    for _ in range(20):
        cnf = [[rng.choice([-1, 1]) * rng.randint(1, 8) for _ in range(3)] for _ in range(20)]

        def models(sat) -> set:
            out = set()
            while sat.solve():
                m = tuple(x > 0 for x in sat.get_model()[:8])
                out.add(m)
                sat.add_clause([-(i + 1) if t else i + 1 for i, t in enumerate(m)])
            return out

        with Minisat22(bootstrap_with=cnf) as ref, Minisat22() as ours:
            load_clauses(ours, cnf)
            assert models(ours) == models(ref)
