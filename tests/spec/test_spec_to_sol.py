"""``z3calls.to_sol`` (post-generation's ``_sol``) reads a model exactly as Z3's wrappers do.

Why: it reads the model through the C API for speed; the scenario ``_sol`` (and so every
post-generation puzzle) depends on its values, their order and the constants it lists.
"""

from __future__ import annotations

import z3

from puzzleforge.spec.operators import z3_to_py
from puzzleforge.spec.z3calls import to_sol


def _wrapper_read(model: z3.ModelRef) -> tuple[dict, dict]:
    values, consts = {}, {}
    for d in model.decls():
        if d.arity() == 0:
            c = d()
            values[c.get_id()] = z3_to_py(model[d])
            consts[c.get_id()] = c
    return values, consts


def test_to_sol_matches_the_wrapper_reading() -> None:
    ctx = z3.Context()
    x, y, big = z3.Ints("x y big", ctx)
    b, nb = z3.Bools("b nb", ctx)
    r = z3.Real("r", ctx)
    f = z3.Function("f", z3.IntSort(ctx), z3.IntSort(ctx))
    s = z3.Solver(ctx=ctx)
    s.add(x > 5, y < -3, b, z3.Not(nb), r * 3 == 1, f(x) == 2, big == 2**70 + x)
    assert s.check() == z3.sat
    model = s.model()
    sol = to_sol(model)
    values, consts = _wrapper_read(model)
    assert sol.values == values
    assert list(sol.values) == list(values)  # same order as model.decls()
    assert list(sol.consts) == list(consts)
    assert all(sol.consts[k].eq(consts[k]) for k in consts)
    assert sol.values[big.get_id()] == 2**70 + sol.values[x.get_id()]
    assert sol.values[nb.get_id()] is False and sol.values[b.get_id()] is True
    assert isinstance(sol.values[r.get_id()], float)
    assert sol[x] == sol.values[x.get_id()]
