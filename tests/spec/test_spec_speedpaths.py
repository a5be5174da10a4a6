"""The finite-domain fast path (spec/finite.py) gives exactly Z3's answers.

Random constraint problems over Booleans and small integers (the shapes specs build:
If/Sum counts, bounds, Distinct, Implies, integer division and modulo) are solved twice:
by exhaustive evaluation and by Z3 enumeration with model completion. The solution sets
(projected on the constants that occur) and optima must be identical, and the fast path
must refuse (return None) whatever it cannot evaluate exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3

from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec import backends, columnmode, solving
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.fastz3 import collect_consts, const_ids
from puzzleforge.spec.finite import compile_finite, compile_terms
from puzzleforge.spec.terms import BOOL, DISPATCH, INT, Builder, Fallback, Term
from puzzleforge.spec.z3names import bind_context
from puzzleforge.spec.z3space import Z3Space

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"


def _z3_solutions(assertions: list, consts: list) -> list[tuple]:
    if not assertions:
        return [()] if not consts else None  # type: ignore[return-value]
    ctx = assertions[0].ctx
    s = z3.Solver(ctx=ctx)
    s.add(assertions)
    out = []
    while s.check() == z3.sat:
        m = s.model()
        vals = [m.eval(c, model_completion=True) for c in consts]
        out.append(tuple(bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long() for v in vals))
        if not consts:
            break
        s.add(z3.Or([c != v for c, v in zip(consts, vals, strict=True)]))
        assert len(out) < 5000
    return sorted(out)


def _random_problem(rng: random.Random, ctx: z3.Context) -> tuple[list, list, z3.ArithRef]:
    bools = [z3.Bool(f"b{i}", ctx) for i in range(rng.randint(1, 5))]
    ints = [z3.Int(f"x{i}", ctx) for i in range(rng.randint(0, 3))]
    cons: list = []
    for x in ints:
        lo = rng.randint(-4, 3)
        if rng.random() < 0.3:
            cons.append(z3.Or([x == v for v in rng.sample(range(-3, 6), 3)]))
        else:
            cons.append(z3.And(x >= lo, x <= lo + rng.randint(0, 5)))

    def term(depth: int) -> z3.ArithRef:
        r = rng.random()
        if depth == 0 or r < 0.3:
            if ints and rng.random() < 0.5:
                return rng.choice(ints)
            return z3.IntVal(rng.randint(-3, 5), ctx)
        if r < 0.5:
            return z3.If(boolean(depth - 1), term(depth - 1), term(depth - 1))
        if r < 0.7:
            return z3.Sum([z3.If(b, rng.randint(1, 6), 0) for b in bools] + [term(depth - 1)])
        if r < 0.8:
            return term(depth - 1) * rng.randint(-2, 3)
        if r < 0.9:
            return term(depth - 1) - term(depth - 1)
        d = rng.choice([-3, -2, 2, 3])
        return term(depth - 1) / d if rng.random() < 0.5 else term(depth - 1) % d

    def boolean(depth: int) -> z3.BoolRef:
        r = rng.random()
        if depth == 0 or r < 0.25:
            return rng.choice(bools)
        if r < 0.45:
            return rng.choice(
                [
                    term(depth - 1) <= term(depth - 1),
                    term(depth - 1) > term(depth - 1),
                    term(depth - 1) == term(depth - 1),
                ]
            )
        if r < 0.55:
            return z3.Implies(boolean(depth - 1), boolean(depth - 1))
        if r < 0.65:
            return z3.Not(boolean(depth - 1))
        if r < 0.75:
            return z3.Xor(boolean(depth - 1), boolean(depth - 1))
        if r < 0.85 and len(ints) >= 2:
            return z3.Distinct(ints)
        return rng.choice([z3.And, z3.Or])(boolean(depth - 1), boolean(depth - 1))

    cons += [boolean(3) for _ in range(rng.randint(1, 3))]
    return cons, bools + ints, term(2)


@pytest.mark.parametrize("seed", range(12))
def test_finite_path_matches_z3_on_random_problems(seed: int) -> None:
    _check_random_problems(seed)


@pytest.mark.parametrize("seed", range(6))
def test_broadcast_blocks_match_z3_on_random_problems(seed: int, monkeypatch) -> None:
    """The broadcast evaluation (trailing constants on axes, leading ones in blocks, freed
    intermediates) on spaces made small enough for the tests to reach every branch."""
    from puzzleforge.spec import finitespace

    monkeypatch.setattr(finitespace, "_FLAT", 0)
    monkeypatch.setattr(finitespace, "BLOCK", 1 << (2 + seed % 4))
    monkeypatch.setattr(finitespace, "CHUNK", 1 << (2 + seed % 3))
    _check_random_problems(seed + 100)


def _check_random_problems(seed: int) -> None:
    rng = random.Random(seed)
    ctx = z3.Context()
    checked = 0
    for _ in range(25):
        cons, consts, objective = _random_problem(rng, ctx)
        kinds = [c.sort().kind() for c in consts]
        present = const_ids(cons + [objective])
        proj = [c for c in consts if c.get_id() in present]
        res = compile_finite(cons, proj, [c.sort().kind() for c in proj], objective=objective)
        if res is None:
            # refusing is allowed only for an integer without finite top-level bounds
            assert any(k == z3.Z3_INT_SORT for k in kinds)
            continue
        prob, objv = res
        used = [proj[i] for i in prob.used]
        got = (
            sorted(zip(*prob.row_values(prob.rows), strict=True)) if used else [()] * len(prob.rows)
        )
        assert got == _z3_solutions(cons, used), [str(c) for c in cons]
        assert list(prob.rows) == sorted(prob.rows)
        if len(prob.rows):
            # the objective agrees with Z3's evaluation on every solution
            for row, vals in zip(
                prob.rows[:20], zip(*prob.row_values(prob.rows[:20]), strict=True), strict=True
            ):
                sub = [
                    (c, z3.BoolVal(v, ctx) if isinstance(v, bool) else z3.IntVal(v, ctx))
                    for c, v in zip(used, vals, strict=True)
                ]
                want = (
                    z3.simplify(z3.substitute(objective, *sub)) if sub else z3.simplify(objective)
                )
                assert int(objv[list(prob.rows).index(row)]) == want.as_long()
        checked += 1
    assert checked >= 5


def test_finite_path_refuses_what_it_cannot_model_exactly() -> None:
    ctx = z3.Context()
    x, y = z3.Int("x", ctx), z3.Int("y", ctx)
    r = z3.Real("r", ctx)
    bounds = [x >= 0, x <= 3, y >= 0, y <= 3]
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    assert compile_finite(bounds + [x / y == 1], [x, y], kinds) is None  # y may be 0
    assert compile_finite([x >= 0, x + 1 > 2], [x], [z3.Z3_INT_SORT]) is None  # unbounded
    assert compile_finite([r > 0, r < 2], [r], [z3.Z3_REAL_SORT]) is None
    assert compile_finite(bounds + [x * 2**61 * y > 1], [x, y], kinds) is None  # overflow
    aux = z3.Int("aux", ctx)
    assert compile_finite(bounds + [aux == x], [x, y], kinds) is None  # outside the projection
    prob, _ = compile_finite(bounds + [x / (y + 1) == 1], [x, y], kinds)
    assert len(prob.rows) == len(_z3_solutions(bounds + [x / (y + 1) == 1], [x, y]))


def _capture(spec: Path, n: int, seed: int) -> list[tuple]:
    """(assertions, projection) of every enumeration made while generating ``n`` puzzles."""
    seen: list[tuple] = []
    original = backends.ENUMERATE
    finite = original[0]
    assert finite.name == "finite"

    def spy(a, p, limit):  # noqa: ANN001 - test hook
        out = finite.run(a, p, None)
        z3_sols = _z3_solutions(p.assertions, p.consts) if len(p.consts) <= 16 else None
        seen.append((out, z3_sols, p.consts))
        if out is not None and limit is not None and len(out) > limit:
            raise solving.Rejection("too many solutions", "test hook")
        return out

    col_original = columnmode.enumerate_terms

    def col_spy(a, limit):  # noqa: ANN001 - test hook
        state = a.col
        out = col_original(a, None)
        if out is not None:
            # the Python-built terms' answer against Z3 on the Z3 terms of the same formulas
            a.col = state
            columnmode.column_abandon(a)
            present = const_ids(a.assertions)
            consts = [c for c in a.sym_consts if c.get_id() in present]
            z3_sols = _z3_solutions(a.assertions, consts) if len(consts) <= 16 else None
            seen.append((out, z3_sols, consts))
            if limit is not None and len(out) > limit:
                raise solving.Rejection("too many solutions", "test hook")
        return out

    backends.ENUMERATE = (backends.Backend(finite.name, finite.applies, spy),) + original[1:]
    columnmode.enumerate_terms = col_spy
    try:
        fam = load_spec_family(spec, trust=True)
        for i in range(n):
            try:  # noqa: SIM105
                fam.generate(SpecParams(attempts=1), make_rng(derive_seed(seed, fam.name, i)))
            except Exception:  # noqa: BLE001 - rejected attempts are fine here
                pass
    finally:
        backends.ENUMERATE = original
        columnmode.enumerate_terms = col_original
    return seen


CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"


@pytest.mark.parametrize(
    "spec",
    [
        EXAMPLES / "house_numbers.yaml",
        EXAMPLES / "ore.yaml",
        EXAMPLES / "vase.yaml",
        CORPUS / "2-graduation.yaml",
        CORPUS / "1-hamburger.yaml",
    ],
    ids=lambda p: p.stem,
)
def test_spec_enumerations_agree_with_z3(spec: Path) -> None:
    if not spec.exists():
        pytest.skip(f"{spec} is absent (the shared corpus is not checked out here)")
    seen = _capture(spec, 6, 3)
    compared = 0
    for fast, z3_sols, consts in seen:
        if fast is None or z3_sols is None:
            continue
        got = sorted(tuple(s.values.get(c.get_id()) for c in consts) for s in fast)
        assert got == z3_sols
        assert [
            tuple(s.values.get(c.get_id()) for c in consts) for s in fast
        ] == got  # canonical order
        compared += 1
    assert compared >= 1  # the fast path ran and was checked at least once


def test_collect_and_const_ids_agree() -> None:
    ctx = z3.Context()
    a, b = z3.Bools("a b", ctx)
    x = z3.Int("x", ctx)
    e = [z3.Implies(a, x > 2), z3.Or(b, x == 1)]
    assert const_ids(e) == {c.get_id() for c in collect_consts(e)}


# ---- Python-built terms (spec/terms.py) against the Z3 terms of the same formulas ----


def _formula(rng: random.Random, ns: dict, bools: list, ints: list) -> tuple[list, object]:
    """Random constraints and objective written once, built with Z3 or with Terms (``ns``)."""
    If, Sum, And, Or, Not = ns["If"], ns["Sum"], ns["And"], ns["Or"], ns["Not"]
    Implies, Xor, Distinct = ns["Implies"], ns["Xor"], ns["Distinct"]

    def term(depth: int):
        r = rng.random()
        if depth == 0 or r < 0.25:
            return rng.choice(ints) if ints and rng.random() < 0.6 else rng.randint(-3, 5)
        k = rng.randrange(11)
        a = term(depth - 1)
        if k == 0:
            return If(boolean(depth - 1), a, term(depth - 1))
        if k == 1:
            return Sum([If(b, rng.randint(1, 6), 0) for b in bools] + [a])
        if k == 2:
            return sum([a, term(depth - 1)])  # Python's sum: 0 + a + b
        if k == 3:
            return a * rng.randint(-2, 3) if rng.random() < 0.5 else rng.randint(-2, 3) * a
        if k == 4:
            return a - term(depth - 1) if rng.random() < 0.5 else 7 - a
        if k == 5:
            return -a if not isinstance(a, int) else a
        if k == 6:
            return a / rng.choice([-3, 2, 3]) if not isinstance(a, int) else a
        if k == 7:
            return a % rng.choice([-3, 2, 3]) if not isinstance(a, int) else a
        if k == 8:
            return Sum([a]) if not isinstance(a, int) else a
        if k == 9:
            return a + term(depth - 1) if rng.random() < 0.5 else 2 + a
        return If(rng.choice([True, False]), a, 1)

    def boolean(depth: int):
        r = rng.random()
        if depth == 0 or r < 0.2:
            return rng.choice(bools)
        k = rng.randrange(12)
        if k == 0:
            return term(depth - 1) <= term(depth - 1)
        if k == 1:
            return 3 > term(depth - 1)  # noqa: SIM300 - reflected comparison
        if k == 2:
            return term(depth - 1) == term(depth - 1)
        if k == 3:
            return term(depth - 1) != rng.randint(0, 3)
        if k == 4:
            return Implies(boolean(depth - 1), boolean(depth - 1))
        if k == 5:
            return Not(boolean(depth - 1))
        if k == 6:
            return Xor(boolean(depth - 1), boolean(depth - 1))
        if k == 7:
            return Distinct(ints) if len(ints) >= 2 else Distinct(bools[0], True)
        if k == 8:
            return And(boolean(depth - 1), rng.choice([True, boolean(depth - 1)]))
        if k == 9:
            return Or([boolean(depth - 1) for _ in range(rng.randint(1, 3))])
        if k == 10:
            return If(boolean(depth - 1), boolean(depth - 1), rng.choice([True, False]))
        return rng.choice(bools) == rng.choice([True, False, bools[0]])

    cons: list = []
    for x in ints:
        lo = rng.randint(-4, 3)
        if rng.random() < 0.3:
            cons.append(Or([x == v for v in rng.sample(range(-3, 6), 3)]))
        else:
            cons.append(And(x >= lo, lo + rng.randint(0, 5) >= x))
    cons += [boolean(3) for _ in range(rng.randint(1, 3))]
    return cons, term(2)


def _captured_evaluations(monkeypatch) -> list:
    from puzzleforge.spec import finite

    calls: list = []
    original = finite._evaluate

    def spy(nodes, roots, obj, used, kinds, limit):  # noqa: ANN001 - test hook
        calls.append((list(nodes), list(roots), obj, list(used)))
        return original(nodes, roots, obj, used, kinds, limit)

    monkeypatch.setattr(finite, "_evaluate", spy)
    return calls


def _flat(value: object, out: list) -> None:
    if isinstance(value, (list, tuple)):
        for v in value:
            _flat(v, out)
    else:
        out.append(value)


@pytest.mark.parametrize("seed", range(10))
def test_terms_build_exactly_the_z3_dag(seed: int, monkeypatch) -> None:
    """Same formula, built with Z3 and with Terms: same nodes, decisions, rows, optimum."""
    calls = _captured_evaluations(monkeypatch)
    assert _compare_random_formulas(seed, Z3Space(), calls) >= 8


def _compare_random_formulas(seed: int, space: Z3Space, calls: list) -> int:
    # z3's own functions bound to the space's context, and the space's Term versions
    ctx = space.ctx
    z3ns = {n: bind_context(n, getattr(z3, n), ctx) for n in DISPATCH}
    terms = space.dispatch("terms")
    compared = 0
    for k in range(30):
        nb, ni = (
            random.Random(seed * 100 + k).randint(1, 5),
            random.Random(seed * 100 + k).randint(0, 3),
        )
        bools = [z3.Bool(f"b{i}", ctx) for i in range(nb)]
        ints = [z3.Int(f"x{i}", ctx) for i in range(ni)]
        consts = bools + ints
        b = Builder()
        tb = [Term(b, b.mk("const", c.get_id()), BOOL) for c in bools]
        ti = [Term(b, b.mk("const", c.get_id()), INT) for c in ints]
        # Z3 accepts every formula these seeds draw (a refusal fails the test)
        z_cons, z_obj = _formula(random.Random(seed * 1000 + k), z3ns, bools, ints)
        try:
            t_cons, t_obj = _formula(random.Random(seed * 1000 + k), terms, tb, ti)
        except Fallback:
            continue
        zs: list = []
        _flat(z_cons, zs)
        zs = [z3.BoolVal(v, ctx) if isinstance(v, bool) else v for v in zs]
        ts: list = []
        _flat(t_cons, ts)
        if not all(isinstance(v, bool) or type(v) is Term for v in ts) or not isinstance(
            t_obj, (int, Term)
        ):
            continue  # a Z3 term came out (no Term among a function's arguments): Z3 decides
        roots = [b.mk("lit", v) if isinstance(v, bool) else v.i for v in ts]
        if isinstance(z_obj, int):
            assert isinstance(t_obj, int) and t_obj == z_obj
            z_obj = t_obj = None
        kinds = [c.sort().kind() for c in consts]
        index = {c.get_id(): i for i, c in enumerate(consts)}
        calls.clear()
        want = compile_finite(zs, consts, kinds, objective=z_obj)
        got = compile_terms(b.nodes, roots, t_obj.i if t_obj is not None else None, index, kinds)
        assert (want is None) == (got is None)
        assert len(calls) == (0 if want is None else 2)  # evaluated once by each, or refused
        if len(calls) == 2:
            assert calls[0] == calls[1]  # the very node list, roots, objective and projection
        if want is not None:
            assert list(want[0].rows) == list(got[0].rows)
            if z_obj is not None:
                assert list(want[1]) == list(got[1])
            compared += 1
    return compared


def test_terms_refuse_what_z3_would_answer_differently() -> None:
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    p = Term(b, b.mk("const", 2), BOOL)
    for bad in (
        lambda: x + 1.5,
        lambda: x + True,
        lambda: p + 1,
        lambda: p == 1,
        lambda: bool(x > 1),
        lambda: str(x),
        lambda: f"{x}",
        lambda: hash(x),
        lambda: x == None,  # noqa: E711
        lambda: DISPATCH["Sum"]([p, p]),
        lambda: DISPATCH["If"](x, 1, 2),
        lambda: DISPATCH["If"](p, 1, True),
        lambda: DISPATCH["And"](p, x > 1, 1),
        lambda: max(x, 2),
        lambda: x in [1, 2],
        lambda: DISPATCH["Not"](x),
    ):
        with pytest.raises(Fallback):
            bad()
    for bad in (lambda: x**2, lambda: x // 2, lambda: abs(x), lambda: len(x), lambda: int(x)):
        with pytest.raises(TypeError):
            bad()

    # every operator a Term has, Z3's expressions have too (else Z3 would raise where Terms do not)
    def has(cls: type, name: str) -> bool:
        return any(name in vars(k) for k in cls.__mro__ if k is not object)

    for name in vars(Term):
        if name.startswith("__") and name not in (
            "__init__",
            "__slots__",
            "__module__",
            "__doc__",
            "__bool__",
            "__hash__",
            "__str__",
            "__repr__",
            "__format__",
            "__weakref__",
        ):
            assert has(z3.ArithRef, name) or has(z3.BoolRef, name), name


@pytest.mark.parametrize(
    "fact,num", [("equal", 2), ("most", 1), ("least", 5), ("equal", 0), ("distinct", 0)]
)
def test_event_count_operator_over_terms_is_the_z3_construction(
    fact: str, num: int, monkeypatch
) -> None:
    from puzzleforge.spec.operators import gen_event_count_condition

    calls = _captured_evaluations(monkeypatch)
    ctx = z3.Context()
    if fact == "distinct":
        consts = [z3.Int(f"x{i}", ctx) for i in range(3)]
        bounds = [z3.And(c >= 0, c <= 3) for c in consts]
        sort = INT
    else:
        consts = [z3.Bool(f"b{i}", ctx) for i in range(4)]
        bounds = []
        sort = BOOL
    want_cons = bounds + gen_event_count_condition(consts, fact, num)
    b = Builder()
    leaves = [Term(b, b.mk("const", c.get_id()), sort) for c in consts]
    roots: list = []
    if fact == "distinct":
        roots = [DISPATCH["And"](t >= 0, t <= 3).i for t in leaves]
    roots += [t.i for t in columnmode.col_event_count(leaves, fact, num)]
    kinds = [c.sort().kind() for c in consts]
    index = {c.get_id(): i for i, c in enumerate(consts)}
    want = compile_finite(want_cons, consts, kinds)
    got = compile_terms(b.nodes, roots, None, index, kinds)
    assert want is not None and got is not None
    assert len(calls) == 2 and calls[0] == calls[1]
    assert list(want[0].rows) == list(got[0].rows) and len(got[0].rows) > 0
