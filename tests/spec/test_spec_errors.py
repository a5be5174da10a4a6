"""Every kind of spec error is one message naming file, field, YAML line and expression."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzleforge.core.errors import GenerationFailed, InvalidSpec
from puzzleforge.spec.family import load_spec_family

BASE = (Path(__file__).parent / "data" / "base.yaml").read_text(encoding="utf-8")


def _load(tmp_path: Path, text: str):
    p = tmp_path / "bad.yaml"
    p.write_text(text, encoding="utf-8")
    return load_spec_family(p)


def _err(tmp_path: Path, text: str) -> str:
    with pytest.raises(InvalidSpec) as info:
        _load(tmp_path, text)
    msg = str(info.value)
    assert "bad.yaml" in msg and "Traceback" not in msg
    return msg


def test_malformed_yaml(tmp_path: Path) -> None:
    msg = _err(tmp_path, "variables:\n  n: [1, 2\n")
    assert "malformed YAML" in msg and "bad.yaml:" in msg


def test_unknown_field(tmp_path: Path) -> None:
    msg = _err(tmp_path, BASE.replace("    type: bool\n", "    type: bool\n    colour: red\n"))
    assert "unknown field 'colour'" in msg and "symbols.s.colour" in msg and "bad.yaml:12" in msg


def test_unknown_attribute(tmp_path: Path) -> None:
    msg = _err(tmp_path, BASE + "hints: yes\n")
    assert "unknown attribute 'hints'" in msg


def test_wrong_type(tmp_path: Path) -> None:
    msg = _err(
        tmp_path, BASE.replace('domain: "[2, 4]"', 'domain: "[2, 4]"\n    diff_factor: high')
    )
    assert "diff_factor" in msg and "number" in msg


def test_name_used_before_defined(tmp_path: Path) -> None:
    msg = _err(
        tmp_path, BASE.replace("formula: generate_letters(n)", "formula: generate_letters(m)")
    )
    assert "name 'm' is used before it is defined" in msg and "variables.names.formula" in msg
    assert "bad.yaml:6" in msg


def test_symbol_used_in_variable_is_out_of_order(tmp_path: Path) -> None:
    text = BASE.replace("formula: generate_letters(n)", "formula: generate_letters(len(s))")
    assert "name 's' is used before it is defined" in _err(tmp_path, text)


def test_keyword_clash(tmp_path: Path) -> None:
    msg = _err(tmp_path, BASE.replace("  names:\n", "  lambda:\n"))
    assert "Python keyword" in msg


def _gen_err(tmp_path: Path, text: str) -> str:
    import random

    fam = _load(tmp_path, text)
    with pytest.raises(InvalidSpec) as info:
        fam.generate(fam.Params(attempts=20), random.Random(0))
    return str(info.value)


def test_formula_that_does_not_type_check(tmp_path: Path) -> None:
    msg = _gen_err(
        tmp_path,
        BASE.replace(
            "formula: gen_event_count_condition(s, 'equal', 1)",
            "formula: Implies(s[names[0]], n + s[names[1]])",
        ),
    )
    assert "conditions.c.formula" in msg and "Implies(s[names[0]]" in msg and "bad.yaml:14" in msg


def test_condition_that_is_not_boolean(tmp_path: Path) -> None:
    msg = _gen_err(
        tmp_path,
        BASE.replace("formula: gen_event_count_condition(s, 'equal', 1)", "formula: n + 1"),
    )
    assert "conditions.c.formula" in msg and "not a Z3 Boolean" in msg


def test_impossible_static_domain(tmp_path: Path) -> None:
    msg = _err(tmp_path, BASE.replace('domain: "[2, 4]"', 'domain: "[5, 1]"'))
    assert "variables.n.domain" in msg and "empty" in msg and "[5, 1]" in msg


def test_impossible_dynamic_domain_reports_rejections(tmp_path: Path) -> None:
    fam = _load(
        tmp_path,
        BASE.replace(
            'domain: "[2, 4]"', 'domain: "[2, 4]"\n  m:\n    type: int\n    domain: "[n + 5, n]"'
        ),
    )
    import random

    with pytest.raises(GenerationFailed) as info:
        fam.generate(fam.Params(attempts=5), random.Random(0))
    assert info.value.reasons.get("empty variable domain") == 5


def test_syntax_error_in_expression(tmp_path: Path) -> None:
    msg = _err(
        tmp_path, BASE.replace("formula: generate_letters(n)", "formula: generate_letters(n")
    )
    assert "syntax error" in msg and "variables.names.formula" in msg


def test_too_many_solutions_is_a_counted_rejection(tmp_path: Path) -> None:
    import random

    fam = _load(tmp_path, BASE.replace("queries:", "max_solution: 1\nqueries:"))
    with pytest.raises(GenerationFailed) as info:
        fam.generate(fam.Params(attempts=3), random.Random(0))
    assert info.value.reasons == {"too many solutions": 3}
    assert "too many solutions: 3" in str(info.value)


def test_cli_prints_one_paragraph(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from puzzleforge.cli.main import app

    p = tmp_path / "bad.yaml"
    p.write_text(BASE.replace("formula: generate_letters(n)", "formula: generate_letters(m)"))
    result = CliRunner().invoke(app, ["spec", "check", str(p)])
    assert result.exit_code == 2
    out = result.output
    assert "Traceback" not in out and "name 'm' is used before it is defined" in out
