"""The DSL itself: rule-time checks with clear errors, the pretty-printer, params."""

from __future__ import annotations

import pytest

from puzzleforge.grid import (
    And,
    Bool,
    ClueSpec,
    Const,
    DSLError,
    Enum,
    Grid,
    Implies,
    Int,
    Model,
    Param,
    Range,
    balanced,
    exactly_k_true,
    forall,
    no_triples,
)
from puzzleforge.grid.engine import Compiled
from puzzleforge.grid.genres import GENRES, get_genre


def _grid():
    n = Param("n", int)
    g = Grid(n, n)
    return n, g, Bool.over(g.C, name="color")


def test_seed_example_builds_prints_and_solves() -> None:
    nR, nC = Param("nR", int), Param("nC", int)
    grid = Grid(nR, nC)
    color = Bool.over(grid.C, name="color")
    m = Model("unruly")
    m += forall(grid.rows, lambda r: r.sum_of(color) == nC // 2)
    m += forall(grid.cols, lambda c: c.sum_of(color) == nR // 2)
    m += forall(grid.rows, lambda line: forall(line.windows(3), lambda w: 0 < w.sum_of(color) < 3))
    m += forall(grid.cols, lambda line: no_triples(line, color))
    text = m.pretty()
    assert "forall r in rows: (sum x in r: color[x]) == nC // 2" in text
    assert "(sum x in w: color[x]) > 0 & (sum x in w: color[x]) < 3" in text
    assert text.splitlines()[1] == "params: nC: int, nR: int"  # in order of first use
    # 6x6 balanced grids with no three in a line: 11222 (the count Binairo's distinct-row rule cuts to 4140)
    assert Compiled(m, {"nR": 6, "nC": 6}).count(limit=20000) == 11222


def test_binairo_count_closed_form() -> None:
    comp = get_genre("binairo").compile(
        get_genre("binairo").parse("binairo 6x6\n" + "......\n" * 6)
    )
    assert comp.count(limit=5000) == 4140


@pytest.mark.parametrize("int_encoding", ["onehot", "order"])
@pytest.mark.parametrize("card", ["seqcounter", "totalizer", "cardnetwrk"])
def test_encodings_count_latin_squares(int_encoding: str, card: str) -> None:
    n = Param("n", int)
    g = Grid(n, n)
    x = Int(1, n).over(g.C, name="x")
    m = Model("latin")
    m += forall(
        g.rows, lambda r: forall(Range(1, n + 1), lambda v: r.count_true(lambda c: x[c] == v) == 1)
    )
    m += forall(
        g.cols, lambda r: forall(Range(1, n + 1), lambda v: r.count_true(lambda c: x[c] == v) == 1)
    )
    comp = Compiled(m, {"n": 4}, int_encoding=int_encoding, card_encoding=card)
    assert comp.count(limit=1000) == 576  # 4x4 Latin squares


def test_weighted_sums_and_comparisons_against_brute_force() -> None:
    n = Param("n", int)
    g = Grid(1, n)
    b = Bool.over(g.C, name="b")
    m = Model("weights")
    m += g.row(0).sum_of(lambda c: (c.c + 1) * b[c]) == 7
    # subsets of {1..5} summing to 7: {2,5} {3,4} {1,2,4}
    assert Compiled(m, {"n": 5}).count(limit=100) == 3
    x = Int(0, 4).over(g.C, name="x")
    m2 = Model("chain")
    m2 += forall(g.C, lambda c: Implies(c.c < n - 1, x[c] < x[g.cell(0, c.c + 1)]))
    assert Compiled(m2, {"n": 3}).count(limit=100) == 10  # C(5, 3) increasing triples


def test_helpers_expand_to_primitives() -> None:
    n, g, color = _grid()
    m = Model()
    m += forall(g.rows, lambda r: balanced(r, color))
    m += exactly_k_true(g.C, 2, color)
    comp = Compiled(m, {"n": 2})
    assert comp.count(limit=100) == 4  # one black cell per row of two: 2 x 2 grids


# --- native cardinality (card_encoding="native", the SAT default) ----------------------------
def _count_rules(k: int):
    n = Param("n", int)
    g = Grid(1, n)
    b = Bool.over(g.C, name="b")
    return (
        g,
        b,
        [
            ("==", lambda: g.row(0).count_true(b) == k),
            ("<=", lambda: g.row(0).count_true(b) <= k),
            (">=", lambda: g.row(0).count_true(b) >= k),
            ("<", lambda: g.row(0).count_true(b) < k),
            (">", lambda: g.row(0).count_true(b) > k),
        ],
    )


@pytest.mark.parametrize("op", ["==", "<=", ">=", "<", ">"])
def test_native_counts_match_clause_encodings_and_binomials(op: str) -> None:
    from math import comb

    n, k = 7, 3
    keep = {
        "==": lambda j: j == k,
        "<=": lambda j: j <= k,
        ">=": lambda j: j >= k,
        "<": lambda j: j < k,
        ">": lambda j: j > k,
    }[op]
    expected = sum(comb(n, j) for j in range(n + 1) if keep(j))
    _, _, rules = _count_rules(k)
    m = Model("counts")
    m += dict(rules)[op]()
    native = Compiled(m, {"n": n}, card_encoding="native")
    assert native.low.natives and native.session.native_cardinality
    assert native.count(limit=200) == expected
    assert Compiled(m, {"n": n}, card_encoding="seqcounter").count(limit=200) == expected
    # a session without native constraints gets them as clauses
    glucose = Compiled(m, {"n": n}, card_encoding="native", backend="glucose")
    assert not glucose.session.native_cardinality and glucose.count(limit=200) == expected


def test_clue_guarded_counts_fall_back_to_clauses_under_native() -> None:
    n = Param("n", int)
    g = Grid(n, n)
    b = Bool.over(g.C, name="b")
    total = ClueSpec(g.rows, Int(0, n), name="total")
    m = Model("row totals")
    m += total.rule(lambda r, k: r.count_true(b) == k)
    comp = Compiled(m, {"n": 3}, card_encoding="native")
    assert not comp.low.natives  # every count is guarded by a clue selector
    row0 = next(iter(comp.grounder.resolve(g.rows, {})))
    assert comp.count({"total": {row0: 2}}, limit=1000) == 3 * 2**6


def test_unruly_native_and_clause_sessions_agree_on_a_generated_puzzle() -> None:
    from puzzleforge.grid import api

    g = get_genre("unruly")
    inst, sol, _ = api.generate("unruly", "10x10", 7)
    native = g.compile(inst)
    clauses = g.compile(inst, card_encoding="seqcounter")
    assert native.session.backend == "sat:minicard" and clauses.session.backend == "sat:cadical195"
    for comp in (native, clauses):
        status, sols = comp.is_unique(inst.clues)
        assert status == "unique" and sols[0] == sol
    fewer = dict(list(inst.clues["given"].items())[1:])
    assert native.count({"given": fewer}, limit=50) == clauses.count({"given": fewer}, limit=50) > 1
    # propagation (grading, hints): native constraints unguarded vs guarded clauses, same
    # implied answer literals, on the full clue set and on a thinned one
    answer = set(native.answer_lits) | {-lit for lit in native.answer_lits}
    half = {"given": dict(list(inst.clues["given"].items())[::2])}
    for clues in (inst.clues, half):
        ok1, lits1 = native.propagate(native.assumptions(clues))
        ok2, lits2 = clauses.propagate(clauses.assumptions(clues))
        assert ok1 and ok2 and lits1 & answer == lits2 & answer


# --- misuse errors are clear ---------------------------------------------------------------
def test_domain_mismatch_enum_vs_int() -> None:
    n, g, _ = _grid()
    sign = Enum(("<", ">")).over(g.C, name="sign")
    with pytest.raises(DSLError, match="domain mismatch: enum compared with int"):
        forall(g.C, lambda c: sign[c] == 3)
    with pytest.raises(DSLError, match="'=' is not a value of Enum"):
        forall(g.C, lambda c: sign[c] == "=")
    with pytest.raises(DSLError, match="Lt orders enum values"):
        forall(g.C, lambda c: sign[c] < "<")


def test_boolean_operators_need_booleans() -> None:
    n, g, color = _grid()
    x = Int(0, 3).over(g.C, name="x")
    with pytest.raises(DSLError, match="And expects Boolean arguments, got int expression"):
        forall(g.C, lambda c: And(color[c], x[c] + 1))
    with pytest.raises(DSLError, match="Lt orders two Booleans"):
        forall(g.C, lambda c: color[c] < color[c])


def test_python_and_or_if_are_refused() -> None:
    n, g, color = _grid()
    x = Int(0, 3).over(g.C, name="x")
    with pytest.raises(DSLError, match="used as a Python truth value"):
        forall(g.C, lambda c: color[c] and color[c])
    with pytest.raises(DSLError, match="used as a Python truth value"):
        forall(
            g.C,
            lambda c: (
                (x[c] < 2) and (x[c] == 1 if True else x[c]) == 1
                if False
                else x[c] > 1 and x[c] != 3
            ),
        )
    with pytest.raises(DSLError, match="returned the Python value"):
        forall(g.C, lambda c: True)


def test_binder_used_outside_its_scope() -> None:
    n, g, color = _grid()
    leaked = []
    forall(g.C, lambda c: leaked.append(c) or color[c])
    m = Model()
    with pytest.raises(DSLError, match="binder 'c' is used outside the forall"):
        m += color[leaked[0]]


def test_index_with_wrong_entity_kind() -> None:
    n, g, color = _grid()
    line = Bool.over(g.E, name="line")
    with pytest.raises(DSLError, match="line is defined over edges but indexed by a cell"):
        forall(g.C, lambda c: line[c])
    with pytest.raises(DSLError, match="indexed by a int expression"):
        forall(Range(0, n), lambda i: color[i])


def test_unbound_params_and_constants_listed_together() -> None:
    n, g, color = _grid()
    wall = Const(Bool, over=g.C, name="wall")
    m = Model("demo")
    m += forall(g.C, lambda c: Implies(wall[c], ~color[c]))
    with pytest.raises(DSLError) as err:
        Compiled(m, {})
    assert "Param 'n' is not bound" in str(err.value) and "Const 'wall' has no value" in str(
        err.value
    )
    with pytest.raises(DSLError, match="Param 'n'='6' is not int"):
        Compiled(m, {"n": "6"}, {"wall": {}})


def test_symbolic_sets_refuse_python_iteration_and_len() -> None:
    n, g, color = _grid()
    with pytest.raises(DSLError, match="cannot be iterated"):
        list(g.rows)
    with pytest.raises(DSLError, match="len\\(\\) of a symbolic set"):
        len(g.C)


def test_non_boolean_rule_and_graph_primitive_placement() -> None:
    from puzzleforge.grid import connected

    n, g, color = _grid()
    m = Model()
    with pytest.raises(DSLError, match="is a int expression"):
        m += g.C.sum_of(color)
    with pytest.raises(DSLError, match="may only appear as a rule"):
        m += ~connected(g.C, color)


def test_clue_value_out_of_domain_is_reported() -> None:
    from puzzleforge.core.errors import InvalidDescription

    g = get_genre("sudoku")
    inst = g.parse("sudoku 4x4\n1...\n....\n....\n....\n")
    inst.clues["given"][next(iter(inst.clues["given"]))] = 7
    with pytest.raises(InvalidDescription, match="clue given 7 at Cell\\(0,0\\) is not allowed"):
        g.compile(inst).solve(inst.clues)


@pytest.mark.parametrize("genre", list(GENRES))
def test_every_genre_pretty_prints_its_rules(genre: str) -> None:
    text = get_genre(genre).rules.pretty()
    assert text.startswith(f"# {genre}") and "[1]" in text and "var " in text
