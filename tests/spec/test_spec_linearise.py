"""spec/linearise.py: products with a small-domain factor become linear, with the same models.

Expected solution sets come from an independent source: every point of a small box is
substituted into the original constraints and simplified by Z3 to true or false; the
rewritten constraints must hold at exactly the same points.
"""

from __future__ import annotations

import itertools
import random

import z3

from puzzleforge.spec.linearise import linearise_products
from puzzleforge.spec.nonlinear import is_nonlinear_int

INT = z3.Z3_INT_SORT


def _holds(assertions, consts, point):
    pairs = [(c, z3.IntVal(v)) for c, v in zip(consts, point, strict=True)]
    return all(z3.is_true(z3.simplify(z3.substitute(a, *pairs))) for a in assertions)


def _random_problem(rng: random.Random):
    x, y, z = z3.Ints("x y z")
    box = {x: range(0, 4), y: range(-3, 4), z: range(-1, 2)}
    bounds = [z3.And(x >= 0, x <= 3), y >= -3, y <= 3, z3.Or(z == -1, z == 0, z == 1)]
    terms = [x * y, x * (y + z - 1), (y - 2) * x * z, z * z * y, x * x, 3 * x * y - z]
    body = []
    for _ in range(rng.randint(1, 3)):
        t = rng.choice(terms)
        op = rng.randrange(3)
        k = rng.randint(-4, 6)
        body.append(t == k if op == 0 else t <= k if op == 1 else z3.Or(t > k, y == 0))
    return bounds + body, [x, y, z], box


def test_same_models_as_the_products_on_random_problems():
    rng = random.Random(1127)
    for _ in range(40):
        asserts, consts, box = _random_problem(rng)
        lin = linearise_products(asserts, consts, [INT] * 3)
        assert lin is not None
        assert not is_nonlinear_int(lin, [INT] * 3)
        for point in itertools.product(*(box[c] for c in consts)):
            assert _holds(asserts, consts, point) == _holds(lin, consts, point)


def test_left_alone_outside_the_shape():
    x, y = z3.Ints("x y")
    kinds = [INT, INT]
    # no factor with a bounded domain
    assert linearise_products([x >= 0, y >= 0, x * y == 12], [x, y], kinds) is None
    # a power or a division by an unknown
    assert linearise_products([x >= 0, x <= 3, y >= 0, x**y == 8], [x, y], kinds) is None
    assert linearise_products([x >= 1, x <= 3, y >= 0, y / x == 2], [x, y], kinds) is None
    # already linear: nothing to do
    assert linearise_products([x >= 0, x <= 3, 2 * y - x == 1], [x, y], kinds) is None
    # a domain larger than MAX_FACTOR_DOMAIN
    assert (
        linearise_products([x >= 0, x <= 100, y >= 0, y <= 100, x * y == 12], [x, y], kinds) is None
    )


def test_nonlinear_shape_test_agrees_with_the_wrapper_walk():
    """nonlinear.is_nonlinear_int over addresses answers as the z3py walk it replaced."""
    from puzzleforge.spec import nonlinear

    x, y, z = z3.Ints("x y z")
    cases = [
        [x * y == 2],
        [3 * x + y == 2],
        [x * 3 * 4 == y],
        [x / y == 1],
        [x / 2 == y, x % 3 == 1],
        [x % y == 0],
        [x**2 == y],
        [z3.If(x > 0, y * z, 0) == 1],
        [z3.ForAll([z], x * z == 0)],
        [z3.Or(x == 1, z3.And(y > 2, z - x <= 3))],
    ]
    rng = random.Random(5)
    for _ in range(40):
        cases.append(_random_problem(rng)[0])
    for asserts in cases:
        slow = any(
            z3.is_app(e)
            and (
                e.decl().kind() == z3.Z3_OP_POWER
                or (
                    e.decl().kind() == z3.Z3_OP_MUL
                    and sum(1 for a in e.children() if not nonlinear._numeral(a)) >= 2
                )
                or (e.decl().kind() in nonlinear._DIVISIONS and not nonlinear._numeral(e.arg(1)))
            )
            for e in nonlinear.walk_terms(asserts, into_quantifiers=False)
        )
        assert nonlinear._nonlinear_raw(asserts) == slow, asserts
