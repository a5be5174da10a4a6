"""Hostile specs, configs and datasets through the real CLI and the real attempt namespace.

Every attack must end in a clear one-paragraph error (or a bounded rejection): exit code
not 0, no traceback, no file written, no secret from the environment printed, no global
state changed (Z3 parameters). The expressions are written as an attacker would: through
variable formulas, conditions, desc templates, query texts and lambda operators.

Loops written in Python (comprehensions over huge ranges) and C-level hangs the evaluator
cannot see are the worker sandbox's job (hard deadline, memory limit: spec/sandbox.py);
the attacks here are the ones the allow-list itself must stop.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import z3
from typer.testing import CliRunner

import puzzleforge
from puzzleforge.cli.main import app

SECRET = "pf-fake-secret-7d1c0a9e"
BASE = (Path(__file__).resolve().parent / "data" / "base.yaml").read_text(encoding="utf-8")
SRC = str(Path(puzzleforge.__file__).resolve().parents[1])


def _spec_with(where: str, expression: str) -> str:
    """base.yaml with ``expression`` placed at ``where`` (YAML single-quoted)."""
    quoted = "'" + expression.replace("'", "''") + "'"
    if where == "variable":
        return BASE.replace(
            "  names:\n    formula: generate_letters(n)\n",
            f"  names:\n    formula: generate_letters(n)\n  evil:\n    formula: {quoted}\n",
        )
    if where == "condition":
        return BASE.replace("conditions:\n", f"conditions:\n  evil:\n    formula: {quoted}\n")
    if where == "desc":
        return BASE.replace('desc: "{q1}"', f"desc: {quoted}")
    if where == "ans_text":
        return BASE.replace("""    ans_text: "','.join(_ans)"\n""", f"    ans_text: {quoted}\n")
    if where == "lambda":
        return f"custom_operator:\n  evil: {quoted}\n" + BASE.replace(
            "  names:\n    formula: generate_letters(n)\n",
            "  names:\n    formula: generate_letters(n)\n  x:\n    formula: evil(n)\n",
        )
    raise AssertionError(where)


@pytest.fixture()
def sandbox_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Work in an empty folder with a secret in the environment (both checked afterwards)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PF_FAKE_SECRET", SECRET)
    return tmp_path


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _assert_clean_failure(output: str, exit_code: int) -> None:
    assert exit_code != 0, output
    assert "Traceback" not in output, output
    assert SECRET not in output
    lines = [line for line in output.strip().splitlines() if line.strip()]
    assert lines and lines[-1].startswith("error"), output
    assert "\n\n" not in output.strip(), output  # one paragraph


def _cli(args: list[str]) -> tuple[str, int]:
    result = CliRunner().invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.output, result.exit_code


_Z3_GLOBALS = ("verbose", "timeout", "trace", "trace_file_name", "proof")


def _generate_attack(folder: Path, where: str, expression: str) -> str:
    spec = folder / "attack.yaml"
    spec.write_text(_spec_with(where, expression), encoding="utf-8")
    before = _listing(folder)
    params = [z3.get_param(name) for name in _Z3_GLOBALS]
    output, code = _cli(["spec", "generate", str(spec), "-n", "1"])
    _assert_clean_failure(output, code)
    assert _listing(folder) == before, "a file was written"
    assert [z3.get_param(name) for name in _Z3_GLOBALS] == params
    return output


# ---------------------------------------------------------------- refused at load time

COMPILE_TIME = [
    "__import__('os').system('touch pwned')",
    "().__class__.__mro__[1].__subclasses__()",
    "(lambda: 0).__globals__['__builtins__']",
    "open('pwned', 'w').write('x')",
    "exec('import os')",
    "eval('1 + 1')",
    "getattr(1, 'real')",
    "globals()",
    "type(1)",
    "breakpoint()",
    "[0 for random.seed in [1]]",
    "get_faker.__self__.env",
    "randint.__self__._inst",
]


@pytest.mark.parametrize("expression", COMPILE_TIME)
def test_escapes_are_refused_when_the_spec_loads(sandbox_dir: Path, expression: str) -> None:
    output = _generate_attack(sandbox_dir, "variable", expression)
    assert "unsafe expression" in output or "invalid spec" in output


# ---------------------------------------------------------------- names that do not exist

MISSING_NAMES = [
    "solve(Int('x') > 1)",
    "prove(Int('x') > 1)",
    "set_param('smtlib2_log', 'pwned.smt2')",
    "set_option(verbose=10)",
    "open_log('pwned.log')",
    "Solver()",
    "Optimize()",
    "main_ctx()",
    "Context()",
    "parse_smt2_file('/etc/passwd')",
    "c_int(1)",
    "string_at(0)",
    "memmove(0, 0, 1)",
    "cast(0, c_char_p)",
    "CFUNCTYPE(None)",
    "ctypes.CDLL(None)",
    "BoolRef(0)",
    "ExprRef(0)",
    "z3.z3core",
    "os.environ",
    "sys.modules",
]


@pytest.mark.parametrize("expression", MISSING_NAMES)
def test_dangerous_z3_and_ctypes_names_are_not_there(sandbox_dir: Path, expression: str) -> None:
    output = _generate_attack(sandbox_dir, "variable", expression)
    assert "is used before it is defined" in output


# ---------------------------------------------------------------- refused at run time

RUNTIME = [
    ("variable", "Int('x').ctx.ref()"),
    ("variable", "Int('x').as_ast()"),
    ("variable", "Int('x').translate"),
    ("variable", "Int('x').decl().ctx"),
    ("variable", "(x for x in []).gi_frame.f_globals"),
    ("variable", "(x for x in []).gi_code"),
    ("variable", "random.getstate()"),
    ("variable", "random.seed(1)"),
    ("variable", "Iterable.register(int)"),
    ("variable", "math.sys"),
    ("variable", "re.sre_compile"),
    ("variable", "__import__('datetime').sys"),
    ("variable", "__import__('datetime').datetime.now"),
    ("variable", "'{0.__class__.__mro__}'.format(1)"),
    ("variable", "'{0.gi_frame.f_globals}'.format((x for x in []))"),
    ("variable", "'{x.gi_frame}'.format_map(dict(x=(y for y in [])))"),
    ("variable", "'{g.gi_frame}'.format_map({'g': (x for x in [])})"),
    ("variable", "list(map('{0.gi_frame.f_back}'.format, [(x for x in [])]))"),
    ("variable", "'{0[_secret]}'.format({'_secret': 1})"),
    ("variable", "str.format('{0.__class__}', 1)"),
    ("variable", "get_value.func_globals"),
    ("condition", "And(Int('x').ctx.ref() > 0)"),
    ("desc", "{'{0.gi_frame}'.format((x for x in []))}"),
    ("desc", "{(x for x in []).gi_frame.f_globals}"),
    ("ans_text", "'{0.gi_frame.f_locals}'.format((x for x in []))"),
    ("lambda", "lambda n: (x for x in []).gi_frame.f_builtins"),
    ("variable", "get_faker(1, 'seed_instance')"),
    ("variable", "get_faker(1, 'add_provider')"),
    ("variable", "get_faker(1, 'binary')"),
    ("variable", "get_faker(1, 'name', '../../etc/passwd')"),
    ("variable", "hasattr(Int('x'), 'ctx') or Int('x').ctx"),
    ("variable", "(1).to_bytes(10 ** 9, 'big')"),
]


@pytest.mark.parametrize("where,expression", RUNTIME)
def test_attribute_and_format_walks_are_refused(
    sandbox_dir: Path, where: str, expression: str
) -> None:
    output = _generate_attack(sandbox_dir, where, expression)
    assert "not allowed" in output or "get_faker" in output or "unknown" in output


# ---------------------------------------------------------------- memory and CPU bombs

BOMBS = [
    "10 ** 10 ** 9",
    "2 ** 200000",
    "pow(7, 10 ** 8)",
    "(1 << 100000) << 100000",
    "(10 ** 30000) * (10 ** 30000)",
    "'a' * 10 ** 10",
    "[0] * 10 ** 10",
    "list(range(10 ** 12))",
    "'%*d' % (10 ** 9, 1)",
    "'%999999999d' % 1",
    "f'{1:>999999999}'",
    "format(1, '>999999999')",
    "'{:>999999999}'.format(1)",
    "'{0:{1}}'.format(1, 999999999)",
    "'x'.ljust(10 ** 10)",
    "'x'.center(10 ** 10)",
    "('x' * 1000).replace('', 'y' * 10000)",
    "('\\t' * 1000).expandtabs(10 ** 8)",
    "''.join(['x' * 1000000] * 1000)",
    "math.factorial(10 ** 8)",
    "math.comb(10 ** 9, 10 ** 8)",
    "math.prod(range(1, 2000000))",
    "math.lcm(*range(1, 100000))",
    "sum(iter(int, 1))",
    "sum(itertools.count())",
    "list(itertools.repeat(1))",
    "list(itertools.cycle([1]))",
    "list(itertools.product(range(100), repeat=10))",
    "list(permutations(range(20)))",
    "list(combinations(range(60), 30))",
    "IntVector('x', 10 ** 9)",
    "reduce(lambda a, b: a + a, range(64), 'ab')",
    "sum([[0] * 1000] * 100000, [])",
    "[(l := [0]), [l.append(1) for x in l]]",
    "generate_letters(10 ** 9)",
    "get_faker(10 ** 9, 'name')",
    "generate_random_list(10 ** 9, 'int', [0, 1])",
    "generate_random_list_with_total(2, [0, 10 ** 18], 10 ** 18)",
    "generate_formulas(10 ** 9, 3)",
    "generate_var_names(10 ** 9)",
    "choose(list(range(60)), 30, 1)",
    "re.sub('', 'x' * 100000, 'a' * 100000)",
    "re.compile('a*').sub('y' * 100000, 'a' * 1000)",
    "BitVecVal(-1, 2 ** 31)",
    "Concat(*[BitVec('b', 64)] * 100)",
]


@pytest.mark.parametrize("expression", BOMBS)
def test_bombs_are_bounded(sandbox_dir: Path, expression: str) -> None:
    output = _generate_attack(sandbox_dir, "variable", expression)
    assert (
        "too large" in output
        or "not allowed" in output
        or "bounded" in output
        or "longer than" in output
        or "could exceed" in output
    ), output


# ---------------------------------------------------------------- files, configs, trust


def test_alias_bomb_spec_fails_fast(sandbox_dir: Path) -> None:
    text = "a: &a [" + ", ".join(['"lol"'] * 9) + "]\n"
    prev = "a"
    for i in range(1, 9):
        text += f"l{i}: &l{i} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
        prev = f"l{i}"
    assert len(text) < 1024
    (sandbox_dir / "bomb.yaml").write_text(text, encoding="utf-8")
    before = _listing(sandbox_dir)
    output, code = _cli(["spec", "generate", "bomb.yaml"])
    _assert_clean_failure(output, code)
    assert "alias bomb" in output
    assert _listing(sandbox_dir) == before


def test_duplicate_keys_in_a_spec_name_both_lines(sandbox_dir: Path) -> None:
    (sandbox_dir / "dup.yaml").write_text(BASE + "desc: again\n", encoding="utf-8")
    output, code = _cli(["spec", "generate", "dup.yaml"])
    _assert_clean_failure(output, code)
    assert "duplicate key 'desc' (lines 21 and 22)" in output


@pytest.mark.parametrize(
    "config",
    [
        {"n": {"py/repr": "__import__('os').system('touch pwned')"}},
        {"n": {"py/object": "os.system", "py/reduce": ["touch pwned"]}},
        {"n": "abc"},
        {"n": 3, "names": {"py/function": "os.system"}},
    ],
)
def test_crafted_configs_never_run_code(sandbox_dir: Path, config: dict) -> None:
    (sandbox_dir / "spec.yaml").write_text(BASE, encoding="utf-8")
    (sandbox_dir / "cfg.json").write_text(json.dumps(config), encoding="utf-8")
    before = _listing(sandbox_dir)
    result = CliRunner().invoke(app, ["spec", "generate", "spec.yaml", "--config", "cfg.json"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and SECRET not in result.output
    assert _listing(sandbox_dir) == before
    if result.exit_code == 0:  # the tags are data: the spec re-draws what it cannot replay
        record = json.loads(result.output.splitlines()[0])
        assert record["family"] == "spec:spec"
    else:
        _assert_clean_failure(result.output, result.exit_code)


def test_deeply_nested_config_is_a_clear_error(sandbox_dir: Path) -> None:
    (sandbox_dir / "spec.yaml").write_text(BASE, encoding="utf-8")
    (sandbox_dir / "cfg.json").write_text(
        '{"n": ' + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8"
    )
    output, code = _cli(["spec", "generate", "spec.yaml", "--config", "cfg.json"])
    _assert_clean_failure(output, code)


def _customs_spec(folder: Path) -> Path:
    (folder / "customs").mkdir()
    marker = folder / "customs" / "ran.txt"
    (folder / "customs" / "evil.py").write_text(
        f"open({str(marker)!r}, 'w').write('ran')\ndef evil(n):\n    return n\n", encoding="utf-8"
    )
    spec = folder / "customs_spec.yaml"
    spec.write_text(
        "custom_operator:\n  evil: customs/evil.py\n"
        + BASE.replace(
            "  names:\n    formula: generate_letters(n)\n",
            "  names:\n    formula: generate_letters(evil(n))\n",
        ),
        encoding="utf-8",
    )
    return spec


@pytest.mark.parametrize("env_value", [None, "1"])
def test_customs_need_trust_whatever_the_environment(
    sandbox_dir: Path, monkeypatch: pytest.MonkeyPatch, env_value: str | None
) -> None:
    spec = _customs_spec(sandbox_dir)
    if env_value is not None:
        monkeypatch.setenv("PUZZLEFORGE_SPEC_TRUST", env_value)
    before = _listing(sandbox_dir)
    output, code = _cli(["spec", "generate", str(spec)])
    _assert_clean_failure(output, code)
    assert "error (trust required)" in output and "--trust" in output
    assert _listing(sandbox_dir) == before  # evil.py never ran


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC, "PF_FAKE_SECRET": SECRET}
    env.pop("PUZZLEFORGE_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "puzzleforge", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_verify_of_a_dataset_whose_spec_was_swapped_for_a_hostile_one(tmp_path: Path) -> None:
    """Through the real ``python -m puzzleforge``: generate, swap the spec, verify."""
    spec = tmp_path / "puzzle.yaml"
    spec.write_text(BASE, encoding="utf-8")
    made = _run(
        ["spec", "generate", "puzzle.yaml", "-n", "2", "-o", "data.jsonl", "--no-dedupe"], tmp_path
    )  # the spec has one puzzle: keep its second copy
    assert made.returncode == 0, made.stderr
    records = [json.loads(x) for x in (tmp_path / "data.jsonl").read_text().splitlines()]
    assert [r["meta"]["source"] for r in records] == ["puzzle.yaml", "puzzle.yaml"]
    ok = _run(["verify", "data.jsonl", "--workers", "1"], tmp_path)
    assert ok.returncode == 0 and "2/2 correct" in ok.stdout, ok.stdout + ok.stderr
    before = _listing(tmp_path)
    for hostile in (
        _spec_with("desc", "{__import__('os').system('touch pwned')}"),
        _spec_with("variable", "'{0.gi_frame.f_globals}'.format((x for x in []))"),
        _spec_with("variable", "'a' * 10 ** 10"),
    ):
        spec.write_text(hostile, encoding="utf-8")
        got = _run(["verify", "data.jsonl", "--workers", "1"], tmp_path)
        text = got.stdout + got.stderr
        assert got.returncode == 1, text
        assert "Traceback" not in text and SECRET not in text
        assert "0/2 correct" in got.stdout
        assert text.count("cannot regenerate") == 2
        assert _listing(tmp_path) == before


@pytest.mark.parametrize(
    "source,message,exit_code",
    [
        ("/dev/zero", "is not a spec file", 1),
        ("/etc/passwd", "is not a spec file", 1),
        # a .py source reads as a grid genre file (Python): refused for the whole run without
        # --trust, before the file is read (evil.py's marker is never written)
        ("customs/evil.py", "names the grid genre file customs/evil.py", 2),
        ("missing.yaml", "does not exist", 1),
        ("folder.yaml", "is not a regular file", 1),
        ("zero.yaml", "is not a regular file", 1),
        ("big.yaml", "bytes (limit", 1),
    ],
)
def test_hostile_record_sources_are_refused(
    sandbox_dir: Path, source: str, message: str, exit_code: int
) -> None:
    _customs_spec(sandbox_dir)
    (sandbox_dir / "folder.yaml").mkdir()
    (sandbox_dir / "zero.yaml").symlink_to("/dev/zero")
    with open(sandbox_dir / "big.yaml", "wb") as fh:
        fh.truncate(5 * 1024 * 1024)
    (sandbox_dir / "spec.yaml").write_text(BASE, encoding="utf-8")
    made = CliRunner().invoke(app, ["spec", "generate", "spec.yaml", "-n", "1", "-o", "d.jsonl"])
    assert made.exit_code == 0, made.output
    record = json.loads((sandbox_dir / "d.jsonl").read_text().splitlines()[0])
    record["meta"]["source"] = source
    (sandbox_dir / "d.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    before = _listing(sandbox_dir)
    output, code = _cli(["verify", "d.jsonl", "--workers", "1"])
    assert code == exit_code and "Traceback" not in output and SECRET not in output
    assert message in output, output
    assert ("0/1 correct" in output) == (exit_code == 1)
    assert _listing(sandbox_dir) == before
    with pytest.raises(puzzleforge.core.errors.PuzzleForgeError):
        puzzleforge.verify(record, record["answer"])


def test_record_swapped_to_a_customs_spec_stops_verify_before_its_code_runs(
    sandbox_dir: Path,
) -> None:
    """A record pointing at a spec with a .py operator: without --trust, verify stops with
    one paragraph naming the dataset, the spec and its operator file; evil.py never runs."""
    _customs_spec(sandbox_dir)
    (sandbox_dir / "spec.yaml").write_text(BASE, encoding="utf-8")
    made = CliRunner().invoke(app, ["spec", "generate", "spec.yaml", "-n", "1", "-o", "d.jsonl"])
    assert made.exit_code == 0, made.output
    records = [json.loads((sandbox_dir / "d.jsonl").read_text().splitlines()[0])] * 2
    for record in records:
        record["meta"]["source"] = "customs_spec.yaml"
    (sandbox_dir / "d.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    before = _listing(sandbox_dir)
    output, code = _cli(["verify", "d.jsonl", "--workers", "1"])
    assert code == 2 and "Traceback" not in output and SECRET not in output
    assert output.count("error (trust required)") == 1, output
    assert (
        "d.jsonl, field 'meta.source': record 1 was made from the spec customs_spec.yaml, "
        "which runs Python code"
    ) in output
    assert "'customs/evil.py'" in output and "`puzzleforge verify d.jsonl --trust`" in output
    assert _listing(sandbox_dir) == before
    with pytest.raises(puzzleforge.core.errors.TrustRequired):
        puzzleforge.verify(records[0], records[0]["answer"])


def test_recipes_cannot_import_modules(sandbox_dir: Path) -> None:
    (sandbox_dir / "mix.yaml").write_text(
        "components:\n  - family: os:system\n    count: 1\n"
        "  - family: antigravity:x\n    count: 1\n",
        encoding="utf-8",
    )
    before = _listing(sandbox_dir)
    output, code = _cli(["generate", "mix.yaml", "-o", "out.jsonl", "-q"])
    _assert_clean_failure(output, code)
    assert "neither a registered family" in output
    assert _listing(sandbox_dir) == before


def test_the_real_attempt_namespace_holds_only_allowed_names() -> None:
    """The namespace an attempt evaluates in: no module, no ctypes, no solver API."""
    import random
    import types

    from puzzleforge.spec.operators import Runtime
    from puzzleforge.spec.safe import SAFE_BUILTINS
    from puzzleforge.spec.z3space import Z3Space

    env = Z3Space().base_env()  # the Z3 names bound to a family's context
    env.update(Runtime(random.Random(0), env, lambda s: None).table())
    values = [v for k, v in env.items() if k != "__builtins__"] + list(SAFE_BUILTINS.values())
    assert not [v for v in values if isinstance(v, types.ModuleType)]
    names = set(env) | set(SAFE_BUILTINS)
    for bad in (
        "Solver",
        "Optimize",
        "set_param",
        "solve",
        "prove",
        "open_log",
        "Context",
        "main_ctx",
        "c_int",
        "CFUNCTYPE",
        "cast",
        "string_at",
        "memmove",
        "open",
        "eval",
        "exec",
        "getattr",
        "type",
        "object",
        "globals",
        "vars",
        "BoolRef",
        "ExprRef",
        "ModelRef",
        "ctypes",
        "sys",
        "os",
    ):
        assert bad not in names, bad


def test_attempts_leave_no_printing_or_global_z3_state(sandbox_dir: Path, capfd) -> None:
    """A spec using every Z3 name it may: nothing printed, no Z3 parameter changed."""
    from puzzleforge.spec.operators import Z3_EXPORTS

    assert not {"solve", "prove", "set_param", "set_option", "Solver"} & set(Z3_EXPORTS)
    spec = sandbox_dir / "ok.yaml"
    spec.write_text(
        _spec_with(
            "variable",
            "[simplify(Int('x') + 1), Sum([Int('y'), 2]), str(IntVal(3)), Int('x').sort().name()]",
        ),
        encoding="utf-8",
    )
    output, code = _cli(["spec", "generate", str(spec), "-n", "1"])
    assert code == 0, output
    assert json.loads(output.splitlines()[0])["family"] == "spec:ok"
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""
