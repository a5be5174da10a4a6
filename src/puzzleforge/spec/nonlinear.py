"""Enumeration for nonlinear integer constraints (cubes, squares, products of unknowns).

Why: Z3's default solver needs seconds to find a first model of a system such as
``m + 8 == x1**3, m + 6577 == x2**2, ...`` (corpus spec 68-cubic), and the check that
follows (is there a second solution?) is undecidable in general: it runs until the
attempt's whole budget is gone, after which the attempt is rejected for time although
it had its puzzle. Three measures, used only when the default solver cannot decide the
first check within ``PROBE_MS``:

* the first and later models come from a tactic pipeline that eliminates the equations
  first (``simplify``, ``solve-eqs``, then ``smt``): milliseconds instead of seconds;
* before each later unbounded check, a search with every integer bounded by
  ``2**BOUND_BITS`` finds small further solutions at once (68-cubic with ``if_plus4 = 0``
  leaves ``x4`` free: the default solver needed 3-5 s to see it, or never did);
* the unbounded check that no further solution exists gets ``LATER_CHECK_MS``. If it
  stays undecided, the attempt is rejected as ``uniqueness undecided`` (the original
  tool ends its enumeration there and keeps the puzzle; issue 23: no proof, no puzzle).

Every model returned is a genuine solution, and a puzzle comes out only when the last
check proved that no other solution exists.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import z3

from .fastz3 import add_block
from .modelloop import collect_models, undecided_check
from .solmodel import SolModel
from .solmodel import solution_order_key as _order_key
from .termwalk import walk_terms
from .z3raw import RAW, ptr

__all__ = [
    "is_nonlinear_int",
    "enumerate_nonlinear",
    "ProbeDecided",
    "PROBE_MS",
    "LATER_CHECK_MS",
    "BOUND_BITS",
]

# The slices are idle-machine milliseconds of Z3 work, counted in Z3 resource units
# (spec/budget.py), so where each check stops does not depend on machine load.
#: Work the default solver gets to decide the first check before this path takes over.
#: 250 (1M units): 68-cubic's default solver needs 1.7M units for its first model, which
#: took more than the old 500 ms wall slice on an idle machine (this path was taken and a
#: puzzle cost ~1 s CPU); with 2M units the probe decided and the general path's long
#: "one more?" check made it ~12 s.
PROBE_MS = 250
#: Work slice of each unbounded "one more solution?" check after the first model.
LATER_CHECK_MS = 2000
#: Work slice of the bounded search that precedes it.
BOUNDED_MS = 1000
#: Integers are bounded by 2**BOUND_BITS in the bounded search.
BOUND_BITS = 12


def _numeral(e: Any) -> bool:
    return z3.is_int_value(e) or z3.is_rational_value(e)


_DIVISIONS = (z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_DIV, z3.Z3_OP_REM)


def _nonlinear_raw(assertions: list) -> bool:
    """The shape test of ``is_nonlinear_int`` over plain AST addresses (spec/z3raw.py).

    Why: through z3py's wrappers (``children()``, ``decl()``) the walk cost more than the
    solving it prepares (53-daughter: ~0.3 s of its ~0.5 s enumeration per attempt).
    """
    return _nonlinear_from(ptr(assertions[0].ctx.ref()), [ptr(e.as_ast()) for e in assertions])


def nonlinear_equations(assertions: list) -> bool:
    """True when some top-level equation (a conjunct ``a == b``) multiplies, divides or
    raises an unknown by another (False also when there is none).

    Why: spec/intbound.py works only on such equations; this raw walk tells in
    microseconds, where translating a large linear model's equations cost it ~18 ms
    (43-stone2: written with subtractions, so not QF_LIA to Z3's probe).
    """
    if not assertions:
        return False
    if RAW is None:
        return True  # no cheap answer: the caller's own translation decides
    api: Any = RAW
    c = ptr(assertions[0].ctx.ref())
    eqs, stack = [], [ptr(e.as_ast()) for e in assertions]
    while stack:
        a = stack.pop()
        if api.get_ast_kind(c, a) != z3.Z3_APP_AST:
            continue
        k = api.get_decl_kind(c, api.get_app_decl(c, a))
        if k == z3.Z3_OP_AND:
            stack.extend(api.get_app_arg(c, a, i) for i in range(api.get_app_num_args(c, a)))
        elif k == z3.Z3_OP_EQ:
            eqs.append(a)
    return _nonlinear_from(c, eqs)


def _nonlinear_from(c: int, start: list[int]) -> bool:
    """The walk of ``_nonlinear_raw`` from the AST addresses ``start``."""
    api: Any = RAW
    kind_of, decl_kind, app_decl = api.get_ast_kind, api.get_decl_kind, api.get_app_decl
    num_args, arg = api.get_app_num_args, api.get_app_arg

    def numeral(a: int) -> bool:
        return kind_of(c, a) == z3.Z3_NUMERAL_AST and api.get_sort_kind(c, api.get_sort(c, a)) in (
            z3.Z3_INT_SORT,
            z3.Z3_REAL_SORT,
        )

    seen: set[int] = set()
    stack = list(start)
    while stack:
        a = stack.pop()
        if a in seen:
            continue
        seen.add(a)
        if kind_of(c, a) != z3.Z3_APP_AST:
            continue  # a numeral, or a quantifier (its body is not walked)
        n = num_args(c, a)
        if not n:
            continue
        kids = [arg(c, a, i) for i in range(n)]
        k = decl_kind(c, app_decl(c, a))
        if k == z3.Z3_OP_POWER:
            return True
        if k == z3.Z3_OP_MUL and sum(1 for x in kids if not numeral(x)) >= 2:
            return True
        if k in _DIVISIONS and not numeral(kids[1]):
            return True
        stack.extend(kids)
    return False


def is_nonlinear_int(assertions: list, kinds: list) -> bool:
    """True when the constants are Int/Bool and some term multiplies (or divides by,
    or raises to a power of) an unknown by another."""
    if not assertions or not all(k in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds):
        return False
    if RAW is not None:
        return _nonlinear_raw(assertions)
    for e in walk_terms(assertions, into_quantifiers=False):
        if not z3.is_app(e):
            continue
        kind = e.decl().kind()
        if kind == z3.Z3_OP_POWER:
            return True
        if kind == z3.Z3_OP_MUL and sum(1 for a in e.children() if not _numeral(a)) >= 2:
            return True
        if kind in (z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_DIV, z3.Z3_OP_REM) and not _numeral(
            e.arg(1)
        ):
            return True
    return False


def _tactic_solver(seed: int, ctx: Any) -> Any:
    s = z3.Then("simplify", "solve-eqs", "smt", ctx=ctx).solver()
    s.set("random_seed", seed)
    return s


class ProbeDecided(NamedTuple):
    """The default solver decided the first check within ``PROBE_MS``: the general path
    goes on from this solver and its answer (the same solver, seed and assertions it
    would make) instead of building it again and repeating the check."""

    solver: Any
    result: Any


def enumerate_nonlinear(
    attempt: Any, assertions: list, limit: int | None, consts: list, kinds: list
) -> list[SolModel] | ProbeDecided | None:
    """All solutions projected on ``consts`` (see the module doc); ``ProbeDecided`` when
    the default solver decides the first check within ``PROBE_MS`` (then the general
    path, unchanged, goes on from it); None when the constraints are not nonlinear
    integer ones."""
    if not consts or not is_nonlinear_int(assertions, kinds):
        return None
    budget = attempt.budget
    ctx = attempt.z3s.ctx
    probe = z3.Solver(ctx=ctx)
    probe.set("random_seed", attempt.z3_seed)
    probe.add(assertions)
    first = budget.run(probe, PROBE_MS)
    if first != z3.unknown:
        return ProbeDecided(probe, first)
    del probe
    solver = _tactic_solver(attempt.z3_seed, ctx)
    solver.add(assertions)
    bounded = _tactic_solver(attempt.z3_seed, ctx)
    bounded.add(assertions)
    bound = 1 << BOUND_BITS
    for c in consts:
        if c.sort().kind() == z3.Z3_INT_SORT:
            bounded.add(c >= -bound, c <= bound)

    def next_model(found: int) -> Any:
        if found and budget.run(bounded, BOUNDED_MS) == z3.sat:
            return bounded.model()
        r = budget.run(solver, LATER_CHECK_MS if found else None)
        if r == z3.unknown:  # after a first solution: no proof that no other exists, no puzzle
            raise undecided_check(found)
        return solver.model() if r == z3.sat else None

    def block(const_asts: list, raws: list) -> bool:
        return add_block(solver, const_asts, raws) and add_block(bounded, const_asts, raws)

    sols = collect_models(attempt, consts, kinds, limit, next_model, block)
    ids = [c.get_id() for c in consts]
    sols.sort(key=lambda sol: [_order_key(sol.values.get(k)) for k in ids])
    return sols
