"""The whitelisting compiler refuses escapes; config replay never executes config text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzleforge.core.errors import (
    GenerationFailed,
    InvalidSpec,
    TrustRequired,
    UnsafeExpression,
)
from puzzleforge.spec.bounded import ExprError
from puzzleforge.spec.family import load_spec_family
from puzzleforge.spec.safe import compile_expr, compile_template

ESCAPES = [
    "__import__('os')",
    "().__class__.__bases__[0].__subclasses__()",
    "open('/etc/passwd').read()",
    "exec('x=1')",
    "eval('1+1')",
    "getattr(1, 'real')",
    "globals()",
    "(lambda: 0).__code__",
    "[c for c in ().__class__.__mro__]",
    "compile('1', 'x', 'eval')",
    "type(1)",
]


@pytest.mark.parametrize("source", ESCAPES)
def test_compiler_refuses_escapes(source: str) -> None:
    with pytest.raises(UnsafeExpression):
        compile_expr(source, where="t")


def test_template_refuses_escape() -> None:
    with pytest.raises(UnsafeExpression):
        compile_template("hello {__import__('os').system('echo hi')}", where="desc")


def test_format_strings_cannot_reach_attributes() -> None:
    from puzzleforge.spec.safe import SAFE_BUILTINS

    code = compile_expr("'{0.__class__}'.format(1)", where="t")
    with pytest.raises(
        ExprError,
        match=r"^attribute '\.__class__' is not allowed \(private and "
        r"dunder attributes are refused\)$",
    ):
        code.run({"__builtins__": SAFE_BUILTINS})


def test_big_allocations_are_refused() -> None:
    from puzzleforge.spec.safe import SAFE_BUILTINS

    refusals = {
        "10 ** 100000": "10 ** 100000 is too large (limit 131072 bits)",
        "'a' * (10 ** 9)": "sequence repetition of 1 x 1000000000 items is too large "
        "(limit 2000000)",
        "list(range(10 ** 9))": "range of 1000000000 items is too large (limit 2000000)",
        "1 << 10 ** 7": "shift by 10000000 bits is too large (limit 131072 bits)",
    }
    for source, message in refusals.items():
        code = compile_expr(source, where="t")
        with pytest.raises(ExprError) as info:
            code.run({"__builtins__": SAFE_BUILTINS})
        assert str(info.value) == message


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


BASE = (Path(__file__).parent / "data" / "base.yaml").read_text(encoding="utf-8")


def test_import_in_formula_is_a_clear_refusal(tmp_path: Path) -> None:
    spec = BASE.replace("formula: generate_letters(n)", "formula: __import__('os').getcwd()")
    with pytest.raises(UnsafeExpression) as info:
        load_spec_family(_write(tmp_path, spec))
    msg = str(info.value)
    assert "s.yaml:6" in msg and "variables.names.formula" in msg and "__import__" in msg


def test_config_replay_never_executes_text(tmp_path: Path) -> None:
    fam = load_spec_family(_write(tmp_path, BASE))
    puzzle = fam.generate(fam.Params(), random.Random(1))
    config = dict(puzzle.config)
    marker = tmp_path / "pwned"
    config["names"] = f"__import__('os').mkdir('{marker}')"
    config["n"] = {"py/repr": f"__import__('os').mkdir('{marker}')"}
    # the text is refused as a value (never run): the replay is a counted rejection
    with pytest.raises(
        GenerationFailed,
        match=r"rejections by reason: config not replayable: 1 "
        r"\(config not replayable: config value tagged py/repr\)[.]$",
    ):
        fam.generate(fam.Params(), random.Random(1), config=config)
    assert not marker.exists()


def test_py_operator_needs_trust(tmp_path: Path) -> None:
    (tmp_path / "customs").mkdir()
    (tmp_path / "customs" / "double.py").write_text("def double(x):\n    return 2 * x\n")
    spec = "custom_operator:\n  double: customs/double.py\n" + BASE.replace(
        'domain: "[2, 4]"', 'domain: "[2, double(2)]"'
    )
    path = _write(tmp_path, spec)
    with pytest.raises(TrustRequired) as info:
        load_spec_family(path)
    assert "custom_operator.double" in str(info.value)
    fam = load_spec_family(path, trust=True)  # resolved against the spec's own folder
    assert fam.generate(fam.Params(), random.Random(2)).answer


def test_lambda_operator_is_compiled_like_any_expression(tmp_path: Path) -> None:
    spec = 'custom_operator:\n  bad: "lambda x: x.__class__"\n' + BASE
    with pytest.raises(InvalidSpec) as info:
        load_spec_family(_write(tmp_path, spec))
    assert "custom_operator.bad" in str(info.value)
