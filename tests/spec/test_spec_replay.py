"""Config replay both ways, faithful template text, and records that survive a kill (issue 23).

Expected values come from the original's behaviour, worked out by hand from jsonpickle's
format (``py/id`` numbers the root and then every list and plain dict in document order;
``keys=False`` writes a non-string key as its repr) and from Python's string-literal
escapes, and were checked once against the reference program (bench/spec_replay.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from puzzleforge.cli.main import app
from puzzleforge.spec.configcodec import NotReplayable, decode_config, encode_value
from puzzleforge.spec.escapes import unescape
from puzzleforge.spec.family import load_spec_family

ROOT = Path(__file__).resolve().parents[2]
VASE = ROOT / "examples" / "specs" / "vase.yaml"
QUOTING = Path(__file__).resolve().parent / "data" / "quoting.yaml"


# ---- the codec ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [
        7,
        "x",
        None,
        True,
        1.5,
        [1, [2, 3]],
        (1, "a"),
        {3, 1, 2},
        {"k": (1, 2)},
        {2: 4, 3: 2},
        {(1, 2): "a", (0, 5): "b"},
        [{1: {"n": (2,)}}],
    ],
)
def test_our_values_round_trip_through_json(value) -> None:
    text = json.dumps(encode_value(value))
    assert decode_config(json.loads(text)) == value
    assert "py/repr" not in text


def test_non_string_keys_use_a_form_jsonpickle_rebuilds() -> None:
    # jsonpickle.decode turns this py/reduce back into {2: 4, 3: 2} (46-elevator's counts);
    # its plain-dict form {"2": 4} would give string keys in the original
    assert encode_value({2: 4, 3: 2}) == {
        "py/reduce": [{"py/type": "builtins.dict"}, {"py/tuple": [[[2, 4], [3, 2]]]}]
    }


def test_reads_the_originals_configs() -> None:
    # jsonpickle.encode({'p_num': 7, 'names': l, 'names2': l, 'm': [[7], [7] same], ...})
    raw = {
        "p_num": 7,
        "names": ["a", "b"],
        "names2": {"py/id": 1},
        "x": [[7], {"py/id": 3}],
        "counts": {"2": 4, "10": 1},
        "t": {"py/tuple": [1, 2]},
        "s": {"py/set": [5]},
        "r": {"py/reduce": [{"py/type": "builtins.range"}, {"py/tuple": [0, 3, 1]}]},
        "_queries": {"q1": {"pool": [["__0__"]]}},
    }
    got = decode_config(raw)
    assert got == {
        "p_num": 7,
        "names": ["a", "b"],
        "names2": ["a", "b"],
        "x": [[7], [7]],
        "counts": {2: 4, 10: 1},
        "t": (1, 2),
        "s": {5},
        "r": [0, 1, 2],
        "_queries": {"q1": {"pool": [["__0__"]]}},
    }
    assert got["names2"] is got["names"]


@pytest.mark.parametrize(
    "bad",
    [
        {"py/repr": "{2: 4}"},
        {"py/object": "os.system"},
        {"py/id": 9},
        {"py/reduce": [{"py/type": "os.system"}, {"py/tuple": ["ls"]}]},
    ],
)
def test_unreadable_values_are_not_replayable(bad) -> None:
    with pytest.raises(NotReplayable):
        decode_config({"v": bad})


def _vase_records(tmp_path: Path, n: int = 3) -> list[dict]:
    out = tmp_path / "v.jsonl"
    # from tmp_path, like the subprocess runs: meta.source is relative to the working directory
    with contextlib.chdir(tmp_path):
        r = CliRunner().invoke(
            app,
            ["spec", "generate", str(VASE), "-n", str(n), "--seed", "4", "--out", str(out), "-q"],
        )
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_our_configs_replay_through_the_codec(tmp_path: Path) -> None:
    fam = load_spec_family(VASE)
    for rec in _vase_records(tmp_path):
        cfg = json.loads(json.dumps(rec["config"]))
        again = fam.generate(fam.Params(attempts=1), random.Random(0), config=cfg)
        assert (again.extra["problem"], again.answer) == (rec["problem"], rec["answer"])


def test_replay_skips_and_counts_configs_it_cannot_replay(tmp_path: Path) -> None:
    recs = _vase_records(tmp_path)
    recs[1]["config"]["p_num"] = {"py/repr": "3"}  # a value this reader will not evaluate
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in recs))
    out = tmp_path / "re.jsonl"
    r = CliRunner().invoke(
        app, ["spec", "generate", str(VASE), "--config", str(bad), "--out", str(out), "-q"]
    )
    assert r.exit_code == 2
    assert (
        "1 of 3 config(s) in " + str(bad) + " could not be replayed and were skipped "
        "(numbered from 1): #2 (config not replayable: config value tagged py/repr). "
        "The other 2 were written."
    ) in r.stderr
    again = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(a["problem"], a["answer"]) for a in again] == [
        (recs[0]["problem"], recs[0]["answer"]),
        (recs[2]["problem"], recs[2]["answer"]),
    ]


# ---- faithful text ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,expected",
    [
        (r"say \"hi\"", 'say "hi"'),
        (r"a\nb", "a\nb"),
        (r"back\\slash", "back\\slash"),
        (r"\d stays", "\\d stays"),
        (r"\x41\u00e9\101", "Aé" + "A"),
        (r"tab\there", "tab\there"),
        (r"\'q\'", "'q'"),
        ("no escapes", "no escapes"),
        (r"\N{BULLET}", "\u2022"),
    ],
)
def test_unescape_is_python_string_literal_escapes(text: str, expected: str) -> None:
    assert unescape(text) == expected


def test_templates_render_as_the_original_prints_them() -> None:
    # the reference's output for tests/spec/data/quoting.yaml (translator.py -t, verbatim)
    expected = (
        'There are 3 people "Ann, Bob, Cy". Ann said "I did it." loudly. Bob said '
        '"not me", a tab\there, a backslash \\ and \\d kept. Cy said "Cy is All right".'
        "\nLine two A 1. Who did it? Give the name without 'quotes'.\n"
    )
    fam = load_spec_family(QUOTING)
    p = fam.generate(fam.Params(), random.Random(1))
    assert p.extra["problem"] == expected
    assert p.answer == "Ann"


# ---- a killed run keeps its records -------------------------------------------------------------
def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _wait_for_lines(path: Path, count: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 300  # a guard against hanging, not a timing assertion
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text(encoding="utf-8").count("\n") >= count:
            return
        time.sleep(0.05)
    pytest.fail(f"no {count} records in {path} (exit {proc.poll()})")


def test_killed_generate_keeps_the_records_written(tmp_path: Path) -> None:
    out = tmp_path / "many.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "puzzleforge",
            "spec",
            "generate",
            str(VASE),
            "-n",
            "100000",
            "--seed",
            "4",
            "--out",
            str(out),
            "-q",
        ],
        env=_env(),
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    partial = out.with_name(out.name + ".partial")
    try:
        _wait_for_lines(partial, 3, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    lines = partial.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 3
    recs = [json.loads(line) for line in lines]  # every kept line is a whole record
    assert recs[:3] == _vase_records(tmp_path)  # the same records a complete run writes first


def test_killed_generate_to_stdout_has_printed_whole_records(tmp_path: Path) -> None:
    # block-buffered output would hold the records back and cut one in half at 8 KiB
    printed = tmp_path / "stdout.jsonl"
    with printed.open("wb") as fh:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "puzzleforge",
                "spec",
                "generate",
                str(VASE),
                "-n",
                "100000",
                "--seed",
                "4",
                "-q",
            ],
            env=_env(),
            cwd=tmp_path,
            stdout=fh,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait_for_lines(printed, 3, proc)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    text = printed.read_text(encoding="utf-8")
    assert text.endswith("\n")
    recs = [json.loads(line) for line in text.splitlines()]
    assert recs[:3] == _vase_records(tmp_path)


CORPUS = ROOT.parent / "shared" / "corpus" / "puzzleclone"


@pytest.mark.skipif(not (CORPUS / "1-hamburger.yaml").exists(), reason="../shared corpus missing")
def test_multi_template_query_config_has_the_counts_the_original_reads() -> None:
    fam = load_spec_family(CORPUS / "1-hamburger.yaml")
    p = fam.generate(fam.Params(), random.Random(1))
    q = p.config["_queries"]["q1"]
    assert list(q) == ["pool_domain", "pool_correct_num", "pool_incorrect_num", "pool"]
    assert [
        a + b for a, b in zip(q["pool_correct_num"], q["pool_incorrect_num"], strict=True)
    ] == q["pool_domain"]
    # pool_correct_num counts the options whose statement holds (one, for "which is true")
    assert sum(q["pool_correct_num"]) == 1 and len(q["pool"]) == sum(q["pool_domain"])
