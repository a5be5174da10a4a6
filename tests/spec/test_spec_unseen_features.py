"""Format features that public specs outside our corpus use (each fix has a spec of its own).

The specs under tests/spec/data/unseen/ are written for these tests; they exercise what the
unseen public specs needed: ``{extra_conditions}`` in texts, order lists of the wrong
length on dynamic conditions (never read), ``__import__('datetime')`` inside a lambda
operator, trusted ``.py`` operators drawing from the global ``random`` module, operator
files named by an absolute path of the author's machine, and the documented keyword
names of the built-in operators. Real Z3 and real files throughout.
"""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path

import pytest
import z3

from puzzleforge.batch.verify import check_record
from puzzleforge.core.errors import InvalidSpec, TrustRequired, UnsafeExpression
from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import make_rng
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.operators import Runtime
from puzzleforge.spec.safe import SAFE_BUILTINS, ExprError, compile_expr

DATA = Path(__file__).resolve().parent / "data" / "unseen"


def _make(name: str, seed: int, trust: bool = False):
    family = load_spec_family(DATA / name, trust=trust)
    puzzle = family.generate(SpecParams(attempts=50), make_rng(seed))
    return family, stamp(puzzle, seed)


def test_extra_conditions_is_the_text_of_the_dynamic_conditions():
    family, puzzle = _make("extra_conditions.yaml", 3)
    assert puzzle.answer == "6"
    assert "It is a multiple of 2. " in puzzle.question
    assert "It is a multiple of 3. " in puzzle.question
    assert puzzle.question.startswith("A house number lies between 1 and 10. It is a multiple")
    assert family.verify(puzzle, "6") == 1.0
    assert family.verify(puzzle, "12") == 0.0
    assert family.audit(puzzle) == []


def test_datetime_import_inside_a_lambda_operator():
    family = load_spec_family(DATA / "date_lambda.yaml")
    for seed in range(3):
        puzzle = stamp(family.generate(SpecParams(), make_rng(seed)), seed)
        cfg = puzzle.config
        expected = (
            datetime.date(2023, cfg["month"], cfg["day"]) + datetime.timedelta(days=cfg["days"])
        ).strftime("%m/%d")
        assert puzzle.answer == expected
        assert family.verify(puzzle, expected) == 1.0


def test_import_of_any_other_module_is_refused_with_its_location():
    with pytest.raises(UnsafeExpression) as info:
        load_spec_family(DATA / "import_os.yaml")
    text = str(info.value)
    assert "import_os.yaml:3" in text
    assert "custom_operator.shell" in text
    assert "__import__('os')" in text


@pytest.mark.parametrize(
    ("source", "error", "message"),
    [
        # refused when it runs: the module view lists what may be read
        (
            "__import__('datetime').sys",
            ExprError,
            r"^'sys' of module datetime is not allowed in a spec expression \(not one of its "
            r"allow-listed names\)$",
        ),
        # refused when it compiles: dunder names and private attributes
        (
            "__import__(name)",
            UnsafeExpression,
            r"name '__import__' is not allowed \(dunder names are refused\) in: __import__\(name\)",
        ),
        (
            "__builtins__",
            UnsafeExpression,
            r"name '__builtins__' is not allowed \(dunder names are refused\) in: __builtins__",
        ),
        (
            "__import__('datetime')._name",
            UnsafeExpression,
            r"attribute '\._name' is not allowed \(private and dunder attributes are refused\)",
        ),
    ],
)
def test_module_views_expose_no_escape(source, error, message):
    with pytest.raises(error, match=message):
        code = compile_expr(source, where="test")
        code.run({"__builtins__": SAFE_BUILTINS, "name": "os"})


def test_trusted_operator_file_draws_follow_the_seed(capsys):
    family = load_spec_family(DATA / "dice_roll.yaml", trust=True)
    first = [family.generate(SpecParams(), make_rng(s)) for s in range(6)]
    again = [family.generate(SpecParams(), make_rng(s)) for s in range(6)]
    assert [(p.question, p.answer) for p in first] == [(p.question, p.answer) for p in again]
    assert len({p.question for p in first}) > 1  # the seed, not a fixed state, drives the draws
    for p in first:
        assert p.answer == str(sum(p.config["rolls"]))
        assert len(p.config["rolls"]) == p.config["count"]
        assert sorted(p.config["players"]) == ["Ann", "Ben", "Cid", "Dee"]
    assert "rolling" not in capsys.readouterr().out  # operator prints never reach stdout


def test_trusted_operator_file_needs_trust():
    with pytest.raises(TrustRequired) as info:
        load_spec_family(DATA / "dice_roll.yaml")
    assert "--trust" in str(info.value)


def test_verify_never_trusts_a_spec_named_by_a_record(monkeypatch):
    """No environment variable grants trust: a record only names a file (issue 15)."""
    _, puzzle = _make("dice_roll.yaml", 11, trust=True)
    record = json.loads(json.dumps(puzzle.to_record()))
    for value in ("1", "true", "yes"):
        monkeypatch.setenv("PUZZLEFORGE_SPEC_TRUST", value)
        with pytest.raises(TrustRequired):  # stops the run (verify: one paragraph)
            check_record(0, record)


def test_absolute_operator_path_falls_back_to_the_project_customs_folder():
    family, puzzle = _make("abs_path_operator.yaml", 2, trust=True)
    assert puzzle.answer == str(sum(puzzle.config["rolls"]))
    assert family.verify(puzzle, puzzle.answer) == 1.0


def test_absolute_operator_path_without_customs_copy_is_one_clear_error(tmp_path):
    spec = tmp_path / "lost.yaml"
    spec.write_text((DATA / "abs_path_operator.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(InvalidSpec) as info:
        load_spec_family(spec, trust=True)
    text = str(info.value)
    assert "lost.yaml:4" in text and "custom_operator.roll_dice" in text
    assert "customs/dice.py" in text


def _runtime() -> Runtime:
    env: dict = {"__builtins__": SAFE_BUILTINS}

    def compile_lambda(source: str):
        return compile_expr(source, where="test").run(env)

    rt = Runtime(random.Random(7), env, compile_lambda)
    env.update(rt.table())
    return rt


def test_builtin_operators_accept_their_documented_keywords():
    ops = _runtime().table()
    x, y = z3.Ints("x y")
    b1, b2 = z3.Bools("b1 b2")

    s = z3.Solver()
    s.add(x == 3, y == 4)
    s.add(ops["gen_event_count_condition"](events=[b1, b2], fact="equal", num=1))
    s.add(ops["gen_multi_event_count_condition"](events=[[b1, b2]], op="wc", target=[0, 1]))
    s.add(ops["make_expr"]("implies", b1, ops["make_expr"]("ge", x, 3)))
    s.add(b1)
    assert s.check() == z3.sat
    model = s.model()
    assert ops["get_value"](sol=model, vars=[x, y]) == [3, 4]
    assert ops["get_TF_events_for_each_solution"](
        events=[b1, b2], solutions=[model], require=True
    ) == [[b1]]

    assert ops["to_unique"](l=[[1], [2], [1]]) == [[1], [2]]
    lst = ops["generate_random_list"](
        size=3,
        ele_type="int",
        ele_domain=[1, 5],
        cond=["lambda l: sum(l) >= 9"],
        per_ele_domain=[None, [5, 5], None],
    )
    assert len(lst) == 3 and lst[1] == 5 and sum(lst) >= 9
    total = ops["generate_random_list_with_total"](
        size=3, ele_domain=[0, 5], total=7, per_ele_domain=[[2, 2], None, None]
    )
    assert sum(total) == 7 and total[0] == 2
    assert ops["generate_letters"](n=2, lang="en") == ["A1", "A2"]
    assert ops["generate_letters"](n=3, lang="cn") == "甲乙丙"
    fruits = ops["get_faker"](num=3, provider_name="fruit_cn", locale="zh_CN", seed=5)
    assert fruits == ops["get_faker"](num=3, provider_name="fruit_cn", locale="zh_CN", seed=5)
    assert len(set(fruits)) == 3
    assert ops["generate_var_names"](n=4) == ["p", "q", "r", "s"]

    one = ops["generate_formula"](vars_num=2, is_cond=True, allow_power=False, max_depth=3)
    assert one.startswith("(Cmp ")
    many = ops["generate_formulas"](
        formula_num=2, vars_num=2, is_cond=False, allow_power=True, max_depth=3
    )
    assert 1 <= len(many) <= 2 and len(set(many)) == len(many)
    system = ops["build_system"](
        configs=["(Add (Var 0) (Var 1))", "(Sub (Var 0) (Const 1))"],
        vars=[x, y],
        var_names=["a", "b"],
    )
    assert system["latex_str"].startswith(r"\begin{cases}") and "a" in system["latex_str"]
    s2 = z3.Solver()
    s2.add(system["z3_expr"][0] == 7, system["z3_expr"][1] == 2)
    assert s2.check() == z3.sat and s2.model()[y].as_long() == 4
    assert ops["get_formula_value"](config="(Add (Var 0) (Var 1))", values=[3, 4]) == 7


def test_cli_attempt_seconds_is_recorded_so_verify_replays_with_the_same_budget(
    tmp_path, monkeypatch
):
    from typer.testing import CliRunner

    from puzzleforge.cli.main import app

    out = tmp_path / "post.jsonl"
    r = CliRunner().invoke(
        app,
        [
            "spec",
            "generate",
            str(DATA / "post_gen_text.yaml"),
            "-n",
            "2",
            "--seed",
            "4",
            "--attempt-seconds",
            "40",
            "--out",
            str(out),
            "-q",
        ],
    )
    assert r.exit_code == 0, r.output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [rec["params"]["attempt_seconds"] for rec in records] == [40.0, 40.0]
    for n, rec in enumerate(records):
        assert check_record(n, rec).problems == []


def test_post_gen_conditions_is_the_running_text_of_post_generation_descriptions():
    family, puzzle = _make("post_gen_text.yaml", 6)
    diff, total = puzzle.config["diff"], puzzle.config["total"]
    assert (
        f"add up to {total}; the larger one exceeds the smaller by {diff}; What" in puzzle.question
    )
    assert puzzle.answer == str((total - diff) // 2)
    assert family.verify(puzzle, puzzle.answer) == 1.0


def test_exact_powers_through_module_views_stay_bounded():
    from puzzleforge.spec.safe import ExprError

    code = compile_expr("__import__('fractions').Fraction(3, 2) ** 100000", where="test")
    with pytest.raises(ExprError):
        code.run({"__builtins__": SAFE_BUILTINS})
    small = compile_expr("__import__('fractions').Fraction(3, 2) ** 2", where="test")
    assert str(small.run({"__builtins__": SAFE_BUILTINS})) == "9/4"
